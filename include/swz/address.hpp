// swz — single addresses: the spec reference routine and element lookup.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "swz/layout.hpp"
#include "swz/pattern.hpp"
#include "swz/status.hpp"

namespace swz {

/// Pitches and offsets for one surface, as GetResourceLayout reports them.
struct AddressParams {
  uint64_t row_pitch = 0;      ///< bytes between rows of blocks
  uint64_t depth_pitch_B = 0;  ///< bytes between slices of blocks; ignored with STACK_DEPTH_SLICES
  uint64_t stack_rows = 0;     ///< STACK_DEPTH_SLICES patterns only: rows between stacked depth slices
  /// Added first (docs/ARCHITECTURE.md rule 5): [0] X in bytes, [1] Y in rows, [2] Z in slices.
  uint64_t pre_swizzle[3] = {0, 0, 0};
};

/// The oracle: the spec's SimpleSwizzle (the D3D12 parameterized-swizzle specification) with docs/ARCHITECTURE.md §2's
/// decisions: 64-bit, sample channel, stacking per the prose (rule 6), block
/// extents derived from the pattern. x is in BYTES. Scalar, per bit, slow.
uint64_t reference_offset(const Pattern& p, uint64_t x_bytes, uint64_t y, uint64_t z, uint64_t sample,
                          const AddressParams& a);

/// Byte offset, in the resource, of the first byte of element (x, y, z) and
/// sample of a subresource. Coordinates are ELEMENTS (texels; 4x4 blocks for
/// BC). Errors: subresource or coordinate out of range.
Status element_offset(const Layout& layout, uint32_t subresource, uint32_t x, uint32_t y, uint32_t z, uint32_t sample,
                      uint64_t* out);

/// The element-to-byte map of one subresource, built once and queried many
/// times (the batch form of element_offset; Python's swz.offsets uses it).
/// Coordinates are ELEMENTS, as for element_offset. Building it costs one
/// table entry per column, row, slice and sample when `method` allows tables;
/// lookups are then four loads, an add and XORs. Cheap to copy.
class AddressMap {
 public:
  enum class Method { Automatic, AxisTables, Plan };
  /// Builds the map of `subresource`. `expected_queries` guides Automatic:
  /// tables are built when they are small next to the number of lookups.
  /// Errors: subresource out of range, or in a packed mip tail (unsupported).
  static Status make(const Layout& layout, uint32_t subresource, AddressMap* out, uint64_t expected_queries = 0,
                     Method method = Method::Automatic);

  /// Element counts per coordinate: width_el, height_el, depth, samples.
  const uint64_t* limits() const { return limit_; }
  bool uses_tables() const { return !tx_.empty(); }

  /// Offset in the resource; every coordinate must be below limits() (not checked).
  uint64_t offset_unchecked(uint64_t x, uint64_t y, uint64_t z, uint64_t sample) const {
    if (tx_.empty()) return offset_by_plan(x, y, z, sample);
    const Axis& ex = tx_[x];
    const Axis& ey = ty_[y + z * stack_rows_];
    const Axis& ez = tz_[stack_rows_ ? 0 : z];
    return base_B_ + ((ex.base + ey.base + ez.base) ^ ex.g ^ ey.g ^ ez.g ^ ts_[sample].g);
  }
  /// Checked single lookup; out_of_range names the coordinate.
  Status offset(uint64_t x, uint64_t y, uint64_t z, uint64_t sample, uint64_t* out) const;
  /// Batch lookup of n elements: out[i] = offset of (x[i], y[i], z[i], sample[i]);
  /// `sample` may be null (sample 0). Stops at the first coordinate out of
  /// range (out_of_range naming it and its index); out[0..i) are then written.
  Status offsets(const uint32_t* x, const uint32_t* y, const uint32_t* z, const uint32_t* sample, uint64_t n,
                 uint64_t* out) const;

 private:
  struct Axis {
    uint64_t base;  ///< whole-block share (added)
    uint64_t g;     ///< in-block and postamble share (XORed)
  };
  uint64_t offset_by_plan(uint64_t x, uint64_t y, uint64_t z, uint64_t sample) const;
  std::shared_ptr<const Plan> plan_;
  uint32_t subresource_ = 0;
  uint32_t element_bytes_ = 0;
  uint64_t limit_[4] = {0, 0, 0, 0};
  uint64_t base_B_ = 0, stack_rows_ = 0;
  uint64_t pre_[3] = {0, 0, 0}, row_pitch_B_ = 0, depth_pitch_B_ = 0;
  std::vector<Axis> tx_, ty_, tz_, ts_;
};

/// What a resource byte holds.
struct Location {
  bool padding = false;  ///< the byte belongs to no element (then only subresource is set)
  bool packed = false;   ///< the byte is in a packed mip tail (adapter-specific; only subresource is set)
  uint32_t subresource = 0;
  uint32_t x = 0, y = 0, z = 0, sample = 0;  ///< element coordinates
  uint32_t byte = 0;                         ///< byte inside the element
};

/// Inverse of element_offset. Error (out_of_range) when offset >= layout.size().
/// Where subresources share bytes (mips packed into one tail block), the
/// lowest-index subresource with an element at the byte answers; a padding
/// byte is reported against the last subresource (highest index among equal
/// starts) whose own bytes start at or before it: its offset plus the
/// whole-block base of its pre-swizzle origin (docs/ARCHITECTURE.md rules
/// 4-6). So the slices of an AMD array, which share slice 0's offset with
/// origin Z = s, each own their slice pitch of bytes, padding included, and
/// mips placed side by side in one surface (Intel) own the blocks from their
/// origin's block on.
/// Goes through the layout's Locator, built on the first call and shared by
/// the layout's copies.
Status locate(const Layout& layout, uint64_t offset, Location* out);

/// locate for many offsets of one layout. make() builds, once, what every
/// query needs: per subresource the span of the pattern's whole-block XOR
/// terms, per distinct plan byte tables of the in-block inverse, and an index
/// of the subresource spans (a table from offset >> k to the subresource
/// holding it: about four entries per subresource, at least 4096). A query
/// then costs a few table loads, whatever the number of subresources;
/// offsets that stay inside one subresource are decoded as a run. Same
/// results and errors as locate. Copies are cheap
/// (shared, immutable state) and a made Locator may be used from several
/// threads at once. Holds pointers into the layout's compiled plans, which it
/// keeps alive.
class Locator {
 public:
  static Status make(const Layout& layout, Locator* out);
  /// invalid_argument when out is null or the Locator was not made.
  Status locate(uint64_t offset, Location* out) const;
  /// Batch: out[i] = locate(offsets[i]) for i < n. Stops at the first offset
  /// past the end (out_of_range naming it and its index); out[0..i) are then
  /// written (and, in a threaded batch, possibly records after i). Batches of
  /// 2^17 offsets or more run on several threads (one per 2^16 offsets, at
  /// most one per core), which take blocks of 2^13 offsets as they go.
  Status locate(const uint64_t* offsets, uint64_t n, Location* out) const;

  struct Impl;  ///< opaque

 private:
  std::shared_ptr<const Impl> impl_;
};

}  // namespace swz
