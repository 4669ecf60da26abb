// swz — the rest of the D3D12 batched copy engine on laid-out memory:
// placed-footprint copies (CopyTextureRegion / CopyTextureRegions between a
// buffer described by a D3D12_PLACED_SUBRESOURCE_FOOTPRINT and a texture
// subresource, both directions) and CopyResources (every subresource of one
// resource into another of the same description in a different layout).
//
// Sources: Microsoft's D3D12 documentation of D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
// D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT / D3D12_TEXTURE_DATA_PITCH_ALIGNMENT,
// CopyTextureRegion, and the batched copy APIs (CopyTextureRegions,
// CopyResources). Rules: docs/ARCHITECTURE.md "Where each rule lives".
//
// Like every swz copy: nothing outside the given buffers is read or written,
// every region is checked before the first byte is written, and on any error
// nothing is written at all.
#pragma once
#include <cstddef>
#include <cstdint>

#include "swz/copy.hpp"
#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

/// D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT: a footprint's offset in its buffer.
constexpr uint64_t kTextureDataPlacementAlignment_B = 512;
/// D3D12_TEXTURE_DATA_PITCH_ALIGNMENT: a footprint's row pitch.
constexpr uint64_t kTextureDataPitchAlignment_B = 256;

/// D3D12_PLACED_SUBRESOURCE_FOOTPRINT: row-major texture data in a buffer.
/// Element (x, y, z) (elements: texels, or 4x4 blocks for BC) starts at byte
///   offset_B + z * (row_pitch_B * rows) + y * row_pitch_B + x * element_bytes
/// where rows = height / block height.
struct PlacedFootprint {
  uint64_t offset_B = 0;     ///< from the buffer's start; a multiple of 512
  FormatInfo format{};       ///< the subresource's format (for planar formats: its plane's, e.g. R8G8_TYPELESS)
  uint32_t width = 0;        ///< texels; a multiple of the block width (BC: 4)
  uint32_t height = 0;       ///< texels; a multiple of the block height (BC: 4)
  uint32_t depth = 1;        ///< slices
  uint64_t row_pitch_B = 0;  ///< bytes between rows of elements; a multiple of 256, at least one row
};

/// The PlacedFootprint of a copyable footprint (copyable_footprints), for
/// copying subresource-by-subresource through one upload buffer.
/// Errors: the footprint's format name is unknown (internal).
Status placed_footprint(const Footprint& f, PlacedFootprint* out);

/// Bytes a footprint spans from its offset: (depth * rows - 1) * row_pitch_B
/// + one row of width elements. Checks the footprint's own fields (no buffer):
/// the same errors as copy_placed_footprint's footprint checks.
Status footprint_bytes(const PlacedFootprint& f, uint64_t* out_B);

enum class FootprintCopyDirection {
  BufferToTexture,  ///< D3D12_TEXTURE_COPY_DESC_TYPE_BUFFER_TO_TEXTURE
  TextureToBuffer,  ///< D3D12_TEXTURE_COPY_DESC_TYPE_TEXTURE_TO_BUFFER
};

/// D3D12_TEXTURE_COPY_REGION: the source box (texels of the SOURCE: the
/// footprint for BufferToTexture, the subresource for TextureToBuffer)
/// copied to (dst_x, dst_y, dst_z) of the destination.
struct FootprintRegion {
  uint32_t dst_x = 0, dst_y = 0, dst_z = 0;  ///< texels; BC: multiples of 4
  bool whole_source = true;                  ///< ignore src_box: the whole source
  Box src_box{};
};

/// CopyTextureRegions with a D3D12_BUFFER_TEXTURE_COPY_DESC: copies `count`
/// regions between the footprint in `buffer` and `subresource` of the
/// laid-out `resource`. count = 0 copies the whole source to (0, 0, 0), as the
/// API does for NumRegions = 0 (`regions` may then be null).
///
/// Checks, each a Status naming the field and value:
///  - footprint.offset_B a multiple of 512, row_pitch_B a multiple of 256
///    (invalid_argument); width/height multiples of the format's block and
///    non-zero, depth non-zero, row_pitch_B at least one row (invalid_argument);
///    the whole footprint inside the buffer (buffer_too_small); sizes past 64
///    bits (overflow);
///  - footprint.format of the subresource's format family (the same DXGI name,
///    or the same name up to its last "_" component after removing "_SRGB",
///    e.g. R8G8B8A8_TYPELESS / _UNORM / _UNORM_SRGB; planar formats: the
///    plane's format, e.g. R8G8_TYPELESS or R8G8_UNORM for NV12 plane 1; a
///    single-plane depth format also takes its R twin, R32_* for D32_FLOAT),
///    with the same element size and block shape (invalid_argument);
///  - source boxes inside their source, on block edges, destinations on block
///    edges and inside their destination (out_of_range / invalid_argument;
///    a BC destination may end at the subresource's logical edge inside its
///    last block); destination regions that overlap each other
///    (invalid_argument); the footprint's bytes overlapping the subresource's
///    bytes in memory (invalid_argument);
///  - everything write_to_subresource / read_from_subresource check (MSAA,
///    packed mip tails, buffer sizes, ...).
/// The bytes move through write_to_subresource / read_from_subresource with
/// `options` (kernels, threads, write-combined memory).
Status copy_placed_footprint(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource,
                             void* buffer, uint64_t buffer_size, const PlacedFootprint& footprint,
                             FootprintCopyDirection direction, const FootprintRegion* regions, size_t count,
                             const CopyOptions& options = {});

/// CopyResources: every subresource of `src` (laid out by src_layout) into
/// `dst` (laid out by dst_layout), which must describe the same texture:
/// dimension, width, height, depth, array size, mip levels, sample count and
/// format (invalid_argument naming the field and both values). The layouts may
/// differ in anything else (re-tiling std64k to nv-block-linear, a pattern
/// to row-major, ...). The resource is never staged whole: each subresource
/// moves in cache-sized bands (about 1 MiB of block rows or slices) through
/// read_from_subresource and write_to_subresource, on the calling thread
/// (without memory for the band: copy_regions, no staging). Every subresource
/// is checked first; on error nothing is written. Refused: MSAA and packed mip
/// tails (unsupported), `dst` and `src` sharing a byte (invalid_argument),
/// buffers shorter than their layouts (buffer_too_small). Bytes of `dst` that
/// no subresource covers are left as they were.
Status copy_resources(const Layout& dst_layout, void* dst, uint64_t dst_size, const Layout& src_layout, const void* src,
                      uint64_t src_size);

}  // namespace swz
