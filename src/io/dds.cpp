// swz — DDS container read and write.
//
// From Microsoft's public format description ("DDS file layout",
// "DDS_HEADER structure", "DDS_PIXELFORMAT structure", "DDS_HEADER_DXT10
// structure", "Programming Guide for DDS" with its legacy D3DFMT mapping
// table). All header fields are little-endian 32-bit words:
//
//   0   "DDS " (0x20534444)
//   4   DDS_HEADER: dwSize (124), dwFlags, dwHeight, dwWidth,
//       dwPitchOrLinearSize, dwDepth, dwMipMapCount, dwReserved1[11],
//   76    ddspf: dwSize (32), dwFlags, dwFourCC, dwRGBBitCount,
//               dwRBitMask, dwGBitMask, dwBBitMask, dwABitMask,
//   108   dwCaps, dwCaps2, dwCaps3, dwCaps4, dwReserved2
//   128 DDS_HEADER_DXT10 when ddspf is FOURCC "DX10": dxgiFormat,
//       resourceDimension, miscFlag, arraySize, miscFlags2
//   128 or 148: the texels, each array slice (cube face) with all its mips.
#include "swz/dds.hpp"
#include "core/checked_math.hpp"
#include "core/request.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace swz {
namespace {
using swz::detail::add_ok;
using swz::detail::ceil_div;
using swz::detail::mul_ok;

constexpr uint32_t fourcc(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}

constexpr uint32_t kMagic = fourcc('D', 'D', 'S', ' ');
constexpr uint32_t kHeaderSize = 124;
constexpr uint32_t kPixelFormatSize = 32;
constexpr uint64_t kLegacyDataOffset = 4 + 124;
constexpr uint64_t kDx10DataOffset = 4 + 124 + 20;

// DDS_HEADER.dwFlags
constexpr uint32_t DDSD_CAPS = 0x1, DDSD_HEIGHT = 0x2, DDSD_WIDTH = 0x4, DDSD_PITCH = 0x8, DDSD_PIXELFORMAT = 0x1000,
                   DDSD_MIPMAPCOUNT = 0x20000, DDSD_LINEARSIZE = 0x80000, DDSD_DEPTH = 0x800000;
// DDS_PIXELFORMAT.dwFlags
constexpr uint32_t DDPF_ALPHAPIXELS = 0x1, DDPF_ALPHA = 0x2, DDPF_FOURCC = 0x4, DDPF_RGB = 0x40,
                   DDPF_LUMINANCE = 0x20000, DDPF_BUMPDUDV = 0x80000;
// dwCaps / dwCaps2
constexpr uint32_t DDSCAPS_COMPLEX = 0x8, DDSCAPS_TEXTURE = 0x1000, DDSCAPS_MIPMAP = 0x400000;
constexpr uint32_t DDSCAPS2_CUBEMAP = 0x200, DDSCAPS2_VOLUME = 0x200000;
constexpr uint32_t kCubeFaceBits[6] = {0x400, 0x800, 0x1000, 0x2000, 0x4000, 0x8000};  // +X -X +Y -Y +Z -Z
constexpr const char* kCubeFaceNames[6] = {"+X", "-X", "+Y", "-Y", "+Z", "-Z"};
constexpr uint32_t kAllFaces = 0xFC00;
// DDS_HEADER_DXT10
constexpr uint32_t DIM_TEXTURE1D = 2, DIM_TEXTURE2D = 3, DIM_TEXTURE3D = 4;
constexpr uint32_t MISC_TEXTURECUBE = 0x4;

// Field offsets from the start of the file.
enum : size_t {
  O_SIZE = 4,
  O_FLAGS = 8,
  O_HEIGHT = 12,
  O_WIDTH = 16,
  O_PITCH = 20,
  O_DEPTH = 24,
  O_MIPS = 28,
  O_PF_SIZE = 76,
  O_PF_FLAGS = 80,
  O_PF_FOURCC = 84,
  O_PF_BITS = 88,
  O_PF_R = 92,
  O_PF_G = 96,
  O_PF_B = 100,
  O_PF_A = 104,
  O_CAPS = 108,
  O_CAPS2 = 112,
  O_DXGI = 128,
  O_DIM = 132,
  O_MISC = 136,
  O_ARRAY = 140,
  O_MISC2 = 144,
};

uint32_t rd32(std::span<const uint8_t> f, size_t at) {  // caller checked the length
  return uint32_t(f[at]) | uint32_t(f[at + 1]) << 8 | uint32_t(f[at + 2]) << 16 | uint32_t(f[at + 3]) << 24;
}
void wr32(std::vector<uint8_t>& v, size_t at, uint32_t x) {
  v[at] = uint8_t(x);
  v[at + 1] = uint8_t(x >> 8);
  v[at + 2] = uint8_t(x >> 16);
  v[at + 3] = uint8_t(x >> 24);
}

std::string hex(uint32_t v) {
  static const char* d = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), d[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

/// "DXT1", or the number when the code is not four printable characters.
std::string fourcc_text(uint32_t cc) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    char c = char((cc >> (8 * i)) & 0xff);
    if (c < 32 || c > 126) return std::to_string(cc) + " (" + hex(cc) + ")";
    s += c;
  }
  return "'" + s + "' (" + hex(cc) + ")";
}

