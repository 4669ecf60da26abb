// ETC1 / ETC2 / EAC and ASTC decoding. Expected values are not produced by
// swz:
//  * ETC2 and EAC: the worked examples of the Khronos Data Format
//    Specification, chapter "ETC2 Compressed Texture Image Formats"
//    (KhronosGroup/DataFormat, chapters/etc2.adoc): the individual,
//    differential, T, H and planar mode examples (their base colours, tables
//    and paint colours; the planar example's 16 texels), the RGBA ETC2 alpha
//    example (base 103, table 13, index 3, multiplier 2 -> 83), the unsigned
//    R11 examples (-> 668, and 818 with multiplier 0), the signed R11
//    examples (base 60 -> 320, and 470 with multiplier 0) and the rules for
//    punch-through alpha and the signed clamp. The blocks are assembled here
//    from the bit layouts of that chapter's tables.
//  * ASTC: void-extent blocks, whose decode the ASTC specification
//    (Khronos Data Format Specification, ASTC chapter, "Void-Extent Blocks")
//    defines exactly as their UNORM16 colour; and libastcenc's own
//    compressor for a round trip with a PSNR bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "swz/copy.hpp"
#include "swz/decode.hpp"
#include "swz/layout.hpp"
#include "swz/layout_names.hpp"
#include "decode_util.hpp"

#if defined(SWZ_TESTS_HAVE_ASTCENC)
#include <astcenc.h>
#endif

