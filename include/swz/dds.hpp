// swz — DDS container files: read and write whole textures.
//
// Written from Microsoft's public description of the format ("DDS file
// layout", DDS_HEADER, DDS_PIXELFORMAT, DDS_HEADER_DXT10): the magic "DDS ",
// a 124-byte header, an optional 20-byte DX10 extension, then the texels.
//
// The texels are kept as the file stores them: every subresource tightly
// packed (rows of width_el * element_bytes bytes, no padding; BC rows are rows
// of 4x4 blocks) in D3D12 subresource order, mip + slice * mip_levels. That is
// the DDS order too (each array slice or cube face with all its mips). A cube
// map is a 2D array of 6 * N slices, faces +X -X +Y -Y +Z -Z; a 3D
// subresource holds all its depth slices.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

/// A whole texture as a DDS file holds it.
struct DdsTexture {
  TextureDesc desc{};         ///< 2D (array_size slices; 6 * N for cubes) or 3D; samples = 1
  bool cube = false;          ///< the 2D array is cube maps (array_size a multiple of 6)
  std::vector<uint8_t> data;  ///< every subresource tightly packed, in subresource order
};

/// What a DDS header says, without the texels.
struct DdsInfo {
  TextureDesc desc{};
  bool cube = false;
  bool dx10 = false;         ///< the file has the DDS_HEADER_DXT10 extension
  bool one_d = false;        ///< DX10 TEXTURE1D, read as a Wx1 2D texture
  uint32_t fourcc = 0;       ///< legacy DDS_PIXELFORMAT.dwFourCC (0 when it has none)
  uint32_t alpha_mode = 0;   ///< DX10 miscFlags2 & 7 (0 unknown, 1 straight, 2 premultiplied, 3 opaque, 4 custom)
  uint64_t data_offset = 0;  ///< where the texels start: 128, or 148 with the DX10 header
  uint64_t data_size = 0;    ///< bytes of all subresources (the file may have more after them)
};

/// Bytes every subresource of `desc` takes tightly packed (the sum of
/// packed_subresource_bytes over the subresources, computed per mip without
/// building a layout). Errors: zero sizes, planar formats, overflow.
Status dds_data_size(const TextureDesc& desc, uint64_t* bytes);

/// Parses and checks the header of a DDS file: magic, dwSize, the pixel
/// format (legacy FOURCC / bit masks, or DX10), sizes, mips, cube faces,
/// array size, and that the file holds every subresource (trailing bytes are
/// allowed). Never reads outside `file`. Each failure names the field and value.
Status parse_dds(std::span<const uint8_t> file, DdsInfo* out);

/// parse_dds on the first bytes of a DDS file (at least its headers: 128
/// bytes, 148 with DX10): the same checks, except that the file may end
/// after the headers. out->data_size says how many bytes of texels follow,
/// so that a stream is read no further than the file can use.
Status parse_dds_header(std::span<const uint8_t> head, DdsInfo* out);

/// parse_dds, then copies the texels of every subresource into out->data.
Status read_dds(std::span<const uint8_t> file, DdsTexture* out);

struct DdsWriteOptions {
  /// Write only the legacy header (no DX10 extension). Only formats with a
  /// legacy FOURCC or bit masks (BC1-5, R8G8B8A8 / B8G8R8A8 / B8G8R8X8, 16-bit
  /// RGB, L8 / L16 / A8L8, A8, G16R16, the D3DFMT float and 16-bit FOURCCs),
  /// and not arrays (one cube map is fine). Otherwise: unsupported.
  bool legacy_header = false;
};

/// Writes `t` as a DDS file (by default with the DX10 header). Checks that
/// desc is valid and that data holds exactly every subresource.
Status write_dds(const DdsTexture& t, std::vector<uint8_t>* out, const DdsWriteOptions& options = {});

/// The header alone (128 bytes, or 148 with the DX10 extension) that
/// write_dds puts before the texels of a `desc` texture: for writers that
/// place the dds_data_size(desc) texel bytes after it themselves (no copy of
/// the texels). Same errors as write_dds, except the data size.
Status write_dds_header(const TextureDesc& desc, bool cube, std::vector<uint8_t>* header,
                        const DdsWriteOptions& options = {});

/// True when `format` can be written with a legacy header (see DdsWriteOptions).
bool dds_has_legacy_form(const FormatInfo& format);

}  // namespace swz
