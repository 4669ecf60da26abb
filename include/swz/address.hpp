// swz — single addresses: the spec reference routine and element lookup.
#pragma once
#include <cstdint>

#include "swz/layout.hpp"
#include "swz/pattern.hpp"
#include "swz/status.hpp"

namespace swz {

/// Pitches and offsets for one surface, as GetResourceLayout reports them.
struct AddressParams {
  uint64_t row_pitch = 0;    ///< bytes between rows of blocks
  uint64_t depth_pitch = 0;  ///< bytes between slices of blocks; ROWS with STACK_DEPTH_SLICES
  uint64_t pre_swizzle[3] = {0, 0, 0};  ///< X bytes, Y, Z added first (DESIGN.md §2 rule 5)
};

/// The oracle: the spec's SimpleSwizzle (seed 000) with DESIGN.md §2's
/// decisions: 64-bit, sample channel, stacking per the prose (rule 6), block
/// extents derived from the pattern. x is in BYTES. Scalar, per bit, slow.
uint64_t reference_offset(const Pattern& p, uint64_t x_bytes, uint64_t y, uint64_t z, uint64_t sample,
                          const AddressParams& a);

/// The spec's sample routine transcribed literally (32-bit, block indices taken
/// before stacking, depthStride added in bytes). Kept only to show where it
/// departs from the prose for stacked depth (tests/test_reference.cpp).
uint32_t literal_simple_swizzle(const Pattern& p, const uint32_t src[3], const uint32_t pre[3], uint32_t stride,
                                uint32_t depth_stride);

/// Byte offset, in the resource, of the first byte of element (x, y, z) and
/// sample of a subresource. Coordinates are ELEMENTS (texels; 4x4 blocks for
/// BC). Errors: subresource or coordinate out of range.
Status element_offset(const Layout& layout, uint32_t subresource, uint32_t x, uint32_t y, uint32_t z,
                      uint32_t sample, uint64_t* out);

/// What a resource byte holds.
struct Location {
  bool padding = false;       ///< the byte belongs to no element (then only subresource is set)
  bool packed = false;        ///< the byte is in a packed mip tail (adapter-specific; only subresource is set)
  uint32_t subresource = 0;
  uint32_t x = 0, y = 0, z = 0, sample = 0;  ///< element coordinates
  uint32_t byte = 0;          ///< byte inside the element
};

/// Inverse of element_offset. Error (out_of_range) when offset >= layout.size().
Status locate(const Layout& layout, uint64_t offset, Location* out);

}  // namespace swz
