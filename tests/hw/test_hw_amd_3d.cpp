// AMD GFX9-GFX11 3D surfaces (thick and thin) and the surface info addrlib's
// Addr2ComputeSurfaceInfo reports (amd_surface_info), as whole resources.
//
// Sources, all independent of the code under test:
//  - vectors derived by hand from Mesa's addrlib source (the steps and the
//    function each comes from are written next to them);
//  - tests/data/hw/amd_3d_equations.json: addrlib's 3D bit equations, evaluated
//    term by term against the library's canonicalized patterns;
//  - tests/data/hw/amd_addrlib_vectors.json: surface info and addresses that a
//    local build of addrlib returned (Addr2ComputeSurfaceInfo,
//    Addr2ComputeSurfaceAddrFromCoord), one random surface with a mip chain
//    per family and configuration, 2D arrays and 3D;
//  - byte claims (no two subresources share a byte) and round trips.
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

nlohmann::json load(const char* name) {
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/hw/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

// An addrlib equation term list ("X9^Y4^Y7" ...) at (x bytes, y, z).
uint64_t eval_terms(const nlohmann::json& raw, uint64_t xb, uint64_t y, uint64_t z) {
  uint64_t a = 0;
  for (size_t bit = 0; bit < raw.size(); ++bit) {
    const std::string t = raw[bit].get<std::string>();
    uint64_t v = 0;
    size_t p = 0;
    while (p < t.size()) {
      size_t q = t.find('^', p);
      if (q == std::string::npos) q = t.size();
      const char c = t[p];
      const unsigned i = static_cast<unsigned>(std::stoul(t.substr(p + 1, q - p - 1)));
      v ^= ((c == 'X' ? xb : c == 'Y' ? y : z) >> i) & 1;
      p = q + 1;
    }
    a |= v << bit;
  }
  return a;
}

AmdSurfaceInfo info_of(const std::string& spec, const TextureDesc& d) {
  AmdSurfaceInfo ai;
  const Status st = amd_surface_info(spec, d, &ai);
  EXPECT_TRUE(st.ok()) << spec << ": " << st.message();
  return ai;
}

}  // namespace

// RGBA8 100x70x40, 7 levels, GFX10.3 SW_64KB_S_X (8 pipes), 3D:
//  - thick (Gfx10Lib::HwlIsThick: 3D in a standard mode); block 32x32x16
//    elements (Block64K_Log2_3d for 4-byte elements: 5, 5, 4);
//  - pitch = 100 aligned to 32 = 128, height = 70 aligned to 32 = 96,
//    numSlices = 40 aligned to 16 = 48 (ComputeSurfaceInfoMacroTiled);
//  - the largest tail level: the block with its width halved (GetMipTailDim,
//    thick, log2(65536) mod 3 = 1) = 16x32; at most 16 - (16 - 8) / 3 - 4 = 10
//    levels in the tail (GetMaxNumMipsInTail, thick);
//  - level sizes round up (GetMipSize): 100x70, 50x35, 25x18, 13x9 -> level 3
//    is the first in the tail (firstMipIdInTail 3);
//  - one slice of blocks: level 0 4x3 blocks, level 1 64x64 = 2x2, level 2 one
//    block, the tail one block: 18 x 64 KiB = 1179648 bytes for 16 slices, so
//    sliceSize = 73728 and surfSize = 73728 x 48 = 3538944; baseAlign 65536;
//  - offsets (the tail block first, then the levels from the smallest): tail
//    0, level 2 65536, level 1 131072, level 0 393216; tail slots m = 9, 8, 7, 6
//    for levels 3..6 -> byte offsets 16 << 9 = 8192, 4096, 2048, 1536 ->
//    256-byte micro blocks (odd bits from 9, even bits from 8) (4,0) (0,4)
//    (2,0) (1,2), in Block256_3d units of 4x4 elements: x 16 / y 16 / x 8 / x 4, y 8.
TEST(Amd3d, Gfx103ThickChainDerivedFromAddrlib) {
  const std::string spec = "amd-gfx10.3-sw64k-s-x:pipes=8";
  const TextureDesc d = tex3d("R8G8B8A8_UNORM", 100, 70, 40, 7);
  Layout L = named(spec, d);
  const uint64_t off[7] = {393216, 131072, 65536, 0, 0, 0, 0};
  const uint64_t ox[7] = {0, 0, 0, 16, 0, 8, 4}, oy[7] = {0, 0, 0, 0, 16, 0, 8};
  for (uint32_t m = 0; m < 7; ++m) {
    EXPECT_EQ(L.sub(m).offset, off[m]) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[0], ox[m] * 4) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[1], oy[m]) << m;
    EXPECT_EQ(L.sub(m).depth_pitch_B, 1179648u) << m;
  }
  EXPECT_EQ(L.size(), 3538944u);
  const AmdSurfaceInfo ai = info_of(spec, d);
  EXPECT_EQ(ai.pitch_el, 128u);
  EXPECT_EQ(ai.height_el, 96u);
  EXPECT_EQ(ai.num_slices, 48u);
  EXPECT_EQ(ai.slice_size_B, 73728u);
  EXPECT_EQ(ai.surf_size_B, 3538944u);
  EXPECT_EQ(ai.base_align_B, 65536u);
  EXPECT_EQ(ai.first_mip_in_tail, 3u);
  EXPECT_EQ(ai.block_d, 16u);
  EXPECT_TRUE(ai.thick);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// RGBA8 300x200x5, 9 levels, GFX11 SW_64KB_R_X (8 pipes), 3D: thin
