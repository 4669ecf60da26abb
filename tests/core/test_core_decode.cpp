// decode_rgba8 / decode_rgba32f on hand-computed vectors: the formats Pillow
// does not decode, or decodes to other conventions (python/tests/test_decode.py
// checks BC1-BC7 against Pillow). Every expected value is worked out here from
// the format's public definition, not produced by swz:
//  * BC4/BC5 SNORM: the D3D10 "Block Compression" page (8 or 6 interpolated
//    values, -128 read as -127, values / 127);
//  * BC6H: the ARB_texture_compression_bptc pseudocode (mode 3: ten-bit
//    endpoints, unquantized ((x << 15) + 0x4000) >> 9, finished x 31/32 for
//    the signed format);
//  * packed formats: their DXGI_FORMAT bit layouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "swz/copy.hpp"
#include "swz/decode.hpp"
#include "swz/layout.hpp"
#include "swz/layout_names.hpp"
#include "decode_util.hpp"

namespace {
using namespace swz;

using swz_test::decode_8;
using swz_test::decode_f;
using swz_test::fmt;

// Sets `bits` bits of a 128-bit block from bit `pos`, least significant first.
void put(std::vector<uint8_t>& b, unsigned& pos, uint32_t v, unsigned bits) {
  for (unsigned k = 0; k < bits; ++k, ++pos)
    if ((v >> k) & 1) b[pos / 8] |= static_cast<uint8_t>(1u << (pos % 8));
}

double half_value(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1.0 + m / 1024.0, e - 15);
  return (h & 0x8000) ? -v : v;
}

TEST(Decode, Bc4SignedEightValuesAndSixValues) {
  // e0 = 100 > e1 = -50: indices 0..7 give e0, e1, (6e0 + e1)/7 ... (e0 + 6e1)/7.
  std::vector<uint8_t> b = {100, static_cast<uint8_t>(-50), 0, 0, 0, 0, 0, 0};
  uint64_t idx = 0;
  for (int i = 0; i < 8; ++i) idx |= uint64_t(i) << (3 * i);
  for (int i = 0; i < 6; ++i) b[2 + i] = static_cast<uint8_t>(idx >> (8 * i));
  std::vector<float> got = decode_f("BC4_SNORM", b, 4, 4);
  const double want[8] = {100, -50, (600 - 50) / 7.0, (500 - 100) / 7.0, (400 - 150) / 7.0,
                          (300 - 200) / 7.0, (200 - 250) / 7.0, (100 - 300) / 7.0};
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(got[size_t(i) * 4], want[i] / 127.0, 1e-6) << i;
  // e0 = -128 (read as -127) <= e1 = 20: six values, then -1 and +1.
  b[0] = 0x80;
  b[1] = 20;
  got = decode_f("BC4_SNORM", b, 4, 4);
  const double want6[8] = {-127, 20, (-4 * 127 + 20) / 5.0, (-3 * 127 + 40) / 5.0, (-2 * 127 + 60) / 5.0,
                           (-127 + 80) / 5.0, -127, 127};
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(got[size_t(i) * 4], want6[i] / 127.0, 1e-6) << i;
  EXPECT_EQ(got[1], 0.0f);
  EXPECT_EQ(got[3], 1.0f);
  // The view maps -1..1 to 0..255: -127 -> 0, 127 -> 255.
  const std::vector<uint8_t> v = decode_8("BC4_SNORM", b, 4, 4);
  EXPECT_EQ(v[6 * 4], 0);
  EXPECT_EQ(v[7 * 4], 255);
  EXPECT_EQ(v[7 * 4 + 1], 255) << "single-channel formats are grey";
}

TEST(Decode, Bc5SignedReadsRedThenGreen) {
  std::vector<uint8_t> b(16, 0);
  b[0] = 127;
  b[1] = 0x81;  // -127; every index 0: red = 1
  b[8] = 0x81;
  b[9] = 127;  // green = -1
  const std::vector<float> got = decode_f("BC5_SNORM", b, 4, 4);
  for (int i = 0; i < 16; ++i) {
    EXPECT_FLOAT_EQ(got[size_t(i) * 4 + 0], 1.0f);
    EXPECT_FLOAT_EQ(got[size_t(i) * 4 + 1], -1.0f);
    EXPECT_EQ(got[size_t(i) * 4 + 2], 0.0f);
  }
}

