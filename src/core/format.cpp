// swz — the format table: DXGI's formats, then the ETC, EAC and ASTC formats.
//
// Enum values: dxgiformat.h (DXGI_FORMAT). Sizes, block shapes and plane
// counts: the D3D12 format table in DirectX-Headers
// (src/d3dx12_property_format_table.cpp: BitsPerUnit, Width/HeightAlignment,
// GetPlaneCount, GetPlaneSubsampledSizeAndFormatForCopyableLayout).
//
// Conventions of this table:
//  * element_bytes is the size of one addressable element: a texel, a 4x4 BC
//    block, or a 2x1 pair for the packed 4:2:2 formats (R8G8_B8G8, G8R8_G8B8,
//    YUY2, Y210, Y216), which therefore have block_width 2.
//  * Planar formats (D3D12 "Planar": the video formats and the two
//    depth-stencil families) give plane 0's element: NV12 -> R8 (1 byte),
//    P010/P016 -> R16 (2), and R24G8 / R32G8X24 -> R32 (4 bytes; plane 1 is
//    R8 stencil). Plane counts follow D3D12 GetPlaneCount, which looks at the
//    parent format, so every member of the R24G8 / R32G8X24 families has 2
//    planes; V208 / V408 have 3; DXGI_FORMAT_420_OPAQUE is planar but opaque
//    and GetPlaneCount gives 1.
//  * channels counts the components that are not padding (X); channel_bits
//    is their width when all are equal, else 0. BC and video formats give 0.
//  * Left out: UNKNOWN (0), R1_UNORM (66, one bit per texel) and the opaque
//    sampler-feedback formats (189, 190).
#include "swz/format.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/json_strict.hpp"  // quoted_for_message

