// swz — format table: element size, block-compressed block shape, planes.
// Source: the DXGI_FORMAT enumeration (dxgiformat.h) and the D3D12 format
// properties (DirectX-Headers d3dx12_property_format_table.cpp); for the
// block formats DXGI lacks (ETC1, ETC2, EAC, ASTC), the Khronos Data Format
// Specification and their OpenGL internal-format values.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "swz/status.hpp"

namespace swz {

/// One format. An *element* is a texel, or a block (4x4 for BC, ETC and EAC;
/// 4x4 to 12x12 for ASTC) for block-compressed formats.
struct FormatInfo {
  const char* name = "UNKNOWN";  ///< DXGI name without the "DXGI_FORMAT_" prefix (ETC2_R8G8B8_UNORM,
                                 ///< ASTC_6x6_UNORM_SRGB, ... for formats DXGI lacks)
  uint32_t dxgi = 0;             ///< DXGI_FORMAT enum value; a format DXGI lacks carries its OpenGL
                                 ///< internal-format value (GL_COMPRESSED_RGB8_ETC2 = 0x9274, ...), above
                                 ///< every DXGI value (see has_dxgi)
  uint32_t element_bytes = 0;    ///< bytes per element (per texel, per BC block; plane 0 for planar)
  uint32_t block_width = 1;      ///< texels per element horizontally (4 for BC)
  uint32_t block_height = 1;     ///< texels per element vertically (4 for BC)
  uint32_t planes = 1;           ///< plane count (2 for NV12, P010, depth-stencil typeless pairs)
  uint32_t channels = 0;         ///< components (0 for BC / video)
  uint32_t channel_bits = 0;     ///< bits per component when uniform, else 0
  bool unorm8 = false;           ///< 8-bit UNORM with 1..4 channels (image I/O allowed)
  bool depth_stencil = false;
  bool block_compressed() const { return block_width > 1; }
  /// Whether `dxgi` is a DXGI_FORMAT value (false for ETC, EAC and ASTC).
  bool has_dxgi() const { return dxgi < kFirstNonDxgiValue; }
  /// The smallest format value that is not a DXGI_FORMAT (GL_ETC1_RGB8_OES).
  static constexpr uint32_t kFirstNonDxgiValue = 0x8D64;
};

/// Looks up a format by name (DXGI's, with or without "DXGI_FORMAT_", or
/// swz's for ETC, EAC and ASTC formats), any case.
Status find_format(std::string_view name, FormatInfo* out);
/// Looks up by value (FormatInfo::dxgi).
Status find_format(uint32_t dxgi, FormatInfo* out);
/// One plane of a (possibly planar) format, as D3D12's
/// GetPlaneSubsampledSizeAndFormatForCopyableLayout (DirectX-Headers) gives it:
/// the plane's element size and its subsampling. Plane width =
/// ceil(width / width_divisor), height = ceil(height / height_divisor).
/// NV12: plane 0 R8, plane 1 R8G8 at half width and height; P010/P016: R16 and
/// R16G16; P208: R8, R8G8 at half width; NV11: R8, R8G8 at quarter width;
/// V208: three R8 planes, planes 1-2 at half height; V408: three R8 planes;
/// depth-stencil (R24G8, R32G8X24 families): plane 0 R32, plane 1 R8 stencil.
struct PlaneInfo {
  const char* format_name = "";  ///< the plane's DXGI format (without prefix)
  uint32_t element_bytes = 0;
  uint32_t width_divisor = 1;
  uint32_t height_divisor = 1;
};
/// Errors: plane >= format.planes (out_of_range).
Status plane_info(const FormatInfo& format, uint32_t plane, PlaneInfo* out);

/// How a format's components are read (the suffix of its DXGI definition).
enum class NumericKind { Typeless, Unorm, Snorm, Uint, Sint, Float, SharedExponent, Other };

/// What a caller needs of a format beyond its size, from its DXGI definition.
struct FormatFacts {
  NumericKind numeric = NumericKind::Other;
  bool srgb = false;       ///< stored values are sRGB-encoded (_SRGB)
  std::string components;  ///< component letters in memory order for formats made of <letter><bits> groups
                           ///< ("BGRA" for B8G8R8A8_UNORM, "RGB" for R32G32B32_FLOAT; "" for BC, video, packed)
  std::string cast_family; ///< formats of one family share bits (D3D12 casting): the name without "_SRGB"
                           ///< and its last "_" part (R8G8B8A8_UNORM_SRGB -> R8G8B8A8, BC1_UNORM -> BC1);
                           ///< a single-plane depth format's is its R twin's (D32_FLOAT -> R32)
};
/// The facts of `f`. This is the one place that reads anything from a format's name.
FormatFacts format_facts(const FormatInfo& f);

/// The sRGB transfer function (IEC 61966-2-1, as Direct3D's data conversion
/// rules state it), both ways, for values in [0, 1].
double srgb_to_linear(double v);
double linear_to_srgb(double v);

/// All known formats (for listings). `count` receives the number of entries.
const FormatInfo* all_formats(size_t* count);

}  // namespace swz
