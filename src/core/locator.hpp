// swz internal — locate's decoders and Locator::Impl, shared by
// core/locator_build.cpp (which builds them) and core/locate.cpp (which
// answers queries with them).
//
// A resource byte at `rel` bytes into subresource i is decoded by undoing
// the rule of core/addresser.hpp step by step: the whole-block share gives
// the block coordinates (row-major blocks at the pitches), their G bits are
// XORed out of the in-block offset, the in-block map is inverted (Plan's
// inverse rows), and Frame::unadjust undoes stacking and pre-swizzle. When
// coordinate bits above the block XOR into whole-block address bits
// (postamble terms above the block), the whole-block share is ambiguous: the
// span of those terms is kept as a basis and every combination is tried. Each
// candidate is checked by the forward rule, so a decode is never wrong, only
// "padding" when no element of the subresource has that byte.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/addresser.hpp"
#include "swz/address.hpp"
#include "core/plan.hpp"
#include "core/span_index.hpp"

namespace swz {
namespace detail {

__extension__ typedef unsigned __int128 u128;

/// n / d and n % d; exact for n < 2^32 with magic = magic_of(d) (Lemire,
/// Kaser and Kurz, "Faster remainder by direct computation", 2019).
inline uint64_t magic_of(uint64_t d) { return d && d < (uint64_t{1} << 32) ? ~uint64_t{0} / d + 1 : 0; }
inline uint64_t divmod(uint64_t n, uint64_t d, uint64_t magic, uint64_t* rem) {
  const uint64_t q =
      magic && n < (uint64_t{1} << 32) ? static_cast<uint64_t>((static_cast<u128>(magic) * n) >> 64) : n / d;
  *rem = n - q * d;
  return q;
}

/// The scalars one decode reads, in one flat object, so that a loop over
/// many offsets can keep them in registers (a local copy does not alias the
/// Location records it writes).
struct DecodeShape {
  const Plan* plan = nullptr;
  const std::array<uint32_t, 4>* inv_tab =
      nullptr;  ///< [k * 256 + v]: inverse of byte k of the in-block offset; null: per bit
  Frame frame;
  uint64_t row_magic = 0, depth_magic = 0;  ///< for divmod by the pitches
  unsigned block_bits = 0, ext_log2[3] = {0, 0, 0}, inv_bytes = 0;
  unsigned x_shift = 0;  ///< block_bits - ext_log2[0]
  uint32_t in_mask = 0, immediate_in = 0;  ///< block_bytes - 1; the immediate's in-block bits
  uint32_t index = 0, width_el = 0, height_el = 0, depth = 0, samples = 1, element_bytes = 1;
  int element_log2 = -1;  ///< log2(element_bytes), -1 when not a power of two
  /// False when the decode is exact by construction, so the forward check
  /// can be skipped: no whole-block XOR terms (empty basis) and pitches that
  /// are multiples of the block. Then the block coordinates come straight
  /// from the whole-block share, G of the result has no bits above the block,
  /// and the in-block map is a bijection, so offset(decoded) == rel; decoded
  /// coordinates outside the subresource fail the range checks instead.
  bool verify = true;
  /// Coordinate bits above the block XOR into in-block address bits (pipe
  /// and bank XORs, postamble terms inside the block).
  bool high_into_block = true;
};

/// The coordinates one candidate decode gives and whether they are an
/// element of the subresource whose byte `rel` is.
struct Decoded {
  uint64_t x, y, z, sample, byte;
  bool ok;
};

/// One candidate decode: `a` is `rel` (bytes from the subresource's start)
/// with a guess of the whole-block XOR terms removed. The checks are
/// combined without branches, so that padding bytes mixed with element bytes
/// cost no mispredicted branch.
[[gnu::always_inline]] inline Decoded decode_core(const DecodeShape& k, uint64_t a, uint64_t rel) {
  const Plan& p = *k.plan;
  uint64_t rest = a & ~uint64_t{k.in_mask}, bz = 0;  // the whole-block share
  if (k.frame.depth_pitch_B) bz = divmod(rest, k.frame.depth_pitch_B, k.depth_magic, &rest);
  const uint64_t by = divmod(rest, k.frame.row_pitch_B, k.row_magic, &rest);
  // rest = bx * block bytes: c[0] = bx << ext_log2[0] in one shift
  uint64_t c[4] = {rest >> k.x_shift, by << k.ext_log2[1], bz << k.ext_log2[2], 0};
  uint32_t u = (static_cast<uint32_t>(a) & k.in_mask) ^ k.immediate_in;
  if (k.high_into_block)
    u ^= (p.g(0, static_cast<uint32_t>(c[0])) ^ p.g(1, static_cast<uint32_t>(c[1])) ^
          p.g(2, static_cast<uint32_t>(c[2]))) &
         k.in_mask;
  alignas(16) uint32_t inb[4] = {0, 0, 0, 0};  // in-block coordinate bits, per channel
  if (k.inv_tab) {                             // one row per byte of the in-block offset (at most 4), unrolled
    auto add = [&](unsigned byte) {
      const std::array<uint32_t, 4>& r = k.inv_tab[byte * 256 + ((u >> (8 * byte)) & 255)];
      for (int ch = 0; ch < 4; ++ch) inb[ch] ^= r[static_cast<size_t>(ch)];
    };
    if (k.inv_bytes > 0) add(0);
    if (k.inv_bytes > 1) add(1);
    if (k.inv_bytes > 2) add(2);
    if (k.inv_bytes > 3) add(3);
  } else {
    for (unsigned b = 0; b < k.block_bits; ++b)
      if (u & (1u << b))
        for (int ch = 0; ch < 4; ++ch) inb[ch] ^= p.inverse[b][ch];
  }
  for (int ch = 0; ch < 4; ++ch) c[ch] ^= inb[ch];
  Decoded d;
  d.ok = !k.verify || p.offset(c[0], c[1], c[2], c[3], k.frame.row_pitch_B, k.frame.depth_pitch_B) == rel;
  // Frame::unadjust without branches: element coordinates x in bytes, y, z.
  const Frame& f = k.frame;
  // a < b as the sign of a - b (all values here are below 2^63), so that the
  // compiler keeps the checks free of branches.
  auto below = [](uint64_t lhs, uint64_t rhs) { return (lhs - rhs) >> 63; };
  uint64_t in = (below(c[0], f.pre[0]) | below(c[1], f.pre[1]) | below(c[2], f.pre[2])) ^ 1;
  const uint64_t x_B = c[0] - f.pre[0];
  d.y = c[1] - f.pre[1];
  d.z = c[2] - f.pre[2];
  if (f.stack_rows) {
    d.z = d.y / f.stack_rows;
    d.y %= f.stack_rows;
  }
  d.x = k.element_log2 >= 0 ? x_B >> k.element_log2 : x_B / k.element_bytes;
  d.sample = c[3];
  d.byte = x_B - d.x * k.element_bytes;
  in &= below(d.x, k.width_el) & below(d.y, k.height_el) & below(d.z, k.depth) & below(d.sample, k.samples);
  d.ok &= in != 0;
  return d;
}

/// decode_core's answer written to *loc only when it is an element; false
/// when no element of the subresource has that byte.
[[gnu::always_inline]] inline bool decode_at(const DecodeShape& k, uint32_t index, uint64_t a, uint64_t rel,
                                             Location* loc) {
  const Decoded d = decode_core(k, a, rel);
  if (!d.ok) return false;
  loc->padding = false;
  loc->packed = false;
  loc->subresource = index;
  loc->x = static_cast<uint32_t>(d.x);
  loc->y = static_cast<uint32_t>(d.y);
  loc->z = static_cast<uint32_t>(d.z);
  loc->sample = static_cast<uint32_t>(d.sample);
  loc->byte = static_cast<uint32_t>(d.byte);
  return true;
}

/// The whole answer for byte `rel` of a subresource with an empty basis:
/// its element, or padding against it (then the coordinates are 0).
/// kBranchless: written without a branch on which, for random bytes of a
/// resource with much padding (a branch there would be mispredicted often).
template <bool kBranchless = false>
[[gnu::always_inline]] inline void decode_write(const DecodeShape& k, uint32_t index, uint64_t rel, Location* loc) {
  const Decoded d = decode_core(k, rel, rel);
  if constexpr (!kBranchless) {
    if (!d.ok) {
      Location pad;
      pad.padding = true;
      pad.subresource = index;
      *loc = pad;
      return;
    }
  }
  const uint32_t keep = 0u - static_cast<uint32_t>(d.ok);
  loc->padding = !d.ok;
  loc->packed = false;
  loc->subresource = index;
  loc->x = static_cast<uint32_t>(d.x) & keep;
  loc->y = static_cast<uint32_t>(d.y) & keep;
  loc->z = static_cast<uint32_t>(d.z) & keep;
  loc->sample = static_cast<uint32_t>(d.sample) & keep;
  loc->byte = static_cast<uint32_t>(d.byte) & keep;
}

/// Everything locate needs about one subresource. The in-block inverse is
/// read from byte tables when a Locator built them (set_tables), else from
/// the plan's per-bit rows (locate() alone, to build nothing for one query).
struct SubDecoder {
  DecodeShape k;
  uint64_t start_B = 0, size_B = 0;
  bool packed = false;
  std::vector<uint32_t> basis;  ///< span of the whole-block G terms
  bool direct = false;          ///< not packed, empty basis: one decode_at answers