TEST(Decode, Bc6hMode3SignedAndUnsigned) {
  // Mode 3 (m[4:0] = 00011): r0, g0, b0, r1, g1, b1 of ten bits, then
  // sixteen 4-bit indices (the first 3 bits). Texel 0 uses e0, texel 15 e1.
  auto block = [](int r0, int g0, int b0, int r1, int g1, int b1) {
    std::vector<uint8_t> b(16, 0);
    unsigned pos = 0;
    put(b, pos, 3, 5);
    for (int v : {r0, g0, b0, r1, g1, b1}) put(b, pos, static_cast<uint32_t>(v) & 1023u, 10);
    EXPECT_EQ(pos, 65u);
    for (int i = 0; i < 16; ++i) put(b, pos, i == 15 ? 15 : 0, i == 0 ? 3 : 4);
    EXPECT_EQ(pos, 128u);
    return b;
  };
  // Signed: unq = ((|x| << 15) + 0x4000) >> 9, |x| >= 511 -> 0x7FFF; then
  // magnitude x 31 >> 5 with the sign in bit 15.
  auto signed_half = [](int x) {
    const int a = std::abs(x);
    const int unq = a == 0 ? 0 : a >= 511 ? 0x7FFF : ((a << 15) + 0x4000) >> 9;
    const int mag = (unq * 31) >> 5;
    return static_cast<uint16_t>(x < 0 ? (mag | 0x8000) : mag);
  };
  std::vector<float> got = decode_f("BC6H_SF16", block(100, -100, 0, -300, 511, -512), 4, 4);
  const int e0[3] = {100, -100, 0}, e1[3] = {-300, 511, -512};
  for (int c = 0; c < 3; ++c) {
    EXPECT_FLOAT_EQ(got[c], static_cast<float>(half_value(signed_half(e0[c])))) << c;
    EXPECT_FLOAT_EQ(got[15 * 4 + c], static_cast<float>(half_value(signed_half(e1[c])))) << c;
  }
  EXPECT_EQ(got[3], 1.0f);
  // Unsigned: 0 -> 0, 1023 -> 0xFFFF, else ((x << 15) + 0x4000) >> 9; then x 31 >> 6.
  got = decode_f("BC6H_UF16", block(0, 1023, 512, 1, 2, 3), 4, 4);
  auto unsigned_half = [](int x) {
    const int unq = x == 0 ? 0 : x == 1023 ? 0xFFFF : ((x << 15) + 0x4000) >> 9;
    return static_cast<uint16_t>((unq * 31) >> 6);
  };
  const int u0[3] = {0, 1023, 512}, u1[3] = {1, 2, 3};
  for (int c = 0; c < 3; ++c) {
    EXPECT_FLOAT_EQ(got[c], static_cast<float>(half_value(unsigned_half(u0[c])))) << c;
    EXPECT_FLOAT_EQ(got[15 * 4 + c], static_cast<float>(half_value(unsigned_half(u1[c])))) << c;
  }
  EXPECT_FLOAT_EQ(got[1], 65504.0f) << "1023 unquantizes to 0xFFFF, the largest finite half after x 31/64";
}

TEST(Decode, Bc6hReservedModesAreOpaqueBlack) {
  for (uint8_t m : {19, 23, 27, 31}) {
    std::vector<uint8_t> b(16, 0xFF);
    b[0] = static_cast<uint8_t>(0xE0 | m);
    const std::vector<float> got = decode_f("BC6H_UF16", b, 4, 4);
    for (int i = 0; i < 16; ++i) {
      EXPECT_EQ(got[size_t(i) * 4], 0.0f) << int(m);
      EXPECT_EQ(got[size_t(i) * 4 + 3], 1.0f) << int(m);
    }
  }
}