// (Gfx11Lib::HwlIsThin: the R mode is neither standard nor display), and the
// 3D pattern is the 2D one (GetSwizzlePatternInfo: GFX11_SW_64K_ZR_X_1xaa
// for both). So the chain is the 2D chain: block 128x128, the tail from
// level 3 (38x25 fits 64x128); level 0 384x256 = 6 blocks, level 1 256x128 =
// 2, level 2 one, the tail one: sliceSize 10 x 65536 = 655360; each depth slice one
// sliceSize after the last (ComputeSurfaceAddrFromCoordMacroTiled, thin:
// sliceSize x slice), with the depth slice in the equation's Z: exactly the
// layout of a 5-slice 2D array.
TEST(Amd3d, Gfx11ThinEqualsTheArrayChain) {
  const std::string spec = "amd-gfx11-sw64k-r-x:pipes=8";
  Layout V = named(spec, tex3d("R8G8B8A8_UNORM", 300, 200, 5, 9));
  Layout A = named(spec, tex2d("R8G8B8A8_UNORM", 300, 200, 9, 5));
  EXPECT_EQ(V.size(), 5 * 655360u);
  EXPECT_EQ(A.size(), V.size());
  for (uint32_t m = 0; m < 9; ++m) {
    const SubresourceLayout& s = V.sub(m);
    for (uint32_t z = 0; z < s.depth; ++z)
      for (uint32_t y = 0; y < s.height_el; y += 1 + s.height_el / 5)
        for (uint32_t x = 0; x < s.width_el; x += 1 + s.width_el / 5) {
          uint64_t v = 0, a = 0;
          ASSERT_TRUE(element_offset(V, m, x, y, z, 0, &v).ok());
          ASSERT_TRUE(element_offset(A, m + z * 9, x, y, 0, 0, &a).ok());
          ASSERT_EQ(v, a) << "level " << m << " at " << x << "," << y << "," << z;
        }
  }
  const AmdSurfaceInfo ai = info_of(spec, tex3d("R8G8B8A8_UNORM", 300, 200, 5, 9));
  EXPECT_EQ(ai.pitch_el, 384u);
  EXPECT_EQ(ai.height_el, 256u);
  EXPECT_EQ(ai.num_slices, 5u);
  EXPECT_EQ(ai.slice_size_B, 655360u);
  EXPECT_EQ(ai.surf_size_B, 5 * 655360u);
  EXPECT_EQ(ai.first_mip_in_tail, 3u);
  EXPECT_FALSE(ai.thick);
  EXPECT_TRUE(swz_test::claim_bytes(V));
  swz_test::round_trip_all(V);
}

