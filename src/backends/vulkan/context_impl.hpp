// swz internal — Context::Impl, the state of a swz::gpu::Context, and the
// helpers its parts share. Its member functions are defined by concern:
//   context.cpp         creation, adoption, device state, teardown
//   context_memory.cpp  memory types, buffers, pattern-table arenas
//   context_record.cpp  pipelines, recording, submission
//   context_ring.cpp    the pinned ring (HostPath::ring, ring_copy)
//   context_import.cpp  imported and registered caller memory (HostPath::import)
//   context_host.cpp    the host conveniences: path choice, whole staging
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/vulkan/dispatch.hpp"
#include "backends/vulkan/copy_pool.hpp"
#include "backends/vulkan/gpu_plan.hpp"
#include "swz/gpu.hpp"
#include "core/plan.hpp"

namespace swz::gpu {

template <class T>
T vk_init(VkStructureType s) {
  T t{};
  t.sType = s;
  return t;
}

// The name of a VkResult (context.cpp).
std::string vk_err(VkResult r);
// A Status for a failed Vulkan call: buffer_too_small when out of memory, else internal (context.cpp).
Status vk_fail(const char* what, VkResult r);

#define SWZ_VK(call, what)                                        \
  do {                                                            \
    VkResult swz_vk_r_ = (call);                                  \
    if (swz_vk_r_ != VK_SUCCESS) return vk_fail(what, swz_vk_r_); \
  } while (0)

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The overlap rule (core/request.hpp) for one GPU region (context_record.cpp).
Status check_gpu_disjoint(const detail::GpuRegion& r, uint64_t swz_base, uint64_t lin_base, bool to_swizzled,
                          const char* where);

struct HostBuffer {
  VkBuffer buf = VK_NULL_HANDLE;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  uint8_t* map = nullptr;
  uint64_t size = 0;
  bool coherent = true;
  VkDeviceSize atom = 1;
};

struct Context::Impl {
  bool owns = false;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice phys = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceMemoryProperties memprops{};
  detail::DeviceLimits lim;
  PFN_vkCmdPushDescriptorSetKHR push_desc = nullptr;
  // VK_EXT_external_memory_host: the host conveniences bind the caller's
  // memory directly (no staging copies) when the device offers it.
  bool host_import = false;
  uint64_t import_align = 4096;
  uint64_t table_align = 256;  ///< offsets of the pattern tables (storage and uniform alignment)
  PFN_vkGetMemoryHostPointerPropertiesEXT host_ptr_props = nullptr;
  VkDescriptorSetLayout swz_dsl = VK_NULL_HANDLE, copy_dsl = VK_NULL_HANDLE;
  VkPipelineLayout swz_pl = VK_NULL_HANDLE, copy_pl = VK_NULL_HANDLE;
  VkShaderModule swz_mod[5] = {}, copy_mod[5] = {};
  VkPipeline swz_pipe[5][2] = {}, copy_pipe[5] = {};
  // copy2.comp, the paired copy of the banded import path (made on first use).
  VkDescriptorSetLayout pair_dsl = VK_NULL_HANDLE;
  VkPipelineLayout pair_pl = VK_NULL_HANDLE;
  VkShaderModule pair_mod = VK_NULL_HANDLE;
  VkPipeline pair_pipe = VK_NULL_HANDLE;
  DispatchTuning tuning;
  // Pattern tables: arenas of host-visible memory, content-addressed.
  std::vector<HostBuffer> arenas;
  uint64_t arena_used = 0;  // bytes used in arenas.back()
  struct TableEntry {
    size_t arena;
    uint64_t offset;
    std::vector<uint8_t> bytes;
  };
  std::unordered_map<uint64_t, std::vector<TableEntry>> tables;
  struct {
    bool valid = false;
    uint64_t hash = 0;
    size_t index = 0;
  } last_table;  // the entry of `tables` returned last
  // Host conveniences.
  HostBuffer lin_stage, res_stage;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  // The pinned ring (HostPath::ring / ring_copy): per slot a linear and a
  // resource chunk in pinned host memory, device-local twins for ring_copy,
  // a command buffer and a fence. Grown on demand, kept across calls.
  struct RingSlot {
    HostBuffer lin, res, lin_dev, res_dev;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
  };
  std::vector<RingSlot> ring;
  // The banded import path's device-local slots (a band's linear rows and
  // resource window each), kept across calls.
  struct BandSlot {
    HostBuffer lin, res;
  };
  std::vector<BandSlot> band_slots;
  detail::CopyPool copier;
  HostPathStats stats;
  // Host memory registered by the caller (register_host_memory): imported
  // once, used by every later call whose span lies inside [lo, hi).
  struct Registered {
    uintptr_t lo = 0, hi = 0;  // the caller's range
    uintptr_t base = 0;        // the imported buffer's first byte
    HostBuffer b;
  };
  std::vector<Registered> registered;

