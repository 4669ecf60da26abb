// AMD, Intel, console and mobile layouts through make_named_layout. Each test
// writes the vendor's own formula out (or evaluates the research table's
// equation as printed) and compares every element's address; sources are
// named at each test. Round trips go through the shared copy kernels.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <sstream>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "test_scale.hpp"
#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::named;

namespace {

using swz_test::fmt;
using swz_test::tex2d;

const char* format_for(uint32_t eb) {
  return eb == 1   ? "R8_UNORM"
         : eb == 2 ? "R8G8_UNORM"
         : eb == 4 ? "R8G8B8A8_UNORM"
         : eb == 8 ? "R16G16B16A16_UNORM"
                   : "R32G32B32A32_FLOAT";
}

using AddrFn = std::function<uint64_t(uint32_t x, uint32_t y, uint32_t z)>;

void expect_addresses(const Layout& L, uint32_t sub, const AddrFn& want, const std::string& what) {
  const SubresourceLayout& s = L.sub(sub);
  for (uint32_t z = 0; z < s.depth; ++z)
    for (uint32_t y = 0; y < s.height_el; ++y)
      for (uint32_t x = 0; x < s.width_el; ++x) {
        uint64_t off;
        ASSERT_TRUE(element_offset(L, sub, x, y, z, 0, &off).ok());
        ASSERT_EQ(off, want(x, y, z)) << what << " sub " << sub << " at " << x << "," << y << "," << z;
      }
}

void round_trip(const Layout& L) {
  std::vector<uint8_t> res(L.size() + 64, 0xcd);
  std::mt19937 rng(5);
  std::vector<std::vector<uint8_t>> srcs;
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const SubresourceLayout& s = L.sub(i);
    const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
    std::vector<uint8_t> src(slice * s.depth);
    for (auto& b : src) b = static_cast<uint8_t>(rng());
    Status st = write_to_subresource(L, res.data(), L.size(), i, nullptr, src.data(), src.size(), row, slice);
    ASSERT_TRUE(st.ok()) << L.name() << ": " << st.message();
    srcs.push_back(src);
  }
  for (size_t k = L.size(); k < res.size(); ++k) ASSERT_EQ(res[k], 0xcd);
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const SubresourceLayout& s = L.sub(i);
    const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
    std::vector<uint8_t> dst(slice * s.depth, 0);
    Status st = read_from_subresource(dst.data(), dst.size(), row, slice, L, res.data(), L.size(), i, nullptr);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(dst, srcs[i]) << L.name() << " subresource " << i;
  }
}

nlohmann::json load_reference() {
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/hw/real_patterns.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

// An equation as printed (research table): per address bit, the XORed terms.
struct Eq {
  std::vector<std::vector<std::pair<int, unsigned>>> bits;
  uint64_t eval(uint64_t x, uint64_t y, uint64_t z, uint64_t s = 0) const {
    const uint64_t c[4] = {x, y, z, s};
    uint64_t v = 0;
    for (size_t i = 0; i < bits.size(); ++i) {
      uint64_t b = 0;
      for (auto [ch, bit] : bits[i]) b ^= (c[ch] >> bit) & 1;
      v |= b << i;
    }
    return v;
  }
};

Eq row_eq(const nlohmann::json& row) {
  Eq e;
  for (const auto& b : row["bits"]) {
    std::vector<std::pair<int, unsigned>> t;
    auto add = [&](const std::string& s) {
      t.push_back({static_cast<int>(std::string("XYZS").find(s[0])), static_cast<unsigned>(std::stoul(s.substr(1)))});
    };
    add(b["src"].get<std::string>());
    for (const auto& x : b["xor"]) add(x.get<std::string>());
    e.bits.push_back(t);
  }
  return e;
}

}  // namespace

