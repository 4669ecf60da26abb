// Xbox 360 (Xenos) whole-resource placement of 2D and array textures: the
// base level, the mip chain, the packed mip tail and the array slices.
//
// The rules are Xenia's, read from its public source and written here in our
// own words and code:
//   src/xenia/gpu/texture_util.cc  GetGuestTextureLayout (strides and level
//                                  offsets), GetPackedMipOffset (the tail)
//   src/xenia/gpu/texture_util.h   GetPackedMipLevel
//   src/xenia/gpu/xenos.h          32x32-block tiles, 4 KiB subresource
//                                  alignment (kTextureTileWidthHeight,
//                                  kTextureSubresourceAlignmentBytes)
// The tiled address inside a level is the family's bit equation
// (patterns/vendor/other.json, from Xenia's XeTextureTiledOffset2D); a level
// packed into the tail is the tail level's surface seen from the level's
// origin (x, y) in blocks, which is how Xenia addresses it (the tiled offset of
// (x + origin x, y + origin y) at the tail level's pitch).
#include <algorithm>

#include "hw/hw_internal.hpp"

namespace swz::vendor {
namespace {

// xe::log2_ceil: the smallest n with 2^n >= v (0 for v <= 1).
unsigned log2_ceil(uint64_t v) { return v <= 1 ? 0 : log2u(v - 1) + 1; }

// GetPackedMipLevel: the first level stored in the packed tail: the level at
// which the shorter side (rounded up to a power of two) is 16 texels.
uint32_t packed_mip_level(uint32_t w, uint32_t h) {
  const unsigned s = log2_ceil(std::min(w, h));
  return s > 4 ? s - 4 : 0;
}

// GetPackedMipOffset for a 2D texture: the texel origin of `mip` inside the
// tail tile. The first three levels of the tail sit at 16, 8, 4 texels along
// the short axis; smaller ones along the long axis at the long side of the
// tail's first level divided by 2^(k-2).
void packed_mip_origin(uint32_t w, uint32_t h, uint32_t mip, uint64_t* x_texels, uint64_t* y_texels) {
  const unsigned lw = log2_ceil(w), lh = log2_ceil(h);
  const unsigned ls = std::min(lw, lh);
  const uint32_t base = ls > 4 ? ls - 4 : 0;
  const uint32_t k = mip - base;  // level inside the tail
  *x_texels = *y_texels = 0;
  if (k < 3) {
    // Wider than tall: down the Y axis; otherwise along X.
    (lw > lh ? *y_texels : *x_texels) = uint64_t{16} >> k;
  } else {
    // Wider than tall: along X; otherwise down Y.
    const uint64_t o = (uint64_t{1} << ((lw > lh ? lw : lh) - base)) >> (k - 2);
    (lw > lh ? *x_texels : *y_texels) = o;
  }
}

}  // namespace

Status build_xbox360(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  const std::string fam = f.name;
  const DataPattern* dp = nullptr;
  SWZ_TRY(select_pattern(f, desc, "", "", &dp));  // 2D, one sample (3D tiles use another address: refused there)
  uint64_t pitch_el = 0, packed = 1, mip_offset = 0;
  bool has_pitch, has_packed, has_mip_offset;
  SWZ_TRY(c.params.u64("pitch", &pitch_el, &has_pitch));
  SWZ_TRY(c.params.u64("packed", &packed, &has_packed));
  SWZ_TRY(c.params.u64("mip_offset", &mip_offset, &has_mip_offset));
  SWZ_TRY(check_param_range(fam, "pitch", pitch_el));
  SWZ_TRY(check_param_range(fam, "mip_offset", mip_offset));
  if (packed > 1)
    return {Code::invalid_argument, "layout '" + fam + "': packed = " + std::to_string(packed) + " (0 or 1)"};
  const Pattern& pat = dp->pattern;
  const auto e = extents_log2(pat);
  const uint64_t tile = 32;  // blocks; kTextureTileWidthHeight
  const uint64_t bpb = desc.format.element_bytes;
  const uint64_t bw = desc.format.block_width, bh = desc.format.block_height;
  const uint32_t mips = desc.mip_levels;
  if ((uint64_t{1} << e[1]) != tile) return {Code::internal, "layout '" + fam + "': the pattern is not 32 rows tall"};

  // Level 0's pitch: the fetch constant's (pitch=, in elements), else the
  // width; both in 32-block units (GetGuestTextureLayout aligns every pitch
  // to the tile).
  const LevelDims L0 = level_dims(desc, 0);
  uint64_t base_pitch_el = align_up(L0.w_el, tile);
  if (has_pitch) {
    if (pitch_el < L0.w_el || pitch_el % tile)
      return {Code::invalid_argument, "layout '" + fam + "': pitch = " + std::to_string(pitch_el) +
                                          " elements (at least the width " + std::to_string(L0.w_el) +
                                          " and a multiple of 32)"};
    base_pitch_el = pitch_el;
  }
  const uint32_t packed_level = packed ? packed_mip_level(desc.width, desc.height) : UINT32_MAX;

  // One stored surface: its pitch and rows in blocks, its array-slice stride.
  struct Storage {
    uint64_t pitch_el, rows, slice_stride;
  };
  auto storage = [&](bool is_base, uint32_t level) {
    // GetGuestTextureLayout: the base level takes the fetch constant's pitch
    // and the texture's height; a mip level is sized from the power-of-two
    // rounded level-0 size shifted by the level; both padded to 32x32 blocks,
    // each array slice padded to 4 KiB.
    Storage s;
    if (is_base) {
      s.pitch_el = base_pitch_el;
      s.rows = align_up(ceil_div(desc.height, bh), tile);
    } else {
      s.pitch_el = align_up(ceil_div(std::max<uint64_t>(1, next_pow2(desc.width) >> level), bw), tile);
      s.rows = align_up(ceil_div(std::max<uint64_t>(1, next_pow2(desc.height) >> level), bh), tile);
    }
    s.slice_stride = align_up(s.pitch_el * bpb * s.rows, 4096);
    return s;
  };
  auto check_pitch = [&](uint64_t p, uint32_t m) -> Status {
    if (dp->pitch_multiple_texels && p % dp->pitch_multiple_texels)
      return {Code::unsupported, "layout '" + fam + "': with " + std::to_string(bpb) +
                                     "-byte elements the tiled address is a bit pattern only "
                                     "when the pitch is a multiple of " +
                                     std::to_string(dp->pitch_multiple_texels) + " texels (level " + std::to_string(m) +
                                     " is stored with a pitch of " + std::to_string(p) +
                                     "); other pitches add tile indices arithmetically (Xenia XeTextureTiledOffset2D)"};
    return Status::Ok();
  };

  FamilyPlan plan;
  plan.patterns.push_back(pat);
  plan.arrays = Arrays::PerLevel;
  plan.levels_are_separate = false;  // tail levels share a tile
  plan.levels.resize(mips);
  // The base level (in the base memory, at 0).
  const Storage base = storage(true, 0);
  SWZ_TRY(check_pitch(base.pitch_el, 0));
  const uint64_t base_end = base.slice_stride * desc.array_size;
  auto place = [&](uint32_t m, const Storage& s, uint64_t offset, bool in_tail) {
    LevelPlan& lp = plan.levels[m];
    lp.row_pitch = s.pitch_el * bpb * tile;  // bytes between rows of 32-row tiles
    lp.offset = offset;
    lp.layer_stride_B = s.slice_stride;
    lp.size = s.slice_stride;
    if (in_tail) {
      uint64_t x_tx, y_tx;
      packed_mip_origin(desc.width, desc.height, m, &x_tx, &y_tx);
      lp.origin[0] = x_tx / bw * bpb;  // GetPackedMipOffset returns texels, shifted to blocks
      lp.origin[1] = y_tx / bh;
    }
  };
  place(0, base, 0, packed_level == 0);
  // The mip chain (the fetch constant's mip address): levels 1.. one after the
  // other, each holding all its array slices; from the packed level on, every
  // level lives in the packed level's storage. When the base itself is packed
  // (packed level 0), the mips' tail is a surface sized like level 0.
  uint64_t chain = has_mip_offset ? mip_offset : base_end;
  if (has_mip_offset && mips > 1 && (mip_offset < base_end || mip_offset % 4096))
    return {Code::invalid_argument, "layout '" + fam + "': mip_offset = " + std::to_string(mip_offset) +
                                        " (a multiple of 4096 at or after the base level's end, " +
                                        std::to_string(base_end) + ")"};
  uint64_t off = chain;
  Storage tail{};
  uint64_t tail_offset = 0;
  bool tail_placed = false;
  for (uint32_t m = 1; m < mips; ++m) {
    if (m >= packed_level) {
      if (!tail_placed) {
        const uint32_t storage_level = packed_level == 0 ? 0 : m;
        tail = storage(false, storage_level);
        SWZ_TRY(check_pitch(tail.pitch_el, m));
        tail_offset = off;
        off += tail.slice_stride * desc.array_size;
        tail_placed = true;
      }
      place(m, tail, tail_offset, true);
      continue;
    }
    const Storage s = storage(false, m);
    SWZ_TRY(check_pitch(s.pitch_el, m));
    place(m, s, off, false);
    off += s.slice_stride * desc.array_size;
  }
  plan.total_size = std::max(base_end, mips > 1 ? off : 0);
  if (packed_level < mips) plan.notes.push_back("packed mip tail from level " + std::to_string(packed_level));
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace swz::vendor
