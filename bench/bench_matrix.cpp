// The user-case benchmark matrix (bench/make_table.sh writes bench/TABLE.md from it): swizzle and deswizzle through
// the public API on the buffers, layouts and thread settings users have, each
// cell as a ratio to memcpy of the same bytes on the same buffers, timed in
// the same run.
//
//   swz_bench_matrix --benchmark_out=matrix.json --benchmark_out_format=json
//   bench/matrix_table.py matrix.json
//
// Axes:
//   layout     std64k; nv-block-linear:gob=tegra (block height inferred);
//              amd-gfx9-sw64k-s-x (Vega10 pipe/bank XOR; 4-byte elements only,
//              the other formats are skipped); intel-tiley
//   format     R8_UNORM, R8G8B8A8_UNORM, BC7_UNORM (16-byte blocks), R32G32B32A32_FLOAT
//   size       512² (in cache), 4096² and 8192² (SWZ_MATRIX_SIZES="512,4096"
//              picks others)
//   direction  swizzle (write_to_subresource), deswizzle (read_from_subresource)
//   buffers    "page": page-aligned, MADV_HUGEPAGE; "user": what malloc and
//              numpy hand out for large arrays: 4 KiB pages (MADV_NOHUGEPAGE),
//              both pointers 16 bytes past a page (16 mod 64)
//   threads    1, "auto" (CopyOptions::threads = 0), and 2 from 8192²
//
// Method, per cell: one Google Benchmark run of R >= 10 repetitions (the
// benchmark's iterations). Each repetition times, back to back, a batch of k
// memcpy calls of the cell's linear bytes between the same two buffers, in
// the same direction, then a batch of k kernel calls (and, for "auto" cells,
// a batch of k single-thread kernel calls, likewise for "t2"); k is chosen so that a batch lasts
// about a millisecond. Counters are medians over the repetitions:
//   GBps          linear bytes / kernel time (10^9 B/s)
//   x_memcpy      memcpy time / kernel time (single-thread glibc memcpy)
//   memcpy_GBps   that memcpy
//   x_1thread     "auto" and "t2" cells: single-thread kernel time / their kernel time
//   x_1thread_best  the same on the fastest repetition of each (wall time)
//   x_memcpy_cpu, GBps_cpu
//                 single-thread cells: the same on the calling thread's CPU
//                 time (CLOCK_THREAD_CPUTIME_ID), which leaves out the time
//                 the scheduler gave to other processes; on a shared machine
//                 these are the figures to read (matrix_table.py does)
//   x_floor_cpu, floor_x_memcpy_cpu, floor_GBps_cpu
//                 single-thread cells of at most 16 MiB (SWZ_MATRIX_FLOOR_MAX_MIB
//                 to raise it): the cell's floor (floor_gather.hpp: its 16-byte
//                 runs copied at precomputed offsets, destination in order,
//                 streaming stores above 32 MiB) timed in the same
//                 repetitions; x_floor_cpu = floor time / kernel time (1 =
//                 the kernel runs at its floor), floor_x_memcpy_cpu = memcpy
//                 time / floor time (what the access pattern alone allows)
// Buffers are allocated once per buffer kind and pre-faulted outside every
// timed loop; cells run grouped by buffer kind.
#include <benchmark/benchmark.h>
#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_buffers.hpp"
#include "floor_gather.hpp"
#include "swz/swz.hpp"
#include "tune_knobs.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// CPU time of the calling thread: excludes the time the scheduler gives to
// other processes, which on a shared machine is most of the noise of a
// single-thread measurement.
double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A batch's wall time and calling-thread CPU time.
struct Span {
  Clock::time_point w0 = Clock::now();
  double c0 = thread_cpu_seconds();
  void stop(int k, std::vector<double>* wall, std::vector<double>* cpu) const {
    const double c = thread_cpu_seconds() - c0;
    wall->push_back(seconds_since(w0) / k);
    cpu->push_back(c / k);
  }
};

// ---- buffers (bench_buffers.hpp) ----------------------------------------------------

Arena g_res, g_lin;

// ---- cells ---------------------------------------------------------------------------

struct Cell {
  std::string layout_key;   // short name in the benchmark name
  std::string layout_name;  // swz layout name
  std::string format;
  uint32_t size_px = 0;
  bool to_swizzled = true;
  bool user = false;       // user buffers (4 KiB pages, 16 mod 64)
  unsigned threads = 1;     // 0 = automatic
};

