// Intel image alignment as isl picks it (src/hw/families.cpp build_intel):
// Mesa src/intel/isl/isl_gfx8.c, isl_gfx9.c, isl_gfx12.c
// (isl_gfx*_choose_image_alignment_el) and isl.c
// (isl_calc_phys_slice0_extent_sa_gfx4_2d: single-level surfaces are not
// padded to the alignment, so narrow explicit pitches are valid). Level 2 of
// a mip chain sits right of level 1 (MIPLAYOUT_BELOW), so its X origin is
// level 1's width aligned to HALIGN.
#include <gtest/gtest.h>

#include <algorithm>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::named;
using swz_test::tex2d;

namespace {

// X origin of level 2 in elements.
uint64_t level2_x_el(const std::string& spec, const char* format, uint32_t w, uint32_t h) {
  Layout L = named(spec, tex2d(format, w, h, 3));
  if (L.subresource_count() < 3) return 0;
  return L.sub(2).pre_swizzle[0] / L.sub(2).element_bytes;
}

}  // namespace

// The case: a 1x128 R32G32B32A32_UINT surface with a 128-byte pitch.
TEST(IntelAlign, NarrowExplicitPitchOfASingleLevel) {
  Layout L = named("intel-tiley:pitch=128", tex2d("R32G32B32A32_UINT", 1, 128));
  EXPECT_EQ(L.sub(0).row_pitch, 128u * 32);  // one TileY (128 B x 32 rows) across
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
  // Arrays of single levels: slices QPitch = align(128, VALIGN 4) rows apart.
  Layout A = named("intel-tiley:pitch=128", tex2d("R32G32B32A32_UINT", 1, 130, 1, 2));
  EXPECT_EQ(A.sub(1).pre_swizzle[1], 132u);
  swz_test::round_trip_all(A);
  // A mip chain pads level 0 to HALIGN 16: 16 x 16 bytes = 256 > 128.
  Layout bad;
  EXPECT_EQ(make_named_layout("intel-tiley:pitch=128", tex2d("R32G32B32A32_UINT", 1, 128, 2), &bad).code(),
            Code::invalid_argument);
}

// Level 1 of 100x60 is 50 elements wide.
TEST(IntelAlign, HalignAsIslPicksIt) {
  // TileY color: HALIGN 16 (CCS possible), 4 with aux=0, 8 on Gen11+ for 4-byte elements.
  EXPECT_EQ(level2_x_el("intel-tiley", "R8G8B8A8_UNORM", 100, 60), 64u);
  EXPECT_EQ(level2_x_el("intel-tiley:aux=0", "R8G8B8A8_UNORM", 100, 60), 52u);
  EXPECT_EQ(level2_x_el("intel-tiley:aux=0,gen=11", "R8G8B8A8_UNORM", 100, 60), 56u);
  EXPECT_EQ(level2_x_el("intel-tiley:aux=0,gen=11", "R16G16B16A16_UNORM", 100, 60), 52u);
  // Tile4 (isl_gfx125): 128 bytes with CCS, else 32 bytes (64 for 8/16-byte elements).
  EXPECT_EQ(level2_x_el("intel-tile4", "R8G8B8A8_UNORM", 100, 60), 64u);
  EXPECT_EQ(level2_x_el("intel-tile4:aux=0", "R8G8B8A8_UNORM", 100, 60), 56u);
  EXPECT_EQ(level2_x_el("intel-tile4:aux=0", "R16G16B16A16_UNORM", 100, 60), 56u);
  // Block-compressed: 4x4 blocks on Gen9+ (24 px = 6 blocks, level 1 3 -> 4),
  // 64 bytes (8 BC1 blocks) on Tile4.
  EXPECT_EQ(level2_x_el("intel-tiley", "BC1_UNORM", 24, 24), 4u);
  EXPECT_EQ(level2_x_el("intel-tile4", "BC1_UNORM", 24, 24), 8u);
  // Depth: 4x4 (D16 8x4) on Gen9-11, 8x4 (D16 8x8) on Gen12 and Tile4.
  EXPECT_EQ(level2_x_el("intel-tiley", "D32_FLOAT", 100, 60), 52u);
  EXPECT_EQ(level2_x_el("intel-tiley:gen=12", "D32_FLOAT", 100, 60), 56u);
  EXPECT_EQ(level2_x_el("intel-tiley", "D16_UNORM", 100, 60), 56u);
  // Explicit halign= still wins.
  EXPECT_EQ(level2_x_el("intel-tiley:halign=4", "R8G8B8A8_UNORM", 100, 60), 52u);
  for (const char* spec : {"intel-tiley:aux=0", "intel-tile4", "intel-tilex:aux=0,gen=12"}) {
    Layout L = named(spec, tex2d("R8G8B8A8_UNORM", 100, 60, 4, 2));
    EXPECT_TRUE(swz_test::claim_bytes(L)) << spec;
    swz_test::round_trip_all(L);
  }
}