TEST(Decode, PackedFormats) {
  // R10G10B10A2_UNORM: R bits 0-9 = 1023, G = 0, B = 512, A bits 30-31 = 1.
  const uint32_t rgb10 = 1023u | (0u << 10) | (512u << 20) | (1u << 30);
  std::vector<uint8_t> d(4);
  std::memcpy(d.data(), &rgb10, 4);
  std::vector<float> f = decode_f("R10G10B10A2_UNORM", d, 1, 1);
  EXPECT_FLOAT_EQ(f[0], 1.0f);
  EXPECT_FLOAT_EQ(f[2], 512.0f / 1023.0f);
  EXPECT_FLOAT_EQ(f[3], 1.0f / 3.0f);
  // R11G11B10_FLOAT: 1.0 in each (exponent 15, mantissa 0): R 0x3C0, G 0x3C0, B 0x1E0.
  const uint32_t r11 = 0x3C0u | (0x3C0u << 11) | (0x1E0u << 22);
  std::memcpy(d.data(), &r11, 4);
  f = decode_f("R11G11B10_FLOAT", d, 1, 1);
  EXPECT_FLOAT_EQ(f[0], 1.0f);
  EXPECT_FLOAT_EQ(f[1], 1.0f);
  EXPECT_FLOAT_EQ(f[2], 1.0f);
  // R9G9B9E5: mantissas 256, 128, 0 with exponent 16: m x 2^(16 - 15 - 9).
  const uint32_t e5 = 256u | (128u << 9) | (0u << 18) | (16u << 27);
  std::memcpy(d.data(), &e5, 4);
  f = decode_f("R9G9B9E5_SHAREDEXP", d, 1, 1);
  EXPECT_FLOAT_EQ(f[0], 1.0f);
  EXPECT_FLOAT_EQ(f[1], 0.5f);
  EXPECT_FLOAT_EQ(f[2], 0.0f);
  // R10G10B10_XR_BIAS_A2_UNORM: (v - 384) / 510; 894 -> 1.0, 384 -> 0.
  const uint32_t xr = 894u | (384u << 10) | (0u << 20) | (3u << 30);
  std::memcpy(d.data(), &xr, 4);
  f = decode_f("R10G10B10_XR_BIAS_A2_UNORM", d, 1, 1);
  EXPECT_FLOAT_EQ(f[0], 1.0f);
  EXPECT_FLOAT_EQ(f[1], 0.0f);
  EXPECT_FLOAT_EQ(f[2], -384.0f / 510.0f);
  EXPECT_FLOAT_EQ(f[3], 1.0f);
  // B4G4R4A4_UNORM: B bits 0-3, G 4-7, R 8-11, A 12-15.
  const std::vector<uint8_t> b4 = {0x21, 0x43};  // B 1, G 2, R 3, A 4
  const std::vector<uint8_t> v = decode_8("B4G4R4A4_UNORM", b4, 1, 1);
  EXPECT_EQ(v, (std::vector<uint8_t>{3 * 17, 2 * 17, 1 * 17, 4 * 17}));
  // R8G8_B8G8_UNORM: one element R, G0, B, G1 is two texels.
  const std::vector<uint8_t> rgbg = {200, 10, 100, 20};
  EXPECT_EQ(decode_8("R8G8_B8G8_UNORM", rgbg, 2, 1), (std::vector<uint8_t>{200, 10, 100, 255, 200, 20, 100, 255}));
  // UINT views as UNORM of the same width; SINT as SNORM.
  const std::vector<uint8_t> u16 = {0xFF, 0xFF, 0x00, 0x80};  // R16G16_UINT 65535, 32768
  const std::vector<uint8_t> uv = decode_8("R16G16_UINT", u16, 1, 1);
  EXPECT_EQ(uv[0], 255);
  EXPECT_EQ(uv[1], 128);
  EXPECT_EQ(decode_f("R16G16_UINT", u16, 1, 1)[1], 32768.0f);
}

