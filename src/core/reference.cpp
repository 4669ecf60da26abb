// The oracle: the spec's SimpleSwizzle (the D3D12 parameterized-swizzle specification, "Parameterized swizzle"),
// written per bit, with the rules of docs/ARCHITECTURE.md §2. Deliberately slow and
// independent of Plan.
#include "swz/address.hpp"

#include "core/no_coverage.hpp"

namespace swz {
namespace {

uint64_t bit_of(const uint64_t coord[4], const BitEntry& e) { return (coord[e.channel & 3] >> e.bit) & 1; }

}  // namespace

// Left out of the fuzzers' coverage instrumentation (the harnesses call it per byte or
// element as their oracle, where a comparison callback per bit costs more than the work),
// and the arrays are read through pointers so that
// no instrumented std::array accessor is called per bit.
SWZ_NO_COVERAGE uint64_t reference_offset(const Pattern& p, uint64_t x_bytes, uint64_t y, uint64_t z, uint64_t sample,
                          const AddressParams& a) {
  const BitEntry* const interleave = p.interleave.data();
  const BitEntry* const xors[4] = {p.xors[0].data(), p.xors[1].data(), p.xors[2].data(), p.xors[3].data()};
  const BitEntry* const postamble[2] = {p.postamble[0].data(), p.postamble[1].data()};
  // Elements per block per channel (the sample routine's SwizzleInfo), derived
  // from the pattern (rule 2).
  const unsigned n = p.block_bits();
  uint64_t per_block[4] = {1, 1, 1, 1};
  for (unsigned i = 0; i < n; ++i) per_block[interleave[i].channel & 3] *= 2;
  // Pre-swizzle offsets (rule 5), then stacking (rule 6).
  uint64_t c[4] = {x_bytes + a.pre_swizzle[0], y + a.pre_swizzle[1], z + a.pre_swizzle[2], sample};
  if (p.flags & kFlagStackDepthSlices) {
    c[1] += z * a.stack_rows;
    c[2] = 0;
  }
  const uint64_t bx = c[0] / per_block[0], by = c[1] / per_block[1], bz = c[2] / per_block[2];
  const uint64_t depth_bytes = (p.flags & kFlagStackDepthSlices) ? 0 : a.depth_pitch_B;
  uint64_t block_offset = (uint64_t{1} << n) * bx + by * a.row_pitch + bz * depth_bytes;
  uint64_t inblock = 0;
  for (unsigned i = 0; i < n; ++i) {
    uint64_t bit = bit_of(c, interleave[i]);
    for (int j = 0; j < 4; ++j)
      if (xors[j][i].valid) bit ^= bit_of(c, xors[j][i]);
    inblock |= bit << i;
  }
  inblock ^= p.immediate;
  uint64_t total = block_offset + inblock;
  for (unsigned i = 8; i < 24; ++i) {
    uint64_t bit = (total >> i) & 1;
    for (int j = 0; j < 2; ++j)
      if (postamble[j][i].valid) bit ^= bit_of(c, postamble[j][i]);
    total = (total & ~(uint64_t{1} << i)) | (bit << i);
  }
  return total;
}

}  // namespace swz
