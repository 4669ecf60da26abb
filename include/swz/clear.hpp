// swz — ClearTextureSubresources, FillBuffers and ResolveSubresourceRegion
// on laid-out memory (the D3D12 batched copy, clear and resolve APIs).
//
// Values are converted to a format by the Direct3D "Data Conversion Rules"
// (learn.microsoft.com, direct3d10 "Data Conversion Rules"); the rule of each
// format is written once, in src/core/format_convert.cpp (docs/ARCHITECTURE.md,
// "Clears, fills and resolves"). Every call checks everything first: on any
// error nothing is written.
#pragma once
#include <cstdint>
#include <cstring>

#include "swz/copy.hpp"
#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

/// D3D12_CLEAR_DATA: 16 bytes read as Floats[4], Uints[4], Sints[4] or Bytes[16].
/// Which member a format reads is D3D12's table: UINT/SINT, stencil and YUV
/// formats read the integers (their low n bits, bit for bit), every other
/// format reads the floats, converted by the data conversion rules.
struct ClearValue {
  uint8_t bytes[16] = {};

  static ClearValue from_floats(float r, float g, float b, float a) {
    ClearValue v;
    const float f[4] = {r, g, b, a};
    std::memcpy(v.bytes, f, 16);
    return v;
  }
  static ClearValue from_uints(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
    ClearValue v;
    const uint32_t u[4] = {r, g, b, a};
    std::memcpy(v.bytes, u, 16);
    return v;
  }
  float f(int i) const {
    float x;
    std::memcpy(&x, bytes + 4 * i, 4);
    return x;
  }
  uint32_t u(int i) const {
    uint32_t x;
    std::memcpy(&x, bytes + 4 * i, 4);
    return x;
  }
};

/// Which D3D12_CLEAR_DATA member a format (plane) reads.
enum class ClearMember { Floats, Uints };

/// Encodes `value` as one element of plane `plane` of `format` (a texel; a 4x4
/// block for BC; a 2x1 pair for YUY2, Y210, Y216, R8G8_B8G8, G8R8_G8B8) into
/// `out` (`out_size` >= the plane's element bytes). `member` (may be null)
/// receives the member the format reads.
/// Errors: unsupported for formats without a clear rule (TYPELESS,
/// R10G10B10_XR_BIAS_A2, palette and opaque video formats; the message names
/// the format), out_of_range for a plane the format lacks, buffer_too_small.
Status encode_clear_value(const FormatInfo& format, uint32_t plane, const ClearValue& value, void* out,
                          uint64_t out_size, ClearMember* member = nullptr);

/// D3D12_CLEAR_TEXTURE_DESC's subresource value meaning "every subresource".
constexpr uint32_t kAllSubresources = 0xFFFFFFFFu;

/// One ClearTextureSubresources descriptor.
struct ClearDesc {
  uint32_t subresource = 0;  ///< or kAllSubresources
  ClearValue value{};
  /// DXGI_FORMAT to interpret `value` with; 0 (UNKNOWN) = the resource's
  /// format. Must have the resource's element size and block shape; TYPELESS
  /// formats are refused.
  uint32_t format_dxgi = 0;
  bool whole = true;  ///< true: the whole subresource(s); false: `box`
  /// In TEXELS of the logical (plane 0) size. BC: left/top multiples of 4,
  /// right/bottom multiples of 4 or the subresource edge. Planar and 4:2:2
  /// video formats: D3D12's table (NV12, P010, P016: 2x2; YUY2, Y210, Y216:
  /// 2x1) or the edge; each plane gets the box divided by its subsampling.
  /// With kAllSubresources the box needs every subresource to share one
  /// logical size (one mip level). A box of zero volume (left == right, ...)
  /// clears nothing; an inverted one (left > right, top > bottom or
  /// front > back) is an invalid_argument naming both edges.
  Box box{};
};

