// swz — D3D12-style copies between linear memory and a laid-out resource.
//
// Semantics of ID3D12Resource::WriteToSubresource / ReadFromSubresource
// (the D3D12 parameterized-swizzle specification): a subresource index, an optional box IN TEXELS (right, bottom,
// back exclusive; BC: left/top multiples of 4, right/bottom multiples of 4 or
// the subresource edge), the linear side's row and depth pitch in bytes (row =
// one row of elements, i.e. of 4x4 blocks for BC). Every buffer comes with its
// size; nothing outside [ptr, ptr + size) is read or written, and on any error
// nothing is written at all.
#pragma once
#include <cstdint>
#include <string_view>

#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

/// D3D12_BOX, in texels. An empty box (right <= left, bottom <= top or
/// back <= front) is a no-op that succeeds.
struct Box {
  uint32_t left = 0, top = 0, front = 0, right = 0, bottom = 0, back = 0;
};

/// A box converted from texels to elements (4x4 blocks for block-compressed
/// formats): origin and extent in elements, depth in slices.
struct ElementBox {
  uint32_t x_el = 0, y_el = 0, z = 0;
  uint32_t width_el = 0, height_el = 0, depth = 0;
  bool empty = false;  ///< the box has no texels (right <= left, ...): nothing to copy
};

/// Converts `box` (texels; null = the whole subresource) of `subresource`
/// to elements, with D3D12's rules: the box lies inside the subresource
/// (out_of_range otherwise); for block-compressed formats left/top are
/// multiples of the block and right/bottom multiples of it or the subresource
/// edge (invalid_argument). Every copy call uses this conversion.
Status to_element_box(const Layout& layout, uint32_t subresource, const Box* box, ElementBox* out);

enum class Backend { Auto, Scalar, Highway, Xsimd };

struct CopyOptions {
  /// Auto picks the environment variable SWZ_BACKEND (scalar|highway|xsimd)
  /// when set, else the fastest compiled backend.
  Backend backend = Backend::Auto;
  /// 0 = automatic (hardware threads for large copies, 1 for small ones).
  unsigned threads = 0;
  /// The resource is write-combined memory (e.g. an UPLOAD heap on a
  /// non-coherent UMA GPU, or Vulkan DEVICE_LOCAL | HOST_VISIBLE memory
  /// mapped on the host, as the D3D12 WriteToSubresource documentation
  /// describes for UMA). Writes: whole lines in order with streaming stores.
  /// Reads (read_from_subresource): the subresource is first copied out with
  /// 16-byte streaming loads (SSE4.1 movntdqa) into a temporary of the
  /// subresource's size, then converted from there; ordinary loads from WC
  /// memory are uncached and about 10x slower (swz_bench_gpu --wc).
  bool write_combined = false;
};

/// Linear -> resource. `src` points at the box's first element; it must hold
/// (d-1)*src_depth_pitch + (h-1)*src_row_pitch + w*element_bytes bytes (w, h in
/// elements, d in slices of the box). A pitch of 0 is the box's tight pitch
/// (row: w*element_bytes; depth: row pitch * h).
/// Errors: subresource out of range; box outside the subresource or not on BC
/// block edges; pitch smaller than a row / slice; buffers too small; MSAA,
/// non-power-of-two elements (refused as D3D12 does); CONDITIONAL_POSTAMBLE_XORS;
/// invalid_argument when the linear bytes of the box and the subresource's
/// span in the resource share memory (swz never copies overlapping memory;
/// docs/ARCHITECTURE.md rule 13).
Status write_to_subresource(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource,
                            const Box* box, const void* src, uint64_t src_size, uint64_t src_row_pitch,
                            uint64_t src_depth_pitch, const CopyOptions& options = {});

/// Resource -> linear. Mirror of write_to_subresource.
Status read_from_subresource(void* dst, uint64_t dst_size, uint64_t dst_row_pitch, uint64_t dst_depth_pitch,
                             const Layout& layout, const void* resource, uint64_t resource_size, uint32_t subresource,
                             const Box* box, const CopyOptions& options = {});

/// Bytes a tightly packed linear copy of a subresource takes (rows of
/// width_el * element_bytes, no padding).
uint64_t packed_subresource_bytes(const SubresourceLayout& s);

/// Name of a backend ("auto", "scalar", "highway", "xsimd").
const char* backend_name(Backend b);

/// The backend named `name` (one of backend_name's names, exact); false,
/// leaving `out` as it was, for any other text.
bool parse_backend(std::string_view name, Backend* out);

// ---- Region and tile copies (the D3D12 batched copy APIs) --------------------------------------

/// One CopyTextureRegion: a source box (texels; null = the whole source
/// subresource) copied to (dst_x, dst_y, dst_z) of the destination subresource.
struct RegionCopy {
  uint32_t dst_subresource = 0;
  uint32_t dst_x = 0, dst_y = 0, dst_z = 0;  ///< texels
  uint32_t src_subresource = 0;
  bool whole_source = true;  ///< ignore src_box, copy the whole source subresource
  Box src_box{};
};

/// Copies regions between two laid-out resources of any layouts (for example
/// two different vendor layouts) directly, with no linear staging copy. The
/// formats must have the same element size and block shape. BC: dst_x/dst_y
/// and the box's left/top are multiples of 4; its sizes are multiples of 4 or
/// reach the source edge. Destination regions of one call must not overlap
/// (refused, as the batched D3D12 API leaves them undefined). `src` and `dst`
/// may be the same buffer under the same placement (the same layout, or two
/// layouts that place every subresource alike) only when no destination box
/// overlaps any source box of its subresource; buffers that alias in any
/// other way must not share a byte between a destination subresource's span
/// and a source subresource's span. Nothing is written when any region is
/// invalid. The checks take O(n log n) for n regions of one slice each.
Status copy_regions(const Layout& dst_layout, void* dst, uint64_t dst_size, const Layout& src_layout, const void* src,
                    uint64_t src_size, const RegionCopy* regions, size_t count);

/// D3D12_TILED_RESOURCE_COORDINATE: a tile position (in tiles) in a subresource.
struct TileCoordinate {
  uint32_t x = 0, y = 0, z = 0;
  uint32_t subresource = 0;
};
/// D3D12_TILE_REGION_SIZE: num_tiles in linear tile order (x, then y, then z,
/// wrapping), or, with use_box, a width x height x depth box of tiles
/// (num_tiles must then equal their product).
struct TileRegionSize {
  uint32_t num_tiles = 1;
  bool use_box = false;
  uint32_t width = 1, height = 1, depth = 1;
};
enum class TileCopyDirection { LinearBufferToSwizzled, SwizzledToLinearBuffer };

/// CopyTiles / CopyTilesAsync: moves whole tiles (the layout's blocks: 64KB
/// for std64k) between a tiled subresource and a buffer that holds them one
/// after another from buffer_offset, each "linear within the tile" (D3D11.3
/// §5.9.3.3): rows of tile-width elements, a partially filled tile still using
/// the full tile row pitch. Refuses packed mips, MSAA, and tiles outside the
/// subresource's tile grid.
Status copy_tiles(const Layout& layout, void* resource, uint64_t resource_size, const TileCoordinate& start,
                  const TileRegionSize& size, void* buffer, uint64_t buffer_size, uint64_t buffer_offset,
                  TileCopyDirection direction);

}  // namespace swz
