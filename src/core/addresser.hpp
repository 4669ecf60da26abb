// swz internal — the subresource address rule, in one place.
//
// Element (x, y, z, sample) of a subresource lives at
//   1. pre-swizzle:  x_B = x * element_bytes + pre[0], y' = y + pre[1], z' = z + pre[2]
//                    (pre[0] in bytes, pre[1] in rows, pre[2] in slices; a mip
//                    inside a mip-tail block sits at such an origin);
//   2. stacking:     when the pattern stacks depth slices (STACK_DEPTH_SLICES),
//                    y' += z * stack_rows and z' = 0, and there is no depth pitch;
//   3. the plan:     offset = Plan::offset(x_B, y', z', sample, row pitch, depth pitch)
//                    (blocks row-major at the pitches, XOR with the in-block
//                    interleave and the postamble);
//   4. placement:    + the subresource's offset in the resource.
// Every caller that turns coordinates into bytes (copies, region and tile
// copies, element_offset / locate, the batch offsets, layout checks, the GPU
// planner) goes through Frame::adjust and SubresourceAddresser; see
// docs/ARCHITECTURE.md, "Where each rule lives".
#pragma once
#include <cstdint>
#include <memory>

#include "core/plan.hpp"
#include "swz/layout.hpp"

namespace swz::detail {

/// A fresh, empty Layout::LocatorCache (core/locator_build.cpp) for a new layout.
std::shared_ptr<Layout::LocatorCache> new_locator_cache();

/// Coordinates after steps 1-2: x in bytes, y in rows, z in slices.
struct Adjusted {
  uint64_t x_B = 0, y = 0, z = 0;
};

/// The per-subresource values of steps 1-3, with their units spelled out
/// (the same fields as SubresourceLayout's, gathered for the hot paths).
struct Frame {
  uint64_t pre[3] = {0, 0, 0};  ///< pre-swizzle: X bytes, Y rows, Z slices
  uint64_t stack_rows = 0;      ///< rows between stacked depth slices; 0 = not stacked
  uint64_t row_pitch_B = 0;     ///< bytes between rows of blocks
  uint64_t depth_pitch_B = 0;   ///< bytes between slices of blocks; 0 when stacked

  static Frame of(const SubresourceLayout& s) {
    Frame f;
    for (int i = 0; i < 3; ++i) f.pre[i] = s.pre_swizzle[i];
    f.stack_rows = s.stack_rows;
    f.row_pitch_B = s.row_pitch;
    f.depth_pitch_B = s.depth_pitch_B;
    return f;
  }
  /// Steps 1-2 for byte x_B of row (y, z), x_B relative to the subresource row.
  static Adjusted adjust(const uint64_t pre[3], uint64_t stack_rows, uint64_t x_B, uint64_t y, uint64_t z) {
    Adjusted a{x_B + pre[0], y + pre[1], z + pre[2]};
    if (stack_rows) {
      a.y += z * stack_rows;
      a.z = 0;
    }
    return a;
  }
  Adjusted adjust(uint64_t x_B, uint64_t y, uint64_t z) const { return adjust(pre, stack_rows, x_B, y, z); }
  /// Inverse of steps 1-2 (locate): the subresource-relative x_B, y, z of
  /// adjusted coordinates; false when they lie before the pre-swizzle origin.
  bool unadjust(const Adjusted& a, Adjusted* out) const {
    if (a.x_B < pre[0] || a.y < pre[1] || a.z < pre[2]) return false;
    Adjusted e{a.x_B - pre[0], a.y - pre[1], a.z - pre[2]};
    if (stack_rows) {
      e.z = e.y / stack_rows;
      e.y %= stack_rows;
    }
    *out = e;
    return true;
  }
};

/// Steps 1-4 for one subresource of a layout.
class SubresourceAddresser {
 public:
  SubresourceAddresser(const SubresourceLayout& s, const Plan& p)
      : plan_(&p), frame_(Frame::of(s)), base_B_(s.offset) {}

  const Plan& plan() const { return *plan_; }
  const Frame& frame() const { return frame_; }
  uint64_t base_B() const { return base_B_; }

  /// Offset from the subresource's start of byte x_B (bytes, before
  /// pre-swizzle) of row (y, z), sample `sample`.
  uint64_t rel_offset_B(uint64_t x_B, uint64_t y, uint64_t z, uint32_t sample) const {
    const Adjusted a = frame_.adjust(x_B, y, z);
    return plan_->offset(a.x_B, a.y, a.z, sample, frame_.row_pitch_B, frame_.depth_pitch_B);
  }
  /// Offset from the resource's start.
  uint64_t offset_B(uint64_t x_B, uint64_t y, uint64_t z, uint32_t sample) const {
    return base_B_ + rel_offset_B(x_B, y, z, sample);
  }
  /// offset_B for many bytes of one row: row(y, z, sample) once, then offset_B(row, x_B) per byte.
  struct Row {
    Plan::RowTerms terms;
    uint64_t x0_B = 0;  ///< the row's pre-swizzle X origin in bytes
  };
  Row row(uint64_t y, uint64_t z, uint32_t sample) const {
    const Adjusted a = frame_.adjust(0, y, z);
    return {plan_->row_terms(a.y, a.z, sample, frame_.row_pitch_B, frame_.depth_pitch_B), a.x_B};
  }
  uint64_t offset_B(const Row& r, uint64_t x_B) const { return base_B_ + plan_->offset_in_row(r.terms, r.x0_B + x_B); }

 private:
  const Plan* plan_;
  Frame frame_;
  uint64_t base_B_;
};

}  // namespace swz::detail
