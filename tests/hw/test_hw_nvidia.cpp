// NVIDIA block linear through make_named_layout. Independent sources, written
// out here rather than taken from the library:
//  * the Tegra X1 TRM GOB formula as tegra_swizzle (src/swizzle.rs gob_offset)
//    and Ryujinx (BlockLinearLayout.cs) implement it;
//  * the Turing GOB sector grid drawn in Mesa NIL's tiling.rs (GOBType::TuringColor2D);
//  * the block/row/slice arithmetic of tegra_swizzle gob_address_x/y/z;
//  * expected surface sizes from tegra_swizzle's tests (src/arrays.rs, taken
//    there from Smash Ultimate nutexb footers) and from the public bug reports
//    named in each test.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "placement_oracle.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::named;

namespace {

using swz_test::fmt;
using swz_test::tex2d;
using swz_test::tex3d;

// Tegra X1 TRM GOB: 64 bytes x 8 rows, 16-byte x 2-row sectors.
uint64_t gob_tegra(uint64_t x, uint64_t y) {
  return ((x % 64) / 32) * 256 + ((y % 8) / 2) * 64 + ((x % 32) / 16) * 32 + (y % 2) * 16 + (x % 16);
}

// NVK tiling.rs: TuringColor2D sectors (16 B x 2 rows) in a 4x4 grid
//   |  0 |  2 |  8 | 10 |
//   |  1 |  3 |  9 | 11 |
//   |  4 |  6 | 12 | 14 |
//   |  5 |  7 | 13 | 15 |
uint64_t gob_turing(uint64_t x, uint64_t y) {
  static const int grid[4][4] = {{0, 2, 8, 10}, {1, 3, 9, 11}, {4, 6, 12, 14}, {5, 7, 13, 15}};
  uint64_t sector = static_cast<uint64_t>(grid[(y % 8) / 2][(x % 64) / 16]);
  return sector * 32 + (y % 2) * 16 + (x % 16);
}

using GobFn = uint64_t (*)(uint64_t, uint64_t);

// tegra_swizzle gob_address_x/y/z: blocks of bh x bd GOBs, row-major.
uint64_t block_linear(uint64_t x, uint64_t y, uint64_t z, uint64_t width_bytes, uint64_t height, uint64_t bh,
                      uint64_t bd, GobFn gob) {
  const uint64_t gobs_x = (width_bytes + 63) / 64;
  const uint64_t block = 512 * bh * bd;
  const uint64_t rows = (height + 8 * bh - 1) / (8 * bh);
  const uint64_t slice_size = rows * gobs_x * block;
  return (z / bd) * slice_size + (y / (8 * bh)) * gobs_x * block + (x / 64) * block + (z % bd) * 512 * bh +
         ((y % (8 * bh)) / 8) * 512 + gob(x % 64, y % 8);
}

// Every element of subresource `sub` against the formula (level dims given).
void expect_formula(const Layout& L, uint32_t sub, uint64_t bh, uint64_t bd, GobFn gob, uint64_t base = 0) {
  const SubresourceLayout& s = L.sub(sub);
  const uint64_t eb = s.element_bytes;
  for (uint32_t z = 0; z < s.depth; ++z)
    for (uint32_t y = 0; y < s.height_el; ++y)
      for (uint32_t x = 0; x < s.width_el; ++x) {
        uint64_t off;
        ASSERT_TRUE(element_offset(L, sub, x, y, z, 0, &off).ok());
        uint64_t want = base + block_linear(x * eb, y, z, s.width_el * eb, s.height_el, bh, bd, gob);
        ASSERT_EQ(off, want) << "sub " << sub << " at " << x << "," << y << "," << z;
      }
}

// Write every subresource from a pattern, read back, compare; the resource
// buffer has guard bytes after its end.
void round_trip(const Layout& L) {
  std::vector<uint8_t> res(L.size() + 64, 0xcd);
  std::mt19937 rng(3);
  std::vector<std::vector<uint8_t>> srcs;
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const SubresourceLayout& s = L.sub(i);
    const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
    std::vector<uint8_t> src(slice * s.depth);
    for (auto& b : src) b = static_cast<uint8_t>(rng());
    Status st = write_to_subresource(L, res.data(), L.size(), i, nullptr, src.data(), src.size(), row, slice);
    ASSERT_TRUE(st.ok()) << st.message();
    srcs.push_back(src);
  }
  for (size_t k = L.size(); k < res.size(); ++k) ASSERT_EQ(res[k], 0xcd);
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const SubresourceLayout& s = L.sub(i);
    const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
    std::vector<uint8_t> dst(slice * s.depth, 0);
    Status st = read_from_subresource(dst.data(), dst.size(), row, slice, L, res.data(), L.size(), i, nullptr);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(dst, srcs[i]) << "subresource " << i;
  }
}

