// identify()'s internals (include/swz/identify.hpp): how two elements of a
// dump are compared (Scorer), the sampled neighbour pairs, the candidates and
// the state one identification builds (Identification). identify.cpp runs
// the steps at one offset; offset_search.cpp finds the offsets to run them at.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "core/decode_bc.hpp"
#include "identify/internal.hpp"
#include "swz/identify.hpp"

namespace swz::ident {

// Deterministic generator (splitmix64): identical samples on every run.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint64_t n) { return static_cast<uint32_t>(next() % n); }
};

// Bytes of an element that carry the image: every byte of 8-bit channels, the
// most significant byte of each 16/32-bit channel (little-endian), all bytes
// when channels are mixed.
inline std::vector<uint32_t> feature_bytes(const FormatInfo& f) {
  std::vector<uint32_t> out;
  const uint32_t cb = f.channel_bits;
  if ((cb == 16 || cb == 32) && f.channels > 0 && f.channels * cb / 8 == f.element_bytes) {
    for (uint32_t c = 0; c < f.channels; ++c) out.push_back(c * cb / 8 + cb / 8 - 1);
  } else {
    for (uint32_t i = 0; i < f.element_bytes; ++i) out.push_back(i);
  }
  return out;
}

// How unlike two elements at byte offsets a and b (from `data`) are: the
// summed absolute differences of their feature bytes; for block-compressed
// formats, of the mean decoded colour of the two blocks (RGBA, 8 bits), each
// block decoded once, when first compared. Only elements wholly inside the
// dump are read: callers skip a pair unless has() holds for both.
struct Scorer {
  const uint8_t* data = nullptr;  // the texture's first byte (the dump at the offset tried)
  uint64_t avail = 0;             // bytes from data to the end of the dump
  uint32_t span = 1;              // bytes of one element (or block)
  std::vector<uint32_t> feat;
  bool blocks = false;
  detail::BlockKind kind = detail::BlockKind::BC1;
  const uint8_t* cache_origin = nullptr;  // block i of the cache starts at cache_origin + i * span
  mutable std::vector<std::array<uint8_t, 4>> mean;
  mutable std::vector<uint8_t> have;

  bool has(uint64_t a) const { return a < avail && avail - a >= span; }
  // Every offset later given to at() must be `origin` plus a multiple of the block size.
  void use_blocks(detail::BlockKind k, const uint8_t* origin, uint64_t bytes) {
    blocks = true;
    kind = k;
    cache_origin = origin;
    mean.assign(bytes / span, {});
    have.assign(bytes / span, 0);
  }
  void at(const uint8_t* origin, uint64_t bytes) {
    data = origin;
    avail = bytes;
  }
  const std::array<uint8_t, 4>& mean_of(uint64_t at) const {
    const uint64_t i = static_cast<uint64_t>(data + at - cache_origin) / span;
    if (!have[i]) {
      float t[16][4];
      detail::decode_block(kind, cache_origin + i * span, t);
      for (int c = 0; c < 4; ++c) {
        float m = 0;
        for (int k = 0; k < 16; ++k) m += std::clamp(t[k][c], 0.0f, 1.0f);  // BC6H: its [0, 1] part
        mean[i][c] = static_cast<uint8_t>(m / 16.0f * 255.0f + 0.5f);
      }
      have[i] = 1;
    }
    return mean[i];
  }
  uint32_t diff(uint64_t a, uint64_t b) const {
    uint32_t s = 0;
    if (blocks) {
      const std::array<uint8_t, 4>&ma = mean_of(a), &mb = mean_of(b);
      for (int c = 0; c < 4; ++c) s += static_cast<uint32_t>(std::abs(int{ma[c]} - int{mb[c]}));
      return s;
    }
    for (uint32_t i : feat) s += static_cast<uint32_t>(std::abs(int{data[a + i]} - int{data[b + i]}));
    return s;
  }
};

