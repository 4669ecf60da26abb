// identify() and infer() timings (include/swz/identify.hpp): a 1024x1024
// RGBA8 dump of a photograph (examples/coffee.png, bilinearly resized)
// swizzled into a few layouts; one core (identify is single-threaded).
// Target: identify <= 2 s for 1024x1024 RGBA8 over all families.
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "swz/copy.hpp"
#include "swz/identify.hpp"
#include "swz/layout_names.hpp"

namespace {

std::vector<uint8_t> photo(uint32_t w, uint32_t h) {
  int pw = 0, ph = 0, n = 0;
  const char* env = std::getenv("SWZ_SOURCE_DIR");  // a copy of the tree elsewhere
  const std::string src = env ? env : SWZ_SOURCE_DIR;
  unsigned char* d = stbi_load((src + "/examples/coffee.png").c_str(), &pw, &ph, &n, 4);
  std::vector<uint8_t> out(size_t{w} * h * 4);
  if (!d) {
    std::fprintf(stderr, "cannot read %s/examples/coffee.png (set SWZ_SOURCE_DIR)\n", src.c_str());
    std::exit(1);
  }
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const float fx = (x + 0.5f) * pw / w - 0.5f, fy = (y + 0.5f) * ph / h - 0.5f;
      const int x0 = std::max(0, static_cast<int>(fx)), y0 = std::max(0, static_cast<int>(fy));
      const int x1 = std::min(pw - 1, x0 + 1), y1 = std::min(ph - 1, y0 + 1);
      const float ax = std::clamp(fx - x0, 0.0f, 1.0f), ay = std::clamp(fy - y0, 0.0f, 1.0f);
      for (int c = 0; c < 4; ++c) {
        auto at = [&](int xx, int yy) { return float(d[(size_t(yy) * pw + xx) * 4 + c]); };
        const float v =
            (at(x0, y0) * (1 - ax) + at(x1, y0) * ax) * (1 - ay) + (at(x0, y1) * (1 - ax) + at(x1, y1) * ax) * ay;
        out[(size_t{y} * w + x) * 4 + c] = static_cast<uint8_t>(v + 0.5f);
      }
    }
  stbi_image_free(d);
  return out;
}

std::vector<uint8_t> swizzled(const std::string& layout, uint32_t w, uint32_t h, const std::vector<uint8_t>& lin,
                              swz::FormatInfo* f) {
  (void)swz::find_format("R8G8B8A8_UNORM", f);
  swz::TextureDesc d;
  d.width = w;
  d.height = h;
  d.format = *f;
  swz::Layout L;
  if (!swz::make_layout_from_name(layout, d, {}, &L).ok()) return {};
  std::vector<uint8_t> dump(L.size(), 0);
  if (!swz::write_to_subresource(L, dump.data(), dump.size(), 0, nullptr, lin.data(), lin.size(), uint64_t{w} * 4,
                                 lin.size())
           .ok())
    return {};
  return dump;
}

const char* kLayouts[] = {"row-major",   "std64k",     "nv-block-linear:gob=tegra,bh=16", "amd-gfx10.3-sw64k-r-x",
                          "intel-tile4", "adreno-a6xx"};

void BM_Identify(benchmark::State& state) {
  const uint32_t w = static_cast<uint32_t>(state.range(1)), h = w;
  const std::string name = kLayouts[state.range(0)];
  swz::FormatInfo f;
  const std::vector<uint8_t> dump = swizzled(name, w, h, photo(w, h), &f);
  if (dump.empty()) {
    state.SkipWithError("layout");
    return;
  }
  bool right = false;
  for (auto _ : state) {
    std::vector<swz::IdentifyCandidate> got;
    swz::Status st = swz::identify(dump, f, w, h, {}, &got);
    if (!st.ok() || got.empty()) {
      state.SkipWithError("identify failed");
      return;
    }
    right = got[0].layout == name || (name == "nv-block-linear:gob=tegra,bh=16" && got[0].layout == "nv-block-linear");
    benchmark::DoNotOptimize(got.data());
  }
  state.SetLabel(name + (right ? " (ranked first)" : " (NOT first)"));
}
BENCHMARK(BM_Identify)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {256, 1024}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(10)
    ->ReportAggregatesOnly(true);

// A 1024x1024 texture 5 MiB + 20 KiB into a 16 MiB dump (noise before it,
// zeros after), found with an offset search every 4 KiB.
// Target: <= 2 s.
void BM_IdentifyOffsetSearch(benchmark::State& state) {
  const uint32_t w = 1024, h = w;
  const std::string name = kLayouts[state.range(0)];
  swz::FormatInfo f;
  const std::vector<uint8_t> tex = swizzled(name, w, h, photo(w, h), &f);
  if (tex.empty()) {
    state.SkipWithError("layout");
    return;
  }
  const uint64_t at_B = (uint64_t{5} << 20) + 20480;
  std::vector<uint8_t> dump(uint64_t{16} << 20, 0);
  uint64_t z = 1;
  for (uint64_t i = 0; i < at_B; ++i) dump[i] = static_cast<uint8_t>((z = z * 6364136223846793005ull + 1) >> 56);
  std::memcpy(dump.data() + at_B, tex.data(), std::min<size_t>(tex.size(), dump.size() - at_B));
  bool right = false;
  std::string top;
  for (auto _ : state) {
    std::vector<swz::IdentifyCandidate> got;
    swz::IdentifyOptions o;
    o.offset_step_B = 4096;
    swz::Status st = swz::identify(dump, f, w, h, o, &got);
    if (!st.ok() || got.empty()) {
      state.SkipWithError(st.ok() ? "no candidate" : st.message().c_str());
      return;
    }
    right = got[0].offset_B == at_B &&
            (got[0].layout == name || (name == "nv-block-linear:gob=tegra,bh=16" && got[0].layout == "nv-block-linear"));
    top = got[0].layout + " at " + std::to_string(got[0].offset_B);
    benchmark::DoNotOptimize(got.data());
  }
  state.SetLabel(name + (right ? " (ranked first, offset right)" : " (NOT first: " + top + ")"));
}
BENCHMARK(BM_IdentifyOffsetSearch)
    ->DenseRange(0, 5)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(10)
    ->ReportAggregatesOnly(true);

void BM_Infer(benchmark::State& state) {
  const uint32_t w = static_cast<uint32_t>(state.range(1)), h = w;
  const std::string name = kLayouts[state.range(0)];
  std::vector<uint8_t> lin(size_t{w} * h * 4);
  for (uint32_t i = 0; i < w * h; ++i) std::memcpy(&lin[size_t{i} * 4], &i, 4);
  swz::FormatInfo f;
  const std::vector<uint8_t> probe = swizzled(name, w, h, lin, &f);
  for (auto _ : state) {
    swz::InferResult r;
    swz::Status st = swz::infer(probe, f, w, h, 0, &r);
    if (!st.ok()) {
      state.SkipWithError(st.message().c_str());
      return;
    }
    state.SetLabel(name + " -> " + r.layout);
  }
}
BENCHMARK(BM_Infer)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {1024}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(10)
    ->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
