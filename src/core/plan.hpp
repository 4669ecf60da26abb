// swz — a pattern compiled for one element size.
//
// The address of a byte at coordinates (x in bytes, y, z, s), after the
// pre-swizzle offsets and depth stacking of docs/ARCHITECTURE.md rules 5-6, is
//
//   offset = base ^ G(x, y, z, s)
//   base   = (x >> ext_log2[0]) * block_bytes + (y >> ext_log2[1]) * row_pitch
//          + (z >> ext_log2[2]) * depth_pitch
//   G      = immediate ^ XOR over channels c and set coordinate bits b of lin[c][b]
//
// G holds the in-block interleave (primaries and XOR terms, any coordinate
// bit) and the postamble terms (address bits 8..23). This equals the spec's
// SimpleSwizzle (base + inblock, then postamble XOR) because layouts require
// pitches to be multiples of the block size, so base has no bits below
// block_bits. Tests compare it with the literal reference on random patterns.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "swz/pattern.hpp"
#include "swz/status.hpp"

namespace swz {

class Plan {
 public:
  /// Validates `p` for `element_bytes` (1..16 power of two, or any size for a
  /// byte-granular pattern with no element rule) and builds the tables.
  static Status compile(const Pattern& p, uint32_t element_bytes, std::shared_ptr<const Plan>* out);

  const Pattern& pattern() const { return pattern_; }
  uint32_t element_bytes = 0;
  int element_log2 = -1;    ///< log2(element_bytes), -1 when not a power of two
  unsigned block_bits = 0;  ///< n: the block holds 2^n bytes
  uint64_t block_bytes = 1;
  std::array<unsigned, 4> ext_log2{};  ///< block extent per channel: X bytes, Y, Z, S
  uint32_t immediate = 0;
  uint32_t lin[4][32] = {};  ///< G contribution of coordinate bit b of channel c
  /// Contiguous run: bytes [x, x + 2^run_log2) with x aligned map to
  /// consecutive addresses (X0..X(r-1) primaries, no terms on them, no
  /// immediate below r). run_log2 <= ext_log2[0].
  unsigned run_log2 = 0;
  /// True when a whole row of bytes is contiguous (row-major-like patterns):
  /// G does not depend on x at all beyond the identity of in-block X bits.
  bool row_linear = false;
  /// OR of every G bit at or above block_bits (postamble terms that move whole blocks).
  uint32_t high_mask = 0;
  bool stack_depth = false;
  bool conditional_postamble = false;

  /// Byte tables of G per channel: g_tab[c][k][v] = G part of bits 8k..8k+7 of channel c equal to v.
  uint32_t g_tab[4][4][256] = {};

  /// G for one channel's coordinate value.
  uint32_t g(unsigned c, uint32_t v) const {
    return g_tab[c][0][v & 255] ^ g_tab[c][1][(v >> 8) & 255] ^ g_tab[c][2][(v >> 16) & 255] ^ g_tab[c][3][v >> 24];
  }
  /// Offset of coordinates already adjusted for pre-swizzle and stacking.
  uint64_t offset(uint64_t xb, uint64_t y, uint64_t z, uint64_t s, uint64_t row_pitch, uint64_t depth_pitch) const {
    return offset_in_row(row_terms(y, z, s, row_pitch, depth_pitch), xb);
  }
  /// The terms of offset() that one row (y, z, s) shares: base's Y and Z parts and G's Y, Z, S
  /// parts with the immediate. offset() = offset_in_row(row_terms(y, z, s, ...), xb).
  struct RowTerms {
    uint64_t base_B = 0;
    uint32_t g = 0;
  };
  RowTerms row_terms(uint64_t y, uint64_t z, uint64_t s, uint64_t row_pitch, uint64_t depth_pitch) const {
    return {(y >> ext_log2[1]) * row_pitch + (z >> ext_log2[2]) * depth_pitch,
            immediate ^ g(1, static_cast<uint32_t>(y)) ^ g(2, static_cast<uint32_t>(z)) ^ g(3, static_cast<uint32_t>(s))};
  }
  uint64_t offset_in_row(const RowTerms& r, uint64_t xb) const {
    return ((xb >> ext_log2[0]) * block_bytes + r.base_B) ^ (r.g ^ g(0, static_cast<uint32_t>(xb)));
  }
  /// Inverse of the in-block map: inverse[i][c] = mask of channel-c in-block
  /// coordinate bits that address bit i (i < block_bits) contributes to.
  uint32_t inverse[32][4] = {};

 private:
  Pattern pattern_{};
};

}  // namespace swz
