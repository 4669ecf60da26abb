// swz — two copies of 16-byte words in one dispatch: the host path's
// pipeline over imported memory uploads band j (host -> device, range a)
// while it downloads band j-2 (device -> host, range b). Two dispatches in a
// row do not overlap on an NVIDIA H200, and even one dispatch that gives the first
// half of its workgroups to one copy and the second half to the other runs
// them mostly one after the other (workgroups start roughly in order); so
// the two copies' workgroups alternate: while both have work left, even
// workgroups serve range a and odd ones range b, the rest goes to the longer.
// Each workgroup moves 2^u consecutive words of its range.
#version 450
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) restrict readonly buffer SrcA { uvec4 src_a[]; };
layout(std430, set = 0, binding = 1) restrict writeonly buffer DstA { uvec4 dst_a[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer SrcB { uvec4 src_b[]; };
layout(std430, set = 0, binding = 3) restrict writeonly buffer DstB { uvec4 dst_b[]; };
layout(push_constant) uniform PC {
  uint grid_x, total_wg, u, pair_wg;  // pair_wg: 2 x the smaller range's workgroups
  uint a_more;                        // 1 when range a has more workgroups than b
  uint nwords_a, src_a_w0, dst_a_w0;
  uint nwords_b, src_b_w0, dst_b_w0;
} pc;

#define BATCH 4

void main() {
  const uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * pc.grid_x;
  if (wg >= pc.total_wg) return;
  bool is_a;
  uint k;
  if (wg < pc.pair_wg) {
    is_a = (wg & 1u) == 0u;
    k = wg >> 1;
  } else {
    is_a = pc.a_more != 0u;
    k = (pc.pair_wg >> 1) + (wg - pc.pair_wg);
  }
  const uint lid = gl_LocalInvocationID.x;
  const uint u = pc.u;
  if (u < 8u && lid >= (1u << u)) return;
  const uint base = k << u;
  const uint iters = u > 8u ? 1u << (u - 8u) : 1u;
  const uint nwords = is_a ? pc.nwords_a : pc.nwords_b;
  const uint s0 = is_a ? pc.src_a_w0 : pc.src_b_w0;
  const uint d0 = is_a ? pc.dst_a_w0 : pc.dst_b_w0;
  for (uint it0 = 0u; it0 < iters; it0 += BATCH) {
    uint idx[BATCH];
    bool ok[BATCH];
    [[unroll]] for (uint b = 0u; b < BATCH; ++b) {
      const uint it = it0 + b;
      idx[b] = base + (it << 8) + lid;
      ok[b] = it < iters && idx[b] < nwords;
    }
    uvec4 v[BATCH];
    [[unroll]] for (uint b = 0u; b < BATCH; ++b)
      if (ok[b]) v[b] = is_a ? src_a[s0 + idx[b]] : src_b[s0 + idx[b]];
    [[unroll]] for (uint b = 0u; b < BATCH; ++b)
      if (ok[b]) {
        if (is_a)
          dst_a[d0 + idx[b]] = v[b];
        else
          dst_b[d0 + idx[b]] = v[b];
      }
  }
}
