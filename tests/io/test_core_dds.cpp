// DDS container: round trips, headers written by hand from the documented
// fields (an oracle independent of src/io/dds.cpp), files made by other tools
// (tests/data/dds), and hostile input.
#include <algorithm>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "swz/copy.hpp"
#include "swz/dds.hpp"
#include "swz/layout.hpp"

#include "test_util.hpp"

using namespace swz;

namespace {

using swz_test::fmt;

// Tightly packed bytes of every subresource, by the core's own layout
// (row-major subresources in subresource order): a second opinion on sizes.
uint64_t packed_by_core(const TextureDesc& d) {
  Layout l;
  Status st = make_layout(d, LayoutSpec{}, &l);
  EXPECT_TRUE(st.ok()) << st.message();
  uint64_t total = 0;
  for (uint32_t i = 0; i < l.subresource_count(); ++i) total += packed_subresource_bytes(l.sub(i));
  return total;
}

std::vector<uint8_t> random_bytes(uint64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

void expect_same_desc(const TextureDesc& a, const TextureDesc& b) {
  EXPECT_EQ(a.dimension, b.dimension);
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.array_size, b.array_size);
  EXPECT_EQ(a.mip_levels, b.mip_levels);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.format.dxgi, b.format.dxgi) << a.format.name << " vs " << b.format.name;
}

// ---- an independent header writer, field by field from the documentation ----

constexpr uint32_t FOURCC(const char* s) {
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
         uint32_t(uint8_t(s[3])) << 24;
}

// DDS_PIXELFORMAT and DDS_HEADER as the documentation lists them.
struct PixelFormat {
  uint32_t dwSize = 32, dwFlags = 0, dwFourCC = 0, dwRGBBitCount = 0, dwRBitMask = 0, dwGBitMask = 0, dwBBitMask = 0,
           dwABitMask = 0;
};
struct Header {
  uint32_t dwSize = 124, dwFlags = 0x1 | 0x2 | 0x4 | 0x1000, dwHeight = 0, dwWidth = 0, dwPitchOrLinearSize = 0,
           dwDepth = 0, dwMipMapCount = 0;
  uint32_t dwReserved1[11] = {};
  PixelFormat ddspf;
  uint32_t dwCaps = 0x1000, dwCaps2 = 0, dwCaps3 = 0, dwCaps4 = 0, dwReserved2 = 0;
};
struct Dx10 {
  uint32_t dxgiFormat = 0, resourceDimension = 3, miscFlag = 0, arraySize = 1, miscFlags2 = 0;
};

void put(std::vector<uint8_t>& v, uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(uint8_t(x >> (8 * i)));
}

std::vector<uint8_t> bytes_of(const Header& h, const Dx10* x = nullptr) {
  std::vector<uint8_t> v;
  put(v, 0x20534444);  // "DDS "
  put(v, h.dwSize);
  put(v, h.dwFlags);
  put(v, h.dwHeight);
  put(v, h.dwWidth);
  put(v, h.dwPitchOrLinearSize);
  put(v, h.dwDepth);
  put(v, h.dwMipMapCount);
  for (uint32_t r : h.dwReserved1) put(v, r);
  put(v, h.ddspf.dwSize);
  put(v, h.ddspf.dwFlags);
  put(v, h.ddspf.dwFourCC);
  put(v, h.ddspf.dwRGBBitCount);
  put(v, h.ddspf.dwRBitMask);
  put(v, h.ddspf.dwGBitMask);
  put(v, h.ddspf.dwBBitMask);
  put(v, h.ddspf.dwABitMask);
  put(v, h.dwCaps);
  put(v, h.dwCaps2);
  put(v, h.dwCaps3);
  put(v, h.dwCaps4);
  put(v, h.dwReserved2);
  EXPECT_EQ(v.size(), 128u);
  if (x) {
    put(v, x->dxgiFormat);
    put(v, x->resourceDimension);
    put(v, x->miscFlag);
    put(v, x->arraySize);
    put(v, x->miscFlags2);
  }
  return v;
}

Header legacy(uint32_t w, uint32_t h, PixelFormat pf, uint32_t mips = 0) {
  Header hd;
  hd.dwWidth = w;
  hd.dwHeight = h;
  hd.ddspf = pf;
  if (mips) {
    hd.dwFlags |= 0x20000;  // DDSD_MIPMAPCOUNT
    hd.dwMipMapCount = mips;
    hd.dwCaps |= 0x8 | 0x400000;  // COMPLEX | MIPMAP
  }
  return hd;
}

PixelFormat pf_fourcc(uint32_t cc) {
  PixelFormat p;
  p.dwFlags = 0x4;  // DDPF_FOURCC
  p.dwFourCC = cc;
  return p;
}
PixelFormat pf_masks(uint32_t flags, uint32_t bits, uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  PixelFormat p;
  p.dwFlags = flags;
  p.dwRGBBitCount = bits;
  p.dwRBitMask = r;
  p.dwGBitMask = g;
  p.dwBBitMask = b;
  p.dwABitMask = a;
  return p;
}

Header dx10_base(uint32_t w, uint32_t h, uint32_t mips = 1) {
  Header hd = legacy(w, h, pf_fourcc(FOURCC("DX10")), mips);
  return hd;
}

std::vector<uint8_t> with_data(std::vector<uint8_t> header, uint64_t n, uint64_t seed = 1) {
  auto d = random_bytes(n, seed);
  header.insert(header.end(), d.begin(), d.end());
  return header;
}

Status read(const std::vector<uint8_t>& file, DdsTexture* t) { return read_dds(std::span<const uint8_t>(file), t); }

}  // namespace

// ---- sizes --------------------------------------------------------------------