  SubDecoder(const Layout& layout, uint32_t i) {
    const SubresourceLayout& s = layout.sub(i);
    const Plan& p = layout.plan(i);
    start_B = s.offset;
    size_B = s.size;
    packed = s.packed;
    k.plan = &p;
    k.frame = Frame::of(s);
    // One slice of blocks: make_layout lets the depth pitch be anything then (it is never
    // multiplied by a non-zero slice), so it must not split the offset either.
    if (((k.frame.pre[2] + s.depth - 1) >> p.ext_log2[2]) == 0) k.frame.depth_pitch_B = 0;
    k.index = s.index;
    k.width_el = s.width_el;
    k.height_el = s.height_el;
    k.depth = s.depth;
    k.samples = layout.desc().samples;
    k.element_bytes = s.element_bytes;
    if (std::has_single_bit(k.element_bytes)) k.element_log2 = std::countr_zero(k.element_bytes);
    k.row_magic = magic_of(k.frame.row_pitch_B);
    k.depth_magic = magic_of(k.frame.depth_pitch_B);
    k.block_bits = p.block_bits;
    for (int c = 0; c < 3; ++c) k.ext_log2[c] = p.ext_log2[static_cast<size_t>(c)];
    k.x_shift = k.block_bits - k.ext_log2[0];
    k.inv_bytes = (k.block_bits + 7) / 8;
    k.in_mask = static_cast<uint32_t>(p.block_bytes - 1);
    k.immediate_in = p.immediate & k.in_mask;
    if (!packed) basis = high_basis();
    direct = !packed && basis.empty();
    k.verify = !basis.empty() || k.frame.row_pitch_B % p.block_bytes != 0 || k.frame.depth_pitch_B % p.block_bytes != 0;
    uint32_t high = 0;
    for (unsigned ch = 0; ch < 3; ++ch)
      for (unsigned b = p.ext_log2[ch]; b < 32; ++b) high |= p.lin[ch][b];
    k.high_into_block = (high & k.in_mask) != 0;
  }