Status err(Code c, const std::string& m) { return Status(c, "DDS: " + m); }

Status format_by_dxgi(uint32_t dxgi, const char* field, FormatInfo* f) {
  if (dxgi == 0) return err(Code::unsupported, std::string(field) + " = 0 (DXGI_FORMAT_UNKNOWN)");
  if (!find_format(dxgi, f).ok())
    return err(Code::unsupported,
               std::string(field) + " = " + std::to_string(dxgi) + " is not a DXGI format swz knows");
  if (!f->has_dxgi())
    return err(Code::unsupported, std::string(field) + " = " + f->name +
                                      ", which has no DXGI_FORMAT: a DDS file cannot hold it (write raw bytes)");
  return Status::Ok();
}

// ---- legacy pixel formats --------------------------------------------------

struct Masks {
  uint32_t flags, bits, r, g, b, a;
};

struct LegacyMask {
  uint32_t flag;  // DDPF_RGB, DDPF_LUMINANCE, DDPF_ALPHA or DDPF_BUMPDUDV
  uint32_t bits, r, g, b, a;
  uint32_t dxgi;
  bool write;  // the form written for this format
};

// The D3DFMT <-> DXGI pairs of the DDS programming guide, in bit-mask form.
constexpr LegacyMask kMasks[] = {
    {DDPF_RGB, 32, 0x000000ff, 0x0000ff00, 0x00ff0000, 0xff000000, 28, true},   // A8B8G8R8 -> R8G8B8A8_UNORM
    {DDPF_RGB, 32, 0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000, 87, true},   // A8R8G8B8 -> B8G8R8A8_UNORM
    {DDPF_RGB, 32, 0x00ff0000, 0x0000ff00, 0x000000ff, 0x00000000, 88, true},   // X8R8G8B8 -> B8G8R8X8_UNORM
    {DDPF_RGB, 32, 0x0000ffff, 0xffff0000, 0x00000000, 0x00000000, 35, true},   // G16R16 -> R16G16_UNORM
    {DDPF_RGB, 32, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 41, false},  // R32F as masks (D3DX)
    {DDPF_RGB, 16, 0x0000f800, 0x000007e0, 0x0000001f, 0x00000000, 85, true},   // R5G6B5 -> B5G6R5_UNORM
    {DDPF_RGB, 16, 0x00007c00, 0x000003e0, 0x0000001f, 0x00008000, 86, true},   // A1R5G5B5 -> B5G5R5A1_UNORM
    {DDPF_RGB, 16, 0x00000f00, 0x000000f0, 0x0000000f, 0x0000f000, 115, true},  // A4R4G4B4 -> B4G4R4A4_UNORM
    {DDPF_RGB, 16, 0x000000ff, 0x00000000, 0x00000000, 0x0000ff00, 49, false},  // A8L8 written as RGB
    {DDPF_RGB, 16, 0x0000ffff, 0x00000000, 0x00000000, 0x00000000, 56, false},  // L16 written as RGB
    {DDPF_RGB, 8, 0x000000ff, 0x00000000, 0x00000000, 0x00000000, 61, false},   // L8 written as RGB
    {DDPF_LUMINANCE, 8, 0x000000ff, 0, 0, 0x00000000, 61, true},                // L8 -> R8_UNORM
    {DDPF_LUMINANCE, 16, 0x0000ffff, 0, 0, 0x00000000, 56, true},               // L16 -> R16_UNORM
    {DDPF_LUMINANCE, 16, 0x000000ff, 0, 0, 0x0000ff00, 49, true},               // A8L8 -> R8G8_UNORM
    {DDPF_LUMINANCE, 8, 0x000000ff, 0, 0, 0x0000ff00, 49, false},  // A8L8 with a bit count of 8 (some writers)
    {DDPF_ALPHA, 8, 0, 0, 0, 0x000000ff, 65, true},                // A8 -> A8_UNORM
    {DDPF_BUMPDUDV, 16, 0x000000ff, 0x0000ff00, 0, 0, 51, true},   // V8U8 -> R8G8_SNORM
    {DDPF_BUMPDUDV, 32, 0x000000ff, 0x0000ff00, 0x00ff0000, 0xff000000, 31, true},  // Q8W8V8U8 -> R8G8B8A8_SNORM
    {DDPF_BUMPDUDV, 32, 0x0000ffff, 0xffff0000, 0, 0, 37, true},                    // V16U16 -> R16G16_SNORM
};

