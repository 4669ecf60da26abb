// CPU benchmarks: swizzle / deswizzle through the
// public API, per backend and thread count, each reported as GB/s and as a
// ratio to memcpy of the same bytes measured in the same benchmark run.
//
//   bench_cpu --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
//
// Counters (take the median row; within a run each is the median of the
// iterations):
//   GBps      linear bytes moved per second (10^9 B/s)
//   x_memcpy  memcpy time / kernel time for the same byte count, memcpy timed
//             right before the kernel in the same run, same thread count
//   memcpy_GBps  that memcpy
//   x_ntcopy  the same against a copy with streaming stores (see nt_copy)
// Buffers are allocated once, with transparent huge pages where the kernel
// allows them, and pre-faulted outside every timed loop (page faults are very
// slow in VMs); SWZ_BENCH_HUGEPAGES=0 turns huge pages off.
#include <benchmark/benchmark.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "swz/swz.hpp"
#include "core/plan.hpp"  // internal: the compiled tables
#ifdef SWZ_HAVE_SIMD
#include "backends/simd/geometry.hpp"  // kernel tunings, swept by the tune/ benchmarks
#endif

namespace {

using Clock = std::chrono::steady_clock;

// ---- buffers -----------------------------------------------------------------

struct Buffer {
  uint8_t* p = nullptr;
  size_t cap = 0;
  void reserve(size_t n) {
    if (n <= cap) return;
    if (p) munmap(p, cap);
    cap = (n + (2u << 20) - 1) & ~size_t{(2u << 20) - 1};
    void* m = mmap(nullptr, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      p = nullptr;
      cap = 0;
      return;
    }
    p = static_cast<uint8_t*>(m);
    const char* hp = std::getenv("SWZ_BENCH_HUGEPAGES");
    if (!hp || std::strcmp(hp, "0") != 0) madvise(p, cap, MADV_HUGEPAGE);
    // pre-fault with non-zero bytes
    std::memset(p, 0x5a, cap);
  }
};
Buffer g_res, g_lin;

// ---- memcpy of the same bytes, same thread count ----------------------------------

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A plain copy with streaming (non-temporal) stores: the fastest a copy of
// memory-sized data can be here. glibc's memcpy picks streaming stores only
// above 3/4 of the L3 size it reads from the CPU (getconf LEVEL3_CACHE_SIZE;
// a VM may report hundreds of MiB), so its memcpy may keep regular stores up
// to that size; x_ntcopy compares with this copy instead.
void nt_copy(uint8_t* dst, const uint8_t* src, size_t n) {
#if defined(__SSE2__)
  size_t i = 0;
  if ((reinterpret_cast<uintptr_t>(dst) & 15) == 0) {
    for (; i + 64 <= n; i += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
      const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
    }
    _mm_sfence();
  }
  std::memcpy(dst + i, src + i, n - i);
#else
  std::memcpy(dst, src, n);
#endif
}

void par_copy(uint8_t* dst, const uint8_t* src, size_t n, unsigned threads, bool nt) {
  if (threads <= 1) {
    if (nt)
      nt_copy(dst, src, n);
    else
      std::memcpy(dst, src, n);
    return;
  }
  std::vector<std::thread> pool;
  const size_t per = ((n / threads) + 4095) & ~size_t{4095};
  for (unsigned t = 0; t < threads; ++t) {
    const size_t a = std::min(n, t * per), e = std::min(n, a + per);
    if (a < e)
      pool.emplace_back([=] {
        if (nt)
          nt_copy(dst + a, src + a, e - a);
        else
          std::memcpy(dst + a, src + a, e - a);
      });
  }
  for (auto& t : pool) t.join();
}

// Median time of a reference copy over ~50 ms (at least 3 runs).
double copy_seconds(uint8_t* dst, const uint8_t* src, size_t n, unsigned threads, bool nt) {
  std::vector<double> ts;
  const auto start = Clock::now();
  while (ts.size() < 3 || (seconds_since(start) < 0.05 && ts.size() < 101)) {
    const auto t0 = Clock::now();
    par_copy(dst, src, n, threads, nt);
    benchmark::ClobberMemory();
    ts.push_back(seconds_since(t0));
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

// Per-iteration times of one benchmark run; the counters use their median, as
// the memcpy reference does, so a time slice lost to another process on this
// shared 2-core machine does not skew one side only.
struct Times {
  std::vector<double> t;
  Times() { t.reserve(1 << 16); }
  void add(double s) {
    if (t.size() < t.capacity()) t.push_back(s);
  }
  double median() {
    if (t.empty()) return 0;
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

unsigned all_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// ---- the textures ----------------------------------------------------------------

struct Tex {
  std::string name;  // e.g. "std64k/R8G8B8A8_UNORM/4096x4096"
  swz::TextureDesc desc;
  swz::LayoutSpec spec;
};

Tex make_tex(const char* format, uint32_t w, uint32_t h, uint32_t d, const char* pattern_name = nullptr,
             const char* pattern_text = nullptr) {
  Tex t;
  if (!swz::find_format(format, &t.desc.format).ok()) std::abort();
  t.desc.width = w;
  t.desc.height = h;
  t.desc.depth = d;
  t.desc.dimension = d > 1 ? swz::Dimension::Texture3D : swz::Dimension::Texture2D;
  if (pattern_text) {
    t.spec.kind = swz::LayoutKind::Pattern;
    if (!swz::parse_pattern_text(pattern_text, &t.spec.pattern).ok()) std::abort();
  } else {
    t.spec.kind = swz::LayoutKind::Std64K;
  }
  t.name = std::string(pattern_name ? pattern_name : "std64k") + "/" + format + "/" + std::to_string(w) + "x" +
           std::to_string(h) + (d > 1 ? std::string("x") + std::to_string(d) : std::string());
  return t;
}

// The XOR-heavy device-dependent pattern (32bpp): the standard interleave with
// two XOR chains on most bits above the line and postamble XORs on 8..11.
constexpr const char* kXorHeavy =
    "X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3^X5 X5^Y4 Y4^X6^Y8 X6^Y5^X9 Y5^X7 X7^Y6 Y6^X8 X8^Y7 "
    "post8=Y9 post9=X10 post10=Y10^X11 post11=X12";

struct Prepared {
  swz::Layout layout;
  uint64_t lin_bytes = 0, row_pitch = 0, depth_pitch = 0;
};

bool prepare(const Tex& t, Prepared* p, benchmark::State& st) {
  swz::Status s = swz::make_layout(t.desc, t.spec, &p->layout);
  if (!s.ok()) {
    st.SkipWithError(s.message().c_str());
    return false;
  }
  const swz::SubresourceLayout& sl = p->layout.sub(0);
  p->row_pitch = uint64_t{sl.width_el} * sl.element_bytes;
  p->depth_pitch = p->row_pitch * sl.height_el;
  p->lin_bytes = p->depth_pitch * sl.depth;
  g_res.reserve(std::max<uint64_t>(p->layout.size(), p->lin_bytes));
  g_lin.reserve(p->lin_bytes);
  if (!g_res.p || !g_lin.p) {
    st.SkipWithError("out of memory");
    return false;
  }
  return true;
}

// ---- swizzle / deswizzle -------------------------------------------------------------

void BM_Copy(benchmark::State& st, Tex tex, swz::Backend be, bool to_swizzled, unsigned threads, bool wc) {
  Prepared p;
  if (!prepare(tex, &p, st)) return;
  swz::CopyOptions o;
  o.backend = be;
  o.threads = threads;
  o.write_combined = wc;
  const unsigned th = threads == 0 ? all_threads() : threads;
  const double mc = copy_seconds(g_res.p, g_lin.p, p.lin_bytes, th, false);
  const double nc = copy_seconds(g_res.p, g_lin.p, p.lin_bytes, th, true);
  Times times;
  for (auto _ : st) {
    const auto t0 = Clock::now();
    swz::Status s = to_swizzled ? swz::write_to_subresource(p.layout, g_res.p, g_res.cap, 0, nullptr, g_lin.p,
                                                            p.lin_bytes, p.row_pitch, p.depth_pitch, o)
                                : swz::read_from_subresource(g_lin.p, p.lin_bytes, p.row_pitch, p.depth_pitch, p.layout,
                                                             g_res.p, g_res.cap, 0, nullptr, o);
    benchmark::ClobberMemory();
    const double dt = seconds_since(t0);
    if (!s.ok()) {
      st.SkipWithError(s.message().c_str());
      return;
    }
    st.SetIterationTime(dt);
    times.add(dt);
  }
  const double per = times.median();
  st.counters["GBps"] = static_cast<double>(p.lin_bytes) / per / 1e9;
  st.counters["x_memcpy"] = mc / per;
  st.counters["memcpy_GBps"] = static_cast<double>(p.lin_bytes) / mc / 1e9;
  st.counters["x_ntcopy"] = nc / per;
  st.counters["ntcopy_GBps"] = static_cast<double>(p.lin_bytes) / nc / 1e9;
}

#ifdef SWZ_HAVE_SIMD
// The same copy under a kernel tuning (strip heights, chunk width, streaming
// threshold): the sweeps behind the defaults and the thread threshold.
void BM_Tune(benchmark::State& st, Tex tex, bool to_swizzled, unsigned threads, swz::detail::simd::Tuning t) {
  const swz::detail::simd::Tuning saved = swz::detail::simd::tuning();
  swz::detail::simd::tuning() = t;
  BM_Copy(st, tex, swz::Backend::Highway, to_swizzled, threads, false);
  swz::detail::simd::tuning() = saved;
}
#endif

void BM_Memcpy(benchmark::State& st, uint64_t bytes, unsigned threads, bool nt) {
  g_res.reserve(bytes);
  g_lin.reserve(bytes);
  Times times;
  for (auto _ : st) {
    const auto t0 = Clock::now();
    par_copy(g_res.p, g_lin.p, bytes, threads, nt);
    benchmark::ClobberMemory();
    const double dt = seconds_since(t0);
    st.SetIterationTime(dt);
    times.add(dt);
  }
  st.counters["GBps"] = static_cast<double>(bytes) / times.median() / 1e9;
}

// ---- per-call overhead: 256 boxes of 64x64 texels vs one call of the same bytes ------

void BM_SmallBoxes(benchmark::State& st, swz::Backend be, bool to_swizzled) {
  const Tex tex = make_tex("R8G8B8A8_UNORM", 4096, 4096, 1);
  Prepared p;
  if (!prepare(tex, &p, st)) return;
  swz::CopyOptions o;
  o.backend = be;
  o.threads = 1;
  // 256 boxes tile the 1024x1024 corner; the whole corner is one call.
  const uint64_t lrp = 1024 * 4;
  auto call = [&](const swz::Box& b, uint8_t* lin) {
    return to_swizzled ? swz::write_to_subresource(p.layout, g_res.p, g_res.cap, 0, &b, lin, g_lin.cap, lrp, 0, o)
                       : swz::read_from_subresource(lin, g_lin.cap, lrp, 0, p.layout, g_res.p, g_res.cap, 0, &b, o);
  };
  auto boxes = [&] {
    for (uint32_t by = 0; by < 16; ++by)
      for (uint32_t bx = 0; bx < 16; ++bx) {
        const swz::Box b{bx * 64, by * 64, 0, bx * 64 + 64, by * 64 + 64, 1};
        (void)call(b, g_lin.p + by * 64 * lrp + bx * 64 * 4);
      }
  };
  const swz::Box whole{0, 0, 0, 1024, 1024, 1};
  // time of the same bytes in one call: median of a few
  std::vector<double> ts;
  for (int i = 0; i < 21; ++i) {
    const auto t0 = Clock::now();
    (void)call(whole, g_lin.p);
    benchmark::ClobberMemory();
    ts.push_back(seconds_since(t0));
  }
  std::sort(ts.begin(), ts.end());
  const double one = ts[ts.size() / 2];
  Times times;
  for (auto _ : st) {
    const auto t0 = Clock::now();
    boxes();
    benchmark::ClobberMemory();
    const double dt = seconds_since(t0);
    st.SetIterationTime(dt);
    times.add(dt);
  }
  const double per = times.median();
  st.counters["ns_per_call"] = per / 256 * 1e9;
  st.counters["overhead_ns_per_call"] = (per - one) / 256 * 1e9;
  st.counters["GBps"] = 1024.0 * 1024 * 4 / per / 1e9;
}

// ---- plan compile time -------------------------------------------------------------------

void BM_PlanCompile(benchmark::State& st, std::string text, uint32_t eb) {
  swz::Pattern p;
  if (!swz::parse_pattern_text(text, &p).ok()) {
    st.SkipWithError("bad pattern");
    return;
  }
  for (auto _ : st) {
    std::shared_ptr<const swz::Plan> plan;
    swz::Status s = swz::Plan::compile(p, eb, &plan);
    benchmark::DoNotOptimize(plan);
    if (!s.ok()) {
      st.SkipWithError(s.message().c_str());
      return;
    }
  }
  st.counters["us_per_compile"] = benchmark::Counter(static_cast<double>(st.iterations()) * 1e-6,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// ---- registration --------------------------------------------------------------------------

const char* be_name(swz::Backend b) { return swz::backend_name(b); }

void reg_copy(const Tex& t, swz::Backend be, bool to_swz, unsigned threads, bool wc = false) {
  const std::string name = std::string(to_swz ? "swizzle/" : "deswizzle/") + t.name + "/" + be_name(be) + "/t" +
                           (threads == 0 ? std::string("all") : std::to_string(threads)) + (wc ? "/wc" : "");
  benchmark::RegisterBenchmark(name.c_str(), BM_Copy, t, be, to_swz, threads, wc)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond)
      ->MinTime(0.1);
}

void register_all() {
  using swz::Backend;
  const char* formats[] = {"R8_UNORM",           "R8G8_UNORM", "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
                           "R32G32B32A32_FLOAT", "BC1_UNORM",  "BC7_UNORM"};
  const uint32_t sizes[] = {512, 4096, 8192};
  for (uint32_t n : sizes)
    for (const char* f : formats) {
      const Tex t = make_tex(f, n, n, 1);
      for (bool to_swz : {true, false}) {
        reg_copy(t, Backend::Highway, to_swz, 1);
        if (n >= 4096) reg_copy(t, Backend::Highway, to_swz, 0);
        if (std::strcmp(f, "R8G8B8A8_UNORM") == 0) {
          reg_copy(t, Backend::Xsimd, to_swz, 1);
          reg_copy(t, Backend::Scalar, to_swz, 1);
          if (n >= 4096) reg_copy(t, Backend::Highway, to_swz, 1, true);
        }
      }
    }
  // 3D: in cache (1 MiB / 4 MiB) and from memory (256 MiB / 1 GiB)
  for (const char* f : {"R8G8B8A8_UNORM", "R32G32B32A32_FLOAT"}) {
    const Tex small = make_tex(f, 128, 128, 16);
    for (bool to_swz : {true, false}) reg_copy(small, Backend::Highway, to_swz, 1);
    const Tex t = make_tex(f, 2048, 2048, 16);
    for (bool to_swz : {true, false}) {
      reg_copy(t, Backend::Highway, to_swz, 1);
      reg_copy(t, Backend::Highway, to_swz, 0);
      if (f[1] == '8') reg_copy(t, Backend::Xsimd, to_swz, 1);
    }
  }
  // XOR-heavy device-dependent pattern
  for (uint32_t n : {512u, 4096u}) {
    const Tex t = make_tex("R8G8B8A8_UNORM", n, n, 1, "xorheavy", kXorHeavy);
    for (bool to_swz : {true, false}) {
      reg_copy(t, Backend::Highway, to_swz, 1);
      reg_copy(t, Backend::Xsimd, to_swz, 1);
      if (n >= 4096) reg_copy(t, Backend::Highway, to_swz, 0);
    }
  }
  // memcpy rows for the table
  for (uint64_t bytes : {uint64_t{512} * 512 * 4, uint64_t{4096} * 4096 * 4, uint64_t{8192} * 8192 * 4})
    for (unsigned th : {1u, all_threads()})
      for (bool nt : {false, true}) {
        const std::string name =
            std::string(nt ? "ntcopy/" : "memcpy/") + std::to_string(bytes) + "/t" + std::to_string(th);
        benchmark::RegisterBenchmark(name.c_str(), BM_Memcpy, bytes, th, nt)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond)
            ->MinTime(0.1);
      }
  // per-call overhead
  for (Backend be : {Backend::Highway, Backend::Xsimd, Backend::Scalar})
    for (bool to_swz : {true, false}) {
      const std::string name = std::string("boxes256x64x64/") + (to_swz ? "swizzle/" : "deswizzle/") + be_name(be);
      benchmark::RegisterBenchmark(name.c_str(), BM_SmallBoxes, be, to_swz)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond)
          ->MinTime(0.1);
    }
  // plan compile
  const char* std_texts[] = {"X0 X1 X2 X3 Y0 Y1 Y2 Y3 Y4 X4 Y5 X5 Y6 X6 Y7 X7",
                             "X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8",
                             "X0 X1 X2 X3 Y0 Y1 X4 X5 Y2 X6 Y3 X7 Y4 X8 Y5 X9"};
  const uint32_t std_eb[] = {1, 4, 16};
  for (int i = 0; i < 3; ++i) {
    const std::string name = "plan_compile/std64k/" + std::to_string(std_eb[i] * 8) + "bpp";
    benchmark::RegisterBenchmark(name.c_str(), BM_PlanCompile, std::string(std_texts[i]), std_eb[i]);
  }
  benchmark::RegisterBenchmark("plan_compile/xorheavy/32bpp", BM_PlanCompile, std::string(kXorHeavy), 4u);

#ifdef SWZ_HAVE_SIMD
  // ---- sweeps (run with --benchmark_filter=tune/...) ----
  using swz::detail::simd::Tuning;
  const Tuning def;
  auto reg_tune = [](const std::string& name, const Tex& t, bool to_swz, unsigned threads, const Tuning& tu) {
    benchmark::RegisterBenchmark(name.c_str(), BM_Tune, t, to_swz, threads, tu)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond)
        ->MinTime(0.1);
  };
  // thread threshold: 1 vs all threads by size (RGBA8)
  for (uint32_t n : {128u, 256u, 384u, 512u, 768u, 1024u, 1536u, 2048u})
    for (bool to_swz : {true, false})
      for (unsigned th : {1u, all_threads()})
        reg_tune(std::string("tune/threads/") + (to_swz ? "swizzle/" : "deswizzle/") + std::to_string(n) + "/t" +
                     std::to_string(th),
                 make_tex("R8G8B8A8_UNORM", n, n, 1), to_swz, th, def);
  // streaming threshold: regular vs streaming stores by size (RGBA8, 1 thread)
  for (uint32_t n : {1024u, 1448u, 2048u, 2896u, 4096u})
    for (bool to_swz : {true, false})
      for (int stream : {0, 1}) {
        Tuning tu = def;
        tu.stream_min_bytes = stream ? 0 : ~uint64_t{0};
        reg_tune(std::string("tune/stream/") + (to_swz ? "swizzle/" : "deswizzle/") + std::to_string(n) +
                     (stream ? "/nt" : "/regular"),
                 make_tex("R8G8B8A8_UNORM", n, n, 1), to_swz, 1, tu);
      }
  // strip height and chunk width
  for (const char* f : {"R8_UNORM", "R8G8B8A8_UNORM", "R32G32B32A32_FLOAT"})
    for (uint32_t n : {512u, 4096u})
      for (bool to_swz : {true, false}) {
        for (unsigned sb : {0u, 6u, 7u, 8u, 9u, 10u}) {
          Tuning tu = def;
          tu.swizzle_strip_bits = tu.deswizzle_strip_bits = sb;
          reg_tune(std::string("tune/strip/") + (to_swz ? "swizzle/" : "deswizzle/") + f + "/" + std::to_string(n) +
                       "/bits" + std::to_string(sb),
                   make_tex(f, n, n, 1), to_swz, 1, tu);
        }
        for (unsigned cb : {512u, 1024u, 2048u, 4096u}) {
          Tuning tu = def;
          tu.chunk_bytes = cb;
          reg_tune(std::string("tune/chunk/") + (to_swz ? "swizzle/" : "deswizzle/") + f + "/" + std::to_string(n) +
                       "/bytes" + std::to_string(cb),
                   make_tex(f, n, n, 1), to_swz, 1, tu);
        }
        Tuning nl = def;
        nl.line_kernels = false;
        reg_tune(std::string("tune/nolines/") + (to_swz ? "swizzle/" : "deswizzle/") + f + "/" + std::to_string(n),
                 make_tex(f, n, n, 1), to_swz, 1, nl);
      }
#endif
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
