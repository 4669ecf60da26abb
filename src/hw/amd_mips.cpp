// AMD GFX10 / GFX10.3 / GFX11 mip chains of 2D thin surfaces, of 3D thick
// surfaces (standard and display modes) and of 3D thin ones (Z and R modes), as addrlib
// places them (Gfx11Lib repeats Gfx10Lib's functions named below for thin
// surfaces: gfx11/gfx11addrlib.cpp ComputeSurfaceInfoMacroTiled,
// GetMaxNumMipsInTail, ComputeSurfaceAddrFromCoordMacroTiled).
//
// The rules are addrlib's (Mesa src/amd/addrlib), read from its public source
// and written here in our own words and code:
//   gfx10/gfx10addrlib.cpp  Gfx10Lib::ComputeSurfaceInfoMacroTiled (level
//                           pitches and heights, the first level in the mip
//                           tail, level offsets, tail coordinates),
//                           Gfx10Lib::GetMaxNumMipsInTail,
//                           Gfx10Lib::ComputeSurfaceAddrFromCoordMacroTiled
//                           (slice * slice size + level offset + block index
//                           + equation(x + tail x, y + tail y, slice))
//   gfx10/gfx10addrlib.h    GetMipSize (ShiftCeil: level sizes round UP),
//                           IsInMipTail
//   core/addrlib2.cpp       Lib::GetMipTailDim (thin, GFX10: half a block wide)
//   gfx10/gfx10addrlib.cpp  Gfx10Lib::ComputeSurfaceInfoMicroTiled and
//                           ComputeSurfaceAddrFromCoordMicroTiled (256-byte
//                           modes: no tail; each level padded to whole blocks,
//                           the smallest level first; gfx11addrlib.cpp repeats
//                           both)
//   core/addrlib2.cpp       Lib::GetMipTailDim (thick: halved along log2(block)
//                           mod 3); gfx10addrlib.h GetMipSize (depth rounds up)
// GFX9 is in src/hw/amd_gfx9_mips.cpp. GFX12 is not modelled here.
#include <algorithm>

#include "hw/hw_internal.hpp"