std::string cell_name(const Cell& c) {
  std::string name = std::string("matrix/") + (c.to_swizzled ? "swizzle/" : "deswizzle/") + c.layout_key + "/" +
                     c.format + "/" + std::to_string(c.size_px) + "/" + (c.user ? "user" : "page") + "/t";
  name += c.threads == 0 ? std::string("auto") : std::to_string(c.threads);
  return name;
}

void BM_Cell(benchmark::State& st, Cell c) {
  swz::TextureDesc desc;
  if (!swz::find_format(c.format, &desc.format).ok()) {
    st.SkipWithError("unknown format");
    return;
  }
  desc.width = desc.height = c.size_px;
  swz::Layout layout;
  swz::Status s = swz::make_layout_from_name(c.layout_name, desc, swz::LayoutOptions{}, &layout);
  if (!s.ok()) {
    st.SkipWithError(s.message().c_str());
    return;
  }
  const swz::SubresourceLayout& sl = layout.sub(0);
  const uint64_t row_pitch = uint64_t{sl.width_el} * sl.element_bytes;
  const uint64_t lin_bytes = row_pitch * sl.height_el;
  const uint64_t res_bytes = layout.size();
  if (!g_res.reserve(res_bytes, !c.user) || !g_lin.reserve(lin_bytes, !c.user)) {
    st.SkipWithError("out of memory");
    return;
  }
  const size_t off = c.user ? kUserOffset_B : 0;
  uint8_t* res = g_res.base + off;
  uint8_t* lin = g_lin.base + off;
  swz::CopyOptions o1;
  o1.threads = 1;
  swz::CopyOptions oa;  // the cell's threads when not one: automatic or a count
  oa.threads = c.threads;
  const bool multi = c.threads != 1;
  auto kernel = [&](const swz::CopyOptions& o) {
    return c.to_swizzled
               ? swz::write_to_subresource(layout, res, res_bytes, 0, nullptr, lin, lin_bytes, row_pitch, 0, o)
               : swz::read_from_subresource(lin, lin_bytes, row_pitch, 0, layout, res, res_bytes, 0, nullptr, o);
  };
  // memcpy in the kernel's direction: linear -> resource when swizzling
  auto copy = [&] {
    if (c.to_swizzled)
      std::memcpy(res, lin, lin_bytes);
    else
      std::memcpy(lin, res, lin_bytes);
  };
  // warm up (and check the call), then size the batches
  s = kernel(multi ? oa : o1);
  if (!s.ok()) {
    st.SkipWithError(s.message().c_str());
    return;
  }
  auto t0 = Clock::now();
  copy();
  benchmark::ClobberMemory();
  const double one = std::max(seconds_since(t0), 1e-7);
  const int k = static_cast<int>(std::clamp(1e-3 / one, 1.0, 1000.0));
  std::vector<double> tm, tk, t1, cm, ck, c1, tf, cf;
  // the floor: single-thread cells of at most 16 MiB whose pieces are runs
  std::vector<uint32_t> fsrc;
  // (SWZ_MATRIX_FLOOR_MAX_MIB raises the 16 MiB bound; above 32 MiB the
  // floor streams its stores, as every kernel does there)
  static const uint64_t floor_max_B = [] {
    const char* e = std::getenv("SWZ_MATRIX_FLOOR_MAX_MIB");
    return (e && *e ? std::strtoull(e, nullptr, 10) : 16) << 20;
  }();
  if (!multi && lin_bytes <= floor_max_B) floor_sources(layout, c.to_swizzled, &fsrc);
  const bool floor_streams = lin_bytes > (uint64_t{32} << 20);
  for (auto _ : st) {
    Span sm;
    for (int i = 0; i < k; ++i) copy();
    benchmark::ClobberMemory();
    sm.stop(k, &tm, &cm);
    if (!fsrc.empty()) {
      uint8_t* const fd = c.to_swizzled ? res : lin;
      const uint8_t* const fs = c.to_swizzled ? lin : res;
      Span sf;
      for (int i = 0; i < k; ++i)
        floor_streams ? floor_gather_stream(fd, fs, fsrc.data(), fsrc.size())
                      : floor_gather(fd, fs, fsrc.data(), fsrc.size());
      benchmark::ClobberMemory();
      sf.stop(k, &tf, &cf);
    }
    if (multi) {
      Span s1;
      for (int i = 0; i < k; ++i) s = kernel(o1);
      benchmark::ClobberMemory();
      s1.stop(k, &t1, &c1);
    }
    Span sk;
    for (int i = 0; i < k; ++i) s = kernel(multi ? oa : o1);
    benchmark::ClobberMemory();
    sk.stop(k, &tk, &ck);
    st.SetIterationTime(tk.back());
  }
  if (!s.ok()) {
    st.SkipWithError(s.message().c_str());
    return;
  }
  const double mk = median(tk), mm = median(tm);
  st.counters["GBps"] = static_cast<double>(lin_bytes) / mk / 1e9;
  st.counters["memcpy_GBps"] = static_cast<double>(lin_bytes) / mm / 1e9;
  st.counters["x_memcpy"] = mm / mk;
  if (multi) {
    st.counters["x_1thread"] = median(t1) / mk;
    // the same on the fastest repetition of each: on a shared machine the
    // median of wall times mostly measures the other processes
    st.counters["x_1thread_best"] = *std::min_element(t1.begin(), t1.end()) / *std::min_element(tk.begin(), tk.end());
  } else {
    // single thread: the same ratio on thread CPU time (robust to other load)
    st.counters["x_memcpy_cpu"] = median(cm) / median(ck);
    st.counters["GBps_cpu"] = static_cast<double>(lin_bytes) / median(ck) / 1e9;
    if (!cf.empty()) {
      st.counters["x_floor_cpu"] = median(cf) / median(ck);
      st.counters["floor_x_memcpy_cpu"] = median(cm) / median(cf);
      st.counters["floor_GBps_cpu"] = static_cast<double>(lin_bytes) / median(cf) / 1e9;
    }
  }
  st.counters["batch"] = k;
}

