// CopyResources: every subresource of one laid-out resource into another of
// the same description. The bytes go band by band through a small linear
// staging buffer (about 1 MiB, so that it stays in cache): each band of block
// rows (or of whole slices) is read with read_from_subresource from the source
// layout and written with write_to_subresource into the destination layout,
// so the SIMD kernels and the one address rule (core/addresser.hpp) do the
// work. The resource is never staged whole.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/kernel.hpp"
#include "core/request.hpp"
#include "core/plan.hpp"
#include "swz/footprint.hpp"

namespace swz {
namespace {

/// Bytes of linear staging per band: small enough to stay in L2.
constexpr uint64_t kBand_B = uint64_t{1} << 20;

std::string u(uint64_t v) { return std::to_string(v); }

Status differ(const char* field, const std::string& src, const std::string& dst) {
  return {Code::invalid_argument, std::string("copy_resources: ") + field + " differs: source " + src +
                                      ", destination " + dst +
                                      " (CopyResources needs two resources of the same description)"};
}

/// How subresource i is cut into bands: `slices` whole slices per band when a
/// slice fits in kBand_B, else `rows` element rows of one slice per band.
struct Banding {
  uint64_t row_B = 0, slice_B = 0;
  uint32_t slices = 0;  // > 0: bands of whole slices
  uint32_t rows = 0;    // otherwise: bands of this many element rows
  uint64_t band_B = 0;  // staging bytes one band needs
};

Banding banding(const Layout& src, const Layout& dst, uint32_t i) {
  const SubresourceLayout& s = src.sub(i);
  Banding b;
  b.row_B = uint64_t{s.width_el} * s.element_bytes;
  b.slice_B = b.row_B * s.height_el;
  if (b.slice_B <= kBand_B) {
    b.slices = static_cast<uint32_t>(std::clamp<uint64_t>(kBand_B / std::max<uint64_t>(b.slice_B, 1), 1, s.depth));
    b.band_B = b.slice_B * b.slices;
    return b;
  }
  uint64_t rows = std::max<uint64_t>(1, kBand_B / b.row_B);
  // Whole blocks of both layouts per band where that leaves a band at all.
  const uint64_t ext_y = uint64_t{1} << std::min(20u, std::max(src.plan(i).ext_log2[1], dst.plan(i).ext_log2[1]));
  if (rows >= ext_y) rows = rows / ext_y * ext_y;
  b.rows = static_cast<uint32_t>(std::min<uint64_t>(rows, s.height_el));
  b.band_B = b.row_B * b.rows;
  return b;
}

}  // namespace

Status copy_resources(const Layout& dst_layout, void* dst, uint64_t dst_size, const Layout& src_layout, const void* src,
                      uint64_t src_size) {
  const TextureDesc& s = src_layout.desc();
  const TextureDesc& d = dst_layout.desc();
  auto dim = [](Dimension x) { return std::string(x == Dimension::Texture3D ? "3D" : "2D"); };
  if (s.dimension != d.dimension) return differ("dimension", dim(s.dimension), dim(d.dimension));
  if (s.samples != d.samples) return differ("samples", u(s.samples), u(d.samples));
  if (s.format.dxgi != d.format.dxgi) return differ("format", s.format.name, d.format.name);
  if (s.width != d.width) return differ("width", u(s.width), u(d.width));
  if (s.height != d.height) return differ("height", u(s.height), u(d.height));
  if (s.depth != d.depth) return differ("depth", u(s.depth), u(d.depth));
  if (s.array_size != d.array_size) return differ("array_size", u(s.array_size), u(d.array_size));
  if (s.mip_levels != d.mip_levels) return differ("mip_levels", u(s.mip_levels), u(d.mip_levels));
  const uint32_t n = src_layout.subresource_count();
  if (dst_layout.subresource_count() != n)
    return {Code::internal, "copy_resources: the layouts of one description have " + u(n) + " and " +
                                u(dst_layout.subresource_count()) + " subresources"};
  for (uint32_t i = 0; i < n; ++i) {
    Status st = detail::check_operation(src_layout, i, detail::Operation::SubresourceCopy, "source");
    if (st.ok()) st = detail::check_operation(dst_layout, i, detail::Operation::SubresourceCopy, "destination");
    if (!st.ok()) return {st.code(), "copy_resources: " + st.message()};
  }
  if (src_size < src_layout.size())
    return {Code::buffer_too_small,
            "copy_resources: source buffer is " + u(src_size) + " bytes; its layout spans " + u(src_layout.size())};
  if (dst_size < dst_layout.size())
    return {Code::buffer_too_small, "copy_resources: destination buffer is " + u(dst_size) +
                                        " bytes; its layout spans " + u(dst_layout.size())};
  // Every subresource checked on both sides (as the band copies will check
  // their boxes) before the first byte is written.
  std::vector<Banding> bands(n);
  uint64_t stage_B = 0;
  for (uint32_t i = 0; i < n; ++i) {
    bands[i] = banding(src_layout, dst_layout, i);
    const Banding& b = bands[i];
    const uint64_t whole_B = b.slice_B * src_layout.sub(i).depth;
    detail::Resolved r;
    Status st = detail::resolve_region(src_layout, src_size, i, nullptr, whole_B, b.row_B, b.slice_B, "staging", &r);
    if (st.ok())
      st = detail::resolve_region(dst_layout, dst_size, i, nullptr, whole_B, b.row_B, b.slice_B, "staging", &r);
    if (!st.ok()) return {st.code(), "copy_resources: subresource " + u(i) + ": " + st.message()};
    stage_B = std::max(stage_B, b.band_B);
  }
  if (!dst || !src)
    return {Code::invalid_argument, dst ? "copy_resources: source = null" : "copy_resources: destination = null"};
  {
    // The overlap rule over the whole call: the resources as laid out (each
    // subresource's span), read and written.
    std::vector<detail::MemoryRange> reads(n), writes(n);
    for (uint32_t i = 0; i < n; ++i) {
      reads[i] = {static_cast<const uint8_t*>(src) + src_layout.sub(i).offset, src_layout.sub(i).size,
                  "source subresource", i};
      writes[i] = {static_cast<const uint8_t*>(dst) + dst_layout.sub(i).offset, dst_layout.sub(i).size,
                   "destination subresource", i};
    }
    Status st = detail::check_memory_disjoint(reads, writes, true);
    if (!st.ok()) return {st.code(), "copy_resources: " + st.message()};
  }

  std::unique_ptr<uint8_t[]> stage(new (std::nothrow) uint8_t[std::max<uint64_t>(stage_B, 1)]);
  if (!stage) {
    // No memory for the band: region copies straight between the layouts (slower, no staging).
    std::vector<RegionCopy> regions;
    try {
      regions.resize(n);
    } catch (...) {
      return {Code::internal, "copy_resources: out of memory"};
    }
    for (uint32_t i = 0; i < n; ++i) regions[i].dst_subresource = regions[i].src_subresource = i;
    Status st = copy_regions(dst_layout, dst, dst_size, src_layout, src, src_size, regions.data(), regions.size());
    return st.ok() ? st : Status{st.code(), "copy_resources: " + st.message()};
  }
  CopyOptions one;
  one.threads = 1;  // bands are cache-sized: threads would cost more than they save
  for (uint32_t i = 0; i < n; ++i) {
    const SubresourceLayout& sub = src_layout.sub(i);
    const Banding& b = bands[i];
    const uint32_t bh = s.format.block_height;
    auto move = [&](const Box& box) -> Status {
      SWZ_TRY(read_from_subresource(stage.get(), stage_B, b.row_B, b.slice_B, src_layout, src, src_size, i, &box, one));
      return write_to_subresource(dst_layout, dst, dst_size, i, &box, stage.get(), stage_B, b.row_B, b.slice_B, one);
    };
    Status st;
    if (b.slices) {
      for (uint32_t z = 0; z < sub.depth && st.ok(); z += b.slices)
        st = move(Box{0, 0, z, sub.width, sub.height, std::min(sub.depth, z + b.slices)});
    } else {
      for (uint32_t z = 0; z < sub.depth && st.ok(); ++z)
        for (uint64_t y = 0; y < sub.height_el && st.ok(); y += b.rows) {
          const uint64_t y_end = std::min<uint64_t>(sub.height_el, y + b.rows);
          st = move(Box{0, static_cast<uint32_t>(y * bh), z, sub.width,
                        static_cast<uint32_t>(std::min<uint64_t>(y_end * bh, sub.height)), z + 1});
        }
    }
    // Checked above: a failure here is a bug, and earlier bands were written.
    if (!st.ok())
      return {Code::internal, "copy_resources: subresource " + u(i) + " failed after its check: " + st.message()};
  }
  return Status::Ok();
}

}  // namespace swz
