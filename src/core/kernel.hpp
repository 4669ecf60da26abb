// swz internal — the one interface every CPU kernel implements.
//
// A Region is one subresource box, fully validated and bounds-checked by the
// copy API before any kernel sees it: every address a kernel computes lies
// inside the resource span and every linear byte inside the linear span.
#pragma once
#include <cstdint>

#include "swz/copy.hpp"
#include "swz/layout.hpp"
#include "core/addresser.hpp"
#include "core/plan.hpp"

namespace swz::detail {

enum class Direction { ToSwizzled, ToLinear };

struct Region {
  const Plan* plan = nullptr;
  uint8_t* swz = nullptr;       ///< resource base + subresource offset
  uint64_t row_pitch = 0;       ///< bytes between rows of blocks
  uint64_t depth_pitch_B = 0;   ///< bytes between slices of blocks (0 when stacked)
  uint64_t stack_rows = 0;      ///< rows between stacked slices; 0 = not stacked
  uint64_t pre[3] = {0, 0, 0};  ///< pre-swizzle X bytes, Y, Z
  uint32_t sample = 0;
  uint32_t x0 = 0, y0 = 0, z0 = 0;  ///< box origin in elements
  uint32_t w = 0, h = 0, d = 0;     ///< box extent in elements (all > 0)
  uint8_t* lin = nullptr;           ///< first byte of the box on the linear side
  uint64_t lin_row_pitch = 0;
  uint64_t lin_depth_pitch = 0;
  bool streaming = false;  ///< use non-temporal stores where the kernel can
  /// The destination is write-combined memory (CopyOptions::write_combined):
  /// besides streaming, swizzles write whole 64-byte lines in address order
  /// where a kernel can (stretches on an aligned resource too).
  bool write_combined = false;
  /// Linear bytes of the whole copy this Region is a part of (a thread's share
  /// is a part): kernels decide automatic streaming on it, never on the part,
  /// so that splitting a copy over threads does not turn streaming off.
  /// 0 = the Region is the whole copy.
  uint64_t copy_bytes = 0;
};

/// A validated copy request: the Region (pointers left null), the subresource's
/// offset and span in the resource, and the bytes the linear side spans.
struct Resolved {
  Region r;
  uint64_t sub_offset = 0;
  uint64_t sub_size = 0;
  uint64_t lin_bytes = 0;
  uint32_t subresource = 0;
  bool empty = false;  ///< empty box: nothing to do
};

/// The checks of write_to_subresource / read_from_subresource (D3D12 rules,
/// box in texels, pitches, buffer sizes), shared by the CPU and GPU paths so
/// that both accept and refuse exactly the same requests.
Status resolve_region(const Layout& layout, uint64_t resource_size, uint32_t subresource, const Box* box,
                      uint64_t lin_size, uint64_t lin_row_pitch, uint64_t lin_depth_pitch, const char* lin_name,
                      Resolved* out);

/// The overlap rule (core/request.hpp) for one resolved copy: the linear
/// bytes the box spans and the subresource's span in the resource share no
/// byte. `linear_written`: the linear side is the destination.
Status check_copy_memory(const void* resource, const Resolved& res, const void* lin, const char* lin_name,
                         bool linear_written);

/// Adjusted coordinates of element row (y, z): y' and z' after pre-swizzle
/// and stacking (the rule of core/addresser.hpp).
inline void adjust_yz(const Region& r, uint64_t y, uint64_t z, uint64_t* yo, uint64_t* zo) {
  const Adjusted a = Frame::adjust(r.pre, r.stack_rows, 0, y, z);
  *yo = a.y;
  *zo = a.z;
}

/// Copies n bytes from `src` (typically write-combined, uncached memory) to
/// `dst` with 16-byte streaming loads (SSE4.1 movntdqa) where the CPU has
/// them, else memcpy; `threads` > 1 splits the copy into contiguous parts.
/// read_from_subresource with CopyOptions::write_combined copies the
/// subresource out with it, then converts from the cached copy.
/// Implemented in src/backends/simd/stream_load.cpp.
void stream_load_copy(void* dst, const void* src, uint64_t n, unsigned threads);

/// Plain per-run scalar tiler over the plan's tables (the fallback backend).
void scalar_copy(const Region& r, Direction dir);

// The SIMD kernels: Highway (src/backends/highway, runtime dispatch) and the
// compact xsimd run-copy kernel (src/backends/xsimd). Same contract as
// scalar_copy; never allocate.
#ifdef SWZ_HAVE_HIGHWAY
void highway_copy(const Region& r, Direction dir);
#endif
#ifdef SWZ_HAVE_XSIMD
void xsimd_copy(const Region& r, Direction dir);
#endif

}  // namespace swz::detail