struct LegacyFourcc {
  uint32_t cc;
  uint32_t dxgi;
  bool write;
};

constexpr LegacyFourcc kFourccs[] = {
    {fourcc('D', 'X', 'T', '1'), 71, true},   // BC1_UNORM
    {fourcc('D', 'X', 'T', '2'), 74, false},  // BC2_UNORM, premultiplied alpha
    {fourcc('D', 'X', 'T', '3'), 74, true},   // BC2_UNORM
    {fourcc('D', 'X', 'T', '4'), 77, false},  // BC3_UNORM, premultiplied alpha
    {fourcc('D', 'X', 'T', '5'), 77, true},   // BC3_UNORM
    {fourcc('A', 'T', 'I', '1'), 80, true},   // BC4_UNORM
    {fourcc('B', 'C', '4', 'U'), 80, false},
    {fourcc('B', 'C', '4', 'S'), 81, true},  // BC4_SNORM
    {fourcc('A', 'T', 'I', '2'), 83, true},  // BC5_UNORM
    {fourcc('B', 'C', '5', 'U'), 83, false},
    {fourcc('B', 'C', '5', 'S'), 84, true},   // BC5_SNORM
    {fourcc('R', 'G', 'B', 'G'), 68, true},   // R8G8_B8G8_UNORM
    {fourcc('G', 'R', 'G', 'B'), 69, true},   // G8R8_G8B8_UNORM
    {fourcc('Y', 'U', 'Y', '2'), 107, true},  // YUY2
    // D3DFMT values stored as the FOURCC number.
    {36, 11, true},   // D3DFMT_A16B16G16R16 -> R16G16B16A16_UNORM
    {110, 13, true},  // D3DFMT_Q16W16V16U16 -> R16G16B16A16_SNORM
    {111, 54, true},  // D3DFMT_R16F -> R16_FLOAT
    {112, 34, true},  // D3DFMT_G16R16F -> R16G16_FLOAT
    {113, 10, true},  // D3DFMT_A16B16G16R16F -> R16G16B16A16_FLOAT
    {114, 41, true},  // D3DFMT_R32F -> R32_FLOAT
    {115, 16, true},  // D3DFMT_G32R32F -> R32G32_FLOAT
    {116, 2, true},   // D3DFMT_A32B32G32R32F -> R32G32B32A32_FLOAT
};

