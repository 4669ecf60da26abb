// AMD GFX10 / GFX10.3 mip chains (src/hw/amd_mips.cpp). The vector is
// derived by hand from Mesa's addrlib source, Gfx10Lib::ComputeSurfaceInfoMacroTiled
// (steps written out below); addresses are checked against addrlib's address
// rule (ComputeSurfaceAddrFromCoordMacroTiled: slice * slice size + level
// offset + block index * block bytes + (equation(x + tail x, y + tail y,
// slice) ^ pipe/bank XOR)) with the equation taken from the single-level
// layout of the same mode.
#include <gtest/gtest.h>

#include <random>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::named;
using swz_test::tex2d;

namespace {}  // namespace

// RGBA8 300x200, 9 levels, GFX10 SW_64KB_S_X (16 pipes): 128x128-element
// blocks; the tail holds levels up to 64x128 (GetMipTailDim: half a block
// wide) and at most 16 - 4 = 12 levels (GetMaxNumMipsInTail).
// Level sizes round up (GetMipSize, ShiftCeil): 300x200, 150x100, 75x50,
// 38x25 -> level 3 is the first in the tail.
// Pitches/heights: 384x256 (393216 B), 256x128 (131072 B), 128x128 (65536 B);
// slice = 393216 + 131072 + 65536 + 65536 (tail block) = 655360.
// Offsets: tail block at 0, then level 2 at 65536, level 1 at 131072, level 0
// at 262144. Tail slots m = 11, 10, ..., 6 for levels 3..8: byte offsets
// 32768, 16384, 8192, 4096, 2048, 1536 -> (odd bits from 9, even bits from 8)
// micro-block (x, y) = (8,0) (0,8) (4,0) (0,4) (2,0) (1,2) -> x 8 elements
// and y 8 rows each: (64,0) (0,64) (32,0) (0,32) (16,0) (8,16).
TEST(AmdMips, Gfx10ChainDerivedFromAddrlib) {
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 300, 200, 9, 2);
  Layout L = named("amd-gfx10-sw64k-s-x:pipes=16", d);
  const uint64_t off[9] = {262144, 131072, 65536, 0, 0, 0, 0, 0, 0};
  const uint64_t ox[9] = {0, 0, 0, 64, 0, 32, 0, 16, 8}, oy[9] = {0, 0, 0, 0, 64, 0, 32, 0, 16};
  const uint64_t row[9] = {3 * 65536, 2 * 65536, 65536, 65536, 65536, 65536, 65536, 65536, 65536};
  for (uint32_t m = 0; m < 9; ++m) {
    EXPECT_EQ(L.sub(m).offset, off[m]) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[0], ox[m] * 4) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[1], oy[m]) << m;
    EXPECT_EQ(L.sub(m).row_pitch, row[m]) << m;
    EXPECT_EQ(L.sub(m + 9).pre_swizzle[2], 1u) << m;  // slice 1: Z = 1 into the equation
    EXPECT_EQ(L.sub(m + 9).depth_pitch_B, 655360u) << m;
  }
  EXPECT_EQ(L.size(), 2 * 655360u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// The address rule against the single-level equation, over random sizes,
// modes, arrays and pbxor; byte claims; round trips.
TEST(AmdMips, Gfx10AddressRuleAndRoundTrips) {
  std::mt19937 rng(10);
  const char* specs[] = {"amd-gfx10-sw64k-s-x:pipes=16",
                         "amd-gfx10-sw4k-s:pipes=16",
                         "amd-gfx10-sw64k-r-x:pipes=16,pbxor=5",
                         "amd-gfx10.3-sw64k-r-x:pipes=8",
                         "amd-gfx10.3-sw256k-z-x:pipes=16,pbxor=9",
                         "amd-gfx10.3-sw256k-r-x:pipes=8",
                         "amd-gfx10-sw64k-d-t:pipes=16",
                         "amd-gfx10.3-sw4k-d-x:pipes=8",
                         "amd-gfx11-sw64k-r-x:pipes=32,pbxor=7",
                         "amd-gfx11-sw256k-d-x:pipes=8",
                         "amd-gfx11-sw4k-d-x:pipes=32"};
  for (int it = 0; it < 33; ++it) {
    const std::string spec = specs[it % 11];
    const uint32_t w = 1 + rng() % 700, h = 1 + rng() % 300, arr = 1 + rng() % 3;
    const uint32_t mips = 1 + rng() % full_mip_count(w, h, 1);
    TextureDesc d = tex2d("R8G8B8A8_UNORM", w, h, mips, arr);
    Layout L = named(spec, d);
    const std::string what = spec + " " + std::to_string(w) + "x" + std::to_string(h) + " mips " + std::to_string(mips);
    const Pattern& p = L.patterns()[0];
    const uint64_t bw = p.block_extent()[0] / 4, bh = p.block_extent()[1], bb = uint64_t{1} << p.block_bits();
    // A single-level surface of the same mode and pbxor covering every
    // coordinate used (XOR terms may read coordinate bits above the block):
    // its address minus slice and block index is the equation of (x, y, z).
    const uint32_t ow = static_cast<uint32_t>((w + 2 * bw - 1) / bw * bw),
                   oh = static_cast<uint32_t>((h + 2 * bh - 1) / bh * bh);
    Layout one = named(spec, tex2d("R8G8B8A8_UNORM", ow, oh, 1, 4));
    auto equation = [&](uint64_t x, uint64_t y, uint32_t z) {
      uint64_t o = 0;
      EXPECT_TRUE(element_offset(one, z, static_cast<uint32_t>(x), static_cast<uint32_t>(y), 0, 0, &o).ok());
      return o - z * one.sub(z).depth_pitch_B - ((y / bh) * (ow / bw) + x / bw) * bb;
    };
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const SubresourceLayout& s = L.sub(i);
      const uint64_t pb = s.row_pitch / bb, ox = s.pre_swizzle[0] / 4, oy = s.pre_swizzle[1], slice = s.array_slice;
      for (uint32_t y = 0; y < s.height_el; y += 1 + s.height_el / 7)
        for (uint32_t x = 0; x < s.width_el; x += 1 + s.width_el / 7) {
          uint64_t got;
          ASSERT_TRUE(element_offset(L, i, x, y, 0, 0, &got).ok());
          const uint64_t blk = ((y + oy) / bh) * pb + (x + ox) / bw;
          const uint64_t want =
              s.offset + slice * s.depth_pitch_B + blk * bb + equation(x + ox, y + oy, static_cast<uint32_t>(slice));
          ASSERT_EQ(got, want) << what << " sub " << i << " at " << x << "," << y;
        }
    }
    ASSERT_TRUE(swz_test::claim_bytes(L)) << what;
    swz_test::round_trip_all(L, it);
  }
}