// ---- AMD -----------------------------------------------------------------------
// Every GFX9..GFX11 row of the research table (addrlib equations checked there
// against Addr2ComputeSurfaceAddrFromCoord): a 2D array through the named
// family with a pipe/bank XOR, against model M evaluated from the printed
// equation: slice * slice size + block index * block bytes + (equation(x, y,
// z = slice) ^ pbXor << 8), blocks row-major over the padded pitch.
TEST(VendorAmd, EveryReferenceModeMatchesModelM) {
  const std::regex rx("^amd_(gfx9|gfx10|gfx103|gfx11)_(.+?)_SW_(256B|4KB|64KB|256KB)_([SDRZ])(_X|_T)?_32bpp$");
  auto ref = load_reference();
  int n = 0;
  const size_t step = swz_test::scaled_stride(1);  // SWZ_TEST_SCALE < 1: every step-th mode
  size_t index = 0;
  for (const auto& row : ref) {
    std::smatch m;
    const std::string name = row["name"].get<std::string>();
    if (!std::regex_match(name, m, rx)) continue;
    if (index++ % step != 0) continue;
    const std::string gen = m[1] == "gfx103" ? "gfx10.3" : m[1].str();
    const std::string size = m[3] == "256B" ? "256b" : m[3] == "4KB" ? "4k" : m[3] == "64KB" ? "64k" : "256k";
    std::string mode = m[4].str();
    mode[0] = static_cast<char>(std::tolower(mode[0]));
    std::string suffix = m[5].matched ? (m[5] == "_X" ? "-x" : "-t") : "";
    std::smatch pm;
    std::string cfg = m[2].str();
    std::string pipes =
        cfg.rfind("vega10", 0) == 0 ? "4" : (std::regex_search(cfg, pm, std::regex("(\\d+)pipe")) ? pm[1].str() : "?");
    const uint64_t bb = row["block_bytes"].get<uint64_t>();
    const unsigned nbits = static_cast<unsigned>(row["bits"].size());
    // addrlib applies a pipe/bank XOR on the XOR modes only: GFX10+ ignore it
    // on the others, GFX9 refuses it there (so it is not given).
    const uint64_t pbxor_given = nbits > 9 && (m[5].matched || gen != "gfx9") ? 3 : 0;
    const uint64_t pbxor = m[5].matched ? pbxor_given : 0;
    const std::string spec = "amd-" + gen + "-sw" + size + "-" + mode + suffix + ":pipes=" + pipes +
                             (pbxor_given ? ",pbxor=" + std::to_string(pbxor_given) : "");
    TextureDesc d = tex2d("R8G8B8A8_UNORM", 300, 170, 1, 3);
    Layout L = named(spec, d);
    ASSERT_EQ(L.subresource_count(), 3u) << spec;
    const unsigned rem = nbits - 2;
    const uint64_t bw_bytes = uint64_t{4} << ((rem + 1) / 2), bh = uint64_t{1} << (rem / 2);
    const uint64_t tiles_x = (300 * 4 + bw_bytes - 1) / bw_bytes, tiles_y = (170 + bh - 1) / bh;
    const uint64_t slice_size = tiles_x * tiles_y * bb;
    EXPECT_EQ(L.size(), 3 * slice_size) << spec;
    const Eq eq = row_eq(row);
    for (uint32_t s = 0; s < 3; ++s)
      expect_addresses(
          L, s,
          [&](uint32_t x, uint32_t y, uint32_t) {
            const uint64_t xb = uint64_t{x} * 4;
            return s * slice_size + ((y / bh) * tiles_x + xb / bw_bytes) * bb + (eq.eval(xb, y, s) ^ (pbxor << 8));
          },
          spec);
    ++n;
  }
  EXPECT_GE(n, 80 / static_cast<int>(step));
}

TEST(VendorAmd, StandardModeIsTheD3D12StandardSwizzle) {
  // Research notes: GFX9/GFX10 SW_64KB_S == D3D12 64KB_STANDARD_SWIZZLE (32 bpp).
  std::string s;
  Pattern std64;
  ASSERT_TRUE(standard_swizzle_pattern(LayoutKind::Std64K, Dimension::Texture2D, 4, &std64).ok());
  for (const char* spec : {"amd-gfx9-sw64k-s", "amd-gfx10-sw64k-s", "amd-gfx10.3-sw64k-s"}) {
    ASSERT_TRUE(describe_layout(spec, 4, &s).ok()) << spec;
    EXPECT_NE(s.find(to_text(std64)), std::string::npos) << spec << "\n" << s;
  }
  // ... and for every element size of GFX9/GFX10 SW_64KB_S (via TileYs): BC7 and R8 addresses equal std64k.
  for (const char* f : {"BC7_UNORM", "R8_UNORM", "BC1_UNORM", "R8G8_UNORM"}) {
    TextureDesc d = tex2d(f, 300, 260);
    Layout a = named("amd-gfx10-sw64k-s", d), b;
    LayoutSpec spec;
    spec.kind = LayoutKind::Std64K;
    ASSERT_TRUE(make_layout(d, spec, &b).ok());
    for (uint32_t y = 0; y < a.sub(0).height_el; y += 3)
      for (uint32_t x = 0; x < a.sub(0).width_el; x += 5) {
        uint64_t oa, ob;
        ASSERT_TRUE(element_offset(a, 0, x, y, 0, 0, &oa).ok());
        ASSERT_TRUE(element_offset(b, 0, x, y, 0, 0, &ob).ok());
        ASSERT_EQ(oa, ob) << f << " at " << x << "," << y;
      }
  }
}

