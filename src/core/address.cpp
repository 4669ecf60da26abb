// element_offset and locate: single-element queries over a Layout.
#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <bit>
#include <mutex>
#include <thread>

#include "core/addresser.hpp"
#include "core/parallel.hpp"
#include "core/kernel.hpp"
#include "swz/address.hpp"
#include "swz/copy.hpp"
#include "core/plan.hpp"
#include "core/checked_math.hpp"
#include "core/request.hpp"
#include "core/span_index.hpp"

namespace swz {

Status element_offset(const Layout& layout, uint32_t subresource, uint32_t x, uint32_t y, uint32_t z, uint32_t sample,
                      uint64_t* out) {
  SWZ_TRY(detail::check_operation(layout, subresource, detail::Operation::Address));
  const SubresourceLayout& s = layout.sub(subresource);
  if (x >= s.width_el)
    return {Code::out_of_range, "x = " + std::to_string(x) + " (subresource " + std::to_string(subresource) + " is " +
                                    std::to_string(s.width_el) + " elements wide)"};
  if (y >= s.height_el)
    return {Code::out_of_range, "y = " + std::to_string(y) + " (subresource " + std::to_string(subresource) + " is " +
                                    std::to_string(s.height_el) + " elements high)"};
  if (z >= s.depth)
    return {Code::out_of_range, "z = " + std::to_string(z) + " (subresource " + std::to_string(subresource) +
                                    " has depth " + std::to_string(s.depth) + ")"};
  if (sample >= layout.desc().samples)
    return {Code::out_of_range, "sample = " + std::to_string(sample) + " (the texture has " +
                                    std::to_string(layout.desc().samples) + " samples)"};
  const detail::SubresourceAddresser a(s, layout.plan(subresource));
  *out = a.offset_B(uint64_t{x} * s.element_bytes, y, z, sample);
  return Status::Ok();
}

Status AddressMap::make(const Layout& layout, uint32_t subresource, AddressMap* out, uint64_t expected_queries,
                        Method method) {
  SWZ_TRY(detail::check_operation(layout, subresource, detail::Operation::Address));
  const SubresourceLayout& s = layout.sub(subresource);
  AddressMap m;
  m.plan_ = layout.sub_plans_[subresource];
  m.subresource_ = subresource;
  m.element_bytes_ = s.element_bytes;
  m.limit_[0] = s.width_el;
  m.limit_[1] = s.height_el;
  m.limit_[2] = s.depth;
  m.limit_[3] = layout.desc().samples;
  const detail::Frame f = detail::Frame::of(s);
  m.base_B_ = s.offset;
  m.stack_rows_ = f.stack_rows;
  for (int i = 0; i < 3; ++i) m.pre_[i] = f.pre[i];
  m.row_pitch_B_ = f.row_pitch_B;
  m.depth_pitch_B_ = f.depth_pitch_B;
  // Per-axis tables: x (elements), y' (rows after stacking: y + z * stack_rows), z, sample.
  const uint64_t y_entries = f.stack_rows ? m.limit_[1] + (m.limit_[2] - 1) * f.stack_rows : m.limit_[1];
  const uint64_t z_entries = f.stack_rows ? 1 : m.limit_[2];
  const uint64_t entries = m.limit_[0] + y_entries + z_entries + m.limit_[3];
  const bool tables = method == Method::AxisTables ||
                      (method == Method::Automatic && entries <= std::max<uint64_t>(4096, 2 * expected_queries) &&
                       entries <= (uint64_t{1} << 24));
  if (tables) {
    const Plan& plan = *m.plan_;
    // Each axis alone through the rule (pre-swizzle, stacking), split into
    // its whole-block base and its G bits: offset = sum(base) ^ xor(G) ^ imm.
    m.tx_.resize(m.limit_[0]);
    for (uint64_t i = 0; i < m.limit_[0]; ++i) {
      const uint64_t xb = f.adjust(i * s.element_bytes, 0, 0).x_B;
      m.tx_[i] = {(xb >> plan.ext_log2[0]) * plan.block_bytes, plan.g(0, static_cast<uint32_t>(xb))};
    }
    m.ty_.resize(y_entries);
    for (uint64_t i = 0; i < y_entries; ++i) {
      const uint64_t yy = f.adjust(0, i, 0).y;  // i already holds y + z * stack_rows
      m.ty_[i] = {(yy >> plan.ext_log2[1]) * f.row_pitch_B, plan.g(1, static_cast<uint32_t>(yy))};
    }
    m.tz_.resize(z_entries);
    for (uint64_t i = 0; i < z_entries; ++i) {
      const uint64_t zz = f.stack_rows ? 0 : f.adjust(0, 0, i).z;
      m.tz_[i] = {(zz >> plan.ext_log2[2]) * f.depth_pitch_B, plan.g(2, static_cast<uint32_t>(zz))};
    }
    m.ts_.resize(m.limit_[3]);
    for (uint64_t i = 0; i < m.limit_[3]; ++i)
      m.ts_[i] = {0, plan.g(3, static_cast<uint32_t>(i)) ^ uint64_t{plan.immediate}};
  }
  *out = std::move(m);
  return Status::Ok();
}

uint64_t AddressMap::offset_by_plan(uint64_t x, uint64_t y, uint64_t z, uint64_t sample) const {
  const detail::Adjusted a = detail::Frame::adjust(pre_, stack_rows_, x * element_bytes_, y, z);
  return base_B_ + plan_->offset(a.x_B, a.y, a.z, sample, row_pitch_B_, depth_pitch_B_);
}

namespace {
Status coordinate_out_of_range(uint32_t subresource, int c, uint64_t value, const uint64_t* limit, const char* where) {
  static const char* const names[4] = {"x", "y", "z", "sample"};
  static const char* const what[4] = {"elements wide", "elements high", "slices deep", "samples"};
  return {Code::out_of_range, std::string(names[c]) + " = " + std::to_string(value) + where +
                                  " is out of range: subresource " + std::to_string(subresource) + " is " +
                                  std::to_string(limit[c]) + " " + what[c]};
}
}  // namespace

Status AddressMap::offset(uint64_t x, uint64_t y, uint64_t z, uint64_t sample, uint64_t* out) const {
  const uint64_t v[4] = {x, y, z, sample};
  for (int c = 0; c < 4; ++c)
    if (v[c] >= limit_[c]) return coordinate_out_of_range(subresource_, c, v[c], limit_, "");
  *out = offset_unchecked(x, y, z, sample);
  return Status::Ok();
}

Status AddressMap::offsets(const uint32_t* x, const uint32_t* y, const uint32_t* z, const uint32_t* sample, uint64_t n,
                           uint64_t* out) const {
  if (n && (!x || !y || !z || !out)) return {Code::invalid_argument, "offsets: x, y, z and out must not be null"};
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t v[4] = {x[i], y[i], z[i], sample ? sample[i] : 0u};
    for (int c = 0; c < 4; ++c)
      if (v[c] >= limit_[c])
        return coordinate_out_of_range(subresource_, c, v[c], limit_, (" at index " + std::to_string(i)).c_str());
    out[i] = offset_unchecked(v[0], v[1], v[2], v[3]);
  }
  return Status::Ok();
}