Status legacy_format(const Masks& m, uint32_t cc, FormatInfo* f) {
  if (m.flags & DDPF_FOURCC) {
    for (const auto& e : kFourccs)
      if (e.cc == cc) return format_by_dxgi(e.dxgi, "ddspf.dwFourCC", f);
    return err(Code::unsupported, "ddspf.dwFourCC = " + fourcc_text(cc) +
                                      " is not a FOURCC swz reads (DXT1-5, ATI1, ATI2, BC4U, BC4S, BC5U, BC5S, RGBG, "
                                      "GRGB, YUY2, DX10, D3DFMT 36, 110-116)");
  }
  const uint32_t kinds = m.flags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA | DDPF_BUMPDUDV);
  for (const auto& e : kMasks) {
    if (!(kinds & e.flag) || m.bits != e.bits) continue;
    // The alpha mask counts with DDPF_ALPHAPIXELS or DDPF_ALPHA, and always
    // for bump maps (Q8W8V8U8 comes without ALPHAPIXELS).
    const uint32_t a = (m.flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA | DDPF_BUMPDUDV)) ? m.a : 0;
    if (e.flag == DDPF_ALPHA) {
      if (m.a == e.a || m.a == 0) return format_by_dxgi(e.dxgi, "ddspf", f);
      continue;
    }
    const bool rgb_like = e.flag == DDPF_RGB || e.flag == DDPF_BUMPDUDV;
    if (m.r == e.r && (!rgb_like || (m.g == e.g && m.b == e.b)) && a == e.a) return format_by_dxgi(e.dxgi, "ddspf", f);
  }
  return err(Code::unsupported, "ddspf (dwFlags " + hex(m.flags) + ", dwRGBBitCount " + std::to_string(m.bits) +
                                    ", masks R " + hex(m.r) + " G " + hex(m.g) + " B " + hex(m.b) + " A " + hex(m.a) +
                                    ") is a legacy pixel format without a DXGI equivalent that swz reads");
}

// ---- sizes -----------------------------------------------------------------

Status slice_bytes(const TextureDesc& d, uint64_t* out) {
  const FormatInfo& f = d.format;
  if (f.element_bytes == 0 || f.block_width == 0 || f.block_height == 0)
    return err(Code::unsupported, std::string("format ") + f.name + " has no element size");
  if (f.planes != 1)
    return err(Code::unsupported, std::string("format ") + f.name + " is planar (" + std::to_string(f.planes) +
                                      " planes); swz does not read or write planar DDS files");
  const bool three_d = d.dimension == Dimension::Texture3D;
  uint64_t total = 0;
  for (uint32_t m = 0; m < d.mip_levels; ++m) {
    const uint64_t w = std::max<uint64_t>(1, uint64_t(d.width) >> m);
    const uint64_t h = std::max<uint64_t>(1, uint64_t(d.height) >> m);
    const uint64_t z = three_d ? std::max<uint64_t>(1, uint64_t(d.depth) >> m) : 1;
    uint64_t b;
    if (!mul_ok(ceil_div(w, f.block_width), f.element_bytes, &b) || !mul_ok(b, ceil_div(h, f.block_height), &b) ||
        !mul_ok(b, z, &b) || !add_ok(total, b, &total))
      return err(Code::overflow, "the size of " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                                     (three_d ? "x" + std::to_string(d.depth) : std::string()) + " " + f.name +
                                     " (mip " + std::to_string(m) + ") overflows 64 bits");
  }
  *out = total;
  return Status::Ok();
}