TEST(VendorAmd, Gfx12ThickBlock3D) {
  auto ref = load_reference();
  for (const auto& row : ref) {
    if (row["name"] != "amd_gfx12_64KB_3D_32bpp") continue;
    TextureDesc d = tex2d("R8G8B8A8_UNORM", 100, 70);
    d.dimension = Dimension::Texture3D;
    d.depth = 40;
    Layout L = named("amd-gfx12-sw64k-3d:pbxor=0x15", d);
    // X0 X1 X2 Y0 X3 Z0 Y1 Z1 Y2 X4 Z2 Y3 X5 Z3 Y4 X6: 32 x 32 x 16 elements.
    const Eq eq = row_eq(row);
    const uint64_t tx = (100 + 31) / 32, ty = (70 + 31) / 32;
    expect_addresses(
        L, 0,
        [&](uint32_t x, uint32_t y, uint32_t z) {
          return (((z / 16) * ty + y / 32) * tx + x / 32) * 65536 + (eq.eval(uint64_t{x} * 4, y, z) ^ (0x15u << 8));
        },
        "gfx12 3D");
    round_trip(L);
  }
}

TEST(VendorAmd, Errors) {
  Layout L;
  Status st = make_named_layout("amd-gfx10.3-sw64k-r-x:pipes=8", tex2d("R8G8_UNORM", 64, 64), &L);
  EXPECT_EQ(st.code(), Code::unsupported);  // the research ran 4-byte elements only
  EXPECT_NE(st.message().find("4-byte"), std::string::npos) << st.message();
  st = make_named_layout("amd-gfx10.3-sw64k-r-x:pipes=2", tex2d("R8G8B8A8_UNORM", 64, 64), &L);
  EXPECT_EQ(st.code(), Code::unsupported);
  EXPECT_NE(st.message().find("pipes=8"), std::string::npos) << st.message();
  st = make_named_layout("amd-gfx9-sw4k-s-x:pbxor=16", tex2d("R8G8B8A8_UNORM", 64, 64), &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  st =
      make_named_layout("amd-gfx12-sw64k-2d", tex2d("R8G8B8A8_UNORM", 64, 64, 3), &L);  // GFX12 chains: offsets= needed
  EXPECT_EQ(st.code(), Code::unsupported);
  EXPECT_NE(st.message().find("offsets="), std::string::npos) << st.message();
  // With the driver's offsets (and mip-tail origins through the options) it
  // works: level 2 (16x16) sits at (32, 32) elements inside the tail block at 0x10000.
  NamedLayoutOptions o;
  o.levels = {{0, {0, 0, 0}}, {0x20000, {0, 0, 0}}, {0x10000, {128, 32, 0}}};
  ASSERT_TRUE(make_named_layout("amd-gfx11-sw64k-r-x", tex2d("R8G8B8A8_UNORM", 64, 64, 3), o, &L).ok());
  Layout one = named("amd-gfx11-sw64k-r-x", tex2d("R8G8B8A8_UNORM", 64, 64));
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      uint64_t a, b;
      ASSERT_TRUE(element_offset(L, 2, x, y, 0, 0, &a).ok());
      ASSERT_TRUE(element_offset(one, 0, 32 + x, 32 + y, 0, 0, &b).ok());
      ASSERT_EQ(a, 0x10000 + b);
    }
  round_trip(L);
  // The same placement written in the spec (offsets=OFF@X.Y).
  Layout S = named("amd-gfx11-sw64k-r-x:offsets=0/0x20000/0x10000@128.32", tex2d("R8G8B8A8_UNORM", 64, 64, 3));
  for (uint32_t i = 0; i < 3; ++i) {
    uint64_t a, b;
    ASSERT_TRUE(element_offset(L, i, 5, 3, 0, 0, &a).ok());
    ASSERT_TRUE(element_offset(S, i, 5, 3, 0, 0, &b).ok());
    EXPECT_EQ(a, b) << i;
  }
  EXPECT_EQ(
      make_named_layout("amd-gfx11-sw64k-r-x:offsets=0/1/2@1.2.3.4", tex2d("R8G8B8A8_UNORM", 64, 64, 3), &L).code(),
      Code::parse_error);
}