// ---- locate: the inverse of the address rule ----
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
namespace detail {
namespace {

__extension__ typedef unsigned __int128 u128;

/// n / d and n % d; exact for n < 2^32 with magic = magic_of(d) (Lemire,
/// Kaser and Kurz, "Faster remainder by direct computation", 2019).
uint64_t magic_of(uint64_t d) { return d && d < (uint64_t{1} << 32) ? ~uint64_t{0} / d + 1 : 0; }
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

/// Everything of a DecodeShape but the subresource index: subresources with
/// the same key (the slices of one mip) decode with one shared shape.
std::array<uint64_t, 24> shape_key(const DecodeShape& k) {
  return {reinterpret_cast<uintptr_t>(k.plan),
          reinterpret_cast<uintptr_t>(k.inv_tab),
          k.frame.pre[0],
          k.frame.pre[1],
          k.frame.pre[2],
          k.frame.stack_rows,
          k.frame.row_pitch_B,
          k.frame.depth_pitch_B,
          k.row_magic,
          k.depth_magic,
          k.block_bits,
          k.ext_log2[0],
          k.ext_log2[1],
          k.ext_log2[2],
          k.inv_bytes,
          k.in_mask,
          k.immediate_in,
          k.width_el,
          k.height_el,
          k.depth,
          k.samples,
          k.element_bytes,
          static_cast<uint64_t>(static_cast<int64_t>(k.element_log2)),
          uint64_t{k.verify} | uint64_t{k.high_into_block} << 1};
}

/// Byte tables of a plan's in-block inverse: row k * 256 + v is the XOR of
/// inverse[8k + b] over the set bits b of v.
std::vector<std::array<uint32_t, 4>> inverse_tables(const Plan& p) {
  const unsigned bytes = (p.block_bits + 7) / 8;
  std::vector<std::array<uint32_t, 4>> t(size_t{bytes} * 256);
  for (unsigned k = 0; k < bytes; ++k)
    for (unsigned v = 1; v < 256; ++v) {
      const unsigned low = static_cast<unsigned>(std::countr_zero(v));
      const unsigned bit = 8 * k + low;
      std::array<uint32_t, 4> r = t[k * 256 + (v & (v - 1))];
      if (bit < p.block_bits)
        for (int ch = 0; ch < 4; ++ch) r[static_cast<size_t>(ch)] ^= p.inverse[bit][ch];
      t[k * 256 + v] = r;
    }
  return t;
}

}  // namespace
}  // namespace detail

