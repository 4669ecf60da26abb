// The floor of a cell: the ideal gather for its layout and direction. Every
// 16-byte piece of the linear rows is a contiguous run on the swizzled side
// (true of the layouts whose runs are >= 16 bytes: std64k, NVIDIA block
// linear, Intel Y/4, AMD); the destination is written in order (the
// swizzled side when swizzling, the linear rows when deswizzling) and each
// piece read from a precomputed source offset: one offset load, one 16-byte
// load and one 16-byte store per piece, no address rule at all. A kernel
// cannot do less work per byte with 16-byte moves; a cell far below memcpy
// whose kernel runs at its floor is bound by the access pattern, not by the
// kernel's instructions.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "swz/swz.hpp"

namespace {

/// Source offsets of the destination's 16-byte pieces, in destination order,
/// for subresource 0 of `layout` with tight linear rows; false (and empty)
/// when a piece is not one run on the swizzled side or the destination is
/// not dense (padding in the resource), or an offset does not fit 32 bits.
inline bool floor_sources(const swz::Layout& layout, bool to_swizzled, std::vector<uint32_t>* out) {
  out->clear();
  const swz::SubresourceLayout& sl = layout.sub(0);
  const uint32_t eb = sl.element_bytes;
  if (16 % eb != 0 && eb % 16 != 0) return false;
  swz::AddressMap map;
  if (!swz::AddressMap::make(layout, 0, &map, uint64_t{sl.width_el} * sl.height_el).ok()) return false;
  const uint64_t row_bytes = uint64_t{sl.width_el} * eb;
  if (row_bytes % 16 != 0) return false;
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // (destination, source)
  runs.reserve(row_bytes / 16 * sl.height_el);
  for (uint32_t y = 0; y < sl.height_el; ++y)
    for (uint64_t xb = 0; xb < row_bytes; xb += 16) {
      const uint64_t x = xb / eb, last = (xb + 15) / eb;
      const uint64_t off = map.offset_unchecked(x, y, 0, 0) + xb % eb;
      if (last != x && map.offset_unchecked(last, y, 0, 0) != off + (last - x) * eb) return false;  // not one run
      const uint64_t l = y * row_bytes + xb;
      runs.emplace_back(to_swizzled ? off : l, to_swizzled ? l : off);
    }
  std::sort(runs.begin(), runs.end());
  out->resize(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].first != 16 * i || runs[i].second > UINT32_MAX) {
      out->clear();
      return false;
    }
    (*out)[i] = static_cast<uint32_t>(runs[i].second);
  }
  return true;
}

/// The gather: dst[16 i .. 16 i + 16) = from[src[i] ..], n pieces.
__attribute__((noinline)) inline void floor_gather(uint8_t* dst, const uint8_t* from, const uint32_t* src, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    std::memcpy(dst + 16 * i, from + src[i], 16);
    std::memcpy(dst + 16 * i + 16, from + src[i + 1], 16);
    std::memcpy(dst + 16 * i + 32, from + src[i + 2], 16);
    std::memcpy(dst + 16 * i + 48, from + src[i + 3], 16);
  }
  for (; i < n; ++i) std::memcpy(dst + 16 * i, from + src[i], 16);
  __asm__ volatile("" ::: "memory");
}

/// The same gather with streaming (non-temporal) 16-byte stores, for cells
/// from memory, where the kernels stream too (a copy of more than 32 MiB
/// streams on every machine, geometry.hpp). `dst` must be 16-byte aligned.
__attribute__((noinline)) inline void floor_gather_stream(uint8_t* dst, const uint8_t* from, const uint32_t* src,
                                                          size_t n) {
#if defined(__SSE2__)
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + src[i]));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + src[i + 1]));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + src[i + 2]));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + src[i + 3]));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16 * i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16 * i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16 * i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16 * i + 48), d);
  }
  for (; i < n; ++i)
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16 * i),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + src[i])));
  _mm_sfence();
  __asm__ volatile("" ::: "memory");
#else
  floor_gather(dst, from, src, n);
#endif
}

}  // namespace