// ---- Intel -------------------------------------------------------------------------
namespace {
// Intel PRM / isl tile formulas (bytes x, rows y inside one tile).
uint64_t tile_x(uint64_t x, uint64_t y) { return (y % 8) * 512 + (x % 512); }
uint64_t tile_y(uint64_t x, uint64_t y) { return ((x % 128) / 16) * 512 + (y % 32) * 16 + (x % 16); }
uint64_t tile_4(uint64_t x, uint64_t y) {
  return ((y % 32) / 8) * 1024 + ((x % 128) / 64) * 512 + ((y % 8) / 4) * 256 + ((x % 64) / 16) * 64 + (y % 4) * 16 +
         (x % 16);
}
uint64_t surface(uint64_t x, uint64_t y, uint64_t pitch, uint64_t tw, uint64_t th,
                 uint64_t (*tile)(uint64_t, uint64_t)) {
  return ((y / th) * (pitch / tw) + x / tw) * (tw * th) + tile(x, y);
}
}  // namespace

TEST(VendorIntel, TileXYAnd4MatchTheTileFormulas) {
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 300, 100);
  Layout X = named("intel-tilex", d), Y = named("intel-tiley", d), F = named("intel-tile4", d);
  expect_addresses(
      X, 0, [](uint32_t x, uint32_t y, uint32_t) { return surface(x * 4ull, y, 1536, 512, 8, tile_x); }, "tilex");
  expect_addresses(
      Y, 0, [](uint32_t x, uint32_t y, uint32_t) { return surface(x * 4ull, y, 1280, 128, 32, tile_y); }, "tiley");
  expect_addresses(
      F, 0, [](uint32_t x, uint32_t y, uint32_t) { return surface(x * 4ull, y, 1280, 128, 32, tile_4); }, "tile4");
  round_trip(X);
  round_trip(F);
}

// isl_tiled_memcpy.c legacy bit-6 swizzling: X tiles bit6 ^= bit9 ^ bit10, Y tiles bit6 ^= bit9.
TEST(VendorIntel, LegacyBit6Swizzle) {
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 256, 64);
  Layout X = named("intel-tilex:bit6", d), Y = named("intel-tiley:bit6", d);
  expect_addresses(
      X, 0,
      [](uint32_t x, uint32_t y, uint32_t) {
        uint64_t o = surface(x * 4ull, y, 1024, 512, 8, tile_x);
        return o ^ ((((o >> 9) ^ (o >> 10)) & 1) << 6);
      },
      "tilex bit6");
  expect_addresses(
      Y, 0,
      [](uint32_t x, uint32_t y, uint32_t) {
        uint64_t o = surface(x * 4ull, y, 1024, 128, 32, tile_y);
        return o ^ (((o >> 9) & 1) << 6);
      },
      "tiley bit6");
}

TEST(VendorIntel, YfAndYsAreTheStandardSwizzles) {
  // Research notes: TileYf == 4KB standard swizzle, TileYs == D3D12 64KB standard swizzle (2D, 1-16 byte elements).
  for (uint32_t eb : {1u, 2u, 4u, 8u, 16u}) {
    Pattern p4, p64;
    ASSERT_TRUE(standard_swizzle_pattern(LayoutKind::Std4K, Dimension::Texture2D, eb, &p4).ok());
    ASSERT_TRUE(standard_swizzle_pattern(LayoutKind::Std64K, Dimension::Texture2D, eb, &p64).ok());
    TextureDesc d = tex2d(format_for(eb), 200, 90);
    Layout yf = named("intel-tileyf", d), ys = named("intel-tileys", d);
    EXPECT_EQ(yf.patterns()[0], p4) << eb;
    EXPECT_EQ(ys.patterns()[0], p64) << eb;
    LayoutSpec spec;
    spec.kind = LayoutKind::Std64K;
    Layout s64;
    ASSERT_TRUE(make_layout(d, spec, &s64).ok());
    for (uint32_t y = 0; y < 90; y += 7)
      for (uint32_t x = 0; x < 200; x += 3) {
        uint64_t a, b;
        ASSERT_TRUE(element_offset(ys, 0, x, y, 0, 0, &a).ok());
        ASSERT_TRUE(element_offset(s64, 0, x, y, 0, 0, &b).ok());
        ASSERT_EQ(a, b) << eb << " at " << x << "," << y;
      }
  }
}

