// Xbox 360 whole resources (src/hw/xbox360.cpp). Vectors derived by hand from
// Xenia's src/xenia/gpu/texture_util.cc (GetGuestTextureLayout,
// GetPackedMipOffset) and texture_util.h (GetPackedMipLevel); the derivation
// is written next to each number. Addresses are checked against Xenia's tiled
// offset formula (XeTextureTiledOffset2D / texture_util.cc GetTiledOffset2D,
// credited there to gildor2/UModel) at each level's origin; byte claims and
// round trips over random sizes, mips and arrays.
#include <gtest/gtest.h>

#include <random>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::named;
using swz_test::tex2d;

namespace {

// GetTiledOffset2D (Xenia texture_util.cc), pitch in blocks.
int64_t xe_tiled(int64_t x, int64_t y, uint32_t pitch, uint32_t bpb_log2) {
  pitch = (pitch + 31) / 32 * 32;
  int64_t macro = ((x >> 5) + (y >> 5) * int64_t(pitch >> 5)) << (bpb_log2 + 7);
  int64_t micro = ((x & 7) + ((y & 0xE) << 2)) << bpb_log2;
  int64_t offset = macro + ((micro & ~int64_t{0xF}) << 1) + (micro & 0xF) + ((y & 1) << 4);
  return ((offset & ~int64_t{0x1FF}) << 3) + ((y & 16) << 7) + ((offset & 0x1C0) << 2) +
         (((((y & 8) >> 2) + (x >> 3)) & 3) << 6) + (offset & 0x3F);
}

// The level's pitch in blocks: swz keeps bytes between rows of 32-row tiles.
uint64_t pitch_el(const Layout& L, uint32_t sub) { return L.sub(sub).row_pitch / 32 / L.sub(sub).element_bytes; }

void expect_xenia_addresses(const Layout& L, const std::string& what) {
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const SubresourceLayout& s = L.sub(i);
    const uint32_t log2 = s.element_bytes == 4    ? 2
                          : s.element_bytes == 8  ? 3
                          : s.element_bytes == 16 ? 4
                          : s.element_bytes == 2  ? 1
                                                  : 0;
    const uint64_t ox = s.pre_swizzle[0] / s.element_bytes, oy = s.pre_swizzle[1];
    for (uint32_t y = 0; y < s.height_el; y += 1 + s.height_el / 19)
      for (uint32_t x = 0; x < s.width_el; x += 1 + s.width_el / 23) {
        uint64_t off;
        ASSERT_TRUE(element_offset(L, i, x, y, 0, 0, &off).ok());
        const uint64_t want =
            s.offset + static_cast<uint64_t>(xe_tiled(x + ox, y + oy, static_cast<uint32_t>(pitch_el(L, i)), log2));
        ASSERT_EQ(off, want) << what << " sub " << i << " at " << x << "," << y;
      }
  }
}

}  // namespace

