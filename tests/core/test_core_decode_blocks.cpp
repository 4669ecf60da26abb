// decode_rgba8 / decode_rgba32f against blocks and texels built bit by bit
// from the formats' public definitions; every expected value is worked out
// here, not produced by swz:
//  * BC1-BC5: the Direct3D 10 "Block Compression" page and the Khronos Data
//    Format Specification (S3TC, RGTC): 5:6:5 endpoints expanded by bit
//    replication, colour 2 = 2/3 c0 + 1/3 c1 when c0 > c1 as 16-bit numbers,
//    else the midpoint and transparent black; BC2's 4-bit alpha x 17; the
//    8- and 6-value alpha palettes chosen by alpha 0 > alpha 1. Endpoints are
//    chosen so that every interpolated value is exact (no rounding latitude).
//  * BC6H and BC7: the ARB_texture_compression_bptc specification: Table.M and
//    Table.MF (field order), Table.P2 / Table.P3 rows 34 and 35, Table.A2 /
//    Table.A3a / Table.A3b anchors, weights 0 and 64 at the ends of each index
//    range, rotation and index selection bits, transformed endpoints.
//  * YUV: ITU-R BT.709 and BT.601 inverse matrices as the standards publish
//    them (R = Y + 1.5748 Cr, G = Y - 0.1873 Cb - 0.4681 Cr, B = Y + 1.8556 Cb
//    for BT.709), limited range 16-235 / 16-240.
//  * sRGB: IEC 61966-2-1's decoding function.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "swz/decode.hpp"
#include "decode_util.hpp"