// gmmlib GmmGen9TextureCalc (Get2DTexOffsetAddressPerMip, Get2DMipMapTotalHeight,
// Fill2DTexOffsetAddress): level 1 below level 0, levels 2.. right of level 1,
// array slices QPitch rows apart; HALIGN 16 / VALIGN 4 (gmmlib Gen9 platform "AllOther").
TEST(VendorIntel, Gen9MipLayoutAndQPitch) {
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 100, 60, 4, 2);
  Layout L = named("intel-tiley", d);
  auto al = [](uint64_t v) { return (v + 3) / 4 * 4; };
  auto al16 = [](uint64_t v) { return (v + 15) / 16 * 16; };  // gmmlib Gen9 HALIGN_16 ("AllOther")
  const uint64_t w[4] = {al16(100), al16(50), al16(25), al16(12)}, h[4] = {al(60), al(30), al(15), al(7)};
  const uint64_t xo[4] = {0, 0, w[1], w[1]}, yo[4] = {0, h[0], h[0], h[0] + h[2]};
  const uint64_t qpitch = al(h[0] + std::max(h[1], h[2] + h[3]));
  const uint64_t pitch = (std::max(w[0], w[1] + w[2]) * 4 + 127) / 128 * 128;
  for (uint32_t s = 0; s < 2; ++s)
    for (uint32_t m = 0; m < 4; ++m)
      expect_addresses(
          L, m + 4 * s,
          [&](uint32_t x, uint32_t y, uint32_t) {
            return surface((xo[m] + x) * 4, yo[m] + y + s * qpitch, pitch, 128, 32, tile_y);
          },
          "tiley mips");
  round_trip(L);
}

// Yf/Ys mip tails: gmmlib places each tail level at a byte offset inside the
// tail tile (GmmGen9TextureCalc::GetMipTailByteOffset, 2D: slot 0..14 = 32K,
// 16K, 8K, 4K, 2K, 1536, 1280, 1024, 768, 512, 256, 192, 128, 64, 0; Yf
// starts at slot 4) and, separately, at a geometric offset
// (GetMipTailGeometryOffset, GEN9_MIPTAIL_SLOT_OFFSET_2D_SURFACE), which the
// layout uses. Through the tile pattern the two tables must agree.
TEST(VendorIntel, YfYsMipTailMatchesGmmlibByteOffsets) {
  const uint64_t bytes[15] = {32768, 16384, 8192, 4096, 2048, 1536, 1280, 1024, 768, 512, 256, 192, 128, 64, 0};
  for (const char* fam : {"intel-tileys", "intel-tileyf"})
    for (uint32_t eb : {1u, 2u, 4u, 8u, 16u}) {
      const bool ys = std::string(fam) == "intel-tileys";
      const uint32_t size = ys ? 512 : 128;
      TextureDesc d = tex2d(format_for(eb), size, size, full_mip_count(size, size, 1));
      Layout L = named(fam, d);
      // The tail start: the first level no larger than half a tile wide and a tile tall.
      const Pattern& p = L.patterns()[0];
      const uint64_t tw = p.block_extent()[0] / eb, th = p.block_extent()[1];
      uint32_t tail = 0;
      while (tail + 1 < d.mip_levels && !((size >> tail) <= tw / 2 && (size >> tail) <= th)) ++tail;
      uint64_t tail_tile;
      ASSERT_TRUE(element_offset(L, tail, 0, 0, 0, 0, &tail_tile).ok());
      tail_tile &= ~uint64_t{p.block_extent()[0] * p.block_extent()[1] - 1};  // start of the tail tile
      for (uint32_t m = tail; m < d.mip_levels; ++m) {
        uint64_t off;
        ASSERT_TRUE(element_offset(L, m, 0, 0, 0, 0, &off).ok());
        const uint32_t slot = m - tail + (ys ? 0 : 4);
        EXPECT_EQ(off - tail_tile, bytes[slot]) << fam << " " << eb << "-byte mip " << m << " (slot " << slot << ")";
      }
      round_trip(L);
    }
}

TEST(VendorIntel, Tile64AndMsaaRows) {
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 256, 256);
  d.samples = 4;
  Layout L = named("intel-tile64:v2", d);
  // gmmlib INTEL_TILE_64 V2 MSAA4 32bpp: X0..X3 Y0 Y1 X4 X5 S0 S1 Y2 Y3 X6 X7 Y4 Y5.
  EXPECT_EQ(to_text(L.patterns()[0]), "X0 X1 X2 X3 Y0 Y1 X4 X5 S0 S1 Y2 Y3 X6 X7 Y4 Y5");
  uint64_t off;
  ASSERT_TRUE(element_offset(L, 0, 0, 0, 0, 3, &off).ok());
  EXPECT_EQ(off, 3u << 8);
  Layout bad;
  TextureDesc v = tex2d("R8G8B8A8_UNORM", 64, 64, 2);
  v.dimension = Dimension::Texture3D;
  v.depth = 8;
  EXPECT_EQ(make_named_layout("intel-tile64", v, &bad).code(), Code::unsupported);  // 3D Tile64 tails not modelled
}