namespace swz {
namespace {

// A row is a FormatInfo: {name, dxgi, element_bytes, block_width,
// block_height, planes, channels, channel_bits, unorm8, depth_stencil}.
// Shorthands: plain texel formats, 8-bit UNORM image formats, depth-stencil,
// BC (4x4 blocks), other block-compressed formats, video / palette formats.
constexpr FormatInfo T(const char* n, uint32_t v, uint32_t bytes, uint32_t ch, uint32_t bits) {
  return FormatInfo{n, v, bytes, 1, 1, 1, ch, bits, false, false};
}
constexpr FormatInfo U8(const char* n, uint32_t v, uint32_t ch) {
  return FormatInfo{n, v, ch == 3 ? 4u : ch, 1, 1, 1, ch, 8, true, false};
}
constexpr FormatInfo DS(const char* n, uint32_t v, uint32_t bytes, uint32_t planes, uint32_t ch, uint32_t bits) {
  return FormatInfo{n, v, bytes, 1, 1, planes, ch, bits, false, true};
}
constexpr FormatInfo BC(const char* n, uint32_t v, uint32_t bytes) {
  return FormatInfo{n, v, bytes, 4, 4, 1, 0, 0, false, false};
}
constexpr FormatInfo BLK(const char* n, uint32_t v, uint32_t bytes, uint32_t bw, uint32_t bh) {
  return FormatInfo{n, v, bytes, bw, bh, 1, 0, 0, false, false};
}
constexpr FormatInfo VID(const char* n, uint32_t v, uint32_t bytes, uint32_t bw, uint32_t planes) {
  return FormatInfo{n, v, bytes, bw, 1, planes, 0, 0, false, false};
}

constexpr FormatInfo kFormats[] = {
    T("R32G32B32A32_TYPELESS", 1, 16, 4, 32),
    T("R32G32B32A32_FLOAT", 2, 16, 4, 32),
    T("R32G32B32A32_UINT", 3, 16, 4, 32),
    T("R32G32B32A32_SINT", 4, 16, 4, 32),
    T("R32G32B32_TYPELESS", 5, 12, 3, 32),
    T("R32G32B32_FLOAT", 6, 12, 3, 32),
    T("R32G32B32_UINT", 7, 12, 3, 32),
    T("R32G32B32_SINT", 8, 12, 3, 32),
    T("R16G16B16A16_TYPELESS", 9, 8, 4, 16),
    T("R16G16B16A16_FLOAT", 10, 8, 4, 16),
    T("R16G16B16A16_UNORM", 11, 8, 4, 16),
    T("R16G16B16A16_UINT", 12, 8, 4, 16),
    T("R16G16B16A16_SNORM", 13, 8, 4, 16),
    T("R16G16B16A16_SINT", 14, 8, 4, 16),
    T("R32G32_TYPELESS", 15, 8, 2, 32),
    T("R32G32_FLOAT", 16, 8, 2, 32),
    T("R32G32_UINT", 17, 8, 2, 32),
    T("R32G32_SINT", 18, 8, 2, 32),
    DS("R32G8X24_TYPELESS", 19, 4, 2, 2, 0),
    DS("D32_FLOAT_S8X24_UINT", 20, 4, 2, 2, 0),
    DS("R32_FLOAT_X8X24_TYPELESS", 21, 4, 2, 1, 32),
    DS("X32_TYPELESS_G8X24_UINT", 22, 4, 2, 1, 8),
    T("R10G10B10A2_TYPELESS", 23, 4, 4, 0),
    T("R10G10B10A2_UNORM", 24, 4, 4, 0),
    T("R10G10B10A2_UINT", 25, 4, 4, 0),
    T("R11G11B10_FLOAT", 26, 4, 3, 0),
    T("R8G8B8A8_TYPELESS", 27, 4, 4, 8),
    U8("R8G8B8A8_UNORM", 28, 4),
    U8("R8G8B8A8_UNORM_SRGB", 29, 4),
    T("R8G8B8A8_UINT", 30, 4, 4, 8),
    T("R8G8B8A8_SNORM", 31, 4, 4, 8),
    T("R8G8B8A8_SINT", 32, 4, 4, 8),
    T("R16G16_TYPELESS", 33, 4, 2, 16),
    T("R16G16_FLOAT", 34, 4, 2, 16),
    T("R16G16_UNORM", 35, 4, 2, 16),
    T("R16G16_UINT", 36, 4, 2, 16),
    T("R16G16_SNORM", 37, 4, 2, 16),
    T("R16G16_SINT", 38, 4, 2, 16),
    T("R32_TYPELESS", 39, 4, 1, 32),
    DS("D32_FLOAT", 40, 4, 1, 1, 32),
    T("R32_FLOAT", 41, 4, 1, 32),
    T("R32_UINT", 42, 4, 1, 32),
    T("R32_SINT", 43, 4, 1, 32),
    DS("R24G8_TYPELESS", 44, 4, 2, 2, 0),
    DS("D24_UNORM_S8_UINT", 45, 4, 2, 2, 0),
    DS("R24_UNORM_X8_TYPELESS", 46, 4, 2, 1, 24),
    DS("X24_TYPELESS_G8_UINT", 47, 4, 2, 1, 8),
    T("R8G8_TYPELESS", 48, 2, 2, 8),
    U8("R8G8_UNORM", 49, 2),
    T("R8G8_UINT", 50, 2, 2, 8),
    T("R8G8_SNORM", 51, 2, 2, 8),
    T("R8G8_SINT", 52, 2, 2, 8),
    T("R16_TYPELESS", 53, 2, 1, 16),
    T("R16_FLOAT", 54, 2, 1, 16),
    DS("D16_UNORM", 55, 2, 1, 1, 16),
    T("R16_UNORM", 56, 2, 1, 16),
    T("R16_UINT", 57, 2, 1, 16),
    T("R16_SNORM", 58, 2, 1, 16),
    T("R16_SINT", 59, 2, 1, 16),
    T("R8_TYPELESS", 60, 1, 1, 8),
    U8("R8_UNORM", 61, 1),
    T("R8_UINT", 62, 1, 1, 8),
    T("R8_SNORM", 63, 1, 1, 8),
    T("R8_SINT", 64, 1, 1, 8),
    U8("A8_UNORM", 65, 1),
    // 66 R1_UNORM: one bit per texel, no byte-sized element; left out.
    T("R9G9B9E5_SHAREDEXP", 67, 4, 3, 0),
    FormatInfo{"R8G8_B8G8_UNORM", 68, 4, 2, 1, 1, 3, 8, false, false},
    FormatInfo{"G8R8_G8B8_UNORM", 69, 4, 2, 1, 1, 3, 8, false, false},
    BC("BC1_TYPELESS", 70, 8),
    BC("BC1_UNORM", 71, 8),
    BC("BC1_UNORM_SRGB", 72, 8),
    BC("BC2_TYPELESS", 73, 16),
    BC("BC2_UNORM", 74, 16),
    BC("BC2_UNORM_SRGB", 75, 16),
    BC("BC3_TYPELESS", 76, 16),
    BC("BC3_UNORM", 77, 16),
    BC("BC3_UNORM_SRGB", 78, 16),
    BC("BC4_TYPELESS", 79, 8),
    BC("BC4_UNORM", 80, 8),
    BC("BC4_SNORM", 81, 8),
    BC("BC5_TYPELESS", 82, 16),
    BC("BC5_UNORM", 83, 16),
    BC("BC5_SNORM", 84, 16),
    T("B5G6R5_UNORM", 85, 2, 3, 0),
    T("B5G5R5A1_UNORM", 86, 2, 4, 0),
    U8("B8G8R8A8_UNORM", 87, 4),
    U8("B8G8R8X8_UNORM", 88, 3),
    T("R10G10B10_XR_BIAS_A2_UNORM", 89, 4, 4, 0),
    T("B8G8R8A8_TYPELESS", 90, 4, 4, 8),
    U8("B8G8R8A8_UNORM_SRGB", 91, 4),
    T("B8G8R8X8_TYPELESS", 92, 4, 3, 8),
    U8("B8G8R8X8_UNORM_SRGB", 93, 3),
    BC("BC6H_TYPELESS", 94, 16),
    BC("BC6H_UF16", 95, 16),
    BC("BC6H_SF16", 96, 16),
    BC("BC7_TYPELESS", 97, 16),
    BC("BC7_UNORM", 98, 16),
    BC("BC7_UNORM_SRGB", 99, 16),
    VID("AYUV", 100, 4, 1, 1),
    VID("Y410", 101, 4, 1, 1),
    VID("Y416", 102, 8, 1, 1),
    VID("NV12", 103, 1, 1, 2),
    VID("P010", 104, 2, 1, 2),
    VID("P016", 105, 2, 1, 2),
    VID("420_OPAQUE", 106, 1, 1, 1),
    VID("YUY2", 107, 4, 2, 1),
    VID("Y210", 108, 8, 2, 1),
    VID("Y216", 109, 8, 2, 1),
    VID("NV11", 110, 1, 1, 2),
    VID("AI44", 111, 1, 1, 1),
    VID("IA44", 112, 1, 1, 1),
    VID("P8", 113, 1, 1, 1),
    VID("A8P8", 114, 2, 1, 1),
    T("B4G4R4A4_UNORM", 115, 2, 4, 4),
    VID("P208", 130, 1, 1, 2),
    VID("V208", 131, 1, 1, 3),
    VID("V408", 132, 1, 1, 3),
    // 189, 190: sampler-feedback formats, opaque; left out.
    T("A4B4G4R4_UNORM", 191, 2, 4, 4),
    // Formats DXGI lacks, under their OpenGL internal-format values (OpenGL
    // ES 3.0 Table 3.19; OES_compressed_ETC1_RGB8_texture;
    // KHR_texture_compression_astc_ldr), named in DXGI's manner. Block shapes
    // and sizes: the Khronos Data Format Specification's ETC1, ETC2 and ASTC
    // chapters (ETC1/ETC2 RGB, punch-through and EAC R11: 8 bytes a 4x4 block;
    // ETC2 with EAC alpha and EAC RG11: 16; ASTC: 16 bytes a block of any
    // footprint).
    BLK("ETC1_R8G8B8_UNORM", 0x8D64, 8, 4, 4),
    BLK("EAC_R11_UNORM", 0x9270, 8, 4, 4),
    BLK("EAC_R11_SNORM", 0x9271, 8, 4, 4),
    BLK("EAC_R11G11_UNORM", 0x9272, 16, 4, 4),
    BLK("EAC_R11G11_SNORM", 0x9273, 16, 4, 4),
    BLK("ETC2_R8G8B8_UNORM", 0x9274, 8, 4, 4),
    BLK("ETC2_R8G8B8_UNORM_SRGB", 0x9275, 8, 4, 4),
    BLK("ETC2_R8G8B8A1_UNORM", 0x9276, 8, 4, 4),
    BLK("ETC2_R8G8B8A1_UNORM_SRGB", 0x9277, 8, 4, 4),
    BLK("ETC2_R8G8B8A8_UNORM", 0x9278, 16, 4, 4),
    BLK("ETC2_R8G8B8A8_UNORM_SRGB", 0x9279, 16, 4, 4),
    BLK("ASTC_4x4_UNORM", 0x93B0, 16, 4, 4),
    BLK("ASTC_5x4_UNORM", 0x93B1, 16, 5, 4),
    BLK("ASTC_5x5_UNORM", 0x93B2, 16, 5, 5),
    BLK("ASTC_6x5_UNORM", 0x93B3, 16, 6, 5),
    BLK("ASTC_6x6_UNORM", 0x93B4, 16, 6, 6),
    BLK("ASTC_8x5_UNORM", 0x93B5, 16, 8, 5),
    BLK("ASTC_8x6_UNORM", 0x93B6, 16, 8, 6),
    BLK("ASTC_8x8_UNORM", 0x93B7, 16, 8, 8),
    BLK("ASTC_10x5_UNORM", 0x93B8, 16, 10, 5),
    BLK("ASTC_10x6_UNORM", 0x93B9, 16, 10, 6),
    BLK("ASTC_10x8_UNORM", 0x93BA, 16, 10, 8),
    BLK("ASTC_10x10_UNORM", 0x93BB, 16, 10, 10),
    BLK("ASTC_12x10_UNORM", 0x93BC, 16, 12, 10),
    BLK("ASTC_12x12_UNORM", 0x93BD, 16, 12, 12),
    BLK("ASTC_4x4_UNORM_SRGB", 0x93D0, 16, 4, 4),
    BLK("ASTC_5x4_UNORM_SRGB", 0x93D1, 16, 5, 4),
    BLK("ASTC_5x5_UNORM_SRGB", 0x93D2, 16, 5, 5),
    BLK("ASTC_6x5_UNORM_SRGB", 0x93D3, 16, 6, 5),
    BLK("ASTC_6x6_UNORM_SRGB", 0x93D4, 16, 6, 6),
    BLK("ASTC_8x5_UNORM_SRGB", 0x93D5, 16, 8, 5),
    BLK("ASTC_8x6_UNORM_SRGB", 0x93D6, 16, 8, 6),
    BLK("ASTC_8x8_UNORM_SRGB", 0x93D7, 16, 8, 8),
    BLK("ASTC_10x5_UNORM_SRGB", 0x93D8, 16, 10, 5),
    BLK("ASTC_10x6_UNORM_SRGB", 0x93D9, 16, 10, 6),
    BLK("ASTC_10x8_UNORM_SRGB", 0x93DA, 16, 10, 8),
    BLK("ASTC_10x10_UNORM_SRGB", 0x93DB, 16, 10, 10),
    BLK("ASTC_12x10_UNORM_SRGB", 0x93DC, 16, 12, 10),
    BLK("ASTC_12x12_UNORM_SRGB", 0x93DD, 16, 12, 12),
};

constexpr size_t kCount = sizeof(kFormats) / sizeof(kFormats[0]);

constexpr bool table_sorted() {
  for (size_t i = 1; i < kCount; ++i)
    if (kFormats[i - 1].dxgi >= kFormats[i].dxgi) return false;
  return true;
}
static_assert(table_sorted(), "format table must be sorted by DXGI value, without duplicates");

constexpr char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

}  // namespace

Status find_format(std::string_view name, FormatInfo* out) {
  if (out == nullptr) return Status(Code::invalid_argument, "format: output pointer is null");
  std::string_view key = name;
  constexpr std::string_view kPrefix = "DXGI_FORMAT_";
  if (istarts_with(key, kPrefix)) key.remove_prefix(kPrefix.size());
  if (!key.empty()) {
    for (const FormatInfo& f : kFormats) {
      if (iequals(key, f.name)) {
        *out = f;
        return Status::Ok();
      }
    }
  }
  return Status(Code::invalid_argument,
                "format: unknown DXGI format name " + detail::quoted_for_message(name) +
                    " (expected a DXGI_FORMAT name such as R8G8B8A8_UNORM or BC7_UNORM, prefix optional, or "
                    "an ETC, EAC or ASTC name such as ETC2_R8G8B8_UNORM, EAC_R11_SNORM or ASTC_6x6_UNORM_SRGB)");
}

Status find_format(uint32_t dxgi, FormatInfo* out) {
  if (out == nullptr) return Status(Code::invalid_argument, "format: output pointer is null");
  size_t lo = 0, hi = kCount;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (kFormats[mid].dxgi < dxgi) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo < kCount && kFormats[lo].dxgi == dxgi) {
    *out = kFormats[lo];
    return Status::Ok();
  }
  return Status(Code::invalid_argument, "format: unknown or unsupported DXGI_FORMAT (or ETC/ASTC OpenGL) value " +
                                            std::to_string(dxgi));
}

