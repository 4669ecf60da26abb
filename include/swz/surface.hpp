// swz — whole-surface copies (every subresource in one call) and the linear
// sizes of boxes.
//
// The linear side of a whole surface holds every subresource (mip levels x
// array slices x planes) in subresource-index order (D3D12CalcSubresource:
// mip + slice * mips), each tightly packed: rows of width_el * element_bytes
// bytes, height_el rows per slice, depth slices; no padding between
// subresources. This is the order DDS files and `swz swizzle` raw inputs use.
// Containers that align each subresource (for example each mip to 16 bytes)
// pass their own offset table instead.
#pragma once
#include <cstdint>
#include <vector>

#include "swz/copy.hpp"
#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

/// A box of a subresource in elements (texels; 4x4 blocks for BC).
struct BoxExtent {
  uint32_t width_el = 0, height_el = 0, depth = 0;  ///< 0 for an empty box
  uint32_t element_bytes = 0;
  uint64_t row_B = 0;    ///< bytes of one row of the box: width_el * element_bytes
  uint64_t slice_B = 0;  ///< tight slice: height_el * row_B
};

/// The box's extent in elements. `box` in texels as write_to_subresource takes
/// it; null = the whole subresource. Errors: those of write_to_subresource for
/// the box (subresource out of range, box outside it or off BC block edges,
/// packed mip tail, MSAA, sizes that overflow).
Status box_extent(const Layout& layout, uint32_t subresource, const Box* box, BoxExtent* out);

/// Bytes a linear buffer must hold for write_to_subresource /
/// read_from_subresource of `box` with these pitches:
/// (d-1) * depth_pitch_B + (h-1) * row_pitch_B + row_B. A pitch of 0 means the
/// tight one (row_B, h * row_pitch). Empty box: 0. Errors: as box_extent, and
/// invalid_argument when a pitch is smaller than a row / slice of the box.
Status box_linear_bytes(const Layout& layout, uint32_t subresource, const Box* box, uint64_t row_pitch_B,
                        uint64_t depth_pitch_B, uint64_t* out_B);

/// Bytes of the tightly packed linear side of the whole surface (the sum of
/// packed_subresource_bytes over every subresource). Errors: overflow.
Status surface_linear_bytes(const Layout& layout, uint64_t* out_B);

/// Offset of each subresource in the tightly packed linear side, in
/// subresource order (subresource_count() entries; the first is 0).
Status surface_linear_offsets(const Layout& layout, std::vector<uint64_t>* offsets_B);

/// Linear -> resource for every subresource. `linear` holds `linear_size_B`
/// bytes; subresource i starts at linear_offsets_B[i] (subresource_count()
/// entries) or, when linear_offsets_B is null, where surface_linear_offsets
/// puts it. Each subresource is tightly packed from its offset.
/// Every subresource is checked before any byte is written: on any error
/// nothing is written. Errors: those of write_to_subresource (prefixed with
/// the subresource; a packed mip tail or MSAA is refused), buffer_too_small
/// for a linear buffer or an offset table entry past its end, invalid_argument
/// for overlapping entries of an offset table or when any subresource's
/// linear bytes share memory with any subresource's span in the resource.
Status swizzle_surface(const Layout& layout, void* resource, uint64_t resource_size_B, const void* linear,
                       uint64_t linear_size_B, const uint64_t* linear_offsets_B = nullptr,
                       const CopyOptions& options = {});

/// Resource -> linear for every subresource; the mirror of swizzle_surface.
/// Bytes of `linear` between and after the subresources are left as they are.
Status deswizzle_surface(const Layout& layout, void* linear, uint64_t linear_size_B, const void* resource,
                         uint64_t resource_size_B, const uint64_t* linear_offsets_B = nullptr,
                         const CopyOptions& options = {});

}  // namespace swz