// ---- Xbox 360 ----------------------------------------------------------------------
namespace {
// Xenia src/xenia/gpu/shaders/texture_address.hlsli XeTextureTiledOffset2D
// (credited there to gildor2/UModel UnTexture.cpp).
int64_t xe_tiled_offset_2d(int64_t px, int64_t py, uint32_t pitch_aligned, uint32_t bpb_log2) {
  int64_t macro = ((px >> 5) + (py >> 5) * int64_t(pitch_aligned >> 5u)) << (bpb_log2 + 7);
  int64_t micro = ((px & 7) + ((py & 0xE) << 2)) << bpb_log2;
  int64_t offset = macro + ((micro & ~int64_t{0xF}) << 1) + (micro & 0xF) + ((py & 1) << 4);
  return ((offset & ~int64_t{0x1FF}) << 3) + ((py & 16) << 7) + ((offset & 0x1C0) << 2) +
         (((((py & 8) >> 2) + (px >> 3)) & 3) << 6) + (offset & 0x3F);
}
}  // namespace

TEST(VendorXbox360, MatchesXeniaTiledOffset) {
  struct Case {
    const char* format;
    uint32_t w, h;
  } cases[] = {{"R8G8B8A8_UNORM", 96, 70}, {"R16G16B16A16_FLOAT", 64, 64}, {"R32G32B32A32_FLOAT", 40, 33},
               {"BC1_UNORM", 640, 480},    {"BC3_UNORM", 100, 36},         {"R8_UNORM", 256, 40},
               {"R8G8_UNORM", 128, 33}};
  for (const Case& c : cases) {
    TextureDesc d = tex2d(c.format, c.w, c.h);
    Layout L = named("xbox360-tiled", d);
    const uint32_t eb = d.format.element_bytes;
    const uint32_t log2 = eb == 1 ? 0 : eb == 2 ? 1 : eb == 4 ? 2 : eb == 8 ? 3 : 4;
    const uint32_t pitch = (L.sub(0).width_el + 31) / 32 * 32;
    expect_addresses(
        L, 0,
        [&](uint32_t x, uint32_t y, uint32_t) { return static_cast<uint64_t>(xe_tiled_offset_2d(x, y, pitch, log2)); },
        c.format);
    round_trip(L);
  }
  // 640x480 BC1: 160 x 120 blocks; the last row of 32-block tiles is padded (120 -> 128).
  Layout bc1 = named("xbox360-tiled", tex2d("BC1_UNORM", 640, 480));
  EXPECT_EQ(bc1.size(), 5u * 4 * 8192);
  Layout bad;
  Status st = make_named_layout("xbox360-tiled", tex2d("R8_UNORM", 96, 32), &bad);
  EXPECT_EQ(st.code(), Code::unsupported);
  EXPECT_NE(st.message().find("128"), std::string::npos) << st.message();
}

// ---- PS4 / GCN 1D_THIN -----------------------------------------------------------------
// addrlib1 ComputePixelIndexWithinMicroTile (non-displayable thin: x0 y0 x1 y1 x2 y2);
// GFD-Studio PS4SwizzleAlgorithm: 8x8 micro tiles row-major, sizes padded to 8.
TEST(VendorPs4, MortonMicroTiles) {
  for (const char* f : {"R8_UNORM", "R8G8B8A8_UNORM", "BC1_UNORM", "BC7_UNORM", "R16G16B16A16_FLOAT"}) {
    TextureDesc d = tex2d(f, 100, 52);
    Layout L = named("ps4-1d-thin", d);
    const uint32_t eb = d.format.element_bytes, w = L.sub(0).width_el;
    expect_addresses(
        L, 0,
        [&](uint32_t x, uint32_t y, uint32_t) {
          uint64_t idx = (x & 1) | ((y & 1) << 1) | ((x & 2) << 1) | ((y & 2) << 2) | ((x & 4) << 2) | ((y & 4) << 3);
          uint64_t tile = (y / 8) * ((w + 7) / 8) + x / 8;
          return (tile * 64 + idx) * eb;
        },
        f);
    round_trip(L);
  }
}

// ---- Mali u-interleaved ------------------------------------------------------------------
// pan_tiling.c: 16x16 texel tiles (4x4 blocks for block-compressed formats),
// index bit pairs (x_i ^ y_i, y_i), tiles row-major.
TEST(VendorMali, UInterleavedTiles) {
  for (const char* f : {"R8_UNORM", "R8G8B8A8_UNORM", "R32G32B32A32_FLOAT", "BC1_UNORM", "BC7_UNORM"}) {
    TextureDesc d = tex2d(f, 90, 70);
    Layout L = named("mali-u-interleaved", d);
    const uint32_t eb = d.format.element_bytes, w = L.sub(0).width_el;
    const uint32_t t = d.format.block_compressed() ? 4 : 16, pairs = d.format.block_compressed() ? 2 : 4;
    expect_addresses(
        L, 0,
        [&](uint32_t x, uint32_t y, uint32_t) {
          uint64_t idx = 0;
          for (uint32_t i = 0; i < pairs; ++i)
            idx |= ((((x >> i) ^ (y >> i)) & 1) << (2 * i)) | (((y >> i) & 1) << (2 * i + 1));
          uint64_t tile = (y / t) * ((w + t - 1) / t) + x / t;
          return (tile * t * t + idx) * eb;
        },
        f);
    round_trip(L);
  }
}