bool i_small(uint64_t size) { return size <= (uint64_t{4} << 20); }

}  // namespace

TEST(VendorNvidia, TegraGobMatchesTheTrmFormula) {
  for (uint64_t bh : {1, 2, 4, 8, 16, 32}) {
    Layout L = named("nv-block-linear:gob=tegra,bh=" + std::to_string(bh), tex2d("R8G8B8A8_UNORM", 200, 300));
    // 300 rows = 38 GOB rows: no block height up to 32 fits it in half a block.
    expect_formula(L, 0, bh, 1, gob_tegra);
  }
}

TEST(VendorNvidia, TuringGobMatchesNvkSectorGrid) {
  Layout L = named("nv-block-linear:gob=turing,bh=4", tex2d("R8G8B8A8_UNORM", 100, 70));
  expect_formula(L, 0, 4, 1, gob_turing);
  // Desktop aliases and the Blackwell rule: 4-byte formats keep the Turing GOB.
  Layout B = named("nv-block-linear:gob=blackwell,bh=4", tex2d("R8G8B8A8_UNORM", 100, 70));
  expect_formula(B, 0, 4, 1, gob_turing);
  // NIL's default tiling: bh = min(32, next power of two of the height in GOBs) = 16 for 70 rows... 9 GOBs -> 16.
  Layout D = named("nv-block-linear:gob=desktop", tex2d("R8G8B8A8_UNORM", 100, 70));
  expect_formula(D, 0, 16, 1, gob_turing);
}

TEST(VendorNvidia, FermiIsRefusedAsNotExpressible) {
  Layout L;
  Status st = make_named_layout("nv-block-linear:gob=fermi", tex2d("R8G8B8A8_UNORM", 64, 64), &L);
  EXPECT_EQ(st.code(), Code::unsupported);
  EXPECT_NE(st.message().find("constant XOR"), std::string::npos) << st.message();
}

// tegra_swizzle issue #36 ("504x156 texture incorrect after deswizzle_surface"):
// BC7 504x156 = 126 x 39 blocks = 2016 bytes (31.5 GOBs -> 32) x 39 rows. The
// file stored block height 16, but the hardware shrinks it per level while the
// level fits in half a block (39 <= 64 -> 8; gdkchan's driver rule in
// Switch-Toolbox PR #419), and the inferred block height is 4 (39 + 19 = 58 >= 32).
TEST(VendorNvidia, Bc7_504x156WithBlockHeight16) {
  TextureDesc d = tex2d("BC7_UNORM", 504, 156);
  Layout given = named("nv-block-linear:gob=tegra,bh=16", d);
  EXPECT_EQ(given.size(), 32u * 1 * 512 * 8);  // 131072: bh 8, one row of blocks
  expect_formula(given, 0, 8, 1, gob_tegra);
  Layout inferred = named("nv-block-linear", d);
  EXPECT_EQ(inferred.size(), 32u * 2 * 512 * 4);  // also 131072: bh 4, two rows of blocks
  expect_formula(inferred, 0, 4, 1, gob_tegra);
  round_trip(given);
  round_trip(inferred);
}