TEST(AmdMips, RefusalsAndOverrides) {
  Layout bad;
  // pitch= belongs to single-level surfaces.
  EXPECT_EQ(make_named_layout("amd-gfx10-sw64k-s-x:pitch=512", tex2d("R8G8B8A8_UNORM", 300, 200, 3), &bad).code(),
            Code::invalid_argument);
  // GFX12 chains still need offsets= (GFX9: test_hw_amd_gfx9_mips.cpp).
  EXPECT_EQ(make_named_layout("amd-gfx12-sw64k-2d", tex2d("R8G8B8A8_UNORM", 300, 200, 3), &bad).code(),
            Code::unsupported);
  // pitches= without offsets= on GFX9-GFX11: the refusal names pitches=, not
  // the generation (GFX12).
  for (const char* spec : {"amd-gfx9-sw64k-s:pitches=64/64", "amd-gfx10-sw64k-s-x:pitches=384/256"}) {
    const Status st = make_named_layout(spec, tex2d("R8G8B8A8_UNORM", 300, 200, 2), &bad);
    EXPECT_FALSE(st.ok()) << spec;
    EXPECT_EQ(st.message().find("GFX12"), std::string::npos) << spec << ": " << st.message();
    EXPECT_NE(st.message().find("pitches="), std::string::npos) << spec << ": " << st.message();
  }
  // A small texture lives in the tail entirely (mipChainInTail): RGBA8 64x64
  // in a 64 KiB block (tail: 64x128, 12 levels): level 0 at slot 11 (x 64),
  // level 1 at slot 10 (y 64), level 2 at slot 9 (x 32).
  Layout T = named("amd-gfx11-sw64k-r-x", tex2d("R8G8B8A8_UNORM", 64, 64, 3));
  EXPECT_EQ(T.size(), 65536u);
  EXPECT_EQ(T.sub(0).pre_swizzle[0], 64u * 4);
  EXPECT_EQ(T.sub(1).pre_swizzle[1], 64u);
  EXPECT_EQ(T.sub(2).pre_swizzle[0], 32u * 4);
  EXPECT_TRUE(swz_test::claim_bytes(T));
  // offsets= with pitches= still replaces the chain.
  Layout O = named("amd-gfx10-sw64k-s-x:offsets=0/0x80000,pitches=384/256", tex2d("R8G8B8A8_UNORM", 300, 200, 2));
  EXPECT_EQ(O.sub(1).offset, 0x80000u);
  // slice_size= pads the chain's slice.
  Layout S = named("amd-gfx10-sw64k-s-x:slice_size=0x100000", tex2d("R8G8B8A8_UNORM", 300, 200, 9, 2));
  EXPECT_EQ(S.sub(9).depth_pitch_B, 0x100000u);
}

// addrlib Gfx10Lib IsInMipTail / GetMipTailDim: a thin level is in the mip
// tail when it is at most half a block wide and at most a block tall (the
// 64 KB block of 4-byte elements is 128 x 128). A 64 x 128 texture is all in
// the tail from level 0: one block. One texel more on either side puts level
// 0 outside the tail: more than one block.
TEST(AmdMips, Gfx10TailLimitsAtTheirEdges) {
  const struct {
    uint32_t w, h;
    bool one_block;
  } v[] = {{64, 128, true}, {64, 127, true}, {63, 128, true}, {65, 128, false}, {64, 129, false}};
  for (const auto& c : v) {
    Layout L = named("amd-gfx10-sw64k-s", tex2d("R8G8B8A8_UNORM", c.w, c.h, 2));
    if (c.one_block)
      EXPECT_EQ(L.size(), 65536u) << c.w << "x" << c.h;
    else
      EXPECT_GT(L.size(), 65536u) << c.w << "x" << c.h;
  }
}