TEST(Dds, DataSizeMatchesCoreLayout) {
  const TextureDesc cases[] = {
      swz_test::tex2d("R8G8B8A8_UNORM", 37, 21, 6),
      swz_test::tex2d("BC1_UNORM", 13, 7, 4, 3),
      swz_test::tex2d("BC7_UNORM", 256, 64, 9),
      swz_test::tex3d("R16G16B16A16_FLOAT", 9, 5, 7, 4),
      swz_test::tex2d("R32G32B32_FLOAT", 5, 3, 3, 2),
      swz_test::tex2d("YUY2", 7, 4, 3),
      swz_test::tex2d("R8_UNORM", 1, 1),
      swz_test::tex3d("BC4_UNORM", 17, 9, 5, 5),
  };
  for (const auto& d : cases) {
    uint64_t n = 0;
    Status st = dds_data_size(d, &n);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(n, packed_by_core(d)) << d.format.name << " " << d.width << "x" << d.height;
  }
}

// ---- round trips ----------------------------------------------------------------

struct RoundTrip {
  TextureDesc desc;
  bool cube;
};

TEST(Dds, RoundTripDx10) {
  const RoundTrip cases[] = {
      {swz_test::tex2d("R8G8B8A8_UNORM", 64, 48, 7), false},
      {swz_test::tex2d("R8G8B8A8_UNORM_SRGB", 31, 17, 5, 4), false},
      {swz_test::tex2d("BC1_UNORM", 64, 64, 7), false},
      {swz_test::tex2d("BC3_UNORM", 30, 10, 5, 2), false},
      {swz_test::tex2d("BC7_UNORM", 16, 16, 5, 6), true},
      {swz_test::tex2d("BC6H_UF16", 8, 8, 4, 12), true},
      {swz_test::tex2d("R16G16B16A16_FLOAT", 32, 32, 6, 6), true},
      {swz_test::tex3d("R8G8B8A8_UNORM", 16, 8, 4, 5), false},
      {swz_test::tex3d("BC4_UNORM", 16, 16, 16, 5), false},
      {swz_test::tex2d("R32G32B32_FLOAT", 7, 3, 3), false},
      {swz_test::tex2d("R8_UNORM", 1, 1), false},
      {swz_test::tex2d("YUY2", 10, 6, 2), false},
  };
  uint64_t seed = 7;
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.desc.format.name) + " " + std::to_string(c.desc.width) + "x" +
                 std::to_string(c.desc.height) + (c.cube ? " cube" : ""));
    DdsTexture t;
    t.desc = c.desc;
    t.cube = c.cube;
    uint64_t n = 0;
    ASSERT_TRUE(dds_data_size(t.desc, &n).ok());
    t.data = random_bytes(n, seed++);
    std::vector<uint8_t> file;
    Status st = write_dds(t, &file);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(file.size(), 148 + n);
    DdsInfo info;
    ASSERT_TRUE(parse_dds(file, &info).ok());
    EXPECT_TRUE(info.dx10);
    EXPECT_EQ(info.data_offset, 148u);
    EXPECT_EQ(info.data_size, n);
    DdsTexture back;
    st = read(file, &back);
    ASSERT_TRUE(st.ok()) << st.message();
    expect_same_desc(back.desc, t.desc);
    EXPECT_EQ(back.cube, t.cube);
    EXPECT_EQ(back.data, t.data);
  }
}

TEST(Dds, RoundTripLegacy) {
  const RoundTrip cases[] = {
      {swz_test::tex2d("BC1_UNORM", 64, 32, 7), false},
      {swz_test::tex2d("BC2_UNORM", 12, 12, 4), false},
      {swz_test::tex2d("BC3_UNORM", 16, 16, 5, 6), true},
      {swz_test::tex2d("BC4_UNORM", 8, 8), false},
      {swz_test::tex2d("BC4_SNORM", 8, 8), false},
      {swz_test::tex2d("BC5_UNORM", 8, 4, 3), false},
      {swz_test::tex2d("BC5_SNORM", 8, 4), false},
      {swz_test::tex2d("R8G8B8A8_UNORM", 9, 5, 4), false},
      {swz_test::tex2d("B8G8R8A8_UNORM", 8, 8, 4, 6), true},
      {swz_test::tex2d("B8G8R8X8_UNORM", 3, 3), false},
      {swz_test::tex2d("B5G6R5_UNORM", 4, 4), false},
      {swz_test::tex2d("B5G5R5A1_UNORM", 4, 4), false},
      {swz_test::tex2d("B4G4R4A4_UNORM", 4, 4), false},
      {swz_test::tex2d("R8_UNORM", 5, 5, 3), false},
      {swz_test::tex2d("R8G8_UNORM", 5, 5), false},
      {swz_test::tex2d("R16_UNORM", 5, 5), false},
      {swz_test::tex2d("A8_UNORM", 6, 2), false},
      {swz_test::tex2d("R16G16_UNORM", 2, 2), false},
      {swz_test::tex2d("R8G8_SNORM", 2, 2), false},
      {swz_test::tex2d("R8G8B8A8_SNORM", 2, 2), false},
      {swz_test::tex2d("R16G16_SNORM", 2, 2), false},
      {swz_test::tex2d("R16G16B16A16_UNORM", 4, 4, 3), false},
      {swz_test::tex2d("R16G16B16A16_SNORM", 4, 4), false},
      {swz_test::tex2d("R16_FLOAT", 4, 4), false},
      {swz_test::tex2d("R16G16_FLOAT", 4, 4), false},
      {swz_test::tex2d("R16G16B16A16_FLOAT", 4, 4), false},
      {swz_test::tex2d("R32_FLOAT", 4, 4), false},
      {swz_test::tex2d("R32G32_FLOAT", 4, 4), false},
      {swz_test::tex2d("R32G32B32A32_FLOAT", 4, 4, 3, 6), true},
      {swz_test::tex2d("R8G8_B8G8_UNORM", 6, 2), false},
      {swz_test::tex2d("G8R8_G8B8_UNORM", 6, 2), false},
      {swz_test::tex2d("YUY2", 6, 2), false},
      {swz_test::tex3d("B8G8R8A8_UNORM", 8, 4, 4, 4), false},
      {swz_test::tex3d("BC1_UNORM", 8, 8, 8, 3), false},
  };
  uint64_t seed = 99;
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.desc.format.name) + (c.cube ? " cube" : ""));
    DdsTexture t;
    t.desc = c.desc;
    t.cube = c.cube;
    uint64_t n = 0;
    ASSERT_TRUE(dds_data_size(t.desc, &n).ok());
    t.data = random_bytes(n, seed++);
    EXPECT_TRUE(dds_has_legacy_form(t.desc.format));
    std::vector<uint8_t> file;
    DdsWriteOptions o;
    o.legacy_header = true;
    Status st = write_dds(t, &file, o);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(file.size(), 128 + n);
    DdsInfo info;
    ASSERT_TRUE(parse_dds(file, &info).ok());
    EXPECT_FALSE(info.dx10);
    DdsTexture back;
    st = read(file, &back);
    ASSERT_TRUE(st.ok()) << st.message();
    expect_same_desc(back.desc, t.desc);
    EXPECT_EQ(back.cube, t.cube);
    EXPECT_EQ(back.data, t.data);
  }
}

