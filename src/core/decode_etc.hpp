// swz internal — ETC1, ETC2 and EAC block decoders, one 4x4 block at a time,
// written from the Khronos Data Format Specification, chapter "ETC2
// Compressed Texture Image Formats" (derived from the OpenGL 4.4 / OpenGL ES
// 3.0 specifications, Annex C): RGB ETC2 (individual, differential, T, H and
// planar modes; ETC1 blocks are RGB ETC2 blocks of the first two modes), RGB
// ETC2 with punch-through alpha, RGBA ETC2 (EAC alpha), unsigned and signed
// R11 / RG11 EAC. Every block content is valid.
#pragma once
#include <cstdint>

#include "core/decode_bc.hpp"  // BlockKind

namespace swz::detail {

/// Whether `kind` is one of the ETC2 / EAC kinds decode_etc_block decodes.
bool is_etc_kind(BlockKind kind);

/// Decodes one ETC2 / EAC block into 16 texels (row-major within the block)
/// of four floats each, as a shader reads them before any sRGB conversion:
/// RGB and alpha value / 255 (punch-through transparent texels (0, 0, 0, 0));
/// R11 / RG11 unsigned the 11-bit value / 2047, signed the value in
/// [-1023, 1023] / 1023 (red, or red and green; blue 0, alpha 1). Reads
/// block_bytes(kind) bytes. `kind` must satisfy is_etc_kind.
void decode_etc_block(BlockKind kind, const uint8_t* block, float out[16][4]);

}  // namespace swz::detail
