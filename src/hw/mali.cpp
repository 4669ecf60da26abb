// Arm Mali u-interleaved (Panfrost, no AFBC) whole-resource placement: levels,
// array layers, 3D slices and the optional CRC (transaction elimination)
// buffers.
//
// The rules are Panfrost's, read from Mesa's public source and written here
// in our own words and code:
//   src/panfrost/lib/pan_layout.c  pan_image_layout_init (the per-level loop:
//                                  effective size, row stride, surface stride,
//                                  64-byte level alignment, array stride,
//                                  4 KiB data size), panfrost_compute_checksum_size,
//                                  panfrost_u_interleaved_tile_size, pan_slice_align
// Checked against Panfrost's layout tests (src/panfrost/lib/tests/test-layout.cpp,
// tests/hw/test_hw_mali.cpp). The address inside a tile is the family's bit
// equation (pan_tiling.c, patterns/vendor/other.json).
#include <algorithm>

#include "hw/hw_internal.hpp"

namespace swz::vendor {

Status build_mali(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  const std::string fam = f.name;
  if (desc.samples > 1)
    return {Code::unsupported, "layout '" + fam + "': samples = " + std::to_string(desc.samples) +
                                   ": MSAA (samples as surfaces) is not modelled"};
  const DataPattern* dp = nullptr;
  // 3D textures are stacks of 2D tiled surfaces (pan_image_layout_init:
  // slice_full_size = surface stride x depth).
  SWZ_TRY(select_pattern_for(f, desc.format.element_bytes, Dimension::Texture2D, 1,
                             desc.format.block_compressed() ? 1 : 0, "", "", &dp));
  uint64_t pitch_el = 0;
  bool has_pitch;
  SWZ_TRY(c.params.u64("pitch", &pitch_el, &has_pitch));
  SWZ_TRY(check_param_range(fam, "pitch", pitch_el));
  const bool crc = c.params.flag("crc");
  const Pattern& pat = dp->pattern;
  const auto e = extents_log2(pat);
  const uint64_t bpb = desc.format.element_bytes;
  // panfrost_u_interleaved_tile_size: 16x16 texels, 4x4 blocks for
  // block-compressed formats (the pattern's extents).
  const uint64_t tw = (uint64_t{1} << e[0]) / bpb, th = uint64_t{1} << e[1];
  const bool is_3d = desc.dimension == Dimension::Texture3D;
  FamilyPlan plan;
  plan.patterns.push_back(pat);
  plan.arrays = Arrays::Stacked;
  uint64_t offset = 0;
  for (uint32_t m = 0; m < desc.mip_levels; ++m) {
    const LevelDims L = level_dims(desc, m);
    // Effective size: the level in blocks, padded to whole tiles.
    uint64_t ew = align_up(L.w_el, tw);
    const uint64_t eh = align_up(L.h_el, th);
    if (m == 0 && has_pitch) {
      if (pitch_el < L.w_el || pitch_el % tw)
        return {Code::invalid_argument, "layout '" + fam + "': pitch = " + std::to_string(pitch_el) +
                                            " elements (at least the width " + std::to_string(L.w_el) +
                                            " and a multiple of the " + std::to_string(tw) + "-element tile)"};
      ew = pitch_el;
    }
    // Levels start on 64 bytes (pan_slice_align); the row stride is a row of
    // tiles; the surface stride (bytes between 3D slices) is the level's
    // padded rows.
    offset = align_up(offset, 64);
    LevelPlan lp;
    lp.row_pitch = bpb * ew * th;
    lp.depth_pitch_B = lp.row_pitch * (eh / th);
    lp.offset = offset;
    lp.size = lp.depth_pitch_B * L.d;
    offset += lp.size;
    if (crc) {
      // panfrost_compute_checksum_size: 8 bytes per 16x16-texel tile, the
      // level's texel size rounded up to 32x32 regions; right after the level.
      const uint64_t tiles_x = 2 * ceil_div(L.w, 32), tiles_y = 2 * ceil_div(L.h, 32);
      offset += tiles_x * 8 * tiles_y;
    }
    plan.levels.push_back(lp);
  }
  // Arrays and cube maps repeat the whole chain, 64-byte aligned; the data
  // size is rounded to 4 KiB.
  plan.layer_align = 64;
  plan.layer_stride_B = align_up(offset, 64);
  plan.total_size = align_up(plan.layer_stride_B * desc.array_size, 4096);
  if (is_3d) plan.notes.push_back("3D: slices one surface stride apart");
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace swz::vendor