namespace {
Status offset_past_end(uint64_t size_B, uint64_t offset) {
  return {Code::out_of_range, "offset = " + std::to_string(offset) + " is at or past the end of the resource (" +
                                  std::to_string(size_B) + " bytes)"};
}
}  // namespace

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

struct Layout::LocatorCache {
  std::once_flag once;
  std::shared_ptr<const Locator::Impl> impl;
};

std::shared_ptr<Layout::LocatorCache> detail::new_locator_cache() { return std::make_shared<Layout::LocatorCache>(); }

namespace {
/// log2 of the bytes of an aligned group that subresource i's elements cover whole: the element
/// bytes' power-of-two part, the pre-swizzle X origin's, and the plan's contiguous run (its address
/// bits below run_log2 are X's own bits, with no XOR terms and no immediate on them). So for
/// g = 2^result, the g-aligned bytes x_B..x_B + g - 1 of one element land on g consecutive
/// addresses starting at a multiple of g (pitches are multiples of the block), and every byte of
/// an aligned address group belongs to the same element or to none of subresource i.
unsigned whole_group_log2(const Layout& L, uint32_t i) {
  const SubresourceLayout& s = L.sub(i);
  const Plan& p = L.plan(i);
  unsigned t = std::min<unsigned>(p.run_log2, static_cast<unsigned>(std::countr_zero(s.element_bytes)));
  if (s.pre_swizzle[0]) t = std::min<unsigned>(t, static_cast<unsigned>(std::countr_zero(s.pre_swizzle[0])));
  return std::min(t, 16u);
}

/// Locator::Impl::owner_of_segment: for each shared segment of the span index whose candidates
/// (the subresources whose hold span covers it) are at most 255, none packed, and small enough to
/// enumerate, a table of owners built with the forward rule: every element of every candidate,
/// in index order, marks its groups in the segment that are still free (the lowest index wins
/// where two have an element at one byte, as in locate_in). Segments whose candidates decode with
/// the same shapes from the same distance before the segment (the slices of an AMD array in one
/// frame, whose shapes build_locator shares) have the same table: it is built once. Bounded: at
/// most 2^20 groups (one byte each) per table and 2^24 in all, and 2^21 element groups
/// enumerated; segments past the bounds keep the search.
void build_owner_tables(const Layout& L, Locator::Impl* impl) {
  const std::vector<detail::SpanIndex::Segment>& segs = impl->spans.segments();
  impl->owner_of_segment.assign(segs.size(), Locator::Impl::SharedOwner{});
  const uint32_t n = L.subresource_count();
  const uint64_t samples = L.desc().samples;
  constexpr uint64_t kTableGroups = uint64_t{1} << 20, kAllGroups = uint64_t{1} << 24;
  constexpr uint64_t kEnumerated = uint64_t{1} << 21;  // about 0.03 s of CPU at most (Release)
  std::vector<uint64_t> chunks_of(n, 0);  // element groups of subresource i (0: packed)
  std::vector<unsigned> gran(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (L.sub(i).packed) continue;
    gran[i] = whole_group_log2(L, i);
    const SubresourceLayout& s = L.sub(i);
    chunks_of[i] = uint64_t{s.width_el} * s.height_el * s.depth * samples * (s.element_bytes >> gran[i]);
  }
  std::map<std::vector<uint64_t>, size_t> table_of_key;
  uint64_t groups_all = 0, enumerated = 0;
  for (size_t j = 0; j < segs.size(); ++j) {
    const detail::SpanIndex::Segment& sg = segs[j];
    if (sg.kind != detail::SpanIndex::kShared) continue;
    const uint64_t o = sg.start_B;
    const size_t hi = static_cast<size_t>(std::upper_bound(impl->sorted_start.begin(), impl->sorted_start.end(), o) -
                                          impl->sorted_start.begin());
    std::vector<uint32_t> cands;
    bool ok = true;
    for (size_t q = hi; q-- > 0 && impl->max_end[q] > o;) {
      const uint32_t i = impl->by_start[q];
      const detail::SpanIndex::Span& h = impl->hold[i];
      if (o - h.start_B >= h.size_B) continue;
      if (L.sub(i).packed || cands.size() == 255) ok = false;
      cands.push_back(i);
    }
    if (!ok || cands.size() < 2) continue;
    std::sort(cands.begin(), cands.end());
    unsigned g = 16;
    uint64_t work = 0;
    for (uint32_t i : cands) {
      g = std::min(g, gran[i]);
      work += chunks_of[i];
    }
    const uint64_t first = sg.start_B >> g, groups = ((sg.end_B - 1) >> g) - first + 1;
    // The table's key: what fixes which candidate has an element at each byte of the segment.
    std::vector<uint64_t> key{sg.end_B - sg.start_B, sg.start_B & ((uint64_t{1} << g) - 1), g};
    for (uint32_t i : cands) {
      const Locator::Impl::Direct& f = impl->direct[i];
      key.push_back(f.shape ? reinterpret_cast<uintptr_t>(f.shape) : ~uint64_t{i});
      key.push_back(sg.start_B - f.start_B);
    }
    const auto known = table_of_key.find(key);
    size_t t = 0;
    if (known != table_of_key.end()) {
      t = known->second;
    } else {
      if (groups > kTableGroups || groups_all + groups > kAllGroups || enumerated + work > kEnumerated) continue;
      groups_all += groups;
      enumerated += work;
      std::vector<uint8_t> rank(static_cast<size_t>(groups), 0);
      for (size_t r = 0; r < cands.size(); ++r) {
        const uint32_t i = cands[r];
        const SubresourceLayout& s = L.sub(i);
        const detail::SubresourceAddresser a(s, L.plan(i));
        const uint64_t step = uint64_t{1} << gran[i], per = s.element_bytes >> gran[i];
        // The row's terms once per row: this loop runs up to kEnumerated times per layout, and the
        // first locate on a layout pays for it.
        for (uint32_t z = 0; z < s.depth; ++z)
          for (uint32_t y = 0; y < s.height_el; ++y)
            for (uint32_t smp = 0; smp < samples; ++smp) {
              const detail::SubresourceAddresser::Row row = a.row(y, z, smp);
              for (uint32_t x = 0; x < s.width_el; ++x)
                for (uint64_t c = 0; c < per; ++c) {
                  // The element's bytes [off, off + step) that lie in the segment.
                  const uint64_t off = a.offset_B(row, uint64_t{x} * s.element_bytes + c * step);
                  const uint64_t from = std::max(off, sg.start_B), to = std::min(off + step, sg.end_B);
                  for (uint64_t b = from >> g; from < to && b <= (to - 1) >> g; ++b) {
                    uint8_t& v = rank[static_cast<size_t>(b - first)];
                    if (!v) v = static_cast<uint8_t>(r + 1);
                  }
                }
            }
      }
      t = impl->owner_tables.size();
      impl->owner_tables.push_back(std::move(rank));
      table_of_key.emplace(std::move(key), t);
    }
    Locator::Impl::SharedOwner& w = impl->owner_of_segment[j];
    w.rank = impl->owner_tables[t].data();
    impl->owner_cands.push_back(std::move(cands));
    w.first_group = first;
    w.gran_log2 = g;
    w.pad_sub = sg.pad_sub;
  }
  // Candidate lists last: owner_cands no longer moves.
  for (size_t j = 0, q = 0; j < segs.size(); ++j)
    if (impl->owner_of_segment[j].rank) impl->owner_of_segment[j].cands = impl->owner_cands[q++].data();
  // Buckets wholly inside a segment with a table name it (sub = segment + 1 of a kNoHot entry):
  // the batch's tail offsets skip the span index's search.
  for (size_t b = 0; b < impl->hot_of_bucket.size(); ++b) {
    bool whole = false;
    const size_t j = impl->spans.bucket_segment(b, &whole);
    if (whole && impl->owner_of_segment[j].rank && impl->hot_of_bucket[b].shape == Locator::Impl::kNoHot)
      impl->hot_of_bucket[b].sub = static_cast<uint32_t>(j + 1);
  }
}

std::shared_ptr<const Locator::Impl> build_locator(const Layout& L,
                                                   const std::vector<std::shared_ptr<const Plan>>& plans);
}  // namespace