namespace {
using namespace swz;

using swz_test::decode_8;
using swz_test::decode_f;
using swz_test::tight_image;

using Rgba = std::vector<uint8_t>;
Rgba texel(const std::vector<uint8_t>& px, size_t i) { return Rgba(px.begin() + i * 4, px.begin() + i * 4 + 4); }

// A 64- or 128-bit block written from its least significant bit up.
struct BlockWriter {
  std::vector<uint8_t> b;
  unsigned pos = 0;
  explicit BlockWriter(size_t bytes) : b(bytes, 0) {}
  void put(uint32_t v, unsigned bits) {
    for (unsigned k = 0; k < bits; ++k, ++pos)
      if ((v >> k) & 1) b[pos / 8] |= static_cast<uint8_t>(1u << (pos % 8));
  }
};

// A BC1 colour block: two 5:6:5 endpoints, then sixteen 2-bit indices.
std::vector<uint8_t> bc1(uint16_t c0, uint16_t c1, const int idx[16]) {
  BlockWriter w(8);
  w.put(c0, 16);
  w.put(c1, 16);
  for (int i = 0; i < 16; ++i) w.put(static_cast<uint32_t>(idx[i]), 2);
  return w.b;
}

// A BC3-alpha / BC4 block: two byte endpoints, sixteen 3-bit indices.
std::vector<uint8_t> bc4(uint8_t e0, uint8_t e1, const int idx[16]) {
  BlockWriter w(8);
  w.put(e0, 8);
  w.put(e1, 8);
  for (int i = 0; i < 16; ++i) w.put(static_cast<uint32_t>(idx[i]), 3);
  return w.b;
}

TEST(DecodeBlocks, Bc1FourColourPalette) {
  // Red 0xF800 > blue 0x001F: four colours; 2/3 and 1/3 of 255 are exact.
  const int idx[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  const std::vector<uint8_t> px = decode_8("BC1_UNORM", bc1(0xF800, 0x001F, idx), 4, 4);
  const Rgba want[4] = {{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255}, {85, 0, 170, 255}};
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(texel(px, i), want[i % 4]) << i;
  // 5:6:5 components expand by replicating their top bits: r 5 -> 41, g 33 -> 134, b 17 -> 140.
  const uint16_t c = static_cast<uint16_t>((5 << 11) | (33 << 5) | 17);
  const int zero[16] = {};
  EXPECT_EQ(texel(decode_8("BC1_UNORM", bc1(c, 0, zero), 4, 4), 0), (Rgba{41, 134, 140, 255}));
}

TEST(DecodeBlocks, Bc1ThreeColourPaletteWhenColour0IsNotGreater) {
  // r 5 (41) < r 31 (255) as 16-bit numbers: colour 2 is the midpoint 148,
  // colour 3 transparent black.
  const int idx[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  const std::vector<uint8_t> block = bc1(5 << 11, 31 << 11, idx);
  const std::vector<uint8_t> px = decode_8("BC1_UNORM", block, 4, 4);
  const Rgba want[4] = {{41, 0, 0, 255}, {255, 0, 0, 255}, {148, 0, 0, 255}, {0, 0, 0, 0}};
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(texel(px, i), want[i % 4]) << i;
  const std::vector<float> f = decode_f("BC1_UNORM", block, 4, 4);
  EXPECT_EQ(f[3 * 4 + 3], 0.0f);
  EXPECT_EQ(f[2 * 4 + 3], 1.0f);
  // Equal endpoints are "not greater": index 3 is transparent black, not the endpoint.
  const int three[16] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
  const std::vector<uint8_t> eq = decode_8("BC1_UNORM", bc1(0xF800, 0xF800, three), 4, 4);
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(texel(eq, i), (Rgba{0, 0, 0, 0})) << i;
}

TEST(DecodeBlocks, Bc2ExplicitAlphaAndAlwaysFourColours) {
  // Alpha: texel i's 4-bit value is i (x 17); colour: equal endpoints, index 3,
  // which BC2 reads from the four-colour palette (1/3 c0 + 2/3 c1 = red).
  BlockWriter w(16);
  for (uint32_t i = 0; i < 16; ++i) w.put(i, 4);
  w.put(0xF800, 16);
  w.put(0xF800, 16);
  for (int i = 0; i < 16; ++i) w.put(3, 2);
  const std::vector<uint8_t> px = decode_8("BC2_UNORM", w.b, 4, 4);
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(texel(px, i), (Rgba{255, 0, 0, static_cast<uint8_t>(i * 17)})) << i;
}

TEST(DecodeBlocks, Bc3AndBc4UnsignedEightAndSixValuePalettes) {
  const int idx[16] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};
  struct Case {
    uint8_t e0, e1;
    int want[8];
  };
  const Case cases[] = {
      {70, 0, {70, 0, 60, 50, 40, 30, 20, 10}},            // 70 > 0: six interpolated values of 70/7
      {0, 50, {0, 50, 10, 20, 30, 40, 0, 255}},            // 0 <= 50: four of 50/5, then 0 and 255
      {100, 100, {100, 100, 100, 100, 100, 100, 0, 255}},  // equal endpoints: the six-value palette
  };
  int checked = 0;
  for (const Case& c : cases) {
    const std::vector<uint8_t> a = bc4(c.e0, c.e1, idx);
    // BC4_UNORM: red, shown grey in RGBA8; value / 255 in RGBA32F.
    const std::vector<uint8_t> g = decode_8("BC4_UNORM", a, 4, 4);
    const std::vector<float> f = decode_f("BC4_UNORM", a, 4, 4);
    // BC3: the same block as alpha, over an opaque-white colour block.
    std::vector<uint8_t> b3 = a;
    const int zero[16] = {};
    for (uint8_t byte : bc1(0xFFFF, 0xFFFF, zero)) b3.push_back(byte);
    const std::vector<uint8_t> p3 = decode_8("BC3_UNORM", b3, 4, 4);
    for (size_t i = 0; i < 16; ++i) {
      const int v = c.want[idx[i]];
      EXPECT_EQ(texel(g, i), (Rgba{static_cast<uint8_t>(v), static_cast<uint8_t>(v), static_cast<uint8_t>(v), 255}))
          << int(c.e0) << " " << int(c.e1) << " texel " << i;
      EXPECT_NEAR(f[i * 4], v / 255.0, 1e-6) << int(c.e0) << " " << int(c.e1) << " texel " << i;
      EXPECT_EQ(texel(p3, i), (Rgba{255, 255, 255, static_cast<uint8_t>(v)})) << int(c.e0) << " texel " << i;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

TEST(DecodeBlocks, Bc4SignedEqualEndpointsUseTheSixValuePalette) {
  // 10 <= 10: indices 6 and 7 are -1 and +1, the others 10/127.
  const int idx[16] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<float> f = decode_f("BC4_SNORM", bc4(10, 10, idx), 4, 4);
  for (size_t i = 0; i < 16; ++i) {
    const double want = idx[i] == 6 ? -1.0 : idx[i] == 7 ? 1.0 : 10 / 127.0;
    EXPECT_NEAR(f[i * 4], want, 1e-6) << i;
  }
}

// ---- BC7 ----------------------------------------------------------------------------------------

// Table.P2 row 34 and Table.P3 row 35, texels row-major; their anchors
// (Table.A2[34] = 6; Table.A3a[35] = 5, Table.A3b[35] = 10).
constexpr int kP2Row34[16] = {0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0};
constexpr int kP3Row35[16] = {0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0};

TEST(DecodeBlocks, Bc7Mode1PartitionAnchorAndSharedPBits) {
  // Mode 1: two subsets, partition 34, 6-bit endpoints with one shared P-bit
  // per subset (subset 0: 1, subset 1: 0), 3-bit indices. Anchor texels (0
  // and 6) hold index 0 in two bits -> endpoint 0; all others index 7
  // (weight 64) -> endpoint 1.
  const int ep6[2][2][3] = {{{63, 0, 0}, {0, 63, 0}}, {{0, 0, 63}, {32, 32, 32}}};  // [subset][endpoint][rgb]
  BlockWriter w(16);
  w.put(0b10, 2);
  w.put(34, 6);
  for (int c = 0; c < 3; ++c)
    for (int s = 0; s < 2; ++s)
      for (int e = 0; e < 2; ++e) w.put(static_cast<uint32_t>(ep6[s][e][c]), 6);
  w.put(1, 1);  // subset 0's P-bit
  w.put(0, 1);  // subset 1's P-bit
  for (int i = 0; i < 16; ++i) {
    const bool anchor = i == 0 || i == 6;
    w.put(anchor ? 0 : 7, anchor ? 2 : 3);
  }
  ASSERT_EQ(w.pos, 128u);
  // 7-bit values (v << 1 | p) expanded to 8 bits by replicating the top bit:
  // 63|1 = 127 -> 255, 0|1 = 1 -> 2, 63|0 = 126 -> 253, 32|0 = 64 -> 129.
  const Rgba want[2][2] = {{{255, 2, 2, 255}, {2, 255, 2, 255}}, {{0, 0, 253, 255}, {129, 129, 129, 255}}};
  const std::vector<uint8_t> px = decode_8("BC7_UNORM", w.b, 4, 4);
  for (size_t i = 0; i < 16; ++i) {
    const bool anchor = i == 0 || i == 6;
    EXPECT_EQ(texel(px, i), want[kP2Row34[i]][anchor ? 0 : 1]) << "texel " << i;
  }
}

TEST(DecodeBlocks, Bc7Mode2ThreeSubsetAnchors) {
  // Mode 2: three subsets, partition 35, 5-bit endpoints (no P-bits), 2-bit
  // indices. Anchors 0, 5 and 10 hold index 0 in one bit -> endpoint 0; all
  // others index 3 (weight 64) -> endpoint 1.
  const int ep5[3][2][3] = {{{31, 0, 0}, {17, 17, 17}}, {{0, 31, 0}, {0, 0, 17}}, {{0, 0, 31}, {17, 0, 0}}};
  BlockWriter w(16);
  w.put(0b100, 3);
  w.put(35, 6);
  for (int c = 0; c < 3; ++c)
    for (int s = 0; s < 3; ++s)
      for (int e = 0; e < 2; ++e) w.put(static_cast<uint32_t>(ep5[s][e][c]), 5);
  for (int i = 0; i < 16; ++i) {
    const bool anchor = i == 0 || i == 5 || i == 10;
    w.put(anchor ? 0 : 3, anchor ? 1 : 2);
  }
  ASSERT_EQ(w.pos, 128u);
  // 5-bit values expand as (v << 3) | (v >> 2): 31 -> 255, 17 -> 140.
  auto x = [](int v) { return static_cast<uint8_t>((v << 3) | (v >> 2)); };
  const std::vector<uint8_t> px = decode_8("BC7_UNORM", w.b, 4, 4);
  for (size_t i = 0; i < 16; ++i) {
    const bool anchor = i == 0 || i == 5 || i == 10;
    const int* e = ep5[kP3Row35[i]][anchor ? 0 : 1];
    EXPECT_EQ(texel(px, i), (Rgba{x(e[0]), x(e[1]), x(e[2]), 255})) << "texel " << i;
  }
}

TEST(DecodeBlocks, Bc7Mode5Rotation) {
  // Mode 5: one subset, rotation bits, 7-bit colour and 8-bit alpha
  // endpoints, 2-bit colour and alpha indices, all 0 -> endpoint 0:
  // (127 -> 255, 64 -> 129, 0) and alpha 40. Rotation r swaps alpha with
  // component r - 1.
  int checked = 0;
  const Rgba want[4] = {{255, 129, 0, 40}, {40, 129, 0, 255}, {255, 40, 0, 129}, {255, 129, 40, 0}};
  for (uint32_t rotation = 0; rotation < 4; ++rotation) {
    BlockWriter w(16);
    w.put(1u << 5, 6);
    w.put(rotation, 2);
    for (uint32_t v : {127u, 0u, 64u, 0u, 0u, 0u}) w.put(v, 7);
    w.put(40, 8);
    w.put(200, 8);
    w.put(0, 31);
    w.put(0, 31);
    ASSERT_EQ(w.pos, 128u);
    const std::vector<uint8_t> px = decode_8("BC7_UNORM", w.b, 4, 4);
    for (size_t i = 0; i < 16; ++i)
      EXPECT_EQ(texel(px, i), want[rotation]) << "rotation " << rotation << " texel " << i;
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

TEST(DecodeBlocks, Bc7Mode4IndexSelection) {
  // Mode 4: colour endpoints red (31, 0, 0) and green (0, 31, 0), alpha 63
  // and 0; the 2-bit indices all 0, the 3-bit indices 7 (texel 0's anchor
  // holds 3: not checked). Selection bit 0: colour from the 2-bit indices
  // (red), alpha from the 3-bit ones (0); 1: the other way round.
  int checked = 0;
  for (uint32_t isb = 0; isb < 2; ++isb) {
    BlockWriter w(16);
    w.put(1u << 4, 5);
    w.put(0, 2);
    w.put(isb, 1);
    for (uint32_t v : {31u, 0u, 0u, 31u, 0u, 0u}) w.put(v, 5);
    w.put(63, 6);
    w.put(0, 6);
    w.put(0, 31);
    for (int i = 0; i < 16; ++i) w.put(i == 0 ? 3 : 7, i == 0 ? 2 : 3);
    ASSERT_EQ(w.pos, 128u);
    const std::vector<uint8_t> px = decode_8("BC7_UNORM", w.b, 4, 4);
    const Rgba want = isb ? Rgba{0, 255, 0, 255} : Rgba{255, 0, 0, 0};
    for (size_t i = 1; i < 16; ++i) EXPECT_EQ(texel(px, i), want) << "isb " << isb << " texel " << i;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// ---- BC6H ---------------------------------------------------------------------------------------

double half_value(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1.0 + m / 1024.0, e - 15);
  return (h & 0x8000) ? -v : v;
}

// Mode 11 (m[4:0] = 00111): one region, 11-bit endpoint 0 and 9-bit signed
// deltas: r0[9:0], g0[9:0], b0[9:0], r1[8:0], r0[10], g1[8:0], g0[10],
// b1[8:0], b0[10], then 63 index bits. Texel 15 holds index 15 (weight 64:
// endpoint 1), the others index 0 (endpoint 0).
std::vector<uint8_t> bc6_mode11(const int e0[3], const int d[3]) {
  BlockWriter w(16);
  w.put(0b00111, 5);
  for (int c = 0; c < 3; ++c) w.put(static_cast<uint32_t>(e0[c]) & 1023u, 10);
  for (int c = 0; c < 3; ++c) {
    w.put(static_cast<uint32_t>(d[c]) & 511u, 9);
    w.put((static_cast<uint32_t>(e0[c]) >> 10) & 1u, 1);
  }
  for (int i = 0; i < 16; ++i) w.put(i == 15 ? 15 : 0, i == 0 ? 3 : 4);
  EXPECT_EQ(w.pos, 128u);
  return w.b;
}

TEST(DecodeBlocks, Bc6hTransformedEndpointsWrapAndSignedDeltas) {
  // Unsigned: endpoint 1 = (e0 + sign-extended delta) mod 2^11; unquantized
  // 0 -> 0, 2047 -> 0xFFFF, else ((x << 15) + 0x4000) >> 10; finished x 31 >> 6.
  auto unsigned_half = [](int x) {
    const int unq = x == 0 ? 0 : x == 2047 ? 0xFFFF : ((x << 15) + 0x4000) >> 10;
    return static_cast<uint16_t>((unq * 31) >> 6);
  };
  const int e0[3] = {1000, 2040, 100}, d[3] = {-5, 20, -100};
  const int e1[3] = {995, 12, 0};  // 1000 - 5; (2040 + 20) mod 2048; 100 - 100
  std::vector<float> got = decode_f("BC6H_UF16", bc6_mode11(e0, d), 4, 4);
  for (int c = 0; c < 3; ++c) {
    EXPECT_FLOAT_EQ(got[size_t(c)], static_cast<float>(half_value(unsigned_half(e0[c])))) << c;
    EXPECT_FLOAT_EQ(got[15 * 4 + size_t(c)], static_cast<float>(half_value(unsigned_half(e1[c])))) << c;
  }
  // Signed: endpoint 0 is an 11-bit two's-complement number, endpoint 1 the
  // sum wrapped to 11 bits and sign-extended; unquantized by magnitude
  // (|x| >= 1023 -> 0x7FFF, else ((|x| << 15) + 0x4000) >> 10), finished
  // magnitude x 31 >> 5 with the sign in bit 15.
  auto signed_half = [](int x) {
    const int a = std::abs(x);
    const int unq = a == 0 ? 0 : a >= 1023 ? 0x7FFF : ((a << 15) + 0x4000) >> 10;
    const int mag = (unq * 31) >> 5;
    return static_cast<uint16_t>(x < 0 ? (mag | 0x8000) : mag);
  };
  const int s0[3] = {-1000, 1020, 0}, sd[3] = {-5, 10, -7};
  const int s1[3] = {-1005, -1018, -7};  // 1020 + 10 = 1030 wraps past 1023 to -1018
  got = decode_f("BC6H_SF16", bc6_mode11(s0, sd), 4, 4);
  for (int c = 0; c < 3; ++c) {
    EXPECT_FLOAT_EQ(got[size_t(c)], static_cast<float>(half_value(signed_half(s0[c])))) << c;
    EXPECT_FLOAT_EQ(got[15 * 4 + size_t(c)], static_cast<float>(half_value(signed_half(s1[c])))) << c;
  }
}

// ---- texel formats ------------------------------------------------------------------------------

TEST(DecodeBlocks, SrgbFloatOutputIsLinear) {
  // IEC 61966-2-1: c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4; alpha stays linear.
  auto linear = [](int byte) {
    const double c = byte / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  const std::vector<float> f = decode_f("R8G8B8A8_UNORM_SRGB", {128, 10, 255, 128}, 1, 1);
  EXPECT_NEAR(f[0], linear(128), 1e-6);
  EXPECT_NEAR(f[1], linear(10), 1e-6);
  EXPECT_NEAR(f[2], 1.0, 1e-6);
  EXPECT_NEAR(f[3], 128 / 255.0, 1e-6);
  // BC1_UNORM_SRGB: colour 2 of red/blue is (170, 0, 85), linearised.
  const int two[16] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
  const std::vector<float> b = decode_f("BC1_UNORM_SRGB", bc1(0xF800, 0x001F, two), 4, 4);
  EXPECT_NEAR(b[0], linear(170), 1e-6);
  EXPECT_NEAR(b[2], linear(85), 1e-6);
  // The RGBA8 view keeps the stored bytes.
  EXPECT_EQ(decode_8("R8G8B8A8_UNORM_SRGB", {128, 10, 255, 128}, 1, 1), (Rgba{128, 10, 255, 128}));
}

TEST(DecodeBlocks, SnormViewMapsMinusOneToOneOntoTheByteRange) {
  // The RGBA8 view of SNORM: (x + 1) / 2, so -1 -> 0, 0 -> 128 (127.5 rounded up), +1 -> 255.
  const std::vector<uint8_t> px = decode_8("R8_SNORM", {0x81, 0x00, 0x7F}, 3, 1);
  EXPECT_EQ(texel(px, 0), (Rgba{0, 0, 0, 255}));
  EXPECT_EQ(texel(px, 1), (Rgba{128, 128, 128, 255}));
  EXPECT_EQ(texel(px, 2), (Rgba{255, 255, 255, 255}));
  // BC5_SNORM: red 0, green -1 (both endpoints, index 0).
  const int zero[16] = {};
  std::vector<uint8_t> b5 = bc4(0, 0, zero);
  for (uint8_t byte : bc4(0x81, 0x81, zero)) b5.push_back(byte);
  EXPECT_EQ(texel(decode_8("BC5_SNORM", b5, 4, 4), 5), (Rgba{128, 0, 0, 255}));
}

// Y'CbCr -> R'G'B' with the inverse matrices as BT.709 and BT.601 publish
// them, 8-bit limited range, in 0..255.
Rgba yuv_expected(bool bt709, int y, int u, int v) {
  const double yn = (y - 16) / 219.0, cb = (u - 128) / 224.0, cr = (v - 128) / 224.0;
  double r, g, b;
  if (bt709) {
    r = yn + 1.5748 * cr;
    g = yn - 0.1873 * cb - 0.4681 * cr;
    b = yn + 1.8556 * cb;
  } else {
    r = yn + 1.402 * cr;
    g = yn - 0.344136 * cb - 0.714136 * cr;
    b = yn + 1.772 * cb;
  }
  auto q = [](double x) { return static_cast<uint8_t>(std::lround(std::fmin(std::fmax(x, 0.0), 1.0) * 255)); };
  return {q(r), q(g), q(b), 255};
}

void expect_near(const Rgba& got, const Rgba& want, int tol, const std::string& what) {
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[size_t(c)], want[size_t(c)], tol) << what << " component " << c;
}

TEST(DecodeBlocks, YuvMatricesOnAColourWithEveryTerm) {
  // Y 126, Cb 100, Cr 184: every coefficient of both matrices moves the result.
  const Rgba ayuv = {184, 100, 126, 255};  // AYUV bytes V, U, Y, A
  expect_near(decode_8("AYUV", ayuv, 1, 1), yuv_expected(true, 126, 100, 184), 1, "BT.709 (the default)");
  DecodeOptions o;
  o.yuv_matrix = YuvMatrix::bt601;
  expect_near(decode_8("AYUV", ayuv, 1, 1, o), yuv_expected(false, 126, 100, 184), 1, "BT.601");
  o.yuv_matrix = YuvMatrix::bt709;
  expect_near(decode_8("AYUV", ayuv, 1, 1, o), yuv_expected(true, 126, 100, 184), 1, "BT.709");
}

TEST(DecodeBlocks, Yuy2TexelsTakeTheirOwnLuma) {
  // YUY2 bytes Y0, U, Y1, V: two texels sharing chroma, black then white.
  const std::vector<uint8_t> px = decode_8("YUY2", {16, 128, 235, 128, 235, 128, 16, 128}, 4, 1);
  EXPECT_EQ(px, (std::vector<uint8_t>{0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255}));
}

TEST(DecodeBlocks, Nv12LumaRowsShareTheirChromaRow) {
  // 2x4 NV12: luma 126 everywhere; chroma row 0 neutral, chroma row 1 (100,
  // 184). Luma rows 0 and 1 read chroma row 0, rows 2 and 3 chroma row 1.
  // Zero bytes follow the image, so reading a wrong row stays in the buffer.
  std::vector<uint8_t> buf(8, 126);
  for (uint8_t v : {128, 128, 100, 184}) buf.push_back(v);
  buf.resize(buf.size() + 16, 0);
  const std::vector<uint8_t> px = decode_8("NV12", buf, 2, 4);
  const Rgba grey = yuv_expected(true, 126, 128, 128), colour = yuv_expected(true, 126, 100, 184);
  for (size_t i = 0; i < 8; ++i) expect_near(texel(px, i), i < 4 ? grey : colour, 1, "texel " + std::to_string(i));
}

TEST(DecodeBlocks, PartialBlocksAtTheRightAndBottomEdges) {
  // 6x5 texels of BC1: 2x2 blocks, each one solid colour (equal endpoints,
  // index 0), tight: block (1, 0) at byte 8, block (0, 1) at byte 16.
  const int zero[16] = {};
  std::vector<uint8_t> data;
  const uint16_t colours[4] = {0xF800, 0x07E0, 0x001F, 0xFFFF};  // red, green, blue, white
  for (uint16_t c : colours)
    for (uint8_t b : bc1(c, c, zero)) data.push_back(b);
  const Rgba rgb[4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
  const std::vector<uint8_t> px = decode_8("BC1_UNORM", data, 6, 5);
  const std::vector<float> f = decode_f("BC1_UNORM", data, 6, 5);
  DecodeOptions green;
  green.channel = ViewChannel::g;
  const std::vector<uint8_t> g = decode_8("BC1_UNORM", data, 6, 5, green);
  int checked = 0;
  for (uint32_t y = 0; y < 5; ++y)
    for (uint32_t x = 0; x < 6; ++x) {
      const size_t i = size_t{y} * 6 + x;
      const Rgba& want = rgb[(y / 4) * 2 + x / 4];
      EXPECT_EQ(texel(px, i), want) << x << "," << y;
      for (int c = 0; c < 4; ++c) EXPECT_EQ(f[i * 4 + size_t(c)], want[size_t(c)] / 255.0f) << x << "," << y;
      EXPECT_EQ(texel(g, i), (Rgba{want[1], want[1], want[1], 255})) << x << "," << y;
      ++checked;
    }
  EXPECT_EQ(checked, 30);
}

}  // namespace
