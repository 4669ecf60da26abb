// swz — decode texels of any supported format into pixels to look at
// (RGBA8) or to compute with (RGBA32F).
//
// Input is linear: rows of elements (texels, or blocks for block formats)
// at a row pitch, as read_from_subresource and the deswizzle commands leave
// them. decode_subresource reads a subresource (or a box of one) of a
// swizzled resource first.
//
// Formats: every uncompressed format of the table with a component map
// (UNORM, SNORM, UINT, SINT, FLOAT, sRGB, packed 5:6:5, 5:5:5:1, 4:4:4:4,
// 10:10:10:2, 10:10:10 XR bias, 11:11:10 float, 9:9:9:E5, the 2-texel
// R8G8_B8G8 / G8R8_G8B8), BC1-BC7 (BC6H signed and unsigned; TYPELESS BC
// formats decode as their UNORM or UF16 member), ETC1, ETC2 (RGB, RGB with
// punch-through alpha, RGBA, each also sRGB) and EAC R11 / RG11 (unsigned
// and signed), ASTC (LDR, UNORM and sRGB, every 2D footprint from 4x4 to
// 12x12; only when swz was built with libastcenc), depth and stencil, and the
// packed YUV formats AYUV, Y410, Y416, YUY2, Y210, Y216, the 4:2:0 planar
// NV12, P010, P016 (luma rows, then the chroma rows), and the palette formats
// P8, A8P8 (byte 0 alpha, byte 1 index), AI44 (alpha in bits 0-3, index in
// 4-7) and IA44 (index in bits 0-3) with a palette. Component order follows
// the DXGI names, least significant first. Refused with Code::unsupported,
// naming the format: other TYPELESS formats (give a typed member of the
// family), NV11, P208, V208, V408 and 420_OPAQUE.
//
// RGBA8, the view mapping:
//  * UNORM, and values in [0, 1]: round(v x 255);
//  * sRGB formats keep their stored values (a PNG holds sRGB);
//  * SNORM: round((v + 1) / 2 x 255), so 0 is mid-grey;
//  * UINT and SINT: read as UNORM and SNORM of the same width;
//  * FLOAT, half, 11/10-bit float, 9:9:9:E5 and BC6H: v x 2^exposure_ev,
//    then the tone map (clamp to [0, 1] by default, or Reinhard v / (1 + v)),
//    then round(x 255), with no transfer curve (as texconv converts float
//    data to 8 bits); alpha is clamped, not exposed;
//  * depth: normalised to the image's own range [min, max] of its finite
//    values (a constant image keeps its value, clamped to [0, 1]); stencil:
//    its value as a grey level;
//  * YUV: to R'G'B' with the BT.601 or BT.709 matrix, limited (16-235,
//    16-240 scaled to the width) or full range;
//  * a format with only red (R8, BC4, R32_FLOAT, depth) is shown grey
//    (R, R, R); one without blue is (R, G, 0); a missing alpha is opaque;
//    A8_UNORM is (0, 0, 0, A).
// A channel view (r, g, b or a) shows that component alone as grey, opaque;
// rgb shows the colour opaque.
//
// RGBA32F gives the values a shader reads: sRGB decoded to linear light,
// UNORM in [0, 1], SNORM in [-1, 1], integers as their values, floats as
// stored; missing components are 0 and a missing alpha 1, so R8 reads
// (r, 0, 0, 1). Channel views apply as above. No exposure or tone map.
#pragma once
#include <cstdint>

#include "swz/format.hpp"
#include "swz/copy.hpp"
#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

enum class ViewChannel : uint8_t { rgba, rgb, r, g, b, a };
/// Big-endian sources (Xbox 360, GameCube/Wii, PS3): each 16- or 32-bit word
/// of an element is byte-swapped before it is decoded.
enum class ByteOrder : uint8_t { little, swap16, swap32 };
struct LinearImage;
enum class ToneMap : uint8_t { clamp, reinhard };
enum class YuvMatrix : uint8_t { bt601, bt709 };

