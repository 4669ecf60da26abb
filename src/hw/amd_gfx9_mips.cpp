// AMD GFX9 mip chains of 2D thin surfaces (SW_4KB_*, SW_64KB_* and their _X /
// _T forms), as addrlib places them. GFX9 keeps the whole chain in one
// surface of one pitch: level 0 first, the smaller levels beside or below it,
// the mip tail packed in one block; array slices one chain apart.
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
//   core/addrlib2.cpp     Lib::GetMipTailDim (thin: half a block wide)
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

}  // namespace

Status build_amd_gfx9_mips(const std::string& fam, const Pattern& pat, const TextureDesc& desc,
                           uint64_t slice_size_given, FamilyPlan* out) {
  const auto e = extents_log2(pat);
  const unsigned n = pat.block_bits();
  const uint64_t block_B = uint64_t{1} << n;
  const uint64_t eb = desc.format.element_bytes;
  const uint64_t bw = (uint64_t{1} << e[0]) / eb, bh = uint64_t{1} << e[1];  // block in elements x rows
  // GFX9 blocks are 4 KiB or 64 KiB: an even log2, which every rule below
  // assumes (GetMipTailDim halves the width, GetMipStartPos's even-size test).
  if (n != 12 && n != 16)
    return {Code::internal, "layout '" + fam + "': GFX9 mip chain for a " + std::to_string(block_B) + "-byte block"};
  const uint32_t mips = desc.mip_levels;
  const LevelDims L0 = level_dims(desc, 0);
  // GetMipTailDim (thin): the largest level in the tail is half a block wide
  // and a block tall.
  const uint64_t tail_w = bw / 2, tail_h = bh;
  // GetMipChainInfo: walk the chain from level 0's (unpadded) size; a level
  // that is not in the tail is padded to whole blocks and the next level is
  // half of the padded size (at least 1). The first level within the tail
  // dimensions (IsInMipTail, thin) starts the tail.
  uint32_t first_tail = mips;
  {
    uint64_t p = L0.w_el, h = L0.h_el;
    for (uint32_t i = 0; i < mips; ++i) {
      if (p <= tail_w && h <= tail_h) {
        first_tail = i;
        break;
      }
      p = std::max<uint64_t>(align_up(p, bw) >> 1, 1);
      h = std::max<uint64_t>(align_up(h, bh) >> 1, 1);
    }
  }
  // HwlComputeSurfaceInfoTiled: level 0 padded to whole blocks; with more
  // levels after it the chain grows by level 1's size in blocks along the
  // minor axis (GetMajorMode: Y-major when level 0 is fewer blocks wide than
  // tall, else X-major), one block more when that is a single block and the
  // chain goes past level 2 (levels 2 and 3 then sit side by side).
  const uint64_t w0b = align_up(uint64_t{L0.w_el}, bw) / bw, h0b = align_up(uint64_t{L0.h_el}, bh) / bh;
  const bool y_major = w0b < h0b;
  uint64_t chain_wb = w0b, chain_hb = h0b;
  if (first_tail > 0 && mips > 1) {
    const uint32_t ending = std::min(first_tail, mips - 1);
    uint64_t m1 = round_half(y_major ? w0b : h0b);
    if (m1 == 1 && ending > 2) ++m1;
    (y_major ? chain_wb : chain_hb) += m1;
  }
  uint64_t chain = chain_wb * chain_hb * block_B;  // sliceSize
  if (slice_size_given) {
    if (slice_size_given < chain || slice_size_given % block_B)
      return {Code::invalid_argument, "layout '" + fam + "': slice_size = " + std::to_string(slice_size_given) +
                                          " (at least the mip chain's " + std::to_string(chain) +
                                          " and a multiple of the block size " + std::to_string(block_B) + ")"};
    chain = slice_size_given;
  }
  FamilyPlan plan;
  plan.patterns.push_back(pat);
  plan.arrays = Arrays::ZSlice;
  plan.levels.resize(mips);
  const uint64_t row_pitch = chain_wb * block_B;
  for (uint32_t m = 0; m < mips; ++m) {
    // GetMipStartPos: from level 0, each step moves past the previous level
    // (its size in blocks, halved with RoundHalf after each step): steps 1
    // and 3 go along the minor axis (right of level 0 when Y-major, below it
    // when X-major), the others along the major axis. A step from a level one
    // block wide and at most two tall (even-log2 block) reaches the tail: every
    // later level shares that block position.
    uint64_t px = 0, py = 0, wb = w0b, hb = h0b;
    uint32_t tail_index = 0;
    bool in_tail = first_tail == 0;
    if (in_tail) tail_index = m;
    for (uint32_t i = 1; i <= m && !in_tail; ++i) {
      const bool minor_step = i == 1 || i == 3;
      if (minor_step == y_major)
        px += wb;
      else
        py += hb;
      if (wb == 1 && hb <= 2) {
        in_tail = true;
        tail_index = m - i;
        if (i != first_tail)
          return {Code::internal, "layout '" + fam + "': GFX9 tail start disagrees (" + std::to_string(i) + " vs " +
                                      std::to_string(first_tail) + ")"};
      }
      wb = round_half(wb);
      hb = round_half(hb);
    }
    if (in_tail != (m >= first_tail))
      return {Code::internal, "layout '" + fam + "': GFX9 level " + std::to_string(m) + " tail membership disagrees"};
    if (px >= chain_wb || py >= chain_hb)
      return {Code::internal, "layout '" + fam + "': GFX9 level " + std::to_string(m) + " placed outside the chain"};
    LevelPlan& lp = plan.levels[m];
    lp.offset = (py * chain_wb + px) * block_B;
    lp.row_pitch = row_pitch;
    lp.depth_pitch_B = chain;
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
    } else {
      const LevelDims L = level_dims(desc, m);
      lp.size = ceil_div(uint64_t{L.h_el}, bh) * row_pitch;
    }
  }
  plan.layer_stride_B = chain;
  plan.levels_are_separate = false;
  plan.total_size = chain * desc.array_size;
  plan.notes.push_back("GFX9 chain " + std::to_string(chain_wb) + "x" + std::to_string(chain_hb) + " blocks (" +
                       (y_major ? "Y" : "X") + "-major)" +
                       (first_tail < mips ? ", mip tail from level " + std::to_string(first_tail) : ", no mip tail"));
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace swz::vendor