// RGBA8 300x200x30, 9 levels, GFX9 SW_64KB_D_X, 3D: thin on GFX9
// (Gfx9Lib::HwlIsThick is false for display modes), block 128x128.
// GetMipChainInfo from 300x200 (tail: 64x128): 300x200, then each padded
// level halved: 192x128, 128x64, 64x32 -> the tail starts at level 3.
// HwlComputeSurfaceInfoTiled: level 0 is 3x2 blocks, X-major (not fewer
// blocks wide than tall), so the chain grows taller by level 1's height in
// blocks, RoundHalf(2) = 1, plus one because that is a single block and the
// chain goes past level 2: mipChainPitch 384, mipChainHeight 4 x 128 = 512,
// sliceSize = 384 x 512 x 4 = 786432, numSlices 30 (thin: not padded),
// surfSize 23592960, baseAlign the block (an XOR mode,
// ComputeSurfaceBaseAlignTiled; 256 for the non-XOR SW_64KB_D).
TEST(Amd3d, Gfx9ThinChainDerivedFromAddrlib) {
  const TextureDesc d = tex3d("R8G8B8A8_UNORM", 300, 200, 30, 9);
  Layout L = named("amd-gfx9-sw64k-d-x", d);
  EXPECT_EQ(L.size(), 23592960u);
  EXPECT_EQ(L.sub(0).depth_pitch_B, 786432u);
  AmdSurfaceInfo ai = info_of("amd-gfx9-sw64k-d-x", d);
  EXPECT_EQ(ai.pitch_el, 384u);
  EXPECT_EQ(ai.height_el, 256u);
  EXPECT_EQ(ai.chain_pitch_el, 384u);
  EXPECT_EQ(ai.chain_height_el, 512u);
  EXPECT_EQ(ai.num_slices, 30u);
  EXPECT_EQ(ai.slice_size_B, 786432u);
  EXPECT_EQ(ai.surf_size_B, 23592960u);
  EXPECT_EQ(ai.base_align_B, 65536u);
  EXPECT_EQ(ai.first_mip_in_tail, 3u);
  EXPECT_EQ(info_of("amd-gfx9-sw64k-d", d).base_align_B, 256u);
  // Gfx9Lib::ValidateSwModeParams ("zMaxMip"): a mipmapped 3D surface in a
  // display mode may not be at least as deep as it is wide and tall.
  Layout bad;
  EXPECT_EQ(make_named_layout("amd-gfx9-sw64k-d", tex3d("R8G8B8A8_UNORM", 16, 16, 16, 2), &bad).code(),
            Code::unsupported);
  Layout ok = named("amd-gfx9-sw64k-d", tex3d("R8G8B8A8_UNORM", 16, 16, 16, 1));
  Layout ok2 = named("amd-gfx9-sw64k-d", tex3d("R8G8B8A8_UNORM", 17, 16, 16, 2));
  EXPECT_TRUE(swz_test::claim_bytes(ok2));
}

// Z modes with 1- and 2-byte elements: the largest tail level shrinks by the
// 256-byte micro block's ratio to the 4-byte one (Block256_2d {16,16} /
// {16,8} vs {8,8}): GFX10.3 (dsMipmapHtileFix) width and height for 1 byte,
// width only for 2 bytes; GFX11 both by the width ratio. R8 20x188, 5 levels,
// GFX10.3 SW_64KB_Z_X (16 pipes): block 256x256, tail 128x256 -> 64x128:
// level 0 (20x188) is too tall, level 1 (10x94) fits: firstMipIdInTail 1, and
// the slice is two blocks (level 0, the tail), sliceSize 131072.
TEST(Amd3d, ZModeTailShrinkDerivedFromAddrlib) {
  const TextureDesc d = tex3d("R8_UINT", 20, 188, 21, 5);
  const AmdSurfaceInfo ai = info_of("amd-gfx10.3-sw64k-z-x:pipes=16", d);
  EXPECT_EQ(ai.first_mip_in_tail, 1u);
  EXPECT_EQ(ai.slice_size_B, 131072u);
  EXPECT_EQ(ai.surf_size_B, 21 * 131072u);
  // 2-byte elements (block 256x128 elements, tail 128x128): GFX10.3 halves the
  // width only (64x128), GFX11 both (64x64). R16 40x100: level 0 fits GFX10.3's
  // tail, not GFX11's (100 rows > 64).
  EXPECT_EQ(info_of("amd-gfx10.3-sw64k-z-x:pipes=16", tex3d("R16_UINT", 40, 100, 1, 3)).first_mip_in_tail, 0u);
  EXPECT_EQ(info_of("amd-gfx11-sw64k-z-x:pipes=8", tex3d("R16_UINT", 40, 100, 1, 3)).first_mip_in_tail, 1u);
}

