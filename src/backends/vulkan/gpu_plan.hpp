// swz internal — turns one validated subresource region into the parameters
// of one compute dispatch (push constants + a table buffer). Pure C++, no
// Vulkan: the tests mirror the shader's arithmetic (tests/support/gpu_emulate.cpp) so the planner can
// be checked without a device.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "swz/copy.hpp"
#include "swz/layout.hpp"
#include "core/plan.hpp"
#include "swz/status.hpp"

namespace swz::gpu::detail {

constexpr uint32_t kWorkgroupSize = 256;      // local_size_x of both shaders
constexpr unsigned kDefaultWgBytesLog2 = 15;  // 32 KiB per workgroup

/// One subresource box, validated, with byte offsets instead of pointers.
struct GpuRegion {
  const Plan* plan = nullptr;
  uint64_t swz_offset = 0;  ///< absolute byte offset of the subresource in the resource buffer
  uint64_t swz_span = 0;    ///< bytes of the subresource (every address lies in [0, span))
  uint64_t row_pitch = 0, depth_pitch_B = 0, stack_rows = 0;  ///< bytes, bytes (0 when stacked), rows
  uint64_t pre[3] = {0, 0, 0};
  uint32_t sample = 0;
  uint32_t x0 = 0, y0 = 0, z0 = 0, w = 0, h = 0, d = 0;  ///< elements
  uint64_t lin_offset = 0;  ///< absolute byte offset of the box's first element in the linear buffer
  uint64_t lin_span = 0;    ///< bytes the linear side spans
  uint64_t lin_row_pitch = 0, lin_depth_pitch = 0;
  /// A band of a split region (split_bands): the resource bytes the band can
  /// touch, [band_lo, band_lo + band_span) relative to the subresource.
  /// band_span = 0: the whole subresource.
  uint64_t band_lo = 0, band_span = 0;
};

/// Validation of swz::write_to_subresource / read_from_subresource
/// (mirrors src/core/copy.cpp resolve(); box in texels). `empty` = nothing to do.
Status resolve_region(const Layout& layout, uint64_t resource_offset, uint64_t resource_size, uint32_t subresource,
                      const Box* box, uint64_t lin_offset, uint64_t lin_size, uint64_t lin_row_pitch,
                      uint64_t lin_depth_pitch, const char* lin_name, GpuRegion* out, bool* empty);

/// Push constants of swizzle.comp (must match the GLSL block, 4-byte fields).
struct SwizzlePush {
  uint32_t grid_x, total_wg, ntx, nty;
  uint32_t tx0, ty0, tz0, shifts0;  // shifts0: ex | ey<<8 | ez<<16 | n<<24
  uint32_t shifts1, cfg;            // shifts1: txsh | tysh<<8 | tzsh<<16 | q<<24; cfg: parts_log2 | u<<8 | stacked<<16
  uint32_t row_pitch_B, depth_pitch_B;  // resource pitches, bytes
  uint32_t gconst, sample_in, swz_rem_B, lin_rem_B;
  uint32_t lin_rp_B, lin_dp_B, x0_B, xw_B;  // linear pitches; the box's x range, bytes after pre-swizzle
  uint32_t y0, h, z0, d;
  uint32_t stack_rows;
};
static_assert(sizeof(SwizzlePush) == 25 * 4, "push constant layout");

/// Push constants of copy.comp.
struct CopyPush {
  uint32_t grid_x, total_wg, u, nwords, src_w0, dst_w0;
};

/// The table buffer of swizzle.comp: G byte tables of X, Y, Z and the
/// columns of the in-tile chunk index (dx, dy, dz, g) plus the sample part.
struct SwizzleTables {
  uint32_t gtab[3][4][256];
  uint32_t col[32][4];
  uint32_t col_s[32];
};

struct SwizzleDispatch {
  SwizzlePush push{};
  SwizzleTables tables{};
  unsigned word_log2 = 0;  ///< q: loads/stores of 2^q bytes
  uint32_t groups_x = 0, groups_y = 0;
  uint64_t swz_bind_offset = 0, swz_bind_range = 0;  ///< descriptor range of the resource side
  uint64_t lin_bind_offset = 0, lin_bind_range = 0;  ///< descriptor range of the linear side
};

struct DeviceLimits {
  uint64_t max_storage_range = 0xffffffffu;
  uint64_t min_storage_align = 256;
  uint32_t max_groups_x = 65535, max_groups_y = 65535;
  bool word1 = true, word2 = true;  ///< 8-bit / 16-bit storage available
};

/// Splits a region whose subresource or linear box exceeds one storage-buffer
/// binding (or `max_band_B`, when nonzero) into bands of whole block rows,
/// each of which fits; a region that fits comes back as itself. Only 2D
/// boxes (depth 1, not depth-stacked) of patterns whose G stays inside the
/// block (no postamble terms, immediate below the block) can be split, since
/// only then does a band of block rows own a contiguous address window;
/// other oversized regions get Code::unsupported naming the limit. Pure
/// arithmetic: callers check every band before allocating anything.
Status split_bands(const GpuRegion& r, const DeviceLimits& lim, uint64_t max_band_B, std::vector<GpuRegion>* out);

/// Plans the dispatch. `wg_chunks_log2` = 0 picks the default.
Status plan_swizzle(const GpuRegion& r, const DeviceLimits& lim, unsigned wg_chunks_log2, SwizzleDispatch* out);

struct CopyDispatch {
  CopyPush push{};
  unsigned word_log2 = 0;
  uint32_t groups_x = 0, groups_y = 0;
  uint64_t src_bind_offset = 0, src_bind_range = 0, dst_bind_offset = 0, dst_bind_range = 0;
};
Status plan_copy(uint64_t src_offset, uint64_t dst_offset, uint64_t size, const DeviceLimits& lim,
                 unsigned wg_chunks_log2, CopyDispatch* out);

/// Push constants of copy2.comp (must match the GLSL block).
struct CopyPairPush {
  uint32_t grid_x, total_wg, u, pair_wg, a_more;
  uint32_t nwords_a, src_a_w0, dst_a_w0;
  uint32_t nwords_b, src_b_w0, dst_b_w0;
};

/// One copy of a pair: byte offsets in its source and destination buffers
/// and a size, all multiples of 16 (size 0: nothing).
struct CopyRange {
  uint64_t src_offset = 0, dst_offset = 0, size = 0;
};

/// Two copies in one dispatch of copy2.comp, their workgroups alternating.
struct CopyPairDispatch {
  CopyPairPush push{};
  uint32_t groups_x = 0, groups_y = 0;
  uint64_t bind_offset[4] = {}, bind_range[4] = {};  ///< src a, dst a, src b, dst b
};
/// Plans `a` and `b` (either may be empty, not both). Code::invalid_argument
/// for an offset or size that is not a multiple of 16, Code::unsupported for
/// a range past one binding.
Status plan_copy_pair(const CopyRange& a, const CopyRange& b, const DeviceLimits& lim, unsigned wg_chunks_log2,
                      CopyPairDispatch* out);

}  // namespace swz::gpu::detail
