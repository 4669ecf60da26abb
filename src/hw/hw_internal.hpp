// Internal interface of the vendor layouts (include/swz/vendor.hpp).
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "swz/canonicalize.hpp"
#include "swz/layout.hpp"
#include "swz/pattern.hpp"
#include "swz/status.hpp"
#include "swz/vendor.hpp"
#include "core/checked_math.hpp"

namespace swz::vendor {

// ---- spec parameters ("family:key=value,key=value") ------------------------
class Params {
 public:
  static Status parse(std::string_view family, std::string_view text, Params* out);
  bool has(const std::string& key) const { return kv_.count(key) != 0; }
  /// The value of `key` or `def`; marks the key used.
  std::string str(const std::string& key, const std::string& def = "");
  /// Unsigned number (decimal or 0x hex); `present` says whether it was given.
  Status u64(const std::string& key, uint64_t* out, bool* present);
  /// "A/B/C" list of unsigned numbers.
  /// "OFF[@X.Y[.Z]]/..." list of level placements (offset, origin X bytes, Y rows, Z slices).
  Status levels_list(const std::string& key, std::vector<LevelPlacement>* out, bool* present);
  /// A key given without "=value" (a flag).
  bool flag(const std::string& key);
  /// Error naming the first key no family code asked for.
  Status check_all_used() const;
  const std::string& family() const { return family_; }

