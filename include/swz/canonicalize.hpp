// swz — put a pattern's XOR terms in the order the descriptor needs.
//
// The descriptor takes each address bit's FIRST term as its primary source,
// and validate() needs the primaries of each channel to be exactly that
// channel's in-block bits 0..m-1 (the block extent is 2^m). Real equations
// (AMD addrlib's ADDR_EQUATION, for example) list each bit's terms in an
// arbitrary order: some in-block bits appear only as XOR terms, others appear
// first on two address bits. Because XOR commutes, reordering the terms of an
// address bit does not change the map; canonicalize() picks, for every address
// bit of the block, one of its in-block terms as the primary so that every
// in-block coordinate bit is used exactly once (a perfect bipartite matching
// between address bits and in-block coordinate bits, Kuhn's algorithm). Such
// an order exists exactly when the in-block map is invertible over GF(2)
// (a non-zero determinant has a non-zero permutation term).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "swz/pattern.hpp"
#include "swz/status.hpp"

namespace swz {

/// Block extents per channel: X in BYTES (like the pattern's X channel), Y in
/// rows, Z in slices, S in samples. Each a power of two; their log2 sum must
/// equal the pattern's block bits.
struct BlockExtents {
  uint64_t x_bytes = 1;
  uint64_t y = 1;
  uint64_t z = 1;
  uint64_t s = 1;
};

/// Parses "WxH", "WxHxD" or "WxHxDxS" (W in bytes), e.g. "512x128".
Status parse_block_extents(std::string_view text, BlockExtents* out);
std::string to_string(const BlockExtents& e);

/// Reorders the terms of each address bit inside the block so that the
/// primaries are exactly each channel's in-block bits 0..m-1 (preferring the
/// term already first when it is an in-block bit, then the listed order).
/// Pairs of equal terms on one address bit cancel and are dropped. Postamble
/// terms that land inside the block (address bits 8..n-1) may also become the
/// primary (the displaced term takes their postamble slot). Everything else
/// (terms above the block, immediate, flags) is kept. The result passes
/// validate(out, 1); errors name the extents or the address bits that no
/// order can fix (a singular map).
Status canonicalize(const Pattern& in, const BlockExtents& extents, Pattern* out);

}  // namespace swz