TEST(Decode, PackedYuvFormats) {
  // AYUV bytes V, U, Y, A: Y 235, neutral chroma -> white; alpha 128.
  const std::vector<uint8_t> ayuv = {128, 128, 235, 128};
  EXPECT_EQ(decode_8("AYUV", ayuv, 1, 1), (std::vector<uint8_t>{255, 255, 255, 128}));
  // BT.601 against BT.709 on pure red chroma: Y 81, U 90, V 240 is (255, 0, 0)
  // in BT.601 limited range (the classic 8-bit red).
  const std::vector<uint8_t> red = {240, 90, 81, 255};
  DecodeOptions o;
  o.yuv_matrix = YuvMatrix::bt601;
  const std::vector<uint8_t> r = decode_8("AYUV", red, 1, 1, o);
  EXPECT_NEAR(r[0], 255, 1);
  EXPECT_NEAR(r[1], 0, 1);
  EXPECT_NEAR(r[2], 0, 1);
  // Y410: U bits 0-9, Y 10-19, V 20-29, A 30-31; 10-bit limited black is 64.
  const uint32_t y410 = 512u | (64u << 10) | (512u << 20) | (3u << 30);
  std::vector<uint8_t> d(4);
  std::memcpy(d.data(), &y410, 4);
  EXPECT_EQ(decode_8("Y410", d, 1, 1), (std::vector<uint8_t>{0, 0, 0, 255}));
}

TEST(Decode, RefusalsWriteNothing) {
  std::vector<uint8_t> in(64, 1), out(64, 0xEE);
  LinearImage img;
  img.format = fmt("R8G8B8A8_UNORM");
  img.width_px = 4;
  img.height_px = 4;
  img.data = in.data();
  img.size_B = in.size();
  // Output one byte short.
  Status s = decode_rgba8(img, {}, out.data(), 63);
  EXPECT_EQ(s.code(), Code::buffer_too_small) << s.message();
  EXPECT_NE(s.message().find("output buffer is 63 bytes"), std::string::npos) << s.message();
  // Output sharing the input's memory.
  s = decode_rgba8(img, {}, in.data() + 16, 48);
  EXPECT_EQ(s.code(), Code::buffer_too_small) << s.message();
  s = decode_rgba8(img, {}, in.data(), 64);
  EXPECT_EQ(s.code(), Code::invalid_argument) << s.message();
  EXPECT_NE(s.message().find("share memory"), std::string::npos) << s.message();
  // Options out of range.
  DecodeOptions o;
  o.exposure_ev = NAN;
  s = decode_rgba8(img, o, out.data(), out.size());
  EXPECT_NE(s.message().find("exposure_ev"), std::string::npos) << s.message();
  o = {};
  o.channel = static_cast<ViewChannel>(9);
  s = decode_rgba8(img, o, out.data(), out.size());
  EXPECT_NE(s.message().find("options.channel = 9"), std::string::npos) << s.message();
  for (uint8_t c : out) ASSERT_EQ(c, 0xEE) << "a refused decode wrote to its output";
  for (uint8_t c : in) ASSERT_EQ(c, 1);
}

TEST(Decode, EveryFormatDecodesOrSaysWhy) {
  size_t n = 0;
  const FormatInfo* all = all_formats(&n);
  int decodable = 0;
  for (size_t i = 0; i < n; ++i) {
    const Status s = check_decodable(all[i]);
    const std::string name = all[i].name;
    const bool special = name == "NV12" || name == "P010" || name == "P016" || name == "P8" || name == "A8P8" ||
                         name == "AI44" || name == "IA44";  // need a chroma plane or a palette: tested below
    if (s.ok() && special) {
      ++decodable;
    } else if (s.ok()) {
      ++decodable;
      // Any bytes decode without reading past the image: 5x3 texels of random content.
      const uint32_t w = 5, h = 3;
      const uint64_t eb = all[i].element_bytes;
      const uint64_t bytes = ((w + all[i].block_width - 1) / all[i].block_width) *
                             ((h + all[i].block_height - 1) / all[i].block_height) * eb;
      std::vector<uint8_t> data(bytes);
      for (size_t k = 0; k < data.size(); ++k) data[k] = static_cast<uint8_t>(k * 37 + 11);
      std::vector<uint8_t> out(w * h * 4);
      LinearImage img;
      img.format = all[i];
      img.width_px = w;
      img.height_px = h;
      img.data = data.data();
      img.size_B = data.size();
      EXPECT_TRUE(decode_rgba8(img, {}, out.data(), out.size()).ok()) << all[i].name;
    } else {
      EXPECT_EQ(s.code(), Code::unsupported) << all[i].name;
      EXPECT_NE(s.message().find(all[i].name), std::string::npos) << s.message();
    }
  }
  // Everything but the plain TYPELESS, planar video and palette formats.
  EXPECT_GE(decodable, 90) << "of " << n;
}