namespace swz::vendor {

Status amd_take_slice_size(const std::string& fam, uint64_t slice_size, uint64_t block_B, uint64_t* chain_B) {
  if (!slice_size) return Status::Ok();
  if (slice_size < *chain_B || slice_size % block_B)
    return {Code::invalid_argument, "layout '" + fam + "': slice_size = " + std::to_string(slice_size) +
                                        " (at least the mip chain's " + std::to_string(*chain_B) +
                                        " and a multiple of the block size " + std::to_string(block_B) + ")"};
  *chain_B = slice_size;
  return Status::Ok();
}

AmdSurfaceInfo amd_surface_report(uint64_t pitch_el, uint64_t height_el, uint64_t bw, uint64_t bh, uint64_t bd,
                                  uint64_t num_slices, uint64_t chain_B, uint64_t base_align_B,
                                  uint32_t first_mip_in_tail) {
  AmdSurfaceInfo ai{};
  ai.pitch_el = pitch_el;
  ai.height_el = height_el;
  ai.block_w_el = static_cast<uint32_t>(bw);
  ai.block_h_el = static_cast<uint32_t>(bh);
  ai.block_d = static_cast<uint32_t>(bd);
  ai.thick = bd > 1;
  ai.num_slices = num_slices;
  ai.slice_size_B = chain_B / bd;
  ai.surf_size_B = ai.slice_size_B * num_slices;
  ai.base_align_B = base_align_B;
  ai.first_mip_in_tail = first_mip_in_tail;
  return ai;
}

bool amd_xor_mode(const std::string& fam) {
  return fam.size() > 2 &&
         (fam.compare(fam.size() - 2, 2, "-x") == 0 || fam.compare(fam.size() - 2, 2, "-t") == 0);
}
namespace {

// ShiftCeil: v / 2^s rounded up.
uint64_t shift_ceil(uint64_t v, unsigned s) { return (v >> s) + ((v & ((uint64_t{1} << s) - 1)) ? 1 : 0); }

}  // namespace

Status build_amd_gfx10_mips(const std::string& fam, const Pattern& pat, const TextureDesc& desc,
                            uint64_t slice_size_given, FamilyPlan* out) {
  const auto e = extents_log2(pat);
  const unsigned n = pat.block_bits();  // log2 of the block bytes
  const uint64_t block_B = uint64_t{1} << n;
  const uint64_t eb = desc.format.element_bytes;
  const unsigned elem_log2 = log2u(eb);
  const uint64_t bw = (uint64_t{1} << e[0]) / eb, bh = uint64_t{1} << e[1];  // block, elements x rows
  const uint64_t bd = uint64_t{1} << e[2];                                   // slices (thick 3D)
  // 3D surfaces in the standard and display modes are "thick": the block
  // spans slices (Gfx10Lib/Gfx11Lib HwlIsThick: 3D and isStd or isDisp). 3D
  // surfaces in the Z and R modes are thin (HwlIsThin): the 2D chain, one
  // chain per depth slice (sliceSize apart), the slice in the equation's Z.
  const bool is_3d = desc.dimension == Dimension::Texture3D;
  const bool thick = e[2] > 0;
  if (thick && !is_3d) return {Code::internal, "layout '" + fam + "': thick pattern on a 2D surface"};
  if (is_3d && slice_size_given)
    return {Code::invalid_argument, "layout '" + fam + "': slice_size = " + std::to_string(slice_size_given) +
                                        " applies to 2D arrays, not to a 3D surface"};
  // GetMipTailDim: the largest level in the tail. Thin (GFX10): half a block
  // wide, a block tall. Thick: the block halved along log2(block) mod 3 (0:
  // height, 1: width, 2: depth, which the tail test does not look at).
  uint64_t tail_w = bw >> 1, tail_h = bh;
  if (thick) {
    tail_w = n % 3 == 1 ? bw >> 1 : bw;
    tail_h = n % 3 == 0 ? bh >> 1 : bh;
  }
  // Z modes with 1- and 2-byte elements shrink the largest tail level by the
  // ratio of their 256-byte micro block to the 4-byte one (Block256_2d):
  // Gfx10Lib::ComputeSurfaceInfoMacroTiled when dsMipmapHtileFix is set
  // (every GFX10 part but Navi10, so GFX10.3 and not the amd-gfx10 Navi10
  // configuration; width by the width ratio, height by the height ratio), and
  // Gfx11Lib::ComputeSurfaceInfoMacroTiled always (width and height both by
  // the width ratio).
  const bool z_mode = fam.size() > 4 && fam.compare(fam.size() - 4, 4, "-z-x") == 0;
  if (z_mode && eb <= 2 && fam.rfind("amd-gfx10-", 0) != 0) {
    const bool gfx11 = fam.rfind("amd-gfx11-", 0) == 0;
    tail_w /= 2;                          // Block256_2d w: 16 / 8 for 1 and 2 bytes
    if (eb == 1 || gfx11) tail_h /= 2;  // Block256_2d h: 16 / 8 (1 byte), 8 / 8 (2 bytes)
  }
  // GetMaxNumMipsInTail: thick blocks count as (log2 - (log2 - 8) / 3).
  const unsigned eff = thick ? n - (n - 8) / 3 : n;
  const uint32_t max_in_tail = eff <= 11 ? 1 + (1u << (eff - 9)) : eff - 4;
  // Block256_2d / Block256_3d: the 256-byte micro block in elements (1, 2,
  // 4, 8, 16 bytes), the unit of the tail coordinates.
  static const uint32_t kB256[5][2] = {{16, 16}, {16, 8}, {8, 8}, {8, 4}, {4, 4}};
  static const uint32_t kB256_3d[5][2] = {{8, 4}, {4, 4}, {4, 4}, {4, 2}, {2, 2}};
  const uint32_t mips = desc.mip_levels;
  const LevelDims L0 = level_dims(desc, 0);
  std::vector<uint64_t> pitch(mips, 0), height(mips, 0), size(mips, 0);
  uint32_t first_tail = mips;
  // Bytes of one array slice (sliceSize), or for a thick surface of one
  // slice of blocks (sliceSize x blockSlices): the tail block and each level's
  // blocks.
  uint64_t chain = 0;
  for (uint32_t i = 0; i < mips; ++i) {
    // IsInMipTail: width and height only (also for thick surfaces).
    const uint64_t w = shift_ceil(L0.w_el, i), h = shift_ceil(L0.h_el, i);
    if (w <= tail_w && h <= tail_h && mips - i <= max_in_tail) {
      first_tail = i;
      chain += block_B;  // the whole tail is one block
      break;
    }
    pitch[i] = align_up(w, bw);
    height[i] = align_up(h, bh);
    size[i] = pitch[i] / bw * (height[i] / bh) * block_B;  // one slice of blocks (thin: pitch x height x bpe)
    chain += size[i];
  }
  SWZ_TRY(amd_take_slice_size(fam, slice_size_given, block_B, &chain));
  FamilyPlan plan;
  plan.patterns.push_back(pat);
  plan.levels.resize(mips);
  // The tail block comes first, then the levels from the smallest stored one
  // to level 0.
  uint64_t off = first_tail < mips ? block_B : 0;
  for (int i = static_cast<int>(first_tail) - 1; i >= 0; --i) {
    LevelPlan& lp = plan.levels[static_cast<size_t>(i)];
    lp.offset = off;
    lp.row_pitch = pitch[static_cast<size_t>(i)] / bw * block_B;
    lp.size = size[static_cast<size_t>(i)];
    off += size[static_cast<size_t>(i)];
  }
  for (uint32_t i = first_tail; i < mips; ++i) {
    // Slot m of the tail (the first tail level takes the last slot); its
    // byte offset inside a linear tail, whose bits are then split into the
    // micro-block column (odd bits from 9) and row (even bits from 8).
    const uint32_t m = max_in_tail - 1 - (i - first_tail);
    const uint32_t mip_offset = m > 6 ? (16u << m) : (m << 8);
    uint32_t mx = 0, my = 0;
    for (unsigned b = 0; b < 6; ++b) {
      mx |= ((mip_offset >> (9 + 2 * b)) & 1u) << b;
      my |= ((mip_offset >> (8 + 2 * b)) & 1u) << b;
    }
    if (n & 1) {
      std::swap(mx, my);
      if (elem_log2 & 1) {
        my = (my << 1) | (mx & 1);
        mx >>= 1;
      }
    }
    LevelPlan& lp = plan.levels[i];
    lp.offset = 0;
    lp.row_pitch = block_B;
    lp.size = block_B;
    // Thick tails step in Block256_3d units (mipTailCoordZ stays 0).
    const uint32_t(&unit)[2] = thick ? kB256_3d[elem_log2] : kB256[elem_log2];
    lp.origin[0] = uint64_t{mx} * unit[0] * eb;
    lp.origin[1] = uint64_t{my} * unit[1];
  }
  for (LevelPlan& lp : plan.levels) lp.depth_pitch_B = chain;
  plan.levels_are_separate = false;
  if (thick) {
    // ComputeSurfaceAddrFromCoordMacroTiled (thick): slice z sits in chain
    // z / blockSlices (sliceSize x blockSlices bytes apart), as many as level
    // 0 has slices of blocks (numSlices padded to the block).
    plan.arrays = Arrays::Stacked;
    plan.layer_stride_B = chain * ceil_div(uint64_t{L0.d}, bd);
    plan.total_size = plan.layer_stride_B * desc.array_size;
  } else if (is_3d) {
    // Thin 3D (ComputeSurfaceAddrFromCoordMacroTiled, thin): depth slice z at
    // z * sliceSize, the whole chain in each (level 0's depth of slices).
    plan.arrays = Arrays::Stacked;
    plan.layer_stride_B = chain * L0.d;
    plan.total_size = plan.layer_stride_B * desc.array_size;
  } else {
    plan.arrays = Arrays::ZSlice;
    plan.layer_stride_B = chain;
    plan.total_size = chain * desc.array_size;
  }
  plan.notes.push_back(first_tail < mips ? "mip tail from level " + std::to_string(first_tail) : "no mip tail");
  // Addr2ComputeSurfaceInfo's report (ComputeSurfaceInfoMacroTiled): level
  // 0's pitch and height padded to the block, numSlices padded to the block
  // depth, sliceSize = one slice of the chain (a thick block's bytes count
  // 1 / blockSlices per slice), surfSize = sliceSize x numSlices, baseAlign =
  // the block size.
  plan.has_amd_info = true;
  plan.amd_info = amd_surface_report(align_up(L0.w_el, bw), align_up(L0.h_el, bh), bw, bh, thick ? bd : 1,
                                     thick ? align_up(uint64_t{L0.d}, bd) : is_3d ? L0.d : desc.array_size, chain,
                                     block_B, first_tail);
  *out = std::move(plan);
  return Status::Ok();
}

// 256-byte modes (ComputeSurfaceInfoMicroTiled): every level, from the last
// to level 0, is padded to whole 256-byte blocks (its own pitch) and follows
// the previous one; the slice holds the whole chain. The address is slice *
// slice size + level offset + block index * 256 + equation(x, y)
// (ComputeSurfaceAddrFromCoordMicroTiled).
Status build_amd_gfx10_micro_mips(const std::string& fam, const Pattern& pat, const TextureDesc& desc,
                                  uint64_t slice_size_given, FamilyPlan* out) {
  const auto e = extents_log2(pat);
  const uint64_t block_B = uint64_t{1} << pat.block_bits();
  const uint64_t eb = desc.format.element_bytes;
  const uint64_t bw = (uint64_t{1} << e[0]) / eb, bh = uint64_t{1} << e[1];
  const uint32_t mips = desc.mip_levels;
  const LevelDims L0 = level_dims(desc, 0);
  FamilyPlan plan;
  plan.patterns.push_back(pat);
  plan.arrays = Arrays::ZSlice;
  plan.levels.resize(mips);
  uint64_t chain = 0;
  for (int i = static_cast<int>(mips) - 1; i >= 0; --i) {
    // GetMipSize: level sizes round up (ShiftCeil).
    const uint64_t pitch = align_up(shift_ceil(L0.w_el, static_cast<unsigned>(i)), bw);
    const uint64_t height = align_up(shift_ceil(L0.h_el, static_cast<unsigned>(i)), bh);
    LevelPlan& lp = plan.levels[static_cast<size_t>(i)];
    lp.offset = chain;
    lp.row_pitch = pitch / bw * block_B;
    lp.size = pitch * height * eb;
    chain += lp.size;
  }
  SWZ_TRY(amd_take_slice_size(fam, slice_size_given, block_B, &chain));
  for (LevelPlan& lp : plan.levels) lp.depth_pitch_B = chain;
  plan.layer_stride_B = chain;
  plan.levels_are_separate = false;
  plan.total_size = chain * desc.array_size;
  plan.notes.push_back("256-byte mode: no mip tail");
  // Addr2ComputeSurfaceInfo (ComputeSurfaceInfoMicroTiled): level 0 padded to
  // the 256-byte block, sliceSize = the chain, baseAlign = 256.
  plan.has_amd_info = true;
  plan.amd_info = amd_surface_report(align_up(L0.w_el, bw), align_up(L0.h_el, bh), bw, bh, 1, desc.array_size, chain,
                                     block_B, mips);
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace swz::vendor
