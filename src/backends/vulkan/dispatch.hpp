// swz internal — recording one compute dispatch with push descriptors, shared
// by the GPU path (context.cpp) and the plain-copy baseline of
// bench/bench_gpu.cpp, so that both are recorded the same way.
#pragma once
#include <vulkan/vulkan.h>

#include <cstdint>

namespace swz::gpu::detail {

/// The bindings of swizzle.comp that are uniform buffers (the pattern
/// tables, binding 2: read at workgroup-uniform addresses, so through the
/// constant cache); the others are storage buffers.
constexpr uint32_t kSwizzleUniformMask = 1u << 2;

/// The descriptor type of binding i under `uniform_mask` (set layouts and pushes agree through this).
constexpr VkDescriptorType buffer_descriptor_type(uint32_t uniform_mask, uint32_t i) {
  return (uniform_mask >> i) & 1u ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

/// Binds `pipe`, pushes buffer descriptors 0..n-1 (infos, n <= 4; a uniform
/// buffer where `uniform_mask` has the binding's bit, else a storage buffer)
/// and `push_bytes` of push constants, and records one dispatch of gx x gy
/// workgroups. `push_desc` is the device's vkCmdPushDescriptorSetKHR.
inline void bind_and_dispatch(PFN_vkCmdPushDescriptorSetKHR push_desc, VkCommandBuffer cb, VkPipeline pipe,
                              VkPipelineLayout layout, const VkDescriptorBufferInfo* const* infos, uint32_t n,
                              const void* push_data, uint32_t push_bytes, uint32_t gx, uint32_t gy,
                              uint32_t uniform_mask = 0) {
  VkWriteDescriptorSet w[4]{};
  for (uint32_t i = 0; i < n && i < 4; ++i) {
    w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w[i].dstBinding = i;
    w[i].descriptorCount = 1;
    w[i].descriptorType = buffer_descriptor_type(uniform_mask, i);
    w[i].pBufferInfo = infos[i];
  }
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
  push_desc(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, n < 4 ? n : 4, w);
  vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push_data);
  vkCmdDispatch(cb, gx, gy, 1);
}

}  // namespace swz::gpu::detail
