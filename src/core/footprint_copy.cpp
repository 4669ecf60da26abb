// Placed-footprint copies (CopyTextureRegion with a
// D3D12_PLACED_SUBRESOURCE_FOOTPRINT on one side): the footprint rules live
// here (docs/ARCHITECTURE.md "Where each rule lives"); the texture side is checked
// by detail::resolve_region and the bytes move through write_to_subresource /
// read_from_subresource, so the address rule stays in core/addresser.hpp.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/checked_math.hpp"
#include "core/request.hpp"
#include "core/kernel.hpp"
#include "swz/footprint.hpp"

namespace swz {
namespace {
using detail::add_ok;
using detail::ceil_div;
using detail::mul_ok;

std::string u(uint64_t v) { return std::to_string(v); }

/// A footprint's geometry in elements, after its own field checks.
struct FootprintGeom {
  uint64_t eb = 0;                                     // element bytes
  uint32_t bw = 1, bh = 1;                             // block shape, texels
  uint64_t wel = 0, hel = 0, depth = 0;                // elements, elements, slices
  uint64_t row_pitch = 0, slice_pitch = 0, bytes = 0;  // bytes; bytes from offset_B to the end of the last row
};

Status check_footprint(const PlacedFootprint& f, FootprintGeom* g) {
  const FormatInfo& fm = f.format;
  if (fm.element_bytes == 0)
    return {Code::invalid_argument, std::string("footprint.format = ") + fm.name + " has no element size"};
  if (f.offset_B % kTextureDataPlacementAlignment_B)
    return {Code::invalid_argument, "footprint.offset_B = " + u(f.offset_B) +
                                        " is not a multiple of D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT (512)"};
  if (f.row_pitch_B % kTextureDataPitchAlignment_B || f.row_pitch_B == 0)
    return {Code::invalid_argument, "footprint.row_pitch_B = " + u(f.row_pitch_B) +
                                        " is not a non-zero multiple of D3D12_TEXTURE_DATA_PITCH_ALIGNMENT (256)"};
  if (f.width == 0 || f.height == 0 || f.depth == 0)
    return {Code::invalid_argument, "footprint.width/height/depth = " + u(f.width) + "/" + u(f.height) + "/" +
                                        u(f.depth) + ": every size must be at least 1"};
  g->bw = fm.block_width;
  g->bh = fm.block_height;
  if (f.width % g->bw || f.height % g->bh)
    return {Code::invalid_argument, "footprint.width/height = " + u(f.width) + "/" + u(f.height) +
                                        " must be multiples of the " + u(g->bw) + "x" + u(g->bh) + " block of " +
                                        fm.name};
  g->eb = fm.element_bytes;
  g->wel = f.width / g->bw;
  g->hel = f.height / g->bh;
  g->depth = f.depth;
  g->row_pitch = f.row_pitch_B;
  const uint64_t row = g->wel * g->eb;  // < 2^32 * 16: no overflow
  if (f.row_pitch_B < row)
    return {Code::invalid_argument, "footprint.row_pitch_B = " + u(f.row_pitch_B) + " is smaller than a row of " +
                                        u(g->wel) + " " + fm.name + " elements (" + u(row) + " bytes)"};
  uint64_t t;
  if (!mul_ok(g->row_pitch, g->hel, &g->slice_pitch) || !mul_ok(g->slice_pitch, g->depth - 1, &t) ||
      !add_ok(t, (g->hel - 1) * g->row_pitch, &t) || !add_ok(t, row, &g->bytes))
    return {Code::overflow, "footprint size does not fit in 64 bits"};
  return Status::Ok();
}

/// The footprint's format must be the subresource's (plane's) format family
/// with the same element size and block shape.
Status check_format(const Layout& layout, uint32_t sub, const FormatInfo& ff) {
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(sub, &s));
  const FormatInfo& rf = layout.desc().format;
  const char* want = rf.name;
  if (rf.planes > 1) {
    PlaneInfo pi;
    SWZ_TRY(plane_info(rf, s.plane, &pi));
    want = pi.format_name;
  }
  FormatInfo wf;
  SWZ_TRY(find_format(want, &wf));
  const bool same_family = ff.dxgi == wf.dxgi || format_facts(ff).cast_family == format_facts(wf).cast_family;
  if (!same_family || ff.element_bytes != s.element_bytes || ff.block_width != rf.block_width ||
      ff.block_height != rf.block_height)
    return {Code::invalid_argument,
            std::string("footprint.format = ") + ff.name + " does not match subresource " + u(sub) +
                (rf.planes > 1 ? " (plane " + u(s.plane) + " of " + rf.name + ")" : std::string()) +
                ", whose format is " + want};
  return Status::Ok();
}

/// One region, fully checked: the texture-side texel box, where the
/// footprint-side element box starts, and its extent in elements.
struct Planned {
  Box tex_box{};                    // texels of the subresource
  uint64_t fx = 0, fy = 0, fz = 0;  // footprint origin, elements / slices
  uint64_t tx = 0, ty = 0, tz = 0;  // subresource origin, elements / slices
  uint64_t w = 0, h = 0, d = 0;     // extent, elements / slices
  bool empty = false;
};

Status plan_region(const Layout& layout, uint32_t sub, const PlacedFootprint& fp, const FootprintGeom& g,
                   FootprintCopyDirection dir, const FootprintRegion& r, Planned* out) {
  const SubresourceLayout& s = layout.sub(sub);
  const uint32_t bw = g.bw, bh = g.bh;
  Planned p;
  if (dir == FootprintCopyDirection::BufferToTexture) {
    // Source: a box of the footprint (texels, block edges, inside it).
    Box b{0, 0, 0, fp.width, fp.height, fp.depth};
    if (!r.whole_source) b = r.src_box;
    if (b.right <= b.left || b.bottom <= b.top || b.back <= b.front) {
      out->empty = true;
      return Status::Ok();
    }
    if (b.right > fp.width || b.bottom > fp.height || b.back > fp.depth)
      return {Code::out_of_range, "src_box (" + u(b.left) + "," + u(b.top) + "," + u(b.front) + ")-(" + u(b.right) +
                                      "," + u(b.bottom) + "," + u(b.back) + ") lies outside the " + u(fp.width) + "x" +
                                      u(fp.height) + "x" + u(fp.depth) + " footprint"};
    if (b.left % bw || b.top % bh || b.right % bw || b.bottom % bh)
      return {Code::invalid_argument, "src_box (" + u(b.left) + "," + u(b.top) + ")-(" + u(b.right) + "," +
                                          u(b.bottom) + ") of the footprint must lie on the " + u(bw) + "x" + u(bh) +
                                          " blocks of " + fp.format.name};
    p.fx = b.left / bw;
    p.fy = b.top / bh;
    p.fz = b.front;
    p.w = (b.right - b.left) / bw;
    p.h = (b.bottom - b.top) / bh;
    p.d = b.back - b.front;
    // Destination: (dst_x, dst_y, dst_z) of the subresource, in whole elements.
    if (r.dst_x % bw || r.dst_y % bh)
      return {Code::invalid_argument, "dst_x/dst_y = " + u(r.dst_x) + "/" + u(r.dst_y) + " must be multiples of the " +
                                          u(bw) + "x" + u(bh) + " block of " + fp.format.name};
    const uint64_t dx = r.dst_x / bw, dy = r.dst_y / bh;
    if (dx + p.w > s.width_el || dy + p.h > s.height_el || uint64_t{r.dst_z} + p.d > s.depth)
      return {Code::out_of_range, "the region at (" + u(r.dst_x) + "," + u(r.dst_y) + "," + u(r.dst_z) + ") of " +
                                      u(p.w * bw) + "x" + u(p.h * bh) + "x" + u(p.d) +
                                      " texels does not fit in subresource " + u(sub) + " (" + u(s.width) + "x" +
                                      u(s.height) + "x" + u(s.depth) + " texels)"};
    p.tx = dx;
    p.ty = dy;
    p.tz = r.dst_z;
    // The texel box; a BC region that covers the last block ends at the logical edge.
    p.tex_box = Box{r.dst_x,
                    r.dst_y,
                    r.dst_z,
                    static_cast<uint32_t>(std::min<uint64_t>((dx + p.w) * bw, s.width)),
                    static_cast<uint32_t>(std::min<uint64_t>((dy + p.h) * bh, s.height)),
                    static_cast<uint32_t>(r.dst_z + p.d)};
  } else {
    // Source: a box of the subresource (D3D's rules, to_element_box).
    ElementBox e;
    Status st = to_element_box(layout, sub, r.whole_source ? nullptr : &r.src_box, &e);
    if (!st.ok()) return {st.code(), "src_box: " + st.message()};
    if (e.empty) {
      out->empty = true;
      return Status::Ok();
    }
    if (r.dst_x % bw || r.dst_y % bh)
      return {Code::invalid_argument, "dst_x/dst_y = " + u(r.dst_x) + "/" + u(r.dst_y) + " must be multiples of the " +
                                          u(bw) + "x" + u(bh) + " block of " + fp.format.name};
    const Box tex = r.whole_source ? Box{0, 0, 0, s.width, s.height, s.depth} : r.src_box;
    const uint64_t fx = r.dst_x / bw, fy = r.dst_y / bh;
    // (Planned's members in order: texel box, footprint origin, subresource origin, extent)
    p = Planned{tex, fx, fy, r.dst_z, e.x_el, e.y_el, e.z, e.width_el, e.height_el, e.depth};
    if (p.fx + p.w > g.wel || p.fy + p.h > g.hel || p.fz + p.d > g.depth)
      return {Code::out_of_range, "the region at (" + u(r.dst_x) + "," + u(r.dst_y) + "," + u(r.dst_z) + ") of " +
                                      u(p.w * bw) + "x" + u(p.h * bh) + "x" + u(p.d) + " texels does not fit in the " +
                                      u(fp.width) + "x" + u(fp.height) + "x" + u(fp.depth) + " footprint"};
  }
  *out = p;
  return Status::Ok();
}

}  // namespace

