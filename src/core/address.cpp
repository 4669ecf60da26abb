// element_offset and locate: single-element queries over a Layout.
#include <algorithm>
#include <bit>

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
  const Plan& p = layout.plan(subresource);
  uint64_t xb = uint64_t{x} * s.element_bytes + s.pre_swizzle[0];
  uint64_t yy = uint64_t{y} + s.pre_swizzle[1], zz = uint64_t{z} + s.pre_swizzle[2];
  if (s.stack_depth) { yy += uint64_t{z} * s.depth_pitch; zz = 0; }
  *out = s.offset + p.offset(xb, yy, zz, sample, s.row_pitch, s.stack_depth ? 0 : s.depth_pitch);
  return Status::Ok();
}

namespace {

// Decodes `rel` (bytes from the subresource offset) into element coordinates
// of subresource i, or returns false when no element of i lives there.
bool decode(const Layout& layout, uint32_t i, uint64_t rel, Location* loc) {
  const SubresourceLayout& s = layout.sub(i);
  const Plan& p = layout.plan(i);
  const unsigned nb = p.block_bits;
  const uint64_t BB = p.block_bytes;
  const uint64_t dp = s.stack_depth ? 0 : s.depth_pitch;
  // Span of the high (whole-block) G contributions: try each value.
  // Only coordinate bits that can be set inside this subresource matter.
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

Status locate(const Layout& layout, uint64_t offset, Location* out) {
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
      if (decode(layout, i, offset - s.offset, &hit)) {
        *out = hit;
        return Status::Ok();
      }
    }
  }
  *out = loc;
  return Status::Ok();
}

}  // namespace swz
