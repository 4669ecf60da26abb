// swz — the compact second implementation of the run-copy kernel, on xsimd
// (docs/ARCHITECTURE.md §8, "the design card names both"). It shares the strip walker
// with the Highway kernel and supplies only the moves: a run is copied in
// xsimd batches (the architecture chosen at compile time; SSE2 on plain
// x86-64 builds, NEON on AArch64). xsimd 8.1 has no streaming store, so the
// streaming variant uses the SSE2 intrinsic where there is one.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include <xsimd/xsimd.hpp>

#include "core/kernel.hpp"
#include "backends/simd/geometry.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace swz::detail::simd::xs {

#define HWY_SWZ_INLINE inline __attribute__((always_inline))
#define HWY_SWZ_RESTRICT __restrict__

using Batch = xsimd::batch<uint8_t>;
constexpr size_t kW = Batch::size;  // bytes per batch

inline __attribute__((always_inline)) void move_block(uint8_t* dst, const uint8_t* src, size_t n, bool stream) {
#if defined(__SSE2__)
  if (stream) {
    // dst is 16-aligned (the walker asks for streaming only then).
    for (size_t i = 0; i < n; i += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
    return;
  }
#else
  (void)stream;
#endif
  if (n % kW == 0) {
    for (size_t i = 0; i < n; i += kW) Batch::load_unaligned(src + i).store_unaligned(dst + i);
  } else {
    std::memcpy(dst, src, n);
  }
}

struct XsimdMover {
  // Lines are four batch moves (no in-register assembly): the strip walker
  // then writes whole lines in order, which is what write-combining needs.
  static constexpr bool kHasLine = true;
  static constexpr bool kHasQuad = false;
  static inline void Quad(uint8_t*, uint8_t*, uint8_t*, uint8_t*, const uint8_t*, const uint8_t*, const uint8_t*,
                          const uint8_t*, bool) {}
  template <size_t N>
  static inline __attribute__((always_inline)) void Run(uint8_t* dst, const uint8_t* src, bool stream) {
    if constexpr (N < 16) {
      (void)stream;
      std::memcpy(dst, src, N);
    } else {
      move_block(dst, src, N, stream);
    }
  }
  static inline __attribute__((always_inline)) void RunN(uint8_t* dst, const uint8_t* src, uint64_t n, bool stream) {
    move_block(dst, src, n, stream);
  }
  static inline void Line4(uint8_t* dst, const uint8_t* p0, const uint8_t* p1, const uint8_t* p2, const uint8_t* p3,
                           bool stream) {
    move_block(dst, p0, 16, stream);
    move_block(dst + 16, p1, 16, stream);
    move_block(dst + 32, p2, 16, stream);
    move_block(dst + 48, p3, 16, stream);
  }
};

#include "backends/simd/walker-inl.h"

#undef HWY_SWZ_INLINE
#undef HWY_SWZ_RESTRICT

}  // namespace swz::detail::simd::xs

namespace swz::detail {

void xsimd_copy(const Region& r, Direction dir) {
  if (r.w == 0 || r.h == 0 || r.d == 0) return;
  if (r.plan->element_log2 < 0) {
    scalar_copy(r, dir);
    return;
  }
  Region rs = r;
  rs.streaming = simd::auto_streaming(r);
  if (dir == Direction::ToLinear && simd::xs::TileDeswizzle<simd::xs::XsimdMover>(rs, simd::tuning())) {
  } else if (dir == Direction::ToSwizzled && simd::xs::TileSwizzle<simd::xs::XsimdMover>(rs, simd::tuning())) {
  } else {
    simd::xs::Walker<simd::xs::XsimdMover> w(rs, dir, simd::tuning());
    w.Run();
  }
#if defined(__SSE2__)
  if (rs.streaming) _mm_sfence();
#endif
}

const char* xsimd_arch_name() { return simd::xs::Batch::arch_type::name(); }

}  // namespace swz::detail
