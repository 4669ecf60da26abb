// element_offset and locate: single-element queries over a Layout.
#include <algorithm>
#include <bit>

#include "core/addresser.hpp"
#include "core/kernel.hpp"
#include "swz/address.hpp"
#include "core/plan.hpp"

namespace swz {

Status element_offset(const Layout& layout, uint32_t subresource, uint32_t x, uint32_t y, uint32_t z, uint32_t sample,
                      uint64_t* out) {
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(subresource, &s));
  if (s.packed)
    return {Code::unsupported, "subresource " + std::to_string(subresource) + " is in the packed mip tail, whose layout is adapter-specific"};
  if (x >= s.width_el) return {Code::out_of_range, "x = " + std::to_string(x) + " (subresource " + std::to_string(subresource) + " is " + std::to_string(s.width_el) + " elements wide)"};
  if (y >= s.height_el) return {Code::out_of_range, "y = " + std::to_string(y) + " (subresource " + std::to_string(subresource) + " is " + std::to_string(s.height_el) + " elements high)"};
  if (z >= s.depth) return {Code::out_of_range, "z = " + std::to_string(z) + " (subresource " + std::to_string(subresource) + " has depth " + std::to_string(s.depth) + ")"};
  if (sample >= layout.desc().samples) return {Code::out_of_range, "sample = " + std::to_string(sample) + " (the texture has " + std::to_string(layout.desc().samples) + " samples)"};
  const detail::SubresourceAddresser a(s, layout.plan(subresource));
  *out = a.offset_B(uint64_t{x} * s.element_bytes, y, z, sample);
  return Status::Ok();
}

Status AddressMap::make(const Layout& layout, uint32_t subresource, AddressMap* out, uint64_t expected_queries,
                        Method method) {
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(subresource, &s));
  if (s.packed)
    return {Code::unsupported, "subresource " + std::to_string(subresource) + " is in the packed mip tail, whose layout is adapter-specific"};
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
    for (uint64_t i = 0; i < m.limit_[3]; ++i) m.ts_[i] = {0, plan.g(3, static_cast<uint32_t>(i)) ^ uint64_t{plan.immediate}};
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
  return {Code::out_of_range, std::string(names[c]) + " = " + std::to_string(value) + where + " is out of range: subresource " +
                                  std::to_string(subresource) + " is " + std::to_string(limit[c]) + " " + what[c]};
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