// Tile64 2D mip tails (isl.c isl_choose_miptail_start_level,
// isl_get_miptail_level_offset_el): the tail starts at the first level no
// larger than the space beside slot 0 (half a tile wide, a tile tall); every
// later level shares its tile, at isl's icl_std_y_2d_miptail_offset_el slot
// origin (rows 0..14, columns 128/64/32/16/8 bpb), copied here as data from
// Mesa src/intel/isl/isl.c.
TEST(IntelAlign, Tile64MipTail) {
  static const uint8_t icl[15][5][2] = {
      {{32, 0}, {64, 0}, {64, 0}, {128, 0}, {128, 0}}, {{0, 32}, {0, 32}, {0, 64}, {0, 64}, {0, 128}},
      {{16, 0}, {32, 0}, {32, 0}, {64, 0}, {64, 0}},   {{0, 16}, {0, 16}, {0, 32}, {0, 32}, {0, 64}},
      {{8, 0}, {16, 0}, {16, 0}, {32, 0}, {32, 0}},    {{4, 8}, {8, 8}, {8, 16}, {16, 16}, {16, 32}},
      {{0, 12}, {0, 12}, {0, 24}, {0, 24}, {0, 48}},   {{0, 8}, {0, 8}, {0, 16}, {0, 16}, {0, 32}},
      {{4, 4}, {8, 4}, {8, 8}, {16, 8}, {16, 16}},     {{4, 0}, {8, 0}, {8, 0}, {16, 0}, {16, 0}},
      {{0, 4}, {0, 4}, {0, 8}, {0, 8}, {0, 16}},       {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
      {{1, 0}, {2, 0}, {0, 4}, {0, 4}, {0, 4}},        {{2, 0}, {4, 0}, {4, 0}, {8, 0}, {0, 8}},
      {{3, 0}, {6, 0}, {4, 4}, {8, 4}, {0, 12}}};
  const char* fmts[] = {"R8_UNORM", "R16_UINT", "R8G8B8A8_UNORM", "R16G16B16A16_UNORM", "R32G32B32A32_FLOAT"};
  for (const char* f : fmts) {
    TextureDesc d = tex2d(f, 512, 300, full_mip_count(512, 300, 1));
    Layout L = named("intel-tile64", d);
    const Pattern& p = L.patterns()[0];
    const uint32_t eb = d.format.element_bytes;
    const uint32_t col = eb == 16 ? 0 : eb == 8 ? 1 : eb == 4 ? 2 : eb == 2 ? 3 : 4;
    const uint64_t tw = p.block_extent()[0] / eb, th = p.block_extent()[1];
    uint32_t tail = 0;
    while (tail + 1 < d.mip_levels && !((512u >> tail) <= tw / 2 && std::max(1u, 300u >> tail) <= th)) ++tail;
    ASSERT_LT(tail, d.mip_levels) << f;
    const SubresourceLayout& t0 = L.sub(tail);
    for (uint32_t m = tail; m < d.mip_levels; ++m) {
      const SubresourceLayout& s = L.sub(m);
      EXPECT_EQ(s.pre_swizzle[0] / eb - (t0.pre_swizzle[0] / eb - icl[0][col][0]), icl[m - tail][col][0])
          << f << " mip " << m;
      EXPECT_EQ(s.pre_swizzle[1] - (t0.pre_swizzle[1] - icl[0][col][1]), icl[m - tail][col][1]) << f << " mip " << m;
      uint64_t a, b;
      ASSERT_TRUE(element_offset(L, tail, 0, 0, 0, 0, &a).ok());
      ASSERT_TRUE(element_offset(L, m, 0, 0, 0, 0, &b).ok());
      EXPECT_EQ(a >> 16, b >> 16) << f << " mip " << m << " leaves the tail tile";
    }
    EXPECT_TRUE(swz_test::claim_bytes(L)) << f;
    swz_test::round_trip_all(L);
  }
}