Status Locator::make(const Layout& layout, Locator* out) {
  if (!out) return {Code::invalid_argument, "out = null"};
  for (uint32_t i = 0; i < layout.subresource_count(); ++i)
    SWZ_TRY(detail::check_operation(layout, i, detail::Operation::Locate));
  if (!layout.locator_cache_) {
    out->impl_ = build_locator(layout, layout.sub_plans_);
    return Status::Ok();
  }
  Layout::LocatorCache& c = *layout.locator_cache_;
  std::call_once(c.once, [&] { c.impl = build_locator(layout, layout.sub_plans_); });
  out->impl_ = c.impl;
  return Status::Ok();
}

namespace {
/// Bytes from subresource i's offset to the start of its own bytes: the
/// whole-block base (docs/ARCHITECTURE.md rule 4) of its pre-swizzle origin
/// (rules 5-6), where its first row of blocks begins. AMD array slices
/// stacked in one frame share slice 0's offset and have origin Z = s: slice
/// s's bytes begin s depth pitches in. Padding bytes are reported against
/// the last subresource whose own bytes start at or before them. 0 for
/// packed subresources, and where the base does not lie inside the span.
uint64_t own_lead_B(const Layout& L, uint32_t i) {
  const SubresourceLayout& s = L.sub(i);
  if (s.packed) return 0;
  const Plan& p = L.plan(i);
  const detail::Adjusted a = detail::Frame::of(s).adjust(0, 0, 0);
  uint64_t terms[3] = {0, 0, 0}, lead = 0;
  const uint64_t blocks[3] = {a.x_B >> p.ext_log2[0], a.y >> p.ext_log2[1], a.z >> p.ext_log2[2]};
  const uint64_t strides[3] = {p.block_bytes, s.row_pitch, s.depth_pitch_B};
  for (int c = 0; c < 3; ++c)
    if (!detail::mul_ok(blocks[c], strides[c], &terms[c]) || !detail::add_ok(lead, terms[c], &lead))
      return 0;
  return lead < s.size ? lead : 0;
}

std::shared_ptr<const Locator::Impl> build_locator(const Layout& L,
                                                   const std::vector<std::shared_ptr<const Plan>>& sub_plans) {
  auto impl = std::make_shared<Locator::Impl>();
  impl->plans = sub_plans;
  impl->size_B = L.size();
  const uint32_t n = L.subresource_count();
  impl->subs.reserve(n);
  std::vector<const Plan*> plans;
  std::vector<size_t> table_of(n, SIZE_MAX);
  for (uint32_t i = 0; i < n; ++i) {
    impl->subs.emplace_back(L, i);
    if (L.sub(i).packed) continue;
    const Plan* p = &L.plan(i);
    const auto it = std::find(plans.begin(), plans.end(), p);
    table_of[i] = static_cast<size_t>(it - plans.begin());
    if (it == plans.end()) {
      plans.push_back(p);
      impl->tables.push_back(detail::inverse_tables(*p));
    }
  }
  for (uint32_t i = 0; i < n; ++i)
    if (table_of[i] != SIZE_MAX) impl->subs[i].k.inv_tab = impl->tables[table_of[i]].data();
  std::vector<detail::SpanIndex::Span> spans(n);
  for (uint32_t i = 0; i < n; ++i) {
    const detail::SubDecoder& d = impl->subs[i];
    const uint64_t lead = own_lead_B(L, i);
    // A direct subresource (no whole-block XOR terms) has no element before its own bytes: an
    // element's block base is at least the origin's (every block coordinate is), and the rest of
    // its address stays inside the block. So its span, for which subresources hold a byte, starts
    // there too: the slices of an AMD array in one frame then hold disjoint bytes (one decode per
    // offset, the bucket fast path) instead of every slice sharing slice 0's bytes.
    spans[i] = d.direct ? detail::SpanIndex::Span{d.start_B + lead, d.size_B - lead, 0}
                        : detail::SpanIndex::Span{d.start_B, d.size_B, lead};
  }
  // The search of locate_in over the same spans (sorted by start, then index).
  impl->hold.resize(n);
  for (uint32_t i = 0; i < n; ++i) impl->hold[i] = {spans[i].start_B, spans[i].size_B};
  impl->by_start.resize(n);
  for (uint32_t i = 0; i < n; ++i) impl->by_start[i] = i;
  std::stable_sort(impl->by_start.begin(), impl->by_start.end(),
                   [&](uint32_t a, uint32_t b) { return spans[a].start_B < spans[b].start_B; });
  impl->max_end.resize(n);
  impl->sorted_start.resize(n);
  for (uint32_t j = 0; j < n; ++j) impl->sorted_start[j] = spans[impl->by_start[j]].start_B;
  uint64_t m = 0;
  for (uint32_t j = 0; j < n; ++j) {
    const detail::SpanIndex::Span& h = spans[impl->by_start[j]];
    m = std::max(m, h.start_B + h.size_B);
    impl->max_end[j] = m;
  }
  impl->spans = detail::SpanIndex::build(spans, impl->size_B);
  std::map<std::array<uint64_t, 24>, size_t> shape_of;
  std::vector<size_t> which(n, SIZE_MAX);
  impl->direct.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const detail::SubDecoder& d = impl->subs[i];
    impl->direct[i].start_B = d.start_B;
    if (!d.direct) continue;
    // A Z origin that only moves whole slices of blocks (one-slice-deep blocks, no stacking, no Z
    // bit in G) is the same decode from a start that many depth pitches later: AMD array slices
    // in one frame then share their mip's shape (9 shapes instead of 2304 for 9 mips x 256
    // slices, so the shapes the random offsets read stay in cache).
    detail::DecodeShape k = d.k;
    const Plan& p = *k.plan;
    bool z_moves_slices = k.frame.pre[2] != 0 && k.frame.stack_rows == 0 && p.ext_log2[2] == 0 &&
                          k.frame.depth_pitch_B != 0 && k.frame.pre[2] < (uint64_t{1} << 32);
    for (unsigned b = 0; b < 32 && z_moves_slices; ++b) z_moves_slices = p.lin[2][b] == 0;
    uint64_t lead = 0;
    // Only up to its own start (own_lead_B): the offsets that reach this shape are at or after it.
    if (z_moves_slices && detail::mul_ok(k.frame.pre[2], k.frame.depth_pitch_B, &lead) &&
        lead <= own_lead_B(L, i)) {
      impl->direct[i].start_B = d.start_B + lead;
      k.frame.pre[2] = 0;
    }
    const auto [it, added] = shape_of.emplace(detail::shape_key(k), impl->shapes.size());
    if (added) impl->shapes.push_back(k);
    which[i] = it->second;
  }
  for (uint32_t i = 0; i < n; ++i)
    if (which[i] != SIZE_MAX) impl->direct[i].shape = &impl->shapes[which[i]];
  const detail::SpanIndex& ix = impl->spans;
  impl->hot_of_bucket.assign(ix.bucket_count(), Locator::Impl::HotBucket{});
  for (size_t b = 0; b < ix.bucket_count(); ++b) {
    bool whole = false;
    const size_t j = ix.bucket_segment(b, &whole);
    const detail::SpanIndex::Segment& s = ix.segments()[j];
    if (!whole || s.kind != detail::SpanIndex::kOne || s.pad_sub != s.sub || which[s.sub] == SIZE_MAX) continue;
    impl->hot_of_bucket[b] = {impl->direct[s.sub].start_B, static_cast<uint32_t>(which[s.sub]), s.sub};
  }
  uint64_t element_bytes = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (!L.sub(i).packed) element_bytes += packed_subresource_bytes(L.sub(i)) * L.desc().samples;
  impl->sparse = element_bytes < impl->size_B - impl->size_B / 8;
  build_owner_tables(L, impl.get());  // after hot_of_bucket, which it marks
  return impl;
}
}  // namespace