TEST(Dds, HeaderAloneSaysHowManyTexelsFollow) {
  // parse_dds_header on a stream's first bytes: the headers' checks, the
  // texels' offset and size, without the texels; parse_dds refuses the same
  // bytes as truncated.
  for (bool legacy : {false, true}) {
    DdsTexture t;
    t.desc = swz_test::tex2d("R8G8B8A8_UNORM", 20, 12, 3, legacy ? 1 : 2);  // legacy headers have no arrays
    uint64_t n = 0;
    ASSERT_TRUE(dds_data_size(t.desc, &n).ok());
    t.data.assign(n, 0x33);
    std::vector<uint8_t> f;
    DdsWriteOptions o;
    o.legacy_header = legacy;
    ASSERT_TRUE(write_dds(t, &f, o).ok());
    DdsInfo whole, head;
    ASSERT_TRUE(parse_dds(f, &whole).ok());
    const std::vector<uint8_t> first(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(whole.data_offset));
    ASSERT_TRUE(parse_dds_header(first, &head).ok());
    EXPECT_EQ(head.data_offset, whole.data_offset);
    EXPECT_EQ(head.data_size, n);
    DdsInfo cut;
    EXPECT_EQ(parse_dds(first, &cut).code(), Code::parse_error);
    const std::vector<uint8_t> short_head(f.begin(), f.begin() + 100);
    Status st = parse_dds_header(short_head, &cut);
    EXPECT_EQ(st.code(), Code::parse_error);
    EXPECT_NE(st.message().find("truncated inside DDS_HEADER"), std::string::npos) << st.message();
  }
}

TEST(Dds, WrittenHeaderFields) {
  // A DX10 cube array with mips: check the written words against the documentation.
  DdsTexture t;
  t.desc = swz_test::tex2d("BC7_UNORM_SRGB", 32, 32, 6, 12);
  t.cube = true;
  uint64_t n = 0;
  ASSERT_TRUE(dds_data_size(t.desc, &n).ok());
  t.data.assign(n, 0x5a);
  std::vector<uint8_t> f;
  ASSERT_TRUE(write_dds(t, &f).ok());
  auto w = [&](size_t at) { return uint32_t(f[at]) | f[at + 1] << 8 | f[at + 2] << 16 | uint32_t(f[at + 3]) << 24; };
  EXPECT_EQ(w(0), 0x20534444u);
  EXPECT_EQ(w(4), 124u);
  EXPECT_EQ(w(8) & 0x1007u, 0x1007u);  // CAPS HEIGHT WIDTH PIXELFORMAT
  EXPECT_TRUE(w(8) & 0x20000u);        // MIPMAPCOUNT
  EXPECT_EQ(w(12), 32u);               // height
  EXPECT_EQ(w(16), 32u);               // width
  EXPECT_EQ(w(20), 8u * 8u * 16u);     // linear size of the top level
  EXPECT_EQ(w(28), 6u);                // mips
  EXPECT_EQ(w(76), 32u);
  EXPECT_EQ(w(80), 0x4u);
  EXPECT_EQ(w(84), FOURCC("DX10"));
  EXPECT_EQ(w(108) & 0x401008u, 0x401008u);  // TEXTURE COMPLEX MIPMAP
  EXPECT_EQ(w(112), 0xFE00u);                // CUBEMAP + all faces
  EXPECT_EQ(w(128), 99u);                    // DXGI_FORMAT_BC7_UNORM_SRGB
  EXPECT_EQ(w(132), 3u);                     // TEXTURE2D
  EXPECT_EQ(w(136), 0x4u);                   // TEXTURECUBE
  EXPECT_EQ(w(140), 2u);                     // two cubes
  EXPECT_EQ(f.size(), 148 + n);
}

// ---- legacy headers written by hand --------------------------------------------

struct LegacyCase {
  const char* what;
  PixelFormat pf;
  const char* format;
};