Status check_desc(const TextureDesc& d, bool cube, const char* w_field, const char* h_field, const char* d_field,
                  const char* mip_field, const char* array_field) {
  auto zero = [](const char* field) { return err(Code::invalid_argument, std::string(field) + " = 0"); };
  if (d.width == 0) return zero(w_field);
  if (d.height == 0) return zero(h_field);
  if (d.dimension == Dimension::Texture3D) {
    if (d.depth == 0) return zero(d_field);
    if (d.array_size != 1)
      return err(Code::invalid_argument,
                 std::string(array_field) + " = " + std::to_string(d.array_size) + " for a 3D texture (must be 1)");
    if (cube) return err(Code::invalid_argument, "a cube map cannot be a 3D (volume) texture");
  } else {
    if (d.depth != 1)
      return err(Code::invalid_argument, "depth = " + std::to_string(d.depth) + " for a 2D texture (must be 1)");
    if (d.array_size == 0) return zero(array_field);
    if (cube && d.array_size % 6 != 0)
      return err(Code::invalid_argument, std::string(array_field) + " = " + std::to_string(d.array_size) +
                                             " for a cube map (must be a multiple of 6)");
  }
  if (d.samples != 1)
    return err(Code::unsupported, "samples = " + std::to_string(d.samples) + " (DDS holds single-sample textures)");
  if (d.mip_levels == 0) return zero(mip_field);
  const uint32_t full = full_mip_count(d.width, d.height, d.dimension == Dimension::Texture3D ? d.depth : 1);
  if (d.mip_levels > full)
    return err(Code::invalid_argument,
               std::string(mip_field) + " = " + std::to_string(d.mip_levels) + " exceeds the full mip chain of " +
                   std::to_string(full) + " for " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                   (d.dimension == Dimension::Texture3D ? "x" + std::to_string(d.depth) : std::string()));
  uint64_t subs = uint64_t(d.mip_levels) * d.array_size;
  if (subs > 0xffffffffu)
    return err(Code::overflow, "subresource count " + std::to_string(subs) + " does not fit in 32 bits");
  return Status::Ok();
}

}  // namespace

Status dds_data_size(const TextureDesc& desc_in, uint64_t* bytes) {
  const TextureDesc desc = detail::with_mip_chain(desc_in);
  if (bytes == nullptr) return err(Code::invalid_argument, "output pointer is null");
  SWZ_TRY(check_desc(desc, false, "width", "height", "depth", "mip_levels", "array_size"));
  uint64_t per_slice;
  SWZ_TRY(slice_bytes(desc, &per_slice));
  if (!mul_ok(per_slice, desc.array_size, bytes))
    return err(Code::overflow, "array_size = " + std::to_string(desc.array_size) + " times " +
                                   std::to_string(per_slice) + " bytes per slice overflows 64 bits");
  return Status::Ok();
}

namespace {
Status parse_dds_impl(std::span<const uint8_t> file, DdsInfo* out, bool need_texels);
}  // namespace

Status parse_dds(std::span<const uint8_t> file, DdsInfo* out) { return parse_dds_impl(file, out, true); }

Status parse_dds_header(std::span<const uint8_t> head, DdsInfo* out) { return parse_dds_impl(head, out, false); }