TEST(Decode, SubresourceBoxEqualsReadThenDecode) {
  // BC1, and ETC2 with EAC alpha (a block format of another table range).
  for (const char* name : {"BC1_UNORM", "ETC2_R8G8B8A8_UNORM"}) {
    TextureDesc desc;
    desc.format = fmt(name);
    desc.width = 37;
    desc.height = 21;
    Layout layout;
    ASSERT_TRUE(make_layout_from_name("std64k", desc, {}, &layout).ok());
    std::vector<uint8_t> res(layout.size());
    for (size_t k = 0; k < res.size(); ++k) res[k] = static_cast<uint8_t>((k * 2654435761u) >> 13);
    const Box box{8, 4, 0, 37, 21, 1};
    std::vector<uint8_t> got(29 * 17 * 4);
    ASSERT_TRUE(decode_subresource_rgba8(layout, res.data(), res.size(), 0, &box, {}, got.data(), got.size()).ok());
    // The same through the copy and decode_rgba8.
    std::vector<uint8_t> lin(8 * 5 * desc.format.element_bytes);
    ASSERT_TRUE(read_from_subresource(lin.data(), lin.size(), 0, 0, layout, res.data(), res.size(), 0, &box).ok());
    EXPECT_EQ(got, decode_8(name, lin, 29, 17)) << name;
    // A box off the block grid is refused by the copy's rule.
    const Box off{1, 0, 0, 8, 8, 1};
    EXPECT_FALSE(decode_subresource_rgba8(layout, res.data(), res.size(), 0, &off, {}, got.data(), got.size()).ok());
  }
}

TEST(Decode, BigEndianWords) {
  // R16_UNORM stored big-endian: 0x80 0x00 is 32768.
  DecodeOptions o;
  o.byte_order = ByteOrder::swap16;
  EXPECT_FLOAT_EQ(decode_f("R16_UNORM", {0x80, 0x00}, 1, 1, o)[0], 32768.0f / 65535.0f);
  // R32_FLOAT 1.0 big-endian: 3F 80 00 00.
  o.byte_order = ByteOrder::swap32;
  EXPECT_FLOAT_EQ(decode_f("R32_FLOAT", {0x3F, 0x80, 0x00, 0x00}, 1, 1, o)[0], 1.0f);
  // A BC1 block with its 16-bit words swapped (Xbox 360): the same pixels.
  const std::vector<uint8_t> le = {0x00, 0xF8, 0x1F, 0x00, 0x55, 0x55, 0x55, 0x55};
  std::vector<uint8_t> be(8);
  for (int i = 0; i < 8; i += 2) be[size_t(i)] = le[size_t(i) + 1], be[size_t(i) + 1] = le[size_t(i)];
  o.byte_order = ByteOrder::swap16;
  EXPECT_EQ(decode_8("BC1_UNORM", be, 4, 4, o), decode_8("BC1_UNORM", le, 4, 4));
  // Elements that are not made of the word are refused.
  LinearImage img;
  img.format = fmt("R8_UNORM");
  img.width_px = img.height_px = 1;
  const uint8_t one = 7;
  img.data = &one;
  img.size_B = 1;
  uint8_t out[4];
  const Status st = decode_rgba8(img, o, out, 4);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("2-byte words"), std::string::npos) << st.message();
}

TEST(Decode, PaletteFormats) {
  // Palette: two B5G6R5 entries, red and blue.
  const std::vector<uint8_t> pal = {0x00, 0xF8, 0x1F, 0x00};
  const LinearImage p = swz_test::tight_image("B5G6R5_UNORM", pal, 2, 1);
  DecodeOptions o;
  o.palette = &p;
  // P8: indices 1, 0, 7 (past the palette: transparent black).
  EXPECT_EQ(decode_8("P8", {1, 0, 7}, 3, 1, o),
            (std::vector<uint8_t>{0, 0, 255, 255, 255, 0, 0, 255, 0, 0, 0, 0}));
  // A8P8: byte 0 alpha, byte 1 index.
  EXPECT_EQ(decode_8("A8P8", {0x40, 1}, 1, 1, o), (std::vector<uint8_t>{0, 0, 255, 0x40}));
  // AI44: alpha in bits 0-3, index in 4-7; IA44 the other way round.
  EXPECT_EQ(decode_8("AI44", {0x1A}, 1, 1, o), (std::vector<uint8_t>{0, 0, 255, 0xAA}));
  EXPECT_EQ(decode_8("IA44", {0x51}, 1, 1, o), (std::vector<uint8_t>{0, 0, 255, 0x55}));
  // Without a palette: refused, naming the option.
  LinearImage img;
  img.format = fmt("P8");
  img.width_px = img.height_px = 1;
  const uint8_t idx = 0;
  img.data = &idx;
  img.size_B = 1;
  uint8_t out[4];
  const Status st = decode_rgba8(img, {}, out, 4);
  EXPECT_NE(st.message().find("needs options.palette"), std::string::npos) << st.message();
}

