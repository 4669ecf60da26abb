// element_offset and AddressMap: single-element address queries over a Layout
// (the inverse, locate and Locator, is core/locator_build.cpp and core/locate.cpp).
#include <algorithm>

#include "core/addresser.hpp"
#include "swz/address.hpp"
#include "core/plan.hpp"
#include "core/request.hpp"

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

}  // namespace swz