Status placed_footprint(const Footprint& f, PlacedFootprint* out) {
  PlacedFootprint p;
  Status st = find_format(f.format_name, &p.format);
  if (!st.ok()) return {Code::internal, "footprint format " + std::string(f.format_name) + ": " + st.message()};
  p.offset_B = f.offset;
  p.width = f.width;
  p.height = f.height;
  p.depth = f.depth;
  p.row_pitch_B = f.row_pitch;
  *out = p;
  return Status::Ok();
}

Status footprint_bytes(const PlacedFootprint& f, uint64_t* out_B) {
  FootprintGeom g;
  SWZ_TRY(check_footprint(f, &g));
  *out_B = g.bytes;
  return Status::Ok();
}

Status copy_placed_footprint(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource,
                             void* buffer, uint64_t buffer_size, const PlacedFootprint& footprint,
                             FootprintCopyDirection direction, const FootprintRegion* regions, size_t count,
                             const CopyOptions& options) {
  if (direction != FootprintCopyDirection::BufferToTexture && direction != FootprintCopyDirection::TextureToBuffer)
    return {Code::invalid_argument, "direction = " + u(static_cast<uint64_t>(direction)) + " (no such direction)"};
  if (count && !regions) return {Code::invalid_argument, "regions = null with count = " + u(count)};
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(subresource, &s));
  FootprintGeom g;
  SWZ_TRY(check_footprint(footprint, &g));
  SWZ_TRY(check_format(layout, subresource, footprint.format));
  uint64_t fp_end;
  if (!add_ok(footprint.offset_B, g.bytes, &fp_end)) return {Code::overflow, "footprint end does not fit in 64 bits"};
  if (fp_end > buffer_size)
    return {Code::buffer_too_small, "buffer is " + u(buffer_size) + " bytes; the footprint at offset_B " +
                                        u(footprint.offset_B) + " spans " + u(g.bytes) + " bytes, to byte " +
                                        u(fp_end)};

  const FootprintRegion whole{};
  const size_t n = count ? count : 1;
  const FootprintRegion* list = count ? regions : &whole;
  std::vector<Planned> plan(n);
  std::vector<detail::ElementSpan> dst_boxes;
  const bool to_texture = direction == FootprintCopyDirection::BufferToTexture;
  for (size_t i = 0; i < n; ++i) {
    const std::string at = count ? "region " + u(i) + ": " : std::string();
    Planned& p = plan[i];
    Status st = plan_region(layout, subresource, footprint, g, direction, list[i], &p);
    if (!st.ok()) return {st.code(), at + st.message()};
    if (p.empty) continue;
    // The texture side, checked exactly as the copy will check it (packed
    // mips, MSAA, resource size, ...); the linear side is inside the footprint.
    detail::Resolved res;
    const uint64_t at_B = footprint.offset_B + p.fz * g.slice_pitch + p.fy * g.row_pitch + p.fx * g.eb;
    st = detail::resolve_region(layout, resource_size, subresource, &p.tex_box, buffer_size - at_B, g.row_pitch,
                                g.slice_pitch, "footprint", &res);
    if (!st.ok()) return {st.code(), at + st.message()};
    // The destination boxes, for the overlap rule: the subresource's or the footprint's.
    dst_boxes.push_back(to_texture ? detail::ElementSpan{0, p.tx, p.ty, p.tz, p.tx + p.w, p.ty + p.h, p.tz + p.d, i, true}
                                   : detail::ElementSpan{0, p.fx, p.fy, p.fz, p.fx + p.w, p.fy + p.h, p.fz + p.d, i, true});
  }
  size_t wa, wb;
  if (detail::find_span_overlap(dst_boxes, &wa, &wb))
    return {Code::invalid_argument, "regions " + u(std::min(dst_boxes[wa].entry, dst_boxes[wb].entry)) + " and " +
                                        u(std::max(dst_boxes[wa].entry, dst_boxes[wb].entry)) +
                                        " overlap in the destination " + (to_texture ? "subresource" : "footprint")};
  if (!resource) return {Code::invalid_argument, "resource = null"};
  if (!buffer) return {Code::invalid_argument, "buffer = null"};
  // The overlap rule applies to the bytes the call moves: when every region
  // is empty nothing is read or written (empty ranges never overlap, as in
  // write_to_subresource with an empty box).
  if (!dst_boxes.empty()) {
    const detail::MemoryRange fp(static_cast<const uint8_t*>(buffer) + footprint.offset_B, g.bytes,
                                 "the footprint's bytes in the buffer");
    const detail::MemoryRange sub(static_cast<const uint8_t*>(resource) + s.offset, s.size, "subresource",
                                  subresource, " of the resource");
    SWZ_TRY(to_texture ? detail::check_memory_disjoint(fp, sub) : detail::check_memory_disjoint(sub, fp));
  }

  for (size_t i = 0; i < n; ++i) {
    const Planned& p = plan[i];
    if (p.empty) continue;
    const uint64_t at_B = footprint.offset_B + p.fz * g.slice_pitch + p.fy * g.row_pitch + p.fx * g.eb;
    uint8_t* lin = static_cast<uint8_t*>(buffer) + at_B;
    const uint64_t lin_size = buffer_size - at_B;
    Status st = to_texture ? write_to_subresource(layout, resource, resource_size, subresource, &p.tex_box, lin,
                                                  lin_size, g.row_pitch, g.slice_pitch, options)
                           : read_from_subresource(lin, lin_size, g.row_pitch, g.slice_pitch, layout, resource,
                                                   resource_size, subresource, &p.tex_box, options);
    // Checked above with the same arguments: a failure here is a bug, and
    // earlier regions may have been written.
    if (!st.ok()) return {Code::internal, "region " + u(i) + " failed after its check: " + st.message()};
  }
  return Status::Ok();
}

}  // namespace swz