// tegra_swizzle issue #15: Metroid Prime Remastered RGBA8 33x33x33 3D texture
// with bh=1, bd=16 occupies 368,640 bytes (132 bytes -> 3 GOBs, 33 rows -> 5
// GOBs, 33 slices -> 3 blocks of 16): tools that did not pad the depth to the
// block depth expected 253,440.
TEST(VendorNvidia, Rgba8_33Cubed3DIs368640Bytes) {
  TextureDesc d = tex3d("R8G8B8A8_UNORM", 33, 33, 33);
  Layout L = named("nv-block-linear:gob=tegra,bh=1,bd=16", d);
  EXPECT_EQ(L.size(), 368640u);
  expect_formula(L, 0, 1, 16, gob_tegra);
  Layout inferred = named("nv-block-linear", d);  // tegra_swizzle: 3D -> bh 1, block_depth(33) = 16
  EXPECT_EQ(inferred.size(), 368640u);
  round_trip(L);
}

// ImageHeat issue #7: an 8-bpp 320x512 Tegra X1 texture is 5 GOBs wide
// (320 bytes); block height 16 (512 + 256 >= 128).
TEST(VendorNvidia, R8_320x512IsFiveGobsWide) {
  TextureDesc d = tex2d("R8_UNORM", 320, 512);
  Layout L = named("nv-block-linear:gob=tegra,bh=8", d);
  EXPECT_EQ(L.sub(0).row_pitch, 5u * 512 * 8);
  expect_formula(L, 0, 8, 1, gob_tegra);
  Layout inferred = named("nv-block-linear", d);
  EXPECT_EQ(inferred.sub(0).row_pitch, 5u * 512 * 16);
  EXPECT_EQ(inferred.size(), 5u * 4 * 8192);
  expect_formula(inferred, 0, 16, 1, gob_tegra);
  round_trip(inferred);
}

// Widths whose byte count is not a multiple of 64, including 12-byte elements
// (byte-granular: elements straddle GOB columns).
TEST(VendorNvidia, WidthsNotAMultipleOf64Bytes) {
  for (const char* f : {"R8G8B8A8_UNORM", "R32G32B32_FLOAT", "R16G16B16A16_FLOAT", "R8_UNORM", "R32G32B32A32_FLOAT"})
    for (uint32_t w : {1u, 3u, 7u, 17u, 33u, 65u}) {
      TextureDesc d = tex2d(f, w, 19);
      Layout L = named("nv-block-linear:bh=2", d);
      expect_formula(L, 0, 2, 1, gob_tegra);
      round_trip(L);
    }
}

TEST(VendorNvidia, TwelveByteElementsStraddleGobs) {
  TextureDesc d = tex2d("R32G32B32_FLOAT", 10, 9);  // 120 bytes a row: element 5 spans bytes 60..71
  Layout L = named("nv-block-linear:bh=2", d);
  uint64_t off;
  ASSERT_TRUE(element_offset(L, 0, 5, 0, 0, 0, &off).ok());
  EXPECT_EQ(off, block_linear(60, 0, 0, 120, 9, 2, 1, gob_tegra));
  Location loc;
  // Byte 64 of the row (the 5th byte of element 5) is in the second GOB column.
  ASSERT_TRUE(locate(L, block_linear(64, 0, 0, 120, 9, 2, 1, gob_tegra), &loc).ok());
  EXPECT_FALSE(loc.padding);
  EXPECT_EQ(loc.x, 5u);
  EXPECT_EQ(loc.byte, 4u);
  round_trip(L);
}

// tegra_swizzle src/arrays.rs tests: sizes of 6-layer surfaces from nutexb
// footers (block height inferred, levels packed, layers aligned).
TEST(VendorNvidia, LayerSizesFromNutexbFooters) {
  struct Case {
    const char* format;
    uint32_t w, h, mips;
    uint64_t size;
  } cases[] = {
      {"R8G8B8A8_UNORM", 16, 16, 1, 6144},    {"BC1_UNORM", 16, 16, 1, 3072},
      {"BC7_UNORM", 2048, 2048, 1, 25165824}, {"R8G8B8A8_UNORM", 256, 256, 1, 1572864},
      {"R8G8B8A8_UNORM", 64, 64, 1, 98304},   {"R32G32B32A32_FLOAT", 64, 64, 1, 393216},
      {"BC7_UNORM", 128, 128, 8, 147456},     {"BC7_UNORM", 16, 16, 5, 15360},
      {"BC7_UNORM", 256, 256, 9, 540672},     {"BC7_UNORM", 288, 288, 9, 1204224},
      {"BC7_UNORM", 512, 512, 10, 2113536},   {"BC7_UNORM", 64, 64, 7, 49152},
  };
  for (const Case& c : cases) {
    Layout L = named("nv-block-linear", tex2d(c.format, c.w, c.h, c.mips, 6));
    EXPECT_EQ(L.size(), c.size) << c.format << " " << c.w << "x" << c.h << " mips " << c.mips;
  }
}