namespace {
Status parse_dds_impl(std::span<const uint8_t> file, DdsInfo* out, bool need_texels) {
  if (out == nullptr) return err(Code::invalid_argument, "output pointer is null");
  *out = DdsInfo{};
  if (file.size() < 4)
    return err(Code::parse_error,
               "file is " + std::to_string(file.size()) + " bytes, too short for the magic \"DDS \"");
  const uint32_t magic = rd32(file, 0);
  if (magic != kMagic) return err(Code::parse_error, "bad magic " + fourcc_text(magic) + " (expected 'DDS ')");
  if (file.size() < kLegacyDataOffset)
    return err(Code::parse_error,
               "file is " + std::to_string(file.size()) + " bytes, truncated inside DDS_HEADER (needs 128)");
  const uint32_t hsize = rd32(file, O_SIZE);
  if (hsize != kHeaderSize) return err(Code::parse_error, "dwSize = " + std::to_string(hsize) + " (expected 124)");
  const uint32_t pfsize = rd32(file, O_PF_SIZE);
  if (pfsize != kPixelFormatSize)
    return err(Code::parse_error, "ddspf.dwSize = " + std::to_string(pfsize) + " (expected 32)");

  const uint32_t flags = rd32(file, O_FLAGS);
  const uint32_t caps2 = rd32(file, O_CAPS2);
  Masks m{rd32(file, O_PF_FLAGS), rd32(file, O_PF_BITS), rd32(file, O_PF_R),
          rd32(file, O_PF_G),     rd32(file, O_PF_B),    rd32(file, O_PF_A)};
  const uint32_t cc = rd32(file, O_PF_FOURCC);
  TextureDesc& d = out->desc;
  d.width = rd32(file, O_WIDTH);
  d.height = rd32(file, O_HEIGHT);
  d.mip_levels = std::max(1u, rd32(file, O_MIPS));  // 0 means 1
  d.samples = 1;
  const char* w_field = "dwWidth";
  const char* h_field = "dwHeight";
  const char* array_field = "array size";

  if ((m.flags & DDPF_FOURCC) && cc == fourcc('D', 'X', '1', '0')) {
    if (file.size() < kDx10DataOffset)
      return err(Code::parse_error,
                 "file is " + std::to_string(file.size()) + " bytes, truncated inside DDS_HEADER_DXT10 (needs 148)");
    out->dx10 = true;
    out->data_offset = kDx10DataOffset;
    SWZ_TRY(format_by_dxgi(rd32(file, O_DXGI), "DXT10.dxgiFormat", &d.format));
    const uint32_t dim = rd32(file, O_DIM);
    const uint32_t misc = rd32(file, O_MISC);
    const uint32_t array = rd32(file, O_ARRAY);
    out->alpha_mode = rd32(file, O_MISC2) & 7;
    array_field = "DXT10.arraySize";
    if (array == 0) return err(Code::invalid_argument, "DXT10.arraySize = 0");
    if (dim == DIM_TEXTURE1D) {
      out->one_d = true;
      if (d.height == 0) d.height = 1;  // 1D files may leave dwHeight 0 or 1
      if (d.height != 1)
        return err(Code::invalid_argument, "dwHeight = " + std::to_string(d.height) + " for a 1D texture (must be 1)");
      d.dimension = Dimension::Texture2D;
      d.array_size = array;
    } else if (dim == DIM_TEXTURE2D) {
      d.dimension = Dimension::Texture2D;
      uint64_t slices = array;
      if (misc & MISC_TEXTURECUBE) {
        out->cube = true;
        slices *= 6;
        if (slices > 0xffffffffu)
          return err(Code::overflow,
                     "DXT10.arraySize = " + std::to_string(array) + " cube maps (x6) overflows 32 bits");
      }
      d.array_size = static_cast<uint32_t>(slices);
    } else if (dim == DIM_TEXTURE3D) {
      d.dimension = Dimension::Texture3D;
      if (array != 1)
        return err(Code::invalid_argument,
                   "DXT10.arraySize = " + std::to_string(array) + " for a 3D texture (must be 1)");
      if (misc & MISC_TEXTURECUBE) return err(Code::invalid_argument, "DXT10.miscFlag has TEXTURECUBE on a 3D texture");
      d.depth = rd32(file, O_DEPTH);
      d.array_size = 1;
    } else {
      return err(Code::unsupported, "DXT10.resourceDimension = " + std::to_string(dim) +
                                        " (expected 2 TEXTURE1D, 3 TEXTURE2D or 4 TEXTURE3D)");
    }
  } else {
    out->data_offset = kLegacyDataOffset;
    if (m.flags & DDPF_FOURCC) out->fourcc = cc;
    SWZ_TRY(legacy_format(m, cc, &d.format));
    const bool volume = (flags & DDSD_DEPTH) || (caps2 & DDSCAPS2_VOLUME);
    if (volume) {
      if (caps2 & DDSCAPS2_CUBEMAP)
        return err(Code::invalid_argument, "dwCaps2 = " + hex(caps2) + " has both CUBEMAP and VOLUME");
      d.dimension = Dimension::Texture3D;
      d.depth = rd32(file, O_DEPTH);
      d.array_size = 1;
    } else if (caps2 & DDSCAPS2_CUBEMAP) {
      if ((caps2 & kAllFaces) != kAllFaces) {
        std::string missing;
        for (int i = 0; i < 6; ++i)
          if (!(caps2 & kCubeFaceBits[i])) missing += std::string(missing.empty() ? "" : " ") + kCubeFaceNames[i];
        return err(Code::unsupported, "dwCaps2 = " + hex(caps2) + ": partial cube map (faces " + missing +
                                          " missing); swz reads only cube maps with all six faces");
      }
      out->cube = true;
      d.dimension = Dimension::Texture2D;
      d.array_size = 6;
    } else {
      d.dimension = Dimension::Texture2D;
      d.array_size = 1;
    }
  }
  if (d.dimension == Dimension::Texture2D) d.depth = 1;
  SWZ_TRY(check_desc(d, out->cube, w_field, h_field, "dwDepth", "dwMipMapCount", array_field));
  uint64_t per_slice, total;
  SWZ_TRY(slice_bytes(d, &per_slice));
  if (!mul_ok(per_slice, d.array_size, &total))
    return err(Code::overflow, std::string(array_field) + " = " + std::to_string(d.array_size) + " slices of " +
                                   std::to_string(per_slice) + " bytes overflows 64 bits");
  out->data_size = total;
  const uint64_t have = file.size() - out->data_offset;
  if (need_texels && have < total)
    return err(Code::parse_error,
               "file is truncated: the texels of a " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                   (d.dimension == Dimension::Texture3D ? "x" + std::to_string(d.depth) : std::string()) + " " +
                   d.format.name + " texture (" + std::to_string(d.mip_levels) + " mips, " +
                   std::to_string(d.array_size) + " slices) need " + std::to_string(total) +
                   " bytes after the header, the file has " + std::to_string(have));
  return Status::Ok();
}
}  // namespace

