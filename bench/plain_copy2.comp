// Two plain copies of equal size in one dispatch (swz_bench_bus): even
// workgroups copy src_a -> dst_a, odd ones src_b -> dst_b (interleaved, so
// that both run at once: workgroups start roughly in order); one 16-byte
// load and store per invocation, exact grid.
#version 450
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) restrict readonly buffer SrcA { uvec4 src_a[]; };
layout(std430, set = 0, binding = 1) restrict writeonly buffer DstA { uvec4 dst_a[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer SrcB { uvec4 src_b[]; };
layout(std430, set = 0, binding = 3) restrict writeonly buffer DstB { uvec4 dst_b[]; };
layout(push_constant) uniform PC { uint grid_x, split; } pc;
void main() {
  const uint wg = gl_WorkGroupID.y * pc.grid_x + gl_WorkGroupID.x;
  const uint i = ((wg >> 1) << 8) + gl_LocalInvocationID.x;
  if ((wg & 1u) == 0u)
    dst_a[i] = src_a[i];
  else
    dst_b[i] = src_b[i];
}