TEST(Dds, LegacyPixelFormatsByHand) {
  const uint32_t RGB = 0x40, ALPHAPIXELS = 0x1, LUM = 0x20000, ALPHA = 0x2, BUMP = 0x80000;
  const LegacyCase cases[] = {
      {"DXT1", pf_fourcc(FOURCC("DXT1")), "BC1_UNORM"},
      {"DXT2", pf_fourcc(FOURCC("DXT2")), "BC2_UNORM"},
      {"DXT3", pf_fourcc(FOURCC("DXT3")), "BC2_UNORM"},
      {"DXT4", pf_fourcc(FOURCC("DXT4")), "BC3_UNORM"},
      {"DXT5", pf_fourcc(FOURCC("DXT5")), "BC3_UNORM"},
      {"ATI1", pf_fourcc(FOURCC("ATI1")), "BC4_UNORM"},
      {"BC4U", pf_fourcc(FOURCC("BC4U")), "BC4_UNORM"},
      {"BC4S", pf_fourcc(FOURCC("BC4S")), "BC4_SNORM"},
      {"ATI2", pf_fourcc(FOURCC("ATI2")), "BC5_UNORM"},
      {"BC5U", pf_fourcc(FOURCC("BC5U")), "BC5_UNORM"},
      {"BC5S", pf_fourcc(FOURCC("BC5S")), "BC5_SNORM"},
      {"RGBG", pf_fourcc(FOURCC("RGBG")), "R8G8_B8G8_UNORM"},
      {"GRGB", pf_fourcc(FOURCC("GRGB")), "G8R8_G8B8_UNORM"},
      {"YUY2", pf_fourcc(FOURCC("YUY2")), "YUY2"},
      {"D3DFMT 36", pf_fourcc(36), "R16G16B16A16_UNORM"},
      {"D3DFMT 110", pf_fourcc(110), "R16G16B16A16_SNORM"},
      {"D3DFMT 111", pf_fourcc(111), "R16_FLOAT"},
      {"D3DFMT 112", pf_fourcc(112), "R16G16_FLOAT"},
      {"D3DFMT 113", pf_fourcc(113), "R16G16B16A16_FLOAT"},
      {"D3DFMT 114", pf_fourcc(114), "R32_FLOAT"},
      {"D3DFMT 115", pf_fourcc(115), "R32G32_FLOAT"},
      {"D3DFMT 116", pf_fourcc(116), "R32G32B32A32_FLOAT"},
      {"A8R8G8B8", pf_masks(RGB | ALPHAPIXELS, 32, 0xff0000, 0xff00, 0xff, 0xff000000), "B8G8R8A8_UNORM"},
      {"A8B8G8R8", pf_masks(RGB | ALPHAPIXELS, 32, 0xff, 0xff00, 0xff0000, 0xff000000), "R8G8B8A8_UNORM"},
      {"X8R8G8B8", pf_masks(RGB, 32, 0xff0000, 0xff00, 0xff, 0), "B8G8R8X8_UNORM"},
      {"G16R16", pf_masks(RGB, 32, 0xffff, 0xffff0000, 0, 0), "R16G16_UNORM"},
      {"R5G6B5", pf_masks(RGB, 16, 0xf800, 0x07e0, 0x001f, 0), "B5G6R5_UNORM"},
      {"A1R5G5B5", pf_masks(RGB | ALPHAPIXELS, 16, 0x7c00, 0x03e0, 0x001f, 0x8000), "B5G5R5A1_UNORM"},
      {"A4R4G4B4", pf_masks(RGB | ALPHAPIXELS, 16, 0x0f00, 0x00f0, 0x000f, 0xf000), "B4G4R4A4_UNORM"},
      {"L8", pf_masks(LUM, 8, 0xff, 0, 0, 0), "R8_UNORM"},
      {"L16", pf_masks(LUM, 16, 0xffff, 0, 0, 0), "R16_UNORM"},
      {"A8L8", pf_masks(LUM | ALPHAPIXELS, 16, 0xff, 0, 0, 0xff00), "R8G8_UNORM"},
      {"A8", pf_masks(ALPHA, 8, 0, 0, 0, 0xff), "A8_UNORM"},
      {"V8U8", pf_masks(BUMP, 16, 0xff, 0xff00, 0, 0), "R8G8_SNORM"},
      {"Q8W8V8U8", pf_masks(BUMP, 32, 0xff, 0xff00, 0xff0000, 0xff000000), "R8G8B8A8_SNORM"},
      {"V16U16", pf_masks(BUMP, 32, 0xffff, 0xffff0000, 0, 0), "R16G16_SNORM"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    const FormatInfo f = fmt(c.format);
    // 8x4 texels, 3 mips (8x4, 4x2, 2x1).
    TextureDesc d = swz_test::tex2d(c.format, 8, 4, 3);
    uint64_t n = 0;
    for (uint32_t m = 0; m < 3; ++m) {
      uint32_t w = std::max(1u, 8u >> m), h = std::max(1u, 4u >> m);
      n += uint64_t((w + f.block_width - 1) / f.block_width) * ((h + f.block_height - 1) / f.block_height) *
           f.element_bytes;
    }
    auto file = with_data(bytes_of(legacy(8, 4, c.pf, 3)), n, 3);
    DdsTexture t;
    Status st = read(file, &t);
    ASSERT_TRUE(st.ok()) << st.message();
    expect_same_desc(t.desc, d);
    EXPECT_FALSE(t.cube);
    ASSERT_EQ(t.data.size(), n);
    EXPECT_TRUE(std::equal(t.data.begin(), t.data.end(), file.begin() + 128));
  }
}

TEST(Dds, LegacyMipCountZeroMeansOne) {
  Header h = legacy(4, 4, pf_fourcc(FOURCC("DXT1")));
  h.dwMipMapCount = 0;
  h.dwFlags |= 0x20000;
  auto file = with_data(bytes_of(h), 8);
  DdsTexture t;
  ASSERT_TRUE(read(file, &t).ok());
  EXPECT_EQ(t.desc.mip_levels, 1u);
  EXPECT_EQ(t.data.size(), 8u);
}

TEST(Dds, LegacyCubeByHand) {
  Header h = legacy(4, 4, pf_masks(0x40 | 0x1, 32, 0xff0000, 0xff00, 0xff, 0xff000000), 3);
  h.dwCaps |= 0x8;
  h.dwCaps2 = 0x200 | 0x400 | 0x800 | 0x1000 | 0x2000 | 0x4000 | 0x8000;
  const uint64_t per_face = (16 + 4 + 1) * 4;
  auto file = with_data(bytes_of(h), 6 * per_face);
  DdsTexture t;
  Status st = read(file, &t);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(t.cube);
  expect_same_desc(t.desc, swz_test::tex2d("B8G8R8A8_UNORM", 4, 4, 3, 6));
  // Subresource order: face 2 (+Y), mip 1 starts after two whole faces and mip 0.
  Layout l;
  ASSERT_TRUE(make_layout(t.desc, LayoutSpec{}, &l).ok());
  uint64_t at = 0;
  const uint32_t sub = calc_subresource(1, 2, 0, 3, 6);
  for (uint32_t i = 0; i < sub; ++i) at += packed_subresource_bytes(l.sub(i));
  EXPECT_EQ(at, 2 * per_face + 16 * 4);
  EXPECT_EQ(0, std::memcmp(t.data.data() + at, file.data() + 128 + 2 * per_face + 64, 16));
}

TEST(Dds, LegacyPartialCubeIsRefused) {
  Header h = legacy(4, 4, pf_fourcc(FOURCC("DXT1")));
  h.dwCaps2 = 0x200 | 0x400 | 0x800 | 0x1000 | 0x4000;  // no -Y, no -Z
  auto file = with_data(bytes_of(h), 6 * 8);
  DdsTexture t;
  Status st = read(file, &t);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("partial cube"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("-Y -Z"), std::string::npos) << st.message();
}

TEST(Dds, LegacyVolumeByHand) {
  // 8x4x4 L8 with DDSD_DEPTH and DDSCAPS2_VOLUME, 4 mips: 8x4x4, 4x2x2, 2x1x1, 1x1x1.
  Header h = legacy(8, 4, pf_masks(0x20000, 8, 0xff, 0, 0, 0), 4);
  h.dwFlags |= 0x800000;
  h.dwDepth = 4;
  h.dwCaps2 = 0x200000;
  const uint64_t n = 128 + 16 + 2 + 1;
  auto file = with_data(bytes_of(h), n + 5);  // 5 trailing bytes: allowed
  DdsTexture t;
  Status st = read(file, &t);
  ASSERT_TRUE(st.ok()) << st.message();
  expect_same_desc(t.desc, swz_test::tex3d("R8_UNORM", 8, 4, 4, 4));
  EXPECT_EQ(t.data.size(), n);
  EXPECT_EQ(n, packed_by_core(t.desc));
}

// ---- DX10 headers written by hand ---------------------------------------------

TEST(Dds, Dx10ByHand) {
  {  // 2D array of 3, BC1 12x8, 2 mips
    Header h = dx10_base(12, 8, 2);
    Dx10 x{71, 3, 0, 3, 0};
    const uint64_t n = 3 * (3 * 2 * 8 + 2 * 1 * 8);
    auto file = with_data(bytes_of(h, &x), n);
    DdsTexture t;
    Status st = read(file, &t);
    ASSERT_TRUE(st.ok()) << st.message();
    expect_same_desc(t.desc, swz_test::tex2d("BC1_UNORM", 12, 8, 2, 3));
    EXPECT_TRUE(std::equal(t.data.begin(), t.data.end(), file.begin() + 148));
  }
  {  // two cube maps, R16G16B16A16_FLOAT 2x2, 2 mips
    Header h = dx10_base(2, 2, 2);
    Dx10 x{10, 3, 0x4, 2, 0};
    const uint64_t n = 12 * (4 + 1) * 8;
    auto file = with_data(bytes_of(h, &x), n);
    DdsTexture t;
    Status st = read(file, &t);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_TRUE(t.cube);
    expect_same_desc(t.desc, swz_test::tex2d("R16G16B16A16_FLOAT", 2, 2, 2, 12));
  }
  {  // 3D R8G8B8A8 4x4x2, 3 mips
    Header h = dx10_base(4, 4, 3);
    h.dwFlags |= 0x800000;
    h.dwDepth = 2;
    Dx10 x{28, 4, 0, 1, 0};
    const uint64_t n = (32 + 4 + 1) * 4;
    auto file = with_data(bytes_of(h, &x), n);
    DdsTexture t;
    Status st = read(file, &t);
    ASSERT_TRUE(st.ok()) << st.message();
    expect_same_desc(t.desc, swz_test::tex3d("R8G8B8A8_UNORM", 4, 4, 2, 3));
  }
  {  // 1D R32_FLOAT 16 wide, read as 16x1
    Header h = dx10_base(16, 1);
    Dx10 x{41, 2, 0, 1, 3};
    auto file = with_data(bytes_of(h, &x), 64);
    DdsInfo info;
    Status st = parse_dds(file, &info);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_TRUE(info.one_d);
    EXPECT_EQ(info.alpha_mode, 3u);
    expect_same_desc(info.desc, swz_test::tex2d("R32_FLOAT", 16, 1));
  }
}

// ---- hostile input ----------------------------------------------------------------

struct Hostile {
  const char* what;
  std::vector<uint8_t> file;
  Code code;
  const char* needle;  // the message names this
};

TEST(Dds, HostileTable) {
  std::vector<Hostile> cases;
  auto add = [&](const char* what, std::vector<uint8_t> f, Code c, const char* needle) {
    cases.push_back({what, std::move(f), c, needle});
  };
  const PixelFormat dxt1 = pf_fourcc(FOURCC("DXT1"));
  add("empty", {}, Code::parse_error, "too short");
  add("bad magic", with_data(std::vector<uint8_t>{'D', 'D', 'S', 'X'}, 200), Code::parse_error, "magic");
  {
    auto f = with_data(bytes_of(legacy(4, 4, dxt1)), 8);
    f[4] = 100;
    add("dwSize 100", f, Code::parse_error, "dwSize = 100");
  }
  {
    auto f = with_data(bytes_of(legacy(4, 4, dxt1)), 8);
    f[76] = 24;
    add("ddspf.dwSize 24", f, Code::parse_error, "ddspf.dwSize = 24");
  }
  add("header only", bytes_of(legacy(4, 4, dxt1)), Code::parse_error, "truncated");
  add("width 0", with_data(bytes_of(legacy(0, 4, dxt1)), 64), Code::invalid_argument, "dwWidth = 0");
  add("height 0", with_data(bytes_of(legacy(4, 0, dxt1)), 64), Code::invalid_argument, "dwHeight = 0");
  {
    Header h = legacy(4, 4, dxt1);
    h.dwFlags |= 0x800000;
    h.dwCaps2 = 0x200000;
    add("depth 0", with_data(bytes_of(h), 64), Code::invalid_argument, "dwDepth = 0");
  }
  add("mips above chain", with_data(bytes_of(legacy(4, 4, dxt1, 4)), 64), Code::invalid_argument, "dwMipMapCount = 4");
  add("mips 2^32-1", with_data(bytes_of(legacy(4, 4, dxt1, 0xffffffffu)), 64), Code::invalid_argument,
      "dwMipMapCount = 4294967295");
  {
    Header h = dx10_base(0xffffffffu, 0xffffffffu);
    Dx10 x{2, 3, 0, 1, 0};  // R32G32B32A32_FLOAT: 2^32 * 2^32 * 16 bytes
    add("size overflows 64 bits", with_data(bytes_of(h, &x), 64), Code::overflow, "overflows 64 bits");
  }
  {
    Header h = dx10_base(0x10000, 0x10000);
    Dx10 x{2, 3, 0, 0xffffffffu, 0};  // 2^36 bytes per slice * 2^32 slices
    add("array overflows 64 bits", with_data(bytes_of(h, &x), 64), Code::overflow, "overflows 64 bits");
  }
  {
    Header h = dx10_base(0x10000, 0x10000);
    Dx10 x{28, 3, 0x4, 0x80000000u, 0};  // cube count x6 overflows 32 bits
    add("cube count overflows", with_data(bytes_of(h, &x), 64), Code::overflow, "arraySize = 2147483648");
  }
  {
    Header h = dx10_base(64, 64);
    Dx10 x{28, 3, 0, 0xffffffffu, 0};  // 2^32 slices of 16 KiB: fits 64 bits, not the file
    add("huge array, short file", with_data(bytes_of(h, &x), 64), Code::parse_error, "truncated");
  }
  add("unknown fourcc", with_data(bytes_of(legacy(4, 4, pf_fourcc(FOURCC("ABCD")))), 64), Code::unsupported, "'ABCD'");
  add("24-bit RGB", with_data(bytes_of(legacy(4, 4, pf_masks(0x40, 24, 0xff0000, 0xff00, 0xff, 0))), 64),
      Code::unsupported, "dwRGBBitCount 24");
  {
    Dx10 x{0, 3, 0, 1, 0};
    add("dxgi 0", with_data(bytes_of(dx10_base(4, 4), &x), 64), Code::unsupported, "dxgiFormat = 0");
  }
  {
    Dx10 x{5000, 3, 0, 1, 0};
    add("dxgi 5000", with_data(bytes_of(dx10_base(4, 4), &x), 64), Code::unsupported, "dxgiFormat = 5000");
  }
  {
    Dx10 x{103, 3, 0, 1, 0};
    add("planar NV12", with_data(bytes_of(dx10_base(4, 4), &x), 64), Code::unsupported, "planar");
  }
  {
    Dx10 x{28, 1, 0, 1, 0};
    add("buffer dimension", with_data(bytes_of(dx10_base(4, 4), &x), 64), Code::unsupported, "resourceDimension = 1");
  }
  {
    Dx10 x{28, 3, 0, 0, 0};
    add("array 0", with_data(bytes_of(dx10_base(4, 4), &x), 64), Code::invalid_argument, "arraySize = 0");
  }
  {
    Header h = dx10_base(4, 4);
    h.dwDepth = 2;
    Dx10 x{28, 4, 0, 2, 0};
    add("3D array", with_data(bytes_of(h, &x), 512), Code::invalid_argument, "arraySize = 2");
  }
  {
    Header h = dx10_base(4, 4);
    h.dwDepth = 2;
    Dx10 x{28, 4, 0x4, 1, 0};
    add("3D cube", with_data(bytes_of(h, &x), 512), Code::invalid_argument, "TEXTURECUBE");
  }
  {
    Header h = legacy(4, 4, dxt1);
    h.dwFlags |= 0x800000;
    h.dwDepth = 2;
    h.dwCaps2 = 0x200000 | 0xFE00;
    add("volume cube", with_data(bytes_of(h), 512), Code::invalid_argument, "CUBEMAP and VOLUME");
  }
  {
    Dx10 x{28, 3, 0, 1, 0};
    auto f = bytes_of(dx10_base(4, 4), &x);
    f.resize(140);
    add("DX10 header cut", f, Code::parse_error, "DDS_HEADER_DXT10");
  }
  add("texels short by one", with_data(bytes_of(legacy(8, 8, dxt1, 4)), 4 * 8 + 8 + 8 + 8 - 1), Code::parse_error,
      "need 56 bytes");

  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    DdsTexture t;
    t.data = {1, 2, 3};
    Status st = read(c.file, &t);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.code(), c.code) << code_name(st.code()) << ": " << st.message();
    EXPECT_NE(st.message().find(c.needle), std::string::npos) << st.message();
    EXPECT_EQ(st.message().rfind("DDS: ", 0), 0u) << st.message();
  }
}