// RGBA8 300x300, full chain (9 levels). Base: pitch align(300, 32) = 320,
// rows 320: 320 * 4 * 320 = 409600 bytes (4 KiB aligned already). Mips from
// next_pow2(300) = 512: level 1 256 x 256 (262144 bytes), level 2 128 (65536),
// level 3 64 (16384), level 4 32 (4096). GetPackedMipLevel: log2_ceil(300) -
// 4 = 5: levels 5..8 share one 32x32 tile (4096 bytes) sized from 512 >> 5 =
// 16 -> 32; origins (GetPackedMipOffset, square -> along X first): level 5 at
// x 16, 6 at 8, 7 at 4, then along Y: level 8 at y (1 << (9 - 5)) >> 1 = 8.
TEST(Xbox360Layout, XeniaMipChain300) {
  Layout L = named("xbox360-tiled", tex2d("R8G8B8A8_UNORM", 300, 300, 9));
  const uint64_t off[9] = {0, 409600, 671744, 737280, 753664, 757760, 757760, 757760, 757760};
  const uint64_t pitch[9] = {320, 256, 128, 64, 32, 32, 32, 32, 32};
  const uint64_t ox[9] = {0, 0, 0, 0, 0, 16, 8, 4, 0}, oy[9] = {0, 0, 0, 0, 0, 0, 0, 0, 8};
  for (uint32_t m = 0; m < 9; ++m) {
    EXPECT_EQ(L.sub(m).offset, off[m]) << m;
    EXPECT_EQ(pitch_el(L, m), pitch[m]) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[0], ox[m] * 4) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[1], oy[m]) << m;
  }
  EXPECT_EQ(L.size(), 761856u);
  // The vector: level 1 has a pitch of 256 texels (1024 bytes a row).
  EXPECT_EQ(L.sub(1).row_pitch / 32, 1024u);
  expect_xenia_addresses(L, "300x300");
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// 1024x64 RGBA8: wider than tall. Packed level log2_ceil(64) - 4 = 2: the tail
// is sized from 1024 >> 2 = 256 x 64 >> 2 = 16 -> 32 rows. Inside it the first
// three levels go down Y (level 2 at y 16, 3 at 8, 4 at 4), then along X at
// (1 << (10 - 2)) >> (k - 2): level 5 at x 128, 6 at 64, 7 at 32, 8 at 16,
// 9 at 8, 10 at 4.
TEST(Xbox360Layout, XeniaTailWideTexture) {
  Layout L = named("xbox360-tiled", tex2d("R8G8B8A8_UNORM", 1024, 64, 11));
  const uint64_t ox[11] = {0, 0, 0, 0, 0, 128, 64, 32, 16, 8, 4}, oy[11] = {0, 0, 16, 8, 4, 0, 0, 0, 0, 0, 0};
  // Base 1024 x 64: 262144 bytes; level 1 512 x 32: 65536 bytes at 262144;
  // the tail 256 x 32 (32768 bytes) at 327680.
  EXPECT_EQ(L.sub(1).offset, 262144u);
  for (uint32_t m = 2; m < 11; ++m) {
    EXPECT_EQ(L.sub(m).offset, 327680u) << m;
    EXPECT_EQ(pitch_el(L, m), 256u) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[0], ox[m] * 4) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[1], oy[m]) << m;
  }
  EXPECT_EQ(L.size(), 327680u + 32768u);
  expect_xenia_addresses(L, "1024x64");
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// 16x16 DXT1 (BC1): GetPackedMipLevel = 0, so the base itself sits in a tail
// (at x 16 texels = 4 blocks) and the mips form a second tail in the mip
// memory, sized like level 0 (16 -> 32 texels -> 8 blocks -> 32 blocks);
// level 1 at x 8 texels (2 blocks), level 2 at 4 (1 block), level 3 at y 8
// (2 blocks), level 4 at y 4 (1 block).
TEST(Xbox360Layout, XeniaBaseInTail) {
  Layout L = named("xbox360-tiled", tex2d("BC1_UNORM", 16, 16, 5));
  EXPECT_EQ(L.sub(0).offset, 0u);
  EXPECT_EQ(L.sub(0).pre_swizzle[0], 4u * 8);
  const uint64_t ox[5] = {4, 2, 1, 0, 0}, oy[5] = {0, 0, 0, 2, 1};
  for (uint32_t m = 1; m < 5; ++m) {
    EXPECT_EQ(L.sub(m).offset, 8192u) << m;  // the base tile: 32 x 32 blocks x 8 bytes
    EXPECT_EQ(L.sub(m).pre_swizzle[0], ox[m] * 8) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[1], oy[m]) << m;
  }
  expect_xenia_addresses(L, "16x16 BC1");
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// Arrays are level-major: every slice of a level, then the next level, each
// slice 4 KiB aligned (GetGuestTextureLayout: mip_offset += slice stride x
// array size). 64x64 RGBA8 x 3 slices, 3 levels: base slices 16384 apart;
// level 1 (32 x 32, 4096 bytes a slice) at 49152; level 2 is the tail
// (log2_ceil(64) - 4 = 2), 4096 a slice, at 49152 + 3 x 4096.
TEST(Xbox360Layout, ArraySlicesPerLevel) {
  Layout L = named("xbox360-tiled", tex2d("R8G8B8A8_UNORM", 64, 64, 3, 3));
  EXPECT_EQ(L.sub(calc_subresource(0, 1, 0, 3, 3)).offset, 16384u);
  EXPECT_EQ(L.sub(calc_subresource(1, 0, 0, 3, 3)).offset, 49152u);
  EXPECT_EQ(L.sub(calc_subresource(1, 2, 0, 3, 3)).offset, 49152u + 2 * 4096);
  EXPECT_EQ(L.sub(calc_subresource(2, 0, 0, 3, 3)).offset, 61440u);
  EXPECT_EQ(L.sub(calc_subresource(2, 1, 0, 3, 3)).offset, 65536u);
  EXPECT_EQ(L.sub(calc_subresource(2, 1, 0, 3, 3)).pre_swizzle[0], 16u * 4);
  EXPECT_EQ(L.size(), 61440u + 3 * 4096);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// Parameters: packed=0 stores every level on its own; mip_offset moves the
// chain; the fetch constant's pitch sets level 0 only.
TEST(Xbox360Layout, Parameters) {
  Layout U = named("xbox360-tiled:packed=0", tex2d("R8G8B8A8_UNORM", 300, 300, 9));
  EXPECT_EQ(U.sub(5).offset, 757760u);
  EXPECT_EQ(U.sub(6).offset, 757760u + 4096);
  EXPECT_EQ(U.sub(6).pre_swizzle[0], 0u);
  Layout M = named("xbox360-tiled:mip_offset=0x100000,pitch=384", tex2d("R8G8B8A8_UNORM", 300, 300, 2));
  EXPECT_EQ(M.sub(1).offset, 0x100000u);
  EXPECT_EQ(pitch_el(M, 0), 384u);
  EXPECT_EQ(pitch_el(M, 1), 256u);
  Layout bad;
  EXPECT_EQ(make_named_layout("xbox360-tiled:mip_offset=4096", tex2d("R8G8B8A8_UNORM", 300, 300, 2), &bad).code(),
            Code::invalid_argument);
  EXPECT_EQ(make_named_layout("xbox360-tiled:layer_stride=8192", tex2d("R8G8B8A8_UNORM", 64, 64, 1, 2), &bad).code(),
            Code::invalid_argument);
  // 1-byte levels stored with a pitch below 128 texels are not a bit pattern.
  Status st = make_named_layout("xbox360-tiled", tex2d("R8_UNORM", 256, 256, 3), &bad);
  EXPECT_EQ(st.code(), Code::unsupported);
  EXPECT_NE(st.message().find("level 2"), std::string::npos) << st.message();
  // offsets= still overrides.
  Layout O = named("xbox360-tiled:offsets=0/0x80000", tex2d("R8G8B8A8_UNORM", 300, 300, 2));
  EXPECT_EQ(O.sub(1).offset, 0x80000u);
}

TEST(Xbox360Layout, RandomWholeResources) {
  std::mt19937 rng(360);
  const char* fmts[] = {"R8G8B8A8_UNORM", "R16G16B16A16_FLOAT", "R32G32B32A32_FLOAT", "BC1_UNORM", "BC3_UNORM"};
  for (int iter = 0; iter < 40; ++iter) {
    const char* f = fmts[rng() % 5];
    const uint32_t w = 1 + rng() % 400, h = 1 + rng() % 200;
    const uint32_t mips = 1 + rng() % full_mip_count(w, h, 1);
    const uint32_t arr = 1 + rng() % 3;
    const bool packed = rng() % 4 != 0;
    Layout L = named(packed ? "xbox360-tiled" : "xbox360-tiled:packed=0", tex2d(f, w, h, mips, arr));
    const std::string what = std::string(f) + " " + std::to_string(w) + "x" + std::to_string(h) + " mips " +
                             std::to_string(mips) + " array " + std::to_string(arr) + (packed ? "" : " unpacked");
    expect_xenia_addresses(L, what);
    ASSERT_TRUE(swz_test::claim_bytes(L)) << what;
    swz_test::round_trip_all(L, iter);
  }
}