// Levels: block height shrinks per level, levels packed, each level against
// the formula; the placement from the oracle (tests/support/placement_oracle.hpp).
TEST(VendorNvidia, MipChainPerLevelBlockHeight) {
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 300, 200, 9, 2);
  Layout L = named("nv-block-linear", d);  // bh0 = 16 (200 + 100 >= 128)
  const swz_oracle::NvResource o = swz_oracle::nv_block_linear(d);
  // Level heights 200 100 50 25 12 6 3 1 1: 25 GOB rows -> 16, 13 -> 16, 7 -> 8, 4 -> 4, 2 -> 2, then 1.
  const uint32_t want_bh[9] = {16, 16, 8, 4, 2, 1, 1, 1, 1};
  for (uint32_t m = 0; m < 9; ++m) {
    EXPECT_EQ(o.subs[m].bh, want_bh[m]) << "mip " << m;
    EXPECT_EQ(L.sub(m).offset, o.subs[m].offset) << "mip " << m;
    EXPECT_EQ(L.sub(m).row_pitch, o.subs[m].row_pitch) << "mip " << m;
    expect_formula(L, m, o.subs[m].bh, 1, gob_tegra, o.subs[m].offset);
  }
  // Layer 1 starts at the layer size aligned to the level-0 block (16 GOBs = 8 KiB).
  EXPECT_EQ(o.layer_stride % 8192, 0u);
  EXPECT_EQ(L.sub(9).offset, o.layer_stride);
  EXPECT_EQ(L.size(), o.size);
  round_trip(L);
}

// tegra_swizzle src/blockheight.rs tests block_heights_mip0_bcn (nutexb
// textures of Smash Ultimate; heights in texels, BC 4x4 blocks): the inferred
// level-0 block height, seen as the level-0 row pitch of a 64-byte-wide surface.
TEST(VendorNvidia, InferredBlockHeightVectors) {
  const struct {
    uint32_t texels, bh;
  } v[] = {{36, 1},  {40, 1},  {48, 2},  {64, 2},  {72, 2},  {80, 2},  {84, 2},   {96, 4},   {100, 4},
           {120, 4}, {124, 4}, {128, 4}, {132, 4}, {140, 4}, {168, 4}, {176, 8},  {180, 8},  {184, 8},
           {192, 8}, {200, 8}, {220, 8}, {256, 8}, {260, 8}, {292, 8}, {300, 8},  {320, 8},  {340, 8},
           {360, 16}, {384, 16}, {400, 16}, {500, 16}, {560, 16}, {640, 16}, {720, 16}, {768, 16}, {1088, 16},
           {1152, 16}, {1408, 16}};
  for (const auto& c : v) {
    EXPECT_EQ(swz_oracle::tegra_block_height_mip0(c.texels / 4), c.bh) << c.texels;
    // BC7: 16 texels = 4 blocks of 16 bytes = one GOB across.
    Layout L = named("nv-block-linear", tex2d("BC7_UNORM", 16, c.texels));
    EXPECT_EQ(L.sub(0).row_pitch, 512u * c.bh) << c.texels;
  }
}