namespace {

// Decodes `rel` (bytes from the subresource offset) into element coordinates
// of subresource i, or returns false when no element of i lives there.
// The span of subresource i's high (whole-block) G contributions, as a
// basis: decode tries each combination. Only coordinate bits that can be set
// inside this subresource matter.
std::vector<uint32_t> high_basis(const Layout& layout, uint32_t i) {
  const SubresourceLayout& s = layout.sub(i);
  const Plan& p = layout.plan(i);
  const uint64_t ymax = s.pre_swizzle[1] + (s.stack_depth ? (s.depth - 1) * s.depth_pitch : 0) + s.height_el - 1;
  const uint64_t cmax[4] = {s.pre_swizzle[0] + uint64_t{s.width_el} * s.element_bytes - 1, ymax,
                            s.stack_depth ? 0 : s.pre_swizzle[2] + s.depth - 1, layout.desc().samples - 1u};
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
  std::vector<uint32_t> basis;
  for (uint32_t v : by_top)
    if (v) basis.push_back(v);
  return basis;
}

// Decodes `rel` (bytes from the subresource offset) into element coordinates
// of subresource i, or returns false when no element of i lives there.
bool decode(const Layout& layout, uint32_t i, uint64_t rel, const std::vector<uint32_t>& basis, Location* loc) {
  const SubresourceLayout& s = layout.sub(i);
  const Plan& p = layout.plan(i);
  const unsigned nb = p.block_bits;
  const uint64_t BB = p.block_bytes;
  const uint64_t dp = s.stack_depth ? 0 : s.depth_pitch;
  const size_t combos = size_t{1} << basis.size();
  for (size_t k = 0; k < combos; ++k) {
    uint32_t h = 0;
    for (size_t j = 0; j < basis.size(); ++j)
      if (k & (size_t{1} << j)) h ^= basis[j];
    const uint64_t a = rel ^ h;
    const uint64_t in = a & (BB - 1);
    uint64_t rest = a - in;
    uint64_t bz = 0;
    if (dp) {
      bz = rest / dp;
      rest %= dp;
    }
    const uint64_t by = rest / s.row_pitch;
    rest %= s.row_pitch;
    const uint64_t bx = rest / BB;
    uint64_t c[4] = {bx << p.ext_log2[0], by << p.ext_log2[1], bz << p.ext_log2[2], 0};
    uint32_t g_hi = p.immediate;
    for (int ch = 0; ch < 3; ++ch) g_hi ^= p.g(ch, static_cast<uint32_t>(c[ch]));
    const uint32_t u = static_cast<uint32_t>(in) ^ (g_hi & static_cast<uint32_t>(BB - 1));
    for (unsigned b = 0; b < nb; ++b)
      if (u & (1u << b))
        for (int ch = 0; ch < 4; ++ch) c[ch] ^= p.inverse[b][ch];
    if (p.offset(c[0], c[1], c[2], c[3], s.row_pitch, dp) != rel) continue;
    if (c[0] < s.pre_swizzle[0] || c[1] < s.pre_swizzle[1] || c[2] < s.pre_swizzle[2]) continue;
    const uint64_t xb = c[0] - s.pre_swizzle[0];
    uint64_t yy = c[1] - s.pre_swizzle[1], zz = c[2] - s.pre_swizzle[2];
    if (s.stack_depth) {
      zz = yy / s.depth_pitch;
      yy %= s.depth_pitch;
    }
    const uint64_t x = xb / s.element_bytes;
    if (x >= s.width_el || yy >= s.height_el || zz >= s.depth || c[3] >= layout.desc().samples) continue;
    loc->padding = false;
    loc->subresource = s.index;
    loc->x = static_cast<uint32_t>(x);
    loc->y = static_cast<uint32_t>(yy);
    loc->z = static_cast<uint32_t>(zz);
    loc->sample = static_cast<uint32_t>(c[3]);
    loc->byte = static_cast<uint32_t>(xb % s.element_bytes);
    return true;
  }
  return false;
}

}  // namespace

namespace {
// locate over `layout`; basis_of(i) gives subresource i's high basis.
template <class BasisOf>
Status locate_with(const Layout& layout, uint64_t offset, Location* out, BasisOf&& basis_of) {
  if (!out) return {Code::invalid_argument, "out = null"};
  if (offset >= layout.size())
    return {Code::out_of_range, "offset = " + std::to_string(offset) + " is at or past the end of the resource (" +
                                    std::to_string(layout.size()) + " bytes)"};
  // Several subresources may share bytes (mips packed into one tail block):
  // try every subresource whose span holds the offset. A padding byte is
  // reported against the last subresource starting at or before it.
  Location loc;
  loc.padding = true;
  uint64_t best_start = 0;
  bool any = false;
  for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
    const SubresourceLayout& s = layout.sub(i);
    if (s.offset > offset) continue;
    if (!any || s.offset >= best_start) {
      best_start = s.offset;
      loc.subresource = s.index;
      any = true;
    }
    if (offset - s.offset < s.size && s.packed) {
      Location hit;
      hit.packed = true;
      hit.subresource = s.index;
      *out = hit;
      return Status::Ok();
    }
    if (offset - s.offset < s.size) {
      Location hit;
      if (decode(layout, i, offset - s.offset, basis_of(i), &hit)) {
        *out = hit;
        return Status::Ok();
      }
    }
  }
  *out = loc;
  return Status::Ok();
}
}  // namespace

Status locate(const Layout& layout, uint64_t offset, Location* out) {
  return locate_with(layout, offset, out, [&](uint32_t i) { return high_basis(layout, i); });
}

Status Locator::make(const Layout& layout, Locator* out) {
  if (!out) return {Code::invalid_argument, "out = null"};
  Locator l;
  l.layout_ = layout;
  l.bases_.resize(layout.subresource_count());
  for (uint32_t i = 0; i < layout.subresource_count(); ++i)
    if (!layout.sub(i).packed) l.bases_[i] = high_basis(layout, i);
  *out = std::move(l);
  return Status::Ok();
}

Status Locator::locate(uint64_t offset, Location* out) const {
  return locate_with(layout_, offset, out, [&](uint32_t i) -> const std::vector<uint32_t>& { return bases_[i]; });
}

}  // namespace swz
