// swz internal — what the SIMD kernels derive from a Region and its Plan once
// per call: run size, address mode, the strip and chunk shape, the per-row
// and per-column parts of the address. Plain C++ (no SIMD), shared by the
// Highway and xsimd kernels. Never allocates.
//
// Address of the aligned run at adjusted byte column xb of adjusted row (y,z):
//   off = (rb + cb) ^ (gy ^ gx)
//   rb = (y >> ey) * row_pitch + (z >> ez) * depth_pitch     (row part, bytes)
//   gy = immediate ^ g(1,y) ^ g(2,z) ^ g(3,s)                (row part of G)
//   cb = (xb >> ex) * block_bytes                            (column part)
//   gx = g(0, xb)                                            (column part of G)
// Both rb and cb are multiples of the block size, so when G has no bits at
// or above the block (high_mask == 0) the XOR is an OR and off = rb + cb +
// (gy ^ gx); when, in addition, the column and row parts of G touch disjoint
// address bits, off = (rb + gy) + (cb + gx): one add per run ("Add" mode).
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "core/kernel.hpp"

namespace swz::detail::simd {

/// Bytes of the CPU's level-3 cache as the OS reports it (sysconf, else
/// sysfs), read once per process; 0 when unknown.
uint64_t last_level_cache_bytes();
/// The streaming threshold for a level-3 cache of `l3_bytes`: a sixteenth of
/// it, at least 12 MiB (also when the size is unknown) and at most 32 MiB.
constexpr uint64_t stream_min_bytes_for_l3(uint64_t l3_bytes) {
  return std::clamp<uint64_t>(l3_bytes / 16, uint64_t{12} << 20, uint64_t{32} << 20);
}

/// Knobs the benchmarks sweep (SWZ_MATRIX_TUNE, bench/matrix_ab.py); the
/// defaults are the fastest found with swz_bench_matrix.
struct Tuning {
  /// Rows of a strip when swizzling: the Y (and Z) primaries among the
  /// lowest `swizzle_strip_bits` address bits; 0 = automatic (the bits above
  /// the run up to the next X primary, at least the 64-byte line).
  unsigned swizzle_strip_bits = 0;
  /// Same when deswizzling.
  unsigned deswizzle_strip_bits = 0;
  /// Use the 64-byte line kernels (four 16-byte runs assembled in registers).
  bool line_kernels = true;
  /// Maximum bytes of x in a chunk (the columns whose addresses are tabled at once).
  unsigned chunk_bytes = 2048;
  /// Streaming (non-temporal) stores are used when the Region asks for them
  /// (write-combined destination) or when the box holds at least this many
  /// bytes, counted over the whole copy (Region::copy_bytes), never over one
  /// thread's part. The default follows the last-level cache,
  /// stream_min_bytes_for_l3(): on a 32 MiB L3, 8 MiB copies run as fast or
  /// faster with regular stores and 16 MiB ones 2x faster streaming; on a
  /// 480 MiB L3, 16 MiB copies run 2-3x faster with regular stores and 64 MiB
  /// ones 1.2-1.5x faster streaming.
  uint64_t stream_min_bytes = stream_min_bytes_for_l3(last_level_cache_bytes());
  /// Deswizzle walks the blocks that lie wholly inside the box in memory
  /// order (TileDeswizzle in walker-inl.h) ...
  bool tile_walk = true;
  /// ... when they hold at least this many bytes (and at least two blocks).
  uint64_t tile_walk_min_bytes = 0;
  /// ... and, unless the copy streams, when a block's rows span less than
  /// this many linear bytes (TLB reach of 4 KiB pages; bench_matrix 512²).
  uint64_t tile_walk_max_span_bytes = uint64_t{256} << 10;
  /// ... or else, for the separable form of 2D blocks, in bands of at most
  /// 2^tile_band_rows_log2 block rows that stay within that span (0: not at
  /// all) ...
  unsigned tile_band_rows_log2 = 10;
  /// ... but at most 2^tile_band_rows_big_log2 rows when the whole copy
  /// (Region::copy_bytes) holds at least tile_band_big_min_bytes and does not
  /// stream (past the L2, from the L3): NVIDIA R8 4096² (16 MiB, rows 4 KiB
  /// apart) deswizzles faster in bands of 16 rows than of 64 or of 8.
  unsigned tile_band_rows_big_log2 = 4;
  uint64_t tile_band_big_min_bytes = uint64_t{8} << 20;
  /// ... and, for the standard swizzles' shape (q4), in cache too (else
  /// only when the copy streams).
  bool tile_walk_q4_cache = false;
  /// ... and, for patterns whose X and Y/Z parts of G overlap (XOR terms:
  /// AMD), also onto linear rows that are not 64-byte aligned (else the strip
  /// walker takes those): amd-gfx9-sw64k-s-x RGBA8 deswizzles onto 16 mod 64
  /// rows run faster through the strip walker at 512², 4096² and 8192²; onto
  /// aligned rows the block walk is the faster.
  bool tile_walk_xor_misaligned = false;
  /// Swizzle onto a resource at 16/32/48 mod 64 in stretches of aligned
  /// 64-byte lines (StretchSwizzle, stretch_swizzle-inl.h) ...
  bool stretch_swizzle = true;
  /// ... also on a 64-byte aligned resource (always for the general line
  /// shape, Geo::gl);
  bool stretch_aligned = false;
  /// ... stretches of at most 2^stretch_rows_log2 linear rows;
  unsigned stretch_rows_log2 = 5;
  /// ... and, unless the copy streams, stretches of at most 2^this bytes;
  unsigned stretch_cache_max_log2 = 12;
  /// ... prefetching the linear rows of the stretch this many ahead (0: none);
  unsigned stretch_prefetch = 0;
  /// ... and this many ahead when the copy streams (0: none). Off: 4 ahead is
  /// faster on some CPUs (8192² RGBA8 on a 2-vCPU Xeon) but slower on others
  /// (most 8192² cells on a 16-vCPU Xeon).
  unsigned stretch_prefetch_stream = 0;
  /// ... the lines of a stretch that read the same linear 64-byte lines one
  /// after the other where its rows share L1 sets (UnitWalk::qm), else in
  /// address order.
  bool stretch_line_order = true;
};

/// Bytes of the box of a Region (linear side, without padding).
inline uint64_t region_bytes(const Region& r) { return uint64_t{r.w} * r.plan->element_bytes * r.h * r.d; }
/// Whether a Region streams: asked for (write-combined destination), or the
/// whole copy it belongs to (not this thread's part of it) is at least
/// Tuning::stream_min_bytes.
bool auto_streaming(const Region& r);
Tuning& tuning();

enum class Mode { Add, Or, Xor };

struct Geo {
  const Plan* p = nullptr;
  uint64_t R = 1;             ///< run bytes
  unsigned rl = 0;            ///< log2(R)
  unsigned ex = 0;            ///< block X extent, log2 bytes
  uint64_t B = 1;             ///< block bytes
  uint64_t xa0 = 0, xa1 = 0;  ///< adjusted byte range of the box's rows
  Mode mode = Mode::Xor;
  /// 64-byte destination lines are four consecutive aligned rows (Y0 -> address
  /// bit 4, Y1 -> bit 5, nothing else on bits 4..5, 16-byte runs).
  bool q4 = false;
  /// General line shape (when not q4): address bits 4 and 5 each come from
  /// exactly one coordinate bit, Y (a strip row) or X (a run column), and
  /// nothing else touches them; piece k of a 64-byte line (k = bit4 + 2*bit5)
  /// is the run at strip row base + gl_row[k], run base + gl_col[k].
  bool gl = false;
  uint32_t gl_row[4] = {0, 0, 0, 0}, gl_col[4] = {0, 0, 0, 0};
  uint32_t gl_row_mask = 0, gl_col_mask = 0;  ///< bits of a line's base row / run index that are 0
  unsigned gl_y_bits = 0;                     ///< the strip must hold Y bits below this
  uint32_t gs = 0;                            ///< immediate ^ g(3, sample)
};

inline Geo make_geo(const Region& r) {
  const Plan& p = *r.plan;
  Geo g;
  g.p = &p;
  g.rl = p.run_log2;
  g.R = uint64_t{1} << g.rl;
  g.ex = p.ext_log2[0];
  g.B = p.block_bytes;
  g.xa0 = uint64_t{r.x0} * p.element_bytes + r.pre[0];
  g.xa1 = g.xa0 + uint64_t{r.w} * p.element_bytes;
  g.gs = p.immediate ^ p.g(3, r.sample);
  // Which G bits can the columns (aligned runs) and the rows produce? (One
  // pass over the plan's 128 masks: this runs on every call.)
  uint32_t xm = 0, ym = p.immediate, y01 = 0;
  for (unsigned b = g.rl; b < 32; ++b) xm |= p.lin[0][b];
  for (unsigned b = 2; b < 32; ++b) ym |= p.lin[1][b] | p.lin[2][b] | p.lin[3][b];
  ym |= p.lin[2][0] | p.lin[2][1] | p.lin[3][0] | p.lin[3][1];
  y01 = p.lin[1][0] | p.lin[1][1];
  if (p.high_mask != 0)
    g.mode = Mode::Xor;
  else if ((xm & (ym | y01)) == 0)
    g.mode = Mode::Add;
  else
    g.mode = Mode::Or;
  // q4: nothing but Y0 / Y1 touches address bits 4..5 (X bits below the run
  // are the identity on bits 0..3).
  const bool q4 = g.rl == 4 && p.block_bits >= 6 && p.lin[1][0] == 16u && p.lin[1][1] == 32u && ((xm | ym) & 48u) == 0;
  g.q4 = q4;
  if (!q4 && g.rl == 4 && p.block_bits >= 6 && (p.immediate & 48u) == 0) {
    int src_c[2] = {-1, -1}, src_b[2] = {-1, -1};
    bool ok = true;
    for (unsigned c = 0; c < 4 && ok; ++c)
      for (unsigned b = 0; b < 32 && ok; ++b) {
        const uint32_t m = p.lin[c][b];
        if (!(m & 48u)) continue;
        if (c > 1 || (m != 16u && m != 32u)) {
          ok = false;
          break;
        }
        const int i = m == 16u ? 0 : 1;
        if (src_c[i] >= 0) ok = false;
        src_c[i] = static_cast<int>(c);
        src_b[i] = static_cast<int>(b);
      }
    if (ok && src_c[0] >= 0 && src_c[1] >= 0) {
      uint32_t dr[2] = {0, 0}, dc[2] = {0, 0};
      for (int i = 0; i < 2; ++i) {
        if (src_c[i] == 1) {
          dr[i] = 1u << src_b[i];
          g.gl_row_mask |= dr[i];
          g.gl_y_bits = std::max(g.gl_y_bits, static_cast<unsigned>(src_b[i]) + 1);
        } else {
          dc[i] = 1u << (src_b[i] - 4);
          g.gl_col_mask |= dc[i];
        }
      }
      for (unsigned k = 0; k < 4; ++k) {
        g.gl_row[k] = ((k & 1) ? dr[0] : 0) + ((k & 2) ? dr[1] : 0);
        g.gl_col[k] = ((k & 1) ? dc[0] : 0) + ((k & 2) ? dc[1] : 0);
      }
      // a line's runs must lie within one chunk (chunks hold >= 4 runs)
      g.gl = g.gl_y_bits <= 6 && g.gl_col_mask < 64;
    }
  }
  return g;
}

/// Per-row part of the address, in the mode's form: Add -> a = rb + gy;
/// Or/Xor -> a = rb, gg = gy.
struct RowPart {
  uint64_t a;
  uint32_t gg;
};
/// Per-column part: Add -> a = cb + gx; Or/Xor -> a = cb, gg = gx.
struct ColPart {
  uint64_t a;
  uint32_t gg;
};

/// Adjusted (y, z) of box row (dy, dz).
inline void adjusted_row(const Region& r, uint32_t dy, uint32_t dz, uint64_t* y, uint64_t* z) {
  adjust_yz(r, uint64_t{r.y0} + dy, uint64_t{r.z0} + dz, y, z);
}

inline RowPart row_part(const Region& r, const Geo& g, uint64_t y, uint64_t z) {
  const Plan& p = *g.p;
  const uint64_t rb = (y >> p.ext_log2[1]) * r.row_pitch + (z >> p.ext_log2[2]) * r.depth_pitch_B;
  const uint32_t gy = g.gs ^ p.g(1, static_cast<uint32_t>(y)) ^ p.g(2, static_cast<uint32_t>(z));
  if (g.mode == Mode::Add) return {rb + gy, 0};
  return {rb, gy};
}

inline ColPart col_part(const Geo& g, uint64_t xb) {
  const uint64_t cb = (xb >> g.ex) * g.B;
  const uint32_t gx = g.p->g(0, static_cast<uint32_t>(xb));
  if (g.mode == Mode::Add) return {cb + gx, 0};
  return {cb, gx};
}

template <Mode M>
inline uint64_t addr(RowPart r, ColPart c) {
  if constexpr (M == Mode::Add)
    return r.a + c.a;
  else if constexpr (M == Mode::Or)
    return (r.a + c.a) + (r.gg ^ c.gg);
  else
    return (r.a + c.a) ^ static_cast<uint64_t>(r.gg ^ c.gg);
}

inline uint64_t addr_rt(Mode m, RowPart r, ColPart c) {
  switch (m) {
    case Mode::Add:
      return addr<Mode::Add>(r, c);
    case Mode::Or:
      return addr<Mode::Or>(r, c);
    default:
      return addr<Mode::Xor>(r, c);
  }
}

/// Copies the bytes [x, e) of one row, e <= the end of x's run: the piece is
/// contiguous on both sides (a partial run at a box edge). lin_row points at
/// the box's first byte of that row.
inline void copy_piece(const Region& r, const Geo& g, RowPart rp, uint8_t* lin_row, uint64_t x, uint64_t e,
                       Direction dir) {
  const uint64_t xa = x & ~(g.R - 1);
  const uint64_t off = addr_rt(g.mode, rp, col_part(g, xa)) + (x - xa);
  if (dir == Direction::ToSwizzled)
    std::memcpy(r.swz + off, lin_row + (x - g.xa0), e - x);
  else
    std::memcpy(lin_row + (x - g.xa0), r.swz + off, e - x);
}

template <class F, size_t... L>
inline __attribute__((always_inline)) void with_run_bytes_of(unsigned rl, F&& f, std::index_sequence<L...>) {
  if (!((rl == L ? (f(std::integral_constant<size_t, size_t{1} << L>()), true) : false) || ...))
    f(std::integral_constant<size_t, 0>());
}

/// Calls f(std::integral_constant<size_t, N>()) with the run length as a
/// compile-time constant: N = 2^rl for runs of 1..32 bytes (rl = Geo::rl <=
/// 5), N = 0 for longer runs (a runtime length, a multiple of 64). The one
/// place that turns Geo::rl into a kernel's template argument; it sits
/// outside the per-run loops (once per chunk).
template <class F>
inline __attribute__((always_inline)) void with_run_bytes(unsigned rl, F&& f) {
  with_run_bytes_of(rl, f, std::make_index_sequence<6>());
}

}  // namespace swz::detail::simd

namespace swz::detail {
/// Name of the Highway target the dispatcher picks on this machine ("AVX3", "AVX2", ...).
const char* highway_target_name();
/// Name of the architecture the xsimd kernel was compiled for ("sse2", "neon64", ...).
const char* xsimd_arch_name();
}  // namespace swz::detail
