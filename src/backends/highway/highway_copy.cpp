// swz — the Highway kernels (docs/ARCHITECTURE.md §8): compiled once per SIMD target by
// hwy/foreach_target.h and chosen at run time with HWY_DYNAMIC_DISPATCH
// (AVX-512 or AVX2 on x86, NEON/SVE on Arm, a portable fallback elsewhere).
// The walk itself (strips, chunks, run tables) is walker-inl.h; this file
// supplies the vector moves.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/kernel.hpp"
#include "backends/simd/geometry.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/highway/highway_copy.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace swz::detail::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#define HWY_SWZ_INLINE HWY_INLINE
#define HWY_SWZ_RESTRICT HWY_RESTRICT

struct HwyMover {
  static constexpr bool kHasLine = HWY_TARGET != HWY_SCALAR;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  static constexpr bool kHasQuad = true;
#else
  static constexpr bool kHasQuad = false;
#endif

  /// Four 64-byte vectors s0..s3 (16-byte blocks s_k[0..3]) are transposed as
  /// a 4x4 matrix of 16-byte blocks: d_r = [s0[r], s1[r], s2[r], s3[r]]. The
  /// transpose is its own inverse, so it serves both directions (four rows x
  /// four runs <-> four lines of four rows). d_r 64-aligned when streaming.
  static HWY_INLINE void Quad(uint8_t* d0, uint8_t* d1, uint8_t* d2, uint8_t* d3, const uint8_t* s0, const uint8_t* s1,
                              const uint8_t* s2, const uint8_t* s3, bool stream) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
    const __m512i a = _mm512_loadu_si512(s0), b = _mm512_loadu_si512(s1);
    const __m512i c = _mm512_loadu_si512(s2), d = _mm512_loadu_si512(s3);
    const __m512i t0 = _mm512_shuffle_i64x2(a, b, 0x44), t1 = _mm512_shuffle_i64x2(a, b, 0xEE);
    const __m512i t2 = _mm512_shuffle_i64x2(c, d, 0x44), t3 = _mm512_shuffle_i64x2(c, d, 0xEE);
    const __m512i r0 = _mm512_shuffle_i64x2(t0, t2, 0x88), r1 = _mm512_shuffle_i64x2(t0, t2, 0xDD);
    const __m512i r2 = _mm512_shuffle_i64x2(t1, t3, 0x88), r3 = _mm512_shuffle_i64x2(t1, t3, 0xDD);
    if (stream) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(d0), r0);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(d1), r1);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(d2), r2);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(d3), r3);
    } else {
      _mm512_storeu_si512(d0, r0);
      _mm512_storeu_si512(d1, r1);
      _mm512_storeu_si512(d2, r2);
      _mm512_storeu_si512(d3, r3);
    }
#else
    Line4(d0, s0, s1, s2, s3, stream);
    Line4(d1, s0 + 16, s1 + 16, s2 + 16, s3 + 16, stream);
    Line4(d2, s0 + 32, s1 + 32, s2 + 32, s3 + 32, stream);
    Line4(d3, s0 + 48, s1 + 48, s2 + 48, s3 + 48, stream);
#endif
  }

#if HWY_TARGET != HWY_SCALAR
  /// n bytes, n a multiple of d's vector: unaligned loads, then unaligned
  /// stores or (dst aligned to the vector) streaming stores. The one vector
  /// loop of Run and RunN.
  template <class D>
  static HWY_INLINE void Copy(D d, uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src, uint64_t n,
                              bool stream) {
    for (uint64_t i = 0; i < n; i += hn::Lanes(d)) {
      const auto v = hn::LoadU(d, src + i);
      if (stream)
        hn::Stream(v, d, dst + i);
      else
        hn::StoreU(v, d, dst + i);
    }
  }
