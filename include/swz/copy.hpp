// swz — D3D12-style copies between linear memory and a laid-out resource.
//
// Semantics of ID3D12Resource::WriteToSubresource / ReadFromSubresource
// (seed 000): a subresource index, an optional box IN TEXELS (right, bottom,
// back exclusive; BC: left/top multiples of 4, right/bottom multiples of 4 or
// the subresource edge), the linear side's row and depth pitch in bytes (row =
// one row of elements, i.e. of 4x4 blocks for BC). Every buffer comes with its
// size; nothing outside [ptr, ptr + size) is read or written, and on any error
// nothing is written at all.
#pragma once
#include <cstdint>

#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

/// D3D12_BOX, in texels. An empty box (right <= left, bottom <= top or
/// back <= front) is a no-op that succeeds.
struct Box {
  uint32_t left = 0, top = 0, front = 0, right = 0, bottom = 0, back = 0;
};

enum class Backend { Auto, Scalar, Highway, Xsimd };

struct CopyOptions {
  /// Auto picks the environment variable SWZ_BACKEND (scalar|highway|xsimd)
  /// when set, else the fastest compiled backend.
  Backend backend = Backend::Auto;
  /// 0 = automatic (hardware threads for large copies, 1 for small ones).
  unsigned threads = 0;
  /// The destination is write-combined (e.g. an UPLOAD heap on a non-coherent
  /// UMA GPU, seed 004): write whole lines in order with streaming stores.
  bool write_combined = false;
};

/// Linear -> resource. `src` points at the box's first element; it must hold
/// (d-1)*src_depth_pitch + (h-1)*src_row_pitch + w*element_bytes bytes (w, h in
/// elements, d in slices of the box).
/// Errors: subresource out of range; box outside the subresource or not on BC
/// block edges; pitch smaller than a row / slice; buffers too small; MSAA,
/// non-power-of-two elements (refused as D3D12 does); CONDITIONAL_POSTAMBLE_XORS.
Status write_to_subresource(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource,
                            const Box* box, const void* src, uint64_t src_size, uint64_t src_row_pitch,
                            uint64_t src_depth_pitch, const CopyOptions& options = {});

/// Resource -> linear. Mirror of write_to_subresource.
Status read_from_subresource(void* dst, uint64_t dst_size, uint64_t dst_row_pitch, uint64_t dst_depth_pitch,
                             const Layout& layout, const void* resource, uint64_t resource_size,
                             uint32_t subresource, const Box* box, const CopyOptions& options = {});

/// Bytes a tightly packed linear copy of a subresource takes (rows of
/// width_el * element_bytes, no padding).
uint64_t packed_subresource_bytes(const SubresourceLayout& s);

/// Name of a backend ("scalar", "highway", "xsimd").
const char* backend_name(Backend b);

}  // namespace swz