  // ---- The pinned ring ------------------------------------------------------
  // The region is split into bands of block rows of about one chunk each
  // (split_bands with the chunk as the cap). Band k's linear rows and its
  // resource window (both start at byte 0 of a slot's chunks) are copied in
  // by the CPU, converted by one dispatch, and the output side copied back
  // out; the CPU works on band k+1 (and retires band k+1-slots) while the
  // GPU converts band k. Inputs that the band overwrites completely are not
  // copied in: the resource window of a write when the box's elements fill
  // it (the layout is a bijection, so element bytes = window bytes means
  // every byte is written), the linear rows of a read when they are packed.
  static constexpr uint64_t kMaxRingChunk = uint64_t{64} << 20;
  struct RingPlan {
    std::vector<detail::GpuRegion> bands;
    std::vector<detail::SwizzleDispatch> plans;
    std::vector<uint64_t> lin_at, res_at, res_len;
    std::vector<uint64_t> lin_slot_at, res_slot_at;  // where the band's windows start in a slot's buffers
    std::vector<uint8_t> lin_in, res_in;  // copy this side in before the dispatch
    uint64_t lin_cap = 0, res_cap = 0;
  };

  static constexpr size_t kBandSlots = 3;

  ~Impl();

  // context.cpp
  void exit_teardown();
  void destroy();
  void init_host_import();
  Status init_common();

  // context_memory.cpp
  void free_buffer(HostBuffer* b);
  void trim();
  int find_memory(uint32_t bits, VkMemoryPropertyFlags req, VkMemoryPropertyFlags pref) const;
  Status make_host_buffer(uint64_t size, VkMemoryPropertyFlags pref, HostBuffer* out);
  Status make_device_buffer(uint64_t size, HostBuffer* out);
  Status ensure_stage(HostBuffer* b, uint64_t size);
  Status upload_tables(const detail::SwizzleTables& t, VkBuffer* buf, uint64_t* off);

  // context_record.cpp
  Status module(bool copy, unsigned q, VkShaderModule* out);
  Status embedded_module(const std::string& name, VkShaderModule* out);
  Status compute_pipeline(VkShaderModule m, VkPipelineLayout layout, const VkSpecializationInfo* si, VkPipeline* out);
  Status pipeline(bool copy, unsigned q, unsigned dir, VkPipeline* out);
  Status pair_pipeline(VkPipeline* out);
  Status record_copy(VkCommandBuffer cb, VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset,
                     uint64_t size, DispatchInfo* info);
  Status plan_region(const detail::GpuRegion& r, uint64_t max_band_B, std::vector<detail::GpuRegion>* bands,
                     std::vector<detail::SwizzleDispatch>* plans) const;
  Status record_region(VkCommandBuffer cb, const detail::GpuRegion& r, bool to_swz, VkBuffer swz_buf, VkBuffer lin_buf,
                       DispatchInfo* info);
  Status record_planned(VkCommandBuffer cb, const detail::SwizzleDispatch& D, bool to_swz, VkBuffer swz_buf,
                        VkBuffer lin_buf, DispatchInfo* info);
  unsigned wg_log2() const;
  Status submit_and_wait();
  Status check_region(const detail::GpuRegion& r0) const;

  // context_ring.cpp
  void free_ring();
  uint64_t ring_chunk_B(uint64_t span_B) const;
  unsigned ring_slots() const;
  unsigned copy_threads() const;
  bool plan_ring(const detail::GpuRegion& r0, bool to_swz, uint64_t cap0, RingPlan* P, Status* err, bool mirror = false,
                 uint64_t lin_base = 0, uint64_t res_base = 0) const;
  Status ensure_ring(size_t slots, uint64_t lin_cap, uint64_t res_cap, bool dev);
  Status submit_band(const RingPlan& P, size_t k, RingSlot& r, bool to_swz, bool dev);
  Status run_ring(const RingPlan& P, bool to_swz, uint8_t* res_sub, uint8_t* lin, bool dev);