TEST(Decode, Planar420) {
  // NV12 2x2: luma rows (16, 235), (16, 235); one chroma pair (128, 128): black and white columns.
  const std::vector<uint8_t> nv12 = {16, 235, 16, 235, 128, 128};
  EXPECT_EQ(decode_8("NV12", nv12, 2, 2),
            (std::vector<uint8_t>{0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255}));
  // P010: 10 bits at the top of 16-bit words; 3x1 (two chroma pairs), luma 64 (black) and 940 (white).
  auto w16 = [](unsigned v) { return std::vector<uint8_t>{static_cast<uint8_t>(v << 6), static_cast<uint8_t>((v << 6) >> 8)}; };
  std::vector<uint8_t> p010;
  for (unsigned v : {64u, 940u, 940u, 512u, 512u, 512u, 512u})
    for (uint8_t b : w16(v)) p010.push_back(b);
  const std::vector<uint8_t> got = decode_8("P010", p010, 3, 1);
  EXPECT_EQ(got, (std::vector<uint8_t>{0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255}));
  // A buffer one byte short of the chroma rows is refused.
  LinearImage img;
  img.format = fmt("NV12");
  img.width_px = img.height_px = 2;
  img.data = nv12.data();
  img.size_B = 5;
  uint8_t out[16];
  const Status st = decode_rgba8(img, {}, out, 16);
  EXPECT_EQ(st.code(), Code::buffer_too_small) << st.message();
  EXPECT_NE(st.message().find("input chroma"), std::string::npos) << st.message();
}

