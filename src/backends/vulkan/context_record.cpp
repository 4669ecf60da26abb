// Context::Impl: shader modules and pipelines, recording of the swizzle and
// copy dispatches, submission; and the recording entry points of Context.
#include <new>
#include <string>
#include <vector>

#include "backends/vulkan/context_impl.hpp"
#include "core/parse_number.hpp"
#include "core/request.hpp"

namespace swz::gpu {

namespace detail {
const uint32_t* embedded_spirv(const char* name, size_t* size);
}

Status Context::Impl::module(bool copy, unsigned q, VkShaderModule* out) {
  VkShaderModule& m = copy ? copy_mod[q] : swz_mod[q];
  if (!m) SWZ_TRY(embedded_module(std::string(copy ? "copy" : "swizzle") + "_w" + std::to_string(1u << q) + ".spv", &m));
  *out = m;
  return Status::Ok();
}

// A shader module from the embedded SPIR-V file `name`.
Status Context::Impl::embedded_module(const std::string& name, VkShaderModule* out) {
  size_t size = 0;
  const uint32_t* code = detail::embedded_spirv(name.c_str(), &size);
  if (!code) return {Code::internal, "GPU path: SPIR-V " + name + " is not embedded"};
  VkShaderModuleCreateInfo ci = vk_init<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  ci.codeSize = size;
  ci.pCode = code;
  SWZ_VK(vkCreateShaderModule(device, &ci, nullptr, out), "vkCreateShaderModule");
  return Status::Ok();
}

// A compute pipeline of `m` (entry point main) under `layout`.
Status Context::Impl::compute_pipeline(VkShaderModule m, VkPipelineLayout layout, const VkSpecializationInfo* si,
                                       VkPipeline* out) {
  VkComputePipelineCreateInfo ci = vk_init<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = m;
  ci.stage.pName = "main";
  ci.stage.pSpecializationInfo = si;
  ci.layout = layout;
  SWZ_VK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, out), "vkCreateComputePipelines");
  return Status::Ok();
}

Status Context::Impl::pipeline(bool copy, unsigned q, unsigned dir, VkPipeline* out) {
  VkPipeline& p = copy ? copy_pipe[q] : swz_pipe[q][dir];
  if (!p) {
    VkShaderModule m = VK_NULL_HANDLE;
    SWZ_TRY(module(copy, q, &m));
    VkSpecializationMapEntry me{0, 0, sizeof(uint32_t)};
    const uint32_t dirv = dir;
    VkSpecializationInfo si{1, &me, sizeof(uint32_t), &dirv};
    SWZ_TRY(compute_pipeline(m, copy ? copy_pl : swz_pl, copy ? nullptr : &si, &p));
  }
  *out = p;
  return Status::Ok();
}

Status Context::Impl::pair_pipeline(VkPipeline* out) {
  if (!pair_pipe) {
    if (!pair_mod) SWZ_TRY(embedded_module("copy2_w16.spv", &pair_mod));
    SWZ_TRY(compute_pipeline(pair_mod, pair_pl, nullptr, &pair_pipe));
  }
  *out = pair_pipe;
  return Status::Ok();
}

// Records a copy of `size` bytes between two buffers (copy.comp, the word
// size the offsets allow).
Status Context::Impl::record_copy(VkCommandBuffer cb, VkBuffer src, uint64_t src_offset, VkBuffer dst,
                                  uint64_t dst_offset, uint64_t size, DispatchInfo* info) {
  detail::CopyDispatch D;
  SWZ_TRY(detail::plan_copy(src_offset, dst_offset, size, lim, wg_log2(), &D));
  VkPipeline pipe = VK_NULL_HANDLE;
  SWZ_TRY(pipeline(true, D.word_log2, 0, &pipe));
  VkDescriptorBufferInfo si{src, D.src_bind_offset, D.src_bind_range};
  VkDescriptorBufferInfo di{dst, D.dst_bind_offset, D.dst_bind_range};
  const VkDescriptorBufferInfo* infos[2] = {&si, &di};
  bind_and_dispatch(cb, pipe, copy_pl, infos, 2, &D.push, sizeof(D.push), D.groups_x, D.groups_y);
  if (info) {
    info->workgroups = D.push.total_wg;
    info->word_bytes = 1u << D.word_log2;
    info->chunks_log2 = D.push.u;
  }
  return Status::Ok();
}