  // context_import.cpp
  bool find_registered(const void* p, uint64_t n, VkBuffer* buf, uint64_t* skew) const;
  void free_registered();
  bool import_host(const void* p, uint64_t n, HostBuffer* out, uint64_t* skew);
  bool host_convert_imported(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin, Status* result);
  uint64_t import_band_B(uint64_t span_B) const;
  Status ensure_band_slots(size_t slots, uint64_t lin_cap, uint64_t res_cap);
  Status run_banded_import(const RingPlan& P, bool to_swz, VkBuffer rbuf, uint64_t rskew, VkBuffer lbuf,
                           uint64_t lskew);

  // context_host.cpp
  HostPath wanted_path() const;
  Status host_convert(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin);
  Status host_convert_path(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin);

  // Templates, one-line helpers and the entry points' own declarations.
  // A buffer of `size` bytes (at least 16) bound to new memory of the type
  // `pick` chooses from the buffer's requirements; `no_type` when it finds none.
  template <class Pick>
  Status make_bound_buffer(uint64_t size, Pick pick, const Status& no_type, const char* alloc_what, HostBuffer* out) {
    HostBuffer b;
    VkBufferCreateInfo bi = vk_init<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bi.size = std::max<uint64_t>(size, 16);
    // (uniform: the pattern tables' arenas are bound as a uniform buffer)
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    SWZ_VK(vkCreateBuffer(device, &bi, nullptr, &b.buf), "vkCreateBuffer");
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(device, b.buf, &mr);
    const int type = pick(mr);
    if (type < 0) {
      vkDestroyBuffer(device, b.buf, nullptr);
      return no_type;
    }
    VkMemoryAllocateInfo ai = vk_init<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.allocationSize = mr.size;
    ai.memoryTypeIndex = static_cast<uint32_t>(type);
    const VkResult r = vkAllocateMemory(device, &ai, nullptr, &b.mem);
    if (r != VK_SUCCESS) {
      vkDestroyBuffer(device, b.buf, nullptr);
      return vk_fail(alloc_what, r);
    }
    vkBindBufferMemory(device, b.buf, b.mem, 0);
    b.size = bi.size;
    *out = b;
    return Status::Ok();
  }

  // One dispatch per band (one band unless the region exceeds a binding).
  // Bands write disjoint resource words and read disjoint linear rows, so no
  // barrier separates them.
  // Binds `pipe`, pushes buffer descriptors 0..n-1 (infos; uniform buffers
  // where uniform_mask has the binding's bit, else storage) and the push
  // constants, and records one dispatch of gx x gy workgroups.
  void bind_and_dispatch(VkCommandBuffer cb, VkPipeline pipe, VkPipelineLayout layout,
                         const VkDescriptorBufferInfo* const* infos, uint32_t n, const void* push_data,
                         uint32_t push_bytes, uint32_t gx, uint32_t gy, uint32_t uniform_mask = 0) {
    detail::bind_and_dispatch(push_desc, cb, pipe, layout, infos, n, push_data, push_bytes, gx, gy, uniform_mask);
  }

  Status record_subresource(VkCommandBuffer cb, const Layout& layout, const BufferRange& resource, uint32_t subresource,
                            const Box* box, const BufferRange& linear, uint64_t lin_row_pitch, uint64_t lin_depth_pitch,
                            bool to_swizzled, DispatchInfo* info);

  // Records the command buffer (`record`, then a barrier that makes the
  // shaders' writes visible to the host), submits it and waits.
  template <class F>
  Status record_submit_wait(F&& record) {
    SWZ_VK(vkResetCommandBuffer(cmd, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo bi = vk_init<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SWZ_VK(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
    Status s = record(cmd);
    VkMemoryBarrier mb = vk_init<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr,
                         0, nullptr);
    SWZ_VK(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    SWZ_TRY(s);
    return submit_and_wait();
  }

  static void barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src,
                      VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
    VkMemoryBarrier mb = vk_init<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask = src;
    mb.dstAccessMask = dst;
    vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &mb, 0, nullptr, 0, nullptr);
  }

  // Host path: the ring, imported memory or whole staging buffers (see
  // HostPath). Every band of the whole region is planned first (every
  // device limit checked) before anything is allocated or imported.
  Status host_subresource(const Layout& layout, uint8_t* resource, uint64_t resource_size, uint32_t subresource,
                          const Box* box, uint8_t* linear, uint64_t linear_size, uint64_t lin_row_pitch,
                          uint64_t lin_depth_pitch, bool to_swizzled);
};

}  // namespace swz::gpu
