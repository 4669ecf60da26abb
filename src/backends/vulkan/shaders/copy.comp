// swz — plain compute copy of words (the baseline the benchmark compares
// with, and Context::record_buffer_copy). Same workgroup shape and batching
// as swizzle.comp: 256 invocations, 2^u consecutive words per workgroup.
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
layout(std430, set = 0, binding = 0) restrict readonly buffer Src { WORD src_w[]; };
layout(std430, set = 0, binding = 1) restrict writeonly buffer Dst { WORD dst_w[]; };
layout(push_constant) uniform PC { uint grid_x, total_wg, u, nwords, src_w0, dst_w0; } pc;

#define BATCH 4

void main() {
  const uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * pc.grid_x;
  if (wg >= pc.total_wg) return;
  const uint lid = gl_LocalInvocationID.x;
  const uint u = pc.u;
  if (u < 8u && lid >= (1u << u)) return;
  const uint base = wg << u;
  const uint iters = u > 8u ? 1u << (u - 8u) : 1u;
  for (uint it0 = 0u; it0 < iters; it0 += BATCH) {
    uint idx[BATCH];
    bool ok[BATCH];
    [[unroll]] for (uint b = 0u; b < BATCH; ++b) {
      const uint it = it0 + b;
      idx[b] = base + (it << 8) + lid;
      ok[b] = it < iters && idx[b] < pc.nwords;
    }
    VAL v[BATCH];
    [[unroll]] for (uint b = 0u; b < BATCH; ++b)
      if (ok[b]) v[b] = TO_VAL(src_w[pc.src_w0 + idx[b]]);
    [[unroll]] for (uint b = 0u; b < BATCH; ++b)
      if (ok[b]) dst_w[pc.dst_w0 + idx[b]] = FROM_VAL(v[b]);
  }
}