// Plans every band of a region (nothing recorded, nothing allocated).
Status Context::Impl::plan_region(const detail::GpuRegion& r, uint64_t max_band_B,
                                  std::vector<detail::GpuRegion>* bands,
                                  std::vector<detail::SwizzleDispatch>* plans) const {
  SWZ_TRY(detail::split_bands(r, lim, max_band_B, bands));
  plans->resize(bands->size());
  for (size_t i = 0; i < bands->size(); ++i) SWZ_TRY(detail::plan_swizzle((*bands)[i], lim, wg_log2(), &(*plans)[i]));
  return Status::Ok();
}

Status Context::Impl::record_region(VkCommandBuffer cb, const detail::GpuRegion& r, bool to_swz, VkBuffer swz_buf,
                                    VkBuffer lin_buf, DispatchInfo* info) {
  std::vector<detail::GpuRegion> bands;
  std::vector<detail::SwizzleDispatch> plans;
  SWZ_TRY(plan_region(r, 0, &bands, &plans));
  if (info) *info = DispatchInfo{};
  for (const detail::SwizzleDispatch& D : plans) {
    DispatchInfo one;
    SWZ_TRY(record_planned(cb, D, to_swz, swz_buf, lin_buf, &one));
    if (info) {
      info->workgroups += one.workgroups;
      info->word_bytes = one.word_bytes;
      info->chunks_log2 = one.chunks_log2;
      ++info->dispatches;
    }
  }
  return Status::Ok();
}

Status Context::Impl::record_planned(VkCommandBuffer cb, const detail::SwizzleDispatch& D, bool to_swz,
                                     VkBuffer swz_buf, VkBuffer lin_buf, DispatchInfo* info) {
  VkPipeline pipe = VK_NULL_HANDLE;
  SWZ_TRY(pipeline(false, D.word_log2, to_swz ? 0u : 1u, &pipe));
  VkBuffer tbuf = VK_NULL_HANDLE;
  uint64_t toff = 0;
  SWZ_TRY(upload_tables(D.tables, &tbuf, &toff));
  VkDescriptorBufferInfo swz_i{swz_buf, D.swz_bind_offset, D.swz_bind_range};
  VkDescriptorBufferInfo lin_i{lin_buf, D.lin_bind_offset, D.lin_bind_range};
  VkDescriptorBufferInfo tab_i{tbuf, toff, sizeof(detail::SwizzleTables)};
  const VkDescriptorBufferInfo* infos[3] = {to_swz ? &lin_i : &swz_i, to_swz ? &swz_i : &lin_i, &tab_i};
  bind_and_dispatch(cb, pipe, swz_pl, infos, 3, &D.push, sizeof(D.push), D.groups_x, D.groups_y,
                    detail::kSwizzleUniformMask);
  if (info) {
    info->workgroups = D.push.total_wg;
    info->word_bytes = 1u << D.word_log2;
    info->chunks_log2 = (D.push.cfg >> 8) & 255u;
  }
  return Status::Ok();
}

unsigned Context::Impl::wg_log2() const {
  if (tuning.wg_chunks_log2) return tuning.wg_chunks_log2;
  const uint64_t v = swz::detail::env_unsigned("SWZ_GPU_WG_LOG2", 0);
  if (v >= 5 && v <= 20) return static_cast<unsigned>(v);
  return 0;
}

Status Context::Impl::submit_and_wait() {
  VkSubmitInfo si = vk_init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  SWZ_VK(vkResetFences(device, 1, &fence), "vkResetFences");
  SWZ_VK(vkQueueSubmit(queue, 1, &si, fence), "vkQueueSubmit");
  SWZ_VK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  return Status::Ok();
}

// Checks a host-path request completely (every band planned) without
// allocating or recording anything.
Status Context::Impl::check_region(const detail::GpuRegion& r0) const {
  detail::GpuRegion r = r0;
  std::vector<detail::GpuRegion> bands;
  std::vector<detail::SwizzleDispatch> plans;
  return plan_region(r, 0, &bands, &plans);
}

// ---- Recording ---------------------------------------------------------------

// The overlap rule (core/request.hpp) for one GPU region: the linear box's
// bytes and the subresource's span, at these bases (host addresses or offsets
// in one VkBuffer).
Status check_gpu_disjoint(const detail::GpuRegion& r, uint64_t swz_base, uint64_t lin_base, bool to_swizzled,
                          const char* where) {
  const swz::detail::MemoryRange lin(lin_base + r.lin_offset, r.lin_span, "the linear box", swz::detail::MemoryRange::kNoIndex,
                                     where);
  const swz::detail::MemoryRange sub(swz_base + r.swz_offset, r.swz_span, "the subresource",
                                     swz::detail::MemoryRange::kNoIndex, where);
  return to_swizzled ? swz::detail::check_memory_disjoint(lin, sub) : swz::detail::check_memory_disjoint(sub, lin);
}