/// ClearTextureSubresources on laid-out memory: fills each descriptor's box
/// with its value encoded for the format (encode_clear_value), writing only
/// the elements of the box through the layout's address rule.
/// Errors (the message names the descriptor and field): out_of_range
/// (subresource, box outside), invalid_argument (inverted box, box off the format's
/// alignment, format_dxgi of another element size, null resource),
/// unsupported (format without a clear rule, packed mip tail, MSAA with a box
/// off whole samples is not a case: every sample is cleared), buffer_too_small.
Status clear_subresources(const Layout& layout, void* resource, uint64_t resource_size, const ClearDesc* descs,
                          size_t count);

/// One FillBuffers descriptor (D3D12_FILL_BUFFER_DESC).
struct FillDesc {
  uint64_t offset_B = 0;           ///< start of the fill
  ClearValue value{};              ///< raw bytes, or the value for `format_dxgi`
  uint32_t format_dxgi = 0;        ///< 0 (UNKNOWN): raw pattern of raw_pattern_bytes bytes of value.bytes
  uint32_t raw_pattern_bytes = 0;  ///< 1, 2, 4, 8, 12 or 16 with format 0; must be 0 with a format
  uint32_t repeat_count = 0;       ///< repetitions; one that does not fit in the buffer is omitted, as are the rest
};

/// FillBuffers: writes the pattern repeat_count times from offset_B, each
/// whole repetition that fits inside [0, buffer_size) and nothing else.
/// Pattern size p: raw_pattern_bytes, or the format's element size (one
/// texel; formats with 4x4 or 2x1 elements are refused, as is R1_UNORM).
/// offset_B must be a multiple of p for p = 1, 2 and of 4 for p >= 4.
/// Errors (naming the descriptor and field): invalid_argument (pattern size,
/// alignment, TYPELESS or block formats, raw size with a format, null buffer
/// when something would be written), out_of_range (offset past the end).
Status fill_buffers(void* buffer, uint64_t buffer_size, const FillDesc* descs, size_t count);

/// D3D12_RESOLVE_MODE values swz implements.
enum class ResolveMode { Average, Min, Max };

/// D3D12_RECT: left, top inclusive; right, bottom exclusive; texels.
struct Rect {
  uint32_t left = 0, top = 0, right = 0, bottom = 0;
};

/// One ResolveSubresourceRegion.
struct ResolveDesc {
  uint32_t dst_subresource = 0;
  uint32_t dst_x = 0, dst_y = 0;  ///< texels
  uint32_t src_subresource = 0;
  bool whole = true;  ///< true: the whole source subresource; false: `rect`
  /// Zero area (left == right or top == bottom) resolves nothing; an inverted
  /// rect (left > right or top > bottom) is an invalid_argument naming both edges.
  Rect rect{};
  ResolveMode mode = ResolveMode::Average;
  /// DXGI_FORMAT both sides are read and written as; 0 = the source's format.
  uint32_t format_dxgi = 0;
};

/// Resolves the samples of each source texel of the rect into one
/// destination texel. Average: the samples decoded to float (UNORM, SNORM,
/// FLOAT, sRGB in linear light), their mean encoded back by the data
/// conversion rules; refused for UINT/SINT (and stencil) formats, for which
/// D3D defines no average. Min/Max: per component, compared as the
/// component's numeric type (signed for SINT/SNORM, float for FLOAT).
/// The source must be multisampled (samples > 1), the destination single
/// sampled, both of the same format element size; BC and video formats are
/// refused. Errors name the field: unsupported (mode, format), invalid_argument
/// (sample counts, formats, inverted rect), out_of_range (rect, destination), buffer_too_small.
Status resolve_subresource(const Layout& dst_layout, void* dst, uint64_t dst_size, const Layout& src_layout,
                           const void* src, uint64_t src_size, const ResolveDesc& desc);

/// "average", "min", "max".
const char* resolve_mode_name(ResolveMode m);

}  // namespace swz