 private:
  std::string family_;
  std::map<std::string, std::string> kv_;
  std::vector<std::string> order_;
  std::set<std::string> used_;
};

Status parse_number(std::string_view text, const std::string& what, uint64_t* out);

// ---- pattern data (patterns/vendor/*.json) ---------------------------------
struct DataPattern {
  std::vector<uint32_t> element_bytes;  ///< empty = any element size
  Dimension dim = Dimension::Texture2D;
  uint32_t samples = 1;
  std::string config;  ///< "pipes=8" (AMD), "" otherwise
  std::string config_text;
  std::string variant;    ///< "bit6", "v2", "4ch", "8ch", ""
  int compressed = -1;    ///< -1 any, 0 only uncompressed formats, 1 only block-compressed
  std::string bits_text;  ///< as written in the file (addrlib order for "raw")
  bool raw = false;       ///< terms in arbitrary order: canonicalize with `block`
  BlockExtents block{};
  Pattern pattern{};  ///< canonical (validated) pattern
  uint32_t pitch_multiple_texels = 0;
  uint32_t tile_w = 0, tile_h = 0;  ///< Apple: tile texels
  std::string origin;               ///< "from" row of the research table, or the formula it was derived from
};

struct DataFamily {
  std::string name, description, source, placement;
  std::string alias_of;  ///< "alias": the family whose rule this one is under another name ("" when none)
  std::vector<DataPattern> patterns;
};

struct NvGob {
  std::string gob;
  std::vector<uint32_t> element_bytes;  ///< empty = any
  std::vector<BitEntry> bits;           ///< 9 entries, no XOR
  std::string note;
};

struct VendorData {
  std::vector<DataFamily> families;
  std::vector<NvGob> gobs;
  std::string nv_sources;
  std::string fermi_note;
};

/// Loads and checks every embedded vendor file once; errors are internal bugs.
const VendorData& data(Status* status);
const DataFamily* find_family(const VendorData& d, std::string_view name);

// ---- what a family builder produces ----------------------------------------
enum class Arrays {
  Stacked,   ///< layer s at s * layer_stride_B bytes (every level inside the layer)
  ZSlice,    ///< the array slice feeds the Z coordinate (AMD): pre-swizzle Z = s, depth pitch = slice stride
  YRows,     ///< the array slice starts layer_rows rows further down the same surface (Intel QPitch)
  PerLevel,  ///< level-major: slice s of level m at the level's offset + s * LevelPlan::layer_stride_B (Xbox 360)
};

struct LevelPlan {
  int slot = 0;
  uint64_t row_pitch = 0, depth_pitch_B = 0;  ///< bytes
  uint64_t origin[3] = {0, 0, 0};             ///< X bytes, Y rows, Z slices
  uint64_t offset = 0;                        ///< inside the layer
  uint64_t size = 0;                          ///< bytes the level spans from `offset` (one layer)
  uint64_t layer_stride_B = 0;                ///< Arrays::PerLevel: bytes between the level's array slices
};

struct FamilyPlan {
  std::vector<Pattern> patterns;
  std::vector<LevelPlan> levels;
  Arrays arrays = Arrays::Stacked;
  uint64_t layer_stride_B = 0;      ///< Stacked, ZSlice: bytes between array slices
  uint64_t layer_rows = 0;          ///< YRows: rows between array slices (Intel QPitch)
  uint64_t layer_align = 1;         ///< Stacked: alignment of a recomputed layer stride
  uint64_t total_size = 0;          ///< 0 = the end of the last subresource
  bool levels_are_separate = true;  ///< false when levels share one surface (Intel mip layout)
  std::vector<std::string> notes;   ///< for describe_layout
  bool has_amd_info = false;        ///< AMD GFX9-GFX11: amd_info holds addrlib's surface info
  AmdSurfaceInfo amd_info{};
};

struct BuildContext {
  const VendorData& data;
  Params& params;
  const TextureDesc& desc;
};

// Builders (one per "placement" kind).
Status build_nvidia(BuildContext& c, FamilyPlan* out);
Status build_amd(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_intel(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_tiles(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_adreno(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_apple(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_xbox360(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_mali(BuildContext& c, const DataFamily& f, FamilyPlan* out);
/// Console families (src/hw/consoles.cpp): Morton levels ("morton", "vita",
/// "dreamcast") and bottom-up 3DS tiles ("3ds").
Status build_morton(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_vita(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_dreamcast(BuildContext& c, const DataFamily& f, FamilyPlan* out);
Status build_3ds(BuildContext& c, const DataFamily& f, FamilyPlan* out);
/// AMD GFX10/GFX10.3 2D mip chain (src/hw/amd_mips.cpp); slice_size 0 = addrlib's.
Status build_amd_gfx10_mips(const std::string& fam, const Pattern& pat, const TextureDesc& desc, uint64_t slice_size,
                            FamilyPlan* out);
/// AMD GFX10/GFX10.3/GFX11 256-byte-mode 2D mip chain (src/hw/amd_mips.cpp); slice_size 0 = addrlib's.
Status build_amd_gfx10_micro_mips(const std::string& fam, const Pattern& pat, const TextureDesc& desc,
                                  uint64_t slice_size, FamilyPlan* out);
/// AMD chains: a caller's slice_size (0 = none) replaces the chain's size `*chain_B` when it
/// holds the chain and is a multiple of the block; else invalid_argument (src/hw/amd_mips.cpp).
Status amd_take_slice_size(const std::string& fam, uint64_t slice_size, uint64_t block_B, uint64_t* chain_B);

/// Addr2ComputeSurfaceInfo's report as every GFX9-GFX11 chain builder fills it
/// (Gfx9Lib::HwlComputeSurfaceInfoTiled, Gfx10Lib::ComputeSurfaceInfoMacroTiled
/// / MicroTiled): level 0's pitch and height (elements, padded by the caller),
/// the block (`bw` x `bh` elements x `bd` slices; thick when the block holds
/// several depth slices), numSlices (padded to the block depth when thick), one
/// slice of the chain (`chain_B` / `bd` when thick: a thick block's bytes count
/// 1 / blockSlices per slice), surfSize = sliceSize x numSlices, baseAlign and
/// the first level in the mip tail.
AmdSurfaceInfo amd_surface_report(uint64_t pitch_el, uint64_t height_el, uint64_t bw, uint64_t bh, uint64_t bd,
                                  uint64_t num_slices, uint64_t chain_B, uint64_t base_align_B,
                                  uint32_t first_mip_in_tail);

/// True for the AMD modes with pipe/bank XOR terms (names ending in -x or -t).
bool amd_xor_mode(const std::string& fam);
/// AMD GFX9 2D mip chain (src/hw/amd_gfx9_mips.cpp); `pat` carries the pipe/bank XOR immediate.
Status build_amd_gfx9_mips(const std::string& fam, const Pattern& pat, const TextureDesc& desc, uint64_t slice_size,
                           FamilyPlan* out);

// Describers: the pattern(s) for an element size with the spec's parameters.
Status describe_nvidia(const VendorData& d, Params& p, uint32_t element_bytes, std::string* out);
Status describe_data(const VendorData& d, const DataFamily& f, Params& p, uint32_t element_bytes, std::string* out);

// ---- helpers ----------------------------------------------------------------
using swz::detail::align_up;
using swz::detail::ceil_div;
inline bool is_pow2(uint64_t v) { return v && (v & (v - 1)) == 0; }
unsigned log2u(uint64_t v);
uint64_t next_pow2(uint64_t v);

struct LevelDims {
  uint32_t w = 1, h = 1, d = 1;  ///< texels
  uint32_t w_el = 1, h_el = 1;   ///< elements
};
LevelDims level_dims(const TextureDesc& desc, uint32_t mip);

/// Picks the data pattern for the texture (element size, dimension, samples,
/// config, variant, compressed), with an error that lists what the family has.
Status select_pattern(const DataFamily& f, const TextureDesc& desc, const std::string& config,
                      const std::string& variant, const DataPattern** out);
Status select_pattern_for(const DataFamily& f, uint32_t element_bytes, Dimension dim, uint32_t samples, int compressed,
                          const std::string& config, const std::string& variant, const DataPattern** out);

/// Row pitch, depth pitch and size of level m for a plain tiled level: tiles
/// row-major, pitch = tiles across x tile bytes (or `pitch_el` elements).
Status tiled_level(const Pattern& pat, const TextureDesc& desc, uint32_t m, uint64_t pitch_el, const std::string& fam,
                   LevelPlan* lp);

/// Pitches, strides and offsets given as parameters stay below 2^40 (bytes
/// or elements), so that products with rows, tiles and element sizes cannot
/// wrap in 64 bits. Error names the parameter and value.
inline Status check_param_range(const std::string& fam, const char* key, uint64_t v) {
  if (v >> 40)
    return {Code::invalid_argument,
            "layout '" + fam + "': " + key + " = " + std::to_string(v) + " is too large (at most 2^40)"};
  return Status::Ok();
}

/// Block extents of a valid pattern: X bytes, Y, Z, S (log2).
std::array<unsigned, 4> extents_log2(const Pattern& p);

}  // namespace swz::vendor