// Every row of amd_3d_equations.json, term by term, against the library's
// single-level 3D layout of the family: address = block slice x its bytes +
// block index x block bytes + equation(x bytes, y, z) (pbxor 0).
TEST(Amd3d, EquationsMatchAddrlibTermByTerm) {
  const auto j = load("amd_3d_equations.json");
  std::mt19937 rng(3);
  size_t rows = 0;
  for (const auto& r : j["rows"]) {
    const std::string spec = r["family"].get<std::string>() + ":" + r["config"].get<std::string>();
    const uint32_t eb = r["element_bytes"].get<uint32_t>();
    TextureDesc d = tex3d("R8_UINT", 1, 1, 1);
    d.format = swz_test::format_for_bytes(eb);
    unsigned bx = 0, by = 0, bz = 1;
    ASSERT_TRUE(std::sscanf(r["block"].get<std::string>().c_str(), "%ux%ux%u", &bx, &by, &bz) >= 2);
    const uint32_t bw = bx / eb;
    // Four blocks each way: XOR terms read coordinate bits above the block.
    d.width = 4 * bw;
    d.height = 4 * by;
    d.depth = 4 * bz;
    Layout L = named(spec, d);
    const SubresourceLayout& s = L.sub(0);
    const uint64_t bb = uint64_t{1} << r["raw"].size(), pb = s.row_pitch / bb;
    for (int k = 0; k < 64; ++k) {
      const uint32_t x = rng() % d.width, y = rng() % d.height, z = rng() % d.depth;
      uint64_t got = 0;
      ASSERT_TRUE(element_offset(L, 0, x, y, z, 0, &got).ok());
      const uint64_t want =
          (z / bz) * s.depth_pitch_B + (y / by * pb + x / bw) * bb + eval_terms(r["raw"], uint64_t{x} * eb, y, z);
      ASSERT_EQ(got, want) << spec << " " << eb << "-byte at " << x << "," << y << "," << z;
    }
    ++rows;
  }
  EXPECT_EQ(rows, 236u);
  // The modes addrlib has no 3D equation for are refused.
  for (const auto& r : j["refused"]) {
    const std::string spec = r["family"].get<std::string>() + ":" + r["config"].get<std::string>();
    for (const auto& e : r["element_bytes"]) {
      TextureDesc d = tex3d("R8_UINT", 64, 64, 8);
      d.format = swz_test::format_for_bytes(e.get<uint32_t>());
      Layout bad;
      EXPECT_EQ(make_named_layout(spec, d, &bad).code(), Code::unsupported) << spec << " " << e;
    }
  }
}