namespace {
Status check_ranges(const detail::GpuRegion& r, const BufferRange& res, const BufferRange& lin, bool to_swizzled) {
  if (!res.buffer) return {Code::invalid_argument, "resource buffer = VK_NULL_HANDLE"};
  if (!lin.buffer) return {Code::invalid_argument, "linear buffer = VK_NULL_HANDLE"};
  if (res.buffer != lin.buffer) return Status::Ok();
  // One VkBuffer: the overlap rule over offsets in it.
  return check_gpu_disjoint(r, 0, 0, to_swizzled, " in one VkBuffer");
}
}  // namespace

// Both recording directions: validate, check the bound ranges, record.
Status Context::Impl::record_subresource(VkCommandBuffer cb, const Layout& layout, const BufferRange& resource,
                                         uint32_t subresource, const Box* box, const BufferRange& linear,
                                         uint64_t lin_row_pitch, uint64_t lin_depth_pitch, bool to_swizzled,
                                         DispatchInfo* info) {
  if (!cb) return {Code::invalid_argument, "command buffer = VK_NULL_HANDLE"};
  try {
    detail::GpuRegion r;
    bool empty = false;
    SWZ_TRY(detail::resolve_region(layout, resource.offset, resource.size, subresource, box, linear.offset, linear.size,
                                   lin_row_pitch, lin_depth_pitch, to_swizzled ? "source" : "destination", &r, &empty));
    if (info) *info = DispatchInfo{};
    if (empty) return Status::Ok();
    SWZ_TRY(check_ranges(r, resource, linear, to_swizzled));
    return record_region(cb, r, to_swizzled, resource.buffer, linear.buffer, info);
  } catch (const std::bad_alloc&) {
    return {Code::internal, "out of host memory"};
  }
}

Status Context::record_write_to_subresource(VkCommandBuffer cmd, const Layout& layout, const BufferRange& resource,
                                            uint32_t subresource, const Box* box, const BufferRange& src,
                                            uint64_t src_row_pitch, uint64_t src_depth_pitch, DispatchInfo* info) {
  if (!impl_) return {Code::invalid_argument, "GPU context not created"};
  return impl_->record_subresource(cmd, layout, resource, subresource, box, src, src_row_pitch, src_depth_pitch, true,
                                   info);
}

Status Context::record_read_from_subresource(VkCommandBuffer cmd, const BufferRange& dst, uint64_t dst_row_pitch,
                                             uint64_t dst_depth_pitch, const Layout& layout,
                                             const BufferRange& resource, uint32_t subresource, const Box* box,
                                             DispatchInfo* info) {
  if (!impl_) return {Code::invalid_argument, "GPU context not created"};
  return impl_->record_subresource(cmd, layout, resource, subresource, box, dst, dst_row_pitch, dst_depth_pitch, false,
                                   info);
}

Status Context::record_buffer_copy(VkCommandBuffer cmd, const BufferRange& src, const BufferRange& dst, uint64_t size,
                                   DispatchInfo* info) {
  if (!impl_) return {Code::invalid_argument, "GPU context not created"};
  if (!cmd || !src.buffer || !dst.buffer) return {Code::invalid_argument, "null command buffer or buffer"};
  if (size > src.size || size > dst.size)
    return {Code::buffer_too_small, "copy of " + std::to_string(size) + " bytes exceeds a range (" +
                                        std::to_string(src.size) + " / " + std::to_string(dst.size) + " bytes)"};
  if (info) *info = DispatchInfo{};
  if (size == 0) return Status::Ok();
  if (src.buffer == dst.buffer)
    SWZ_TRY(swz::detail::check_memory_disjoint(
        swz::detail::MemoryRange(src.offset, size, "the source range in one VkBuffer"),
        swz::detail::MemoryRange(dst.offset, size, "the destination range in one VkBuffer")));
  try {
    Impl& I = *impl_;
    return I.record_copy(cmd, src.buffer, src.offset, dst.buffer, dst.offset, size, info);
  } catch (const std::bad_alloc&) {
    return {Code::internal, "out of host memory"};
  }
}

}  // namespace swz::gpu