// The block kind of a BC format (its TYPELESS member reads as UNORM / UF16).
inline bool block_kind_of(const FormatInfo& f, detail::BlockKind* out) {
  const std::string fam = format_facts(f).cast_family;
  const bool snorm = std::string(f.name).find("SNORM") != std::string::npos;
  if (fam == "BC1") *out = detail::BlockKind::BC1;
  else if (fam == "BC2") *out = detail::BlockKind::BC2;
  else if (fam == "BC3") *out = detail::BlockKind::BC3;
  else if (fam == "BC4") *out = snorm ? detail::BlockKind::BC4S : detail::BlockKind::BC4U;
  else if (fam == "BC5") *out = snorm ? detail::BlockKind::BC5S : detail::BlockKind::BC5U;
  else if (fam == "BC6H") *out = std::string(f.name) == "BC6H_SF16" ? detail::BlockKind::BC6HS : detail::BlockKind::BC6HU;
  else if (fam == "BC7") *out = detail::BlockKind::BC7;
  else return false;
  return true;
}

// One sampled neighbour pair: first texel (x, y), second (x+1, y) or (x, y+1).
struct Pair {
  uint32_t x, y;
  uint16_t level;  // index into the level table
  bool vertical;
};

inline unsigned ctz32(uint32_t v) { return v ? static_cast<unsigned>(__builtin_ctz(v)) : 32u; }

struct Group {
  std::vector<size_t> members;  // indices into candidates, simplest first
  double score = 0;
  bool full = false;
};

struct Cand {
  CandidateName name;
  Layout layout;
  AddressTables tab;
  uint64_t short_B = 0;  // bytes of the layout past the end of the dump
};

inline double combine(const std::vector<double>& sum, const std::vector<uint64_t>& cnt, double norm) {
  double acc = 0;
  unsigned used = 0;
  for (size_t l = 0; l < sum.size(); ++l) {
    if (!cnt[l]) continue;
    acc += std::min(2.0, sum[l] / static_cast<double>(cnt[l]) / norm);
    ++used;
  }
  return used ? 1.0 - acc / used : 0.0;
}

// log2 of the block bytes of subresource 0's pattern.
inline unsigned block_bits_of(const Layout& L) {
  return L.patterns()[static_cast<size_t>(L.sub(0).pattern_slot)].block_bits();
}

inline uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

// identify()'s state, built step by step: the candidates that fit the dump,
// the sample (random texel pairs, neighbour pairs per seam level), the
// padding value and the normaliser, then each candidate's sampled score and
// signature. One generator feeds every random draw, in the order of the
// steps, so that a dump gets the same answer on every run.
// What a texel past the dump's end costs a decode, against 1 for a texel
// that decodes as padding. A noise texel costs about 0.9 through the
// smoothness score, so at half a texel: a decode shifted forward (its first
// texels never read, more of it past the end) loses, and so does one
// shifted back (noise at its start, less of it past the end).
constexpr double kMissingWeight = 0.5;

// Texels a full decode scores at most (more: a subsample of rows).
constexpr uint64_t kFullDecodeTexels = uint64_t{1} << 21;

struct Identification {
  Identification(const FormatInfo& f, uint32_t w, uint32_t h)
      : format(f), width_px(w), height_px(h), width(w), height(h) {}

  const FormatInfo& format;
  const uint32_t width_px, height_px;  // texels: the size layouts are made for
  uint32_t width = 0, height = 0;  // texels for collect_candidates, then elements (identify())
  uint64_t avail = 0;  // bytes of the dump after the offset
  uint64_t offset_B = 0;  // where the texture is taken to start in the dump
  uint32_t eb = 0;
  Scorer sc;
  Rng rng{0x5157A7E5ull};
  std::vector<Cand> cands;
  std::vector<std::array<uint32_t, 4>> randoms;
  std::vector<uint8_t> pad_value;  // empty: no frequent element value
  std::vector<double> pad;         // per candidate: padding fraction of its random texels
  double pad_min = 0;
  std::vector<double> miss;        // per candidate: fraction of its random texels past the dump's end
  double norm = 1;
  std::vector<Pair> pairs;
  uint16_t levels = 0;
  std::vector<double> lsum;
  std::vector<uint64_t> lcnt;
  std::vector<double> score;
  std::vector<uint64_t> sig;

