// Arm Mali u-interleaved whole resources (src/hw/mali.cpp, Panfrost
// pan_layout.c pan_image_layout_init). Vectors from Panfrost's own layout
// tests (Mesa src/panfrost/lib/tests/test-layout.cpp); 3D and arrays checked
// element by element against pan_tiling.c's u-interleaved index, with byte
// claims and round trips.
#include <gtest/gtest.h>

#include <random>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::named;
using swz_test::tex2d;
using swz_test::tex3d;

namespace {

// pan_tiling.c: inside a t x t tile, index bit 2i = x_i ^ y_i, bit 2i+1 = y_i;
// tiles row-major over the padded width.
uint64_t u_interleaved(uint32_t x, uint32_t y, uint32_t t, uint64_t tiles_per_row, uint32_t bpb) {
  uint64_t idx = 0;
  for (uint32_t i = 0; (1u << i) < t; ++i)
    idx |= uint64_t(((x >> i) ^ (y >> i)) & 1) << (2 * i) | uint64_t((y >> i) & 1) << (2 * i + 1);
  return ((y / t) * tiles_per_row + x / t) * t * t * bpb + idx * bpb;
}

}  // namespace

// test-layout.cpp Layout.ImplicitLayoutInterleavedETC2: ETC2_RGB8 (8-byte 4x4
// blocks, like BC1) 128x128, 8 levels: offsets 0, 8192, 10240, 10752, 10880,
// 11008, 11136, 11264 (levels of one 4x4-block tile take 128 bytes).
TEST(MaliLayout, PanfrostEtc2MipChain) {
  Layout L = named("mali-u-interleaved", tex2d("BC1_UNORM", 128, 128, 8));
  const uint64_t off[8] = {0, 8192, 10240, 10752, 10880, 11008, 11136, 11264};
  for (uint32_t m = 0; m < 8; ++m) EXPECT_EQ(L.sub(m).offset, off[m]) << m;
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// test-layout.cpp Layout.ImplicitLayoutInterleavedASTC5x5: a 10x10 grid of
// 16-byte blocks padded to 12x12: row stride 768 (12 x 16 x 4 rows), surface
// stride 2304. ASTC 5x5 is not a DXGI format; BC7 40x40 has the same grid.
TEST(MaliLayout, PanfrostAstcBlockGrid) {
  Layout L = named("mali-u-interleaved", tex2d("BC7_UNORM", 40, 40));
  EXPECT_EQ(L.sub(0).row_pitch, 768u);
  EXPECT_EQ(L.sub(0).size, 2304u);
}

// 3D: slices one surface stride (the level's padded rows) apart; levels on
// 64 bytes; 2D arrays repeat the chain at a 64-byte aligned stride; the data
// size is rounded to 4 KiB (pan_image_layout_init).
TEST(MaliLayout, ThreeDAndArrays) {
  Layout V = named("mali-u-interleaved", tex3d("R8G8B8A8_UNORM", 40, 20, 5, 3));
  // Level 0: 48 x 32 texels padded: row stride 4 x 48 x 16 = 3072, surface
  // stride 6144, 5 slices = 30720. Level 1: 20x10x2 -> 32 x 16: 2048 x 2.
  EXPECT_EQ(V.sub(0).depth_pitch_B, 6144u);
  EXPECT_EQ(V.sub(1).offset, 30720u);
  EXPECT_EQ(V.sub(1).depth_pitch_B, 2048u);
  EXPECT_EQ(V.sub(2).offset, 30720u + 4096);
  EXPECT_EQ(V.size(), 36864u);  // 30720 + 4096 + 1024 (10x5x1 -> 16x16) = 35840 -> 4 KiB
  Layout A = named("mali-u-interleaved", tex2d("R8_UNORM", 20, 20, 2, 3));
  // Level 0: 32 x 32 = 1024; level 1: 16 x 16 = 256; layer stride 1280.
  EXPECT_EQ(A.sub(2).offset, 1280u);
  EXPECT_EQ(A.size(), 4096u);
  // crc: 8 bytes per 16x16 tile over 32x32 regions after each level.
  Layout C = named("mali-u-interleaved:crc", tex2d("R8_UNORM", 20, 20, 2));
  EXPECT_EQ(C.sub(1).offset, 1088u);  // 1024 + 2 x 2 x 8 = 1056, aligned to 64
}

TEST(MaliLayout, RandomWholeResources) {
  std::mt19937 rng(7);
  const char* fmts[] = {"R8_UNORM",           "R16_UINT",  "R8G8B8A8_UNORM", "R16G16B16A16_UNORM",
                        "R32G32B32A32_FLOAT", "BC1_UNORM", "BC7_UNORM"};
  for (int iter = 0; iter < 50; ++iter) {
    const char* f = fmts[rng() % 7];
    const bool is3d = rng() % 2 == 0;
    const uint32_t w = 1 + rng() % 150, h = 1 + rng() % 90, dep = 1 + rng() % 7;
    const uint32_t mips = 1 + rng() % full_mip_count(w, h, is3d ? dep : 1);
    TextureDesc d = is3d ? tex3d(f, w, h, dep, mips) : tex2d(f, w, h, mips, 1 + rng() % 3);
    Layout L = named(rng() % 3 ? "mali-u-interleaved" : "mali-u-interleaved:crc", d);
    const std::string what = std::string(f) + " " + std::to_string(w) + "x" + std::to_string(h) +
                             (is3d ? "x" + std::to_string(dep) : "") + " mips " + std::to_string(mips);
    const uint32_t t = d.format.block_compressed() ? 4 : 16;
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const SubresourceLayout& s = L.sub(i);
      const uint64_t tiles_per_row = (s.width_el + t - 1) / t;
      for (uint32_t z = 0; z < s.depth; ++z)
        for (uint32_t y = 0; y < s.height_el; y += 1 + s.height_el / 13)
          for (uint32_t x = 0; x < s.width_el; x += 1 + s.width_el / 13) {
            uint64_t off;
            ASSERT_TRUE(element_offset(L, i, x, y, z, 0, &off).ok());
            ASSERT_EQ(off, s.offset + z * s.depth_pitch_B + u_interleaved(x, y, t, tiles_per_row, s.element_bytes))
                << what << " sub " << i;
          }
      EXPECT_EQ(s.offset % 64, 0u) << what;
    }
    ASSERT_TRUE(swz_test::claim_bytes(L)) << what;
    swz_test::round_trip_all(L, iter);
  }
}

// Huge pitches and offsets are refused by name, not wrapped (all three
// families of src/hw/adreno.cpp, xbox360.cpp, mali.cpp).
TEST(MaliLayout, HugeParametersAreRefusedByName) {
  for (const char* spec : {"mali-u-interleaved:pitch=0x4000000000000000", "adreno-a6xx:pitch=0x4000000000000000",
                           "adreno-a6xx:stride=0x4000000000000000", "xbox360-tiled:pitch=0x4000000000000000",
                           "xbox360-tiled:mip_offset=0xfffffffffffff000"}) {
    Layout L;
    Status st = make_named_layout(spec, tex2d("R8G8B8A8_UNORM", 64, 64, 2), &L);
    EXPECT_EQ(st.code(), Code::invalid_argument) << spec;
    EXPECT_NE(st.message().find("too large"), std::string::npos) << spec << ": " << st.message();
  }
}