  /// The span of the G contributions at or above the block of the coordinate
  /// bits that can be set inside this subresource.
  std::vector<uint32_t> high_basis() const {
    const Plan& p = *k.plan;
    const Adjusted top = k.frame.adjust(uint64_t{k.width_el} * k.element_bytes - 1, k.height_el - 1u, k.depth - 1u);
    const uint64_t cmax[4] = {top.x_B, top.y, top.z, k.samples - 1u};
    uint32_t by_top[32] = {};
    for (int c = 0; c < 4; ++c)
      for (int b = 0; b < std::min(32, static_cast<int>(std::bit_width(cmax[c]))); ++b) {
        uint32_t v = p.lin[c][b] & p.high_mask;
        for (int t = 31; t >= 0 && v; --t) {
          if (!(v & (1u << t))) continue;
          if (!by_top[t]) {
            by_top[t] = v;
            v = 0;
          } else {
            v ^= by_top[t];
          }
        }
      }
    std::vector<uint32_t> out;
    for (uint32_t v : by_top)
      if (v) out.push_back(v);
    return out;
  }

  /// Decodes `rel` (bytes from the subresource's start); false when no
  /// element of this subresource has that byte.
  bool decode(uint64_t rel, Location* loc) const {
    if (basis.empty()) return decode_at(k, k.index, rel, rel, loc);
    for (size_t m = 0; m < (size_t{1} << basis.size()); ++m) {
      uint32_t h = 0;
      for (size_t j = 0; j < basis.size(); ++j)
        if (m & (size_t{1} << j)) h ^= basis[j];
      if (decode_at(k, k.index, rel ^ h, rel, loc)) return true;
    }
    return false;
  }

