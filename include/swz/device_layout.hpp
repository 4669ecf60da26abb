// swz — device-dependent resource layouts as a driver reports them.
//
// Seed 000, "Parameterized swizzle" DDI: a texture layout names up to 18
// swizzle patterns (6 per plane group, 3 groups, plane-major); a resource
// reports MipLevelSwizzleTransition[5] and PlaneSliceSwizzleTransition[2]
// (or, in the older single-transition form, MipLevelSwizzleTransition plus
// AdditionalMipLevelSwizzleTransitionsArray[4]); and per subresource an
// offset, row stride, depth stride (bytes, or rows for stacked-depth
// patterns: swz keeps the two apart) and pre-swizzle offsets. With
// IndexableSwizzlePatterns the subresource's ColumnPreSwizzleOffset selects
// the pattern slot instead, and no pre-swizzle offsets apply.
// Slot rule: docs/ARCHITECTURE.md rule 9.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "swz/layout.hpp"
#include "swz/pattern.hpp"
#include "swz/status.hpp"

namespace swz {

constexpr int kPatternSlots = 18;        ///< 6 per plane group x 3
constexpr uint8_t kNoTransition = 0xff;  ///< UINT8_MAX

/// Per-subresource data of GetResourceLayout (D3D12DDI_SUBRESOURCE_LAYOUT-like).
struct DeviceSubresource {
  uint64_t offset = 0;                ///< bytes from the resource base
  uint64_t row_stride = 0;            ///< bytes between rows of blocks (0 = tightest)
  uint64_t depth_stride_B = 0;        ///< bytes between slices of blocks (0 = tightest); not for stacked patterns
  uint32_t row_byte_pre_swizzle = 0;  ///< RowBytePreSwizzleOffset, added to X (bytes)
  uint32_t column_pre_swizzle = 0;    ///< ColumnPreSwizzleOffset, added to Y; the slot when indexable
  uint32_t depth_pre_swizzle = 0;     ///< DepthPreSwizzleOffset, added to Z
  /// Stacked-depth patterns, instead of depth_stride_B: rows between depth
  /// slices (0 = tightest). Last, so that positional initializers of the
  /// fields above keep their meaning.
  uint64_t stack_rows = 0;
};

struct DeviceLayoutDesc {
  TextureDesc texture{};
  std::array<std::optional<Pattern>, kPatternSlots> patterns{};  ///< slot = plane_group * 6 + i
  bool indexable = false;
  std::array<uint8_t, 5> mip_transitions{kNoTransition, kNoTransition, kNoTransition, kNoTransition, kNoTransition};
  std::array<uint8_t, 2> plane_transitions{kNoTransition, kNoTransition};
  std::vector<DeviceSubresource> subresources;  ///< one per subresource, in subresource-index order
  uint64_t size = 0;                            ///< ResourceDataSize; 0 = end of the last subresource
};

/// The legacy single-transition form: entry 0 then the four additional ones.
inline std::array<uint8_t, 5> legacy_mip_transitions(uint8_t first, const std::array<uint8_t, 4>& additional) {
  return {first, additional[0], additional[1], additional[2], additional[3]};
}

/// The pattern slot of subresource (mip, plane) under rule 9 (non-indexable):
/// count of MipLevelSwizzleTransition[k] <= mip, clamped to the last slot
/// present in the plane group, plus 6 x the plane group (count of
/// PlaneSliceSwizzleTransition[k] <= plane). UINT8_MAX in mip entry 0: slot 0
/// of the group for every mip. Errors when the group holds no pattern.
Status device_pattern_slot(const DeviceLayoutDesc& d, uint32_t mip, uint32_t plane, int* slot);

/// Builds the Layout (all subresources, their slots, strides and offsets).
Status make_device_layout(const DeviceLayoutDesc& d, Layout* out);

/// The "resource layout" JSON file (documented in patterns/README.md) that a
/// capture tool saves from what the driver reported. A subresource's depth
/// stride is "depth_stride_B" (bytes) or "stack_rows" (rows, stacked-depth
/// patterns); the older one-number "depth_stride" is still read, as rows when
/// the subresource's pattern stacks depth slices and bytes otherwise. to_json
/// writes the two explicit keys.
Status parse_resource_layout_json(std::string_view json, DeviceLayoutDesc* out);
std::string to_json(const DeviceLayoutDesc& d);

}  // namespace swz
