// Builders for the data-driven families (AMD addrlib, Intel, consoles,
// mobile): patterns from patterns/vendor/*.json, placement rules here, each
// with its public source (patterns/vendor/README.md).
#include <algorithm>
#include <cstdlib>

#include "hw/hw_internal.hpp"
#include "swz/layout_names.hpp"

namespace swz::vendor {
namespace {

std::string dim_name(Dimension d) { return d == Dimension::Texture3D ? "3D" : "2D"; }

}  // namespace

Status tiled_level(const Pattern& pat, const TextureDesc& desc, uint32_t m, uint64_t pitch_el, const std::string& fam,
                   LevelPlan* lp) {
  const auto e = extents_log2(pat);
  const uint64_t bb = uint64_t{1} << pat.block_bits();
  const uint64_t tile_w_bytes = uint64_t{1} << e[0];
  const LevelDims L = level_dims(desc, m);
  const uint64_t eb = desc.format.element_bytes;
  uint64_t row_bytes = uint64_t{L.w_el} * eb;
  if (pitch_el) {
    const uint64_t pb = pitch_el * eb;
    if (pb < row_bytes)
      return {Code::invalid_argument, "layout '" + fam + "': pitch = " + std::to_string(pitch_el) +
                                          " elements is less than the width of level " + std::to_string(m) + " (" +
                                          std::to_string(L.w_el) + ")"};
    if (pb % tile_w_bytes)
      return {Code::invalid_argument, "layout '" + fam + "': pitch = " + std::to_string(pitch_el) + " elements (" +
                                          std::to_string(pb) + " bytes) is not a multiple of the tile width (" +
                                          std::to_string(tile_w_bytes) + " bytes)"};
    row_bytes = pb;
  }
  const uint64_t tiles_x = ceil_div(row_bytes, tile_w_bytes);
  const uint64_t tiles_y = ceil_div(L.h_el, uint64_t{1} << e[1]);
  const uint64_t tiles_z = ceil_div(L.d, uint64_t{1} << e[2]);
  lp->row_pitch = tiles_x * bb;
  lp->depth_pitch_B = tiles_y * lp->row_pitch;
  lp->size = tiles_z * lp->depth_pitch_B;
  return Status::Ok();
}

namespace {

Status need_single_level(const TextureDesc& desc, const std::string& fam, const std::string& why) {
  if (desc.mip_levels > 1)
    return {Code::unsupported,
            "layout '" + fam + "': mip_levels = " + std::to_string(desc.mip_levels) + ": " + why +
                "; pass each level's offset (offsets=A/B/C, or NamedLayoutOptions with mip-tail origins)"};
  return Status::Ok();
}

}  // namespace

// The pipe/bank XOR value addrlib applies for mode `f` (see below); errors
// for GFX9 non-XOR modes; `note` says what was dropped.
Status amd_effective_pbxor(const DataFamily& f, const DataPattern& dp, unsigned n, uint64_t* pbxor_io,
                           std::string* note) {
  uint64_t pbxor = *pbxor_io;
  // Which modes take a pipe/bank XOR, and which of its bits count:
  //  - XOR modes are the _X and _T swizzle modes (addrlib2 SwizzleModeFlags
  //    isXor).
  //  - On a non-XOR mode addrlib's GFX10+ address functions ignore the value
  //    (Gfx10Lib/Gfx11Lib ComputeSurfaceAddrFromCoordMacroTiled: "IsXor(...) ?
  //    ... : 0"), while Gfx9Lib refuses it: swz does the same.
  //  - On GFX10+ XOR modes only the pipe bits and the bank bits count: mask
  //    = (2^pipes_log2 - 1) | (2^bank_bits - 1) << (pipes_log2 + 2 column
  //    bits), bank_bits = min(block_log2 - 8 - pipes_log2 - 2, 4) (at least
  //    0), and the shifted value is cut to the block (Gfx10Lib
  //    GetBankXorBits and ComputeSurfaceAddrFromCoordMacroTiled). GFX10
  //    SW_64KB_S_X with 16 pipes: mask 0xCF.
  const bool xor_mode = f.name.size() > 2 && (f.name.compare(f.name.size() - 2, 2, "-x") == 0 ||
                                              f.name.compare(f.name.size() - 2, 2, "-t") == 0);
  const bool gfx9 = f.name.rfind("amd-gfx9-", 0) == 0;
  const bool gfx10plus =
      f.name.rfind("amd-gfx10-", 0) == 0 || f.name.rfind("amd-gfx10.3-", 0) == 0 || f.name.rfind("amd-gfx11-", 0) == 0;
  if (pbxor != 0 && !xor_mode && gfx9)
    return {Code::invalid_argument, "layout '" + f.name + "': pbxor = " + std::to_string(pbxor) +
                                        " on a non-XOR swizzle mode (addrlib's Gfx9Lib "
                                        "refuses a pipe/bank XOR there; use the mode's -x variant, or pbxor=0)"};
  if (!xor_mode && gfx10plus) {
    if (pbxor)
      *note = "pbxor=" + std::to_string(pbxor) + " ignored: not an XOR mode (as addrlib's GFX10+ address functions do)";
    pbxor = 0;
  } else if (gfx10plus) {
    unsigned pipes_log2 = 0;
    if (dp.config.rfind("pipes=", 0) == 0)
      pipes_log2 = log2u(std::max<uint64_t>(1, std::strtoull(dp.config.c_str() + 6, nullptr, 10)));
    const unsigned bank_bits = n > 8 + pipes_log2 + 2 ? std::min(n - 8 - pipes_log2 - 2, 4u) : 0;
    const uint64_t mask = ((uint64_t{1} << pipes_log2) - 1) | (((uint64_t{1} << bank_bits) - 1) << (pipes_log2 + 2));
    const uint64_t kept = ((pbxor & mask) << 8) & ((uint64_t{1} << n) - 1);
    if ((kept >> 8) != pbxor)
      *note = "pbxor=" + std::to_string(pbxor) + " masked to " + std::to_string(kept >> 8) +
              " (pipe/bank bits of the mode)";
    pbxor = kept >> 8;
  }
  *pbxor_io = pbxor;
  return Status::Ok();
}

// ---- AMD (addrlib GFX9..GFX12) ----------------------------------------------
// Model M of the research notes: offset = base + block index * block bytes +
// pattern(x, y, z = array slice, s) ^ (pbXor << 8); blocks row-major over the
// padded pitch; the array slice feeds Z with the depth pitch = slice size.
Status build_amd(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  std::string config = c.params.str("pipes");
  if (!config.empty())
    config = "pipes=" + config;
  else
    config = f.patterns.front().config;
  const DataPattern* dp = nullptr;
  if (desc.dimension == Dimension::Texture3D && f.name.rfind("amd-gfx12-", 0) != 0 &&
      std::none_of(f.patterns.begin(), f.patterns.end(),
                   [](const DataPattern& p) { return p.dim == Dimension::Texture3D; }))
    // The 3D rows are addrlib's 3D equations (tests/data/hw/amd_3d_equations.json):
    // a GFX9-GFX11 mode without any is one addrlib refuses for 3D surfaces.
    return {Code::unsupported,
            "layout '" + f.name + "': 3D surfaces: addrlib refuses this swizzle mode for 3D " +
                (f.name == "amd-gfx11-sw256k-d-x"
                     ? std::string("(Gfx11Lib::GetSwizzlePatternInfo has no SW_256KB_D_X 3D pattern)")
                     : std::string("(the generation's ValidateSwModeParams refuses 3D in this mode)"))};
  // ValidateSwModeParams (Gfx9Lib: isBc, is422; Gfx10Lib / Gfx11Lib:
  // IsBlockCompressed, IsMacroPixelPacked) refuses block-compressed and packed
  // 4:2:2 formats in the Z modes, whatever the element size.
  if (desc.format.block_width > 1 && f.name.find("-z-") != std::string::npos && f.name.rfind("amd-gfx12-", 0) != 0)
    return {Code::unsupported, "layout '" + f.name + "': format " + desc.format.name +
                                   ": addrlib refuses block-compressed and packed 4:2:2 formats in Z swizzle modes "
                                   "(ValidateSwModeParams); use the mode's S, D or R variant"};
  SWZ_TRY(select_pattern(f, desc, config, "", &dp));
  Pattern pat = dp->pattern;
  uint64_t pbxor = 0, pitch_el = 0, slice = 0;
  bool has_pb, has_pitch, has_slice;
  SWZ_TRY(c.params.u64("pbxor", &pbxor, &has_pb));
  SWZ_TRY(c.params.u64("pitch", &pitch_el, &has_pitch));
  SWZ_TRY(c.params.u64("slice_size", &slice, &has_slice));
  const unsigned n = pat.block_bits();
  std::string pb_note;
  if (has_pb) SWZ_TRY(amd_effective_pbxor(f, *dp, n, &pbxor, &pb_note));
  if (has_pb && pbxor) {
    if (n <= 8 || pbxor >= (uint64_t{1} << (n - 8)))
      return {Code::invalid_argument, "layout '" + f.name + "': pbxor = " + std::to_string(pbxor) +
                                          " reaches past the " + std::to_string(uint64_t{1} << n) +
                                          "-byte block (pbxor << 8 must be below the block size; use the value "
                                          "addrlib's Addr2ComputePipeBankXor gives for the surface)"};
    pat.immediate = static_cast<uint32_t>(pbxor << 8);
  }
  // GFX9, GFX10, GFX10.3 and GFX11 2D and 3D mip chains follow addrlib
  // (src/hw/amd_gfx9_mips.cpp, src/hw/amd_mips.cpp) unless the caller places
  // the levels (offsets=, pitches=).
  const bool gfx9 = f.name.rfind("amd-gfx9-", 0) == 0;
  const bool gfx10plus =
      f.name.rfind("amd-gfx10-", 0) == 0 || f.name.rfind("amd-gfx10.3-", 0) == 0 || f.name.rfind("amd-gfx11-", 0) == 0;
  // 3D surfaces: the modes addrlib allows in 3D have 3D patterns (data rows
  // from addrlib's equations; select_pattern refuses the others). Thick modes
  // have Z in the block (IsThick: standard and display modes on GFX10+,
  // standard and Z on GFX9); thin ones keep the 2D block, and their depth
  // slices sit one chain apart like array slices (IsThin).
  const bool chain_2d = desc.dimension == Dimension::Texture2D && desc.samples == 1;
  const bool chain_3d = desc.dimension == Dimension::Texture3D && n > 8;
  if (desc.mip_levels > 1 && (gfx9 || gfx10plus) && (chain_2d || chain_3d) && !c.params.has("offsets") &&
      !c.params.has("pitches")) {
    // Gfx9Lib::ValidateSwModeParams refuses mips in 256-byte modes.
    if (gfx9 && n <= 8)
      SWZ_TRY(need_single_level(desc, f.name,
                                "addrlib refuses mip chains in GFX9 256-byte modes (Gfx9Lib::ValidateSwModeParams)"));
    // Gfx9Lib::ValidateSwModeParams refuses mipmapped 3D surfaces in the
    // display modes (thin on GFX9) whose depth is at least their width and
    // height ("zMaxMip").
    if (gfx9 && desc.dimension == Dimension::Texture3D && extents_log2(pat)[2] == 0 && desc.depth >= desc.width &&
        desc.depth >= desc.height)
      return {Code::unsupported, "layout '" + f.name + "': mip_levels = " + std::to_string(desc.mip_levels) +
                                     " on a 3D surface of depth " + std::to_string(desc.depth) +
                                     " >= its width and height: addrlib refuses mipmapped 3D surfaces deeper than "
                                     "wide and tall in GFX9 display modes (Gfx9Lib::ValidateSwModeParams)"};
    if (has_pitch)
      return {Code::invalid_argument,
              "layout '" + f.name + "': pitch = " + std::to_string(pitch_el) + " with " +
                  std::to_string(desc.mip_levels) +
                  " mip levels (addrlib takes an explicit pitch for single-level surfaces; a chain's pitches follow "
                  "from its size, or give offsets= with pitches=)"};
    FamilyPlan plan;
    const uint64_t given = has_slice ? slice : 0;
    if (gfx9)
      SWZ_TRY(build_amd_gfx9_mips(f.name, pat, desc, given, &plan));
    else if (n <= 8)
      SWZ_TRY(build_amd_gfx10_micro_mips(f.name, pat, desc, given, &plan));
    else
      SWZ_TRY(build_amd_gfx10_mips(f.name, pat, desc, given, &plan));
    plan.notes.push_back(dp->config.empty() ? std::string() : dp->config + " (" + dp->config_text + ")");
    if (!pb_note.empty()) plan.notes.push_back(pb_note);
    *out = std::move(plan);
    return Status::Ok();
  }
  // GFX9-GFX11 chains come here only with pitches= and no offsets= (or MSAA):
  // say so rather than blame the generation.
  const char* why = desc.samples > 1 ? "MSAA surfaces take no mips (D3D12, addrlib)"
                    : (gfx9 || gfx10plus) && c.params.has("pitches")
                        ? "pitches= places a chain only together with offsets= (leave both out for addrlib's chain)"
                    : (gfx9 || gfx10plus) ? "addrlib's mip placement for this mode and dimension is not modelled"
                                          : "addrlib's mip placement for this generation (GFX12) is not modelled";
  SWZ_TRY(need_single_level(desc, f.name, why));
  FamilyPlan plan;
  plan.patterns.push_back(pat);
  LevelPlan lp;
  SWZ_TRY(tiled_level(pat, desc, 0, has_pitch ? pitch_el : 0, f.name, &lp));
  if (has_slice) {
    if (slice < lp.size || slice % (uint64_t{1} << n))
      return {Code::invalid_argument, "layout '" + f.name + "': slice_size = " + std::to_string(slice) + " (at least " +
                                          std::to_string(lp.size) + " and a multiple of the block size " +
                                          std::to_string(uint64_t{1} << n) + ")"};
  }
  const uint64_t slice_size = has_slice ? slice : lp.size;
  if (desc.dimension == Dimension::Texture2D) {
    plan.arrays = Arrays::ZSlice;
    lp.depth_pitch_B = slice_size;
    plan.layer_stride_B = slice_size;
  } else {
    plan.arrays = Arrays::Stacked;
    plan.layer_stride_B = lp.size;
  }
  if (gfx9 || gfx10plus) {
    // Addr2ComputeSurfaceInfo's report for one level: pitch (a given pitch=
    // or the padded width) and height padded to the block; numSlices padded
    // to the block depth (thick 3D); sliceSize one array or depth slice;
    // baseAlign the block size (GFX9 non-XOR modes: 256,
    // Gfx9Lib::ComputeSurfaceBaseAlignTiled).
    const auto e = extents_log2(pat);
    const uint64_t bw = (uint64_t{1} << e[0]) / desc.format.element_bytes, bh = uint64_t{1} << e[1],
                   bd = uint64_t{1} << e[2];
    const LevelDims L0 = level_dims(desc, 0);
    const bool thick = e[2] > 0, is_3d = desc.dimension == Dimension::Texture3D;
    plan.has_amd_info = true;
    plan.amd_info = amd_surface_report(
        lp.row_pitch / (uint64_t{1} << n) * bw, align_up(uint64_t{L0.h_el}, bh), bw, bh, bd,
        thick ? align_up(uint64_t{L0.d}, bd) : is_3d ? L0.d : desc.array_size,
        desc.dimension == Dimension::Texture2D ? slice_size : lp.depth_pitch_B,
        gfx9 && !amd_xor_mode(f.name) ? 256 : uint64_t{1} << n, 1);
    if (gfx9) {
      plan.amd_info.chain_pitch_el = plan.amd_info.pitch_el;
      plan.amd_info.chain_height_el = plan.amd_info.height_el;
    }
  }
  plan.levels.push_back(lp);
  plan.total_size = slice_size * desc.array_size;
  plan.notes.push_back(dp->config.empty() ? std::string() : dp->config + " (" + dp->config_text + ")");
  if (!pb_note.empty()) plan.notes.push_back(pb_note);
  *out = std::move(plan);
  return Status::Ok();
}

// ---- Intel -------------------------------------------------------------------
// Image alignment in elements (HALIGN x VALIGN), as isl picks it
// (isl_choose_image_alignment_el and the per-generation functions):
//  - Yf/Ys/Tile64: the tile (isl_gfx12/gfx125: "tile-aligned").
//  - depth formats: D16 8x4, other depth 4x4 on Gen9-11 (isl_gfx8 table);
//    D16 8x8, other depth 8x4 on Gen12 and Tile4 (isl_gfx12 / isl_gfx125).
//  - block-compressed: 4x4 blocks (isl_gfx9: "choose the smallest
//    alignment possible: HALIGN_4 and VALIGN_4"); on Tile4 (Xe-HP,
//    isl_gfx125) 64 bytes for 64/128-bit blocks.
//  - Tile4 color: 128 bytes when the surface may be compressed (CCS,
//    aux=1), else 64 bytes for 8/16-byte elements, 32 bytes below; VALIGN 4.
//  - TileX/TileY/TileW color (isl_gfx8): HALIGN 16 (required by CCS, aux=1),
//    4 with aux=0 (8 on Gen11+ Tile Y with 4-byte elements, isl_gfx8
//    GEN_BUG_1406667188); VALIGN 4.
static void intel_image_alignment(const DataFamily& f, const TextureDesc& desc, uint64_t gen, uint64_t aux,
                                  bool tr_mode, uint64_t tile_w_bytes, uint64_t tile_h, uint64_t* halign_out,
                                  uint64_t* valign_out) {
  const uint64_t eb = desc.format.element_bytes;
  const bool tile4 = f.name == "intel-tile4";
  uint64_t halign, valign;
  if (tr_mode) {
    halign = std::max<uint64_t>(1, tile_w_bytes / eb);
    valign = tile_h;
  } else if (desc.format.depth_stencil) {
    const bool d16 = eb == 2;
    if (gen >= 12 || tile4) {
      halign = 8;
      valign = d16 ? 8 : 4;
    } else {
      halign = d16 ? 8 : 4;
      valign = 4;
    }
  } else if (desc.format.block_compressed()) {
    halign = tile4 ? 64 / eb : 4;
    valign = 4;
  } else if (tile4) {
    halign = (aux ? 128 : eb >= 8 ? 64 : 32) / eb;
    valign = 4;
  } else {
    halign = aux ? 16 : (gen >= 11 && f.name == "intel-tiley" && eb == 4 ? 8 : 4);
    valign = 4;
  }
  *halign_out = halign;
  *valign_out = valign;
}

// The levels of a Yf/Ys/Tile64 mip tail (from level `tail` on, when tail <
// mips) moved to their slots of the tail tile, which sits where level
// `tail` was placed.
static Status intel_place_tail(const DataFamily& f, uint64_t eb, uint64_t gen, bool tile64, uint32_t tail,
                               uint32_t mips, std::vector<uint64_t>* xs_io, std::vector<uint64_t>* ys_io) {
  std::vector<uint64_t>& xs = *xs_io;
  std::vector<uint64_t>& ys = *ys_io;
  // Slot offsets (X elements, Y rows) for 128/64/32/16/8 bpe; Yf starts at
  // slot 4. Gen9 has the same table with slots 11..14 in reverse order.
  static const uint8_t kGen10[15][5][2] = {
      {{32, 0}, {64, 0}, {64, 0}, {128, 0}, {128, 0}}, {{0, 32}, {0, 32}, {0, 64}, {0, 64}, {0, 128}},
      {{16, 0}, {32, 0}, {32, 0}, {64, 0}, {64, 0}},   {{0, 16}, {0, 16}, {0, 32}, {0, 32}, {0, 64}},
      {{8, 0}, {16, 0}, {16, 0}, {32, 0}, {32, 0}},    {{4, 8}, {8, 8}, {8, 16}, {16, 16}, {16, 32}},
      {{0, 12}, {0, 12}, {0, 24}, {0, 24}, {0, 48}},   {{0, 8}, {0, 8}, {0, 16}, {0, 16}, {0, 32}},
      {{4, 4}, {8, 4}, {8, 8}, {16, 8}, {16, 16}},     {{4, 0}, {8, 0}, {8, 0}, {16, 0}, {16, 0}},
      {{0, 4}, {0, 4}, {0, 8}, {0, 8}, {0, 16}},       {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
      {{1, 0}, {2, 0}, {0, 4}, {0, 4}, {0, 4}},        {{2, 0}, {4, 0}, {4, 0}, {8, 0}, {0, 8}},
      {{3, 0}, {6, 0}, {4, 4}, {8, 4}, {0, 12}}};
  const unsigned bpe_index = 4 - log2u(eb);  // 128 bpe first
  // Every level from the tail start on (the start level included, at slot 0)
  // sits at the tail tile's position plus its slot offset (gmmlib
  // Get2DTexOffsetAddressPerMip + GetMipTailByteOffset / GetMipTailGeometryOffset).
  if (tail < mips) {
    const uint64_t bx = xs[tail], by = ys[tail];
    for (uint32_t m = tail; m < mips; ++m) {
      const uint32_t slot = m - tail + (f.name == "intel-tileyf" ? 4 : 0);
      if (slot >= 15)
        return {Code::internal, "layout '" + f.name + "': mip-tail slot " + std::to_string(slot) + " out of range"};
      const uint32_t row = gen == 9 && !tile64 && slot >= 11 ? 25 - slot : slot;
      xs[m] = bx + kGen10[row][bpe_index][0];
      ys[m] = by + kGen10[row][bpe_index][1];
    }
  }
  return Status::Ok();
}

// One tiled surface per resource, pitch = widest level row aligned to the tile
// width; mips in the Gen9+ 2D mip layout (MIPLAYOUT_BELOW: level 1 below level
// 0, levels 2.. to the right of level 1, stacked), array slices QPitch rows
// apart (gmmlib GmmGen9TextureCalc FillTex2D / Get2DTexOffsetAddressPerMip /
// Fill2DTexOffsetAddress). 3D: slices QPitch rows apart with QPitch aligned to
// the tile height, or Z inside the tile for the 3D tile patterns.
Status build_intel(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  std::string variant;
  if (c.params.flag("bit6")) variant = "bit6";
  if (c.params.flag("v2")) variant = "v2";
  const DataPattern* dp = nullptr;
  Status st = select_pattern(f, desc, "", variant, &dp);
  if (!st.ok() && variant == "v2" && desc.samples == 1 && desc.dimension == Dimension::Texture2D)
    st = select_pattern(f, desc, "", "", &dp);  // 2D single-sample Tile64 has one table
  SWZ_TRY(st);
  const Pattern& pat = dp->pattern;
  const auto e = extents_log2(pat);
  const uint64_t eb = desc.format.element_bytes;
  const uint64_t tile_w_bytes = uint64_t{1} << e[0], tile_h = uint64_t{1} << e[1], bb = uint64_t{1} << pat.block_bits();
  const bool tr_mode = f.name == "intel-tileyf" || f.name == "intel-tileys" || f.name == "intel-tile64";
  const bool z_in_tile = e[2] > 0;
  // Yf/Ys/Tile64 2D single-sample surfaces get their mip tail (below); the
  // 3D and MSAA tiles do not yet.
  // Tile64 2D single-sample tails follow the same rule with the Gen11 (ICL)
  // slot table from slot 0 (isl.c isl_get_miptail_level_offset_el: "case
  // ISL_TILING_64: case ISL_TILING_ICL_Ys: icl_std_y_2d_miptail_offset_el";
  // isl_choose_miptail_start_level: the first level that fits beside slot 0).
  const bool tile64 = f.name == "intel-tile64";
  const bool tail_model = (f.name == "intel-tileyf" || f.name == "intel-tileys" || tile64) &&
                          desc.dimension == Dimension::Texture2D && desc.samples == 1 && !z_in_tile;
  if ((tr_mode && !tail_model) || z_in_tile)
    SWZ_TRY(need_single_level(desc, f.name, "the mip tail of this tiling (3D or MSAA tiles) is not modelled"));
  uint64_t gen = 9;
  bool gen_given;
  SWZ_TRY(c.params.u64("gen", &gen, &gen_given));
  if (gen < 9 || gen > 12)
    return {Code::invalid_argument, "layout '" + f.name + "': gen = " + std::to_string(gen) +
                                        " (9, 10, 11 or 12; Yf/Ys mip-tail slot table: 9, or 10+)"};
  uint64_t aux = 1;
  bool aux_given;
  SWZ_TRY(c.params.u64("aux", &aux, &aux_given));
  if (aux > 1)
    return {Code::invalid_argument, "layout '" + f.name + "': aux = " + std::to_string(aux) +
                                        " (0: ISL_SURF_USAGE_DISABLE_AUX_BIT, 1: default)"};
  uint64_t halign, valign;
  intel_image_alignment(f, desc, gen, aux, tr_mode, tile_w_bytes, tile_h, &halign, &valign);
  bool h_given, v_given, q_given, p_given;
  uint64_t qpitch = 0, pitch_bytes = 0;
  SWZ_TRY(c.params.u64("halign", &halign, &h_given));
  SWZ_TRY(c.params.u64("valign", &valign, &v_given));
  SWZ_TRY(c.params.u64("qpitch", &qpitch, &q_given));
  SWZ_TRY(c.params.u64("pitch", &pitch_bytes, &p_given));
  if (!halign || !valign)
    return {Code::invalid_argument, "layout '" + f.name + "': halign and valign must be at least 1"};
  // Mip tail (gmmlib FindMipTailStartLod): the first level that fits in
  // MaxMipTailStart = half a tile wide, a tile tall (the Gen9 platform table:
  // e.g. Ys 32 bpe 64 x 128, Yf 32 bpe 16 x 32 elements), searched up to the
  // last level; levels from there on share one tile at the slot offsets of
  // GEN9/GEN10_MIPTAIL_SLOT_OFFSET_2D_SURFACE.
  const uint32_t mips = desc.mip_levels;
  uint32_t tail = mips;  // none
  if (tail_model && mips > 1) {
    const uint64_t mts_w = std::max<uint64_t>(1, tile_w_bytes / eb / 2), mts_h = tile_h;
    uint32_t lvl = 0;
    auto fits = [&](uint32_t m) {
      LevelDims L = level_dims(desc, m);
      return L.w_el <= mts_w && L.h_el <= mts_h;
    };
    while (lvl < mips - 1 && !fits(lvl)) ++lvl;
    if (fits(lvl)) tail = lvl;
  }
  // Level positions in elements.
  std::vector<uint64_t> xs(mips), ys(mips), ws(mips), hs(mips);
  for (uint32_t m = 0; m < mips; ++m) {
    LevelDims L = level_dims(desc, m);
    ws[m] = align_up(L.w_el, halign);
    hs[m] = align_up(L.h_el, valign);
  }
  // A single-level surface is not padded to the image alignment: its rows
  // need only its width, so narrow explicit pitches are valid
  // (isl_calc_phys_slice0_extent_sa_gfx4_2d: "Do not pad the surface to the
  // image alignment"); array slices stay QPitch (VALIGN-aligned) apart.
  if (mips == 1 && !z_in_tile) {
    ws[0] = level_dims(desc, 0).w_el;
    hs[0] = level_dims(desc, 0).h_el;
  }
  uint64_t width = ws[0], h1 = 0, h2 = 0;
  for (uint32_t m = 0; m < std::min(mips, tail + 1); ++m) {
    if (m == 0) {
      xs[m] = 0;
      ys[m] = 0;
    } else if (m == 1) {
      xs[m] = 0;
      ys[m] = hs[0];
      h1 = hs[1];
    } else {
      xs[m] = ws[1];
      ys[m] = hs[0] + h2;
      h2 += hs[m];
    }
  }
  if (std::min(mips, tail + 1) > 2) width = std::max(width, ws[1] + ws[2]);
  SWZ_TRY(intel_place_tail(f, eb, gen, tile64, tail, mips, &xs, &ys));
  uint64_t total_h = hs[0] + std::max(h1, h2);
  if (!q_given) {
    qpitch = align_up(total_h, valign);
    if (desc.dimension == Dimension::Texture3D && !z_in_tile) qpitch = align_up(qpitch, tile_h);
  }
  if (qpitch < total_h)
    return {Code::invalid_argument, "layout '" + f.name + "': qpitch = " + std::to_string(qpitch) +
                                        " rows is less than the mip chain (" + std::to_string(total_h) + " rows)"};
  uint64_t row_bytes = align_up(width * eb, tile_w_bytes);
  if (p_given) {
    if (pitch_bytes < width * eb || pitch_bytes % tile_w_bytes)
      return {Code::invalid_argument, "layout '" + f.name + "': pitch = " + std::to_string(pitch_bytes) +
                                          " bytes (at least " + std::to_string(width * eb) +
                                          " and a multiple of the tile width " + std::to_string(tile_w_bytes) + ")"};
    row_bytes = pitch_bytes;
  }
  FamilyPlan plan;
  plan.patterns.push_back(pat);
  plan.levels_are_separate = false;
  const uint64_t row_pitch = row_bytes / tile_w_bytes * bb;
  const uint64_t slices = desc.dimension == Dimension::Texture3D ? desc.depth : desc.array_size;
  uint64_t total_rows;
  if (z_in_tile) {
    LevelPlan lp;
    SWZ_TRY(tiled_level(pat, desc, 0, row_bytes / eb, f.name, &lp));
    plan.levels.push_back(lp);
    plan.arrays = Arrays::Stacked;
    plan.layer_stride_B = lp.size;
    plan.total_size = lp.size * desc.array_size;
  } else {
    for (uint32_t m = 0; m < desc.mip_levels; ++m) {
      LevelPlan lp;
      lp.row_pitch = row_pitch;
      lp.origin[0] = xs[m] * eb;
      lp.origin[1] = ys[m];
      // 3D: slice z of the level sits z * QPitch rows down (QPitch is tile aligned).
      lp.depth_pitch_B = desc.dimension == Dimension::Texture3D ? qpitch / tile_h * row_pitch : 0;
      plan.levels.push_back(lp);
    }
    plan.arrays = Arrays::YRows;
    plan.layer_rows = qpitch;
    total_rows = slices > 1 ? qpitch * slices : total_h;
    plan.total_size = ceil_div(total_rows, tile_h) * row_pitch;
  }
  if (tail < mips) plan.notes.push_back("mip tail from level " + std::to_string(tail));
  plan.notes.push_back("halign=" + std::to_string(halign) + " valign=" + std::to_string(valign) + " elements" +
                       (slices > 1 && !z_in_tile ? ", qpitch=" + std::to_string(qpitch) + " rows" : ""));
  *out = std::move(plan);
  return Status::Ok();
}

// ---- plain tiles (Xbox 360, PS4 1D_THIN, Mali) --------------------------------
// Tiles row-major over the padded width; levels packed one after another
// (each on a tile boundary); layers packed likewise.
Status build_tiles(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  const DataPattern* dp = nullptr;
  SWZ_TRY(select_pattern(f, desc, "", "", &dp));
  uint64_t pitch_el = 0;
  bool has_pitch;
  SWZ_TRY(c.params.u64("pitch", &pitch_el, &has_pitch));
  const Pattern& pat = dp->pattern;
  const uint64_t bb = uint64_t{1} << pat.block_bits();
  FamilyPlan plan;
  plan.patterns.push_back(pat);
  plan.arrays = Arrays::Stacked;
  uint64_t offset = 0;
  for (uint32_t m = 0; m < desc.mip_levels; ++m) {
    LevelPlan lp;
    const LevelDims L = level_dims(desc, m);
    uint64_t p = m == 0 && has_pitch ? pitch_el : 0;
    if (dp->pitch_multiple_texels) {
      // Xbox 360 1/2-byte: exact only when the pitch (32-texel units) is a multiple of 128/64 texels.
      uint64_t pitch = p ? p : align_up(L.w_el, 32);
      if (pitch % dp->pitch_multiple_texels)
        return {Code::unsupported,
                "layout '" + f.name + "': with " + std::to_string(desc.format.element_bytes) +
                    "-byte elements the tiled address "
                    "is a bit pattern only when the pitch is a multiple of " +
                    std::to_string(dp->pitch_multiple_texels) + " texels (level " + std::to_string(m) +
                    " has a pitch of " + std::to_string(pitch) +
                    "); other pitches add tile indices arithmetically (research notes, Xenia XeTextureTiledOffset2D)"};
      p = pitch;
    }
    SWZ_TRY(tiled_level(pat, desc, m, p, f.name, &lp));
    lp.offset = align_up(offset, bb);
    offset = lp.offset + lp.size;
    plan.levels.push_back(lp);
  }
  plan.layer_align = bb;
  plan.layer_stride_B = align_up(offset, bb);
  plan.total_size = plan.layer_stride_B * desc.array_size;
  *out = std::move(plan);
  return Status::Ok();
}

// Adreno a6xx/a7xx: src/hw/adreno.cpp (build_adreno).

// ---- Apple AGX twiddled (ail_initialize_gpu_tiled) -----------------------------
Status build_apple(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  if (desc.dimension == Dimension::Texture3D && desc.mip_levels > 1)
    return {Code::unsupported, "layout 'apple-twiddled': mipmapped 3D textures (ail mipmapped_z) are not modelled"};
  if (desc.samples > 1)
    return {Code::unsupported, "layout 'apple-twiddled': MSAA (samples stored inside the element) is not modelled"};
  const DataPattern* dp = nullptr;
  SWZ_TRY(select_pattern(f, desc, "", "", &dp));
  const uint64_t eb = desc.format.element_bytes;
  const unsigned k = log2u(eb);
  const bool compressed = desc.format.block_compressed();
  const uint64_t tw = dp->tile_w, th = dp->tile_h;
  const uint64_t w_el = level_dims(desc, 0).w_el, h_el = level_dims(desc, 0).h_el;
  const uint64_t stx = ceil_div(w_el, tw), sty = ceil_div(h_el, th), sarea = stx * sty;
  const uint64_t bw = desc.format.block_width, bh = desc.format.block_height;
  // First level of the power-of-two mip tree.
  uint32_t pot_level = 0;
  {
    uint64_t pw = bw * w_el, ph = bh * h_el;
    while (true) {
      if (ceil_div(pw, bw) < tw || ceil_div(ph, bh) < th) break;
      pw = std::max<uint64_t>(1, pw >> 1);
      ph = std::max<uint64_t>(1, ph >> 1);
      ++pot_level;
    }
  }
  auto square_pattern = [&](uint64_t t) {
    // Morton (x first) of a t x t tile of elements (tiling.cc: x bits on the
    // even, y bits on the odd element-index bits); for t up to the 16 KiB
    // tile's minor side this is a prefix of the data file's tile pattern.
    Pattern p;
    unsigned i = 0;
    for (; i < k; ++i) p.interleave[i] = BitEntry::make(Channel::X, i);
    for (unsigned b = 0; b < log2u(t); ++b) {
      p.interleave[i++] = BitEntry::make(Channel::X, k + b);
      p.interleave[i++] = BitEntry::make(Channel::Y, b);
    }
    return p;
  };
  FamilyPlan plan;
  plan.arrays = Arrays::Stacked;
  uint64_t offset = 0;
  auto slot_for = [&](const Pattern& p) {
    for (size_t i = 0; i < plan.patterns.size(); ++i)
      if (plan.patterns[i] == p) return static_cast<int>(i);
    plan.patterns.push_back(p);
    return static_cast<int>(plan.patterns.size() - 1);
  };
  // ail_make_miptree: "hardware strides are based on the maximum number of
  // levels, so always allocate them all" when mipmapped.
  const uint32_t all_levels = desc.mip_levels > 1 ? full_mip_count(desc.width, desc.height, 1) : 1;
  for (uint32_t l = 0; l < std::min(pot_level, all_levels); ++l) {
    uint64_t tiles = sarea >> (2 * l);
    const bool pad_left = (stx & ((uint64_t{1} << l) - 1)) != 0;
    const bool pad_bottom = (sty & ((uint64_t{1} << l) - 1)) != 0;
    if (pad_left) tiles += sty >> l;
    if (pad_bottom) tiles += stx >> l;
    if (pad_left && pad_bottom) tiles += 1;
    uint64_t stride_el = ceil_div(std::max<uint64_t>(1, desc.width >> l), bw);
    if (compressed && pad_left) stride_el++;
    LevelPlan lp;
    lp.slot = slot_for(dp->pattern);
    lp.row_pitch = ceil_div(stride_el, tw) * 16384;
    lp.offset = offset;
    lp.size = tiles * tw * th * eb;
    offset = align_up(offset + lp.size, 128);
    plan.levels.push_back(lp);
  }
  uint64_t potw, poth;
  if (compressed) {
    potw = std::max<uint64_t>(1, next_pow2(w_el) >> pot_level);
    poth = std::max<uint64_t>(1, next_pow2(h_el) >> pot_level);
  } else {
    potw = next_pow2(std::max<uint64_t>(1, w_el >> pot_level));
    poth = next_pow2(std::max<uint64_t>(1, h_el >> pot_level));
  }
  for (uint32_t l = pot_level; l < all_levels; ++l) {
    uint64_t t =
        compressed ? next_pow2(std::min(potw, poth)) : next_pow2(std::max<uint64_t>(1, std::min(w_el, h_el) >> l));
    LevelPlan lp;
    lp.slot = slot_for(square_pattern(t));
    const uint64_t stride_el = ceil_div(std::max<uint64_t>(1, desc.width >> l), bw);
    lp.row_pitch = ceil_div(stride_el, t) * t * t * eb;
    lp.offset = offset;
    lp.size = potw * poth * eb;
    offset = align_up(offset + lp.size, 128);
    plan.levels.push_back(lp);
    potw = std::max<uint64_t>(1, potw >> 1);
    poth = std::max<uint64_t>(1, poth >> 1);
  }
  // Layers: page aligned when mipmapped and bigger than a page and arrayed
  // (ail: page_aligned_layers; writeable/renderable images force it: pass
  // layer_stride= then).
  // 3D textures (not mipmapped in Z) are stacks of 2D slices at the layer stride.
  const uint64_t layers = desc.dimension == Dimension::Texture3D ? desc.depth : desc.array_size;
  const bool page_aligned = all_levels != 1 && offset > 16384 && layers > 1;
  plan.levels.resize(desc.mip_levels);
  plan.layer_align = page_aligned ? 16384 : 1;
  plan.layer_stride_B = page_aligned ? align_up(offset, 16384) : offset;
  plan.total_size = align_up(plan.layer_stride_B * layers, 128);
  if (desc.dimension == Dimension::Texture3D) plan.levels[0].depth_pitch_B = plan.layer_stride_B;
  (void)f;
  *out = std::move(plan);
  return Status::Ok();
}

// ---- describe ------------------------------------------------------------------
Status describe_data(const VendorData&, const DataFamily& f, Params& p, uint32_t eb, std::string* out) {
  std::string config = p.str("pipes");
  if (!config.empty()) config = "pipes=" + config;
  std::string variant;
  if (p.flag("bit6")) variant = "bit6";
  if (p.flag("v2")) variant = "v2";
  if (f.placement == "adreno") {
    variant = p.str("mode", "4ch");
    if (variant == "4") variant = "4ch";
    if (variant == "8") variant = "8ch";
  }
  uint64_t pbxor = 0;
  bool has_pb;
  SWZ_TRY(p.u64("pbxor", &pbxor, &has_pb));
  std::string s;
  int shown = 0;
  for (const DataPattern& dp : f.patterns) {
    if (!dp.element_bytes.empty() &&
        std::find(dp.element_bytes.begin(), dp.element_bytes.end(), eb) == dp.element_bytes.end())
      continue;
    if (!config.empty() && dp.config != config) continue;
    if (dp.variant != variant && !(variant == "v2" && dp.variant.empty())) continue;
    Pattern pat = dp.pattern;
    uint64_t eff = pbxor;
    std::string pb_note;
    if (has_pb && f.placement == "amd") SWZ_TRY(amd_effective_pbxor(f, dp, pat.block_bits(), &eff, &pb_note));
    if (has_pb && pat.block_bits() > 8 && eff < (uint64_t{1} << (pat.block_bits() - 8)))
      pat.immediate = static_cast<uint32_t>(eff << 8);
    s += to_text(pat) + "\n";
    s += "  " + dim_name(dp.dim) + (dp.samples > 1 ? std::string(" ") + std::to_string(dp.samples) + "x MSAA" : std::string()) +
         (dp.compressed == 1   ? " block-compressed"
          : dp.compressed == 0 ? " uncompressed"
                               : "") +
         (dp.config.empty() ? "" : " " + dp.config) + (dp.variant.empty() ? "" : " " + dp.variant) + "; " +
         block_extent_text(pat, eb) + "\n";
    if (dp.raw) s += "  addrlib order: " + dp.bits_text + " (canonicalized for block " + to_string(dp.block) + ")\n";
    if (!dp.config_text.empty()) s += "  configuration: " + dp.config_text + "\n";
    if (!dp.origin.empty()) s += "  from: " + dp.origin + "\n";
    if (!pb_note.empty()) s += "  " + pb_note + "\n";
    ++shown;
  }
  if (!shown) {
    const DataPattern* any = nullptr;
    return select_pattern_for(f, eb, Dimension::Texture2D, 1, -1, config, variant, &any);
  }
  *out = s;
  return Status::Ok();
}

}  // namespace swz::vendor
