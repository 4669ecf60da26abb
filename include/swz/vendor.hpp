// swz — real vendor layouts by name, as pattern data on the shared engine.
//
// A layout spec is "family" or "family:key=value,key=value", for example
//   nv-block-linear:gob=tegra,bh=16,bd=1    NVIDIA block linear (Switch GOBs)
//   intel-tile4                              Intel Tile4
//   amd-gfx10.3-sw64k-r-x:pipes=8,pbxor=3    AMD addrlib SW_64KB_R_X
// Every family builds an explicit Layout (make_explicit_layout): one pattern
// per distinct block shape, and per subresource an offset, pitches and a
// coordinate origin. Nothing here has a kernel of its own: copies, offsets and
// locate go through the core. The bit equations live in patterns/vendor/*.json
// (embedded at build time), each entry citing its public source; the research
// behind them is summarised in patterns/vendor/README.md.
//
// Parameters every family accepts (containers that store levels their own way):
//   offsets=A/B/C...   byte offset of each mip level inside an array layer
//                      (replaces the family's own placement of the levels);
//                      "B@X.Y.Z" also gives the level's origin inside a
//                      mip-tail block (X bytes, Y element rows, Z slices)
//   mip_align=N        align each level's offset up to N bytes
//   layer_stride=N     bytes between array layers (families that stack layers)
//   base=N             byte offset of the whole texture in the resource
// Numbers are decimal or 0x hex.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz {

/// One family of named layouts, for listings (`swz layouts`).
struct LayoutFamily {
  std::string name;         ///< as written before ':' ("nv-block-linear")
  std::string parameters;   ///< "gob=tegra|turing|blackwell, bh=1..32, ..." ("" when none)
  std::string description;  ///< one or two sentences
  std::string source;       ///< public sources of the bit equations and rules
};

/// Every family, in listing order.
const std::vector<LayoutFamily>& layout_families();

/// True when `spec`'s family name (the text before ':') is a known family.
bool is_named_layout(std::string_view spec);

/// Per-level placement given by a caller (a container format or a driver
/// query): the level's byte offset inside an array layer and, for levels packed
/// into a mip tail, the level's origin inside the tail block (X in bytes, Y in
/// element rows, Z in slices).
struct LevelPlacement {
  uint64_t offset = 0;
  uint64_t origin[3] = {0, 0, 0};
};

struct NamedLayoutOptions {
  /// Empty, or one entry per mip level: replaces the family's level placement
  /// (same as the spec's offsets=, plus origins).
  std::vector<LevelPlacement> levels;
};

/// Builds the layout `spec` names for `desc`. Errors name the parameter and
/// value (unknown family or key, a value out of range, an element size or
/// dimension the family does not define).
Status make_named_layout(std::string_view spec, const TextureDesc& desc, Layout* out);
Status make_named_layout(std::string_view spec, const TextureDesc& desc, const NamedLayoutOptions& options,
                         Layout* out);

/// The bit equation(s) `spec` uses for elements of `element_bytes` bytes, as
/// text (one pattern per line, "X0 X1 ... " address bit 0 first, with the block
/// shape and how blocks and levels are placed). Parameters that depend on the
/// surface (an omitted NVIDIA block height, for example) use the family's
/// default and say so.
Status describe_layout(std::string_view spec, uint32_t element_bytes, std::string* bit_equation);

/// What addrlib's Addr2ComputeSurfaceInfo reports for an AMD GFX9, GFX10,
/// GFX10.3 or GFX11 surface (families amd-gfx9-* .. amd-gfx11-*), computed
/// with addrlib's rules (src/hw/amd_mips.cpp, src/hw/amd_gfx9_mips.cpp):
/// the fields carry addrlib's names. Sizes in elements are of block-compressed
/// blocks for BC formats.
struct AmdSurfaceInfo {
  uint64_t pitch_el = 0;         ///< pitch: level 0's padded width
  uint64_t height_el = 0;        ///< height: level 0's padded height
  uint64_t chain_pitch_el = 0;   ///< mipChainPitch (GFX9: the chain's width; 0 on GFX10+, as addrlib)
  uint64_t chain_height_el = 0;  ///< mipChainHeight (GFX9: the chain's height; 0 on GFX10+)
  uint64_t num_slices = 0;       ///< numSlices: array slices, or the depth padded to the block (thick 3D)
  uint64_t slice_size_B = 0;     ///< sliceSize: one array or depth slice of the whole mip chain
  uint64_t surf_size_B = 0;      ///< surfSize = sliceSize x numSlices
  uint64_t base_align_B = 0;     ///< baseAlign
  uint32_t block_w_el = 0, block_h_el = 0, block_d = 0;  ///< blockWidth, blockHeight, blockSlices
  uint32_t first_mip_in_tail = 0;                         ///< firstMipIdInTail (mip_levels when none)
  bool thick = false;                                     ///< 3D with the depth inside the block (IsThick)
};

/// The surface info for `spec` (an amd-gfx9-* .. amd-gfx11-* family, with its
/// parameters) and `desc`; unsupported for other families and for layouts
/// placed from outside (offsets=, pitches=).
Status amd_surface_info(std::string_view spec, const TextureDesc& desc, AmdSurfaceInfo* out);

}  // namespace swz