// Surface info and addresses from a local addrlib build (2D arrays and 3D,
// mip chains, pbxor on XOR modes): every field and every point; the layout's
// size is addrlib's surfSize.
TEST(Amd3d, AddrlibSurfaceInfoAndAddresses) {
  const auto j = load("amd_addrlib_vectors.json");
  size_t points = 0, surfaces = 0;
  for (const auto& e : j["surfaces"]) {
    const std::string spec = e["spec"].get<std::string>();
    const bool is3d = e["dim"].get<std::string>() == "3D";
    const uint32_t mips = e["mips"].get<uint32_t>();
    const std::string fmt_name = e["format"].get<std::string>();
    TextureDesc d = is3d ? tex3d(fmt_name.c_str(), e["width"], e["height"], e["depth"], mips)
                         : tex2d(fmt_name.c_str(), e["width"], e["height"], mips, e["array"]);
    const std::string what = spec + " " + fmt_name + " " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                             "x" + std::to_string(is3d ? d.depth : d.array_size) + " mips " + std::to_string(mips);
    Layout L = named(spec, d);
    const auto& a = e["addrlib"];
    const AmdSurfaceInfo ai = info_of(spec, d);
    EXPECT_EQ(ai.pitch_el, a["pitch"].get<uint64_t>()) << what;
    EXPECT_EQ(ai.height_el, a["height"].get<uint64_t>()) << what;
    EXPECT_EQ(ai.num_slices, a["numSlices"].get<uint64_t>()) << what;
    EXPECT_EQ(ai.chain_pitch_el, a["mipChainPitch"].get<uint64_t>()) << what;
    EXPECT_EQ(ai.chain_height_el, a["mipChainHeight"].get<uint64_t>()) << what;
    EXPECT_EQ(ai.slice_size_B, a["sliceSize"].get<uint64_t>()) << what;
    EXPECT_EQ(ai.surf_size_B, a["surfSize"].get<uint64_t>()) << what;
    EXPECT_EQ(ai.base_align_B, a["baseAlign"].get<uint64_t>()) << what;
    EXPECT_EQ(ai.first_mip_in_tail, a["firstMipIdInTail"].get<uint32_t>()) << what;
    EXPECT_EQ(L.size(), a["surfSize"].get<uint64_t>()) << what;
    for (const auto& p : e["points"]) {
      const uint32_t m = p[0], x = p[1], y = p[2], z = p[3];
      uint64_t got = 0;
      const uint32_t sub = is3d ? m : m + z * mips;
      ASSERT_TRUE(element_offset(L, sub, x, y, is3d ? z : 0, 0, &got).ok()) << what;
      EXPECT_EQ(got, p[4].get<uint64_t>()) << what << " level " << m << " at " << x << "," << y << "," << z;
      ++points;
    }
    ++surfaces;
  }
  EXPECT_EQ(surfaces, 147u);
  EXPECT_EQ(points, 4 * 147u);
}

// Random 3D surfaces over every family with 3D equations (thick and thin),
// sizes, element sizes and mip counts: no byte claimed twice, round trips.
TEST(Amd3d, RandomChainsClaimAndRoundTrip) {
  const auto j = load("amd_3d_equations.json");
  std::vector<const nlohmann::json*> rows;
  for (const auto& r : j["rows"]) rows.push_back(&r);
  std::mt19937 rng(15);
  int ran = 0;
  for (int it = 0; it < 40; ++it) {
    const auto& r = *rows[rng() % rows.size()];
    std::string spec = r["family"].get<std::string>() + ":" + r["config"].get<std::string>();
    const std::string fam = r["family"].get<std::string>();
    if ((fam.size() > 2 && (fam.substr(fam.size() - 2) == "-x" || fam.substr(fam.size() - 2) == "-t")) && rng() % 2)
      spec += ",pbxor=" + std::to_string(1 + rng() % 15);
    const uint32_t w = 1 + rng() % 90, h = 1 + rng() % 70, dd = 1 + rng() % 20;
    const uint32_t mips = 1 + rng() % full_mip_count(w, h, dd);
    TextureDesc d = tex3d("R8_UINT", w, h, dd, mips);
    d.format = swz_test::format_for_bytes(r["element_bytes"].get<uint32_t>());
    Layout L;
    const Status st = make_named_layout(spec, d, &L);
    if (!st.ok()) {
      // GFX9 display modes refuse deep mipmapped 3D surfaces (zMaxMip).
      EXPECT_TRUE(fam.rfind("amd-gfx9-", 0) == 0 && mips > 1 && dd >= w && dd >= h) << spec << ": " << st.message();
      continue;
    }
    const std::string what = spec + " " + std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(dd) +
                             " mips " + std::to_string(mips);
    AmdSurfaceInfo ai;
    ASSERT_TRUE(amd_surface_info(spec, d, &ai).ok()) << what;
    EXPECT_EQ(L.size(), ai.surf_size_B) << what;
    ASSERT_TRUE(swz_test::claim_bytes(L)) << what;
    swz_test::round_trip_all(L, static_cast<uint32_t>(it));
    ++ran;
  }
  EXPECT_GE(ran, 30) << "chains checked";
}

