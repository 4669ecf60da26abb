// Test oracle: the D3D12 parameterized-swizzle specification's SimpleSwizzle
// sample routine, transcribed literally (32-bit arithmetic, block indices
// taken before stacking, depthStride added in bytes). It lives with the tests
// only: it shows where the sample departs from the specification's prose for
// stacked depth (tests/core/test_core_reference.cpp); the library follows
// the prose (swz::reference_offset).
#pragma once
#include <cstdint>

#include "swz/pattern.hpp"

namespace swz::test {

inline uint32_t literal_simple_swizzle(const Pattern& p, const uint32_t src[3], const uint32_t pre[3], uint32_t stride,
                                       uint32_t depth_stride) {
  // Transcribed from the sample: 32-bit arithmetic, block indices taken
  // before stacking, z * depthStride added to Y and bz * depthStride bytes.
  const unsigned n = p.block_bits();
  uint32_t per_block[3] = {1, 1, 1};
  for (unsigned i = 0; i < n; ++i)
    if (p.interleave[i].channel < 3) per_block[p.interleave[i].channel] *= 2;
  uint32_t off[3], block[3];
  for (int i = 0; i < 3; ++i) {
    off[i] = src[i] + pre[i];
    block[i] = off[i] / per_block[i];
    if (p.flags & kFlagStackDepthSlices) {
      if (i == 1)
        off[i] += depth_stride * src[2];
      else if (i == 2)
        off[i] = 0;
    }
  }
  uint32_t dest = (1u << n) * block[0] + block[1] * stride + block[2] * depth_stride;
  auto bitv = [&](const BitEntry& e) -> uint32_t { return e.channel < 3 ? (off[e.channel] >> e.bit) & 1u : 0u; };
  uint32_t in = 0;
  for (unsigned i = 0; i < n; ++i) {
    uint32_t b = bitv(p.interleave[i]);
    for (int j = 0; j < 4; ++j)
      if (p.xors[j][i].valid) b ^= bitv(p.xors[j][i]);
    in |= b << i;
  }
  in ^= p.immediate;
  uint32_t total = dest + in;
  for (unsigned i = 8; i < 24; ++i) {
    uint32_t b = (total >> i) & 1u;
    for (int j = 0; j < 2; ++j)
      if (p.postamble[j][i].valid) b ^= bitv(p.postamble[j][i]);
    total &= ~(1u << i);
    total |= b << i;
  }
  return total;
}

}  // namespace swz::test