TEST(Dds, EveryTruncationFailsCleanly) {
  const RoundTrip cases[] = {{swz_test::tex2d("BC1_UNORM", 8, 8, 4, 2), false},
                             {swz_test::tex2d("R8G8B8A8_UNORM", 3, 2, 2, 6), true}};
  for (bool legacy_header : {false, true}) {
    for (const auto& c : cases) {
      if (legacy_header && !c.cube && c.desc.array_size > 1) continue;
      DdsTexture t;
      t.desc = c.desc;
      t.cube = c.cube;
      uint64_t n = 0;
      ASSERT_TRUE(dds_data_size(t.desc, &n).ok());
      t.data = random_bytes(n, 5);
      std::vector<uint8_t> file;
      DdsWriteOptions o;
      o.legacy_header = legacy_header;
      ASSERT_TRUE(write_dds(t, &file, o).ok());
      for (size_t len = 0; len < file.size(); ++len) {
        // A copy of exactly `len` bytes, so that reading past it is caught by ASan.
        std::vector<uint8_t> cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(len));
        DdsTexture back;
        Status st = read(cut, &back);
        ASSERT_FALSE(st.ok()) << "length " << len;
        EXPECT_FALSE(st.message().empty());
      }
      DdsTexture back;
      ASSERT_TRUE(read(file, &back).ok());
      EXPECT_EQ(back.data, t.data);
    }
  }
}

