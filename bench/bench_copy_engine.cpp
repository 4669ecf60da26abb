// The batched copy engine (swz/footprint.hpp): copy_resources (re-tiling a
// whole resource, one copy_regions region per subresource) and placed-
// footprint copies, each as a ratio to memcpy of the same texel bytes between
// the same buffers, timed right before it in the same iteration.
//
//   swz_bench_copy_engine --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
//
// Counters (take the median row): x_memcpy = memcpy time / operation time
// (the median over the iterations of one run); GBps = texel bytes per second.
// Buffers come from malloc at 16 mod 64 (what user code gets), pre-faulted.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "swz/swz.hpp"

namespace {

using Clock = std::chrono::steady_clock;

/// A malloc'ed buffer whose data starts at 16 mod 64, pre-faulted.
struct MallocBuffer {
  explicit MallocBuffer(uint64_t n) : raw(static_cast<uint8_t*>(std::malloc(n + 128))), size(n) {
    p = raw + ((16 - reinterpret_cast<uintptr_t>(raw) % 64) + 64) % 64;
    for (uint64_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(i * 31 + (i >> 11));
  }
  ~MallocBuffer() { std::free(raw); }
  uint8_t* raw;
  uint8_t* p;
  uint64_t size;
};

swz::Layout layout(const char* name, const char* format, uint32_t w, uint32_t h, bool full_mips) {
  swz::TextureDesc d;
  (void)swz::find_format(format, &d.format);
  d.width = w;
  d.height = h;
  d.mip_levels = full_mips ? swz::full_mip_count(w, h, 1) : 1;
  swz::Layout L;
  if (!swz::make_layout_from_name(name, d, {}, &L).ok()) std::abort();
  return L;
}

uint64_t texel_bytes(const swz::Layout& L) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < L.subresource_count(); ++i) n += swz::packed_subresource_bytes(L.sub(i));
  return n;
}

void measure(benchmark::State& st, uint8_t* dst, const uint8_t* src, uint64_t bytes,
             const std::function<swz::Status()>& op) {
  std::vector<double> ratio;
  for (auto _ : st) {
    const auto t0 = Clock::now();
    std::memcpy(dst, src, bytes);
    benchmark::ClobberMemory();
    const auto t1 = Clock::now();
    if (!op().ok()) {
      st.SkipWithError("copy failed");
      return;
    }
    benchmark::ClobberMemory();
    const auto t2 = Clock::now();
    const double mc = std::chrono::duration<double>(t1 - t0).count(),
                 t = std::chrono::duration<double>(t2 - t1).count();
    st.SetIterationTime(t);
    ratio.push_back(mc / t);
  }
  std::nth_element(ratio.begin(), ratio.begin() + ratio.size() / 2, ratio.end());
  st.counters["x_memcpy"] = ratio.empty() ? 0 : ratio[ratio.size() / 2];
  st.SetBytesProcessed(static_cast<int64_t>(bytes) * st.iterations());
}

struct ResourcesCase {
  const char *from, *to, *format;
  uint32_t size;
  bool mips;
};
const ResourcesCase kResources[] = {
    {"std64k", "nv-block-linear", "R8G8B8A8_UNORM", 2048, false},
    {"std64k", "row-major", "R8G8B8A8_UNORM", 2048, false},
    {"nv-block-linear", "std64k", "BC7_UNORM", 4096, true},
};

void BM_CopyResources(benchmark::State& st) {
  const ResourcesCase& c = kResources[st.range(0)];
  const swz::Layout A = layout(c.from, c.format, c.size, c.size, c.mips),
                    B = layout(c.to, c.format, c.size, c.size, c.mips);
  MallocBuffer src(A.size()), dst(B.size());
  const uint64_t bytes = texel_bytes(A);
  st.SetLabel(std::string(c.from) + "->" + c.to + " " + c.format + " " + std::to_string(c.size) +
              (c.mips ? " full mips" : ""));
  measure(st, dst.p, src.p, std::min<uint64_t>(bytes, std::min(src.size, dst.size)),
          [&] { return swz::copy_resources(B, dst.p, dst.size, A, src.p, src.size); });
}
BENCHMARK(BM_CopyResources)->DenseRange(0, 2)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_PlacedFootprint(benchmark::State& st) {
  const bool to_texture = st.range(0) == 0;
  const swz::Layout L = layout("std64k", "R8G8B8A8_UNORM", 2048, 2048, false);
  swz::PlacedFootprint fp;
  (void)swz::find_format("R8G8B8A8_UNORM", &fp.format);
  fp.offset_B = 512;
  fp.width = fp.height = 2048;
  fp.row_pitch_B = 2048 * 4;
  MallocBuffer res(L.size()), buf(512 + uint64_t{2048} * 2048 * 4);
  st.SetLabel(std::string(to_texture ? "buffer->texture" : "texture->buffer") + " std64k R8G8B8A8 2048");
  uint8_t* d = to_texture ? res.p : buf.p;
  const uint8_t* s = to_texture ? buf.p : res.p;
  swz::CopyOptions one_thread;
  one_thread.threads = 1;
  measure(st, d, s, uint64_t{2048} * 2048 * 4, [&] {
    return swz::copy_placed_footprint(
        L, res.p, res.size, 0, buf.p, buf.size, fp,
        to_texture ? swz::FootprintCopyDirection::BufferToTexture : swz::FootprintCopyDirection::TextureToBuffer,
        nullptr, 0, one_thread);
  });
}
BENCHMARK(BM_PlacedFootprint)->DenseRange(0, 1)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

// copy_regions with N disjoint one-texel regions (std4k R8, 512x512: up to
// 262,144 regions): the request checks, including the overlap rule, are
// O(N log N), so the time per region stays flat as N grows (counter s_per_region, seconds per region).
void BM_ManyRegions(benchmark::State& st) {
  const uint32_t n = static_cast<uint32_t>(st.range(0));
  swz::TextureDesc d;
  if (!swz::find_format("R8_UNORM", &d.format).ok()) return st.SkipWithError("R8_UNORM");
  d.width = d.height = 512;
  swz::Layout L;
  if (!swz::make_layout_from_name("std4k", d, swz::LayoutOptions{}, &L).ok()) return st.SkipWithError("std4k");
  std::vector<swz::RegionCopy> rs(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t x = i % 512, y = i / 512;
    rs[i].dst_x = 511 - x;
    rs[i].dst_y = y;
    rs[i].whole_source = false;
    rs[i].src_box = swz::Box{x, y, 0, x + 1, y + 1, 1};
  }
  std::vector<uint8_t> src(L.size(), 3), dst(L.size());
  for (auto _ : st) {
    const swz::Status s = swz::copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), rs.data(), n);
    if (!s.ok()) return st.SkipWithError(s.message().c_str());
    benchmark::DoNotOptimize(dst.data());
  }
  st.counters["s_per_region"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ManyRegions)->RangeMultiplier(4)->Range(1 << 10, 1 << 18)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