const FormatInfo* all_formats(size_t* count) {
  if (count != nullptr) *count = kCount;
  return kFormats;
}

Status plane_info(const FormatInfo& f, uint32_t plane, PlaneInfo* out) {
  if (plane >= f.planes)
    return {Code::out_of_range, "plane = " + std::to_string(plane) + " (format " + f.name + " has " +
                                    std::to_string(f.planes) + (f.planes == 1 ? " plane)" : " planes)")};
  PlaneInfo p;
  p.format_name = f.name;
  p.element_bytes = f.element_bytes;
  if (f.planes == 1) {
    *out = p;
    return Status::Ok();
  }
  const std::string n = f.name;
  if (n == "NV12" || n == "P010" || n == "P016") {
    const bool wide = n != "NV12";
    p.format_name = plane == 0 ? (wide ? "R16_TYPELESS" : "R8_TYPELESS") : (wide ? "R16G16_TYPELESS" : "R8G8_TYPELESS");
    p.element_bytes = (wide ? 2u : 1u) * (plane == 0 ? 1u : 2u);
    p.width_divisor = p.height_divisor = plane == 0 ? 1 : 2;
  } else if (n == "P208" || n == "NV11") {
    p.format_name = plane == 0 ? "R8_TYPELESS" : "R8G8_TYPELESS";
    p.element_bytes = plane == 0 ? 1 : 2;
    p.width_divisor = plane == 0 ? 1 : (n == "NV11" ? 4 : 2);
  } else if (n == "V208" || n == "V408") {
    p.format_name = "R8_TYPELESS";
    p.element_bytes = 1;
    p.height_divisor = (n == "V208" && plane > 0) ? 2 : 1;
  } else if (f.depth_stencil) {
    p.format_name = plane == 0 ? "R32_TYPELESS" : "R8_TYPELESS";
    p.element_bytes = plane == 0 ? 4 : 1;
  } else {
    return {Code::unsupported, std::string("format ") + f.name + ": plane layout unknown"};
  }
  *out = p;
  return Status::Ok();
}

