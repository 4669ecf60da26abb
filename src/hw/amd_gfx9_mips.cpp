// AMD GFX9 mip chains, as addrlib places them: 2D thin surfaces (SW_4KB_*,
// SW_64KB_* and their _X / _T forms) and 3D thick surfaces of the standard
// modes (SW_4KB_S, SW_64KB_S). GFX9 keeps the whole chain in one surface of
// one pitch: level 0 first, the smaller levels beside, below or (3D) behind
// it, the mip tail packed in one block; array slices one chain apart.
//
// The rules are addrlib's (Mesa src/amd/addrlib), read from its public source
// and written here in our own words and code; each rule names its function:
//   gfx9/gfx9addrlib.cpp  Gfx9Lib::HwlComputeSurfaceInfoTiled (chain pitch
//                         and height, slice size), Gfx9Lib::GetMipChainInfo
//                         (the first level in the tail), Gfx9Lib::GetMipStartPos
//                         (each level's block position and tail byte offset),
//                         Gfx9Lib::HwlComputeSurfaceAddrFromCoordTiled (the
//                         address: in-block offset OR tail offset, then the
//                         slice and pipe/bank XOR, plus the block index),
//                         Gfx9Lib::ValidateSwModeParams (256-byte modes take
//                         no mips), MipTailOffset256B (tail slot table)
//   gfx9/gfx9addrlib.h    Gfx9Lib::GetMajorMode, Gfx9Lib::IsInMipTail
//   core/addrlib2.cpp     Lib::GetMipTailDim (thin: half a block wide; thick:
//                         halved along log2(block) mod 3),
//                         Lib::ComputeThickBlockDimension
//   core/addrlib2.h       Lib::MaxMacroBits (20)
//   core/addrcommon.h     RoundHalf (x / 2 rounded up)
#include <algorithm>

#include "hw/hw_internal.hpp"