// ---- Adreno a6xx ---------------------------------------------------------------------------
// fd6_tiled_memcpy.cc: get_block_size, get_pixel_offset, block_x_xormask,
// block_y_xormask (with the bank swizzle), macrotile pitch = stride * 4096.
namespace {
uint64_t fd6_offset(uint32_t x, uint32_t y, uint32_t cpp, bool ch8, uint32_t mt_stride, uint32_t bank_mask,
                    uint32_t bank_shift) {
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
  uint32_t xm = (((xb & 1) * 0b111) ^ (cpp < 16 ? (xb & (ch8 ? 0b110 : 0b010)) : 0) ^ ((xb >> 1) << 3)) << 8;
  uint32_t ym = ((((yb & 1) * 0b110) ^ (((yb >> 1) & 1) * 0b011) ^ (ch8 && cpp < 16 ? (yb & 0b100) : 0)) << 8) |
                ((yb & bank_mask) << bank_shift);
  const uint64_t tiled_row = uint64_t{yb >> 2} * mt_stride * 4096;
  return tiled_row + pixel(x % bw, y % bh) * cpp + (xm ^ ym);
}
}  // namespace

TEST(VendorAdreno, MacrotileXorScheme) {
  for (bool ch8 : {false, true})
    for (uint32_t cpp : {1u, 2u, 4u, 8u, 16u}) {
      TextureDesc d = tex2d(format_for(cpp), 150, 40);
      Layout L = named(std::string("adreno-a6xx:mode=") + (ch8 ? "8ch" : "4ch"), d);
      uint32_t bw = cpp == 1 ? 32 : cpp == 2 ? 32 : cpp == 4 ? 16 : cpp == 8 ? 8 : 4;
      // freedreno's pitch (fd6_layout.c fdl6_tile_alignment): 150 px aligned
      // to 128/256/256/512/1024 bytes for 1/2/4/8/16-byte elements.
      const uint32_t align_B = cpp == 1 ? 128 : cpp <= 4 ? 256 : cpp == 8 ? 512 : 1024;
      uint32_t mt = (150 * cpp + align_B - 1) / align_B * align_B / (bw * 4 * cpp);
      expect_addresses(
          L, 0, [&](uint32_t x, uint32_t y, uint32_t) { return fd6_offset(x, y, cpp, ch8, mt, 0, 0); },
          std::to_string(cpp) + (ch8 ? " 8ch" : " 4ch"));
      round_trip(L);
    }
}

TEST(VendorAdreno, BankSwizzleWithHighestBankBit) {
  // hbb 14, levels 2+3 (mask 0x6): stride 16 macrotiles is aligned to 2^(14-12) and 2^(14-11).
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 1024, 128);
  Layout L = named("adreno-a6xx:hbb=14", d);
  // get_bank_mask = fdl6_get_bank_mask << 2 = 0b11 << 2; get_bank_shift = hbb - 1 - 2.
  expect_addresses(
      L, 0, [&](uint32_t x, uint32_t y, uint32_t) { return fd6_offset(x, y, 4, false, 16, 0b1100, 11); }, "bank");
  round_trip(L);
}

// ---- Apple AGX ------------------------------------------------------------------------------
// Level offsets and sizes from Mesa's asahi layout tests (src/asahi/layout/tests/test-layout.cpp).
TEST(VendorApple, AsahiLayoutTestNumbers) {
  {
    TextureDesc d = tex2d("R32_FLOAT", 63, 63, 6, 6);  // Cubemap.RoundsToOnePage
    Layout L = named("apple-twiddled", d);
    const uint64_t off[5] = {0, 0x4000, 0x5000, 0x5400, 0x5500};
    for (uint32_t m = 0; m < 5; ++m) EXPECT_EQ(L.sub(m).offset, off[m]) << m;
    EXPECT_EQ(L.sub(6).offset, 0x8000u);  // layer stride
    EXPECT_EQ(L.size(), 0x30000u);
    round_trip(L);
  }
  {
    Layout L = named("apple-twiddled", tex2d("R8G8B8A8_UINT", 1024, 1024, 11));  // Miptree.AllMipLevels
    EXPECT_EQ(L.size(), 0x555680u);
    Layout S = named("apple-twiddled", tex2d("R8G8B8A8_UINT", 1024, 1024, 4));  // Miptree.SomeMipLevels
    EXPECT_EQ(S.size(), 0x555680u);
  }
  {
    Layout L = named("apple-twiddled", tex2d("R32_FLOAT", 32, 16, 4, 64));  // Miptree.SmallPartialMiptree2DArray
    EXPECT_EQ(L.sub(4).offset, 0xc00u);
    EXPECT_EQ(L.size(), 0x30000u);
  }
}

