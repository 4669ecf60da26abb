// The benchmark's reference: a plain compute-shader copy. One 16-byte load
// and one 16-byte store per invocation, an exact grid (the word count is a
// multiple of 256 and the grid has exactly words / 256 workgroups), no loop,
// no bounds check.
#version 450
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) restrict readonly buffer Src { uvec4 src_w[]; };
layout(std430, set = 0, binding = 1) restrict writeonly buffer Dst { uvec4 dst_w[]; };
layout(push_constant) uniform PC { uint grid_x; } pc;
void main() {
  const uint i = ((gl_WorkGroupID.y * pc.grid_x + gl_WorkGroupID.x) << 8) + gl_LocalInvocationID.x;
  dst_w[i] = src_w[i];
}
