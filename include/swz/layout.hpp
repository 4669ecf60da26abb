// swz — texture descriptions and how their subresources sit in memory.
//
// A Layout places every subresource of a texture (mip levels x array slices)
// in one resource allocation and gives each one a pattern, pitches and an
// offset. Rules: docs/ARCHITECTURE.md rules 5, 6, 9, 12 and "Standard swizzle".
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "swz/format.hpp"
#include "swz/pattern.hpp"
#include "swz/status.hpp"

namespace swz {

enum class Dimension { Texture2D, Texture3D };

/// What D3D12_RESOURCE_DESC says about a texture. Sizes in texels.
struct TextureDesc {
  Dimension dimension = Dimension::Texture2D;
  uint32_t width = 1;
  uint32_t height = 1;
  uint32_t depth = 1;       ///< 3D only; 1 for 2D
  uint32_t array_size = 1;  ///< 2D only; 1 for 3D
  uint32_t mip_levels = 1;  ///< 1..full chain; 0 is the full chain (D3D12_RESOURCE_DESC::MipLevels)
  uint32_t samples = 1;
  FormatInfo format{};
};

enum class LayoutKind {
  RowMajor,  ///< linear rows; default pitch = row bytes aligned to 256, placement 512
  Std64K,    ///< D3D12 64KB standard swizzle
  Std4K,     ///< 4KB standard swizzle (Intel TileYf / AMD SW_4KB_S; not a D3D12 API layout)
  Pattern,   ///< one caller-given parameterized swizzle pattern for every subresource
  Explicit,  ///< patterns and placements given per subresource (drivers, vendor layouts)
};

/// Mip-tail policy (docs/ARCHITECTURE.md "Standard swizzle"). None: every mip in its own
/// tiles. D3D12: the adapter packs the smallest mips; the caller passes what
/// D3D12_PACKED_MIP_INFO reports, and the packed tiles are opaque bytes that
/// copies refuse to touch.
enum class MipTail { None, D3D12 };

/// D3D12_PACKED_MIP_INFO, per array slice.
struct PackedMipInfo {
  uint32_t num_standard_mips = 0;
  uint32_t num_packed_mips = 0;
  uint32_t num_tiles_for_packed_mips = 0;
};

/// How to lay out the texture. Pitches of 0 mean "the default" (the tightest
/// the block shape allows, per mip; row-major: row bytes aligned to 256).
/// An explicit pitch applies to every subresource and must be large enough
/// for each. A stacked-depth pattern (Pattern::stack_depth_slices) takes
/// stack_rows and refuses depth_pitch_B; every other layout the reverse.
struct LayoutSpec {
  LayoutKind kind = LayoutKind::RowMajor;
  Pattern pattern{};           ///< for LayoutKind::Pattern
  uint64_t row_pitch_B = 0;    ///< bytes between rows of blocks (row-major: rows of elements)
  uint64_t depth_pitch_B = 0;  ///< bytes between slices of blocks
  uint64_t stack_rows = 0;     ///< stacked-depth patterns: rows between depth slices
  MipTail mip_tail = MipTail::None;
  PackedMipInfo packed{};  ///< for MipTail::D3D12 (std64k / std4k only)
};

/// Where one subresource lives. All offsets and pitches in bytes unless noted.
struct SubresourceLayout {
  uint32_t index = 0;  ///< D3D12CalcSubresource(mip, slice, plane, mips, arraySize)
  uint32_t mip = 0, array_slice = 0, plane = 0;
  bool packed = false;                        ///< in an adapter-specific packed mip tail: opaque, copies refuse it
  uint32_t width = 1, height = 1, depth = 1;  ///< texels
  uint32_t width_el = 1, height_el = 1;       ///< elements (BC blocks)
  uint32_t element_bytes = 0;                 ///< of this plane
  uint64_t offset = 0;                        ///< from the start of the resource
  uint64_t size = 0;                          ///< bytes this subresource spans (whole blocks)
  uint64_t row_pitch = 0;                     ///< bytes between rows of blocks
  uint64_t depth_pitch_B = 0;                 ///< bytes between slices of blocks; 0 when stack_depth
  uint64_t stack_rows = 0;                    ///< rows between stacked depth slices; 0 unless stack_depth
  bool stack_depth = false;                   ///< the pattern stacks depth slices in rows (then stack_rows != 0)
  /// Added before swizzling (docs/ARCHITECTURE.md rule 5), one unit each:
  /// [0] X in bytes, [1] Y in rows (elements), [2] Z in slices.
  uint64_t pre_swizzle[3] = {0, 0, 0};
  int pattern_slot = 0;  ///< index into Layout::patterns()
};

/// One subresource placed explicitly, as a driver's GetResourceLayout reports
/// it (the D3D12 DDI) or as a vendor layout computes it. Entries are in
/// subresource-index order.
struct SubresourcePlacement {
  uint64_t offset = 0;                  ///< base of the subresource in the resource, bytes
  uint64_t row_pitch = 0;               ///< bytes between rows of blocks; 0 = tightest
  uint64_t depth_pitch_B = 0;           ///< bytes between slices of blocks; 0 = tightest (not for stacked patterns)
  uint64_t stack_rows = 0;              ///< stacked-depth patterns: rows between depth slices; 0 = tightest
  uint64_t pre_swizzle[3] = {0, 0, 0};  ///< X bytes, Y rows, Z slices added before swizzling (rule 5);
                                        ///< also the coordinate origin of a mip inside a mip-tail block
  int pattern_slot = 0;                 ///< index into the pattern table
};

class Plan;

/// A laid-out texture. Create with make_layout; cheap to copy (shares plans).
class Layout {
 public:
  const TextureDesc& desc() const { return desc_; }
  LayoutKind kind() const { return kind_; }
  uint32_t subresource_count() const { return static_cast<uint32_t>(subs_.size()); }
  /// Subresource i; i must be < subresource_count() (checked: out_of_range).
  Status subresource(uint32_t i, SubresourceLayout* out) const;
  const SubresourceLayout& sub(uint32_t i) const { return subs_[i]; }
  /// Bytes the whole resource spans.
  uint64_t size() const { return size_; }
  /// Alignment of the resource allocation (65536, 4096, 512 or block size).
  uint64_t alignment() const { return alignment_; }
  /// size() rounded up to alignment(), as GetResourceAllocationInfo reports
  /// SizeInBytes for the layouts swz models.
  uint64_t allocation_size() const { return (size_ + alignment_ - 1) / alignment_ * alignment_; }
  const std::vector<Pattern>& patterns() const { return patterns_; }
  /// The compiled plan of a subresource's pattern (never null for a valid layout).
  const Plan& plan(uint32_t i) const { return *sub_plans_[i]; }
  /// Short human name ("std64k", "row-major", "pattern", or the name given
  /// to make_explicit_layout).
  std::string name() const;

