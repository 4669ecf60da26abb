// Adreno a6xx/a7xx (freedreno) whole-resource placement: which levels are
// tiled, the pitch of every level, level and layer sizes, 3D slice sizes.
//
// The rules are freedreno's, read from Mesa's public source and written here
// in our own words and code:
//   src/freedreno/fdl/fd6_layout.c       fdl6_layout_image, fdl6_tile_alignment
//   src/freedreno/fdl/freedreno_layout.h fdl_pitch, fdl_set_pitchalign,
//                                        fdl_level_linear, FDL_MIN_UBWC_WIDTH
//   src/freedreno/fdl/fd6_tiled_memcpy.cc the tiled address (the patterns of
//                                        patterns/vendor/other.json) and the
//                                        bank swizzle (get_bank_mask)
// Checked against freedreno's own vectors, src/freedreno/fdl/fd6_layout_test.c
// (tests/hw/test_hw_adreno.cpp). UBWC (compressed) layouts and MSAA are not
// modelled.
#include <algorithm>

#include "core/json_strict.hpp"
#include "hw/hw_internal.hpp"

namespace swz::vendor {
namespace {

// Row-major "tile": one row of 64 bytes (linear levels; every linear pitch
// freedreno picks is a multiple of 64 bytes).
Pattern linear_pattern() {
  Pattern p;
  for (unsigned i = 0; i < 6; ++i) p.interleave[i] = BitEntry::make(Channel::X, i);
  return p;
}

// u_minify: the level-l extent of a level-0 extent, at least 1.
uint64_t minify(uint64_t v, uint32_t l) { return std::max<uint64_t>(1, v >> l); }

// fd6_tiled_memcpy.cc get_bank_mask / get_bank_shift: macrotile-row
// bits XORed into the bank bits when the level's stride is aligned
// enough (twice as much for 1-byte elements). row_bit0: the Y bit of the
// first macrotile row bit (the pattern's height in bits).
Pattern with_bank_swizzle(Pattern pat, uint64_t pitch, uint64_t macrotile_w_B, uint64_t cpp, uint64_t hbb,
                          uint64_t levels, unsigned row_bit0) {
  const uint64_t mt_stride = pitch / macrotile_w_B;
  const unsigned off = cpp == 1 ? 1 : 0;
  uint32_t mask = 0;
  if ((levels & 0x2) && (mt_stride & ((uint64_t{1} << (hbb - 12 + off)) - 1)) == 0) mask |= 1;
  if ((levels & 0x4) && (mt_stride & ((uint64_t{1} << (hbb - 11 + off)) - 1)) == 0) mask |= 2;
  if ((levels & 0x1) && (mt_stride & ((uint64_t{1} << (hbb - 10 + off)) - 1)) == 0) mask |= 4;
  for (unsigned b = 0; b < 3; ++b)
    if (mask & (1u << b))
      pat.postamble[0][hbb - 1 + b] = BitEntry::make(Channel::Y, row_bit0 + b);  // macrotile row bit b
  return pat;
}

// fdl6_layout_image with an fdl_explicit_layout: pitch0 is the given pitch
// `p` (from stride= macrotiles or pitch= bytes), which must hold level 0's
// row and be a multiple of the pitch alignment (which an explicit linear
// layout relaxes); every level's pitch follows from it.
Status explicit_pitch(const std::string& fam, uint64_t p, bool has_stride, uint64_t stride, bool image_tiled,
                      uint64_t cpp, uint64_t nblocksx0, unsigned* align_log2_io, uint64_t* pitch0) {
  unsigned& align_log2 = *align_log2_io;
  const unsigned cpp_shift = log2u(cpp);
  const std::string what =
      has_stride ? "stride = " + std::to_string(stride) + " macrotiles (" + std::to_string(p) + " bytes)"
                 : "pitch = " + std::to_string(p) + " bytes";
  if (!image_tiled && cpp <= 4)
    align_log2 = 6;
  else if (!image_tiled)
    align_log2 = cpp_shift - 2 + 6;
  if (p < nblocksx0 * cpp)
    return {Code::invalid_argument, "layout '" + fam + "': " + what + " is less than level 0's row (" +
                                        std::to_string(nblocksx0 * cpp) + " bytes)"};
  if (p % (uint64_t{1} << align_log2))
    return {Code::invalid_argument, "layout '" + fam + "': " + what + " is not a multiple of " +
                                        std::to_string(uint64_t{1} << align_log2) +
                                        " bytes (freedreno's pitch alignment for " + std::to_string(cpp) +
                                        "-byte elements, " + (image_tiled ? "tiled" : "linear") + ")"};
  *pitch0 = p;
  return Status::Ok();
}

}  // namespace

Status build_adreno(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  const std::string fam = f.name;
  std::string mode = c.params.str("mode", "4ch");
  if (mode == "4" || mode == "4channel") mode = "4ch";
  if (mode == "8" || mode == "8channel") mode = "8ch";
  if (mode != "4ch" && mode != "8ch")
    return {Code::invalid_argument, "layout '" + fam + "': mode = " + detail::quoted_for_message(mode, 64, '\'') +
                                        " (macrotile mode: 4ch or 8ch)"};
  if (desc.samples > 1)
    return {Code::unsupported,
            "layout '" + fam + "': samples = " + std::to_string(desc.samples) + ": MSAA surfaces are not modelled"};
  const DataPattern* dp = nullptr;
  // 3D textures use the 2D tile per slice (fd6_layout.c: a 3D level is depth
  // layers of the 2D layout, size0 bytes apart).
  SWZ_TRY(select_pattern_for(f, desc.format.element_bytes, Dimension::Texture2D, 1,
                             desc.format.block_compressed() ? 1 : 0, "", mode, &dp));
  uint64_t hbb = 0, levels = 6, stride = 0, pitch_given = 0;
  bool has_hbb, has_levels, has_stride, has_pitch;
  SWZ_TRY(c.params.u64("hbb", &hbb, &has_hbb));
  SWZ_TRY(c.params.u64("bank_levels", &levels, &has_levels));
  SWZ_TRY(c.params.u64("stride", &stride, &has_stride));
  SWZ_TRY(c.params.u64("pitch", &pitch_given, &has_pitch));
  SWZ_TRY(check_param_range(fam, "stride", stride));
  SWZ_TRY(check_param_range(fam, "pitch", pitch_given));
  if (has_hbb && (hbb < 13 || hbb > 16))
    return {Code::invalid_argument,
            "layout '" + fam + "': hbb = " + std::to_string(hbb) + " (highest bank bit, 13..16)"};
  if (has_levels && (levels > 7 || !has_hbb))
    return {Code::invalid_argument, "layout '" + fam + "': bank_levels = " + std::to_string(levels) +
                                        " (a mask of swizzle levels 1..3 = 0x1/0x2/0x4, with hbb=)"};
  if (has_stride && has_pitch)
    return {Code::invalid_argument, "layout '" + fam + "': give stride= (macrotiles) or pitch= (bytes), not both"};

  const uint64_t cpp = desc.format.element_bytes;
  const unsigned cpp_shift = log2u(cpp);
  const auto e = extents_log2(dp->pattern);
  const uint64_t tile_rows = uint64_t{1} << e[1];
  // Macrotile = 2 blocks of the pattern wide (fd6_tiled_memcpy.cc: 2K
  // macrotiles in pairs, 4K aligned), one block tall.
  const uint64_t macrotile_w_B = (uint64_t{1} << e[0]) * 2;

  // fdl6_layout_image: depth/stencil formats are always tiled ("Linear D/S is
  // not supported by HW": tile_all); otherwise an image narrower than
  // FDL_MIN_UBWC_WIDTH (16 px) is linear altogether, and in a tiled image
  // every level narrower than 16 px is linear (fdl_level_linear).
  // `linear` asks for freedreno's TILE6_LINEAR layout of the whole image.
  const bool force_linear = c.params.flag("linear");
  const bool tile_all = desc.format.depth_stencil && !force_linear;
  const bool image_tiled = !force_linear && (tile_all || desc.width >= 16);
  // Pitch alignment (log2 bytes), fdl6_tile_alignment + fdl_set_pitchalign
  // (pitchalign + 6): tiled: 128 B for 1-byte elements, 256 B for 2- and
  // 4-byte, 512 B for 8-byte, 1024 B for 16-byte. (freedreno gives non-mutable
  // R8G8 128 B and 32-row alignment; it does not tile those images without
  // UBWC, so swz lays R8G8 out as a mutable 2-byte format.) Height alignment:
  // 32 rows for 1-byte elements, else 16. Linear images: 64 x cpp bytes
  // (pitchalign = cpp_shift when the layout is not explicit); with an explicit
  // pitch freedreno accepts 64 B up to 4-byte elements, 16 x cpp above
  // (cpp_shift - 2).
  unsigned align_log2;
  if (image_tiled)
    align_log2 = (cpp == 1 ? 1u : cpp == 2 ? 2u : cpp_shift) + 6;
  else
    align_log2 = cpp_shift + 6;
  const uint64_t height_align = cpp == 1 ? 32 : 16;
  const uint64_t nblocksx0 = level_dims(desc, 0).w_el;
  uint64_t pitch0 = align_up(nblocksx0 * cpp, uint64_t{1} << align_log2);
  if (has_stride || has_pitch)
    SWZ_TRY(explicit_pitch(fam, has_stride ? stride * macrotile_w_B : pitch_given, has_stride, stride, image_tiled, cpp,
                           nblocksx0, &align_log2, &pitch0));
  auto level_pitch = [&](uint32_t l) { return align_up(minify(pitch0, l), uint64_t{1} << align_log2); };  // fdl_pitch

  FamilyPlan plan;
  plan.arrays = Arrays::Stacked;
  auto slot_for = [&](const Pattern& p) {
    for (size_t i = 0; i < plan.patterns.size(); ++i)
      if (plan.patterns[i] == p) return static_cast<int>(i);
    plan.patterns.push_back(p);
    return static_cast<int>(plan.patterns.size() - 1);
  };
  const bool is_3d = desc.dimension == Dimension::Texture3D;
  uint64_t size = 0, min_3d_layer = 0, size0_level0 = 0;
  for (uint32_t m = 0; m < desc.mip_levels; ++m) {
    const LevelDims L = level_dims(desc, m);
    const bool tiled = image_tiled && (tile_all || minify(desc.width, m) >= 16);
    const uint64_t pitch = level_pitch(m);
    if (pitch < uint64_t{L.w_el} * cpp)
      return {Code::internal, "layout '" + fam + "': level " + std::to_string(m) + " pitch " + std::to_string(pitch) +
                                  " is narrower than its row"};
    if (tiled && pitch % macrotile_w_B)
      return {Code::internal, "layout '" + fam + "': level " + std::to_string(m) + " pitch " + std::to_string(pitch) +
                                  " is not whole macrotiles"};
    // Rows: tiled levels align to the tile height; the last level to 4 rows
    // (over-fetch of the 16x4 blits, fdl6_layout_image).
    uint64_t nblocksy = L.h_el;
    if (tiled) nblocksy = align_up(nblocksy, height_align);
    if (m + 1 == desc.mip_levels) nblocksy = align_up(nblocksy, 4);
    // Bytes between the layers of a level (size0). 2D: the level's rows.
    // 3D (fdl6_layout_image): level 0 page aligned; later levels a quarter of
    // level 0 per level until the pitch stops halving, the rows no longer fit
    // or the size stops being page aligned; from then on every level keeps
    // that minimum layer size (TEX_CONST_3_MIN_LAYERSZ).
    uint64_t size0;
    if (!is_3d) {
      size0 = nblocksy * pitch;
    } else if (m == 0) {
      size0 = size0_level0 = align_up(nblocksy * pitch, 4096);
    } else if (min_3d_layer) {
      size0 = min_3d_layer;
    } else {
      size0 = minify(size0_level0, 2 * m);
      if (pitch != level_pitch(m - 1) / 2) size0 = min_3d_layer = nblocksy * pitch;
      if (size0 < nblocksy * pitch) size0 = min_3d_layer = nblocksy * pitch;
      if (size0 % 4096) size0 = min_3d_layer = align_up(size0, 4096);
    }
    LevelPlan lp;
    if (tiled) {
      Pattern pat = dp->pattern;
      if (has_hbb) pat = with_bank_swizzle(pat, pitch, macrotile_w_B, cpp, hbb, levels, e[1]);
      lp.slot = slot_for(pat);
      lp.row_pitch = pitch * tile_rows;  // a row of macrotiles
    } else {
      lp.slot = slot_for(linear_pattern());
      lp.row_pitch = pitch;
    }
    lp.depth_pitch_B = size0;
    lp.offset = size;
    lp.size = size0 * L.d;
    size += lp.size;
    plan.levels.push_back(lp);
  }
  // 2D and cube arrays are layer-first: each layer holds every level, and
  // layers are page aligned (layer_size = align(size, 4096)). 3D textures have
  // one layer.
  plan.layer_align = 4096;
  plan.layer_stride_B = is_3d ? size : align_up(size, 4096);
  plan.total_size = plan.layer_stride_B * desc.array_size;
  plan.notes.push_back(std::string(image_tiled ? "tiled" : "linear (narrower than 16 px)") + ", level 0 pitch " +
                       std::to_string(pitch0) + " bytes");
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace swz::vendor