namespace swz::vendor {
namespace {

uint64_t round_half(uint64_t v) { return (v >> 1) + (v & 1); }

// MipTailOffset256B: the byte offset / 256 of each tail slot; a block of
// 2^n bytes starts at slot 20 - n (MaxMacroBits - log2 block size).
constexpr uint32_t kTailSlot256B[16] = {2048, 1024, 512, 256, 128, 64, 32, 16, 8, 6, 5, 4, 3, 2, 1, 0};

enum class Major { X, Y, Z };

// GetMipChainInfo: walk the chain from level 0's (unpadded) size; a level
// that is not in the tail is padded to whole blocks and the next level is
// half of the padded size (at least 1). The first level that fits the tail
// starts it.
uint32_t first_tail_level(const uint64_t e0[3], const uint64_t b[3], const uint64_t t[3], bool thick, uint32_t mips) {
  // IsInMipTail: width and height within the tail (and depth when thick).
  auto fits_tail = [&](const uint64_t* p) { return p[0] <= t[0] && p[1] <= t[1] && (!thick || p[2] <= t[2]); };
  uint32_t first_tail = mips;
  uint64_t p[3] = {e0[0], e0[1], e0[2]};
  for (uint32_t i = 0; i < mips; ++i) {
    if (fits_tail(p)) {
      first_tail = i;
      break;
    }
    for (int k = 0; k < 3; ++k) p[k] = std::max<uint64_t>(align_up(p[k], b[k]) >> 1, 1);
  }
  return first_tail;
}

// GetMipStartPos: from level 0, each step moves past the previous level
// (its size in blocks, halved with RoundHalf after each step): steps 1
// and 3 go along the minor axis (right of level 0 when Y-major, below it
// otherwise), the others along the major axis (Z-major: the next block
// slice). A step from a level small enough (thin: one block wide, at most
// two tall; thick, by log2(block) mod 3: 0: at most 2 x 1 x 2 blocks, 1:
// 1 x 2 x 2, 2: 2 x 2 x 1) reaches the tail: every later level shares
// that block position.
// pos: level m's block position; *tail_index_io (m on entry): its index in
// the tail; *in_tail_io (first_tail == 0 on entry): whether it is in it.
Status mip_start_pos(const std::string& fam, uint32_t m, uint32_t first_tail, Major major, bool thick, unsigned n,
                     uint64_t w0b, uint64_t h0b, uint64_t d0b, uint64_t pos[3], uint32_t* tail_index_io,
                     bool* in_tail_io) {
  uint64_t wb = w0b, hb = h0b, db = d0b;
  uint32_t& tail_index = *tail_index_io;
  bool& in_tail = *in_tail_io;
  for (uint32_t i = 1; i <= m && !in_tail; ++i) {
    const Major axis = (i == 1 || i == 3) ? (major == Major::Y ? Major::X : Major::Y) : major;
    if (axis == Major::X)
      pos[0] += wb;
    else if (axis == Major::Y)
      pos[1] += hb;
    else
      pos[2] += db;
    bool small;
    if (!thick)
      small = wb == 1 && hb <= 2;
    else if (n % 3 == 0)
      small = wb <= 2 && hb == 1 && db <= 2;
    else if (n % 3 == 1)
      small = wb == 1 && hb <= 2 && db <= 2;
    else
      small = wb <= 2 && hb <= 2 && db == 1;
    if (small) {
      in_tail = true;
      tail_index = m - i;
      if (i != first_tail)
        return {Code::internal, "layout '" + fam + "': GFX9 tail start disagrees (" + std::to_string(i) + " vs " +
                                    std::to_string(first_tail) + ")"};
    }
    wb = round_half(wb);
    hb = round_half(hb);
    db = round_half(db);
  }
  return Status::Ok();
}

}  // namespace

Status build_amd_gfx9_mips(const std::string& fam, const Pattern& pat, const TextureDesc& desc,
                           uint64_t slice_size_given, FamilyPlan* out) {
  const auto e = extents_log2(pat);
  const unsigned n = pat.block_bits();
  const uint64_t block_B = uint64_t{1} << n;
  const uint64_t eb = desc.format.element_bytes;
  // 3D surfaces in the standard and Z modes are "thick" (Gfx9Lib::HwlIsThick):
  // the block spans slices too (ComputeThickBlockDimension); 2D ones, and 3D
  // ones in the display modes, are thin (a thin 3D surface keeps one chain
  // per depth slice, like a 2D array).
  const bool is_3d = desc.dimension == Dimension::Texture3D;
  const bool thick = e[2] > 0;
  const uint64_t b[3] = {(uint64_t{1} << e[0]) / eb, uint64_t{1} << e[1],
                         uint64_t{1} << e[2]};  // elements, rows, slices
  // GFX9 blocks are 4 KiB or 64 KiB (an even log2, which the thin rules
  // below assume).
  if ((n != 12 && n != 16) || (thick && !is_3d))
    return {Code::internal, "layout '" + fam + "': GFX9 mip chain for a " + std::to_string(block_B) + "-byte block"};
  if (is_3d && slice_size_given)
    return {Code::invalid_argument, "layout '" + fam + "': slice_size = " + std::to_string(slice_size_given) +
                                        " applies to 2D arrays, not to a 3D surface"};
  const uint32_t mips = desc.mip_levels;
  const LevelDims L0 = level_dims(desc, 0);
  const uint64_t e0[3] = {L0.w_el, L0.h_el, thick ? L0.d : 1};
  // GetMipTailDim: the largest level in the tail. Thin: half a block wide.
  // Thick: the block halved along the axis given by log2(block) mod 3 (0:
  // height, 1: width, 2: depth).
  uint64_t t[3] = {b[0] / 2, b[1], b[2]};
  if (thick) {
    t[0] = b[0];
    t[n % 3 == 0 ? 1 : n % 3 == 1 ? 0 : 2] /= 2;
  }
  const uint32_t first_tail = first_tail_level(e0, b, t, thick, mips);
  // HwlComputeSurfaceInfoTiled: level 0 padded to whole blocks; with levels
  // after it the chain grows by level 1's size in blocks along the minor
  // axis: wider when Y-major, else taller (GetMajorMode: Y-major when level 0
  // is fewer blocks wide than tall, X-major otherwise; thick: Y or X only when
  // that side has at least as many blocks as the depth, else Z-major). One
  // block more when level 1 is a single block and the chain goes past level 2
  // (levels 2 and 3 then sit side by side).
  const uint64_t w0b = ceil_div(e0[0], b[0]), h0b = ceil_div(e0[1], b[1]), d0b = ceil_div(e0[2], b[2]);
  Major major = w0b < h0b ? Major::Y : Major::X;
  if (thick) {
    const bool y = w0b < h0b && h0b >= d0b, x = !(w0b < h0b) && w0b >= d0b;
    major = x ? Major::X : y ? Major::Y : Major::Z;
  }
  uint64_t chain_wb = w0b, chain_hb = h0b;
  if (first_tail > 0 && mips > 1) {
    const uint32_t ending = std::min(first_tail, mips - 1);
    uint64_t m1 = round_half(major == Major::Y ? w0b : h0b);
    if (m1 == 1 && ending > 2) ++m1;
    (major == Major::Y ? chain_wb : chain_hb) += m1;
  }
  const uint64_t chain_db = d0b;                   // mipChainSlice: level 0's depth in blocks
  uint64_t chain = chain_wb * chain_hb * block_B;  // sliceSize (one slice of blocks)
  SWZ_TRY(amd_take_slice_size(fam, slice_size_given, block_B, &chain));
  FamilyPlan plan;
  plan.patterns.push_back(pat);
  plan.levels.resize(mips);
  const uint64_t row_pitch = chain_wb * block_B;
  for (uint32_t m = 0; m < mips; ++m) {
    uint64_t pos[3] = {0, 0, 0};
    uint32_t tail_index = m;
    bool in_tail = first_tail == 0;
    SWZ_TRY(mip_start_pos(fam, m, first_tail, major, thick, n, w0b, h0b, d0b, pos, &tail_index, &in_tail));
    if (in_tail != (m >= first_tail))
      return {Code::internal, "layout '" + fam + "': GFX9 level " + std::to_string(m) + " tail membership disagrees"};
    // The level's blocks stay inside the chain.
    const LevelDims L = level_dims(desc, m);
    const uint64_t ext[3] = {in_tail ? 1 : ceil_div(uint64_t{L.w_el}, b[0]),
                             in_tail ? 1 : ceil_div(uint64_t{L.h_el}, b[1]),
                             in_tail ? 1 : ceil_div(uint64_t{thick ? L.d : 1u}, b[2])};
    if (pos[0] + ext[0] > chain_wb || pos[1] + ext[1] > chain_hb || pos[2] + ext[2] > chain_db)
      return {Code::internal, "layout '" + fam + "': GFX9 level " + std::to_string(m) + " placed outside the chain"};
    LevelPlan& lp = plan.levels[m];
    lp.offset = ((pos[2] * chain_hb + pos[1]) * chain_wb + pos[0]) * block_B;
    lp.row_pitch = row_pitch;
    lp.depth_pitch_B = thick ? chain_hb * row_pitch : chain;
    lp.size = ext[1] * row_pitch;
    if (in_tail) {
      // HwlComputeSurfaceAddrFromCoordTiled: the tail slot's byte offset is
      // ORed into the level's in-block offset before the slice and pipe/bank
      // XOR are applied, so it reaches the equation as an XOR constant (it
      // never overlaps the level's own bits): a pattern whose immediate is the
      // slot offset XOR the pipe/bank XOR. The level's coordinates start at 0.
      const uint32_t slot = tail_index + 20 - n;
      if (slot >= 16)
        return {Code::unsupported, "layout '" + fam + "': mip_levels = " + std::to_string(mips) + ": level " +
                                       std::to_string(m) + " falls past addrlib's mip-tail slot table"};
      Pattern tp = pat;
      tp.immediate ^= kTailSlot256B[slot] << 8;
      plan.patterns.push_back(tp);
      lp.slot = static_cast<int>(plan.patterns.size() - 1);
      lp.size = block_B;
    }
  }
  plan.levels_are_separate = false;
  if (thick) {
    // One 3D surface: blocks of the chain, chain_db slices of blocks deep.
    plan.arrays = Arrays::Stacked;
    plan.layer_stride_B = chain * chain_db;
    plan.total_size = chain * chain_db * desc.array_size;
  } else if (is_3d) {
    // Thin 3D: depth slice z one chain (sliceSize) after slice z - 1.
    plan.arrays = Arrays::Stacked;
    plan.layer_stride_B = chain * L0.d;
    plan.total_size = plan.layer_stride_B * desc.array_size;
  } else {
    plan.arrays = Arrays::ZSlice;
    plan.layer_stride_B = chain;
    plan.total_size = chain * desc.array_size;
  }
  const char* major_name = major == Major::X ? "X" : major == Major::Y ? "Y" : "Z";
  plan.notes.push_back("GFX9 chain " + std::to_string(chain_wb) + "x" + std::to_string(chain_hb) +
                       (thick ? std::string("x") + std::to_string(chain_db) : std::string()) + " blocks (" + major_name + "-major)" +
                       (first_tail < mips ? ", mip tail from level " + std::to_string(first_tail) : ", no mip tail"));
  // Addr2ComputeSurfaceInfo's report (HwlComputeSurfaceInfoTiled): pitch and
  // height of level 0 padded to the block, mipChainPitch / mipChainHeight the
  // chain's, numSlices padded to the block depth (thick), sliceSize = one
  // slice of the chain, surfSize = sliceSize x numSlices; baseAlign: the block
  // size in XOR modes, else 256 (ComputeSurfaceBaseAlignTiled).
  // The whole chain in the tail (mipChainInTail): pitch and height are the
  // largest tail level's (GetMipTailDim); the chain's stay one block.
  const bool chain_in_tail = first_tail == 0 && mips > 1;
  plan.has_amd_info = true;
  plan.amd_info = amd_surface_report(chain_in_tail ? t[0] : w0b * b[0], chain_in_tail ? t[1] : h0b * b[1], b[0], b[1],
                                     thick ? b[2] : 1, thick ? chain_db * b[2] : is_3d ? L0.d : desc.array_size,
                                     chain, amd_xor_mode(fam) ? block_B : 256, first_tail);
  plan.amd_info.chain_pitch_el = chain_wb * b[0];
  plan.amd_info.chain_height_el = chain_hb * b[1];
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace swz::vendor