// tiling.cc memcpy_small: tile index (y / th) * ceil(stride / tw) + x / tw, and
// inside the tile x bits on the even, y bits on the odd element-index bits.
TEST(VendorApple, TwiddledAddresses) {
  auto space = [](uint32_t v) {
    uint64_t r = 0;
    for (unsigned i = 0; i < 16; ++i) r |= uint64_t((v >> i) & 1) << (2 * i);
    return r;
  };
  struct Case {
    uint32_t eb, tw, th;
  } cases[] = {{1, 128, 128}, {2, 128, 64}, {4, 64, 64}, {8, 64, 32}, {16, 32, 32}};
  for (const Case& c : cases) {
    TextureDesc d = tex2d(format_for(c.eb), 300, 200, 3);
    Layout L = named("apple-twiddled", d);
    // ail_initialize_gpu_tiled: levels keep the 16 KiB tile until the level is
    // smaller than a tile in either direction; from then on square tiles of
    // next_power_of_two(min(w, h) >> level) elements.
    uint32_t pot_level = 0;
    for (uint32_t w = 300, h = 200; w >= c.tw && h >= c.th; w >>= 1, h >>= 1) ++pot_level;
    for (uint32_t m = 0; m < 3; ++m) {
      const SubresourceLayout& s = L.sub(m);
      uint64_t tw = c.tw, th = c.th;
      if (m >= pot_level) {
        uint64_t t = 1;
        while (t < (200u >> m)) t <<= 1;
        tw = th = t;
      }
      const uint64_t tiles_per_row = (s.width_el + tw - 1) / tw;
      expect_addresses(
          L, m,
          [&](uint32_t x, uint32_t y, uint32_t) {
            uint64_t tile = (y / th) * tiles_per_row + x / tw;
            return s.offset + (tile * tw * th +
                               (space(static_cast<uint32_t>(x % tw)) | (space(static_cast<uint32_t>(y % th)) << 1))) *
                                  c.eb;
          },
          "apple " + std::to_string(c.eb) + " level " + std::to_string(m));
    }
    round_trip(L);
  }
}

// ---- every family: listing, describe, round trip -------------------------------------------
TEST(VendorFamilies, ListingDescribesEveryFamily) {
  const auto& fams = layout_families();
  EXPECT_GE(fams.size(), 60u);
  for (const LayoutFamily& f : fams) {
    EXPECT_FALSE(f.description.empty()) << f.name;
    EXPECT_FALSE(f.source.empty()) << f.name;
    EXPECT_TRUE(is_named_layout(f.name)) << f.name;
    std::string eq;
    Status st = Status::Ok();
    bool any = false;
    for (uint32_t eb : {4u, 1u, 2u, 8u, 16u}) {
      st = describe_layout(f.name, eb, &eq);
      if (st.ok()) {
        any = true;
        EXPECT_NE(eq.find('X'), std::string::npos) << f.name;
        break;
      }
    }
    EXPECT_TRUE(any) << f.name << ": " << st.message();
  }
  EXPECT_FALSE(is_named_layout("std64k"));
}

TEST(VendorFamilies, EveryFamilyRoundTrips) {
  for (const LayoutFamily& f : layout_families()) {
    for (uint32_t eb : {1u, 2u, 4u, 8u, 16u}) {
      TextureDesc d = tex2d(format_for(eb), 77, 45, 1, 2);
      Layout L;
      Status st = make_named_layout(f.name, d, &L);
      if (st.code() == Code::unsupported) continue;  // the family has no pattern for this size
      ASSERT_TRUE(st.ok()) << f.name << " " << eb << ": " << st.message();
      round_trip(L);
      // locate() inverts element_offset on a sample of elements.
      for (uint32_t y = 0; y < 45; y += 11)
        for (uint32_t x = 0; x < 77; x += 13) {
          uint64_t off;
          ASSERT_TRUE(element_offset(L, 1, x, y, 0, 0, &off).ok());
          Location loc;
          ASSERT_TRUE(locate(L, off, &loc).ok());
          EXPECT_FALSE(loc.padding);
          EXPECT_EQ(loc.x, x);
          EXPECT_EQ(loc.y, y);
        }
    }
  }
}
