// Intel image alignment as isl picks it (src/hw/families.cpp build_intel):
// Mesa src/intel/isl/isl_gfx8.c, isl_gfx9.c, isl_gfx12.c
// (isl_gfx*_choose_image_alignment_el) and isl.c
// (isl_calc_phys_slice0_extent_sa_gfx4_2d: single-level surfaces are not
// padded to the alignment, so narrow explicit pitches are valid). Level 2 of
// a mip chain sits right of level 1 (MIPLAYOUT_BELOW), so its X origin is
// level 1's width aligned to HALIGN.
#include <gtest/gtest.h>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::tex2d;

namespace {

Layout named(const std::string& spec, const TextureDesc& d) {
  Layout L;
  Status st = make_named_layout(spec, d, &L);
  EXPECT_TRUE(st.ok()) << spec << ": " << st.message();
  return L;
}

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
  EXPECT_EQ(make_named_layout("intel-tiley:pitch=128", tex2d("R32G32B32A32_UINT", 1, 128, 2), &bad).code(), Code::invalid_argument);
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
