// The oracle: the spec's SimpleSwizzle (seed 000, "Parameterized swizzle"),
// written per bit, with DESIGN.md §2's decisions. Deliberately slow and
// independent of Plan.
#include "swz/address.hpp"

namespace swz {
namespace {

uint64_t bit_of(const uint64_t coord[4], const BitEntry& e) { return (coord[e.channel & 3] >> e.bit) & 1; }

}  // namespace

uint64_t reference_offset(const Pattern& p, uint64_t x_bytes, uint64_t y, uint64_t z, uint64_t sample,
                          const AddressParams& a) {
  // Elements per block per channel (the sample routine's SwizzleInfo), derived
  // from the pattern (rule 2).
  const unsigned n = p.block_bits();
  uint64_t per_block[4] = {1, 1, 1, 1};
  for (unsigned i = 0; i < n; ++i) per_block[p.interleave[i].channel & 3] *= 2;
  // Pre-swizzle offsets (rule 5), then stacking (rule 6).
  uint64_t c[4] = {x_bytes + a.pre_swizzle[0], y + a.pre_swizzle[1], z + a.pre_swizzle[2], sample};
  if (p.flags & kFlagStackDepthSlices) {
    c[1] += z * a.depth_pitch;  // depth pitch counts rows
    c[2] = 0;
  }
  const uint64_t bx = c[0] / per_block[0], by = c[1] / per_block[1], bz = c[2] / per_block[2];
  const uint64_t depth_bytes = (p.flags & kFlagStackDepthSlices) ? 0 : a.depth_pitch;
  uint64_t block_offset = (uint64_t{1} << n) * bx + by * a.row_pitch + bz * depth_bytes;
  uint64_t inblock = 0;
  for (unsigned i = 0; i < n; ++i) {
    uint64_t bit = bit_of(c, p.interleave[i]);
    for (int j = 0; j < 4; ++j)
      if (p.xors[j][i].valid) bit ^= bit_of(c, p.xors[j][i]);
    inblock |= bit << i;
  }
  inblock ^= p.immediate;
  uint64_t total = block_offset + inblock;
  for (unsigned i = 8; i < 24; ++i) {
    uint64_t bit = (total >> i) & 1;
    for (int j = 0; j < 2; ++j)
      if (p.postamble[j][i].valid) bit ^= bit_of(c, p.postamble[j][i]);
    total = (total & ~(uint64_t{1} << i)) | (bit << i);
  }
  return total;
}

uint32_t literal_simple_swizzle(const Pattern& p, const uint32_t src[3], const uint32_t pre[3], uint32_t stride,
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
      if (i == 1) off[i] += depth_stride * src[2];
      else if (i == 2) off[i] = 0;
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

}  // namespace swz