// The full-colour RGBA8 output of byte formats and of BC1-BC3 / BC7 takes a
// shortcut; the channel views take the general path. They must agree.
TEST(Decode, FullColourAgreesWithChannelViews) {
  int checked = 0;
  for (const char* name : {"R8G8B8A8_UNORM", "R8G8B8A8_UNORM_SRGB", "B8G8R8A8_UNORM", "B8G8R8X8_UNORM", "R8G8_UNORM",
                           "R8_UNORM", "A8_UNORM", "BC1_UNORM", "BC2_UNORM", "BC3_UNORM_SRGB", "BC7_UNORM",
                           "BC4_UNORM", "BC5_UNORM"}) {
    const FormatInfo f = fmt(name);
    const uint32_t w = 13, h = 9;
    const size_t bytes = size_t{(w + f.block_width - 1) / f.block_width} * ((h + f.block_height - 1) / f.block_height) *
                         f.element_bytes;
    std::vector<uint8_t> data(bytes);
    for (size_t k = 0; k < bytes; ++k) data[k] = static_cast<uint8_t>((k * 2654435761u) >> 11) | 1u;
    const std::vector<uint8_t> full = decode_8(name, data, w, h);
    const bool grey = std::string(name) == "R8_UNORM" || std::string(name) == "BC4_UNORM";
    for (int c = 0; c < 4; ++c) {
      DecodeOptions o;
      o.channel = static_cast<ViewChannel>(static_cast<int>(ViewChannel::r) + (grey ? 0 : c));
      const std::vector<uint8_t> one = decode_8(name, data, w, h, o);
      for (size_t i = 0; i < size_t{w} * h; ++i) {
        const uint8_t want = grey && c == 3 ? 255 : one[i * 4];
        ASSERT_EQ(full[i * 4 + size_t(c)], want) << name << " texel " << i << " component " << c;
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, 13);
}

TEST(Decode, Planar420PitchAppliesToOneLumaRow) {
  // NV12 4x1 at a 64-byte pitch: the chroma row follows one luma row of the
  // pitch (byte 64), as it follows two at byte 128; the padding must not be
  // read as chroma.
  std::vector<uint8_t> buf(128, 0);
  for (int i = 0; i < 4; ++i) buf[i] = 235;
  for (int i = 64; i < 68; ++i) buf[i] = 128;
  LinearImage img;
  img.format = fmt("NV12");
  img.width_px = 4;
  img.height_px = 1;
  img.data = buf.data();
  img.size_B = buf.size();
  img.row_pitch_B = 64;
  std::vector<uint8_t> out(16, 0xEE);
  ASSERT_TRUE(decode_rgba8(img, {}, out.data(), out.size()).ok());
  for (int x = 0; x < 4; ++x)
    EXPECT_EQ(std::vector<uint8_t>(out.begin() + x * 4, out.begin() + x * 4 + 4), (std::vector<uint8_t>{255, 255, 255, 255}))
        << x;
  // A pitch smaller than the luma row is refused even for one row: the chroma follows at it.
  img.row_pitch_B = 3;
  std::fill(out.begin(), out.end(), 0xEE);
  const Status st = decode_rgba8(img, {}, out.data(), out.size());
  EXPECT_EQ(st.code(), Code::invalid_argument) << st.message();
  EXPECT_NE(st.message().find("row pitch = 3"), std::string::npos) << st.message();
  EXPECT_EQ(out, std::vector<uint8_t>(16, 0xEE));
}

TEST(Decode, FloatAlphaNaNIsTransparent) {
  const float px[4] = {0.5f, 0.5f, 0.5f, std::nanf("")};
  std::vector<uint8_t> bytes(16);
  std::memcpy(bytes.data(), px, 16);
  EXPECT_EQ(decode_8("R32G32B32A32_FLOAT", bytes, 1, 1)[3], 0);
}

TEST(Decode, PaletteErrorsNameThePalette) {
  const std::vector<uint8_t> pal = {255, 0, 0, 255, 0, 255, 0};  // one byte short of two entries
  const LinearImage p = swz_test::tight_image("R8G8B8A8_UNORM", pal, 2, 1);
  DecodeOptions o;
  o.palette = &p;
  const std::vector<uint8_t> idx = {0};
  const LinearImage img = swz_test::tight_image("P8", idx, 1, 1);
  uint8_t out[4] = {0xEE, 0xEE, 0xEE, 0xEE};
  const Status st = decode_rgba8(img, o, out, 4);
  EXPECT_EQ(st.code(), Code::buffer_too_small) << st.message();
  EXPECT_EQ(st.message().rfind("options.palette: ", 0), 0u) << st.message();
  EXPECT_EQ(out[0], 0xEE);
}

TEST(Decode, PaletteFormatHoldsOneTexelAnElement) {
  // 4 bytes of R8G8_B8G8 are one element but two texels: counted as bytes /
  // element size (the command, Python), the second entry was lost and its
  // index decoded as transparent black. Such palette formats are refused.
  for (const char* name : {"R8G8_B8G8_UNORM", "YUY2", "BC1_UNORM", "NV12"}) {
    const std::vector<uint8_t> pal(64, 200);
    const LinearImage p = swz_test::tight_image(name, pal, 2, 1);
    DecodeOptions o;
    o.palette = &p;
    const std::vector<uint8_t> idx = {1};
    const LinearImage img = swz_test::tight_image("P8", idx, 1, 1);
    uint8_t out[4] = {0xEE, 0xEE, 0xEE, 0xEE};
    const Status st = decode_rgba8(img, o, out, 4);
    EXPECT_EQ(st.code(), Code::invalid_argument) << name << ": " << st.message();
    EXPECT_NE(st.message().find("one texel an element"), std::string::npos) << st.message();
    EXPECT_EQ(out[0], 0xEE);
  }
}

TEST(Decode, CheckDecodeInputBeforeTheOutput) {
  // 100000 x 100000 texels from 16 bytes: refused on the input alone, so a
  // caller can check before it allocates 40 GB of output.
  const std::vector<uint8_t> tiny(16);
  LinearImage img;
  img.format = fmt("R8_UNORM");
  img.width_px = img.height_px = 100000;
  img.data = tiny.data();
  img.size_B = tiny.size();
  EXPECT_EQ(check_decode_input(img, {}).code(), Code::buffer_too_small);
  img.width_px = img.height_px = 4;
  EXPECT_TRUE(check_decode_input(img, {}).ok());
}

TEST(Decode, SubresourceChecksBuffersBeforeAllocating) {
  // A 2^24 x 2^24 RGBA32F row-major layout (4 PiB): a 64-byte resource and a
  // 4-byte output are refused before the 4 PiB temporary is allocated.
  TextureDesc desc;
  desc.format = fmt("R32G32B32A32_FLOAT");
  desc.width = desc.height = 1u << 24;
  Layout layout;
  ASSERT_TRUE(make_layout_from_name("row-major", desc, {}, &layout).ok());
  std::vector<uint8_t> res(64), out(4);
  Status st = decode_subresource_rgba8(layout, res.data(), res.size(), 0, nullptr, {}, out.data(), out.size());
  EXPECT_EQ(st.code(), Code::buffer_too_small) << st.message();
  const Box box{0, 0, 0, 1, 1, 1};
  st = decode_subresource_rgba8(layout, res.data(), res.size(), 0, &box, {}, out.data(), out.size());
  EXPECT_EQ(st.code(), Code::buffer_too_small) << st.message();
  EXPECT_NE(st.message().find("resource buffer is 64 bytes"), std::string::npos) << st.message();
}

TEST(Decode, SubresourcePlanesThatDoNotDecodeAlone) {
  // NV12's planes decode only together; a depth-stencil format's stencil
  // plane is not depth: both refused, naming the subresource.
  for (const char* name : {"NV12", "P010", "D24_UNORM_S8_UINT"}) {
    TextureDesc desc;
    desc.format = fmt(name);
    desc.width = desc.height = 16;
    Layout layout;
    ASSERT_TRUE(make_layout_from_name("row-major", desc, {}, &layout).ok()) << name;
    std::vector<uint8_t> res(layout.size(), 128), out;
    for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
      out.assign(16 * 16 * 4, 0xEE);
      const bool depth_plane = std::string(name) == "D24_UNORM_S8_UINT" && i == 0;
      EXPECT_EQ(check_decodable(layout, i).ok(), depth_plane) << name << " " << i;
      const Status st = decode_subresource_rgba8(layout, res.data(), res.size(), i, nullptr, {}, out.data(), out.size());
      if (depth_plane) {
        EXPECT_TRUE(st.ok()) << st.message();
        continue;
      }
      EXPECT_EQ(st.code(), Code::unsupported) << name << " " << i;
      EXPECT_NE(st.message().find("subresource " + std::to_string(i)), std::string::npos) << st.message();
      EXPECT_EQ(out, std::vector<uint8_t>(out.size(), 0xEE));
    }
  }
}

TEST(Decode, FormatInfoMustBeTheTableEntry) {
  // A FormatInfo whose fields disagree with its DXGI value would size the
  // input by one element and read by another (R8G8B8A8 read 4 bytes from a
  // 1-byte buffer; block_width 0 divided by zero): refused, naming the format.
  const uint8_t in[1] = {7};
  uint8_t out[4] = {0xEE, 0xEE, 0xEE, 0xEE};
  LinearImage img;
  img.width_px = img.height_px = 1;
  img.data = in;
  img.size_B = 1;
  FormatInfo f = fmt("R8G8B8A8_UNORM");
  f.element_bytes = 1;
  img.format = f;
  Status st = decode_rgba8(img, {}, out, 4);
  EXPECT_EQ(st.code(), Code::invalid_argument) << st.message();
  EXPECT_NE(st.message().find("R8G8B8A8_UNORM"), std::string::npos) << st.message();
  f = fmt("R8_UNORM");
  f.block_width = 0;
  img.format = f;
  EXPECT_EQ(decode_rgba8(img, {}, out, 4).code(), Code::invalid_argument);
  f = fmt("R8_UNORM");
  f.name = nullptr;
  img.format = f;
  EXPECT_EQ(decode_rgba8(img, {}, out, 4).code(), Code::invalid_argument);
  EXPECT_EQ(check_decodable(f).code(), Code::invalid_argument);
  EXPECT_EQ(out[0], 0xEE);
}

}  // namespace