Status read_dds(std::span<const uint8_t> file, DdsTexture* out) {
  if (out == nullptr) return err(Code::invalid_argument, "output pointer is null");
  DdsInfo info;
  SWZ_TRY(parse_dds(file, &info));
  out->desc = info.desc;
  out->cube = info.cube;
  const auto* p = file.data() + info.data_offset;
  out->data.assign(p, p + info.data_size);
  return Status::Ok();
}

bool dds_has_legacy_form(const FormatInfo& f) {
  for (const auto& e : kFourccs)
    if (e.write && e.dxgi == f.dxgi) return true;
  for (const auto& e : kMasks)
    if (e.write && e.dxgi == f.dxgi) return true;
  return false;
}

Status write_dds_header(const TextureDesc& desc, bool cube, std::vector<uint8_t>* out, const DdsWriteOptions& options) {
  if (out == nullptr) return err(Code::invalid_argument, "output pointer is null");
  const TextureDesc d = detail::with_mip_chain(desc);
  FormatInfo f;
  SWZ_TRY(format_by_dxgi(d.format.dxgi, "format", &f));
  TextureDesc dd = d;
  dd.format = f;  // trust the table, not the caller's copy of it
  SWZ_TRY(check_desc(dd, cube, "width", "height", "depth", "mip_levels", "array_size"));
  uint64_t total;
  SWZ_TRY(dds_data_size(dd, &total));
  const bool three_d = d.dimension == Dimension::Texture3D;
  const bool legacy = options.legacy_header;
  if (legacy) {
    if (!dds_has_legacy_form(f))
      return err(Code::unsupported,
                 std::string("format ") + f.name + " has no legacy DDS pixel format (write the DX10 header)");
    if (!three_d && d.array_size != (cube ? 6u : 1u))
      return err(Code::unsupported, "array_size = " + std::to_string(d.array_size) +
                                        ": a legacy header holds one texture or one cube map (write the DX10 header)");
  }
  const uint64_t header = legacy ? kLegacyDataOffset : kDx10DataOffset;
  out->assign(header, 0);
  std::vector<uint8_t>& v = *out;
  wr32(v, 0, kMagic);
  wr32(v, O_SIZE, kHeaderSize);
  uint32_t flags = DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT | DDSD_MIPMAPCOUNT;
  // Pitch of the top level: bytes of a row (uncompressed), or of the whole
  // top level (block-compressed); left out when it does not fit 32 bits.
  const uint64_t row = ceil_div(d.width, f.block_width) * f.element_bytes;
  if (f.block_compressed()) {
    const uint64_t lin = row * ceil_div(d.height, f.block_height);
    if (lin <= 0xffffffffu) {
      flags |= DDSD_LINEARSIZE;
      wr32(v, O_PITCH, static_cast<uint32_t>(lin));
    }
  } else if (row <= 0xffffffffu) {
    flags |= DDSD_PITCH;
    wr32(v, O_PITCH, static_cast<uint32_t>(row));
  }
  if (three_d) flags |= DDSD_DEPTH;
  wr32(v, O_FLAGS, flags);
  wr32(v, O_HEIGHT, d.height);
  wr32(v, O_WIDTH, d.width);
  wr32(v, O_DEPTH, three_d ? d.depth : 0);
  wr32(v, O_MIPS, d.mip_levels);
  wr32(v, O_PF_SIZE, kPixelFormatSize);
  if (!legacy) {
    wr32(v, O_PF_FLAGS, DDPF_FOURCC);
    wr32(v, O_PF_FOURCC, fourcc('D', 'X', '1', '0'));
  } else {
    bool done = false;
    for (const auto& e : kFourccs)
      if (!done && e.write && e.dxgi == f.dxgi) {
        wr32(v, O_PF_FLAGS, DDPF_FOURCC);
        wr32(v, O_PF_FOURCC, e.cc);
        done = true;
      }
    for (const auto& e : kMasks)
      if (!done && e.write && e.dxgi == f.dxgi) {
        wr32(v, O_PF_FLAGS, e.flag | (e.a && (e.flag == DDPF_RGB || e.flag == DDPF_LUMINANCE) ? DDPF_ALPHAPIXELS : 0));
        wr32(v, O_PF_BITS, e.bits);
        wr32(v, O_PF_R, e.r);
        wr32(v, O_PF_G, e.g);
        wr32(v, O_PF_B, e.b);
        wr32(v, O_PF_A, e.a);
        done = true;
      }
  }
  uint32_t caps = DDSCAPS_TEXTURE, caps2 = 0;
  if (d.mip_levels > 1) caps |= DDSCAPS_COMPLEX | DDSCAPS_MIPMAP;
  if (cube) {
    caps |= DDSCAPS_COMPLEX;
    caps2 |= DDSCAPS2_CUBEMAP | kAllFaces;
  }
  if (three_d) {
    caps |= DDSCAPS_COMPLEX;
    caps2 |= DDSCAPS2_VOLUME;
  }
  wr32(v, O_CAPS, caps);
  wr32(v, O_CAPS2, caps2);
  if (!legacy) {
    wr32(v, O_DXGI, f.dxgi);
    wr32(v, O_DIM, three_d ? DIM_TEXTURE3D : DIM_TEXTURE2D);
    wr32(v, O_MISC, cube ? MISC_TEXTURECUBE : 0);
    wr32(v, O_ARRAY, cube ? d.array_size / 6 : d.array_size);
    wr32(v, O_MISC2, 0);
  }
  return Status::Ok();
}

Status write_dds(const DdsTexture& t, std::vector<uint8_t>* out, const DdsWriteOptions& options) {
  if (out == nullptr) return err(Code::invalid_argument, "output pointer is null");
  FormatInfo f;
  SWZ_TRY(format_by_dxgi(t.desc.format.dxgi, "format", &f));
  TextureDesc dd = detail::with_mip_chain(t.desc);
  dd.format = f;
  SWZ_TRY(check_desc(dd, t.cube, "width", "height", "depth", "mip_levels", "array_size"));
  uint64_t total;
  SWZ_TRY(dds_data_size(dd, &total));
  if (t.data.size() != total)
    return err(Code::invalid_argument, "data has " + std::to_string(t.data.size()) + " bytes; every subresource of a " +
                                           std::to_string(t.desc.width) + "x" + std::to_string(t.desc.height) + " " +
                                           f.name + " texture tightly packed takes " + std::to_string(total));
  SWZ_TRY(write_dds_header(t.desc, t.cube, out, options));
  out->insert(out->end(), t.data.begin(), t.data.end());
  return Status::Ok();
}

}  // namespace swz
