// swz — find the layout of an unknown dump.
//
// identify(): rank the built-in layouts (every family, with parameter sweeps)
// for a dump that holds an ordinary image. Each candidate decodes a fixed
// subsample of neighbouring texel pairs through its address tables; the score
// is 1 - (mean neighbour difference / mean difference of random texel pairs),
// averaged per seam level (pairs across columns x+1 = 2^t * odd and rows
// y+1 = 2^t * odd each form one level), so that the block seams a wrong layout
// makes weigh as much as the whole interior. The best candidates are then
// scored again over every texel (full decode; past 2^21 texels, every
// neighbour pair of a subsample of rows). Decodes of padding (the dump's most
// frequent element value) cost score. For the best AMD candidates the
// pipe/bank XOR (pbxor=N) is swept. Layouts that give the same
// bytes for this texture are reported once, under the simplest name.
//
// infer(): solve for the layout of a probe dump: the element at (x, y) holds
// y * width + x as a little-endian integer in its first 4 bytes (elements of
// 4 bytes or more; probe 1- and 2-byte formats with a 4-byte format of the
// same tiling). Each coordinate bit's effect on the address is read off the
// probe (GF(2)), the block, interleave, XOR chains, postamble terms above the
// block, immediate and row pitch follow, and the result is checked by
// re-swizzling every texel. A built-in name is preferred when one matches the
// probe byte for byte.
//
// Both handle one 2D texture: mip 0 of subresource 0, starting `offset_B`
// bytes into the buffer.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/pattern.hpp"
#include "swz/status.hpp"

namespace swz {

struct IdentifyOptions {
  uint32_t top = 5;           ///< candidates to return (1..1000)
  uint64_t offset_B = 0;      ///< where the texture starts in the dump, bytes (with a search: where the search starts)
  /// 0: the texture starts at offset_B. Otherwise the start is searched for at
  /// offset_B + k * offset_step_B (a multiple of the element size; 4096 finds
  /// textures placed at page alignment, the element size finds any start).
  uint64_t offset_step_B = 0;
  uint32_t full_decode = 12;  ///< candidates re-scored over every texel (at least `top`)
};

/// One ranked candidate.
struct IdentifyCandidate {
  double score = 0;          ///< 1 = perfectly smooth decode, ~0 = noise; higher is better
  std::string layout;        ///< a name --layout / make_layout_from_name accepts verbatim
                             ///< (row-major with another pitch: "row-major:pitch=N")
  uint32_t equivalents = 0;  ///< other tried names that give the same bytes for this texture
  uint64_t offset_B = 0;     ///< where this candidate's texture starts in the dump
  uint64_t short_B = 0;      ///< bytes of the layout past the end of the dump (0: the dump holds it whole)
};

/// Ranks layouts for `dump`, best first, at most options.top of them. A dump
/// that ends early is ranked on the bytes it has: a layout is tried when at
/// least half of it is present, and its missing bytes are reported (short_B).
/// Formats: single-plane, 1..16 bytes per element; block-compressed ones
/// (BC1-BC7) are scored on each block's mean decoded colour.
/// Errors: invalid_argument (zero size, an unsupported format, an offset step
/// that is not a multiple of the element size, a search over more offsets
/// than the limit the message names), out_of_range (offset past the dump; no
/// tried layout fits half in the dump: the message gives the smallest size
/// that a layout needs).
Status identify(std::span<const uint8_t> dump, const FormatInfo& format, uint32_t width_px, uint32_t height_px,
                const IdentifyOptions& options, std::vector<IdentifyCandidate>* out);

/// The layout a probe was made with.
struct InferResult {
  std::string layout;        ///< built-in name, or "pattern:TEXT"
  uint64_t row_pitch_B = 0;  ///< non-zero when it differs from the layout's default (--row-pitch)
  bool builtin = false;      ///< layout is a built-in name (not pattern text)
  Pattern pattern{};         ///< the solved pattern (also for a built-in match, when the solver succeeded)
  bool solved_pattern = false;
  uint64_t elements_verified = 0;           ///< texels whose address was checked (all of them on success)
  uint32_t bytes_verified_per_element = 4;  ///< bytes of each element the probe pins (the index)
  uint64_t span_B = 0;                      ///< bytes from offset_B to the end of the last element
  Layout made;                              ///< the layout, laid out for the probe's texture
};

/// Solves the layout of `probe`. Errors: invalid_argument (sizes, a format
/// under 4 bytes or block-compressed, offset past the probe), parse_error (not
/// a probe: missing or duplicated indices, or an address map that no pattern
/// reproduces; the message names the texels that disagree), unsupported (a
/// map that needs more XOR terms than the pattern descriptor holds).
Status infer(std::span<const uint8_t> probe, const FormatInfo& format, uint32_t width_px, uint32_t height_px,
             uint64_t offset_B, InferResult* out);

/// Decodes mip 0 of `layout` (a single 2D subresource) from `dump` +
/// offset_B into tight rows (width_el * element_bytes per row). Used for
/// thumbnails. With missing_el null, errors when the layout does not fit in
/// the dump; otherwise elements past the dump's end decode as zero bytes and
/// their count is stored in *missing_el.
Status decode_linear(std::span<const uint8_t> dump, const Layout& layout, uint64_t offset_B, std::vector<uint8_t>* out,
                     uint64_t* missing_el = nullptr);

}  // namespace swz
