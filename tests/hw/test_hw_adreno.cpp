// Adreno a6xx/a7xx whole resources (src/hw/adreno.cpp): freedreno's own
// layout vectors (Mesa src/freedreno/fdl/fd6_layout_test.c, copied as data in
// tests/data/hw/fd6_layout_test.json), vectors worked from freedreno's rules, and random
// mip chains, arrays and 3D textures checked element by element against the
// tiled address of fd6_tiled_memcpy.cc, with byte claims and round trips.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::named;
using swz_test::tex2d;
using swz_test::tex3d;

namespace {

// freedreno's pitch (bytes between rows of texels or blocks) of a level: swz
// keeps bytes between rows of tiles, so divide by the tile's rows.
uint64_t fd_pitch(const Layout& L, uint32_t sub) {
  const SubresourceLayout& s = L.sub(sub);
  return s.row_pitch / L.patterns()[static_cast<size_t>(s.pattern_slot)].block_extent()[1];
}

// fd6_tiled_memcpy.cc (get_block_size, get_pixel_offset, block_x_xormask,
// block_y_xormask, memcpy_small): the byte of element (x, y) in a tiled level
// whose pitch is `pitch_B`, 4-channel macrotile mode, no bank swizzle.
uint64_t fd6_tiled(uint32_t x, uint32_t y, uint32_t cpp, uint64_t pitch_B) {
  uint32_t bw, bh;
  switch (cpp) {
    case 1:
      bw = 32;
      bh = 8;
      break;
    case 2:
      bw = 32;
      bh = 4;
      break;
    case 4:
      bw = 16;
      bh = 4;
      break;
    case 8:
      bw = 8;
      bh = 4;
      break;
    default:
      bw = 4;
      bh = 4;
      break;
  }
  auto pixel = [](uint32_t px, uint32_t py) {
    return (px & 1) | (py & 1) << 1 | ((px & 2) >> 1) << 2 | ((py & 2) >> 1) << 3 | ((px & 0x1c) >> 2) << 4 |
           ((py & 4) >> 2) << 7;
  };
  const uint32_t xb = x / bw, yb = y / bh;
  const uint32_t xm = (((xb & 1) * 0b111) ^ (cpp < 16 ? (xb & 0b010) : 0) ^ ((xb >> 1) << 3)) << 8;
  const uint32_t ym = (((yb & 1) * 0b110) ^ (((yb >> 1) & 1) * 0b011)) << 8;
  const uint64_t mt_stride = pitch_B / (uint64_t{bw} * 4 * cpp);  // 4K macrotile pairs across
  return uint64_t{yb >> 2} * mt_stride * 4096 + pixel(x % bw, y % bh) * cpp + (xm ^ ym);
}

}  // namespace

TEST(AdrenoLayout, FreedrenoLayoutTestVectors) {
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/hw/fd6_layout_test.json");
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const auto j = nlohmann::json::parse(ss.str());
  int cases = 0;
  for (const auto& c : j["cases"]) {
    const std::string fmt = c["format"].get<std::string>();
    const uint32_t w = c["width"], h = c["height"];
    const uint32_t mips = static_cast<uint32_t>(c["offsets"].size());
    TextureDesc d = c.contains("depth") ? tex3d(fmt.c_str(), w, h, c["depth"].get<uint32_t>(), mips)
                                        : tex2d(fmt.c_str(), w, h, mips);
    const std::string spec = c["tiling"] == "linear" ? "adreno-a6xx:linear" : "adreno-a6xx";
    const std::string what = spec + " " + fmt + " " + std::to_string(w) + "x" + std::to_string(h);
    Layout L = named(spec, d);
    ASSERT_EQ(L.subresource_count(), mips) << what;
    for (uint32_t m = 0; m < mips; ++m) {
      EXPECT_EQ(L.sub(m).offset, c["offsets"][m].get<uint64_t>()) << what << " level " << m << " offset";
      EXPECT_EQ(fd_pitch(L, m), c["pitches"][m].get<uint64_t>()) << what << " level " << m << " pitch";
      if (c.contains("size0") && m < c["size0"].size())
        EXPECT_EQ(L.sub(m).depth_pitch_B, c["size0"][m].get<uint64_t>()) << what << " level " << m << " size0";
    }
    ++cases;
  }
  EXPECT_EQ(cases, 24);
}

// Vectors worked from freedreno's rules: R8_UNORM 129x1, 8 mips, tiled: levels
// narrower than 16 px linear and packed; R32G32_UINT 288x739: pitch
// align(288 * 8, 512) = 2560 bytes, i.e. 2560 x 16 = 40960 bytes between rows
// of macrotiles.
TEST(AdrenoLayout, FreedrenoRuleVectors) {
  Layout L = named("adreno-a6xx", tex2d("R8_UNORM", 129, 1, 8));
  const uint64_t off[8] = {0, 8192, 12288, 16384, 20480, 20608, 20736, 20864};
  for (uint32_t m = 0; m < 8; ++m) EXPECT_EQ(L.sub(m).offset, off[m]) << m;
  Layout P = named("adreno-a6xx", tex2d("R32G32_UINT", 288, 739));
  EXPECT_EQ(P.sub(0).row_pitch, 40960u);
  EXPECT_EQ(fd_pitch(P, 0), 2560u);
}

