// copy_regions and copy_tiles: element runs walked with the two plans.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/kernel.hpp"
#include "core/request.hpp"
#include "swz/copy.hpp"
#include "core/plan.hpp"
#include "core/checked_math.hpp"

namespace swz {
namespace {
using swz::detail::ceil_div;

// Address of byte xb (bytes, relative to the subresource, before pre-swizzle)
// of row (y, z), and how many following bytes are contiguous with it.
struct Walker {
  Walker(const SubresourceLayout* sub, const Plan* plan) : a(*sub, *plan), p(plan) {}
  detail::SubresourceAddresser a;  // built once per region, not per run
  const Plan* p;
  uint64_t addr(uint64_t xb, uint64_t y, uint64_t z, uint64_t* contiguous, uint64_t row_end) const {
    const uint64_t off = a.offset_B(xb, y, z, 0);
    const uint64_t x = xb + a.frame().pre[0];
    if (p->row_linear) {
      *contiguous = row_end - xb;
    } else {
      const uint64_t run = uint64_t{1} << p->run_log2;
      *contiguous = std::min(row_end - xb, run - (x & (run - 1)));
    }
    return off;
  }
};

struct Checked {
  uint32_t sx, sy, sz, w, h, d;  // source box origin and size, elements
  uint32_t dx, dy, dz;           // destination origin, elements
};

// Errors are prefixed "region N: " by the caller (built only on a refusal).
Status check_region(const Layout& dl, const Layout& sl, const RegionCopy& r, Checked* out) {
  Status st = detail::check_operation(sl, r.src_subresource, detail::Operation::RegionCopy, "source");
  if (!st.ok()) return st;
  st = detail::check_operation(dl, r.dst_subresource, detail::Operation::RegionCopy, "destination");
  if (!st.ok()) return st;
  const SubresourceLayout& ss = sl.sub(r.src_subresource);
  const SubresourceLayout& ds = dl.sub(r.dst_subresource);
  const FormatInfo& sf = sl.desc().format;
  const FormatInfo& df = dl.desc().format;
  if (ss.element_bytes != ds.element_bytes || sf.block_width != df.block_width || sf.block_height != df.block_height)
    return {Code::invalid_argument,
            std::string("formats ") + sf.name + " and " + df.name + " differ in element size or block shape"};
  ElementBox e;
  st = to_element_box(sl, r.src_subresource, r.whole_source ? nullptr : &r.src_box, &e);
  if (!st.ok()) return {st.code(), "source " + st.message()};
  if (e.empty) {
    *out = Checked{0, 0, 0, 0, 0, 0, 0, 0, 0};
    return Status::Ok();
  }
  const uint32_t bw = sf.block_width, bh = sf.block_height;
  if (r.dst_x % bw || r.dst_y % bh)
    return {Code::invalid_argument, "dst_x/dst_y = " + std::to_string(r.dst_x) + "/" + std::to_string(r.dst_y) +
                                        " must be multiples of the " + std::to_string(bw) + "x" + std::to_string(bh) +
                                        " block of " + sf.name};
  const Checked c{e.x_el, e.y_el, e.z, e.width_el, e.height_el, e.depth, r.dst_x / bw, r.dst_y / bh, r.dst_z};
  if (uint64_t{c.dx} + c.w > ds.width_el || uint64_t{c.dy} + c.h > ds.height_el || uint64_t{c.dz} + c.d > ds.depth)
    return {Code::out_of_range, "the region at (" + std::to_string(r.dst_x) + "," + std::to_string(r.dst_y) + "," +
                                    std::to_string(r.dst_z) + ") does not fit in destination subresource " +
                                    std::to_string(r.dst_subresource)};
  *out = c;
  return Status::Ok();
}

// The overlap rule for a batch of regions. Destination boxes never overlap
// each other. When the two buffers share memory: one buffer seen through one
// placement compares boxes of the same subresource (D3D12's rule for
// CopyTextureRegion within one subresource); any other aliasing compares the
// subresources' spans in memory.
Status check_region_overlap(const Layout& dl, const void* dst, uint64_t dst_size, const Layout& sl, const void* src,
                            uint64_t src_size, const RegionCopy* regions, const std::vector<Checked>& chk) {
  std::vector<detail::ElementSpan> spans;
  const bool aliased = detail::memory_overlaps(dst, dst_size, src, src_size);
  const bool one_buffer = aliased && dst == src && detail::same_placement(dl, sl);
  std::vector<detail::MemoryRange> reads, writes;
  for (size_t i = 0; i < chk.size(); ++i) {
    const Checked& c = chk[i];
    if (!c.w) continue;
    const RegionCopy& r = regions[i];
    spans.push_back({r.dst_subresource, c.dx, c.dy, c.dz, uint64_t{c.dx} + c.w, uint64_t{c.dy} + c.h,
                     uint64_t{c.dz} + c.d, i, true});
    if (one_buffer)
      spans.push_back({r.src_subresource, c.sx, c.sy, c.sz, uint64_t{c.sx} + c.w, uint64_t{c.sy} + c.h,
                       uint64_t{c.sz} + c.d, i, false});
    else if (aliased) {
      const SubresourceLayout& ds = dl.sub(r.dst_subresource);
      const SubresourceLayout& ss = sl.sub(r.src_subresource);
      writes.emplace_back(static_cast<const uint8_t*>(dst) + ds.offset, ds.size, "destination subresource",
                          r.dst_subresource);
      reads.emplace_back(static_cast<const uint8_t*>(src) + ss.offset, ss.size, "source subresource",
                         r.src_subresource);
    }
  }
  if (aliased && !one_buffer) SWZ_TRY(detail::check_memory_disjoint(reads, writes, true));
  size_t a, b;
  if (!detail::find_span_overlap(spans, &a, &b)) return Status::Ok();
  const detail::ElementSpan &w = spans[a], &o = spans[b];
  if (o.write)
    return {Code::invalid_argument, "regions " + std::to_string(std::min(w.entry, o.entry)) + " and " +
                                        std::to_string(std::max(w.entry, o.entry)) +
                                        " overlap in destination subresource " + std::to_string(w.subresource)};
  if (w.entry == o.entry)
    return {Code::invalid_argument,
            "region " + std::to_string(w.entry) + ": source and destination overlap in the same subresource"};
  return {Code::invalid_argument, "region " + std::to_string(w.entry) + " writes elements of subresource " +
                                      std::to_string(w.subresource) + " that region " + std::to_string(o.entry) +
                                      " reads (source and destination regions overlap in one buffer)"};
}

}  // namespace

Status copy_regions(const Layout& dl, void* dst, uint64_t dst_size, const Layout& sl, const void* src,
                    uint64_t src_size, const RegionCopy* regions, size_t count) {
  if (count && !regions) return {Code::invalid_argument, "regions = null with count = " + std::to_string(count)};
  std::vector<Checked> chk(count);
  for (size_t i = 0; i < count; ++i) {
    if (Status st = check_region(dl, sl, regions[i], &chk[i]); !st.ok())
      return {st.code(), "region " + std::to_string(i) + ": " + st.message()};
    const SubresourceLayout& ds = dl.sub(regions[i].dst_subresource);
    const SubresourceLayout& ss = sl.sub(regions[i].src_subresource);
    if (ds.offset + ds.size > dst_size)
      return {Code::buffer_too_small, "region " + std::to_string(i) + ": destination buffer is " +
                                          std::to_string(dst_size) + " bytes; subresource " +
                                          std::to_string(regions[i].dst_subresource) + " ends at byte " +
                                          std::to_string(ds.offset + ds.size)};
    if (ss.offset + ss.size > src_size)
      return {Code::buffer_too_small, "region " + std::to_string(i) + ": source buffer is " + std::to_string(src_size) +
                                          " bytes; subresource " + std::to_string(regions[i].src_subresource) +
                                          " ends at byte " + std::to_string(ss.offset + ss.size)};
  }
  if (!dst || !src) return {Code::invalid_argument, dst ? "source = null" : "destination = null"};
  SWZ_TRY(check_region_overlap(dl, dst, dst_size, sl, src, src_size, regions, chk));
  auto* out = static_cast<uint8_t*>(dst);
  const auto* in = static_cast<const uint8_t*>(src);
  for (size_t i = 0; i < count; ++i) {
    const Checked& c = chk[i];
    if (!c.w) continue;
    const SubresourceLayout& ds = dl.sub(regions[i].dst_subresource);
    const SubresourceLayout& ss = sl.sub(regions[i].src_subresource);
    Walker wd(&ds, &dl.plan(regions[i].dst_subresource));
    Walker ws(&ss, &sl.plan(regions[i].src_subresource));
    const uint64_t eb = ss.element_bytes;
    for (uint32_t z = 0; z < c.d; ++z)
      for (uint32_t y = 0; y < c.h; ++y) {
        const uint64_t s_end = (uint64_t{c.sx} + c.w) * eb, d_end = (uint64_t{c.dx} + c.w) * eb;
        uint64_t sx = uint64_t{c.sx} * eb, dx = uint64_t{c.dx} * eb;
        while (sx < s_end) {
          uint64_t ns, nd;
          const uint64_t so = ws.addr(sx, c.sy + y, c.sz + z, &ns, s_end);
          const uint64_t dof = wd.addr(dx, c.dy + y, c.dz + z, &nd, d_end);
          const uint64_t n = std::min(ns, nd);
          std::memmove(out + dof, in + so, n);
          sx += n;
          dx += n;
        }
      }
  }
  return Status::Ok();
}

Status copy_tiles(const Layout& layout, void* resource, uint64_t resource_size, const TileCoordinate& start,
                  const TileRegionSize& size, void* buffer, uint64_t buffer_size, uint64_t buffer_offset,
                  TileCopyDirection direction) {
  SWZ_TRY(detail::check_operation(layout, start.subresource, detail::Operation::TileCopy));
  const SubresourceLayout& s = layout.sub(start.subresource);
  const Plan& p = layout.plan(start.subresource);
  const uint64_t BB = p.block_bytes;
  const uint64_t ext_x = uint64_t{1} << p.ext_log2[0], ext_y = uint64_t{1} << p.ext_log2[1],
                 ext_z = uint64_t{1} << p.ext_log2[2];
  const uint64_t eb = s.element_bytes;
  if (ext_x % eb) return {Code::unsupported, "copy_tiles: the tile is narrower than one element"};
  const uint64_t tiles_x = ceil_div(uint64_t{s.width_el} * eb, ext_x), tiles_y = ceil_div(s.height_el, ext_y),
                 tiles_z = ceil_div(s.depth, ext_z);
  // The tiles, counted and checked before anything is allocated or touched:
  // a hostile num_tiles must not make a list of billions of entries.
  // Tile k of the region is computed from k in the loop.
  const uint64_t total = tiles_x * tiles_y * tiles_z;
  if (start.x >= tiles_x || start.y >= tiles_y || start.z >= tiles_z)
    return {Code::out_of_range, "tile coordinate (" + std::to_string(start.x) + "," + std::to_string(start.y) + "," +
                                    std::to_string(start.z) + ") is outside the " + std::to_string(tiles_x) + "x" +
                                    std::to_string(tiles_y) + "x" + std::to_string(tiles_z) +
                                    " tile grid of subresource " + std::to_string(start.subresource)};
  const uint64_t first = (uint64_t{start.z} * tiles_y + start.y) * tiles_x + start.x;
  if (size.use_box) {
    if (uint64_t{size.width} * size.height * size.depth != size.num_tiles)
      return {Code::invalid_argument, "tile region: num_tiles = " + std::to_string(size.num_tiles) +
                                          " but the box holds " +
                                          std::to_string(uint64_t{size.width} * size.height * size.depth)};
    if (start.x + uint64_t{size.width} > tiles_x || start.y + uint64_t{size.height} > tiles_y ||
        start.z + uint64_t{size.depth} > tiles_z)
      return {Code::out_of_range, "tile region box leaves the subresource's tile grid"};
  } else {
    if (first + size.num_tiles > total)
      return {Code::out_of_range, "tile region: " + std::to_string(size.num_tiles) + " tiles from tile " +
                                      std::to_string(first) + " run past the subresource's " + std::to_string(total) +
                                      " tiles"};
  }
  const uint64_t count = size.num_tiles;
  uint64_t need;
  uint64_t tiles_B = 0;
  if (!detail::mul_ok(count, BB, &tiles_B) || !detail::add_ok(tiles_B, buffer_offset, &need))
    return {Code::overflow, "tile region size does not fit in 64 bits"};
  if (buffer_size < need)
    return {Code::buffer_too_small, "buffer is " + std::to_string(buffer_size) + " bytes; " + std::to_string(count) +
                                        " tiles from offset " + std::to_string(buffer_offset) + " need " +
                                        std::to_string(need)};
  if (resource_size < s.offset + s.size)
    return {Code::buffer_too_small, "resource buffer is " + std::to_string(resource_size) + " bytes; subresource " +
                                        std::to_string(start.subresource) + " ends at byte " +
                                        std::to_string(s.offset + s.size)};
  if (!resource || !buffer) return {Code::invalid_argument, resource ? "buffer = null" : "resource = null"};
  auto* res = static_cast<uint8_t*>(resource);
  auto* buf = static_cast<uint8_t*>(buffer) + buffer_offset;
  {
    const detail::MemoryRange tiles(buf, tiles_B, "the tiles in the buffer");
    const detail::MemoryRange sub(res + s.offset, s.size, "subresource", start.subresource, " of the resource");
    SWZ_TRY(direction == TileCopyDirection::LinearBufferToSwizzled ? detail::check_memory_disjoint(tiles, sub)
                                                                   : detail::check_memory_disjoint(sub, tiles));
  }
  const uint64_t run = p.row_linear ? ext_x : (uint64_t{1} << p.run_log2);
  const uint64_t dp = s.depth_pitch_B;
  for (uint64_t k = 0; k < count; ++k) {
    // Linear tile index: a run from `first`, or box order (x, then y, then z).
    const uint64_t t = !size.use_box ? first + k
                                     : ((start.z + k / (uint64_t{size.width} * size.height)) * tiles_y + start.y +
                                        (k / size.width) % size.height) *
                                               tiles_x +
                                           start.x + k % size.width;
    const uint64_t tx = t % tiles_x, ty = (t / tiles_x) % tiles_y, tz = t / (tiles_x * tiles_y);
    uint8_t* lin = buf + k * BB;
    // Linear within the tile: rows of ext_x bytes, ext_y rows, ext_z slices.
    for (uint64_t z = 0; z < ext_z; ++z)
      for (uint64_t y = 0; y < ext_y; ++y)
        for (uint64_t x = 0; x < ext_x; x += run) {
          const uint64_t off = s.offset + p.offset(tx * ext_x + x, ty * ext_y + y, tz * ext_z + z, 0, s.row_pitch, dp);
          uint8_t* l = lin + (z * ext_y + y) * ext_x + x;
          if (direction == TileCopyDirection::LinearBufferToSwizzled)
            std::memcpy(res + off, l, run);
          else
            std::memcpy(l, res + off, run);
        }
  }
  return Status::Ok();
}

}  // namespace swz