namespace {
// Locator::Impl's query; the caller checked offset < size. Returns the
// subresource whose span holds the offset when it is the only one, else null.
// Several subresources may share bytes (mips packed into one tail block); the batch asks here
// only for shared segments without an owner table (Impl::owner_of_segment):
// every subresource whose span (Impl::hold) holds the offset is tried, in index order, and
// the first that has an element there (or is packed) answers. A padding byte
// is reported against pad_sub (the span index's answer: the last subresource
// whose own bytes start at or before it).
const detail::SubDecoder* locate_in(const Locator::Impl& m, uint64_t offset, uint32_t pad_sub, Location* out) {
  // Subresources starting at or before the offset: by_start[0..hi).
  const size_t hi = static_cast<size_t>(std::upper_bound(m.sorted_start.begin(), m.sorted_start.end(), offset) -
                                        m.sorted_start.begin());
  Location pad;
  pad.padding = true;
  pad.subresource = pad_sub;
  *out = pad;
  if (hi == 0) return nullptr;
  // Those whose span holds the offset, tried in index order (usually one;
  // past eight, all subresources are scanned in index order).
  uint32_t cand[8];
  size_t nc = 0;
  for (size_t j = hi; j-- > 0 && m.max_end[j] > offset;) {
    const detail::SpanIndex::Span& d = m.hold[m.by_start[j]];
    if (offset - d.start_B >= d.size_B) continue;
    if (nc == 8) {
      for (const detail::SubDecoder& e : m.subs)
        if (e.start_B <= offset && offset - e.start_B < e.size_B) {
          Location hit;
          e.decode_or_pad(offset - e.start_B, &hit);
          if (!hit.padding) {
            *out = hit;
            break;
          }
        }
      return nullptr;
    }
    cand[nc++] = m.by_start[j];
  }
  for (size_t k = 1; k < nc; ++k)  // index order (insertion sort of at most 8)
    for (size_t j = k; j > 0 && cand[j - 1] > cand[j]; --j) std::swap(cand[j - 1], cand[j]);
  for (size_t k = 0; k < nc; ++k) {
    Location hit;
    m.subs[cand[k]].decode_or_pad(offset - m.subs[cand[k]].start_B, &hit);
    if (!hit.padding) {
      *out = hit;
      break;
    }
  }
  return nc == 1 ? &m.subs[cand[0]] : nullptr;
}
}  // namespace

