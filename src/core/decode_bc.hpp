// swz internal — block-compressed texel decoders (BC1-BC7), one 4x4 block at
// a time, written from the public specifications:
//  * BC1-BC5: the Direct3D 10 "Block Compression" documentation
//    (learn.microsoft.com, direct3d10/d3d10-graphics-programming-guide-resources-block-compression)
//    and the Khronos Data Format Specification's S3TC and RGTC chapters;
//  * BC6H and BC7: the ARB_texture_compression_bptc extension (Khronos
//    OpenGL registry, revision 8): its Table.M, Table.MF, Table.F, the
//    partition tables Table.P2 and Table.P3, and the anchor tables Table.A2,
//    Table.A3a and Table.A3b.
//
// Rounding rule for the interpolated BC1-BC3 colours and BC3-BC5 values: the
// exact weighted mean of the endpoints (expanded to 8 bits by replicating
// their top bits, as the D3D documentation shows), rounded to nearest. The
// D3D specification allows implementations some latitude here; hardware and
// other decoders may differ by one step of 8 bits.
#pragma once
#include <cstdint>

namespace swz::detail {

/// The 4x4 block formats: BC1-BC7 (decoded here), then the ETC2 and EAC ones
/// (core/decode_etc.cpp; decode_block hands them on): RGB (ETC1 too), RGB
/// with punch-through alpha, RGBA with EAC alpha, R11 and RG11 unsigned and signed.
enum class BlockKind : uint8_t {
  BC1, BC2, BC3, BC4U, BC4S, BC5U, BC5S, BC6HU, BC6HS, BC7,
  EtcRgb, EtcRgbA1, EtcRgba, EacR11U, EacR11S, EacRg11U, EacRg11S
};

/// The 4x4 block kind of the format with FormatInfo::dxgi `format_value`
/// (TYPELESS BC formats as their UNORM or UF16 member, ETC1 as RGB ETC2);
/// false for other formats.
bool block_kind_of(uint32_t format_value, BlockKind* out);

/// Bytes in one block of `kind` (8 or 16).
unsigned block_bytes(BlockKind kind);

/// Decodes one block into 16 texels (row-major within the block) of four
/// floats each, in the values a shader reads before any sRGB conversion:
/// BC1-BC3 and BC7 colour and alpha in [0, 1] (value / 255: the sRGB
/// variants keep their stored encoding), BC4/BC5 UNORM in [0, 1], SNORM in
/// [-1, 1] (red, or red and green; the other components 0 and alpha 1),
/// BC6H the half-float values (alpha 1). Reserved BC7 and BC6H modes give
/// (0, 0, 0, 0) and (0, 0, 0, 1) as the specifications say. Reads exactly
/// block_bytes(kind) bytes; any content is valid. ETC2 and EAC kinds: as
/// decode_etc_block (core/decode_etc.hpp) gives them.
void decode_block(BlockKind kind, const uint8_t* block, float out[16][4]);

/// BC1, BC2, BC3 and BC7, whose values are bytes: the same texels as 8-bit
/// RGBA (decode_block's values x 255); unsigned BC4 and BC5: decode_block's
/// values rounded to the nearest 1/255, (r, 0, 0, 255) and (r, g, 0, 255).
/// Returns false, writing nothing, for the other kinds.
bool decode_block_rgba8(BlockKind kind, const uint8_t* block, uint8_t out[16][4]);
/// Whether decode_block_rgba8 decodes `kind`.
bool decodes_to_bytes(BlockKind kind);

}  // namespace swz::detail