TEST(Dds, RandomCorruptionNeverCrashes) {
  DdsTexture t;
  t.desc = swz_test::tex2d("BC3_UNORM", 16, 8, 3, 2);
  uint64_t n = 0;
  ASSERT_TRUE(dds_data_size(t.desc, &n).ok());
  t.data = random_bytes(n, 11);
  std::vector<uint8_t> file;
  ASSERT_TRUE(write_dds(t, &file).ok());
  std::mt19937_64 rng(12345);
  int ok = 0;
  for (int it = 0; it < 20000; ++it) {
    std::vector<uint8_t> f = file;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k) {
      const size_t at = rng() % 148;  // the headers
      f[at] = rng() % 3 == 0 ? 0xff : static_cast<uint8_t>(rng());
    }
    f.resize(rng() % 2 ? f.size() : rng() % (f.size() + 1));
    DdsInfo info;
    Status st = parse_dds(f, &info);
    if (st.ok()) {
      ++ok;
      ASSERT_LE(info.data_offset + info.data_size, f.size());
      uint64_t expect = 0;
      ASSERT_TRUE(dds_data_size(info.desc, &expect).ok());
      EXPECT_EQ(expect, info.data_size);
    } else {
      EXPECT_FALSE(st.message().empty());
    }
  }
  EXPECT_GT(ok, 0);
}

