// Clears (ClearTextureSubresources), fills (FillBuffers) and resolves on
// laid-out memory. Oracles: known vectors derived from the public conversion
// rules (tests/data/conversion/d3d_clear_vectors.json, each with its source),
// element_offset per element for where a clear writes (the clear itself goes
// through the copy kernels, or plan runs for MSAA), a byte loop for
// fills, and exact scalar arithmetic for resolves. Guard bytes everywhere;
// hostile descriptors leave every buffer untouched.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/format_convert.hpp"
#include "swz/swz.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::fmt;
using swz_test::tex2d;
using swz_test::tex3d;

namespace {

constexpr uint8_t kGuard = 0xA5;

std::vector<uint8_t> hex(const std::string& s) {
  std::vector<uint8_t> v;
  for (size_t i = 0; i + 1 < s.size(); i += 2)
    v.push_back(static_cast<uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
  return v;
}

float jfloat(const nlohmann::json& j) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "inf") return std::numeric_limits<float>::infinity();
    if (s == "-inf") return -std::numeric_limits<float>::infinity();
    if (s == "nan") return std::numeric_limits<float>::quiet_NaN();
    if (s == "-0") return -0.0f;
    ADD_FAILURE() << "bad float " << s;
  }
  return j.get<float>();
}

Layout make(const TextureDesc& d, LayoutKind k, const Pattern* p = nullptr) {
  LayoutSpec spec;
  spec.kind = k;
  if (p) spec.pattern = *p;
  Layout L;
  const Status st = make_layout(d, spec, &L);
  EXPECT_TRUE(st.ok()) << st.message();
  return L;
}

Pattern P(const char* text) {
  Pattern p;
  const Status st = parse_pattern_text(text, &p);
  EXPECT_TRUE(st.ok()) << st.message();
  return p;
}

std::vector<uint8_t> random_bytes(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// ---- known vectors -----------------------------------------------------------------------------

TEST(ClearVectors, KnownEncodingsFromThePublicRules) {
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/conversion/d3d_clear_vectors.json");
  ASSERT_TRUE(in.good());
  const nlohmann::json doc = nlohmann::json::parse(in);
  int n = 0;
  for (const auto& v : doc["vectors"]) {
    const std::string name = v["format"].get<std::string>();
    const uint32_t plane = v.value("plane", 0u);
    ClearValue cv;
    if (v.contains("floats")) {
      cv = ClearValue::from_floats(jfloat(v["floats"][0]), jfloat(v["floats"][1]), jfloat(v["floats"][2]),
                                   jfloat(v["floats"][3]));
    } else {
      cv = ClearValue::from_uints(v["uints"][0].get<uint32_t>(), v["uints"][1].get<uint32_t>(),
                                  v["uints"][2].get<uint32_t>(), v["uints"][3].get<uint32_t>());
    }
    const std::vector<uint8_t> want = hex(v["bytes"].get<std::string>());
    uint8_t got[16];
    std::memset(got, 0xEE, sizeof got);
    ClearMember m;
    const Status st = encode_clear_value(fmt(name.c_str()), plane, cv, got, sizeof got, &m);
    ASSERT_TRUE(st.ok()) << name << ": " << st.message();
    EXPECT_EQ(std::vector<uint8_t>(got, got + want.size()), want)
        << name << " (" << v["why"].get<std::string>() << ", source " << v["source"].get<std::string>() << ")";
    EXPECT_EQ(m == ClearMember::Uints, v.contains("uints")) << name;
    ++n;
  }
  EXPECT_GE(n, 60);
}

// ---- scalar rules as properties ----------------------------------------------------------------

TEST(ConversionRules, UnormSnormCodesRoundTripAndRoundHalfAway) {
  for (unsigned bits : {1u, 4u, 5u, 6u, 8u, 10u, 16u}) {
    const uint32_t m = (1u << bits) - 1;
    for (uint32_t k = 0; k <= m; ++k) {
      EXPECT_EQ(detail::float_to_unorm(static_cast<float>(static_cast<double>(k) / m), bits), k);
      if (k < m) {
        EXPECT_EQ(detail::float_to_unorm(static_cast<float>((k + 0.45) / m), bits), k) << bits << " " << k;
        EXPECT_EQ(detail::float_to_unorm(static_cast<float>((k + 0.55) / m), bits), k + 1) << bits << " " << k;
      }
    }
  }
  for (unsigned bits : {8u, 16u}) {
    const int32_t m = (1 << (bits - 1)) - 1;
    for (int32_t k = -m; k <= m; ++k) {
      EXPECT_EQ(detail::float_to_snorm(static_cast<float>(static_cast<double>(k) / m), bits), k);
      EXPECT_DOUBLE_EQ(detail::snorm_to_float(k, bits), static_cast<double>(k) / m);
    }
    EXPECT_EQ(detail::snorm_to_float(-m - 1, bits), -1.0);  // the most negative code also means -1.0
  }
}

TEST(ConversionRules, HalfEveryValueRoundTripsAndBetweenValuesRoundsTowardZero) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint32_t e = (h >> 10) & 31;
    if (e == 31) continue;  // INF/NaN: known vectors
    const double v = detail::half_to_double(static_cast<uint16_t>(h));
    ASSERT_EQ(detail::float_to_half(static_cast<float>(v)), h) << std::hex << h;
    if ((h & 0x7FFF) == 0x7BFF) continue;
    // Just below the next magnitude: toward zero gives h.
    const double next = detail::half_to_double(static_cast<uint16_t>(h + 1));
    const float mid = static_cast<float>(v + (next - v) * 0.75);
    ASSERT_EQ(detail::float_to_half(mid), h) << std::hex << h;
  }
}