  /// out[i] = what byte offsets[i] of the resource holds, for offsets that
  /// all lie in a segment of the span index that this subresource alone holds.
  void decode_run(const uint64_t* offsets, size_t n, Location* out) const {
    if (packed || !basis.empty()) {
      for (size_t i = 0; i < n; ++i) decode_or_pad(offsets[i] - start_B, &out[i]);
      return;
    }
    const DecodeShape kk = k;  // a local copy: its fields stay in registers
    const uint64_t start = start_B;
    const uint32_t index = k.index;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t rel = offsets[i] - start;
      decode_write(kk, index, rel, &out[i]);
    }
  }
  void decode_or_pad(uint64_t rel, Location* out) const {
    if (packed) {
      *out = Location{};
      out->packed = true;
      out->subresource = k.index;
    } else if (!decode(rel, out)) {
      *out = padding();
    }
  }
  Location padding() const {
    Location l;
    l.padding = true;
    l.subresource = k.index;
    return l;
  }
};

}  // namespace detail

struct Locator::Impl {
  std::vector<std::shared_ptr<const Plan>> plans;  ///< keeps alive the plans the decoders point into
  uint64_t size_B = 0;
  std::vector<detail::SubDecoder> subs;                      ///< by subresource index
  /// Per subresource, the bytes where it can have elements: its span, from its own start on when
  /// it is direct (the span index's spans; see build_locator).
  std::vector<detail::SpanIndex::Span> hold;
  std::vector<uint32_t> by_start;      ///< indices sorted by (hold start, index)
  std::vector<uint64_t> sorted_start;  ///< hold[by_start[j]].start_B, for the search
  std::vector<uint64_t> max_end;       ///< max hold end over by_start[0..j]
  std::vector<std::vector<std::array<uint32_t, 4>>> tables;  ///< one per distinct plan
  detail::SpanIndex spans;                                   ///< which spans hold an offset (the batch's search)
  /// What the search path reads per subresource, small and contiguous:
  /// when one decode_at answers (not packed, no whole-block XOR basis), its
  /// shape in `shapes` and the start that shape decodes from (the
  /// subresource's, or later by whole slices: see build_locator); else a null
  /// shape and the subresource's start.
  struct Direct {
    uint64_t start_B = 0;
    const detail::DecodeShape* shape = nullptr;
  };
  std::vector<Direct> direct;               ///< by subresource index
  std::vector<detail::DecodeShape> shapes;  ///< distinct shapes of the direct subresources
  /// The random-offset fast path, one entry per bucket of the span index:
  /// when one segment holds the whole bucket and one decode_at answers there
  /// (one subresource, reported against it when padding, with a shape), that
  /// subresource's start, index and shape (an index into `shapes`); else
  /// shape = kNoHot. One load per offset finds everything the decode needs.
  static constexpr uint32_t kNoHot = UINT32_MAX;
  struct HotBucket {
    uint64_t start_B = 0;     ///< the subresource's
    uint32_t shape = kNoHot;  ///< into `shapes`
    uint32_t sub = 0;  ///< shape = kNoHot: 0, or 1 + a segment with an owner table that holds the bucket
  };
  /// More than 1/8 of the resource is padding: random offsets decode with
  /// branch-free writes (decode_write<true>).
  bool sparse = false;
  std::vector<HotBucket> hot_of_bucket;
  /// Owner tables of shared segments (the span index's kShared: mips packed into one tail
  /// block). Ownership is the same for every byte of an aligned group of 2^gran_log2 bytes (the
  /// candidates' elements are whole groups: see build_owner_tables), so one byte per group names
  /// the candidate with an element there: rank[(offset >> gran_log2) - first_group] is 0 for
  /// padding (reported against the segment's pad_sub), else r for cands[r - 1], the lowest index
  /// with an element at the byte (locate_in's answer, in one decode instead of one per mip).
  struct SharedOwner {
    const uint8_t* rank = nullptr;  ///< null: no table (locate_in searches)
    const uint32_t* cands = nullptr;
    uint64_t first_group = 0;
    unsigned gran_log2 = 0;
    uint32_t pad_sub = 0;  ///< the segment's
  };
  std::vector<SharedOwner> owner_of_segment;       ///< by span index segment
  std::vector<std::vector<uint8_t>> owner_tables;  ///< distinct tables (slices of one pattern share one)
  std::vector<std::vector<uint32_t>> owner_cands;  ///< candidates per table-owning segment
};

}  // namespace swz
