// Decode throughput, one thread: swz::decode_rgba8 of block-compressed and
// uncompressed images against libsquish's DecompressImage (Debian
// libsquish-dev, BC1-BC5) on the same blocks, 1024x1024 texels, random
// block content (every mode and index of each format). Counters: texels per
// second ("items"). Run: build/bench/swz_bench_decode --benchmark_repetitions=10
// --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "swz/decode.hpp"
#if SWZ_BENCH_SQUISH
#include <squish.h>
#endif

namespace {

constexpr uint32_t kSide = 1024;

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  std::mt19937 g(seed);
  for (auto& b : v) b = static_cast<uint8_t>(g());
  return v;
}

swz::LinearImage image_of(const char* format, const std::vector<uint8_t>& data) {
  swz::LinearImage img;
  (void)swz::find_format(format, &img.format);
  img.width_px = img.height_px = kSide;
  img.data = data.data();
  img.size_B = data.size();
  return img;
}

uint64_t bytes_of(const char* format) {
  swz::FormatInfo f;
  (void)swz::find_format(format, &f);
  return uint64_t{(kSide + f.block_width - 1) / f.block_width} * ((kSide + f.block_height - 1) / f.block_height) *
         f.element_bytes;
}

void BM_Swz(benchmark::State& st, const char* format) {
  const std::vector<uint8_t> data = random_bytes(bytes_of(format), 7);
  const swz::LinearImage img = image_of(format, data);
  std::vector<uint8_t> out(size_t{kSide} * kSide * 4);
  for (auto _ : st) {
    const swz::Status s = swz::decode_rgba8(img, {}, out.data(), out.size());
    if (!s.ok()) st.SkipWithError(s.message().c_str());
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * kSide * kSide);
}

#if SWZ_BENCH_SQUISH
void BM_Squish(benchmark::State& st, const char* format, int flags) {
  const std::vector<uint8_t> data = random_bytes(bytes_of(format), 7);
  std::vector<uint8_t> out(size_t{kSide} * kSide * 4);
  for (auto _ : st) {
    squish::DecompressImage(out.data(), kSide, kSide, data.data(), flags);
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * kSide * kSide);
}
BENCHMARK_CAPTURE(BM_Squish, BC1, "BC1_UNORM", squish::kDxt1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Squish, BC2, "BC2_UNORM", squish::kDxt3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Squish, BC3, "BC3_UNORM", squish::kDxt5)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Squish, BC4, "BC4_UNORM", squish::kBc4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Squish, BC5, "BC5_UNORM", squish::kBc5)->Unit(benchmark::kMillisecond);
#endif

BENCHMARK_CAPTURE(BM_Swz, BC1, "BC1_UNORM")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, BC2, "BC2_UNORM")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, BC3, "BC3_UNORM")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, BC4, "BC4_UNORM")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, BC5, "BC5_UNORM")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, BC6H, "BC6H_UF16")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, BC7, "BC7_UNORM")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, RGBA8, "R8G8B8A8_UNORM")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, RGBA16F, "R16G16B16A16_FLOAT")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Swz, B5G6R5, "B5G6R5_UNORM")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