  /// Internal (opaque): what Locator::make builds, built on first use and
  /// shared by the copies of this layout.
  struct LocatorCache;

 private:
  friend Status make_layout(const TextureDesc&, const LayoutSpec&, Layout*);
  friend Status make_explicit_layout(const TextureDesc&, const std::vector<Pattern>&,
                                     const std::vector<SubresourcePlacement>&, const std::string&, uint64_t, Layout*);
  friend class AddressMap;
  friend class Locator;
  static Status check_no_shared_bytes(const Layout& L);
  std::shared_ptr<LocatorCache> locator_cache_;
  std::string name_;
  TextureDesc desc_{};
  LayoutKind kind_ = LayoutKind::RowMajor;
  std::vector<SubresourceLayout> subs_;
  std::vector<Pattern> patterns_;
  std::vector<std::shared_ptr<const Plan>>
      sub_plans_;  ///< per subresource (slot compiled for its plane's element size)
  uint64_t size_ = 0;
  uint64_t alignment_ = 1;
};

/// D3D12CalcSubresource for one plane: mip + slice * mip_levels.
inline uint32_t calc_subresource(uint32_t mip, uint32_t slice, uint32_t plane, uint32_t mips, uint32_t array_size) {
  return mip + slice * mips + plane * mips * array_size;
}

/// Validates desc + spec and lays the texture out. Errors name the field:
/// zero sizes, mip count above the chain, non-power-of-two element for a
/// swizzled layout, a pattern that fails validate(), pitches too small,
/// sizes that overflow 64 bits, standard swizzle with MSAA.
Status make_layout(const TextureDesc& desc, const LayoutSpec& spec, Layout* out);

/// Builds a layout from a pattern table and per-subresource placements
/// (count = mip_levels * array_size * planes). Each subresource spans the blocks its
/// coordinates (after pre-swizzle) touch; `resource_size` 0 means "the end of
/// the last subresource", otherwise it must cover every subresource.
/// Non-power-of-two elements are allowed here (byte-granular patterns).
/// Errors name the subresource and field.
Status make_explicit_layout(const TextureDesc& desc, const std::vector<Pattern>& patterns,
                            const std::vector<SubresourcePlacement>& placements, const std::string& name,
                            uint64_t resource_size, Layout* out);

/// The built-in standard-swizzle pattern for `kind` (Std64K / Std4K), 2D or 3D,
/// element size 1..16 bytes (from patterns/std64k.json, patterns/std4k.json).
Status standard_swizzle_pattern(LayoutKind kind, Dimension dim, uint32_t element_bytes, Pattern* out);

/// Number of mips in the full chain of a width x height x depth texture.
uint32_t full_mip_count(uint32_t width, uint32_t height, uint32_t depth);

/// Copyable footprint of one subresource (GetCopyableFootprints): row pitch =
/// row bytes aligned up to 256 (512 for formats with two or more planes),
/// each subresource placed at the next multiple of 512 after `base_offset`
/// (which itself need not be aligned). Facts: standard_swizzle.md §7
/// (vkd3d-proton tests against WARP and NVIDIA).
struct Footprint {
  uint64_t offset = 0;                        ///< aligned to 512 from the start of the buffer
  uint32_t width = 0, height = 0, depth = 0;  ///< texels of the plane, rounded up to whole blocks
  uint32_t element_bytes = 0;
  const char* format_name = "";  ///< the plane's format
  uint64_t row_pitch = 0;        ///< bytes, multiple of 256 (512 for planar)
  uint32_t rows = 0;             ///< rows of elements (height_el)
  uint64_t row_size = 0;         ///< bytes of one row without padding
  uint64_t total_bytes = 0;      ///< bytes from offset to the end of the last row
};
Status copyable_footprints(const TextureDesc& desc, std::vector<Footprint>* out, uint64_t* total_bytes,
                           uint64_t base_offset = 0);

}  // namespace swz