TEST(ConversionRules, SmallFloatsAndSharedExponentRoundTrip) {
  for (uint32_t v = 0; v < 0x7C0; ++v)
    ASSERT_EQ(
        detail::float_to_small_float(static_cast<float>(detail::small_float_to_double(v, 5, 6, false)), 5, 6, false),
        v);
  for (uint32_t v = 0; v < 0x3E0; ++v)
    ASSERT_EQ(
        detail::float_to_small_float(static_cast<float>(detail::small_float_to_double(v, 5, 5, false)), 5, 5, false),
        v);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    // Values RGBE represents exactly (a shared exponent with the largest mantissa >= 256) come back bit for bit.
    const uint32_t e = 1 + rng() % 31;
    const uint32_t mr = 256 + rng() % 256, mg = rng() % 512, mb = rng() % 512;
    const uint32_t packed = mr | (mg << 9) | (mb << 18) | (e << 27);
    double rgb[3];
    detail::rgbe_to_double3(packed, rgb);
    ASSERT_EQ(
        detail::float3_to_rgbe(static_cast<float>(rgb[0]), static_cast<float>(rgb[1]), static_cast<float>(rgb[2])),
        packed)
        << std::hex << packed;
  }
}

TEST(ConversionRules, SrgbEncodeMatchesTheCurveAndInverts) {
  for (uint32_t k = 0; k < 256; ++k) {
    const double lin = detail::srgb_to_linear(k / 255.0);
    EXPECT_EQ(detail::float_to_srgb8(static_cast<float>(lin), 8), k);
  }
  EXPECT_EQ(detail::float_to_srgb8(0.5f, 8), 188u);
}

// ---- BC7 constant blocks: decoded by a mode-6 decoder written from the BC7 format description --

// Mode 5: 6 mode bits (000001), rotation 2, R0 R1 G0 G1 B0 B1 7 bits each, A0 A1 8 bits,
// colour indices (anchor 1 bit + 15 x 2), alpha indices (anchor 1 bit + 15 x 2).
void bc7_mode5_decode_texel(const uint8_t* b, int texel, uint32_t* rgba) {
  static const int kW2[4] = {0, 21, 43, 64};
  auto bits = [&](unsigned off, unsigned n) { return static_cast<uint32_t>(detail::get_bits(b, off, n)); };
  ASSERT_EQ(bits(0, 6), 32u) << "mode 5";
  ASSERT_EQ(bits(6, 2), 0u) << "rotation";
  const uint32_t ci = texel == 0 ? bits(66, 1) : bits(67 + 2 * (texel - 1), 2);
  const uint32_t ai = texel == 0 ? bits(97, 1) : bits(98 + 2 * (texel - 1), 2);
  for (int ch = 0; ch < 3; ++ch) {
    uint32_t e0 = bits(8 + 14 * ch, 7), e1 = bits(15 + 14 * ch, 7);
    e0 = (e0 << 1) | (e0 >> 6);
    e1 = (e1 << 1) | (e1 >> 6);
    rgba[ch] = ((64 - kW2[ci]) * e0 + kW2[ci] * e1 + 32) >> 6;
  }
  const uint32_t a0 = bits(50, 8), a1 = bits(58, 8);
  rgba[3] = ((64 - kW2[ai]) * a0 + kW2[ai] * a1 + 32) >> 6;
}