TEST(Amd3d, SurfaceInfoRefusals) {
  AmdSurfaceInfo ai;
  // A mode addrlib refuses for 3D says so.
  Layout bad;
  const Status st = make_named_layout("amd-gfx10.3-sw4k-d-x:pipes=8", tex3d("R8G8B8A8_UNORM", 64, 64, 8), &bad);
  EXPECT_EQ(st.code(), Code::unsupported);
  EXPECT_NE(st.message().find("addrlib refuses this swizzle mode for 3D"), std::string::npos) << st.message();
  EXPECT_NE(make_named_layout("amd-gfx11-sw256k-d-x", tex3d("R8G8B8A8_UNORM", 64, 64, 8), &bad)
                .message()
                .find("GetSwizzlePatternInfo"),
            std::string::npos);
  EXPECT_EQ(amd_surface_info("intel-tiley", tex2d("R8G8B8A8_UNORM", 64, 64), &ai).code(), Code::unsupported);
  EXPECT_EQ(amd_surface_info("amd-gfx12-sw64k-2d", tex2d("R8G8B8A8_UNORM", 64, 64), &ai).code(), Code::unsupported);
  EXPECT_EQ(amd_surface_info("amd-gfx10-sw64k-s-x:offsets=0/0x80000,pitches=384/256",
                             tex2d("R8G8B8A8_UNORM", 300, 200, 2), &ai)
                .code(),
            Code::unsupported);
  // Errors of the layout itself come first.
  EXPECT_EQ(amd_surface_info("amd-gfx10-sw64k-s-x:bogus=1", tex2d("R8G8B8A8_UNORM", 64, 64), &ai).code(),
            Code::invalid_argument);
  // slice_size= pads addrlib's sliceSize.
  ASSERT_TRUE(amd_surface_info("amd-gfx10-sw64k-s-x:slice_size=0x100000", tex2d("R8G8B8A8_UNORM", 300, 200, 9, 2), &ai)
                  .ok());
  EXPECT_EQ(ai.slice_size_B, 0x100000u);
  EXPECT_EQ(ai.surf_size_B, 0x200000u);
}

// A deep but small volume (1x1x2^20 R8: 256 MiB padded in SW_4KB_S) trips
// the builders' coarse 2^62 bound; the refusal names the sizes it judged
// rather than only saying that the padded size does not fit in 62 bits.
TEST(Amd3d, CoarseSizeBoundNamesTheFields) {
  Layout L;
  const Status st = make_named_layout("amd-gfx9-sw4k-s", tex3d("R8_UNORM", 1, 1, 1u << 20, 1), &L);
  EXPECT_EQ(st.code(), Code::overflow);
  EXPECT_NE(st.message().find("depth = 1048576"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("width = 1"), std::string::npos) << st.message();
  EXPECT_EQ(st.message().find("padded size does not fit"), std::string::npos) << st.message();
}

// addrlib's ValidateSwModeParams refuses block-compressed (and packed 4:2:2)
// formats in the Z swizzle modes: Gfx9Lib (IsZOrderSwizzle: isBc, is422),
// Gfx10Lib / Gfx11Lib (IsZOrderSwizzle: ElemLib::IsBlockCompressed,
// IsMacroPixelPacked). The 3D Z equations exist for 8- and 16-byte elements,
// so the refusal must come from the format: BC1 and BC7 3D surfaces are not
// laid out in these modes.
TEST(Amd3d, ZModesRefuseBlockCompressedFormats) {
  for (const char* spec : {"amd-gfx9-sw64k-z-x", "amd-gfx10-sw64k-z-x", "amd-gfx10.3-sw64k-z-x", "amd-gfx11-sw64k-z-x",
                           "amd-gfx11-sw256k-z-x", "amd-gfx10.3-sw256k-z-x"}) {
    for (const char* fmt : {"BC1_UNORM", "BC7_UNORM"}) {
      Layout L;
      const Status st = make_named_layout(spec, tex3d(fmt, 64, 64, 4, 1), &L);
      EXPECT_EQ(st.code(), Code::unsupported) << spec << " " << fmt << ": " << st.message();
      EXPECT_NE(st.message().find("block-compressed"), std::string::npos) << spec << " " << fmt << ": " << st.message();
    }
    Layout ok = named(spec, tex3d("R8G8B8A8_UNORM", 64, 64, 4, 1));
    EXPECT_TRUE(swz_test::claim_bytes(ok)) << spec;
  }
  // The standard and display modes keep BC.
  Layout s = named("amd-gfx9-sw64k-s", tex3d("BC1_UNORM", 64, 64, 4, 1));
  EXPECT_GT(s.size(), 0u);
}