Status Locator::locate(uint64_t offset, Location* out) const { return locate(&offset, 1, out); }

Status locate(const Layout& layout, uint64_t offset, Location* out) {
  if (!out) return {Code::invalid_argument, "out = null"};
  Locator l;
  SWZ_TRY(Locator::make(layout, &l));
  return l.locate(offset, out);
}

namespace {
// An offset in a shared segment with an owner table: one decode, or padding against the segment's
// pad_sub.
inline void locate_owned(const Locator::Impl& m, const Locator::Impl::SharedOwner& w, uint64_t o, Location* out) {
  const uint8_t r = w.rank[static_cast<size_t>((o >> w.gran_log2) - w.first_group)];
  if (r == 0) {
    Location pad;
    pad.padding = true;
    pad.subresource = w.pad_sub;
    *out = pad;
    return;
  }
  const uint32_t c = w.cands[r - 1];
  const Locator::Impl::Direct& f = m.direct[c];
  const uint64_t rel = o - f.start_B;
  const bool hit =
      f.shape ? detail::decode_at(*f.shape, c, rel, rel, out) : m.subs[c].decode(o - m.subs[c].start_B, out);
  if (!hit) locate_in(m, o, w.pad_sub, out);  // not reached when the table is right
}

// One offset inside the resource, through the span index: padding, one
// subresource to decode (the usual case, inlined), or several sharing the
// byte (locate_in decides).
[[gnu::always_inline]] inline void locate_one(const Locator::Impl& m, const detail::SpanIndex::Segment& seg, uint64_t o,
                                              Location* out) {
  if (seg.kind == detail::SpanIndex::kOne) {
    const Locator::Impl::Direct& f = m.direct[seg.sub];
    if (f.shape && seg.pad_sub == seg.sub) {
      detail::decode_write(*f.shape, seg.sub, o - f.start_B, out);
    } else {
      const detail::SubDecoder& d = m.subs[seg.sub];
      d.decode_or_pad(o - d.start_B, out);
      if (out->padding) out->subresource = seg.pad_sub;
    }
  } else if (seg.kind == detail::SpanIndex::kGap) {
    Location pad;
    pad.padding = true;
    pad.subresource = seg.pad_sub;
    *out = pad;
  } else {
    const Locator::Impl::SharedOwner& w = m.owner_of_segment[static_cast<size_t>(&seg - m.spans.segments().data())];
    if (w.rank)
      locate_owned(m, w, o, out);
    else
      locate_in(m, o, seg.pad_sub, out);
  }
}

// locate_one for the offsets that the bucket table does not answer, kept out
// of the hot loop.
[[gnu::noinline]] void locate_cold(const Locator::Impl& m, uint64_t o, uint32_t owned_segment, Location* out) {
  if (owned_segment)  // a bucket wholly inside a segment with an owner table
    locate_owned(m, m.owner_of_segment[owned_segment - 1], o, out);
  else
    locate_one(m, m.spans.find(o), o, out);
}

// Locator's batch over offsets that are all inside the resource, in chunks
// of kChunk. A chunk whose offsets all lie in one segment held by one
// subresource (and reported against it when padding) starts a run: it and
// the offsets after it that stay in the segment are decoded with the
// subresource's shape in registers (sequential sweeps). In any other chunk
// each offset goes through the bucket table: a bucket wholly inside one
// subresource gives its start and shared shape (one decode), any other
// bucket the span index (locate_cold). After a chunk that is not a run, the
// run test waits 1, 2, 4 ... 64 chunks, so random offsets over many
// subresources pay it rarely and have no per-offset run test to mispredict.

template <bool kSparse>
void locate_batch_as(const Locator::Impl& m, const uint64_t* offsets, uint64_t n, Location* out) {
  constexpr uint64_t kChunk = 16;
  const unsigned shift = m.spans.shift();
  const Locator::Impl::HotBucket* const hot_of_bucket = m.hot_of_bucket.data();
  const detail::DecodeShape* const shapes = m.shapes.data();
  uint64_t skip = 0, backoff = 0;  // chunks to go before the next run test; the next wait
  for (uint64_t i = 0; i < n;) {
    const uint64_t e = std::min(n, i + kChunk);
    if (skip == 0) {
      uint64_t lo = offsets[i], hi = lo;
      for (uint64_t j = i + 1; j < e; ++j) {
        lo = std::min(lo, offsets[j]);
        hi = std::max(hi, offsets[j]);
      }
      const detail::SpanIndex::Segment& first = m.spans.find(lo);
      if (first.kind == detail::SpanIndex::kOne && first.pad_sub == first.sub && hi < first.end_B) {
        uint64_t j = e;
        while (j < n && offsets[j] - first.start_B < first.end_B - first.start_B) ++j;
        m.subs[first.sub].decode_run(offsets + i, static_cast<size_t>(j - i), out + i);
        i = j;
        backoff = 0;
        continue;
      }
      // Not a run: test again after 1, 2, 4, ... 64 chunks.
      backoff = std::min<uint64_t>(backoff ? 2 * backoff : 1, 64);
      skip = backoff;
    } else {
      --skip;
    }
    // The chunk's bucket entries first: independent loads that overlap,
    // instead of each waiting behind the previous offset's decode.
    Locator::Impl::HotBucket t[kChunk];
    const uint64_t c = e - i;
    for (uint64_t j = 0; j < c; ++j) t[j] = hot_of_bucket[static_cast<size_t>(offsets[i + j] >> shift)];
    for (uint64_t j = 0; j < c; ++j) {
      const uint64_t o = offsets[i + j];
      if (t[j].shape == Locator::Impl::kNoHot) {
        locate_cold(m, o, t[j].sub, &out[i + j]);
        continue;
      }
      detail::decode_write<kSparse>(shapes[t[j].shape], t[j].sub, o - t[j].start_B, &out[i + j]);
    }
    i = e;
  }
}
void locate_batch(const Locator::Impl& m, const uint64_t* offsets, uint64_t n, Location* out) {
  if (m.sparse)
    locate_batch_as<true>(m, offsets, n, out);
  else
    locate_batch_as<false>(m, offsets, n, out);
}
}  // namespace

