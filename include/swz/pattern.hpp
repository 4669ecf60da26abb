// swz — the parameterized swizzle pattern descriptor.
//
// Models D3D12DDI_SWIZZLE_PATTERN_DESC_0022 (the D3D12 parameterized-swizzle specification, "Parameterized
// swizzle"): 32 interleave entries, four interleave XOR chains, two postamble
// XOR chains, the postamble immediate and flags. Channels: 0 = X in BYTES,
// 1 = Y (rows of elements), 2 = Z (slices), 3 = sample index.
// Semantic decisions: docs/ARCHITECTURE.md §2.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "swz/status.hpp"

namespace swz {

enum class Channel : uint8_t { X = 0, Y = 1, Z = 2, S = 3 };

/// One D3D12DDI_SWIZZLE_BIT_ENTRY. Byte form: bit 0 Valid, bits 1-2
/// ChannelIndex, bits 3-7 SourceBitIndex. Invalid entries keep their payload
/// so that DDI bytes round-trip exactly.
struct BitEntry {
  bool valid = false;
  uint8_t channel = 0;  ///< 0..3 (X bytes, Y, Z, sample)
  uint8_t bit = 0;      ///< 0..31

  static BitEntry make(Channel c, unsigned b) { return {true, static_cast<uint8_t>(c), static_cast<uint8_t>(b)}; }
  uint8_t to_byte() const { return static_cast<uint8_t>((valid ? 1 : 0) | ((channel & 3) << 1) | ((bit & 31) << 3)); }
  static BitEntry from_byte(uint8_t v) {
    return {(v & 1) != 0, static_cast<uint8_t>((v >> 1) & 3), static_cast<uint8_t>(v >> 3)};
  }
  bool operator==(const BitEntry&) const = default;
};

/// Pattern flags (D3D12DDI_SWIZZLE_PATTERN_FLAGS; 0x2 is the WDDM 2.2
/// D3DWDDM2_2DDI_SWIZZLE_PATTERN_FLAGS_CONDITIONAL_POSTAMBLE_XORS).
enum PatternFlags : uint32_t {
  kFlagNone = 0,
  kFlagStackDepthSlices = 0x1,
  kFlagConditionalPostamble = 0x2,
};

using BitArray = std::array<BitEntry, 32>;

/// The descriptor. Plain data; value semantics.
struct Pattern {
  BitArray interleave{};                ///< InterleavePatternSourceBits
  std::array<BitArray, 4> xors{};       ///< InterleavePatternXOR{,2,3,4}SourceBits
  std::array<BitArray, 2> postamble{};  ///< PostambleXOR{,2}SourceBits (address bits 8..23)
  uint32_t immediate = 0;               ///< PostambleXORImmediate (XORed into the in-block offset)
  uint32_t flags = 0;                   ///< PatternFlags

  bool operator==(const Pattern&) const = default;

  /// Number of leading valid interleave entries: the block holds 2^n bytes.
  unsigned block_bits() const;
  /// Block extent per channel (X in bytes, Y, Z, samples): 2^(number of
  /// primaries from that channel) (docs/ARCHITECTURE.md rule 2).
  std::array<uint64_t, 4> block_extent() const;
  bool stack_depth_slices() const { return (flags & kFlagStackDepthSlices) != 0; }
};

// ---- Text form (docs/ARCHITECTURE.md "Text and binary forms") ----------------------
// One token per address bit from bit 0: primary then up to four XOR terms,
// e.g. "X0 X1 Y0^X5 Y1". "-" is an invalid interleave entry; "_" inside a chain
// is an invalid XOR slot (keeps gaps exact). Then optional "post8=Y4^X9"
// (postamble terms of address bit 8, up to two), "imm=0x300", and flags
// "stack", "cond-post". Printing then parsing gives the same Pattern, for any
// pattern whose invalid entries carry no payload.

Status parse_pattern_text(std::string_view text, Pattern* out);
std::string to_text(const Pattern& p);

// ---- JSON form (patterns/README.md) ----------------------------------------
// {"bits": ["X0", "X1", "Y0^X5", ...], "postamble": {"8": "Y4^X9"},
//  "immediate": "0x300", "flags": ["stack"]}, plus optional metadata keys
// ("name", "description", "source", any value) that are not read. Any other
// key is a parse_error naming it: a misspelt "postambel" is not dropped.
Status parse_pattern_json(std::string_view json, Pattern* out);
std::string to_json(const Pattern& p);

// ---- DDI bytes --------------------------------------------------------------
/// 232 bytes: D3D12DDI_SWIZZLE_PATTERN_DESC_0022 / D3DWDDM2_2DDI_SWIZZLE_PATTERN_DESC
/// (7 x 32 entries, PostambleXORImmediate, Flags; little-endian).
constexpr size_t kDdiBytes0022 = 232;
/// 104 bytes: the older D3D12DDI_SWIZZLE_PATTERN_DESC (3 x 32 entries,
/// InterleavePatternXOR3 = 32-bit constant XORed into the in-block offset, Flags).
constexpr size_t kDdiBytesLegacy = 104;

/// Accepts either size (picked by length); anything else is a parse_error.
Status from_ddi_bytes(std::span<const uint8_t> bytes, Pattern* out);
std::vector<uint8_t> to_ddi_bytes_0022(const Pattern& p);
/// Fails (unsupported) when the pattern uses XOR3/XOR4 chains or postamble
/// entries, which the older struct cannot hold.
Status to_ddi_bytes_legacy(const Pattern& p, std::vector<uint8_t>* out);

// ---- Validation (docs/ARCHITECTURE.md rule 8) ---------------------------------------
/// Checks the pattern for use with elements of `element_bytes` bytes, 1..16.
/// For a power of two 2^k the element rule applies (address bits 0..k-1 are
/// X0..X(k-1) with no terms; nothing reads those bits). Other sizes (12-byte
/// R32G32B32) are byte-granular: no element rule. Pass 1 to check only the
/// element-independent rules. On failure the message names the field, index
/// and value.
Status validate(const Pattern& p, uint32_t element_bytes = 1);

}  // namespace swz
