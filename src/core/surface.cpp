// Whole-surface copies and box sizes (swz/surface.hpp): thin loops over the
// subresource copies, with every subresource checked before the first write.
#include "swz/surface.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "core/checked_math.hpp"
#include "core/kernel.hpp"
#include "core/request.hpp"
#include "swz/copy.hpp"

namespace swz {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

using detail::add_ok;
using detail::mul_ok;

Status prefixed(uint32_t subresource, Status s) {
  if (s.ok()) return s;
  return {s.code(), "subresource " + std::to_string(subresource) + ": " + s.message()};
}

// Checks subresource i for a whole-subresource copy with tight pitches from
// `linear_offset_B` in a linear buffer of `linear_size_B` bytes.
Status check_whole(const Layout& layout, uint64_t resource_size_B, uint32_t i, uint64_t linear_offset_B,
                   uint64_t linear_size_B, BoxExtent* ext) {
  SWZ_TRY(box_extent(layout, i, nullptr, ext));
  if (linear_offset_B > linear_size_B)
    return {Code::buffer_too_small, "subresource " + std::to_string(i) + " starts at linear byte " +
                                        std::to_string(linear_offset_B) + ", past the end of the " +
                                        std::to_string(linear_size_B) + "-byte linear buffer"};
  uint64_t need = 0;
  if (!mul_ok(ext->slice_B, uint64_t{ext->depth}, &need))
    return {Code::overflow, "subresource " + std::to_string(i) + ": linear size does not fit in 64 bits"};
  if (linear_size_B - linear_offset_B < need)
    return {Code::buffer_too_small, "subresource " + std::to_string(i) + " needs linear bytes " +
                                        std::to_string(linear_offset_B) + ".." +
                                        std::to_string(linear_offset_B + need) + " (exclusive), past the end of the " +
                                        std::to_string(linear_size_B) + "-byte linear buffer"};
  detail::Resolved res;
  return prefixed(i, detail::resolve_region(layout, resource_size_B, i, nullptr, linear_size_B - linear_offset_B,
                                            ext->row_B, ext->slice_B, "linear", &res));
}

// The offsets of every subresource (given or tightly packed), each checked,
// and the tight pitches of each.
Status check_surface(const Layout& layout, uint64_t resource_size_B, uint64_t linear_size_B, const uint64_t* offsets_B,
                     std::vector<uint64_t>* offs, std::vector<BoxExtent>* exts) {
  const uint32_t n = layout.subresource_count();
  if (offsets_B) {
    offs->assign(offsets_B, offsets_B + n);
  } else {
    SWZ_TRY(surface_linear_offsets(layout, offs));
  }
  exts->resize(n);
  for (uint32_t i = 0; i < n; ++i)
    SWZ_TRY(check_whole(layout, resource_size_B, i, (*offs)[i], linear_size_B, &(*exts)[i]));
  if (offsets_B) {
    // Given offsets: no two subresources may share linear bytes.
    std::vector<std::pair<uint64_t, uint32_t>> order(n);
    for (uint32_t i = 0; i < n; ++i) order[i] = {(*offs)[i], i};
    std::sort(order.begin(), order.end());
    for (uint32_t k = 1; k < n; ++k) {
      const uint32_t a = order[k - 1].second, b = order[k].second;
      const uint64_t a_bytes = packed_subresource_bytes(layout.sub(a));
      if (a_bytes > 0 && (*offs)[a] + a_bytes > (*offs)[b] && packed_subresource_bytes(layout.sub(b)) > 0)
        return {Code::invalid_argument, "linear offsets: subresource " + std::to_string(a) + " (bytes " +
                                            std::to_string((*offs)[a]) + ".." + std::to_string((*offs)[a] + a_bytes) +
                                            ") overlaps subresource " + std::to_string(b) + " (from byte " +
                                            std::to_string((*offs)[b]) + ")"};
    }
  }
  return Status::Ok();
}

}  // namespace

Status box_extent(const Layout& layout, uint32_t subresource, const Box* box, BoxExtent* out) {
  if (!out) return {Code::invalid_argument, "out = null"};
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(subresource, &s));
  // Tight pitches for the box as given; resolve_region checks the box first,
  // so an invalid box is reported as such before these are used.
  ElementBox eb;
  SWZ_TRY(to_element_box(layout, subresource, box, &eb));
  const uint64_t w = eb.empty ? s.width_el : eb.width_el, h = eb.empty ? s.height_el : eb.height_el;
  uint64_t row = 0, slice = 0;
  if (!mul_ok(w, s.element_bytes, &row) || !mul_ok(row, h, &slice))
    return {Code::overflow, "subresource " + std::to_string(subresource) + ": box size does not fit in 64 bits"};
  detail::Resolved res;
  SWZ_TRY(detail::resolve_region(layout, kMax, subresource, box, kMax, row, slice, "linear", &res));
  *out = BoxExtent{};
  out->element_bytes = s.element_bytes;
  if (res.empty) return Status::Ok();
  out->width_el = res.r.w;
  out->height_el = res.r.h;
  out->depth = res.r.d;
  out->row_B = uint64_t{res.r.w} * s.element_bytes;
  if (!mul_ok(out->row_B, res.r.h, &out->slice_B))
    return {Code::overflow, "subresource " + std::to_string(subresource) + ": box slice size does not fit in 64 bits"};
  return Status::Ok();
}