namespace {
// The first of offsets[b, e) at or past size_B, or e. The scan for one
// (the usual answer: none) has no early exit and no 64-bit compare (SSE2 has
// none), so it vectorises: o >= size_B exactly when o has its top bit set or
// size_B - 1 - o borrows (for sizes below 2^63; a larger size only makes
// the exact scan run).
uint64_t first_outside(const uint64_t* offsets, uint64_t b, uint64_t e, uint64_t size_B) {
  uint64_t past = 0;
  const uint64_t last = size_B - 1;
  for (uint64_t i = b; i < e; ++i) past |= offsets[i] | (last - offsets[i]);
  if (!(past >> 63)) return e;
  while (b < e && offsets[b] < size_B) ++b;
  return b;
}
}  // namespace

Status Locator::locate(const uint64_t* offsets, uint64_t n, Location* out) const {
  if (n && (!offsets || !out)) return {Code::invalid_argument, "locate: offsets and out must not be null"};
  if (!impl_) return {Code::invalid_argument, "the Locator was not made (use Locator::make)"};
  const Impl& m = *impl_;
  // Offsets are checked against the size block by block as they are located (no pass over the
  // whole batch first), in blocks of kBlock offsets: the block's offsets are still in cache when
  // they are located.
  constexpr uint64_t kBlock = uint64_t{1} << 13;
  // Large batches are split over threads: one per 2^16 offsets (about 1 ms of work on one core, against
  // tens of microseconds to start a thread), at most one per core. The threads take blocks from a shared
  // counter, so one that the system delays (a machine shared with other work) leaves its blocks to the
  // others instead of holding up the call.
  constexpr uint64_t kPerThread = uint64_t{1} << 16;
  const uint64_t parts = std::clamp<uint64_t>(n / kPerThread, 1, detail::hardware_threads());
  // One part runs on the calling thread (run_parts starts no thread for it).
  std::atomic<uint64_t> next{0}, first_bad{n};
  detail::run_parts(static_cast<size_t>(parts), [&](size_t) {
    for (;;) {
      const uint64_t b = next.fetch_add(kBlock, std::memory_order_relaxed);
      // Blocks after an offset past the end need not be located (the call fails); every block
      // before the first such offset is, since first_bad never drops below it.
      if (b >= n || b >= first_bad.load(std::memory_order_relaxed)) return;
      const uint64_t e = std::min(n, b + kBlock), g = first_outside(offsets, b, e, m.size_B);
      locate_batch(m, offsets + b, g - b, out + b);
      if (g < e) {
        uint64_t cur = first_bad.load(std::memory_order_relaxed);
        while (g < cur && !first_bad.compare_exchange_weak(cur, g, std::memory_order_relaxed)) {
        }
      }
    }
  });
  const uint64_t good = first_bad.load();  // offsets[0..good) are inside the resource
  if (good == n) return Status::Ok();
  Status st = offset_past_end(m.size_B, offsets[good]);
  return n > 1 ? Status(st.code(), st.message() + " (at index " + std::to_string(good) + ")") : st;
}

}  // namespace swz
