// swz — linear <-> swizzled conversion of one subresource box (one dispatch).
// Compiled once per word size (WORD_BYTES = 1, 2, 4, 8, 16); the direction is
// a specialization constant. The host side (src/backends/vulkan/gpu_plan.cpp)
// explains the tile enumeration; emulate() there mirrors this file line for
// line.
#version 450
#extension GL_EXT_control_flow_attributes : require
#if WORD_BYTES == 1
#extension GL_EXT_shader_8bit_storage : require
#define WORD uint8_t
#define VAL uint
#define TO_VAL(v) uint(v)
#define FROM_VAL(v) uint8_t(v)
#elif WORD_BYTES == 2
#extension GL_EXT_shader_16bit_storage : require
#define WORD uint16_t
#define VAL uint
#define TO_VAL(v) uint(v)
#define FROM_VAL(v) uint16_t(v)
#elif WORD_BYTES == 4
#define WORD uint
#define VAL uint
#elif WORD_BYTES == 8
#define WORD uvec2
#define VAL uvec2
#elif WORD_BYTES == 16
#define WORD uvec4
#define VAL uvec4
#else
#error WORD_BYTES must be 1, 2, 4, 8 or 16
#endif
#ifndef TO_VAL
#define TO_VAL(v) (v)
#define FROM_VAL(v) (v)
#endif

layout(local_size_x = 256) in;
layout(constant_id = 0) const uint DIR = 0;  // 0: linear -> swizzled, 1: swizzled -> linear

layout(std430, set = 0, binding = 0) restrict readonly buffer Src { WORD src_w[]; };
layout(std430, set = 0, binding = 1) restrict writeonly buffer Dst { WORD dst_w[]; };
// The pattern tables (gpu_plan.hpp SwizzleTables), a uniform buffer: every
// read is at a workgroup-uniform index, which the constant cache serves
// without the load/store unit. std140 arrays have a 16-byte stride, so the
// uint arrays are read as uvec4 components (the bytes are the same).
layout(std140, set = 0, binding = 2) uniform Tab {
  uvec4 gtab4[3 * 4 * 256 / 4];
  uvec4 col[32];
  uvec4 col_s4[32 / 4];
};
#define GTAB(i) gtab4[(i) >> 2][(i) & 3u]
#define COL_S(i) col_s4[(i) >> 2][(i) & 3u]

layout(push_constant) uniform PC {
  uint grid_x, total_wg, ntx, nty;
  uint tx0, ty0, tz0, shifts0;
  uint shifts1, cfg, row_pitch_B, depth_pitch_B;
  uint gconst, sample_in, swz_rem_B, lin_rem_B;
  uint lin_rp_B, lin_dp_B, x0_B, xw_B;
  uint y0, h, z0, d;
  uint stack_rows;
} pc;

uint G3(uint c, uint v) {
  uint b = c * 1024u;
  return GTAB(b + (v & 255u)) ^ GTAB(b + 256u + ((v >> 8) & 255u)) ^ GTAB(b + 512u + ((v >> 16) & 255u)) ^
         GTAB(b + 768u + (v >> 24));
}

#ifndef BATCH
#define BATCH 4
#endif

void main() {
  const uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * pc.grid_x;
  if (wg >= pc.total_wg) return;
  const uint ex = pc.shifts0 & 255u, ey = (pc.shifts0 >> 8) & 255u, ez = (pc.shifts0 >> 16) & 255u, n = pc.shifts0 >> 24;
  const uint txsh = pc.shifts1 & 255u, tysh = (pc.shifts1 >> 8) & 255u, tzsh = (pc.shifts1 >> 16) & 255u, q = pc.shifts1 >> 24;
  const uint parts_log2 = pc.cfg & 255u, u = (pc.cfg >> 8) & 255u;
  const bool stacked = ((pc.cfg >> 16) & 1u) != 0u;
  const uint lid = gl_LocalInvocationID.x;
  if (u < 8u && lid >= (1u << u)) return;

  const uint part = wg & ((1u << parts_log2) - 1u);
  const uint tile = wg >> parts_log2;
  const uint tx = tile % pc.ntx, t2 = tile / pc.ntx, ty = t2 % pc.nty, tz = t2 / pc.nty;
  const uint xt = (pc.tx0 + tx) << txsh;
  uint yb, yt, zt;
  if (stacked) {
    yb = pc.y0 + tz * pc.stack_rows;
    yt = ((yb >> tysh) + ty) << tysh;
    zt = 0u;
  } else {
    yb = pc.y0;
    yt = (pc.ty0 + ty) << tysh;
    zt = (pc.tz0 + tz) << tzsh;
  }
  const uint gt = pc.gconst ^ G3(0u, xt) ^ G3(1u, yt) ^ G3(2u, zt);

  // Columns of this invocation's bits (lane) and of the workgroup's part.
  uvec4 L = uvec4(0u);
  uint Ls = 0u;
  const uint lb = min(u, 8u);
  // Unrolled with constant indices: the eight columns are constant-bank
  // operands instead of a chain of dependent loads at each workgroup's start.
  [[unroll]] for (uint i = 0u; i < 8u; ++i)
    if (i < lb && ((lid >> i) & 1u) != 0u) { L ^= col[i]; Ls ^= COL_S(i); }
  uvec4 H = uvec4(0u);
  uint Hs = 0u;
  for (uint i = 0u; i < parts_log2; ++i)
    if (((part >> i) & 1u) != 0u) { H ^= col[u + i]; Hs ^= COL_S(u + i); }

  const uint iters = u > 8u ? 1u << (u - 8u) : 1u;
  for (uint it0 = 0u; it0 < iters; it0 += BATCH) {
    uint sidx[BATCH];
    uint lidx[BATCH];
    bool ok[BATCH];
    [[unroll]] for (uint b = 0u; b < BATCH; ++b) {
      const uint it = it0 + b;
      // Gray-code order: iteration it visits chunk bits 8.. = it ^ (it >> 1).
      if (it > 0u && it < iters) { const uint bit = findLSB(it) + 8u; H ^= col[bit]; Hs ^= COL_S(bit); }
      const uvec4 c = L ^ H;
      const uint x = xt | c.x, y = yt | c.y, z = zt | c.z;
      const uint row = y - yb;
      const uint sl = stacked ? tz : z - pc.z0;
      const uint xr = x - pc.x0_B;
      ok[b] = it < iters && (Ls ^ Hs) == pc.sample_in && row < pc.h && sl < pc.d && xr < pc.xw_B;
      const uint off = (((x >> ex) << n) + (y >> ey) * pc.row_pitch_B + (z >> ez) * pc.depth_pitch_B) ^ (gt ^ c.w);
      sidx[b] = (pc.swz_rem_B + off) >> q;
      lidx[b] = (pc.lin_rem_B + xr + row * pc.lin_rp_B + sl * pc.lin_dp_B) >> q;
#ifdef SWZ_DIAG_IDENTITY
      // benchmark diagnostic only: the same work, contiguous words on both sides
      sidx[b] = lidx[b] = (wg << u) + (it << 8) + lid;
#endif
    }
    VAL v[BATCH];
    [[unroll]] for (uint b = 0u; b < BATCH; ++b)
      if (ok[b]) v[b] = TO_VAL(src_w[DIR == 0u ? lidx[b] : sidx[b]]);
    [[unroll]] for (uint b = 0u; b < BATCH; ++b)
      if (ok[b]) dst_w[DIR == 0u ? sidx[b] : lidx[b]] = FROM_VAL(v[b]);
  }
}
