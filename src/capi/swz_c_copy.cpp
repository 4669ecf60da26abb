// The C API of the batched copy engine (include/swz/swz.h, "The batched copy
// engine"): placed-footprint copies, CopyResources, region and tile copies,
// forwarded to swz/footprint.hpp and swz/copy.hpp.
#include <string>
#include <vector>

#include "capi_internal.hpp"
#include "swz/copy.hpp"
#include "swz/footprint.hpp"
#include "swz/format.hpp"

namespace {

using swz_capi::null_arg;
using swz_capi::to_box;

}  // namespace

extern "C" {

swz_status swz_copy_placed_footprint(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                                     uint32_t subresource, void* buffer, uint64_t buffer_size_B,
                                     const swz_placed_footprint* footprint, uint32_t direction,
                                     const swz_copy_region* regions, uint32_t region_count,
                                     const swz_copy_options* options) {
  return swz_capi::run([&]() -> swz::Status {
    if (!layout) return null_arg("layout");
    if (!footprint) return null_arg("footprint");
    if (region_count && !regions)
      return {swz::Code::invalid_argument, "regions = NULL with region_count = " + std::to_string(region_count)};
    if (direction != SWZ_BUFFER_TO_TEXTURE && direction != SWZ_TEXTURE_TO_BUFFER)
      return {swz::Code::invalid_argument, "direction = " + std::to_string(direction) +
                                               " (expected SWZ_BUFFER_TO_TEXTURE or SWZ_TEXTURE_TO_BUFFER)"};
    swz::CopyOptions o;
    SWZ_TRY(swz_capi::copy_options(options, &o));
    swz::PlacedFootprint fp;
    const swz::Status s = swz_capi::find_format(footprint->format, footprint->dxgi_format, &fp.format);
    if (!s.ok()) return {s.code(), "footprint.format: " + s.message()};
    fp.offset_B = footprint->offset_B;
    fp.width = footprint->width;
    fp.height = footprint->height;
    fp.depth = footprint->depth ? footprint->depth : 1;
    fp.row_pitch_B = footprint->row_pitch_B;
    std::vector<swz::FootprintRegion> rs(region_count);
    for (uint32_t i = 0; i < region_count; ++i) {
      rs[i].dst_x = regions[i].dst_x;
      rs[i].dst_y = regions[i].dst_y;
      rs[i].dst_z = regions[i].dst_z;
      rs[i].whole_source = regions[i].src_box == nullptr;
      if (regions[i].src_box) rs[i].src_box = to_box(*regions[i].src_box);
    }
    return swz::copy_placed_footprint(layout->layout, resource, resource_size_B, subresource, buffer, buffer_size_B, fp,
                                      direction == SWZ_BUFFER_TO_TEXTURE ? swz::FootprintCopyDirection::BufferToTexture
                                                                         : swz::FootprintCopyDirection::TextureToBuffer,
                                      rs.data(), rs.size(), o);
  });
}

swz_status swz_copy_resources(const swz_layout* dst_layout, void* dst, uint64_t dst_size_B,
                              const swz_layout* src_layout, const void* src, uint64_t src_size_B) {
  return swz_capi::run([&]() -> swz::Status {
    if (!dst_layout) return null_arg("dst_layout");
    if (!src_layout) return null_arg("src_layout");
    return swz::copy_resources(dst_layout->layout, dst, dst_size_B, src_layout->layout, src, src_size_B);
  });
}

swz_status swz_copy_regions(const swz_layout* dst_layout, void* dst, uint64_t dst_size_B, const swz_layout* src_layout,
                            const void* src, uint64_t src_size_B, const swz_texture_region* regions,
                            uint32_t region_count) {
  return swz_capi::run([&]() -> swz::Status {
    if (!dst_layout) return null_arg("dst_layout");
    if (!src_layout) return null_arg("src_layout");
    if (region_count && !regions)
      return {swz::Code::invalid_argument, "regions = NULL with region_count = " + std::to_string(region_count)};
    std::vector<swz::RegionCopy> rs(region_count);
    for (uint32_t i = 0; i < region_count; ++i) {
      rs[i].dst_subresource = regions[i].dst_subresource;
      rs[i].dst_x = regions[i].dst_x;
      rs[i].dst_y = regions[i].dst_y;
      rs[i].dst_z = regions[i].dst_z;
      rs[i].src_subresource = regions[i].src_subresource;
      rs[i].whole_source = regions[i].src_box == nullptr;
      if (regions[i].src_box) rs[i].src_box = to_box(*regions[i].src_box);
    }
    return swz::copy_regions(dst_layout->layout, dst, dst_size_B, src_layout->layout, src, src_size_B, rs.data(),
                             rs.size());
  });
}

swz_status swz_copy_tiles(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                          const swz_tile_coordinate* start, const swz_tile_region_size* size, void* buffer,
                          uint64_t buffer_size_B, uint64_t buffer_offset_B, uint32_t direction) {
  return swz_capi::run([&]() -> swz::Status {
    if (!layout) return null_arg("layout");
    if (!start) return null_arg("start");
    if (!size) return null_arg("size");
    if (direction != SWZ_TILES_BUFFER_TO_RESOURCE && direction != SWZ_TILES_RESOURCE_TO_BUFFER)
      return {swz::Code::invalid_argument,
              "direction = " + std::to_string(direction) +
                  " (expected SWZ_TILES_BUFFER_TO_RESOURCE or SWZ_TILES_RESOURCE_TO_BUFFER)"};
    swz::TileCoordinate c;
    c.x = start->x;
    c.y = start->y;
    c.z = start->z;
    c.subresource = start->subresource;
    swz::TileRegionSize sz;
    sz.num_tiles = size->num_tiles;
    sz.use_box = size->use_box != 0;
    sz.width = size->width;
    sz.height = size->height;
    sz.depth = size->depth;
    return swz::copy_tiles(layout->layout, resource, resource_size_B, c, sz, buffer, buffer_size_B, buffer_offset_B,
                           direction == SWZ_TILES_BUFFER_TO_RESOURCE ? swz::TileCopyDirection::LinearBufferToSwizzled
                                                                     : swz::TileCopyDirection::SwizzledToLinearBuffer);
  });
}

}  // extern "C"