// Layers of a 2D array hold every level and are page aligned (fd6_layout.c:
// layer_first, layer_size = align(size, 4096)). R8_UNORM 129x1, 8 mips: the
// last level (1 row, aligned to 4 rows of 128 bytes) ends at 20864 + 512.
TEST(AdrenoLayout, ArrayLayersArePageAligned) {
  Layout L = named("adreno-a6xx", tex2d("R8_UNORM", 129, 1, 8, 3));
  EXPECT_EQ(L.sub(8).offset, 24576u);
  EXPECT_EQ(L.sub(16).offset, 2 * 24576u);
  EXPECT_EQ(L.size(), 3 * 24576u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// An explicit pitch (fdl_explicit_layout) must be a multiple of the pitch
// alignment; the levels follow from it.
TEST(AdrenoLayout, ExplicitPitch) {
  Layout L = named("adreno-a6xx:pitch=1536", tex2d("R8G8B8A8_UNORM", 300, 40, 3));
  EXPECT_EQ(fd_pitch(L, 0), 1536u);
  EXPECT_EQ(fd_pitch(L, 1), 768u);
  EXPECT_EQ(fd_pitch(L, 2), 512u);  // align(384, 256)
  Layout bad;
  Status st =
      make_named_layout("adreno-a6xx:pitch=1280", tex2d("R16G16B16A16_UNORM", 100, 40), &bad);  // not a multiple of 512
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("pitch = 1280"), std::string::npos) << st.message();
  st = make_named_layout("adreno-a6xx:pitch=256", tex2d("R8G8B8A8_UNORM", 100, 40), &bad);  // narrower than the row
  EXPECT_EQ(st.code(), Code::invalid_argument);
}

// Random sizes, mips, arrays and 3D: every tiled level matches
// fd6_tiled_memcpy's address at the level's pitch, every linear level is
// row-major at its pitch; no byte is shared; everything round-trips.
TEST(AdrenoLayout, RandomWholeResources) {
  std::mt19937 rng(15);
  const char* fmts[] = {"R8_UNORM",           "R16_UINT",  "R8G8B8A8_UNORM", "R16G16B16A16_UNORM",
                        "R32G32B32A32_FLOAT", "BC1_UNORM", "BC7_UNORM"};
  for (int iter = 0; iter < 60; ++iter) {
    const char* f = fmts[rng() % 7];
    const bool is3d = rng() % 3 == 0;
    const uint32_t w = 1 + rng() % 300, h = 1 + rng() % 120, dep = 1 + rng() % 9;
    const uint32_t full = full_mip_count(w, h, is3d ? dep : 1);
    const uint32_t mips = 1 + rng() % full;
    TextureDesc d = is3d ? tex3d(f, w, h, dep, mips) : tex2d(f, w, h, mips, 1 + rng() % 3);
    const bool linear = rng() % 5 == 0;
    Layout L = named(linear ? "adreno-a6xx:linear" : "adreno-a6xx", d);
    const std::string what = std::string(f) + " " + std::to_string(w) + "x" + std::to_string(h) +
                             (is3d ? "x" + std::to_string(dep) : "") + " mips " + std::to_string(mips) +
                             (linear ? " linear" : "");
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const SubresourceLayout& s = L.sub(i);
      const uint64_t pitch = fd_pitch(L, i);
      const bool tiled = !linear && (std::max(1u, w >> s.mip) >= 16);
      const uint32_t cpp = s.element_bytes;
      for (uint32_t z = 0; z < s.depth; z += 1 + s.depth / 3)
        for (uint32_t y = 0; y < s.height_el; y += 1 + s.height_el / 17)
          for (uint32_t x = 0; x < s.width_el; x += 1 + s.width_el / 23) {
            uint64_t off;
            ASSERT_TRUE(element_offset(L, i, x, y, z, 0, &off).ok());
            const uint64_t want =
                s.offset + z * s.depth_pitch_B + (tiled ? fd6_tiled(x, y, cpp, pitch) : y * pitch + uint64_t{x} * cpp);
            ASSERT_EQ(off, want) << what << " sub " << i << " at " << x << "," << y << "," << z;
          }
    }
    ASSERT_TRUE(swz_test::claim_bytes(L)) << what;
    swz_test::round_trip_all(L, iter);
  }
}

// offsets= still replaces the family's placement of the levels.
TEST(AdrenoLayout, OffsetsOverride) {
  Layout L = named("adreno-a6xx:offsets=0/65536", tex2d("R8G8B8A8_UNORM", 64, 64, 2));
  EXPECT_EQ(L.sub(1).offset, 65536u);
  swz_test::round_trip_all(L);
}