// tegra_swizzle block_height_mip0 at each threshold of h + h/2 (16, 32, 64,
// 128), one below and at it: heights in elements 10/11, 21/22, 42/43, 85/86
// (h + h/2 = 15/16, 31/33, 63/64, 127/129). Expected block heights by hand;
// level 0 of a 16-texel R8G8B8A8 surface (one GOB across) shows it as its
// row pitch, 512 bytes per GOB of block height.
TEST(VendorNvidia, InferredBlockHeightAtEachThreshold) {
  const struct {
    uint32_t h, bh;
  } v[] = {{10, 1}, {11, 2}, {21, 2}, {22, 4}, {42, 4}, {43, 8}, {85, 8}, {86, 16}};
  for (const auto& c : v) {
    EXPECT_EQ(swz_oracle::tegra_block_height_mip0(c.h), c.bh) << c.h;
    Layout L = named("nv-block-linear", tex2d("R8G8B8A8_UNORM", 16, c.h));
    EXPECT_EQ(L.sub(0).row_pitch, 512u * c.bh) << "height " << c.h;
    Layout B = named("nv-block-linear", tex2d("BC7_UNORM", 16, 4 * c.h));  // the same in 4x4 blocks
    EXPECT_EQ(B.sub(0).row_pitch, 512u * c.bh) << "BC7 height " << 4 * c.h;
  }
}

// A 3D level with a partial block of slices takes a whole block: depths one
// past a multiple of the block depth (17 slices, bd 16: two blocks; 9, bd 8).
TEST(VendorNvidia, PartialBlockOfSlicesIsWholeBlock) {
  const struct {
    uint32_t depth, bd, blocks;
  } v[] = {{16, 16, 1}, {17, 16, 2}, {31, 16, 2}, {33, 16, 3}, {8, 8, 1}, {9, 8, 2}, {3, 2, 2}};
  for (const auto& c : v) {
    const TextureDesc d = tex3d("R8G8B8A8_UNORM", 16, 8, c.depth);
    Layout L = named("nv-block-linear:gob=tegra,bh=1,bd=" + std::to_string(c.bd), d);
    EXPECT_EQ(L.size(), uint64_t{512} * c.bd * c.blocks) << c.depth << " slices, bd " << c.bd;
    EXPECT_EQ(swz_oracle::nv_block_linear(d, 1, c.bd).size, uint64_t{512} * c.bd * c.blocks) << c.depth;
  }
}

// A level's block height at every boundary of "the level fits in half a
// block": heights 8k and 8k + 1 rows for each block height, from an explicit
// level-0 bh of 32. Expected values by hand: the smallest power of two of GOB
// rows that holds the level, at most 32.
TEST(VendorNvidia, LevelBlockHeightAtEveryBoundary) {
  const struct {
    uint32_t h, bh;
  } v[] = {{1, 1},   {8, 1},   {9, 2},    {16, 2},   {17, 4},   {32, 4},   {33, 8},
           {64, 8},  {65, 16}, {128, 16}, {129, 32}, {256, 32}, {257, 32}, {1000, 32}};
  for (const auto& c : v) {
    EXPECT_EQ(swz_oracle::level_block_height(32, c.h), c.bh) << c.h;
    // Level 1 of a surface twice as tall: its block height and row pitch.
    Layout L = named("nv-block-linear:gob=tegra,bh=32", tex2d("R8G8B8A8_UNORM", 16, 2 * c.h, 2));
    EXPECT_EQ(L.sub(1).row_pitch, 512u * c.bh) << "level 1 of height " << c.h;
    EXPECT_EQ(L.sub(1).offset, swz_oracle::nv_block_linear(L.desc(), 32).subs[1].offset) << c.h;
    expect_formula(L, 1, c.bh, 1, gob_tegra, L.sub(1).offset);
  }
}