// ---- write errors ------------------------------------------------------------------

TEST(Dds, WriteErrors) {
  std::vector<uint8_t> out;
  {
    DdsTexture t;
    t.desc = swz_test::tex2d("R8G8B8A8_UNORM", 4, 4);
    t.data.resize(63);
    Status st = write_dds(t, &out);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("data has 63 bytes"), std::string::npos) << st.message();
    t.data.resize(65);
    EXPECT_FALSE(write_dds(t, &out).ok());
  }
  {
    DdsTexture t;
    t.desc = swz_test::tex2d("R8G8B8A8_UNORM", 4, 4, 1, 4);
    t.cube = true;
    t.data.resize(256);
    Status st = write_dds(t, &out);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("multiple of 6"), std::string::npos) << st.message();
  }
  {
    DdsTexture t;
    t.desc = swz_test::tex2d("R8G8B8A8_UNORM", 4, 4, 4);
    EXPECT_FALSE(write_dds(t, &out).ok());  // mip chain of 4x4 is 3
  }
  {
    DdsTexture t;
    t.desc = swz_test::tex2d("R8G8B8A8_UNORM_SRGB", 4, 4);
    t.data.resize(64);
    DdsWriteOptions o;
    o.legacy_header = true;
    Status st = write_dds(t, &out, o);
    EXPECT_EQ(st.code(), Code::unsupported);
    EXPECT_NE(st.message().find("R8G8B8A8_UNORM_SRGB"), std::string::npos) << st.message();
    EXPECT_TRUE(write_dds(t, &out).ok());
  }
  {
    DdsTexture t;
    t.desc = swz_test::tex2d("BC1_UNORM", 4, 4, 1, 2);
    t.data.resize(16);
    DdsWriteOptions o;
    o.legacy_header = true;
    Status st = write_dds(t, &out, o);
    EXPECT_EQ(st.code(), Code::unsupported);
    EXPECT_NE(st.message().find("array_size = 2"), std::string::npos) << st.message();
  }
  {
    DdsTexture t;
    t.desc = swz_test::tex2d("NV12", 4, 4);
    t.data.resize(24);
    EXPECT_EQ(write_dds(t, &out).code(), Code::unsupported);
  }
  {
    DdsTexture t;
    t.desc = swz_test::tex2d("R8G8B8A8_UNORM", 4, 4);
    t.desc.samples = 4;
    t.data.resize(64);
    EXPECT_EQ(write_dds(t, &out).code(), Code::unsupported);
  }
}

// ---- files made by other tools (tests/data/dds/README.md) ------------------------