struct DecodeOptions {
  ViewChannel channel = ViewChannel::rgba;
  double exposure_ev = 0.0;           ///< RGBA8 of float formats: values are scaled by 2^exposure_ev
  ToneMap tone_map = ToneMap::clamp;  ///< RGBA8 of float formats
  YuvMatrix yuv_matrix = YuvMatrix::bt709;
  bool yuv_full_range = false;  ///< YUV code values span the full range instead of 16-235 (8-bit)
  bool stencil = false;         ///< depth-stencil formats: show the stencil (D24_UNORM_S8_UINT's top byte)
  ByteOrder byte_order = ByteOrder::little;  ///< the element size must be a multiple of the word
  /// P8, A8P8, AI44, IA44: the palette, a width x 1 image of any decodable
  /// format of one texel an element (R8G8B8A8_UNORM, B5G5R5A1_UNORM,
  /// B5G6R5_UNORM, ...; not BC, 4:2:2 or 4:2:0 formats), one entry a texel.
  /// An index past its last entry decodes as transparent black.
  const LinearImage* palette = nullptr;
};

/// A 2D image of linear elements.
struct LinearImage {
  FormatInfo format;
  uint32_t width_px = 0, height_px = 0;  ///< texels (a BC image holds ceil(w/4) x ceil(h/4) blocks)
  const void* data = nullptr;
  uint64_t size_B = 0;       ///< bytes readable at data
  uint64_t row_pitch_B = 0;  ///< bytes from one element row to the next; 0: tight
  /// NV12, P010, P016: where the chroma plane (ceil(h/2) rows of ceil(w/2)
  /// U, V pairs, at row_pitch_B) starts; 0: right after the luma rows.
  uint64_t chroma_offset_B = 0;
};

/// Whether `format` decodes; if not, why (the message decode gives).
Status check_decodable(const FormatInfo& format);
/// Whether this build decodes `format` (check_decodable's answer): the ASTC
/// formats decode only when swz was built with libastcenc.
bool decode_supports(const FormatInfo& format);
/// Whether subresource `subresource` of `layout` decodes on its own: its
/// format decodes, and it is neither one plane of NV12, P010 or P016 (the
/// luma and chroma planes decode together, through decode_rgba8) nor the
/// stencil plane of a depth-stencil format (its bytes decode as R8_UINT).
/// Errors: those of Layout::subresource, unsupported.
Status check_decodable(const Layout& layout, uint32_t subresource);

/// What decode_rgba8 and decode_rgba32f check before they look at the
/// output: the options, the format, the palette, the input's size and pitch.
/// A caller that allocates the output checks these first.
Status check_decode_input(const LinearImage& in, const DecodeOptions& options);

/// Decodes `in` into width_px x height_px RGBA8 pixels at out (4 bytes a
/// pixel, rows out_row_pitch_B apart; 0: tight). Errors, before any byte is
/// written: unsupported (format), invalid_argument (a zero size, a pitch
/// smaller than a row, the output sharing memory with the input, an option
/// out of range), buffer_too_small (either side), overflow.
Status decode_rgba8(const LinearImage& in, const DecodeOptions& options, uint8_t* out, uint64_t out_size_B,
                    uint64_t out_row_pitch_B = 0);
/// The same into RGBA32F (16 bytes a pixel).
Status decode_rgba32f(const LinearImage& in, const DecodeOptions& options, float* out, uint64_t out_size_B,
                      uint64_t out_row_pitch_B = 0);

/// Subresource `subresource` of a swizzled resource (the box `box`, or all of
/// it when null), read as read_from_subresource does, then decoded as above
/// into a tight image of the box's size. Errors: those of check_decodable
/// (layout, subresource), read_from_subresource and decode_rgba8, before any
/// byte is written or any temporary allocated.
Status decode_subresource_rgba8(const Layout& layout, const void* resource, uint64_t resource_size_B,
                                uint32_t subresource, const Box* box, const DecodeOptions& options, uint8_t* out,
                                uint64_t out_size_B);

}  // namespace swz