// tegra_swizzle src/surface.rs swizzle_surface_nutexb_length (Smash Ultimate
// nutexb footers): whole mip chains, one layer, block height inferred.
// Format by bytes per element: 8 = BC1, 16 = BC7, 4 = R8G8B8A8 (uncompressed).
TEST(VendorNvidia, MipChainSizesFromNutexbFooters) {
  const struct {
    uint32_t w, h;
    bool bc;
    uint32_t eb, mips;
    uint64_t size;
  } v[] = {
      {100, 100, true, 8, 7, 12800},      {1028, 256, true, 16, 11, 360960},  {128, 32, false, 4, 8, 24064},
      {1536, 1024, true, 16, 11, 2099712}, {180, 180, true, 8, 8, 35328},     {2048, 1344, true, 16, 12, 4546048},
      {256, 32, true, 16, 9, 17920},      {320, 128, true, 16, 9, 58368},     {340, 340, true, 8, 9, 125440},
      {400, 400, true, 8, 9, 147968},     {4, 24, false, 4, 1, 2048},         {512, 384, true, 16, 10, 351744},
      {640, 640, true, 8, 10, 440832},    {64, 512, true, 8, 10, 26624},      {800, 400, true, 8, 10, 280064},
      {8192, 2048, true, 16, 1, 16777216},
  };
  for (const auto& c : v) {
    const char* f = !c.bc ? "R8G8B8A8_UNORM" : c.eb == 8 ? "BC1_UNORM" : "BC7_UNORM";
    const TextureDesc d = tex2d(f, c.w, c.h, c.mips);
    EXPECT_EQ(swz_oracle::nv_block_linear(d).size, c.size) << f << " " << c.w << "x" << c.h;
    Layout L = named("nv-block-linear", d);
    EXPECT_EQ(L.size(), c.size) << f << " " << c.w << "x" << c.h << " mips " << c.mips;
  }
}

// Every subresource of random 2D, array and 3D mip chains against the oracle
// (offset, pitches, size), with explicit and inferred block heights and depths.
TEST(VendorNvidia, PlacementMatchesOracle) {
  std::mt19937_64 rng(3404);
  const char* formats[] = {"R8_UNORM", "R8G8_UNORM", "R8G8B8A8_UNORM", "R32G32B32A32_FLOAT", "BC1_UNORM", "BC7_UNORM"};
  int checked = 0;
  for (int it = 0; it < 300; ++it) {
    TextureDesc d;
    const bool is3d = it % 2 == 1;
    d.format = fmt(formats[rng() % 6]);
    d.width = 1 + static_cast<uint32_t>(rng() % 300);
    d.height = 1 + static_cast<uint32_t>(rng() % 300);
    if (is3d) {
      d.dimension = Dimension::Texture3D;
      d.depth = 1 + static_cast<uint32_t>(rng() % 70);
    } else {
      d.array_size = 1 + static_cast<uint32_t>(rng() % 3);
    }
    d.mip_levels = 1 + static_cast<uint32_t>(rng() % full_mip_count(d.width, d.height, d.depth));
    uint32_t bh = 0, bd = 0;
    std::string spec = "nv-block-linear";
    if (rng() % 2) {
      bh = 1u << (rng() % 6);
      spec += ":gob=tegra,bh=" + std::to_string(bh);
      if (is3d) {
        bd = 1u << (rng() % 6);
        spec += ",bd=" + std::to_string(bd);
      }
    }
    Layout L = named(spec, d);
    const swz_oracle::NvResource o = swz_oracle::nv_block_linear(d, bh, bd);
    ASSERT_EQ(L.subresource_count(), o.subs.size()) << spec;
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const SubresourceLayout& s = L.sub(i);
      const swz_oracle::NvPlace& p = o.subs[i];
      ASSERT_EQ(s.offset, p.offset) << spec << " " << d.width << "x" << d.height << "x" << d.depth << " sub " << i;
      ASSERT_EQ(s.row_pitch, p.row_pitch) << spec << " sub " << i;
      if (p.depth > 1) ASSERT_EQ(s.depth_pitch_B, p.depth_pitch) << spec << " sub " << i;
      ASSERT_EQ(s.size, p.size) << spec << " " << d.width << "x" << d.height << "x" << d.depth << " sub " << i;
    }
    ASSERT_EQ(L.size(), o.size) << spec << " " << d.width << "x" << d.height << "x" << d.depth;
    if (i_small(o.size)) {
      const uint32_t last = L.subresource_count() - 1;
      expect_formula(L, last, o.subs[last].bh, o.subs[last].bd, gob_tegra, o.subs[last].offset);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 300);
}