#endif

  template <size_t N>
  static HWY_INLINE void Run(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src, bool stream) {
#if HWY_TARGET == HWY_SCALAR
    (void)stream;
    std::memcpy(dst, src, N);
#else
    if constexpr (N < 16) {
      (void)stream;
      std::memcpy(dst, src, N);
    } else {
      Copy(hn::FixedTag<uint8_t, 16>(), dst, src, N, stream);
    }
#endif
  }

  /// n bytes, n a multiple of 64; dst 64-aligned when streaming.
  static HWY_INLINE void RunN(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src, uint64_t n, bool stream) {
#if HWY_TARGET == HWY_SCALAR
    (void)stream;
    std::memcpy(dst, src, n);
#else
    const hn::ScalableTag<uint8_t> d;
    const size_t L = hn::Lanes(d);
    if (L > 64 || (64 % L) != 0) {  // scalable vectors wider than a line
      std::memcpy(dst, src, n);
      return;
    }
    Copy(d, dst, src, n, stream);
#endif
  }

  /// One 64-byte line from four 16-byte pieces; dst 64-aligned when streaming.
  static HWY_INLINE void Line4(uint8_t* HWY_RESTRICT dst, const uint8_t* p0, const uint8_t* p1, const uint8_t* p2,
                               const uint8_t* p3, bool stream) {
#if HWY_TARGET == HWY_SCALAR
    (void)stream;
    std::memcpy(dst, p0, 16);
    std::memcpy(dst + 16, p1, 16);
    std::memcpy(dst + 32, p2, 16);
    std::memcpy(dst + 48, p3, 16);
#elif HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
    const hn::Full128<uint8_t> dq;
    const hn::Full256<uint8_t> dh;
    const hn::Full512<uint8_t> d;
    const auto lo = hn::Combine(dh, hn::LoadU(dq, p1), hn::LoadU(dq, p0));
    const auto hi = hn::Combine(dh, hn::LoadU(dq, p3), hn::LoadU(dq, p2));
    const auto v = hn::Combine(d, hi, lo);
    if (stream)
      hn::Stream(v, d, dst);
    else
      hn::StoreU(v, d, dst);
#elif HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
    const hn::Full128<uint8_t> dq;
    const hn::Full256<uint8_t> dh;
    const auto lo = hn::Combine(dh, hn::LoadU(dq, p1), hn::LoadU(dq, p0));
    const auto hi = hn::Combine(dh, hn::LoadU(dq, p3), hn::LoadU(dq, p2));
    if (stream) {
      hn::Stream(lo, dh, dst);
      hn::Stream(hi, dh, dst + 32);
    } else {
      hn::StoreU(lo, dh, dst);
      hn::StoreU(hi, dh, dst + 32);
    }
#else
    const hn::FixedTag<uint8_t, 16> dq;
    const auto v0 = hn::LoadU(dq, p0), v1 = hn::LoadU(dq, p1), v2 = hn::LoadU(dq, p2), v3 = hn::LoadU(dq, p3);
    if (stream) {
      hn::Stream(v0, dq, dst);
      hn::Stream(v1, dq, dst + 16);
      hn::Stream(v2, dq, dst + 32);
      hn::Stream(v3, dq, dst + 48);
    } else {
      hn::StoreU(v0, dq, dst);
      hn::StoreU(v1, dq, dst + 16);
      hn::StoreU(v2, dq, dst + 32);
      hn::StoreU(v3, dq, dst + 48);
    }
#endif
  }
};

#include "backends/simd/walker-inl.h"

#undef HWY_SWZ_INLINE
#undef HWY_SWZ_RESTRICT

void CopyRegion(const Region& r, Direction dir) {
  if (dir == Direction::ToLinear && TileDeswizzle<HwyMover>(r, tuning())) return;
  if (dir == Direction::ToSwizzled && TileSwizzle<HwyMover>(r, tuning())) return;
  Walker<HwyMover> w(r, dir, tuning());
  w.Run();
}

int64_t TargetBits() { return HWY_TARGET; }

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace swz::detail::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace swz::detail {
namespace simd {

HWY_EXPORT(CopyRegion);
HWY_EXPORT(TargetBits);

}  // namespace simd

void highway_copy(const Region& r, Direction dir) {
  if (r.plan->element_log2 < 0 || r.w == 0 || r.h == 0 || r.d == 0) {
    // Byte-granular patterns with element sizes that are not a power of two
    // (vendor layouts) take the scalar path; it is per run all the same.
    if (r.w && r.h && r.d) scalar_copy(r, dir);
    return;
  }
  if (!r.streaming && simd::auto_streaming(r)) {
    Region rs = r;
    rs.streaming = true;
    HWY_DYNAMIC_DISPATCH(simd::CopyRegion)(rs, dir);
    hwy::FlushStream();
    return;
  }
  HWY_DYNAMIC_DISPATCH(simd::CopyRegion)(r, dir);
  if (r.streaming) hwy::FlushStream();
}

/// Name of the Highway target the dispatcher picks on this machine.
const char* highway_target_name() { return hwy::TargetName(HWY_DYNAMIC_DISPATCH(simd::TargetBits)()); }

}  // namespace swz::detail
#endif  // HWY_ONCE