void bc7_mode6_decode_texel(const uint8_t* b, int texel, uint32_t* rgba) {
  static const int kW[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
  auto bits = [&](unsigned off, unsigned n) { return static_cast<uint32_t>(detail::get_bits(b, off, n)); };
  if (bits(0, 7) != 64u) return bc7_mode5_decode_texel(b, texel, rgba);
  uint32_t e[4][2];
  for (int ch = 0; ch < 4; ++ch)
    for (int k = 0; k < 2; ++k) e[ch][k] = bits(7 + 14 * ch + 7 * k, 7) << 1;
  const uint32_t p0 = bits(63, 1), p1 = bits(64, 1);
  const uint32_t idx = texel == 0 ? bits(65, 3) : bits(68 + 4 * (texel - 1), 4);
  for (int ch = 0; ch < 4; ++ch) {
    const uint32_t a = e[ch][0] | p0, c = e[ch][1] | p1;
    rgba[ch] = ((64 - kW[idx]) * a + kW[idx] * c + 32) >> 6;
  }
}

TEST(ClearBc, Bc7ConstantBlocksDecodeToTheValueExactly) {
  std::mt19937_64 rng(11);
  const FormatInfo f = fmt("BC7_UNORM");
  static const uint32_t kEdge[6] = {0, 1, 2, 253, 254, 255};
  for (int i = 0; i < 1296 + 2000; ++i) {
    uint32_t want[4];
    int k = i;
    for (auto& w : want) {
      w = i < 1296 ? kEdge[k % 6]
                   : static_cast<uint32_t>(rng() % 256);  // every mix of edge values, then random colours
      k /= 6;
    }
    const ClearValue v =
        ClearValue::from_floats(want[0] / 255.0f, want[1] / 255.0f, want[2] / 255.0f, want[3] / 255.0f);
    uint8_t blk[16];
    ASSERT_TRUE(encode_clear_value(f, 0, v, blk, 16).ok());
    for (int t = 0; t < 16; ++t) {
      uint32_t got[4];
      bc7_mode6_decode_texel(blk, t, got);
      ASSERT_EQ(got[0], want[0]) << want[0] << "," << want[1] << "," << want[2] << "," << want[3] << " texel " << t;
      ASSERT_EQ(got[1], want[1]) << want[0] << "," << want[1] << "," << want[2] << "," << want[3];
      ASSERT_EQ(got[2], want[2]);
      ASSERT_EQ(got[3], want[3]) << i << " texel " << t;
    }
  }
}

// BC6H: a decoder of the one-region [16 4] mode written from Microsoft's "BC6H Format"
// (field order m[4:0] rw[9:0] gw[9:0] bw[9:0] rx[3:0] rw[10:15] gx[3:0] gw[10:15] bx[3:0]
// bw[10:15], [10:15] stored from bit 15 down; unquantize and finish_unquantize as printed there).
uint16_t bc6h_mode14_decode(const uint8_t* b, int texel, int ch, bool is_signed) {
  auto bits = [&](unsigned off, unsigned n) { return static_cast<uint32_t>(detail::get_bits(b, off, n)); };
  EXPECT_EQ(bits(0, 5), 0x0Fu);
  uint32_t a = bits(5 + 10 * ch, 10);
  for (unsigned k = 0; k < 6; ++k) a |= bits(39 + 10 * ch + k, 1) << (15 - k);
  int32_t d = static_cast<int32_t>(bits(35 + 10 * ch, 4));
  if (d & 8) d -= 16;  // transformed: B = A + sign-extended delta, wrapped to 16 bits
  const uint32_t bq = (a + static_cast<uint32_t>(d)) & 0xFFFF;
  const uint32_t idx = texel == 0 ? bits(65, 3) : bits(68 + 4 * (texel - 1), 4);
  static const int kW[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
  int32_t ca = static_cast<int32_t>(a), cb = static_cast<int32_t>(bq);
  if (is_signed) {
    if (ca & 0x8000) ca -= 0x10000;
    if (cb & 0x8000) cb -= 0x10000;
  }
  const int32_t v = (ca * (64 - kW[idx]) + cb * kW[idx] + 32) >> 6;
  if (!is_signed) return static_cast<uint16_t>((v * 31) >> 6);
  const int32_t m = v < 0 ? -(((-v) * 31) >> 5) : (v * 31) >> 5;
  return static_cast<uint16_t>(m < 0 ? (0x8000 | -m) : m);
}

TEST(ClearBc, Bc6hConstantBlocksDecodeToTheHalfValue) {
  std::mt19937_64 rng(13);
  for (bool is_signed : {false, true}) {
    const FormatInfo f = fmt(is_signed ? "BC6H_SF16" : "BC6H_UF16");
    for (int i = 0; i < 2000; ++i) {
      float v[3];
      for (auto& x : v) {
        const int k = static_cast<int>(rng() % 4);
        x = k == 0 ? static_cast<float>(
                         std::ldexp(static_cast<double>(rng() % 100000) / 100000.0, static_cast<int>(rng() % 40) - 24))
            : k == 1 ? -static_cast<float>(rng() % 70000)
            : k == 2 ? static_cast<float>(rng() % 70000)
                     : 0.0f;
      }
      if (i == 0) {
        v[0] = INFINITY;
        v[1] = -INFINITY;
        v[2] = NAN;
      }
      uint8_t blk[16];
      ASSERT_TRUE(encode_clear_value(f, 0, ClearValue::from_floats(v[0], v[1], v[2], 1), blk, 16).ok());
      for (int ch = 0; ch < 3; ++ch) {
        // Expected: the half of the value (toward zero), NaN -> 0, INF and past the range -> the largest
        // finite magnitude 0x7BFF, unsigned: negatives -> 0; -0 -> +0.
        uint16_t want = 0;
        if (!std::isnan(v[ch]) && (is_signed || v[ch] > 0)) {
          const uint16_t h = detail::float_to_half(v[ch]);
          const uint16_t mag = std::min<uint16_t>(h & 0x7FFF, 0x7BFF);
          want = static_cast<uint16_t>(mag == 0 ? 0 : (h & 0x8000) | mag);
        }
        for (int t = 0; t < 16; t += 5)
          ASSERT_EQ(bc6h_mode14_decode(blk, t, ch, is_signed), want)
              << v[ch] << " ch " << ch << " signed " << is_signed;
      }
    }
  }
}

// ---- clears on random layouts, against the copy path ----------------------------------------------

// The expected resource: `before` with every element of the box of `sub` set to
// `element`, each placed by element_offset (one element at a time; the clear
// itself writes through the copy kernels).
void expect_clear_by_address(const Layout& L, const std::vector<uint8_t>& before, const std::vector<uint8_t>& after,
                             uint32_t sub, const ElementBox& eb, const uint8_t* element, const std::string& what) {
  const uint64_t E = L.sub(sub).element_bytes;
  std::vector<uint8_t> want = before;
  for (uint32_t z = eb.z; z < eb.z + eb.depth; ++z)
    for (uint32_t y = eb.y_el; y < eb.y_el + eb.height_el; ++y)
      for (uint32_t x = eb.x_el; x < eb.x_el + eb.width_el; ++x) {
        uint64_t off;
        ASSERT_TRUE(element_offset(L, sub, x, y, z, 0, &off).ok());
        std::memcpy(&want[off], element, E);
      }
  ASSERT_EQ(want.size(), after.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(after[i], want[i]) << what << ": byte " << i;
}

TEST(Clear, RandomLayoutsBoxesAndFormatsMatchElementOffsets) {
  std::mt19937_64 rng(2026);
  const char* formats[] = {"R8_UNORM",
                           "R8G8_SNORM",
                           "R8G8B8A8_UNORM_SRGB",
                           "B5G6R5_UNORM",
                           "R16G16B16A16_FLOAT",
                           "R32G32B32A32_UINT",
                           "R10G10B10A2_UNORM",
                           "R11G11B10_FLOAT",
                           "R9G9B9E5_SHAREDEXP",
                           "BC1_UNORM",
                           "BC3_UNORM_SRGB",
                           "BC4_SNORM",
                           "BC5_UNORM",
                           "BC7_UNORM",
                           "R32_FLOAT",
                           "B4G4R4A4_UNORM",
                           "R16_SINT",
                           "A8_UNORM",
                           "YUY2"};
  int cases = 0;
  for (int iter = 0; iter < 160; ++iter) {
    const char* name = formats[iter % (sizeof formats / sizeof formats[0])];
    const FormatInfo f = fmt(name);
    const bool three_d = rng() % 4 == 0 && f.block_width == 1;
    const uint32_t w = 1 + rng() % 70, h = 1 + rng() % 40, d = three_d ? 1 + rng() % 5 : 1;
    TextureDesc desc = three_d ? tex3d(name, w, h, d, 1 + rng() % 2) : tex2d(name, w, h, 1 + rng() % 3, 1 + rng() % 2);
    desc.mip_levels = std::min(desc.mip_levels, full_mip_count(w, h, d));
    const int kind = static_cast<int>(rng() % 3);
    Layout L;
    LayoutSpec spec;
    spec.kind = kind == 0 ? LayoutKind::RowMajor : kind == 1 ? LayoutKind::Std64K : LayoutKind::Pattern;
    if (kind == 2) {
      swz_test::RandomPatternOptions o;
      o.element_log2 = static_cast<unsigned>(std::countr_zero(f.element_bytes));
      o.max_block_bits = 10;
      o.allow_stack = false;
      spec.pattern = swz_test::random_pattern(rng, o);
    }
    if (!make_layout(desc, spec, &L).ok()) continue;
    const uint32_t sub = static_cast<uint32_t>(rng() % L.subresource_count());
    const SubresourceLayout& s = L.sub(sub);
    const uint32_t bw = f.block_width, bh = f.block_height;
    auto pick = [&](uint32_t size, uint32_t a, uint32_t* lo, uint32_t* hi) {
      const uint32_t cells = (size + a - 1) / a;
      uint32_t c0 = static_cast<uint32_t>(rng() % cells), c1 = c0 + 1 + static_cast<uint32_t>(rng() % (cells - c0));
      *lo = c0 * a;
      *hi = std::min(size, c1 * a);
    };
    Box b;
    pick(s.width, bw, &b.left, &b.right);
    pick(s.height, bh, &b.top, &b.bottom);
    pick(s.depth, 1, &b.front, &b.back);
    ClearDesc c;
    c.subresource = sub;
    c.whole = rng() % 5 == 0;
    c.box = b;
    float fv[4];
    for (auto& x : fv) x = static_cast<float>(static_cast<int>(rng() % 2001) - 500) / 1000.0f;
    c.value = ClearValue::from_floats(fv[0], fv[1], fv[2], fv[3]);
    if (std::string(name).find("INT") != std::string::npos || std::string(name) == "YUY2")
      c.value = ClearValue::from_uints(static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()),
                                       static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()));
    std::vector<uint8_t> before = random_bytes(rng, L.size() + 64);
    for (size_t i = L.size(); i < before.size(); ++i) before[i] = kGuard;
    std::vector<uint8_t> after = before;
    const Status st = clear_subresources(L, after.data(), L.size(), &c, 1);
    ASSERT_TRUE(st.ok()) << name << ": " << st.message();
    ElementBox eb;
    ASSERT_TRUE(to_element_box(L, sub, c.whole ? nullptr : &c.box, &eb).ok());
    uint8_t element[16];
    ASSERT_TRUE(encode_clear_value(f, 0, c.value, element, 16).ok());
    expect_clear_by_address(L, before, after, sub, eb, element, std::string(name) + " " + L.name());
    ++cases;
  }
  EXPECT_GE(cases, 100);
}

TEST(Clear, AllSubresourcesAndEveryPlaneOfNv12) {
  const TextureDesc d = tex2d("NV12", 10, 6, 1, 2);
  const Layout L = make(d, LayoutKind::RowMajor);
  ASSERT_EQ(L.subresource_count(), 4u);
  std::vector<uint8_t> buf(L.size() + 16, kGuard);
  std::vector<uint8_t> orig = buf;
  ClearDesc c;
  c.subresource = kAllSubresources;
  c.value = ClearValue::from_uints(0x10, 0x80, 0x90, 0);
  c.whole = false;
  c.box = Box{2, 2, 0, 10, 6, 1};  // right/bottom: the edge; left/top multiples of 2
  ASSERT_TRUE(clear_subresources(L, buf.data(), L.size(), &c, 1).ok());
  for (uint32_t sub = 0; sub < 4; ++sub) {
    const SubresourceLayout& s = L.sub(sub);
    for (uint32_t y = 0; y < s.height_el; ++y)
      for (uint32_t x = 0; x < s.width_el; ++x) {
        uint64_t off;
        ASSERT_TRUE(element_offset(L, sub, x, y, 0, 0, &off).ok());
        const bool chroma = s.plane == 1;
        const bool inside = chroma ? (x >= 1 && y >= 1) : (x >= 2 && y >= 2);
        if (!chroma) {
          EXPECT_EQ(buf[off], inside ? 0x10 : kGuard) << sub << " " << x << "," << y;
        } else {
          EXPECT_EQ(buf[off], inside ? 0x80 : kGuard);
          EXPECT_EQ(buf[off + 1], inside ? 0x90 : kGuard);
        }
      }
  }
  for (size_t i = L.size(); i < buf.size(); ++i) ASSERT_EQ(buf[i], kGuard);
}

TEST(Clear, EverySampleOfAnMsaaLayout) {
  TextureDesc d = tex2d("R16G16_FLOAT", 9, 7);
  d.samples = 4;
  Layout M;
  LayoutSpec spec;
  spec.kind = LayoutKind::Pattern;
  spec.pattern = P("X0 X1 S0 X2 Y0 S1 X3 Y1 X4 Y2");
  ASSERT_TRUE(make_layout(d, spec, &M).ok());
  std::vector<uint8_t> buf(M.size() + 8, kGuard);
  ClearDesc c;
  c.value = ClearValue::from_floats(1.0f, -2.0f, 0, 0);
  c.whole = false;
  c.box = Box{3, 1, 0, 8, 6, 1};
  ASSERT_TRUE(clear_subresources(M, buf.data(), M.size(), &c, 1).ok());
  const uint8_t want[4] = {0x00, 0x3C, 0x00, 0xC0};
  for (uint32_t smp = 0; smp < 4; ++smp)
    for (uint32_t y = 0; y < 7; ++y)
      for (uint32_t x = 0; x < 9; ++x) {
        uint64_t off;
        ASSERT_TRUE(element_offset(M, 0, x, y, 0, smp, &off).ok());
        const bool in = x >= 3 && x < 8 && y >= 1 && y < 6;
        for (int k = 0; k < 4; ++k) ASSERT_EQ(buf[off + k], in ? want[k] : kGuard) << x << "," << y << " s" << smp;
      }
}

// ---- hostile clears: a named error and an untouched buffer ---------------------------------------

struct Hostile {
  const char* what;
  Code code;
  const char* message;
};

void expect_untouched_clear(const Layout& L, const ClearDesc* c, size_t n, Code code, const char* needle) {
  std::mt19937_64 rng(5);
  std::vector<uint8_t> buf = random_bytes(rng, L.size());
  const std::vector<uint8_t> orig = buf;
  const Status st = clear_subresources(L, buf.data(), buf.size(), c, n);
  EXPECT_EQ(st.code(), code) << st.message();
  EXPECT_NE(st.message().find(needle), std::string::npos) << st.message() << " (wanted: " << needle << ")";
  EXPECT_EQ(buf, orig) << st.message();
}

TEST(ClearHostile, NamedErrorsAndNothingWritten) {
  const Layout bc = make(tex2d("BC1_UNORM", 18, 18), LayoutKind::Std64K);
  ClearDesc ok;
  ok.value = ClearValue::from_floats(1, 1, 1, 1);
  ClearDesc c = ok;
  c.whole = false;
  c.box = Box{2, 0, 0, 8, 8, 1};
  ClearDesc two[2] = {ok, c};  // the first is valid: it must not be applied either
  expect_untouched_clear(bc, two, 2, Code::invalid_argument, "4x4 region alignment of BC1_UNORM");
  c.box = Box{0, 0, 0, 6, 8, 1};
  expect_untouched_clear(bc, &c, 1, Code::invalid_argument, "alignment");
  c.box = Box{16, 16, 0, 18, 18, 1};  // the edge: valid
  std::vector<uint8_t> buf(bc.size());
  EXPECT_TRUE(clear_subresources(bc, buf.data(), buf.size(), &c, 1).ok());
  c.box = Box{0, 0, 0, 20, 8, 1};
  expect_untouched_clear(bc, &c, 1, Code::out_of_range, "outside the subresource");
  // Inverted boxes (refused, not a silent no-op), each edge pair, with a valid clear
  // first that must not be applied either; a box of zero volume stays a no-op.
  c.box = Box{8, 0, 0, 4, 8, 1};
  ClearDesc inv[2] = {ok, c};
  expect_untouched_clear(bc, inv, 2, Code::invalid_argument,
                         "clear 1: box (8,0,0)-(4,8,1) is inverted: left = 8 > right = 4");
  c.box = Box{0, 8, 0, 8, 4, 1};
  expect_untouched_clear(bc, &c, 1, Code::invalid_argument, "inverted: top = 8 > bottom = 4");
  c.box = Box{0, 0, 1, 8, 8, 0};
  expect_untouched_clear(bc, &c, 1, Code::invalid_argument, "inverted: front = 1 > back = 0");
  c.box = Box{4, 0, 0, 4, 8, 1};
  {
    std::vector<uint8_t> zb(bc.size(), 0x5A);
    const std::vector<uint8_t> zb0 = zb;
    EXPECT_TRUE(clear_subresources(bc, zb.data(), zb.size(), &c, 1).ok());
    EXPECT_EQ(zb, zb0);
  }

  const Layout nv12 = make(tex2d("NV12", 8, 8), LayoutKind::RowMajor);
  c.subresource = 1;
  c.box = Box{1, 0, 0, 4, 4, 1};
  c.value = ClearValue::from_uints(1, 2, 3, 0);
  expect_untouched_clear(nv12, &c, 1, Code::invalid_argument, "2x2 region alignment of NV12");
  c.subresource = 0;
  c.box = Box{0, 3, 0, 4, 4, 1};
  expect_untouched_clear(nv12, &c, 1, Code::invalid_argument, "2x2 region alignment of NV12");

  const Layout yuy2 = make(tex2d("YUY2", 8, 4), LayoutKind::RowMajor);
  c.box = Box{1, 1, 0, 4, 3, 1};  // top 1 is fine (2x1), left 1 is not
  expect_untouched_clear(yuy2, &c, 1, Code::invalid_argument, "2x1 region alignment of YUY2");

  const Layout xr = make(tex2d("R10G10B10_XR_BIAS_A2_UNORM", 8, 8), LayoutKind::Std64K);
  expect_untouched_clear(xr, &ok, 1, Code::unsupported, "R10G10B10_XR_BIAS_A2_UNORM");
  const Layout tl = make(tex2d("R8G8B8A8_TYPELESS", 8, 8), LayoutKind::Std64K);
  expect_untouched_clear(tl, &ok, 1, Code::unsupported, "TYPELESS");
  ClearDesc typed = ok;
  typed.format_dxgi = 28;  // R8G8B8A8_UNORM over a TYPELESS resource: fine
  std::vector<uint8_t> tb(tl.size());
  EXPECT_TRUE(clear_subresources(tl, tb.data(), tb.size(), &typed, 1).ok());
  typed.format_dxgi = 2;  // 16-byte format over 4-byte elements
  expect_untouched_clear(tl, &typed, 1, Code::invalid_argument, "differs from the resource's R8G8B8A8_TYPELESS");

  ClearDesc far = ok;
  far.subresource = 7;
  expect_untouched_clear(tl, &far, 1, Code::out_of_range, "subresource = 7");

  const Layout mips = make(tex2d("R8_UNORM", 16, 16, 3), LayoutKind::Std64K);
  ClearDesc allbox = ok;
  allbox.subresource = kAllSubresources;
  allbox.whole = false;
  allbox.box = Box{0, 0, 0, 4, 4, 1};
  expect_untouched_clear(mips, &allbox, 1, Code::invalid_argument, "same size");

  // Too small a buffer.
  std::vector<uint8_t> small(mips.size() - 1, 0);
  const std::vector<uint8_t> small0 = small;
  ClearDesc last = ok;
  last.subresource = 0;
  last.subresource = kAllSubresources;  // the last subresource ends at the last byte
  const Status st = clear_subresources(mips, small.data(), small.size(), &last, 1);
  EXPECT_EQ(st.code(), Code::buffer_too_small) << st.message();
  EXPECT_EQ(small, small0);

  // Depth-stencil: a plane the format lacks.
  const Layout ds = make(tex2d("X24_TYPELESS_G8_UINT", 4, 4), LayoutKind::RowMajor);
  ClearDesc dc = ok;
  dc.subresource = 0;
  expect_untouched_clear(ds, &dc, 1, Code::unsupported, "no component in plane 0");
}

// ---- FillBuffers ---------------------------------------------------------------------------------

void fill_reference(std::vector<uint8_t>& buf, const std::vector<uint8_t>& pattern, uint64_t offset, uint64_t reps) {
  for (uint64_t r = 0; r < reps; ++r) {
    const uint64_t at = offset + r * pattern.size();
    if (at + pattern.size() > buf.size()) return;  // a partial repetition is omitted (and so are the rest)
    for (size_t k = 0; k < pattern.size(); ++k) buf[at + k] = pattern[k];
  }
}

TEST(Fill, RawPatternsMatchTheByteLoop) {
  std::mt19937_64 rng(99);
  const uint32_t sizes[] = {1, 2, 4, 8, 12, 16};
  for (int i = 0; i < 400; ++i) {
    const uint32_t p = sizes[rng() % 6];
    const uint64_t n = 1 + rng() % 300;
    const uint64_t align = p >= 4 ? 4 : p;
    FillDesc d;
    d.offset_B = (rng() % (n + 1)) / align * align;
    d.raw_pattern_bytes = p;
    d.repeat_count = static_cast<uint32_t>(rng() % 40);
    for (auto& b : d.value.bytes) b = static_cast<uint8_t>(rng());
    std::vector<uint8_t> buf = random_bytes(rng, n + 32);
    for (size_t k = n; k < buf.size(); ++k) buf[k] = kGuard;
    std::vector<uint8_t> want(buf.begin(), buf.begin() + static_cast<long>(n));
    fill_reference(want, std::vector<uint8_t>(d.value.bytes, d.value.bytes + p), d.offset_B, d.repeat_count);
    ASSERT_TRUE(fill_buffers(buf.data(), n, &d, 1).ok());
    ASSERT_TRUE(std::equal(want.begin(), want.end(), buf.begin()))
        << "p " << p << " off " << d.offset_B << " reps " << d.repeat_count;
    for (size_t k = n; k < buf.size(); ++k) ASSERT_EQ(buf[k], kGuard);
  }
}

TEST(Fill, FormattedValuesRepeatTheEncodedTexel) {
  FillDesc d;
  d.format_dxgi = 28;  // R8G8B8A8_UNORM
  d.value = ClearValue::from_floats(1.0f, 0.5f, 0.0f, 0.25f);
  d.offset_B = 4;
  d.repeat_count = 3;
  std::vector<uint8_t> buf(20, kGuard);
  ASSERT_TRUE(fill_buffers(buf.data(), 18, &d, 1).ok());  // 4 + 3*4 = 16 fits; nothing beyond
  const std::vector<uint8_t> want = {kGuard, kGuard, kGuard, kGuard, 0xff, 0x80, 0x00,   0x40,   0xff,   0x80,
                                     0x00,   0x40,   0xff,   0x80,   0x00, 0x40, kGuard, kGuard, kGuard, kGuard};
  EXPECT_EQ(buf, want);
  d.format_dxgi = 6;  // R32G32B32_FLOAT: 12-byte texel, offset aligned to 4
  d.value = ClearValue::from_floats(1.0f, 2.0f, 3.0f, 4.0f);
  d.offset_B = 4;
  d.repeat_count = 5;
  std::vector<uint8_t> b2(40, 0);
  ASSERT_TRUE(fill_buffers(b2.data(), b2.size(), &d, 1).ok());  // (40-4)/12 = 3 whole repetitions
  float f[10];
  std::memcpy(f, b2.data(), 40);
  EXPECT_EQ(f[1], 1.0f);
  EXPECT_EQ(f[9], 3.0f);
  EXPECT_EQ(f[0], 0.0f);
  d.format_dxgi = 54;  // R16_FLOAT: 65520 -> 0x7BFF (round toward zero)
  d.value = ClearValue::from_floats(65520.0f, 0, 0, 0);
  d.offset_B = 2;
  d.repeat_count = 1;
  std::vector<uint8_t> b3(4, 0);
  ASSERT_TRUE(fill_buffers(b3.data(), 4, &d, 1).ok());
  EXPECT_EQ(b3, (std::vector<uint8_t>{0, 0, 0xff, 0x7b}));
}

void expect_untouched_fill(const FillDesc* d, size_t n, uint64_t size, Code code, const char* needle) {
  std::vector<uint8_t> buf(size, kGuard);
  const Status st = fill_buffers(buf.data(), size, d, n);
  EXPECT_EQ(st.code(), code) << st.message();
  EXPECT_NE(st.message().find(needle), std::string::npos) << st.message() << " (wanted: " << needle << ")";
  EXPECT_EQ(buf, std::vector<uint8_t>(size, kGuard));
}

TEST(FillHostile, NamedErrorsAndNothingWritten) {
  FillDesc ok;
  ok.raw_pattern_bytes = 4;
  ok.repeat_count = 4;
  FillDesc d = ok;
  d.offset_B = 2;
  FillDesc two[2] = {ok, d};
  expect_untouched_fill(two, 2, 64, Code::invalid_argument, "fill 1: offset_B = 2 is not a multiple of 4");
  d.raw_pattern_bytes = 2;
  d.offset_B = 3;
  expect_untouched_fill(&d, 1, 64, Code::invalid_argument, "not a multiple of 2");
  d = ok;
  d.raw_pattern_bytes = 3;
  expect_untouched_fill(&d, 1, 64, Code::invalid_argument, "raw_pattern_bytes = 3");
  d.raw_pattern_bytes = 17;
  expect_untouched_fill(&d, 1, 64, Code::invalid_argument, "raw_pattern_bytes = 17");
  d = ok;
  d.format_dxgi = 28;
  expect_untouched_fill(&d, 1, 64, Code::invalid_argument, "must be 0 when a format is given");
  d.raw_pattern_bytes = 0;
  d.format_dxgi = 66;
  expect_untouched_fill(&d, 1, 64, Code::invalid_argument, "R1_UNORM");
  d.format_dxgi = 71;
  expect_untouched_fill(&d, 1, 64, Code::invalid_argument, "BC1_UNORM");
  d.format_dxgi = 27;
  expect_untouched_fill(&d, 1, 64, Code::unsupported, "TYPELESS");
  d = ok;
  d.offset_B = 68;
  expect_untouched_fill(&d, 1, 64, Code::out_of_range, "offset_B = 68");
  // A pattern at a 4-aligned offset whose 12-byte repetitions cross 8-byte boundaries is fine.
  d = ok;
  d.raw_pattern_bytes = 12;
  d.offset_B = 4;
  std::vector<uint8_t> buf(64, 0);
  EXPECT_TRUE(fill_buffers(buf.data(), buf.size(), &d, 1).ok());
}

// ---- Resolve -------------------------------------------------------------------------------------

struct Msaa {
  Layout src, dst;
};

Msaa msaa_pair(const char* format, uint32_t w, uint32_t h, uint32_t samples, const char* pattern, uint32_t array = 1) {
  Msaa m;
  TextureDesc d = tex2d(format, w, h, 1, array);
  d.samples = samples;
  LayoutSpec spec;
  spec.kind = LayoutKind::Pattern;
  spec.pattern = P(pattern);
  const Status st = make_layout(d, spec, &m.src);
  EXPECT_TRUE(st.ok()) << st.message();
  m.dst = make(tex2d(format, w + 3, h + 2), LayoutKind::Std64K);
  return m;
}

TEST(Resolve, Unorm8AverageMinMaxAgainstIntegerArithmetic) {
  const Msaa m = msaa_pair("R8G8B8A8_UNORM", 11, 9, 4, "X0 X1 S0 S1 X2 Y0 X3 Y1 X4 Y2");
  std::mt19937_64 rng(3);
  std::vector<uint8_t> src = random_bytes(rng, m.src.size());
  for (ResolveMode mode : {ResolveMode::Average, ResolveMode::Min, ResolveMode::Max}) {
    std::vector<uint8_t> dst(m.dst.size() + 16, kGuard);
    const std::vector<uint8_t> before = dst;
    ResolveDesc r;
    r.mode = mode;
    r.whole = false;
    r.rect = Rect{2, 1, 10, 8};
    r.dst_x = 5;
    r.dst_y = 3;
    ASSERT_TRUE(resolve_subresource(m.dst, dst.data(), m.dst.size(), m.src, src.data(), src.size(), r).ok());
    std::vector<uint8_t> want = before;
    for (uint32_t y = 0; y < 7; ++y)
      for (uint32_t x = 0; x < 8; ++x) {
        uint64_t doff;
        ASSERT_TRUE(element_offset(m.dst, 0, 5 + x, 3 + y, 0, 0, &doff).ok());
        for (int ch = 0; ch < 4; ++ch) {
          uint32_t sum = 0, lo = 255, hi = 0;
          for (uint32_t s = 0; s < 4; ++s) {
            uint64_t so;
            ASSERT_TRUE(element_offset(m.src, 0, 2 + x, 1 + y, 0, s, &so).ok());
            const uint32_t v = src[so + ch];
            sum += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
          }
          // mean of v/255, times 255, + 0.5, fraction dropped: floor((2*sum + 4) / 8).
          want[doff + ch] = static_cast<uint8_t>(mode == ResolveMode::Average ? (2 * sum + 4) / 8
                                                 : mode == ResolveMode::Min   ? lo
                                                                              : hi);
        }
      }
    ASSERT_EQ(dst, want) << resolve_mode_name(mode);
  }
}

TEST(Resolve, KnownAverages) {
  // Two samples per texel: (0, 1) -> mean 0.5/255 -> 0.5 + 0.5 = 1; sRGB (0, 255) -> linear 0.5 -> 188;
  // FLOAT (1, 2) -> 1.5; SNORM (-128, 127) -> (-1 + 1) / 2 = 0.
  struct Case {
    const char* format;
    std::vector<uint8_t> s0, s1, want;
  };
  const Case cases[] = {
      {"R8_UNORM", {0}, {1}, {1}},
      {"R8G8B8A8_UNORM_SRGB", {0, 0, 0, 0}, {255, 255, 255, 255}, {188, 188, 188, 128}},
      {"R32_FLOAT", {0, 0, 0x80, 0x3f}, {0, 0, 0, 0x40}, {0, 0, 0xc0, 0x3f}},
      {"R8_SNORM", {0x80}, {0x7f}, {0}},
      {"R16_FLOAT", {0x00, 0x3c}, {0x01, 0x3c}, {0x00, 0x3c}},  // mean 1 + 2^-11: toward zero -> 1.0
  };
  for (const Case& c : cases) {
    TextureDesc d = tex2d(c.format, 1, 1);
    d.samples = 2;
    const uint32_t eb = fmt(c.format).element_bytes;
    std::string pat;
    for (uint32_t b = 0; (1u << b) < eb; ++b) pat += "X" + std::to_string(b) + " ";
    pat += "S0";
    Layout src, dst = make(tex2d(c.format, 1, 1), LayoutKind::RowMajor);
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = P(pat.c_str());
    ASSERT_TRUE(make_layout(d, spec, &src).ok()) << c.format;
    std::vector<uint8_t> sb(src.size(), 0), db(dst.size(), 0xEE);
    uint64_t o0, o1;
    ASSERT_TRUE(element_offset(src, 0, 0, 0, 0, 0, &o0).ok());
    ASSERT_TRUE(element_offset(src, 0, 0, 0, 0, 1, &o1).ok());
    std::memcpy(&sb[o0], c.s0.data(), eb);
    std::memcpy(&sb[o1], c.s1.data(), eb);
    ResolveDesc r;
    const Status st = resolve_subresource(dst, db.data(), db.size(), src, sb.data(), sb.size(), r);
    ASSERT_TRUE(st.ok()) << c.format << ": " << st.message();
    EXPECT_EQ(std::vector<uint8_t>(db.begin(), db.begin() + eb), c.want) << c.format;
  }
}

TEST(Resolve, FloatAverageAndSintMinMaxAgainstScalarOracle) {
  const Msaa m = msaa_pair("R32G32_FLOAT", 6, 5, 8, "X0 X1 X2 S0 S1 S2 Y0 X3 Y1 X4");
  const Msaa mi = msaa_pair("R16_SINT", 6, 5, 8, "X0 S0 S1 S2 Y0 X1 Y1 X2");
  std::mt19937_64 rng(8);
  std::vector<uint8_t> fs(m.src.size());
  for (size_t i = 0; i + 4 <= fs.size(); i += 4) {
    const float v = static_cast<float>(static_cast<int>(rng() % 20001) - 10000) / 77.0f;
    std::memcpy(&fs[i], &v, 4);
  }
  std::vector<uint8_t> fd(m.dst.size(), 0);
  ResolveDesc r;
  ASSERT_TRUE(resolve_subresource(m.dst, fd.data(), fd.size(), m.src, fs.data(), fs.size(), r).ok());
  for (uint32_t y = 0; y < 5; ++y)
    for (uint32_t x = 0; x < 6; ++x)
      for (int ch = 0; ch < 2; ++ch) {
        double sum = 0;
        for (uint32_t s = 0; s < 8; ++s) {
          uint64_t so;
          ASSERT_TRUE(element_offset(m.src, 0, x, y, 0, s, &so).ok());
          float v;
          std::memcpy(&v, &fs[so + 4 * ch], 4);
          sum += v;
        }
        uint64_t doff;
        ASSERT_TRUE(element_offset(m.dst, 0, x, y, 0, 0, &doff).ok());
        float got;
        std::memcpy(&got, &fd[doff + 4 * ch], 4);
        ASSERT_EQ(got, static_cast<float>(sum / 8));
      }
  std::vector<uint8_t> is = random_bytes(rng, mi.src.size()), id(mi.dst.size(), 0);
  r.mode = ResolveMode::Min;
  ASSERT_TRUE(resolve_subresource(mi.dst, id.data(), id.size(), mi.src, is.data(), is.size(), r).ok());
  for (uint32_t y = 0; y < 5; ++y)
    for (uint32_t x = 0; x < 6; ++x) {
      int lo = 1 << 20;
      for (uint32_t s = 0; s < 8; ++s) {
        uint64_t so;
        ASSERT_TRUE(element_offset(mi.src, 0, x, y, 0, s, &so).ok());
        int16_t v;
        std::memcpy(&v, &is[so], 2);
        lo = std::min(lo, static_cast<int>(v));
      }
      uint64_t doff;
      ASSERT_TRUE(element_offset(mi.dst, 0, x, y, 0, 0, &doff).ok());
      int16_t got;
      std::memcpy(&got, &id[doff], 2);
      ASSERT_EQ(got, lo);
    }
}

void expect_untouched_resolve(const Layout& dl, const Layout& sl, const ResolveDesc& r, Code code, const char* needle) {
  std::vector<uint8_t> src(sl.size(), 0x11), dst(dl.size(), kGuard);
  const Status st = resolve_subresource(dl, dst.data(), dst.size(), sl, src.data(), src.size(), r);
  EXPECT_EQ(st.code(), code) << st.message();
  EXPECT_NE(st.message().find(needle), std::string::npos) << st.message() << " (wanted: " << needle << ")";
  EXPECT_EQ(dst, std::vector<uint8_t>(dl.size(), kGuard));
}

TEST(ResolveHostile, NamedErrorsAndNothingWritten) {
  const Msaa u = msaa_pair("R8G8B8A8_UINT", 8, 8, 4, "X0 X1 S0 S1 X2 Y0 X3 Y1");
  ResolveDesc r;
  expect_untouched_resolve(u.dst, u.src, r, Code::unsupported, "no average for UINT/SINT");
  r.mode = ResolveMode::Max;
  std::vector<uint8_t> src(u.src.size(), 1), dst(u.dst.size(), 0);
  EXPECT_TRUE(resolve_subresource(u.dst, dst.data(), dst.size(), u.src, src.data(), src.size(), r).ok());
  // Single-sampled source, multisampled destination.
  expect_untouched_resolve(u.dst, u.dst, r, Code::invalid_argument, "source samples = 1");
  expect_untouched_resolve(u.src, u.src, r, Code::invalid_argument, "destination samples = 4");
  // Rect outside the source, destination outside.
  r.whole = false;
  r.rect = Rect{0, 0, 9, 8};
  expect_untouched_resolve(u.dst, u.src, r, Code::out_of_range, "lies outside source");
  r.rect = Rect{0, 0, 8, 8};
  r.dst_x = 4;
  expect_untouched_resolve(u.dst, u.src, r, Code::out_of_range, "lies outside destination");
  r.dst_x = 0;
  // Inverted rects (refused, not a silent no-op); zero area stays a no-op.
  r.rect = Rect{6, 0, 2, 8};
  expect_untouched_resolve(u.dst, u.src, r, Code::invalid_argument, "rect is inverted: left = 6 > right = 2");
  r.rect = Rect{0, 5, 8, 1};
  expect_untouched_resolve(u.dst, u.src, r, Code::invalid_argument, "rect is inverted: top = 5 > bottom = 1");
  r.rect = Rect{3, 0, 3, 8};
  {
    std::vector<uint8_t> zs(u.src.size(), 1), zd(u.dst.size(), 0x5A);
    const std::vector<uint8_t> zd0 = zd;
    EXPECT_TRUE(resolve_subresource(u.dst, zd.data(), zd.size(), u.src, zs.data(), zs.size(), r).ok());
    EXPECT_EQ(zd, zd0);
  }
  r.rect = Rect{0, 0, 8, 8};
  r.src_subresource = 3;
  expect_untouched_resolve(u.dst, u.src, r, Code::out_of_range, "src_subresource");
  r.src_subresource = 0;
  // Element size mismatch.
  const Layout other = make(tex2d("R16G16B16A16_UNORM", 8, 8), LayoutKind::Std64K);
  expect_untouched_resolve(other, u.src, r, Code::invalid_argument, "does not match");
  // A block-compressed destination whose blocks have the source's element size (BC4: 8 bytes
  // per 4x4 block, R16G16B16A16: 8 bytes per texel): texel coordinates are not element
  // coordinates there; writing texel x as element x lands outside the rectangle (fuzz_clear).
  {
    const Msaa h = msaa_pair("R16G16B16A16_FLOAT", 8, 8, 4, "X0 X1 X2 S0 S1 X3 Y0 X4 Y1");
    const Layout bc4 = make(tex2d("BC4_UNORM", 8, 8), LayoutKind::Std64K);
    ResolveDesc rb;
    rb.whole = true;
    expect_untouched_resolve(bc4, h.src, rb, Code::unsupported, "destination format BC4_UNORM");
  }
  // Same memory on both sides.
  std::vector<uint8_t> one(std::max(u.src.size(), u.dst.size()), 0);
  const std::vector<uint8_t> one0 = one;
  const Status st = resolve_subresource(u.dst, one.data(), one.size(), u.src, one.data(), one.size(), r);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("share memory"), std::string::npos);
  EXPECT_EQ(one, one0);
}

}  // namespace