  /// Everything before scoring, for the texture at `at_B` of `dump`: the
  /// candidates, the element grid, the scorer, the random texels, padding,
  /// the normaliser and the sampled pairs.
  Status prepare(std::span<const uint8_t> dump, uint64_t at_B);
  Status collect_candidates();
  void draw_randoms();
  double norm_of(const AddressTables& t) const;
  void find_padding();
  double padding_fraction(const AddressTables& t) const;
  double missing_fraction(const AddressTables& t) const;
  void find_padding_and_missing();  // pad, pad_min and miss of every candidate
  // Score lost by candidate i: padding it decodes beyond the least any
  // candidate decodes, and the texels it places past the dump's end (an
  // absolute loss, so that scores at different offsets compare).
  double penalty(size_t i) const { return (pad[i] - pad_min) + kMissingWeight * miss[i]; }
  void find_norm();
  void sample_pairs();
  double sampled(const AddressTables& t, uint32_t xr, uint64_t* sig_out);
  void score_sampled();
  void sweep_pbxor();
  std::vector<Group> group_by_signature() const;
  std::vector<Group> full_decode(std::vector<Group>& groups, size_t full_n) const;
  uint32_t row_step(uint64_t texels) const;
  /// The score of decode `t` over about texels_max texels at most (every
  /// texel of a smaller texture; else every row_step()-th row and the next),
  /// without penalties; *lost_fraction (if not null): the share of those
  /// texels equal to the padding value, plus kMissingWeight times the share
  /// past the dump's end.
  double decode_score(const AddressTables& t, double* lost_fraction, uint64_t texels_max) const;
  // Whether the element at `element` holds the padding value (fixed-size
  // compares for the usual sizes: this runs for every sampled texel).
  bool is_padding(const uint8_t* element) const {
    if (pad_value.empty()) return false;
    auto same = [&](auto word) {
      decltype(word) a, b;
      std::memcpy(&a, element, sizeof a);
      std::memcpy(&b, pad_value.data(), sizeof b);
      return a == b;
    };
    switch (eb) {
      case 1: return element[0] == pad_value[0];
      case 2: return same(uint16_t{});
      case 4: return same(uint32_t{});
      case 8: return same(uint64_t{});
      case 16: return same(uint64_t{}) && std::memcmp(element + 8, pad_value.data() + 8, 8) == 0;
      default: return std::memcmp(element, pad_value.data(), eb) == 0;
    }
  }
};

/// The best options.top candidates with the texture at `offset_B` of `dump`
/// (identify() at one offset; IdentifyCandidate::offset_B = offset_B).
/// *pad_min (if not null): the least padding fraction any candidate decodes,
/// the reference its scores' padding charge is taken from.
Status rank_at(std::span<const uint8_t> dump, const FormatInfo& format, uint32_t width_px, uint32_t height_px,
               uint64_t offset_B, const IdentifyOptions& opt, std::vector<IdentifyCandidate>* out, double* pad_min);

/// Offsets worth ranking in full, best first: options.offset_B + k *
/// options.offset_step_B, each scored quickly for every distinct candidate
/// (src/identify/offset_search.cpp). Errors name offset_step when the step
/// is not a multiple of the element size or the search would be too large.
Status search_offsets(std::span<const uint8_t> dump, const FormatInfo& format, uint32_t width_px, uint32_t height_px,
                      const IdentifyOptions& opt, std::vector<uint64_t>* out);

}  // namespace swz::ident
