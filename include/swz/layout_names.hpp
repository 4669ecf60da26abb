// swz — layouts by name: the one grammar the CLI's --layout, Python's
// layout= and the C API's swz_layout_create accept.
//
//   row-major (alias row_major)  linear rows (D3D12 copyable-footprint pitches);
//                                row-major:pitch=N gives the row pitch in bytes
//   std64k, std4k                the standard swizzles
//   FAMILY[:key=value,...]       a hardware layout family (swz/vendor.hpp),
//                                e.g. "nv-block-linear:gob=tegra,bh=8"
//   pattern:TEXT                 one parameterized swizzle pattern in text form
//   PATH                         a JSON file: one pattern, or a whole resource
//                                layout as a driver reports it (swz/device_layout.hpp),
//                                which also fixes the texture description
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

struct DeviceLayoutDesc;

/// Pitches and the mip-tail policy a caller may give with a name. They apply to
/// row-major, std64k, std4k and pattern layouts; hardware families and resource
/// layouts place their own subresources, and refuse non-default values.
struct LayoutOptions {
  uint64_t row_pitch_B = 0;    ///< bytes between rows of blocks; 0 = the layout's default
  uint64_t depth_pitch_B = 0;  ///< bytes between slices of blocks; 0 = default (not for stacked-depth patterns)
  uint64_t stack_rows = 0;     ///< stacked-depth patterns: rows between depth slices; 0 = default
  MipTail mip_tail = MipTail::None;
  PackedMipInfo packed{};  ///< for MipTail::D3D12
};

/// A parsed layout name. Parsing reads a JSON file once; make() can then be
/// called for any texture.
class LayoutName {
 public:
  /// Parses `text`. Errors (invalid_argument, io_error): an unknown name (the
  /// message suggests the closest names), pattern text that does not parse, a
  /// JSON file that is neither a pattern nor a resource layout, a missing file.
  static Status parse(std::string_view text, LayoutName* out);

  const std::string& text() const { return text_; }
  /// Non-null when the name is a resource-layout file: it fixes the texture.
  const TextureDesc* fixed_texture() const;
  /// True for row-major, std64k, std4k and pattern layouts (LayoutOptions apply).
  bool takes_options() const { return kind_ != Kind::Family && kind_ != Kind::Resource; }
  /// The pattern of a pattern layout (pattern:TEXT or a pattern JSON file), else null.
  const Pattern* pattern() const { return kind_ == Kind::Pattern ? &pattern_ : nullptr; }

  /// Lays out `desc`. A resource layout ignores `desc` (see fixed_texture()).
  /// Errors: those of make_layout / make_named_layout / make_device_layout, and
  /// invalid_argument naming the option when a non-default option is given to a
  /// layout that places its own subresources.
  Status make(const TextureDesc& desc, const LayoutOptions& options, Layout* out) const;

 private:
  enum class Kind { RowMajor, Std64K, Std4K, Pattern, Family, Resource };
  std::string text_;
  Kind kind_ = Kind::RowMajor;
  Pattern pattern_{};
  uint64_t row_pitch_B_ = 0;  ///< row-major:pitch=N
  std::shared_ptr<const DeviceLayoutDesc> resource_;
};

/// LayoutName::parse(name) then make(desc, options).
Status make_layout_from_name(std::string_view name, const TextureDesc& desc, const LayoutOptions& options, Layout* out);

/// One line of `swz layouts`.
struct LayoutListing {
  std::string name;         ///< as typed ("std64k", "nv-block-linear", "pattern:TEXT")
  std::string parameters;   ///< parameters a family takes ("" when none)
  std::string description;  ///< one sentence or two
  std::string source;       ///< public source of the rules ("" for the spec's own layouts)
};

/// Every name: the built-ins, each hardware family, then the pattern forms.
std::vector<LayoutListing> layout_listing();

/// What a layout name means for elements of `element_bytes` bytes, as text:
/// for every name layout_listing() lists. row-major: its pitch rule;
/// std64k / std4k: the 2D and 3D standard swizzle patterns (where D3D12 or
/// the 4KB form define one) with their block shapes; a hardware family
/// (FAMILY[:params]): describe_layout (swz/vendor.hpp); pattern:TEXT and a
/// pattern JSON file: the pattern and its block; a resource-layout JSON file:
/// its texture and pattern slots; the listing placeholders "pattern:TEXT" and
/// "FILE.json": how to write them. Errors: invalid_argument for an unknown
/// name, suggesting the closest names (as LayoutName::parse); those of
/// describe_layout and of the pattern parsers.
Status describe_layout_name(std::string_view name, uint32_t element_bytes, std::string* text);

/// The block of pattern `p` in words, as `swz layouts --show` and `swz plot`
/// print it: "512-byte block: 64 bytes (16 elements) x 8 rows", then
/// " x D slices" and " x S samples" when the block has them.
std::string block_extent_text(const Pattern& p, uint32_t element_bytes);

/// Up to `max_count` listed names closest to `name` (edit distance on the part
/// before ':'), closest first: for "did you mean" messages.
std::vector<std::string> closest_layout_names(std::string_view name, size_t max_count = 3);

}  // namespace swz