void register_all() {
  struct L {
    const char* key;
    const char* name;
  };
  const L layouts[] = {{"std64k", "std64k"},
                       {"nv-bl", "nv-block-linear:gob=tegra"},
                       {"amd-sw64k-s-x", "amd-gfx9-sw64k-s-x"},
                       {"intel-tiley", "intel-tiley"}};
  const char* formats[] = {"R8_UNORM", "R8G8B8A8_UNORM", "BC7_UNORM", "R32G32B32A32_FLOAT"};
  const char* reps_env = std::getenv("SWZ_MATRIX_REPS");
  const int reps = std::max(10, reps_env ? std::atoi(reps_env) : 15);
  // SWZ_MATRIX_SIZES="512,4096": the sizes (default 512, 4096 and 8192;
  // 8192² RGBA32F is 1 GiB a side)
  std::vector<uint32_t> sizes = {512u, 4096u, 8192u};
  if (const char* e = std::getenv("SWZ_MATRIX_SIZES"); e && *e) {
    sizes.clear();
    for (const char* p = e; *p;) {
      char* end = nullptr;
      const unsigned long v = std::strtoul(p, &end, 10);
      if (end == p) break;
      if (v >= 4 && v <= 32768) sizes.push_back(static_cast<uint32_t>(v));
      p = *end == ',' ? end + 1 : end;
      if (*end != ',') break;
    }
  }
  for (bool user : {false, true})  // grouped by buffer kind: one allocation each
    for (uint32_t n : sizes)
      for (const L& l : layouts)
        for (const char* f : formats) {
          // amd-gfx9-sw64k-s-x has public equations for 4-byte elements only
          if (std::strcmp(l.key, "amd-sw64k-s-x") == 0 && std::strcmp(f, "R8G8B8A8_UNORM") != 0) continue;
          for (bool to_swz : {true, false})
            // one thread, automatic threads, and two threads from 8192²
            // (target: two threads >= 1.6x one there)
            for (unsigned threads : {1u, 0u, 2u}) {
              if (threads == 2 && n < 8192) continue;
              Cell c{l.key, l.name, f, n, to_swz, user, threads};
              benchmark::RegisterBenchmark(cell_name(c).c_str(), BM_Cell, c)
                  ->UseManualTime()
                  ->Unit(benchmark::kMicrosecond)
                  ->Iterations(reps);
            }
        }
}

}  // namespace

int main(int argc, char** argv) {
  if (const char* tune = std::getenv("SWZ_MATRIX_TUNE"); tune && !apply_tuning(tune)) {
    std::fprintf(stderr, "SWZ_MATRIX_TUNE: unknown knob or bad value in '%s'\n", tune);
    return 1;
  }
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_res.release();
  g_lin.release();
  return 0;
}