FormatFacts format_facts(const FormatInfo& f) {
  FormatFacts out;
  std::string_view n = f.name;
  constexpr std::string_view kSrgb = "_SRGB";
  if (n.size() > kSrgb.size() && n.substr(n.size() - kSrgb.size()) == kSrgb) {
    out.srgb = true;
    n.remove_suffix(kSrgb.size());
  }
  const size_t last = n.rfind('_');
  const std::string_view suffix = last == std::string_view::npos ? std::string_view() : n.substr(last + 1);
  const std::string_view body = last == std::string_view::npos ? n : n.substr(0, last);
  out.cast_family = std::string(body);
  // A single-plane depth format's data is its R-format twin (D32_FLOAT: R32, D16_UNORM: R16).
  if (f.depth_stencil && f.planes == 1 && !out.cast_family.empty() && out.cast_family[0] == 'D')
    out.cast_family[0] = 'R';
  constexpr struct {
    std::string_view suffix;
    NumericKind kind;
  } kKinds[] = {{"TYPELESS", NumericKind::Typeless}, {"UNORM", NumericKind::Unorm}, {"SNORM", NumericKind::Snorm},
                {"UINT", NumericKind::Uint},         {"SINT", NumericKind::Sint},   {"FLOAT", NumericKind::Float},
                {"SHAREDEXP", NumericKind::SharedExponent}};
  for (const auto& k : kKinds)
    if (suffix == k.suffix) out.numeric = k.kind;
  // Components: a run of <letter><bits> groups before the first '_' (R8G8B8A8, B5G6R5, R32G32B32).
  if (f.block_compressed() || f.planes > 1 || f.block_width > 1) return out;
  std::string letters;
  for (size_t i = 0; i < body.size();) {
    const char c = body[i];
    if (std::string_view("RGBAX").find(c) == std::string_view::npos) return out;
    size_t j = i + 1;
    while (j < body.size() && body[j] >= '0' && body[j] <= '9') ++j;
    if (j == i + 1) return out;
    letters += c;
    i = j;
  }
  out.components = letters;
  return out;
}

double srgb_to_linear(double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); }
double linear_to_srgb(double v) { return v <= 0.0031308 ? v * 12.92 : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055; }

}  // namespace swz