// tegra_swizzle surface.rs swizzle_surface_rgba_16_16_16 (its not-enough-data
// test names the size): RGBA8 16x16x16 is 16384 bytes (bh 1, bd 16).
TEST(VendorNvidia, Rgba8_16Cubed3DIs16384Bytes) {
  TextureDesc d = tex3d("R8G8B8A8_UNORM", 16, 16, 16);
  Layout L = named("nv-block-linear", d);
  EXPECT_EQ(L.size(), 16384u);
  expect_formula(L, 0, 1, 16, gob_tegra);
}

// 3D levels: block depth shrinks with the level depth (tegra_swizzle
// mip_block_depth(16/2, 16) = 8, mip_block_depth(33/2, 16) = 16).
TEST(VendorNvidia, MipChainPerLevelBlockDepth) {
  TextureDesc d = tex3d("R8G8B8A8_UNORM", 16, 16, 16, 2);
  Layout L = named("nv-block-linear", d);  // bh 1, bd 16
  expect_formula(L, 0, 1, 16, gob_tegra);
  expect_formula(L, 1, 1, 8, gob_tegra, L.sub(1).offset);
  EXPECT_EQ(L.sub(1).offset, 1u * 2 * 1 * 512 * 16);  // level 0: 1 GOB across, 2 GOB rows, 1 block deep
  TextureDesc d33 = tex3d("R8G8B8A8_UNORM", 33, 33, 33, 2);
  Layout L33 = named("nv-block-linear", d33);
  expect_formula(L33, 1, 1, 16, gob_tegra, L33.sub(1).offset);
  round_trip(L);
}

TEST(VendorNvidia, BlackwellSmallFormatGobs) {
  // NVK copy.rs for_each_gob_line tables (commit ab6c5589): Blackwell8Bit
  // puts the 8-byte line (x/8, y) at x/8 * 0x40 + y * 8; Blackwell16Bit puts
  // the 16-byte line (x/16, y) at (x/32) * 0x100 + ((x/16) % 2) * 0x80 + y * 0x10.
  auto gob8 = [](uint64_t x, uint64_t y) -> uint64_t { return (x % 64) / 8 * 0x40 + (y % 8) * 8 + (x % 8); };
  auto gob16 = [](uint64_t x, uint64_t y) -> uint64_t {
    return (x % 64) / 32 * 0x100 + ((x % 32) / 16) * 0x80 + (y % 8) * 0x10 + (x % 16);
  };
  Layout L8 = named("nv-block-linear:gob=blackwell,bh=2", tex2d("R8_UNORM", 70, 20));
  expect_formula(L8, 0, 2, 1, +gob8);
  Layout L16 = named("nv-block-linear:gob=blackwell,bh=2", tex2d("R8G8_UNORM", 70, 20));
  expect_formula(L16, 0, 2, 1, +gob16);
  Layout bad;
  EXPECT_EQ(make_named_layout("nv-block-linear:gob=blackwell8", tex2d("R8G8B8A8_UNORM", 8, 8), &bad).code(),
            Code::invalid_argument);
}

TEST(VendorNvidia, ParameterErrorsNameTheParameter) {
  Layout L;
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 64, 64);
  Status st = make_named_layout("nv-block-linear:bh=3", d, &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("bh = 3"), std::string::npos) << st.message();
  st = make_named_layout("nv-block-linear:gob=amd", d, &L);
  EXPECT_NE(st.message().find("gob"), std::string::npos) << st.message();
  st = make_named_layout("nv-block-linear:colour=red", d, &L);
  EXPECT_NE(st.message().find("unknown parameter 'colour'"), std::string::npos) << st.message();
  st = make_named_layout("nv-block-linear:bh=4,bh=8", d, &L);
  EXPECT_EQ(st.code(), Code::parse_error);
  st = make_named_layout("nv-block-linar", d, &L);
  EXPECT_NE(st.message().find("nv-block-linear"), std::string::npos) << st.message();
}