namespace {
std::vector<uint8_t> load(const std::string& name) {
  std::ifstream f(std::string(SWZ_TEST_DATA) + "/dds/" + name, std::ios::binary);
  EXPECT_TRUE(f.good()) << name;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
}  // namespace

namespace {
// The formula of tests/data/dds/make_files.sh.
uint8_t px(uint32_t x, uint32_t y, int c) {
  switch (c) {
    case 0:
      return uint8_t(16 * x + 8);
    case 1:
      return uint8_t(32 * y + 4);
    case 2:
      return uint8_t(8 * (x + y));
    default:
      return uint8_t(255 - 12 * x);
  }
}
}  // namespace

TEST(DdsFiles, PillowA8R8G8B8) {
  auto file = load("pil_rgba_5x3.dds");
  DdsTexture t;
  Status st = read(file, &t);
  ASSERT_TRUE(st.ok()) << st.message();
  expect_same_desc(t.desc, swz_test::tex2d("B8G8R8A8_UNORM", 5, 3));
  ASSERT_EQ(t.data.size(), 5u * 3 * 4);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 5; ++x) {
      const uint8_t* p = &t.data[(y * 5 + x) * 4];
      EXPECT_EQ(p[0], px(x, y, 2));
      EXPECT_EQ(p[1], px(x, y, 1));
      EXPECT_EQ(p[2], px(x, y, 0));
      EXPECT_EQ(p[3], px(x, y, 3));
    }
}

TEST(DdsFiles, PillowMalformedLuminanceIsRefused) {
  // Pillow 9.4 writes L / LA images with bit counts 24 / 32 and RGB masks
  // but 1 / 2 bytes per texel; no DXGI format matches such a header.
  for (const char* name : {"pil94_bad_l8_7x2.dds", "pil94_bad_la_3x4.dds"}) {
    SCOPED_TRACE(name);
    DdsTexture t;
    Status st = read(load(name), &t);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.code(), Code::unsupported);
    EXPECT_NE(st.message().find("dwFlags 0x2"), std::string::npos) << st.message();
  }
}

TEST(DdsFiles, ImageMagick) {
  {
    auto file = load("im_bgra_16x8_mips.dds");
    DdsTexture t;
    Status st = read(file, &t);
    ASSERT_TRUE(st.ok()) << st.message();
    expect_same_desc(t.desc, swz_test::tex2d("B8G8R8A8_UNORM", 16, 8, 5));
    ASSERT_EQ(t.data.size(), (128u + 32 + 8 + 2 + 1) * 4);
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 16; ++x) {
        const uint8_t* p = &t.data[(y * 16 + x) * 4];
        EXPECT_EQ(p[0], px(x, y, 2));
        EXPECT_EQ(p[1], px(x, y, 1));
        EXPECT_EQ(p[2], px(x, y, 0));
        EXPECT_EQ(p[3], px(x, y, 3));
      }
  }
  {
    auto file = load("im_dxt5_16x8_mips.dds");
    DdsTexture t;
    Status st = read(file, &t);
    ASSERT_TRUE(st.ok()) << st.message();
    expect_same_desc(t.desc, swz_test::tex2d("BC3_UNORM", 16, 8, 5));
    EXPECT_EQ(t.data.size(), 16u * (8 + 2 + 1 + 1 + 1));
  }
  {
    auto file = load("im_dxt1_12x12.dds");
    DdsTexture t;
    Status st = read(file, &t);
    ASSERT_TRUE(st.ok()) << st.message();
    expect_same_desc(t.desc, swz_test::tex2d("BC1_UNORM", 12, 12));
    EXPECT_EQ(t.data.size(), 8u * 9);
  }
}

TEST(DdsFiles, RewriteKeepsTexels) {
  // Each file read, written with the DX10 header and with a legacy one, read again.
  for (const char* name : {"pil_rgba_5x3.dds", "im_bgra_16x8_mips.dds", "im_dxt5_16x8_mips.dds", "im_dxt1_12x12.dds"}) {
    SCOPED_TRACE(name);
    DdsTexture t;
    ASSERT_TRUE(read(load(name), &t).ok());
    for (bool legacy_header : {false, true}) {
      std::vector<uint8_t> f;
      DdsWriteOptions o;
      o.legacy_header = legacy_header;
      Status st = write_dds(t, &f, o);
      ASSERT_TRUE(st.ok()) << st.message();
      DdsTexture back;
      ASSERT_TRUE(read(f, &back).ok());
      expect_same_desc(back.desc, t.desc);
      EXPECT_EQ(back.data, t.data);
    }
  }
}

// write_dds_header is the part of write_dds before the texels, byte for byte,
// for both header forms; it refuses what write_dds refuses (a cube map that
// is not 6*N slices).
TEST(Dds, HeaderAloneMatchesWriteDds) {
  const RoundTrip cases[] = {
      {swz_test::tex2d("R8G8B8A8_UNORM", 64, 48, 7), false},
      {swz_test::tex2d("BC7_UNORM", 16, 16, 5, 6), true},
      {swz_test::tex3d("BC4_UNORM", 16, 16, 16, 5), false},
      {swz_test::tex2d("B8G8R8A8_UNORM", 5, 3, 2), false},
  };
  for (bool legacy : {false, true}) {
    for (const auto& c : cases) {
      SCOPED_TRACE(std::string(c.desc.format.name) + (legacy ? " legacy" : " dx10"));
      DdsWriteOptions o;
      o.legacy_header = legacy;
      DdsTexture t;
      t.desc = c.desc;
      t.cube = c.cube;
      uint64_t n = 0;
      ASSERT_TRUE(dds_data_size(t.desc, &n).ok());
      t.data = random_bytes(n, 99);
      std::vector<uint8_t> file, header;
      Status a = write_dds(t, &file, o), b = write_dds_header(t.desc, t.cube, &header, o);
      ASSERT_EQ(a.ok(), b.ok()) << a.message() << " / " << b.message();
      if (!a.ok()) continue;
      ASSERT_EQ(header.size() + n, file.size());
      EXPECT_TRUE(std::equal(header.begin(), header.end(), file.begin()));
    }
  }
  std::vector<uint8_t> header;
  EXPECT_EQ(write_dds_header(swz_test::tex2d("R8G8B8A8_UNORM", 8, 8, 1, 5), true, &header).code(),
            Code::invalid_argument);
}