Status box_linear_bytes(const Layout& layout, uint32_t subresource, const Box* box, uint64_t row_pitch_B,
                        uint64_t depth_pitch_B, uint64_t* out_B) {
  if (!out_B) return {Code::invalid_argument, "out_B = null"};
  BoxExtent e;
  SWZ_TRY(box_extent(layout, subresource, box, &e));
  if (e.width_el == 0) {
    *out_B = 0;
    return Status::Ok();
  }
  const uint64_t rp = row_pitch_B ? row_pitch_B : e.row_B;
  uint64_t dp = depth_pitch_B;
  // As resolve_region: a one-row box's tight slice is one row, whatever its unused row pitch.
  if (dp == 0 && !mul_ok(e.height_el > 1 ? rp : e.row_B, e.height_el, &dp)) return {Code::overflow, "linear slice size does not fit in 64 bits"};
  detail::Resolved res;
  SWZ_TRY(detail::resolve_region(layout, kMax, subresource, box, kMax, rp, dp, "linear", &res));
  *out_B = res.lin_bytes;
  return Status::Ok();
}

Status surface_linear_offsets(const Layout& layout, std::vector<uint64_t>* offsets_B) {
  if (!offsets_B) return {Code::invalid_argument, "offsets_B = null"};
  const uint32_t n = layout.subresource_count();
  std::vector<uint64_t> offs(n);
  uint64_t pos = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const SubresourceLayout& s = layout.sub(i);
    uint64_t bytes = 0;
    offs[i] = pos;
    if (!mul_ok(uint64_t{s.width_el} * s.element_bytes, uint64_t{s.height_el} * s.depth, &bytes) ||
        !add_ok(pos, bytes, &pos))
      return {Code::overflow,
              "linear size of the surface does not fit in 64 bits (at subresource " + std::to_string(i) + ")"};
  }
  *offsets_B = std::move(offs);
  return Status::Ok();
}

Status surface_linear_bytes(const Layout& layout, uint64_t* out_B) {
  if (!out_B) return {Code::invalid_argument, "out_B = null"};
  std::vector<uint64_t> offs;
  SWZ_TRY(surface_linear_offsets(layout, &offs));
  const uint32_t n = layout.subresource_count();
  if (n == 0) {
    *out_B = 0;
    return Status::Ok();
  }
  const SubresourceLayout& s = layout.sub(n - 1);
  // surface_linear_offsets checked that the end fits.
  *out_B = offs[n - 1] + uint64_t{s.width_el} * s.element_bytes * s.height_el * s.depth;
  return Status::Ok();
}

namespace {
// Both directions: every subresource checked first, then one copy each.
Status surface_copy(const Layout& layout, uint8_t* resource, uint64_t resource_size_B, uint8_t* linear,
                    uint64_t linear_size_B, const uint64_t* linear_offsets_B, const CopyOptions& options,
                    bool to_swizzled) {
  std::vector<uint64_t> offs;
  std::vector<BoxExtent> exts;
  SWZ_TRY(check_surface(layout, resource_size_B, linear_size_B, linear_offsets_B, &offs, &exts));
  if (!resource) return {Code::invalid_argument, "resource = null"};
  if (!linear) return {Code::invalid_argument, "linear = null"};
  // The overlap rule over the whole call: no subresource's linear bytes may
  // share memory with any subresource's span in the resource.
  const uint32_t n = layout.subresource_count();
  std::vector<detail::MemoryRange> lin_side(n), res_side(n);
  for (uint32_t i = 0; i < n; ++i) {
    const SubresourceLayout& s = layout.sub(i);
    lin_side[i] = {linear + offs[i], packed_subresource_bytes(s), "linear bytes of subresource", i};
    res_side[i] = {resource + s.offset, s.size, "subresource", i, " of the resource"};
  }
  SWZ_TRY(to_swizzled ? detail::check_memory_disjoint(lin_side, res_side, true)
                      : detail::check_memory_disjoint(res_side, lin_side, true));
  for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
    uint8_t* lin = linear + offs[i];
    const uint64_t lin_size = linear_size_B - offs[i];
    SWZ_TRY(prefixed(i, to_swizzled ? write_to_subresource(layout, resource, resource_size_B, i, nullptr, lin, lin_size,
                                                           exts[i].row_B, exts[i].slice_B, options)
                                    : read_from_subresource(lin, lin_size, exts[i].row_B, exts[i].slice_B, layout,
                                                            resource, resource_size_B, i, nullptr, options)));
  }
  return Status::Ok();
}
}  // namespace

Status swizzle_surface(const Layout& layout, void* resource, uint64_t resource_size_B, const void* linear,
                       uint64_t linear_size_B, const uint64_t* linear_offsets_B, const CopyOptions& options) {
  // The linear side is only read.
  return surface_copy(layout, static_cast<uint8_t*>(resource), resource_size_B,
                      const_cast<uint8_t*>(static_cast<const uint8_t*>(linear)), linear_size_B, linear_offsets_B,
                      options, true);
}

Status deswizzle_surface(const Layout& layout, void* linear, uint64_t linear_size_B, const void* resource,
                         uint64_t resource_size_B, const uint64_t* linear_offsets_B, const CopyOptions& options) {
  // The resource is only read.
  return surface_copy(layout, const_cast<uint8_t*>(static_cast<const uint8_t*>(resource)), resource_size_B,
                      static_cast<uint8_t*>(linear), linear_size_B, linear_offsets_B, options, false);
}

}  // namespace swz