// Containers that store each level at their own offset (tegra_swizzle issue #33:
// levels 512-byte aligned).
TEST(VendorNvidia, ContainerLevelOffsets) {
  TextureDesc d = tex2d("BC1_UNORM", 64, 64, 3);
  Layout packed = named("nv-block-linear", d);
  Layout L = named("nv-block-linear:offsets=0/0x1000/0x2000", d);
  EXPECT_EQ(L.sub(1).offset, 0x1000u);
  EXPECT_EQ(L.sub(2).offset, 0x2000u);
  uint64_t a, b;
  ASSERT_TRUE(element_offset(packed, 1, 3, 2, 0, 0, &a).ok());
  ASSERT_TRUE(element_offset(L, 1, 3, 2, 0, 0, &b).ok());
  EXPECT_EQ(b - 0x1000, a - packed.sub(1).offset);
  Layout A = named("nv-block-linear:mip_align=0x1000", d);
  EXPECT_EQ(A.sub(1).offset, 0x1000u);
  round_trip(L);
}

TEST(VendorNvidia, DescribeShowsTheEquation) {
  std::string s;
  ASSERT_TRUE(describe_layout("nv-block-linear:gob=tegra,bh=16", 4, &s).ok());
  EXPECT_EQ(s.substr(0, s.find('\n')), "X0 X1 X2 X3 Y0 X4 Y1 Y2 X5 Y3 Y4 Y5 Y6");
  ASSERT_TRUE(describe_layout("nv-block-linear:gob=turing,bh=1,bd=16", 4, &s).ok());
  EXPECT_EQ(s.substr(0, s.find('\n')), "X0 X1 X2 X3 Y0 Y1 X4 Y2 X5 Z0 Z1 Z2 Z3");
}

// Block-compressed mips whose texel size is not a multiple of 4: level dims
// round up to whole 4x4 blocks (100x70 -> 25x18 blocks; 50x35 -> 13x9; 25x17 -> 7x5;
// 12x8 -> 3x2; 6x4 -> 2x1; 3x2, 1x1 -> 1x1); every level against the formula
// at the oracle's place (block heights by hand: 18 rows -> bh0 2 (18 + 9 >= 16), then 2 2 1 1 1 1 1), then a round trip.
TEST(VendorNvidia, BlockCompressedMipsNotMultiplesOfFour) {
  for (const char* f : {"BC1_UNORM", "BC7_UNORM"}) {
    TextureDesc d = tex2d(f, 100, 70, 7, 2);
    Layout L = named("nv-block-linear", d);
    const swz_oracle::NvResource o = swz_oracle::nv_block_linear(d);
    const uint32_t want_w[7] = {25, 13, 7, 3, 2, 1, 1}, want_h[7] = {18, 9, 5, 2, 1, 1, 1};
    const uint32_t want_bh[7] = {2, 2, 1, 1, 1, 1, 1};
    for (uint32_t m = 0; m < 7; ++m) {
      const SubresourceLayout& s = L.sub(m);
      EXPECT_EQ(s.width_el, want_w[m]) << f << " mip " << m;
      EXPECT_EQ(s.height_el, want_h[m]) << f << " mip " << m;
      EXPECT_EQ(o.subs[m].bh, want_bh[m]) << f << " mip " << m;
      EXPECT_EQ(s.offset, o.subs[m].offset) << f << " mip " << m;
      expect_formula(L, m, want_bh[m], 1, gob_tegra, o.subs[m].offset);
    }
    EXPECT_EQ(L.size(), o.size) << f;
    round_trip(L);
  }
}

TEST(VendorNvidia, HugeSurfacesAreRefusedNotWrapped) {
  TextureDesc d = tex2d("R32G32B32A32_FLOAT", 0xffffffffu, 0xffffffffu, 1, 0xffff);
  Layout L;
  for (const LayoutFamily& f : layout_families()) {
    Status st = make_named_layout(f.name, d, &L);
    EXPECT_FALSE(st.ok()) << f.name;
  }
  TextureDesc z = tex2d("R8G8B8A8_UNORM", 0, 16);
  EXPECT_FALSE(make_named_layout("nv-block-linear", z, &L).ok());
}
