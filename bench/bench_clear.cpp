// Clears, fills and resolves (include/swz/clear.hpp), each reported as a
// ratio to memset of the bytes it writes, memset timed in the same benchmark
// on the same buffer (a clear writes every byte of its subresource once, so
// memset is the bound, as memcpy is for copies).
//
//   swz_bench_clear --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
//
// Counters: GBps (bytes written per second, 10^9 B/s), x_memset (memset time
// / operation time; 1.0 = as fast as memset). Buffers come from malloc +
// 16 (16 mod 64 alignment, as a user's buffer) and are touched before timing.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "swz/swz.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct UserBuffer {
  std::vector<uint8_t> store;
  uint8_t* p;
  explicit UserBuffer(size_t n) : store(n + 64, 1) {
    p = store.data() + ((64 - reinterpret_cast<uintptr_t>(store.data()) % 64) % 64) + 16;  // 16 mod 64
  }
};

double seconds_of(const std::function<void()>& fn) {
  const auto t0 = Clock::now();
  fn();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void report(benchmark::State& state, double op_s, double memset_s, uint64_t bytes, uint64_t iters) {
  state.counters["GBps"] = benchmark::Counter(static_cast<double>(bytes) * static_cast<double>(iters) / op_s / 1e9);
  state.counters["x_memset"] = benchmark::Counter(memset_s / op_s);
}

swz::Layout make(const char* fmt, uint32_t w, uint32_t h, swz::LayoutKind k) {
  swz::TextureDesc d;
  (void)swz::find_format(fmt, &d.format);
  d.width = w;
  d.height = h;
  swz::LayoutSpec spec;
  spec.kind = k;
  swz::Layout L;
  (void)swz::make_layout(d, spec, &L);
  return L;
}

// Whole-subresource clear of a 2048 x 2048 texture.
void BM_Clear(benchmark::State& state, const char* fmt, swz::LayoutKind kind) {
  const swz::Layout L = make(fmt, 2048, 2048, kind);
  UserBuffer buf(L.size());
  swz::ClearDesc c;
  c.value = swz::ClearValue::from_floats(0.25f, 0.5f, 0.75f, 1.0f);
  const uint64_t bytes = swz::packed_subresource_bytes(L.sub(0));
  double op = 0, ms = 0;
  uint64_t n = 0;
  for (auto _ : state) {
    ms += seconds_of([&] { std::memset(buf.p, 0x5A, L.size()); });
    op += seconds_of([&] {
      if (!swz::clear_subresources(L, buf.p, L.size(), &c, 1).ok()) state.SkipWithError("clear failed");
    });
    benchmark::DoNotOptimize(buf.p[0]);
    ++n;
  }
  report(state, op, ms, bytes, n);
}

// 64 MiB FillBuffers with a 16-byte pattern.
void BM_Fill(benchmark::State& state, uint32_t pattern_bytes) {
  const uint64_t size = uint64_t{64} << 20;
  UserBuffer buf(size);
  swz::FillDesc d;
  d.raw_pattern_bytes = pattern_bytes;
  d.repeat_count = static_cast<uint32_t>(size / pattern_bytes);
  for (int i = 0; i < 16; ++i) d.value.bytes[i] = static_cast<uint8_t>(i * 7 + 1);
  double op = 0, ms = 0;
  uint64_t n = 0;
  for (auto _ : state) {
    ms += seconds_of([&] { std::memset(buf.p, 0x5A, size); });
    op += seconds_of([&] {
      if (!swz::fill_buffers(buf.p, size, &d, 1).ok()) state.SkipWithError("fill failed");
    });
    benchmark::DoNotOptimize(buf.p[0]);
    ++n;
  }
  report(state, op, ms, size, n);
}

// 4x MSAA 1024 x 1024 RGBA8 resolve (pattern with S bits) into std64k; the
// ratio is against memset of the destination bytes only.
void BM_Resolve(benchmark::State& state, const char* fmt, swz::ResolveMode mode) {
  swz::TextureDesc d;
  (void)swz::find_format(fmt, &d.format);
  d.width = d.height = 1024;
  d.samples = 4;
  swz::LayoutSpec spec;
  spec.kind = swz::LayoutKind::Pattern;
  (void)swz::parse_pattern_text("X0 X1 S0 S1 X2 Y0 X3 Y1 X4 Y2 X5 Y3 X6 Y4 X7 Y5", &spec.pattern);
  swz::Layout S;
  if (!swz::make_layout(d, spec, &S).ok()) return state.SkipWithError("layout");
  const swz::Layout D = make(fmt, 1024, 1024, swz::LayoutKind::Std64K);
  UserBuffer src(S.size()), dst(D.size());
  swz::ResolveDesc r;
  r.mode = mode;
  const uint64_t bytes = swz::packed_subresource_bytes(D.sub(0));
  double op = 0, ms = 0;
  uint64_t n = 0;
  for (auto _ : state) {
    ms += seconds_of([&] { std::memset(dst.p, 0x5A, D.size()); });
    op += seconds_of([&] {
      if (!swz::resolve_subresource(D, dst.p, D.size(), S, src.p, S.size(), r).ok())
        state.SkipWithError("resolve failed");
    });
    benchmark::DoNotOptimize(dst.p[0]);
    ++n;
  }
  report(state, op, ms, bytes, n);
}

BENCHMARK_CAPTURE(BM_Clear, rgba8_std64k, "R8G8B8A8_UNORM", swz::LayoutKind::Std64K)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Clear, rgba8_row_major, "R8G8B8A8_UNORM", swz::LayoutKind::RowMajor)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Clear, bc7_std64k, "BC7_UNORM", swz::LayoutKind::Std64K)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Clear, rgba16f_std64k, "R16G16B16A16_FLOAT", swz::LayoutKind::Std64K)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Fill, raw16, 16u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Fill, raw12, 12u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Resolve, rgba8_average, "R8G8B8A8_UNORM", swz::ResolveMode::Average)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Resolve, rgba8_max, "R8G8B8A8_UNORM", swz::ResolveMode::Max)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