namespace {
using namespace swz;

using swz_test::decode_8;
using swz_test::decode_f;
using swz_test::fmt;
using swz_test::tight_image;

// ---- assembling ETC blocks from the specification's bit layouts ------------------------------------

struct Word {
  uint64_t w = 0;
  Word& set(int hi, int lo, uint64_t v) {
    const uint64_t mask = ((uint64_t{1} << (hi - lo + 1)) - 1) << lo;
    w = (w & ~mask) | ((v << lo) & mask);
    return *this;
  }
  // The 2-bit pixel index of texel (x, y): MSB in bit 16 + i, LSB in bit i, i = 4x + y.
  Word& index(int x, int y, int idx) {
    const int i = x * 4 + y;
    set(16 + i, 16 + i, (idx >> 1) & 1);
    return set(i, i, idx & 1);
  }
  // Every texel's index: idx(x, y).
  template <class F>
  Word& indices(F idx) {
    for (int x = 0; x < 4; ++x)
      for (int y = 0; y < 4; ++y) index(x, y, idx(x, y));
    return *this;
  }
  // The EAC 3-bit index of texel (x, y): bits 47 - 3i .. 45 - 3i.
  Word& eac_index(int x, int y, int idx) {
    const int i = x * 4 + y;
    return set(47 - 3 * i, 45 - 3 * i, static_cast<uint64_t>(idx));
  }
  // q0 is the most significant byte.
  void append(std::vector<uint8_t>* out) const {
    for (int i = 7; i >= 0; --i) out->push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> v;
    append(&v);
    return v;
  }
};

struct Rgba {
  int r, g, b, a;
};

// Texel (x, y) of a decoded 4x4 RGBA8 block.
Rgba at(const std::vector<uint8_t>& px, int x, int y, int w = 4) {
  const uint8_t* p = &px[(size_t(y) * w + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

#define EXPECT_RGBA(px, x, y, R, G, B, A)                                                           \
  do {                                                                                               \
    const Rgba t_ = at(px, x, y);                                                                    \
    EXPECT_EQ(t_.r, R) << "(" << x << "," << y << ")";                                               \
    EXPECT_EQ(t_.g, G) << "(" << x << "," << y << ")";                                               \
    EXPECT_EQ(t_.b, B) << "(" << x << "," << y << ")";                                               \
    EXPECT_EQ(t_.a, A) << "(" << x << "," << y << ")";                                               \
  } while (0)

// The individual-mode example: base colours (4, 11, 9) with table 4 and
// (14, 3, 8) with table 0; paint colours from the example's tables.
TEST(DecodeEtc, IndividualModeExample) {
  Word w;
  w.set(63, 60, 4).set(59, 56, 14).set(55, 52, 11).set(51, 48, 3).set(47, 44, 9).set(43, 40, 8);
  w.set(39, 37, 4).set(36, 34, 0).set(33, 33, 0).set(32, 32, 0);  // individual, side by side
  // Left subblock (x 0-1) runs through the four indices down its columns;
  // the right one too. Index: 0 +a, 1 +b, 2 -a, 3 -b.
  w.indices([](int, int y) { return y; });
  const std::vector<uint8_t> px = decode_8("ETC2_R8G8B8_UNORM", w.bytes(), 4, 4);
  // Table 4 [-60, -18, 18, 60] on (68, 187, 153).
  EXPECT_RGBA(px, 0, 0, 86, 205, 171, 255);   // +18
  EXPECT_RGBA(px, 1, 1, 128, 247, 213, 255);  // +60
  // -18: the example's table prints red 58, a misprint of 68 - 18 = 50.
  EXPECT_RGBA(px, 0, 2, 50, 169, 135, 255);
  EXPECT_RGBA(px, 1, 3, 8, 127, 93, 255);     // -60
  // Table 0 [-8, -2, 2, 8] on (238, 51, 136).
  EXPECT_RGBA(px, 2, 0, 240, 53, 138, 255);
  EXPECT_RGBA(px, 3, 1, 246, 59, 144, 255);
  EXPECT_RGBA(px, 2, 2, 236, 49, 134, 255);
  EXPECT_RGBA(px, 3, 3, 230, 43, 128, 255);
  // ETC1 is the same block read by the same rules.
  EXPECT_EQ(decode_8("ETC1_R8G8B8_UNORM", w.bytes(), 4, 4), px);
}

// The differential-mode example: (29, 26, 8) with table 2, plus (-4, -3, +3)
// with table 3; flipped (subblocks on top of each other); index x in column x.
// Bit 33: differential (RGB ETC2), opaque (punch-through).
Word differential_block(int bit33) {
  Word w;
  w.set(63, 59, 29).set(58, 56, 4).set(55, 51, 26).set(50, 48, 5).set(47, 43, 8).set(42, 40, 3);
  w.set(39, 37, 2).set(36, 34, 3).set(33, 33, bit33).set(32, 32, 1);
  return w.indices([](int x, int) { return x; });
}

TEST(DecodeEtc, DifferentialModeExample) {
  const std::vector<uint8_t> px = decode_8("ETC2_R8G8B8_UNORM", differential_block(1).bytes(), 4, 4);
  // Top (y 0-1): table 2 on (239, 214, 66); the +29 row clamps to 255.
  EXPECT_RGBA(px, 0, 0, 248, 223, 75, 255);
  EXPECT_RGBA(px, 1, 1, 255, 243, 95, 255);
  EXPECT_RGBA(px, 2, 0, 230, 205, 57, 255);
  EXPECT_RGBA(px, 3, 1, 210, 185, 37, 255);
  // Bottom (y 2-3): table 3 on (206, 189, 90).
  EXPECT_RGBA(px, 0, 2, 219, 202, 103, 255);
  EXPECT_RGBA(px, 1, 3, 248, 231, 132, 255);
  EXPECT_RGBA(px, 2, 2, 193, 176, 77, 255);
  EXPECT_RGBA(px, 3, 3, 164, 147, 48, 255);
}

// T mode: base colours (13, 1, 8) and (4, 12, 13), distance index 5 (d = 32).
// R = 31 (bits 63..59: the unused 63..61 set, R^3..2 = 11) and Rd = 1 overflow.
Word t_block() {
  Word w;
  w.set(63, 61, 7).set(60, 59, 13 >> 2).set(58, 58, 0).set(57, 56, 13 & 3).set(55, 52, 1).set(51, 48, 8);
  w.set(47, 44, 4).set(43, 40, 12).set(39, 36, 13).set(35, 34, 5 >> 1).set(33, 33, 1).set(32, 32, 5 & 1);
  return w.indices([](int x, int) { return x; });
}

TEST(DecodeEtc, TModeExample) {
  const std::vector<uint8_t> px = decode_8("ETC2_R8G8B8_UNORM", t_block().bytes(), 4, 4);
  EXPECT_RGBA(px, 0, 0, 221, 17, 136, 255);   // paint 0: base colour 1
  EXPECT_RGBA(px, 1, 1, 100, 236, 253, 255);  // paint 1: base 2 + 32
  EXPECT_RGBA(px, 2, 2, 68, 204, 221, 255);   // paint 2: base 2
  EXPECT_RGBA(px, 3, 3, 36, 172, 189, 255);   // paint 3: base 2 - 32
}

// H mode: the same colours, distance index 5 = (da 1, db 0, base 1 >= base 2).
// R = 0 1101 plus Rd = G^3..1 = 000 stays in range; G = bits 55..51 = 000 1 1
// (unused bits clear, G^0 = 1, B^3 = 1) plus Gd = bits 50..48 = 1 00 (the
// unused bit 50 set, B^2..1 = 00) is 3 - 4 < 0: H mode.
TEST(DecodeEtc, HModeExample) {
  Word w;
  w.set(63, 63, 0).set(62, 59, 13).set(58, 56, 1 >> 1).set(55, 53, 0).set(52, 52, 1 & 1).set(51, 51, 8 >> 3);
  w.set(50, 50, 1).set(49, 47, 8 & 7).set(46, 43, 4).set(42, 39, 12).set(38, 35, 13);
  w.set(34, 34, 1).set(33, 33, 1).set(32, 32, 0);
  w.indices([](int x, int) { return x; });
  const std::vector<uint8_t> px = decode_8("ETC2_R8G8B8_UNORM", w.bytes(), 4, 4);
  EXPECT_RGBA(px, 0, 0, 253, 49, 168, 255);   // base 1 + 32
  EXPECT_RGBA(px, 1, 1, 189, 0, 104, 255);    // base 1 - 32, green clamped to 0
  EXPECT_RGBA(px, 2, 2, 100, 236, 253, 255);  // base 2 + 32
  EXPECT_RGBA(px, 3, 3, 36, 172, 189, 255);   // base 2 - 32
}

// The planar example: origin (12, 64, 62), horizontal (50, 5, 37), vertical
// (40, 112, 45), and the example's 16 texels. B = bits 47..43 = B^5 (1), 3
// unused bits, B^4..3 and Bd = bit 42 unused, B^2..1: set so B + Bd overflows.
TEST(DecodeEtc, PlanarModeExample) {
  Word w;
  w.set(63, 63, 0).set(62, 57, 12).set(56, 56, 64 >> 6).set(55, 55, 0).set(54, 49, 64 & 63);
  w.set(48, 48, 62 >> 5).set(47, 45, 7).set(44, 43, (62 >> 3) & 3).set(42, 42, 0).set(41, 39, 62 & 7);
  w.set(38, 34, 50 >> 1).set(33, 33, 1).set(32, 32, 50 & 1).set(31, 25, 5).set(24, 19, 37);
  w.set(18, 13, 40).set(12, 6, 112).set(5, 0, 45);
  const std::vector<uint8_t> px = decode_8("ETC2_R8G8B8_UNORM", w.bytes(), 4, 4);
  const int want[16][3] = {{48, 129, 251},  {87, 99, 226},   {126, 70, 201},  {164, 40, 175},
                           {77, 153, 234},  {115, 123, 209}, {154, 94, 183},  {193, 64, 158},
                           {105, 177, 217}, {144, 147, 191}, {183, 118, 166}, {221, 88, 141},
                           {134, 201, 199}, {172, 171, 174}, {211, 142, 149}, {250, 112, 124}};
  for (int i = 0; i < 16; ++i) EXPECT_RGBA(px, i % 4, i / 4, want[i][0], want[i][1], want[i][2], 255);
  // Planar blocks are opaque even with punch-through alpha and the opaque bit clear.
  Word p = w;
  p.set(33, 33, 0);
  // (Bit 33 is the opaque bit there; the mode is chosen by the same sums.)
  const std::vector<uint8_t> pa = decode_8("ETC2_R8G8B8A1_UNORM", p.bytes(), 4, 4);
  for (int i = 0; i < 16; ++i) EXPECT_RGBA(pa, i % 4, i / 4, want[i][0], want[i][1], want[i][2], 255);
}

// Punch-through alpha: opaque bit clear in differential mode: index 2 is
// transparent black, index 0 keeps the base colour (modifier 0), 1 and 3 add
// and subtract the large modifier; with the bit set, the block is RGB ETC2's.
TEST(DecodeEtc, PunchThroughAlpha) {
  const std::vector<uint8_t> px = decode_8("ETC2_R8G8B8A1_UNORM", differential_block(0).bytes(), 4, 4);
  EXPECT_RGBA(px, 0, 0, 239, 214, 66, 255);  // modifier 0
  EXPECT_RGBA(px, 1, 0, 255, 243, 95, 255);  // +29, clamped
  EXPECT_RGBA(px, 2, 0, 0, 0, 0, 0);         // transparent
  EXPECT_RGBA(px, 3, 0, 210, 185, 37, 255);  // -29
  EXPECT_RGBA(px, 2, 3, 0, 0, 0, 0);
  const Word o = differential_block(1);
  const std::vector<uint8_t> opaque = decode_8("ETC2_R8G8B8A1_UNORM", o.bytes(), 4, 4);
  EXPECT_EQ(opaque, decode_8("ETC2_R8G8B8_UNORM", o.bytes(), 4, 4));
  EXPECT_RGBA(opaque, 2, 0, 230, 205, 57, 255);
  // T mode with the opaque bit clear: paint colour 2 is transparent black.
  Word t = t_block();
  t.set(33, 33, 0);
  const std::vector<uint8_t> tp = decode_8("ETC2_R8G8B8A1_UNORM", t.bytes(), 4, 4);
  EXPECT_RGBA(tp, 0, 0, 221, 17, 136, 255);
  EXPECT_RGBA(tp, 2, 1, 0, 0, 0, 0);
  EXPECT_RGBA(tp, 3, 1, 36, 172, 189, 255);
}

// An EAC word: base, multiplier, table 13 and the index of every texel.
Word eac(int base, int mult, int table, int idx) {
  Word w;
  w.set(63, 56, static_cast<uint64_t>(base & 255)).set(55, 52, mult).set(51, 48, table);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) w.eac_index(x, y, idx);
  return w;
}

// RGBA ETC2's alpha example (103, table 13, index 3, multiplier 2 -> 83);
// the colour half is the T-mode example. Multiplier 0 gives the base.
TEST(DecodeEtc, EacAlphaExample) {
  std::vector<uint8_t> block;
  Word a = eac(103, 2, 13, 3);
  a.eac_index(1, 2, 7);  // modifier 9: 103 + 18
  a.append(&block);
  t_block().append(&block);
  const std::vector<uint8_t> px = decode_8("ETC2_R8G8B8A8_UNORM", block, 4, 4);
  EXPECT_RGBA(px, 0, 0, 221, 17, 136, 83);
  EXPECT_RGBA(px, 1, 2, 100, 236, 253, 121);
  std::vector<uint8_t> zero;
  eac(103, 0, 13, 3).append(&zero);
  t_block().append(&zero);
  EXPECT_EQ(at(decode_8("ETC2_R8G8B8A8_UNORM", zero, 4, 4), 3, 3).a, 103);
}

// Unsigned R11: 103 x 8 + 4 - 10 x 2 x 8 = 668; multiplier 0: 828 - 10 = 818.
// Signed R11: 60 x 8 - 160 = 320; multiplier 0: 480 - 10 = 470; base -128
// reads as -127 and -127 x 8 - 15 x 15 x 8 clamps to -1023.
TEST(DecodeEtc, EacR11Examples) {
  EXPECT_FLOAT_EQ(decode_f("EAC_R11_UNORM", eac(103, 2, 13, 3).bytes(), 4, 4)[0], 668.0f / 2047.0f);
  EXPECT_FLOAT_EQ(decode_f("EAC_R11_UNORM", eac(103, 0, 13, 3).bytes(), 4, 4)[0], 818.0f / 2047.0f);
  EXPECT_FLOAT_EQ(decode_f("EAC_R11_SNORM", eac(60, 2, 13, 3).bytes(), 4, 4)[0], 320.0f / 1023.0f);
  EXPECT_FLOAT_EQ(decode_f("EAC_R11_SNORM", eac(60, 0, 13, 3).bytes(), 4, 4)[0], 470.0f / 1023.0f);
  const std::vector<float> low = decode_f("EAC_R11_SNORM", eac(-128, 15, 0, 3).bytes(), 4, 4);
  EXPECT_FLOAT_EQ(low[0], -1.0f);
  EXPECT_FLOAT_EQ(low[3], 1.0f);  // alpha
  // -127 x 8 + 0 (table 13, index 4: modifier 0): the base alone, not -128's.
  EXPECT_FLOAT_EQ(decode_f("EAC_R11_SNORM", eac(-128, 1, 13, 4).bytes(), 4, 4)[0], -1016.0f / 1023.0f);
  // Unsigned clamps at 2047: 255 x 8 + 4 + 14 x 15 x 8.
  EXPECT_FLOAT_EQ(decode_f("EAC_R11_UNORM", eac(255, 15, 0, 7).bytes(), 4, 4)[0], 1.0f);
  // RG11: red from the first word, green from the second.
  std::vector<uint8_t> rg;
  eac(103, 2, 13, 3).append(&rg);
  eac(103, 0, 13, 3).append(&rg);
  const std::vector<float> v = decode_f("EAC_R11G11_UNORM", rg, 4, 4);
  EXPECT_FLOAT_EQ(v[0], 668.0f / 2047.0f);
  EXPECT_FLOAT_EQ(v[1], 818.0f / 2047.0f);
  EXPECT_FLOAT_EQ(v[2], 0.0f);
  std::vector<uint8_t> srg;
  eac(60, 2, 13, 3).append(&srg);
  eac(-128, 15, 0, 3).append(&srg);
  const std::vector<float> s = decode_f("EAC_R11G11_SNORM", srg, 4, 4);
  EXPECT_FLOAT_EQ(s[0], 320.0f / 1023.0f);
  EXPECT_FLOAT_EQ(s[1], -1.0f);
}

// sRGB: the view keeps the stored values, RGBA32F converts colour (not alpha) to linear.
TEST(DecodeEtc, SrgbVariants) {
  const std::vector<uint8_t> blk = t_block().bytes();
  EXPECT_EQ(decode_8("ETC2_R8G8B8_UNORM_SRGB", blk, 4, 4), decode_8("ETC2_R8G8B8_UNORM", blk, 4, 4));
  const std::vector<float> f = decode_f("ETC2_R8G8B8_UNORM_SRGB", blk, 4, 4);
  EXPECT_NEAR(f[0], srgb_to_linear(221.0 / 255.0), 1e-6);
  EXPECT_FLOAT_EQ(f[3], 1.0f);
  std::vector<uint8_t> rgba;
  eac(103, 2, 13, 3).append(&rgba);
  t_block().append(&rgba);
  const std::vector<float> g = decode_f("ETC2_R8G8B8A8_UNORM_SRGB", rgba, 4, 4);
  EXPECT_NEAR(g[1], srgb_to_linear(17.0 / 255.0), 1e-6);
  EXPECT_FLOAT_EQ(g[3], 83.0f / 255.0f);
}

// A 6x5 image of 2x2 blocks: each texel comes from its block, the padding is dropped.
TEST(DecodeEtc, PartialBlocksAtTheEdges) {
  std::vector<uint8_t> data;
  const int base[4] = {1, 5, 9, 14};  // individual mode, grey 17 x base, table 0, index 0 (+2)
  for (int b : base) {
    Word w;
    w.set(63, 60, b).set(59, 56, b).set(55, 52, b).set(51, 48, b).set(47, 44, b).set(43, 40, b);
    w.append(&data);
  }
  const std::vector<uint8_t> px = decode_8("ETC2_R8G8B8_UNORM", data, 6, 5);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 6; ++x) EXPECT_EQ(at(px, x, y, 6).g, base[(y / 4) * 2 + x / 4] * 17 + 2) << x << "," << y;
}

// Every new format is in the one table with its facts.
TEST(DecodeEtc, TableFactsAndCopies) {
  struct Want {
    const char* name;
    uint32_t bytes, bw, bh;
    bool srgb;
    NumericKind kind;
  };
  const Want want[] = {{"ETC1_R8G8B8_UNORM", 8, 4, 4, false, NumericKind::Unorm},
                       {"ETC2_R8G8B8_UNORM_SRGB", 8, 4, 4, true, NumericKind::Unorm},
                       {"ETC2_R8G8B8A1_UNORM", 8, 4, 4, false, NumericKind::Unorm},
                       {"ETC2_R8G8B8A8_UNORM_SRGB", 16, 4, 4, true, NumericKind::Unorm},
                       {"EAC_R11_SNORM", 8, 4, 4, false, NumericKind::Snorm},
                       {"EAC_R11G11_UNORM", 16, 4, 4, false, NumericKind::Unorm},
                       {"ASTC_4x4_UNORM", 16, 4, 4, false, NumericKind::Unorm},
                       {"ASTC_6x5_UNORM_SRGB", 16, 6, 5, true, NumericKind::Unorm},
                       {"ASTC_12x12_UNORM", 16, 12, 12, false, NumericKind::Unorm}};
  for (const Want& w : want) {
    const FormatInfo f = fmt(w.name);
    EXPECT_EQ(f.element_bytes, w.bytes) << w.name;
    EXPECT_EQ(f.block_width, w.bw) << w.name;
    EXPECT_EQ(f.block_height, w.bh) << w.name;
    EXPECT_FALSE(f.has_dxgi()) << w.name;
    EXPECT_EQ(format_facts(f).srgb, w.srgb) << w.name;
    EXPECT_EQ(format_facts(f).numeric, w.kind) << w.name;
  }
  FormatInfo g;
  ASSERT_TRUE(find_format(0x9274u, &g).ok());
  EXPECT_STREQ(g.name, "ETC2_R8G8B8_UNORM");
  EXPECT_TRUE(fmt("BC7_UNORM").has_dxgi());
}
// (Copies of ETC2 blocks through a layout: Decode.SubresourceBoxEqualsReadThenDecode.)

// ---- ASTC -----------------------------------------------------------------------------------------

// A 2D LDR void-extent block: block mode 0x1FC, LDR, the two reserved bits and
// all-ones extents (bits 0..63), then R, G, B, A as UNORM16 (bits 64..127).
std::vector<uint8_t> void_extent(uint16_t r, uint16_t g, uint16_t b, uint16_t a) {
  std::vector<uint8_t> v = {0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  for (uint16_t c : {r, g, b, a}) {
    v.push_back(static_cast<uint8_t>(c & 0xFF));
    v.push_back(static_cast<uint8_t>(c >> 8));
  }
  return v;
}

TEST(DecodeAstc, SupportFollowsTheBuild) {
  const FormatInfo f = fmt("ASTC_6x6_UNORM");
#if defined(SWZ_TESTS_HAVE_ASTCENC)
  EXPECT_TRUE(decode_supports(f));
  EXPECT_TRUE(check_decodable(f).ok());
#else
  EXPECT_FALSE(decode_supports(f));
  const Status st = check_decodable(f);
  EXPECT_EQ(st.code(), Code::unsupported);
  EXPECT_NE(st.message().find("ASTC_6x6_UNORM cannot be decoded: swz was built without libastcenc"),
            std::string::npos)
      << st.message();
#endif
  // ETC and EAC never depend on the build.
  EXPECT_TRUE(decode_supports(fmt("ETC2_R8G8B8A1_UNORM_SRGB")));
  EXPECT_TRUE(decode_supports(fmt("EAC_R11G11_SNORM")));
}

#if defined(SWZ_TESTS_HAVE_ASTCENC)

// Void-extent colours v x 257 are exactly v / 255: the view shows v, RGBA32F
// the UNORM16 value; sRGB keeps the top 8 bits (v) and RGBA32F linearises them.
TEST(DecodeAstc, VoidExtentBlockIsItsColour) {
  const std::vector<uint8_t> blk = void_extent(10 * 257, 200 * 257, 77 * 257, 128 * 257);
  const std::vector<uint8_t> px = decode_8("ASTC_4x4_UNORM", blk, 4, 4);
  for (int i = 0; i < 16; ++i) EXPECT_RGBA(px, i % 4, i / 4, 10, 200, 77, 128);
  const std::vector<float> f = decode_f("ASTC_4x4_UNORM", blk, 4, 4);
  EXPECT_NEAR(f[1], 200.0 / 255.0, 1e-3);
  EXPECT_NEAR(f[3], 128.0 / 255.0, 1e-3);
  const std::vector<uint8_t> s8 = decode_8("ASTC_4x4_UNORM_SRGB", blk, 4, 4);
  EXPECT_RGBA(s8, 3, 3, 10, 200, 77, 128);
  const std::vector<float> sf = decode_f("ASTC_4x4_UNORM_SRGB", blk, 4, 4);
  EXPECT_NEAR(sf[1], srgb_to_linear(200.0 / 255.0), 1e-6);
  EXPECT_NEAR(sf[3], 128.0 / 255.0, 1e-6);
}

// Error blocks (ASTC specification, "Error Handling"): a reserved block mode
// (all-zero bits) and an HDR void extent in the LDR profile decode as the
// error colour, opaque magenta, in every output and channel view.
TEST(DecodeAstc, ErrorBlocksAreMagenta) {
  std::vector<uint8_t> hdr_void = void_extent(0, 0, 0, 0xFFFF);
  hdr_void[1] |= 0x02;  // bit 9: the HDR flag of a void-extent block
  for (const std::vector<uint8_t>& blk : {std::vector<uint8_t>(16, 0), hdr_void})
    for (const char* name : {"ASTC_4x4_UNORM", "ASTC_4x4_UNORM_SRGB"}) {
      SCOPED_TRACE(name);
      const std::vector<uint8_t> px = decode_8(name, blk, 4, 4);
      for (int i = 0; i < 16; ++i) EXPECT_RGBA(px, i % 4, i / 4, 255, 0, 255, 255);
      const std::vector<float> f = decode_f(name, blk, 4, 4);
      for (int i = 0; i < 16; ++i) {
        EXPECT_EQ(f[i * 4 + 0], 1.0f) << i;
        EXPECT_EQ(f[i * 4 + 1], 0.0f) << i;
        EXPECT_EQ(f[i * 4 + 2], 1.0f) << i;
        EXPECT_EQ(f[i * 4 + 3], 1.0f) << i;
      }
    }
}

// 6x6 blocks on a 13x7 image: 3 x 2 blocks, each texel from its own block.
TEST(DecodeAstc, FootprintEdgesOfANonMultipleImage) {
  std::vector<uint8_t> data;
  for (int b = 0; b < 6; ++b) {
    const std::vector<uint8_t> v = void_extent(static_cast<uint16_t>(b * 40 * 257), 0, 0, 0xFFFF);
    data.insert(data.end(), v.begin(), v.end());
  }
  const std::vector<uint8_t> px = decode_8("ASTC_6x6_UNORM", data, 13, 7);
  for (int y = 0; y < 7; ++y)
    for (int x = 0; x < 13; ++x) EXPECT_EQ(at(px, x, y, 13).r, ((y / 6) * 3 + x / 6) * 40) << x << "," << y;
  // Too few bytes for the 3 x 2 blocks is refused, not read past.
  const std::vector<uint8_t> short_data(data.begin(), data.end() - 1);
  std::vector<uint8_t> out(13 * 7 * 4);
  EXPECT_EQ(decode_rgba8(tight_image("ASTC_6x6_UNORM", short_data, 13, 7), {}, out.data(), out.size()).code(),
            Code::buffer_too_small);
}

// A smooth image compressed by libastcenc (thorough) at 8x5 decodes within a PSNR bound,
// also through a swizzled layout and decode_subresource_rgba8.
TEST(DecodeAstc, RoundTripThroughLibastcencsCompressor) {
  const uint32_t w = 37, h = 23, bw = 8, bh = 5;
  std::vector<uint8_t> src(size_t{w} * h * 4);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      uint8_t* p = &src[(size_t{y} * w + x) * 4];
      p[0] = static_cast<uint8_t>(x * 255 / (w - 1));
      p[1] = static_cast<uint8_t>(y * 255 / (h - 1));
      p[2] = static_cast<uint8_t>(128 + 100 * std::sin((x + y) * 0.15));
      p[3] = 255;
    }
  astcenc_config config;
  ASSERT_EQ(astcenc_config_init(ASTCENC_PRF_LDR, bw, bh, 1, ASTCENC_PRE_THOROUGH, 0, &config), ASTCENC_SUCCESS);
  astcenc_context* ctx = nullptr;
  ASSERT_EQ(astcenc_context_alloc(&config, 1, &ctx), ASTCENC_SUCCESS);
  void* slice = src.data();
  astcenc_image img{w, h, 1, ASTCENC_TYPE_U8, &slice};
  const astcenc_swizzle sw{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
  const uint32_t nx = (w + bw - 1) / bw, ny = (h + bh - 1) / bh;
  std::vector<uint8_t> comp(size_t{nx} * ny * 16);
  ASSERT_EQ(astcenc_compress_image(ctx, &img, &sw, comp.data(), comp.size(), 0), ASTCENC_SUCCESS);
  // libastcenc's own 8-bit decode of the whole image, for the adapter's rows and edges.
  std::vector<uint8_t> ref(src.size());
  void* ref_slice = ref.data();
  astcenc_image ref_img{w, h, 1, ASTCENC_TYPE_U8, &ref_slice};
  ASSERT_EQ(astcenc_decompress_image(ctx, comp.data(), comp.size(), &ref_img, &sw, 0), ASTCENC_SUCCESS);
  astcenc_context_free(ctx);
  const std::vector<uint8_t> px = decode_8("ASTC_8x5_UNORM", comp, w, h);
  double se = 0;
  int worst = 0;
  for (size_t i = 0; i < px.size(); ++i) {
    se += (double(px[i]) - src[i]) * (double(px[i]) - src[i]);
    worst = std::max(worst, std::abs(int(px[i]) - int(ref[i])));
  }
  const double psnr = 10 * std::log10(255.0 * 255.0 / std::max(se / px.size(), 1e-9));
  EXPECT_GT(psnr, 33.0);  // 2.56 bits a texel
  EXPECT_LE(worst, 1);    // swz rounds the UNORM16 value; libastcenc's 8-bit output may differ by one
  // Through a layout: swizzle the blocks, decode a box on the block grid.
  TextureDesc desc;
  desc.format = fmt("ASTC_8x5_UNORM");
  desc.width = w;
  desc.height = h;
  Layout layout;
  ASSERT_TRUE(make_layout_from_name("std64k", desc, {}, &layout).ok());
  std::vector<uint8_t> res(layout.size());
  ASSERT_TRUE(write_to_subresource(layout, res.data(), res.size(), 0, nullptr, comp.data(), comp.size(), 0, 0).ok());
  const Box box{8, 5, 0, w, h, 1};
  std::vector<uint8_t> got(size_t{w - 8} * (h - 5) * 4);
  ASSERT_TRUE(decode_subresource_rgba8(layout, res.data(), res.size(), 0, &box, {}, got.data(), got.size()).ok());
  for (uint32_t y = 5; y < h; ++y)
    ASSERT_EQ(0, std::memcmp(&got[size_t{y - 5} * (w - 8) * 4], &px[(size_t{y} * w + 8) * 4], size_t{w - 8} * 4))
        << "row " << y;
  const Box off{4, 0, 0, w, h, 1};
  EXPECT_FALSE(decode_subresource_rgba8(layout, res.data(), res.size(), 0, &off, {}, got.data(), got.size()).ok());
}

#endif

}  // namespace
