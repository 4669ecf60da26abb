// The inverse address map: Locator::locate over a batch of random
// byte offsets, the call that Python's swz.locate wraps (it adds one call's
// argument checks and nothing per offset). Cases are those of
// bench/bench_python_offsets.py:
//   2d       std64k R8G8B8A8_UNORM 4096x4096
//   pattern  X0 X1 X2 X3 Y0 Y1 X4^Y5 Y2^X7 X5 Y3^X9 X6 Y4 post8=Y6^X10 post9=X8, RGBA8 4096x4096
//   3d       std64k R16G16B16A16_FLOAT 256x256x256
//   mips     std64k R8G8B8A8_UNORM 4096x4096, 13 mips x 6 array slices (78 subresources)
//   mips3d   std64k R16G16B16A16_FLOAT 256x256x256, 9 mips
//   array256 std64k R8G8B8A8_UNORM 256x256, 9 mips x 256 slices (2304 subresources)
//   amd_array256 amd-gfx9-sw64k-s, the same array in one frame (each slice's mip tail block
//            shared by seven mips)
//   *_seq    the same resource, a sequential sweep of 2^19 bytes from a random start
// Offsets are random bytes of the resource unless the name ends in _seq.
// Each batch holds 2^19 offsets, below the 2^20 from which a batch is split
// over threads, so every figure is one thread. Counters: Moffs_per_s (wall
// time) and Moffs_per_cpu_s (the thread's CPU time, for a machine shared with
// other jobs); repetitions report the median. Run:
//   swz_bench_locate --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "swz/address.hpp"
#include "swz/format.hpp"
#include "swz/layout_names.hpp"

namespace {

constexpr uint64_t kBatch = uint64_t{1} << 19;

struct Case {
  const char* name;
  const char* layout;
  const char* format;
  uint32_t w, h, d, mips, array;
  bool sequential;
};

const Case kCases[] = {
    {"2d", "std64k", "R8G8B8A8_UNORM", 4096, 4096, 1, 1, 1, false},
    {"pattern", "pattern:X0 X1 X2 X3 Y0 Y1 X4^Y5 Y2^X7 X5 Y3^X9 X6 Y4 post8=Y6^X10 post9=X8", "R8G8B8A8_UNORM", 4096,
     4096, 1, 1, 1, false},
    {"3d", "std64k", "R16G16B16A16_FLOAT", 256, 256, 256, 1, 1, false},
    {"mips", "std64k", "R8G8B8A8_UNORM", 4096, 4096, 1, 13, 6, false},
    {"mips3d", "std64k", "R16G16B16A16_FLOAT", 256, 256, 256, 9, 1, false},
    {"array256", "std64k", "R8G8B8A8_UNORM", 256, 256, 1, 9, 256, false},
    {"amd_array256", "amd-gfx9-sw64k-s", "R8G8B8A8_UNORM", 256, 256, 1, 9, 256, false},
    {"mips_seq", "std64k", "R8G8B8A8_UNORM", 4096, 4096, 1, 13, 6, true},
    {"array256_seq", "std64k", "R8G8B8A8_UNORM", 256, 256, 1, 9, 256, true},
};

double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

bool make(const Case& c, swz::Layout* out, std::string* err) {
  swz::TextureDesc desc;
  swz::Status s = swz::find_format(c.format, &desc.format);
  if (s.ok()) {
    desc.width = c.w;
    desc.height = c.h;
    desc.depth = c.d;
    desc.dimension = c.d > 1 ? swz::Dimension::Texture3D : swz::Dimension::Texture2D;
    desc.mip_levels = c.mips;
    desc.array_size = c.array;
    s = swz::make_layout_from_name(c.layout, desc, swz::LayoutOptions{}, out);
  }
  if (!s.ok()) *err = s.message();
  return s.ok();
}

void BM_Locate(benchmark::State& st, Case c) {
  swz::Layout layout;
  std::string err;
  if (!make(c, &layout, &err)) {
    st.SkipWithError(err.c_str());
    return;
  }
  swz::Locator loc;
  if (!swz::Locator::make(layout, &loc).ok()) {
    st.SkipWithError("Locator::make failed");
    return;
  }
  std::mt19937_64 rng(1);
  std::vector<uint64_t> offs(kBatch);
  if (c.sequential) {
    const uint64_t from = rng() % (layout.size() - kBatch);
    for (uint64_t i = 0; i < kBatch; ++i) offs[i] = from + i;
  } else {
    for (auto& o : offs) o = rng() % layout.size();
  }
  std::vector<swz::Location> out(kBatch);
  const double cpu0 = thread_cpu_s();
  for (auto _ : st) {
    swz::Status s = loc.locate(offs.data(), kBatch, out.data());
    if (!s.ok()) {
      st.SkipWithError(s.message().c_str());
      return;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  const double cpu_s = thread_cpu_s() - cpu0;
  st.counters["Moffs_per_s"] =
      benchmark::Counter(double(kBatch) * double(st.iterations()) / 1e6, benchmark::Counter::kIsRate);
  st.counters["Moffs_per_cpu_s"] = double(kBatch) * double(st.iterations()) / 1e6 / cpu_s;
}

}  // namespace

int main(int argc, char** argv) {
  for (const Case& c : kCases)
    benchmark::RegisterBenchmark((std::string("locate/") + c.name).c_str(), BM_Locate, c)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
