// swz::gpu::Context: Vulkan instance/device setup, pipelines, table upload,
// recording, and the host-memory conveniences.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <new>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/vulkan/dispatch.hpp"
#include "backends/vulkan/copy_pool.hpp"
#include "backends/vulkan/gpu_plan.hpp"
#include "swz/gpu.hpp"
#include "core/plan.hpp"
#include "core/request.hpp"

namespace swz::gpu {
namespace detail {
const uint32_t* embedded_spirv(const char* name, size_t* size);
}

namespace {

template <class T>
T vk_init(VkStructureType s) {
  T t{};
  t.sType = s;
  return t;
}

std::string vk_err(VkResult r) {
  switch (r) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS:
      return "VK_ERROR_TOO_MANY_OBJECTS";
    default:
      return "VkResult " + std::to_string(static_cast<int>(r));
  }
}

Status vk_fail(const char* what, VkResult r) {
  Code c = (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) ? Code::buffer_too_small
                                                                                    : Code::internal;
  if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
    return {c, std::string(what) + " failed: " + vk_err(r) + " (out of memory)"};
  return {c, std::string(what) + " failed: " + vk_err(r)};
}

#define SWZ_VK(call, what)                                        \
  do {                                                            \
    VkResult swz_vk_r_ = (call);                                  \
    if (swz_vk_r_ != VK_SUCCESS) return vk_fail(what, swz_vk_r_); \
  } while (0)

bool has_ext(VkPhysicalDevice pd, const char* name) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> e(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, e.data());
  for (auto& x : e)
    if (std::strcmp(x.extensionName, name) == 0) return true;
  return false;
}

// memcpy over up to 8 threads for large staging copies (one thread copies
// about 10 GB/s on a server core; the bus moves 50).
void copy_mt(void* dst, const void* src, uint64_t n) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const unsigned t = n >= (uint64_t{8} << 20) ? std::min(8u, hw) : 1u;
  if (t <= 1) {
    std::memcpy(dst, src, n);
    return;
  }
  const uint64_t part = (n / t + 4095) / 4096 * 4096;
  std::vector<std::thread> th;
  try {
    for (unsigned i = 1; i < t; ++i) {
      const uint64_t lo = std::min<uint64_t>(n, i * part), hi = std::min<uint64_t>(n, lo + part);
      if (lo < hi)
        th.emplace_back(
            [=] { std::memcpy(static_cast<uint8_t*>(dst) + lo, static_cast<const uint8_t*>(src) + lo, hi - lo); });
    }
  } catch (...) {
    // No thread: the rest is copied below, on this thread.
  }
  // This thread: part 0, then any part whose thread did not start.
  std::memcpy(dst, src, std::min(n, part));
  for (unsigned i = static_cast<unsigned>(th.size()) + 1; i < t; ++i) {
    const uint64_t lo = std::min<uint64_t>(n, i * part), hi = std::min<uint64_t>(n, lo + part);
    if (lo < hi) std::memcpy(static_cast<uint8_t*>(dst) + lo, static_cast<const uint8_t*>(src) + lo, hi - lo);
  }
  for (auto& x : th) x.join();
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// An unsigned number from the environment (decimal, or hex after 0x), or
// `fallback` when unset or not such a number. strtoull alone would take
// "-1" as 2^64-1 (it negates), " 8" and "+8", octal after a leading 0, and
// an overflowing value as 2^64-1 ("direct" for SWZ_GPU_IMPORT_BAND).
uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* e = std::getenv(name);
  if (!e || e[0] < '0' || e[0] > '9') return fallback;
  const int base = (e[0] == '0' && (e[1] == 'x' || e[1] == 'X')) ? 16 : 10;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(e, &end, base);
  return (errno == 0 && end && end != e && *end == 0) ? v : fallback;
}

uint64_t fnv1a(const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

}  // namespace

// ---- Teardown at process exit ---------------------------------------------
// A Context held in a static (a function-local static, a global, a Python
// module object) is destroyed from exit(). Its destructor's atexit entry was
// registered when the static was constructed, which is usually BEFORE
// Context::create loaded the Vulkan driver; exit() runs atexit entries in
// reverse order, so the driver's own exit handlers (the NVIDIA driver tears
// its threads and device state down from an atexit handler registered when
// the loader opened it) have already run when ~Context calls
// vkDeviceWaitIdle / vkDestroyDevice, which then crash (SIGSEGV with the
// NVIDIA driver). So every create()/adopt() registers, AFTER the driver is
// loaded and the device made, an atexit handler that tears down every live
// Context while the driver is still whole; a Context destroyed later finds
// nothing left to destroy. The registry itself is never destroyed (a static
// object's destructor could run before the handler).
struct ExitRegistry {
  std::mutex mu;
  std::unordered_set<Context::Impl*> live;
  bool exiting = false;
  unsigned registrations = 0;
};
ExitRegistry& exit_registry() {
  static ExitRegistry* r = new ExitRegistry;  // leaked on purpose: usable from any exit handler
  return *r;
}
void teardown_at_exit();

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

  // The registered buffer holding [p, p + n), and p's offset in it.
  bool find_registered(const void* p, uint64_t n, VkBuffer* buf, uint64_t* skew) const {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    for (const Registered& r : registered)
      if (a >= r.lo && a <= r.hi && n <= r.hi - a) {
        *buf = r.b.buf;
        *skew = a - r.base;
        return true;
      }
    return false;
  }
  void free_registered() {
    for (Registered& r : registered) free_buffer(&r.b);
    registered.clear();
  }

  ~Impl() {
    {
      ExitRegistry& R = exit_registry();
      std::lock_guard<std::mutex> g(R.mu);
      R.live.erase(this);
    }
    destroy();
  }

  // Called from the exit handler, before the driver's own exit handlers.
  // An owned device and instance are destroyed; objects made on an adopted
  // device are left to the process's end (the caller owns that device and
  // may already have destroyed it).
  void exit_teardown() {
    if (owns) {
      destroy();
    } else {
      device = VK_NULL_HANDLE;
      instance = VK_NULL_HANDLE;
      arenas.clear();
      lin_stage = HostBuffer{};
      res_stage = HostBuffer{};
      ring.clear();
      band_slots.clear();
      registered.clear();
      copier.stop();
    }
  }

  void free_buffer(HostBuffer* b) {
    if (!device) return;
    if (b->map) vkUnmapMemory(device, b->mem);
    if (b->buf) vkDestroyBuffer(device, b->buf, nullptr);
    if (b->mem) vkFreeMemory(device, b->mem, nullptr);
    *b = HostBuffer{};
  }

  void trim() {
    if (device) vkDeviceWaitIdle(device);
    for (auto& a : arenas) free_buffer(&a);
    arenas.clear();
    arena_used = 0;
    tables.clear();
    last_table.valid = false;
    free_buffer(&lin_stage);
    free_buffer(&res_stage);
    free_ring();
    for (BandSlot& b : band_slots) {
      free_buffer(&b.lin);
      free_buffer(&b.res);
    }
    band_slots.clear();
    copier.stop();
  }

  void free_ring() {
    if (!device) {
      ring.clear();
      return;
    }
    for (RingSlot& r : ring) {
      free_buffer(&r.lin);
      free_buffer(&r.res);
      free_buffer(&r.lin_dev);
      free_buffer(&r.res_dev);
      if (r.fence) vkDestroyFence(device, r.fence, nullptr);
      if (r.cmd) vkFreeCommandBuffers(device, pool, 1, &r.cmd);
    }
    ring.clear();
  }

  void destroy() {
    if (device) {
      vkDeviceWaitIdle(device);
      trim();
      free_registered();
      for (auto& p : swz_pipe)
        for (auto& x : p)
          if (x) vkDestroyPipeline(device, x, nullptr);
      for (auto& x : copy_pipe)
        if (x) vkDestroyPipeline(device, x, nullptr);
      for (auto& m : swz_mod)
        if (m) vkDestroyShaderModule(device, m, nullptr);
      for (auto& m : copy_mod)
        if (m) vkDestroyShaderModule(device, m, nullptr);
      if (pair_pipe) vkDestroyPipeline(device, pair_pipe, nullptr);
      if (pair_mod) vkDestroyShaderModule(device, pair_mod, nullptr);
      if (pair_pl) vkDestroyPipelineLayout(device, pair_pl, nullptr);
      if (pair_dsl) vkDestroyDescriptorSetLayout(device, pair_dsl, nullptr);
      if (swz_pl) vkDestroyPipelineLayout(device, swz_pl, nullptr);
      if (copy_pl) vkDestroyPipelineLayout(device, copy_pl, nullptr);
      if (swz_dsl) vkDestroyDescriptorSetLayout(device, swz_dsl, nullptr);
      if (copy_dsl) vkDestroyDescriptorSetLayout(device, copy_dsl, nullptr);
      if (fence) vkDestroyFence(device, fence, nullptr);
      if (pool) vkDestroyCommandPool(device, pool, nullptr);
      if (owns) vkDestroyDevice(device, nullptr);
    }
    if (owns && instance) vkDestroyInstance(instance, nullptr);
    device = VK_NULL_HANDLE;
    instance = VK_NULL_HANDLE;
  }

  int find_memory(uint32_t bits, VkMemoryPropertyFlags req, VkMemoryPropertyFlags pref) const {
    int best = -1;
    for (uint32_t i = 0; i < memprops.memoryTypeCount; ++i) {
      if (!(bits & (1u << i))) continue;
      const VkMemoryPropertyFlags f = memprops.memoryTypes[i].propertyFlags;
      if ((f & req) != req) continue;
      if ((f & pref) == pref) return static_cast<int>(i);
      if (best < 0) best = static_cast<int>(i);
    }
    return best;
  }

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

  Status make_host_buffer(uint64_t size, VkMemoryPropertyFlags pref, HostBuffer* out) {
    HostBuffer b;
    SWZ_TRY(make_bound_buffer(
        size,
        [&](const VkMemoryRequirements& mr) {
          return find_memory(mr.memoryTypeBits,
                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, pref);
        },
        Status(Code::unsupported, "GPU path: no host-visible coherent memory type for staging"),
        "vkAllocateMemory (staging)", &b));
    void* m = nullptr;
    const VkResult r = vkMapMemory(device, b.mem, 0, VK_WHOLE_SIZE, 0, &m);
    if (r != VK_SUCCESS) {
      vkDestroyBuffer(device, b.buf, nullptr);
      vkFreeMemory(device, b.mem, nullptr);
      return vk_fail("vkMapMemory", r);
    }
    b.map = static_cast<uint8_t*>(m);
    *out = b;
    return Status::Ok();
  }

  // A device-local buffer (ring_copy's twins of the pinned chunks).
  Status make_device_buffer(uint64_t size, HostBuffer* out) {
    return make_bound_buffer(
        size,
        [&](const VkMemoryRequirements& mr) {
          const int type = find_memory(mr.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
          return type >= 0 ? type : find_memory(mr.memoryTypeBits, 0, 0);
        },
        vk_fail("vkAllocateMemory (ring)", VK_ERROR_OUT_OF_DEVICE_MEMORY), "vkAllocateMemory (ring)", out);
  }

  Status ensure_stage(HostBuffer* b, uint64_t size) {
    if (b->buf && b->size >= size) return Status::Ok();
    free_buffer(b);
    return make_host_buffer(size, VK_MEMORY_PROPERTY_HOST_CACHED_BIT, b);
  }

  // VK_EXT_external_memory_host is enabled on the device: read its
  // alignment and check that our buffers accept host allocations.
  void init_host_import() {
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = vk_init<VkPhysicalDeviceExternalMemoryHostPropertiesEXT>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT);
    VkPhysicalDeviceProperties2 p2 =
        vk_init<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    p2.pNext = &hp;
    vkGetPhysicalDeviceProperties2(phys, &p2);
    host_ptr_props = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
        vkGetDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT"));
    const uint64_t al = hp.minImportedHostPointerAlignment;
    // Buffers with our usage must accept host allocations as an import.
    VkPhysicalDeviceExternalBufferInfo ebi =
        vk_init<VkPhysicalDeviceExternalBufferInfo>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO);
    ebi.usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    ebi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    VkExternalBufferProperties ebp = vk_init<VkExternalBufferProperties>(VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES);
    vkGetPhysicalDeviceExternalBufferProperties(phys, &ebi, &ebp);
    const bool importable =
        (ebp.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT) != 0;
    host_import = importable && host_ptr_props != nullptr && al != 0 && (al & (al - 1)) == 0;
    import_align = al ? al : 4096;
  }

  Status init_common() {
    vkGetPhysicalDeviceProperties(phys, &props);
    vkGetPhysicalDeviceMemoryProperties(phys, &memprops);
    if (props.apiVersion < VK_API_VERSION_1_1)
      return {Code::unsupported, std::string("GPU path: device ") + props.deviceName + " supports only Vulkan " +
                                     std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." +
                                     std::to_string(VK_API_VERSION_MINOR(props.apiVersion)) + " (1.1 needed)"};
    lim.max_storage_range = props.limits.maxStorageBufferRange;
    // Testing knob: pretend the device binds at most this many bytes, so
    // that the band split runs on small surfaces (never raises the limit).
    if (const char* e = std::getenv("SWZ_GPU_MAX_BINDING")) {
      const unsigned long long v = std::strtoull(e, nullptr, 0);
      if (v >= 4096 && v < lim.max_storage_range) lim.max_storage_range = v;
    }
    lim.min_storage_align = std::max<uint64_t>(props.limits.minStorageBufferOffsetAlignment, 4);
    table_align = std::max<uint64_t>(lim.min_storage_align, props.limits.minUniformBufferOffsetAlignment);
    if (props.limits.maxUniformBufferRange < sizeof(detail::SwizzleTables))
      return {Code::unsupported, "GPU path: device binds at most " + std::to_string(props.limits.maxUniformBufferRange) +
                                     " bytes of uniform buffer (" + std::to_string(sizeof(detail::SwizzleTables)) +
                                     " needed for the pattern tables)"};
    lim.max_groups_x = props.limits.maxComputeWorkGroupCount[0];
    lim.max_groups_y = props.limits.maxComputeWorkGroupCount[1];
    if (props.limits.maxPushConstantsSize < sizeof(detail::SwizzlePush))
      return {Code::unsupported, "GPU path: device allows " + std::to_string(props.limits.maxPushConstantsSize) +
                                     " bytes of push constants (" + std::to_string(sizeof(detail::SwizzlePush)) +
                                     " needed)"};
    if (props.limits.maxComputeWorkGroupSize[0] < detail::kWorkgroupSize ||
        props.limits.maxComputeWorkGroupInvocations < detail::kWorkgroupSize)
      return {Code::unsupported, "GPU path: device allows fewer than 256 invocations per workgroup"};
    push_desc =
        reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(device, "vkCmdPushDescriptorSetKHR"));
    if (!push_desc) return {Code::unsupported, "GPU path: VK_KHR_push_descriptor is not enabled on the device"};
    vkGetDeviceQueue(device, family, 0, &queue);
    // Layouts.
    // (uniform_mask: the bindings that are uniform buffers, else storage)
    auto make_dsl = [&](uint32_t n, uint32_t uniform_mask, VkDescriptorSetLayout* out) -> Status {
      VkDescriptorSetLayoutBinding b[4]{};
      for (uint32_t i = 0; i < n; ++i) {
        b[i].binding = i;
        b[i].descriptorType = detail::buffer_descriptor_type(uniform_mask, i);
        b[i].descriptorCount = 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      }
      VkDescriptorSetLayoutCreateInfo ci =
          vk_init<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
      ci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
      ci.bindingCount = n;
      ci.pBindings = b;
      SWZ_VK(vkCreateDescriptorSetLayout(device, &ci, nullptr, out), "vkCreateDescriptorSetLayout");
      return Status::Ok();
    };
    SWZ_TRY(make_dsl(3, detail::kSwizzleUniformMask, &swz_dsl));
    SWZ_TRY(make_dsl(2, 0, &copy_dsl));
    SWZ_TRY(make_dsl(4, 0, &pair_dsl));
    auto make_pl = [&](VkDescriptorSetLayout dsl, uint32_t pc_size, VkPipelineLayout* out) -> Status {
      VkPushConstantRange r{VK_SHADER_STAGE_COMPUTE_BIT, 0, pc_size};
      VkPipelineLayoutCreateInfo ci =
          vk_init<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
      ci.setLayoutCount = 1;
      ci.pSetLayouts = &dsl;
      ci.pushConstantRangeCount = 1;
      ci.pPushConstantRanges = &r;
      SWZ_VK(vkCreatePipelineLayout(device, &ci, nullptr, out), "vkCreatePipelineLayout");
      return Status::Ok();
    };
    SWZ_TRY(make_pl(swz_dsl, sizeof(detail::SwizzlePush), &swz_pl));
    SWZ_TRY(make_pl(copy_dsl, sizeof(detail::CopyPush), &copy_pl));
    SWZ_TRY(make_pl(pair_dsl, sizeof(detail::CopyPairPush), &pair_pl));
    VkCommandPoolCreateInfo pci = vk_init<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = family;
    SWZ_VK(vkCreateCommandPool(device, &pci, nullptr, &pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cai =
        vk_init<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    cai.commandPool = pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    SWZ_VK(vkAllocateCommandBuffers(device, &cai, &cmd), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci = vk_init<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    SWZ_VK(vkCreateFence(device, &fci, nullptr, &fence), "vkCreateFence");
    return Status::Ok();
  }

  Status module(bool copy, unsigned q, VkShaderModule* out) {
    VkShaderModule& m = copy ? copy_mod[q] : swz_mod[q];
    if (!m) SWZ_TRY(embedded_module(std::string(copy ? "copy" : "swizzle") + "_w" + std::to_string(1u << q) + ".spv", &m));
    *out = m;
    return Status::Ok();
  }

  // A shader module from the embedded SPIR-V file `name`.
  Status embedded_module(const std::string& name, VkShaderModule* out) {
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
  Status compute_pipeline(VkShaderModule m, VkPipelineLayout layout, const VkSpecializationInfo* si, VkPipeline* out) {
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

  Status pipeline(bool copy, unsigned q, unsigned dir, VkPipeline* out) {
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

  Status pair_pipeline(VkPipeline* out) {
    if (!pair_pipe) {
      if (!pair_mod) SWZ_TRY(embedded_module("copy2_w16.spv", &pair_mod));
      SWZ_TRY(compute_pipeline(pair_mod, pair_pl, nullptr, &pair_pipe));
    }
    *out = pair_pipe;
    return Status::Ok();
  }

  // Records a copy of `size` bytes between two buffers (copy.comp, the word
  // size the offsets allow).
  Status record_copy(VkCommandBuffer cb, VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset,
                     uint64_t size, DispatchInfo* info) {
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

  // Returns the buffer and offset holding `t` (uploaded once per content).
  Status upload_tables(const detail::SwizzleTables& t, VkBuffer* buf, uint64_t* off) {
    // The ring's bands usually share one table: compare with the last first.
    if (last_table.valid) {
      const TableEntry& e = tables[last_table.hash][last_table.index];
      if (std::memcmp(e.bytes.data(), &t, sizeof(t)) == 0) {
        *buf = arenas[e.arena].buf;
        *off = e.offset;
        return Status::Ok();
      }
    }
    const uint64_t h = fnv1a(&t, sizeof(t));
    auto& bucket = tables[h];
    for (size_t i = 0; i < bucket.size(); ++i) {
      const TableEntry& e = bucket[i];
      if (e.bytes.size() == sizeof(t) && std::memcmp(e.bytes.data(), &t, sizeof(t)) == 0) {
        *buf = arenas[e.arena].buf;
        *off = e.offset;
        last_table = {true, h, i};
        return Status::Ok();
      }
    }
    const uint64_t al = table_align;
    const uint64_t need = (sizeof(t) + al - 1) / al * al;
    if (arenas.empty() || arena_used + need > arenas.back().size) {
      HostBuffer b;
      // Device-local when the device has host-visible device memory (BAR).
      SWZ_TRY(make_host_buffer(std::max<uint64_t>(uint64_t{1} << 20, need), VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &b));
      arenas.push_back(b);
      arena_used = 0;
    }
    TableEntry e;
    e.arena = arenas.size() - 1;
    e.offset = arena_used;
    e.bytes.assign(reinterpret_cast<const uint8_t*>(&t), reinterpret_cast<const uint8_t*>(&t) + sizeof(t));
    std::memcpy(arenas.back().map + e.offset, &t, sizeof(t));
    arena_used += need;
    *buf = arenas[e.arena].buf;
    *off = e.offset;
    bucket.push_back(std::move(e));
    last_table = {true, h, bucket.size() - 1};
    return Status::Ok();
  }

  // Plans every band of a region (nothing recorded, nothing allocated).
  Status plan_region(const detail::GpuRegion& r, uint64_t max_band_B, std::vector<detail::GpuRegion>* bands,
                     std::vector<detail::SwizzleDispatch>* plans) const {
    SWZ_TRY(detail::split_bands(r, lim, max_band_B, bands));
    plans->resize(bands->size());
    for (size_t i = 0; i < bands->size(); ++i) SWZ_TRY(detail::plan_swizzle((*bands)[i], lim, wg_log2(), &(*plans)[i]));
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
  Status record_region(VkCommandBuffer cb, const detail::GpuRegion& r, bool to_swz, VkBuffer swz_buf, VkBuffer lin_buf,
                       DispatchInfo* info) {
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

  Status record_planned(VkCommandBuffer cb, const detail::SwizzleDispatch& D, bool to_swz, VkBuffer swz_buf,
                        VkBuffer lin_buf, DispatchInfo* info) {
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

  unsigned wg_log2() const {
    if (tuning.wg_chunks_log2) return tuning.wg_chunks_log2;
    if (const char* e = std::getenv("SWZ_GPU_WG_LOG2")) {
      int v = std::atoi(e);
      if (v >= 5 && v <= 20) return static_cast<unsigned>(v);
    }
    return 0;
  }

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

  Status submit_and_wait() {
    VkSubmitInfo si = vk_init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    SWZ_VK(vkResetFences(device, 1, &fence), "vkResetFences");
    SWZ_VK(vkQueueSubmit(queue, 1, &si, fence), "vkQueueSubmit");
    SWZ_VK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    return Status::Ok();
  }

  // Imports [p, p + n) rounded out to the import alignment as a storage
  // buffer; *skew = p - (the imported base). False when the driver refuses
  // (read-only or file-backed pages, for example): the caller stages instead.
  bool import_host(const void* p, uint64_t n, HostBuffer* out, uint64_t* skew) {
    if (!host_import || !host_ptr_props || n == 0) return false;
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    const uintptr_t base = a / import_align * import_align;
    const uint64_t size = (a + n - base + import_align - 1) / import_align * import_align;
    VkMemoryHostPointerPropertiesEXT hp =
        vk_init<VkMemoryHostPointerPropertiesEXT>(VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT);
    if (host_ptr_props(device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, reinterpret_cast<void*>(base),
                       &hp) != VK_SUCCESS)
      return false;
    VkExternalMemoryBufferCreateInfo eb =
        vk_init<VkExternalMemoryBufferCreateInfo>(VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
    eb.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    VkBufferCreateInfo bi = vk_init<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bi.pNext = &eb;
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    HostBuffer b;
    if (vkCreateBuffer(device, &bi, nullptr, &b.buf) != VK_SUCCESS) return false;
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(device, b.buf, &mr);
    const uint32_t bits = mr.memoryTypeBits & hp.memoryTypeBits;
    // Coherent (no flushes needed around the dispatch), cached where offered.
    const int type = find_memory(bits, VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (type < 0 || mr.size > size) {
      vkDestroyBuffer(device, b.buf, nullptr);
      return false;
    }
    VkImportMemoryHostPointerInfoEXT ii =
        vk_init<VkImportMemoryHostPointerInfoEXT>(VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT);
    ii.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    ii.pHostPointer = reinterpret_cast<void*>(base);
    VkMemoryAllocateInfo ai = vk_init<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.pNext = &ii;
    ai.allocationSize = size;
    ai.memoryTypeIndex = static_cast<uint32_t>(type);
    if (vkAllocateMemory(device, &ai, nullptr, &b.mem) != VK_SUCCESS) {
      vkDestroyBuffer(device, b.buf, nullptr);
      return false;
    }
    if (vkBindBufferMemory(device, b.buf, b.mem, 0) != VK_SUCCESS) {
      vkDestroyBuffer(device, b.buf, nullptr);
      vkFreeMemory(device, b.mem, nullptr);
      return false;
    }
    b.size = size;
    *out = b;
    *skew = a - base;
    return true;
  }

  // Host path through imported caller memory: device-local bands (see
  // run_banded_import), or one dispatch per binding-sized band straight
  // between the caller's buffers (the GPU reads and writes them over the
  // bus). False (nothing done) when either side cannot be imported, or when
  // the direct dispatch cannot bind the caller's memory where it lies
  // (*result then says why).
  bool host_convert_imported(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin, Status* result) {
    HostBuffer rb, lb;  // imported for this call (registered ranges are not)
    VkBuffer rbuf = VK_NULL_HANDLE, lbuf = VK_NULL_HANDLE;
    uint64_t rskew = 0, lskew = 0;
    auto release = [&] {
      for (HostBuffer* b : {&rb, &lb}) {
        if (b->buf) vkDestroyBuffer(device, b->buf, nullptr);
        if (b->mem) vkFreeMemory(device, b->mem, nullptr);
        *b = HostBuffer{};
      }
    };
    const auto t0 = std::chrono::steady_clock::now();
    const bool res_reg = find_registered(res_sub, r0.swz_span, &rbuf, &rskew);
    const bool lin_reg = find_registered(lin, r0.lin_span, &lbuf, &lskew);
    const uintptr_t ra = reinterpret_cast<uintptr_t>(res_sub), la = reinterpret_cast<uintptr_t>(lin);
    const uintptr_t ra0 = ra / import_align * import_align, la0 = la / import_align * import_align;
    const uintptr_t ra1 = ra + r0.swz_span, la1 = la + r0.lin_span;
    if (!res_reg && !lin_reg && ra0 < la1 && la0 < ra1) {
      // Both spans touch a common page: one import of their union (some
      // drivers refuse to import a page twice), both sides bound to it.
      const uintptr_t lo = std::min(ra, la), hi = std::max(ra1, la1);
      uint64_t skew = 0;
      if (!import_host(reinterpret_cast<const void*>(lo), hi - lo, &rb, &skew)) return false;
      rbuf = lbuf = rb.buf;
      rskew = ra - lo + skew;
      lskew = la - lo + skew;
      stats.imported_B += rb.size;
    }
    if (!rbuf) {
      if (!import_host(res_sub, r0.swz_span, &rb, &rskew)) return false;
      rbuf = rb.buf;
      stats.imported_B += rb.size;
    }
    if (!lbuf) {
      if (!import_host(lin, r0.lin_span, &lb, &lskew)) {
        release();
        return false;
      }
      lbuf = lb.buf;
      stats.imported_B += lb.size;
    }
    stats.setup_ms = ms_since(t0);
    stats.path = HostPath::import;
    // In bands through device-local slots where the region splits into at
    // least three, else one dispatch straight over the bus.
    const uint64_t band_B = import_band_B(std::max(r0.swz_span, r0.lin_span));
    RingPlan P;
    Status perr;
    // (device memory for the slots that cannot be had: the direct dispatch, which needs none)
    auto slots_made = [&] {
      const auto ts = std::chrono::steady_clock::now();
      const bool ok = ensure_band_slots(kBandSlots, P.lin_cap, P.res_cap).ok();
      stats.setup_ms += ms_since(ts);
      return ok;
    };
    if (band_B != UINT64_MAX && plan_ring(r0, to_swz, band_B, &P, &perr, true, lskew, rskew) && P.bands.size() >= 3 &&
        slots_made()) {
      *result = run_banded_import(P, to_swz, rbuf, rskew, lbuf, lskew);
      release();
      return true;
    }
    detail::GpuRegion r = r0;
    r.swz_offset = rskew;
    r.lin_offset = lskew;
    // The direct dispatch binds each side from the binding alignment below
    // the caller's pointer: a region that fits one binding at offset 0 (all
    // that check_subresource and the other paths need) may not fit at the
    // caller's offset, and a region that cannot be split into bands (a 3D
    // box) is then refused. Planned before anything is recorded, so that the
    // caller can take another path.
    {
      std::vector<detail::GpuRegion> bands;
      std::vector<detail::SwizzleDispatch> plans;
      Status ps = plan_region(r, 0, &bands, &plans);
      if (!ps.ok()) {
        release();
        const uint64_t al = std::max<uint64_t>(lim.min_storage_align, 1);
        *result = {ps.code(), "imported at the caller's pointers (resource " + std::to_string(rskew % al) +
                                  " and linear " + std::to_string(lskew % al) + " bytes past a " + std::to_string(al) +
                                  "-byte binding boundary): " + ps.message()};
        return false;
      }
    }
    DispatchInfo di;
    const auto t1 = std::chrono::steady_clock::now();
    *result = record_submit_wait([&](VkCommandBuffer cb) { return record_region(cb, r, to_swz, rbuf, lbuf, &di); });
    stats.wait_ms = ms_since(t1);
    stats.chunks = di.dispatches;
    release();
    return true;
  }

  static void barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src,
                      VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
    VkMemoryBarrier mb = vk_init<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask = src;
    mb.dstAccessMask = dst;
    vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &mb, 0, nullptr, 0, nullptr);
  }

  // The path the caller asked for: the tuning, else SWZ_GPU_HOST_PATH.
  HostPath wanted_path() const {
    if (tuning.host_path != HostPath::automatic) return tuning.host_path;
    if (const char* e = std::getenv("SWZ_GPU_HOST_PATH")) {
      const std::string v(e);
      if (v == "import") return HostPath::import;
      if (v == "ring") return HostPath::ring;
      if (v == "ring_copy") return HostPath::ring_copy;
      if (v == "staged") return HostPath::staged;
    }
    return HostPath::automatic;
  }
  // The chunk for a region spanning `span_B` bytes: as asked, else 1/8 of
  // the region between 2 and 8 MiB (so that mid-sized surfaces still have
  // several chunks to overlap).
  uint64_t ring_chunk_B(uint64_t span_B) const {
    uint64_t v = tuning.ring_chunk_B ? tuning.ring_chunk_B : env_u64("SWZ_GPU_RING_CHUNK", 0);
    if (v == 0) v = std::clamp<uint64_t>(span_B / 8, uint64_t{2} << 20, uint64_t{8} << 20);
    return std::clamp<uint64_t>(v, 4096, kMaxRingChunk);
  }
  unsigned ring_slots() const {
    const uint64_t v = tuning.ring_slots ? tuning.ring_slots : env_u64("SWZ_GPU_RING_SLOTS", 3);
    return static_cast<unsigned>(std::clamp<uint64_t>(v, 2, 8));
  }
  unsigned copy_threads() const {
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const uint64_t v = tuning.copy_threads ? tuning.copy_threads : env_u64("SWZ_GPU_COPY_THREADS", std::min(8u, hw));
    return static_cast<unsigned>(std::clamp<uint64_t>(v, 1, 64));
  }

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
  // False (plan left incomplete) when the region cannot go through the
  // ring: a band larger than kMaxRingChunk, or write bands whose resource
  // windows overlap a neighbour's while they must be copied in. Bands of
  // about `cap0` bytes. The ring puts each band's windows at byte 0 of its
  // slot's chunks; with `mirror` (the banded import path) they start at the
  // caller's address modulo 256 instead (lin_base and res_base: the offsets
  // of the linear box and the subresource in their imported buffers), so
  // that the device copies and the plan see the caller's alignment.
  bool plan_ring(const detail::GpuRegion& r0, bool to_swz, uint64_t cap0, RingPlan* P, Status* err, bool mirror = false,
                 uint64_t lin_base = 0, uint64_t res_base = 0) const {
    detail::GpuRegion r = r0;
    r.swz_offset = 0;
    r.lin_offset = 0;
    const uint64_t e = r.plan->element_bytes;
    for (uint64_t cap = cap0;; cap *= 2) {
      *err = detail::split_bands(r, lim, cap, &P->bands);
      if (!err->ok()) return false;
      uint64_t need = 0;
      for (const detail::GpuRegion& b : P->bands)
        need = std::max({need, b.band_span ? b.band_span : b.swz_span, b.lin_span});
      if (need <= cap) break;
      if (cap >= kMaxRingChunk) return false;
    }
    const size_t n = P->bands.size();
    P->plans.resize(n);
    P->lin_at.resize(n);
    P->res_at.resize(n);
    P->res_len.resize(n);
    P->lin_in.resize(n);
    P->res_in.resize(n);
    P->lin_slot_at.resize(n);
    P->res_slot_at.resize(n);
    for (size_t i = 0; i < n; ++i) {
      detail::GpuRegion& b = P->bands[i];
      P->res_at[i] = b.band_span ? b.band_lo : 0;
      P->res_len[i] = b.band_span ? b.band_span : b.swz_span;
      P->lin_at[i] = b.lin_offset;
      const uint64_t box_B = uint64_t{b.w} * b.h * b.d * e;
      P->res_in[i] = !to_swz || box_B != P->res_len[i];
      P->lin_in[i] = to_swz || box_B != b.lin_span;
      if (to_swz && i > 0 && (P->res_in[i] || P->res_in[i - 1]) && P->res_at[i] < P->res_at[i - 1] + P->res_len[i - 1])
        return false;
      // The band's window starts at byte 0 of the slot's resource chunk (or
      // at the caller's alignment), so the subresource starts res_at bytes
      // before it (modulo 2^64; the plan only uses swz_offset + band_lo).
      P->lin_slot_at[i] = mirror ? (lin_base + P->lin_at[i]) % 256 : 0;
      P->res_slot_at[i] = mirror ? (res_base + P->res_at[i]) % 256 : 0;
      b.swz_offset = P->res_slot_at[i] - P->res_at[i];
      b.lin_offset = P->lin_slot_at[i];
      *err = detail::plan_swizzle(b, lim, wg_log2(), &P->plans[i]);
      if (!err->ok()) return false;
      // (+ 256 + 16: the window's start in the slot, and the copies' whole words)
      P->lin_cap = std::max(P->lin_cap, b.lin_span + (mirror ? 272 : 0));
      P->res_cap = std::max(P->res_cap, P->res_len[i] + (mirror ? 272 : 0));
    }
    return true;
  }

  // Makes `slots` ring slots whose chunks hold lin_cap / res_cap bytes
  // (device-local twins too when `dev`); existing larger ones are kept.
  Status ensure_ring(size_t slots, uint64_t lin_cap, uint64_t res_cap, bool dev) {
    auto round = [](uint64_t v) { return (std::max<uint64_t>(v, 1) + 65535) / 65536 * 65536; };
    lin_cap = round(lin_cap);
    res_cap = round(res_cap);
    if (ring.size() < slots) ring.resize(slots);
    for (size_t i = 0; i < slots; ++i) {
      RingSlot& r = ring[i];
      auto grow = [&](HostBuffer* b, uint64_t cap, bool host) -> Status {
        if (b->buf && b->size >= cap) return Status::Ok();
        free_buffer(b);
        return host ? make_host_buffer(cap, VK_MEMORY_PROPERTY_HOST_CACHED_BIT, b) : make_device_buffer(cap, b);
      };
      SWZ_TRY(grow(&r.lin, lin_cap, true));
      SWZ_TRY(grow(&r.res, res_cap, true));
      if (dev) {
        SWZ_TRY(grow(&r.lin_dev, lin_cap, false));
        SWZ_TRY(grow(&r.res_dev, res_cap, false));
      }
      if (!r.cmd) {
        VkCommandBufferAllocateInfo cai =
            vk_init<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
        cai.commandPool = pool;
        cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cai.commandBufferCount = 1;
        SWZ_VK(vkAllocateCommandBuffers(device, &cai, &r.cmd), "vkAllocateCommandBuffers");
      }
      if (!r.fence) {
        VkFenceCreateInfo fci = vk_init<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
        SWZ_VK(vkCreateFence(device, &fci, nullptr, &r.fence), "vkCreateFence");
      }
    }
    return Status::Ok();
  }

  // Records and submits band k on slot `r` (signals r.fence).
  Status submit_band(const RingPlan& P, size_t k, RingSlot& r, bool to_swz, bool dev) {
    SWZ_VK(vkResetCommandBuffer(r.cmd, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo bi = vk_init<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SWZ_VK(vkBeginCommandBuffer(r.cmd, &bi), "vkBeginCommandBuffer");
    const uint64_t lin_B = P.bands[k].lin_span, res_B = P.res_len[k];
    Status s;
    if (dev) {
      if (P.lin_in[k]) {
        VkBufferCopy c{0, 0, lin_B};
        vkCmdCopyBuffer(r.cmd, r.lin.buf, r.lin_dev.buf, 1, &c);
      }
      if (P.res_in[k]) {
        VkBufferCopy c{0, 0, res_B};
        vkCmdCopyBuffer(r.cmd, r.res.buf, r.res_dev.buf, 1, &c);
      }
      barrier(r.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      s = record_planned(r.cmd, P.plans[k], to_swz, r.res_dev.buf, r.lin_dev.buf, nullptr);
      barrier(r.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
              VK_ACCESS_TRANSFER_READ_BIT);
      VkBufferCopy c{0, 0, to_swz ? res_B : lin_B};
      if (to_swz)
        vkCmdCopyBuffer(r.cmd, r.res_dev.buf, r.res.buf, 1, &c);
      else
        vkCmdCopyBuffer(r.cmd, r.lin_dev.buf, r.lin.buf, 1, &c);
      barrier(r.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
              VK_ACCESS_HOST_READ_BIT);
    } else {
      s = record_planned(r.cmd, P.plans[k], to_swz, r.res.buf, r.lin.buf, nullptr);
      barrier(r.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
              VK_ACCESS_HOST_READ_BIT);
    }
    SWZ_VK(vkEndCommandBuffer(r.cmd), "vkEndCommandBuffer");
    SWZ_TRY(s);
    VkSubmitInfo si = vk_init<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.commandBufferCount = 1;
    si.pCommandBuffers = &r.cmd;
    SWZ_VK(vkResetFences(device, 1, &r.fence), "vkResetFences");
    SWZ_VK(vkQueueSubmit(queue, 1, &si, r.fence), "vkQueueSubmit");
    return Status::Ok();
  }

  Status run_ring(const RingPlan& P, bool to_swz, uint8_t* res_sub, uint8_t* lin, bool dev) {
    using clock = std::chrono::steady_clock;
    const size_t n = P.bands.size();
    const size_t slots = std::min<size_t>(ring_slots(), n);
    const unsigned threads = copy_threads();
    const bool stream = tuning.stream_copies || env_u64("SWZ_GPU_STREAM_COPIES", 0) == 1;
    auto t = clock::now();
    SWZ_TRY(ensure_ring(slots, P.lin_cap, P.res_cap, dev));
    stats.setup_ms = ms_since(t);
    stats.path = dev ? HostPath::ring_copy : HostPath::ring;
    stats.chunks = static_cast<uint32_t>(n);
    stats.chunk_B = P.res_cap;
    auto copy_in = [&](size_t k, RingSlot& r) {
      detail::CopySpan sp[2];
      size_t m = 0;
      if (P.lin_in[k]) sp[m++] = {r.lin.map, lin + P.lin_at[k], P.bands[k].lin_span};
      if (P.res_in[k]) sp[m++] = {r.res.map, res_sub + P.res_at[k], P.res_len[k]};
      const auto t0 = clock::now();
      copier.copy(sp, m, threads, stream);
      stats.host_copy_ms += ms_since(t0);
    };
    auto copy_out = [&](size_t k, RingSlot& r) {
      const detail::CopySpan sp = to_swz ? detail::CopySpan{res_sub + P.res_at[k], r.res.map, P.res_len[k]}
                                         : detail::CopySpan{lin + P.lin_at[k], r.lin.map, P.bands[k].lin_span};
      const auto t0 = clock::now();
      copier.copy(&sp, 1, threads, stream);
      stats.host_copy_ms += ms_since(t0);
    };
    auto wait = [&](RingSlot& r) -> Status {
      const auto t0 = clock::now();
      const VkResult w = vkWaitForFences(device, 1, &r.fence, VK_TRUE, UINT64_MAX);
      stats.wait_ms += ms_since(t0);
      return w == VK_SUCCESS ? Status::Ok() : vk_fail("vkWaitForFences", w);
    };
    Status st;
    size_t submitted = 0, retired = 0;
    for (size_t k = 0; k < n && st.ok(); ++k) {
      RingSlot& r = ring[k % slots];
      if (k >= slots) {
        st = wait(r);
        if (!st.ok()) break;
        copy_out(retired++, r);
      }
      copy_in(k, r);
      st = submit_band(P, k, r, to_swz, dev);
      if (st.ok()) ++submitted;
    }
    // Drain: every submitted band is waited for, even after an error.
    for (; retired < submitted; ++retired) {
      RingSlot& r = ring[retired % slots];
      Status w = wait(r);
      if (!w.ok()) {
        if (st.ok()) st = w;
        vkDeviceWaitIdle(device);
        break;
      }
      if (st.ok()) copy_out(retired, r);
    }
    return st;
  }

  // ---- Imported memory in bands ---------------------------------------------
  // The band of the imported path (DispatchTuning::import_band_B);
  // UINT64_MAX: no bands.
  uint64_t import_band_B(uint64_t span_B) const {
    uint64_t v = tuning.import_band_B;
    // SWZ_GPU_IMPORT_BAND: "direct" or a whole number of bytes (decimal or
    // 0x hex); anything else ("16M", "-1") is ignored like a malformed
    // SWZ_GPU_RING_CHUNK, rather than read as its leading digits.
    const char* e = v == 0 ? std::getenv("SWZ_GPU_IMPORT_BAND") : nullptr;
    if (e && std::strcmp(e, "direct") == 0)
      v = UINT64_MAX;
    else if (e && e[0] >= '0' && e[0] <= '9')
      v = env_u64("SWZ_GPU_IMPORT_BAND", 0);
    if (v == UINT64_MAX) return v;
    if (v == 0) v = std::clamp<uint64_t>(span_B / 8, uint64_t{4} << 20, uint64_t{32} << 20);
    return std::clamp<uint64_t>(v, 4096, kMaxRingChunk);
  }

  static constexpr size_t kBandSlots = 3;
  // Makes `slots` device-local band slots of lin_cap / res_cap bytes
  // (existing larger ones are kept).
  Status ensure_band_slots(size_t slots, uint64_t lin_cap, uint64_t res_cap) {
    auto round = [](uint64_t v) { return (std::max<uint64_t>(v, 1) + 65535) / 65536 * 65536; };
    if (band_slots.size() < slots) band_slots.resize(slots);
    for (size_t i = 0; i < slots; ++i)
      for (auto [b, cap] : {std::pair{&band_slots[i].lin, lin_cap}, std::pair{&band_slots[i].res, res_cap}}) {
        if (b->buf && b->size >= cap) continue;
        free_buffer(b);
        SWZ_TRY(make_device_buffer(round(cap), b));
      }
    return Status::Ok();
  }

  // The banded import path, one submission: step j uploads band j's inputs
  // into slot j % 3, converts band j-1 there and downloads band j-2's output,
  // then a barrier. The upload and the download share one dispatch
  // (copy2.comp) in 16-byte words: the caller's memory and the slot agree
  // modulo 256 (plan_ring's mirror), the uploads round out to whole words
  // (the extra bytes lie in the caller's imported pages and in the slot's
  // margin) and the downloads leave their partial words at either end to
  // vkCmdCopyBuffer, so that no byte outside the output is written.
  Status run_banded_import(const RingPlan& P, bool to_swz, VkBuffer rbuf, uint64_t rskew, VkBuffer lbuf,
                           uint64_t lskew) {
    // (the band slots are made by the caller, before it chooses this path)
    constexpr size_t kSlots = kBandSlots;
    const size_t n = P.bands.size();
    auto t = std::chrono::steady_clock::now();
    VkPipeline pair = VK_NULL_HANDLE;
    SWZ_TRY(pair_pipeline(&pair));
    stats.setup_ms += ms_since(t);
    stats.chunks = static_cast<uint32_t>(n);
    stats.chunk_B = *std::max_element(P.res_len.begin(), P.res_len.end());  // (res_cap adds the slot margin)
    struct Move {
      VkBuffer src = VK_NULL_HANDLE, dst = VK_NULL_HANDLE;
      detail::CopyRange r;
    };
    auto whole_words = [](VkBuffer src, uint64_t so, VkBuffer dst, uint64_t dof, uint64_t len) {
      const uint64_t lo = so % 16;  // == dof % 16
      return Move{src, dst, {so - lo, dof - lo, (lo + len + 15) / 16 * 16}};
    };
    constexpr VkPipelineStageFlags kStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    constexpr VkAccessFlags kWrites = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    constexpr VkPipelineStageFlags kCompute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    constexpr VkAccessFlags kShaderWrite = VK_ACCESS_SHADER_WRITE_BIT, kNone = 0;
    // (benchmark knob: log2 of the words per workgroup of the paired copy)
    const unsigned pair_u = static_cast<unsigned>(env_u64("SWZ_GPU_PAIR_WG_LOG2", 0));
    // Band k's download: its whole 16-byte words (body, for the paired
    // copy) and the partial words at either end (ends, for vkCmdCopyBuffer);
    // returns how many ends.
    auto download = [&](size_t k, Move* body, VkBufferCopy ends[2]) -> uint32_t {
      const BandSlot& sl = band_slots[k % kSlots];
      const uint64_t so = to_swz ? P.res_slot_at[k] : P.lin_slot_at[k];
      const uint64_t len = to_swz ? P.res_len[k] : P.bands[k].lin_span;
      const uint64_t dof = to_swz ? rskew + P.res_at[k] : lskew + P.lin_at[k];
      *body = Move{to_swz ? sl.res.buf : sl.lin.buf, to_swz ? rbuf : lbuf, {}};
      const uint64_t head = (16 - so % 16) % 16;
      if (len < head + 16) {
        ends[0] = {so, dof, len};
        return 1;
      }
      const uint64_t words = (len - head) / 16 * 16;
      body->r = {so + head, dof + head, words};
      uint32_t m = 0;
      if (head) ends[m++] = {so, dof, head};
      if (head + words < len) ends[m++] = {so + head + words, dof + head + words, len - head - words};
      return m;
    };
    t = std::chrono::steady_clock::now();
    Status s = record_submit_wait([&](VkCommandBuffer cb) -> Status {
      for (size_t j = 0; j < n + 2; ++j) {
        Move up[2];
        int nup = 0;
        if (j < n) {
          const BandSlot& sl = band_slots[j % kSlots];
          if (P.lin_in[j])
            up[nup++] = whole_words(lbuf, lskew + P.lin_at[j], sl.lin.buf, P.lin_slot_at[j], P.bands[j].lin_span);
          if (P.res_in[j]) up[nup++] = whole_words(rbuf, rskew + P.res_at[j], sl.res.buf, P.res_slot_at[j], P.res_len[j]);
        }
        Move down;
        VkBufferCopy ends[2];
        const uint32_t nends = j >= 2 ? download(j - 2, &down, ends) : 0;
        if (nup > 0 || down.r.size > 0) {
          const Move& a = nup > 0 ? up[0] : down;
          const Move& b = down.r.size > 0 ? down : up[0];
          detail::CopyPairDispatch D;
          SWZ_TRY(detail::plan_copy_pair(nup > 0 ? up[0].r : detail::CopyRange{}, down.r, lim, pair_u, &D));
          const VkBuffer bufs[4] = {a.src, a.dst, b.src, b.dst};
          VkDescriptorBufferInfo inf[4];
          const VkDescriptorBufferInfo* ip[4];
          for (int i = 0; i < 4; ++i) {
            inf[i] = {bufs[i], D.bind_offset[i], D.bind_range[i]};
            ip[i] = &inf[i];
          }
          bind_and_dispatch(cb, pair, pair_pl, ip, 4, &D.push, sizeof(D.push), D.groups_x, D.groups_y);
        }
        if (nup == 2) SWZ_TRY(record_copy(cb, up[1].src, up[1].r.src_offset, up[1].dst, up[1].r.dst_offset, up[1].r.size, nullptr));
        if (j >= 1 && j <= n) {
          const BandSlot& sl = band_slots[(j - 1) % kSlots];
          SWZ_TRY(record_planned(cb, P.plans[j - 1], to_swz, sl.res.buf, sl.lin.buf, nullptr));
        }
        if (nends) vkCmdCopyBuffer(cb, down.src, down.dst, nends, ends);
        // The transfer stage joins a barrier only on the side of a step
        // that copies ends (the barriers chain through the compute stage).
        Move next_body;
        VkBufferCopy next_ends[2];
        const bool transfer_next = j + 1 >= 2 && j - 1 < n && download(j - 1, &next_body, next_ends) != 0;
        barrier(cb, nends ? kStages : kCompute, nends ? kWrites : kShaderWrite, transfer_next ? kStages : kCompute,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                    (transfer_next ? VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT : kNone));
      }
      barrier(cb, kStages, kWrites, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
      return Status::Ok();
    });
    stats.wait_ms = ms_since(t);
    return s;
  }

  // Host path: the ring, imported memory or whole staging buffers (see
  // HostPath). Every band of the whole region is planned first (every
  // device limit checked) before anything is allocated or imported.
  Status host_subresource(const Layout& layout, uint8_t* resource, uint64_t resource_size, uint32_t subresource,
                          const Box* box, uint8_t* linear, uint64_t linear_size, uint64_t lin_row_pitch,
                          uint64_t lin_depth_pitch, bool to_swizzled);
  Status host_convert(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin) {
    const auto t0 = std::chrono::steady_clock::now();
    stats = HostPathStats{};
    Status s = host_convert_path(r0, to_swz, res_sub, lin);
    stats.total_ms = ms_since(t0);
    return s;
  }
  Status host_convert_path(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin) {
    detail::GpuRegion r = r0;
    r.swz_offset = 0;
    r.lin_offset = 0;
    std::vector<detail::GpuRegion> bands;
    SWZ_TRY(detail::split_bands(r, lim, 0, &bands));
    std::vector<detail::SwizzleDispatch> plans(bands.size());
    std::vector<uint64_t> lin_at(bands.size()), res_at(bands.size()), res_len(bands.size());
    uint64_t max_res = 0, max_lin = 0;
    for (size_t i = 0; i < bands.size(); ++i) {
      detail::GpuRegion& b = bands[i];
      res_at[i] = b.band_span ? b.band_lo : 0;
      res_len[i] = b.band_span ? b.band_span : b.swz_span;
      lin_at[i] = b.lin_offset;
      // Each band's window starts at byte 0 of the staging buffer: the
      // subresource then starts 'band_lo' bytes before it (modulo 2^64; the
      // plan only uses swz_offset + band_lo and its alignment).
      b.swz_offset = uint64_t{0} - res_at[i];
      b.lin_offset = 0;
      SWZ_TRY(detail::plan_swizzle(b, lim, wg_log2(), &plans[i]));
      max_res = std::max(max_res, res_len[i]);
      max_lin = std::max(max_lin, b.lin_span);
    }
    // Everything is checked. The path:
    const HostPath want = wanted_path();
    bool import_tried = false;
    if (want == HostPath::automatic && !registered.empty()) {
      VkBuffer b;
      uint64_t o;
      if (find_registered(res_sub, r0.swz_span, &b, &o) && find_registered(lin, r0.lin_span, &b, &o)) {
        // Both sides registered: no copy, no import cost. Where the import
        // path cannot bind the caller's pointers, the automatic choice below.
        import_tried = true;
        Status s;
        if (host_convert_imported(r0, to_swz, res_sub, lin, &s)) return s;
      }
    }
    if (want == HostPath::automatic || want == HostPath::ring || want == HostPath::ring_copy) {
      RingPlan P;
      Status err;
      if (plan_ring(r0, to_swz, ring_chunk_B(std::max(r0.swz_span, r0.lin_span)), &P, &err))
        return run_ring(P, to_swz, res_sub, lin, want == HostPath::ring_copy);
      // A forced ring that cannot take the region is staged whole (stats say so).
      if (!err.ok() && want != HostPath::automatic) return err;
    }
    const char* no_import = std::getenv("SWZ_GPU_HOST_IMPORT");
    if (!import_tried && (want == HostPath::import ||
                          (want == HostPath::automatic && !(no_import && std::strcmp(no_import, "0") == 0)))) {
      Status s;
      if (host_convert_imported(r0, to_swz, res_sub, lin, &s)) return s;
      if (want == HostPath::import) {
        if (!s.ok()) return {s.code(), "GPU host path 'import': " + s.message()};
        return {Code::unsupported, std::string("GPU host path 'import': ") +
                                       (host_import ? "the driver refused to import the caller's memory"
                                                    : "the device does not offer VK_EXT_external_memory_host")};
      }
    }
    stats.path = HostPath::staged;
    stats.chunks = static_cast<uint32_t>(bands.size());
    stats.chunk_B = max_res;
    auto t = std::chrono::steady_clock::now();
    SWZ_TRY(ensure_stage(&res_stage, max_res));
    SWZ_TRY(ensure_stage(&lin_stage, max_lin));
    stats.setup_ms = ms_since(t);
    for (size_t i = 0; i < bands.size(); ++i) {
      t = std::chrono::steady_clock::now();
      copy_mt(res_stage.map, res_sub + res_at[i], res_len[i]);
      copy_mt(lin_stage.map, lin + lin_at[i], bands[i].lin_span);
      stats.host_copy_ms += ms_since(t);
      t = std::chrono::steady_clock::now();
      SWZ_TRY(record_submit_wait([&](VkCommandBuffer cb) {
        return record_planned(cb, plans[i], to_swz, res_stage.buf, lin_stage.buf, nullptr);
      }));
      stats.wait_ms += ms_since(t);
      t = std::chrono::steady_clock::now();
      if (to_swz)
        copy_mt(res_sub + res_at[i], res_stage.map, res_len[i]);
      else
        copy_mt(lin + lin_at[i], lin_stage.map, bands[i].lin_span);
      stats.host_copy_ms += ms_since(t);
    }
    return Status::Ok();
  }

  // Checks a host-path request completely (every band planned) without
  // allocating or recording anything.
  Status check_region(const detail::GpuRegion& r0) const {
    detail::GpuRegion r = r0;
    std::vector<detail::GpuRegion> bands;
    std::vector<detail::SwizzleDispatch> plans;
    return plan_region(r, 0, &bands, &plans);
  }
};

// ---- Creation ----------------------------------------------------------------

void teardown_at_exit() {
  ExitRegistry& R = exit_registry();
  std::lock_guard<std::mutex> g(R.mu);
  R.exiting = true;
  for (Context::Impl* I : R.live) I->exit_teardown();
  R.live.clear();
}

namespace {
// Registers the exit handler anew after each successful create/adopt, so
// that it runs before any exit handler the driver registered while the
// device was made (a driver unloaded with its last instance and loaded again
// registers again). Bounded: a program that makes thousands of contexts
// keeps the first 256 registrations, the last of which is the one that
// counts for a driver loaded once. SWZ_GPU_EXIT_TEARDOWN=0 turns the handler
// off (to reproduce the crash it prevents).
void register_live(Context::Impl* I) {
  ExitRegistry& R = exit_registry();
  std::lock_guard<std::mutex> g(R.mu);
  R.live.insert(I);
  const char* e = std::getenv("SWZ_GPU_EXIT_TEARDOWN");
  if (e && std::strcmp(e, "0") == 0) return;
  if (R.registrations < 256 && std::atexit(&teardown_at_exit) == 0) ++R.registrations;
}
}  // namespace

Context::Context() = default;
Context::~Context() = default;
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;

static Status create_impl(Context::Impl* I, const ContextOptions& o) {
  uint32_t inst_ver = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion(&inst_ver) != VK_SUCCESS) inst_ver = VK_API_VERSION_1_0;
  if (inst_ver < VK_API_VERSION_1_1)
    return {Code::no_device, "no Vulkan 1.1 loader (the installed loader reports 1.0)"};
  VkApplicationInfo app = vk_init<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "swz";
  app.pEngineName = "swz";
  app.apiVersion = std::min<uint32_t>(inst_ver, VK_API_VERSION_1_3);
  VkInstanceCreateInfo ici = vk_init<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ici.pApplicationInfo = &app;
  const char* layer = "VK_LAYER_KHRONOS_validation";
  if (o.validation) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> L(n);
    vkEnumerateInstanceLayerProperties(&n, L.data());
    for (auto& l : L)
      if (std::strcmp(l.layerName, layer) == 0) {
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layer;
      }
  }
  VkResult r = vkCreateInstance(&ici, nullptr, &I->instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
    return {Code::no_device, "no Vulkan driver: vkCreateInstance returned " + vk_err(r)};
  if (r != VK_SUCCESS) return vk_fail("vkCreateInstance", r);
  I->owns = true;
  uint32_t n = 0;
  r = vkEnumeratePhysicalDevices(I->instance, &n, nullptr);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE)
    return {Code::no_device, "vkEnumeratePhysicalDevices returned " + vk_err(r)};
  if (n == 0) return {Code::no_device, "no Vulkan device (the loader found no driver that reports a physical device)"};
  std::vector<VkPhysicalDevice> devs(n);
  vkEnumeratePhysicalDevices(I->instance, &n, devs.data());
  int want = o.device_index;
  if (want < 0)
    if (const char* e = std::getenv("SWZ_VK_DEVICE")) want = std::atoi(e);
  // Pick: requirements first, then device type.
  std::string why;
  int best = -1, best_score = -1;
  uint32_t best_family = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (want >= 0 && static_cast<uint32_t>(want) != i) continue;
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(devs[i], &p);
    if (p.apiVersion < VK_API_VERSION_1_1) {
      why += std::string(p.deviceName) + ": Vulkan 1.0 only; ";
      continue;
    }
    if (!has_ext(devs[i], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
      why += std::string(p.deviceName) + ": no VK_KHR_push_descriptor; ";
      continue;
    }
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, nullptr);
    std::vector<VkQueueFamilyProperties> qf(qn);
    vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, qf.data());
    int fam = -1;
    for (uint32_t f = 0; f < qn; ++f)
      if ((qf[f].queueFlags & VK_QUEUE_COMPUTE_BIT) && qf[f].timestampValidBits > 0) {
        fam = static_cast<int>(f);
        break;
      }
    if (fam < 0)
      for (uint32_t f = 0; f < qn; ++f)
        if (qf[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
          fam = static_cast<int>(f);
          break;
        }
    if (fam < 0) {
      why += std::string(p.deviceName) + ": no compute queue; ";
      continue;
    }
    int score = 0;
    switch (p.deviceType) {
      case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        score = 4;
        break;
      case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        score = 3;
        break;
      case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        score = 2;
        break;
      case VK_PHYSICAL_DEVICE_TYPE_CPU:
        score = 1;
        break;
      default:
        score = 0;
    }
    if (score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
      best_family = static_cast<uint32_t>(fam);
    }
  }
  if (best < 0) {
    if (want >= 0 && static_cast<uint32_t>(want) >= n)
      return {Code::no_device,
              "Vulkan device index " + std::to_string(want) + " requested; " + std::to_string(n) + " present"};
    return {Code::unsupported, "no usable Vulkan device: " + why};
  }
  I->phys = devs[static_cast<size_t>(best)];
  I->family = best_family;
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(I->phys, &p);
  // Optional 8/16-bit storage.
  const bool v12 = p.apiVersion >= VK_API_VERSION_1_2;
  const bool ext8 = !v12 && has_ext(I->phys, VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  VkPhysicalDevice8BitStorageFeatures f8 =
      vk_init<VkPhysicalDevice8BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES);
  VkPhysicalDevice16BitStorageFeatures f16 =
      vk_init<VkPhysicalDevice16BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  VkPhysicalDeviceFeatures2 f2 = vk_init<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f2.pNext = &f16;
  if (v12 || ext8) f16.pNext = &f8;
  vkGetPhysicalDeviceFeatures2(I->phys, &f2);
  VkPhysicalDevice8BitStorageFeatures e8 =
      vk_init<VkPhysicalDevice8BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES);
  VkPhysicalDevice16BitStorageFeatures e16 =
      vk_init<VkPhysicalDevice16BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  e16.storageBuffer16BitAccess = f16.storageBuffer16BitAccess;
  e8.storageBuffer8BitAccess = (v12 || ext8) ? f8.storageBuffer8BitAccess : VK_FALSE;
  VkPhysicalDeviceFeatures2 en = vk_init<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  en.pNext = &e16;
  if (e8.storageBuffer8BitAccess) e16.pNext = &e8;
  std::vector<const char*> exts{VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  if (ext8 && e8.storageBuffer8BitAccess) exts.push_back(VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  const bool host_import = has_ext(I->phys, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (host_import) exts.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  const float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = vk_init<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qci.queueFamilyIndex = I->family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &prio;
  VkDeviceCreateInfo dci = vk_init<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  dci.pNext = &en;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = static_cast<uint32_t>(exts.size());
  dci.ppEnabledExtensionNames = exts.data();
  SWZ_VK(vkCreateDevice(I->phys, &dci, nullptr, &I->device), "vkCreateDevice");
  if (host_import) I->init_host_import();
  I->lim.word1 = e8.storageBuffer8BitAccess == VK_TRUE;
  I->lim.word2 = e16.storageBuffer16BitAccess == VK_TRUE;
  return I->init_common();
}

Status Context::create(Context* out, const ContextOptions& options) {
  if (!out) return {Code::invalid_argument, "out = null"};
  try {
    auto impl = std::make_unique<Impl>();
    Status s = create_impl(impl.get(), options);
    if (!s.ok()) return s;
    register_live(impl.get());
    out->impl_ = std::move(impl);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return {Code::internal, "out of host memory creating the Vulkan context"};
  }
}

Status Context::adopt(Context* out, const AdoptInfo& info) {
  if (!out) return {Code::invalid_argument, "out = null"};
  if (!info.instance || !info.physical_device || !info.device)
    return {Code::invalid_argument, "AdoptInfo: instance, physical_device and device must be set"};
  try {
    auto impl = std::make_unique<Impl>();
    impl->owns = false;
    impl->instance = info.instance;
    impl->phys = info.physical_device;
    impl->device = info.device;
    impl->family = info.queue_family;
    impl->lim.word1 = info.storage_buffer_8bit;
    impl->lim.word2 = info.storage_buffer_16bit;
    if (info.external_memory_host) impl->init_host_import();
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(info.physical_device, &qn, nullptr);
    std::vector<VkQueueFamilyProperties> qf(qn);
    vkGetPhysicalDeviceQueueFamilyProperties(info.physical_device, &qn, qf.data());
    if (info.queue_family >= qn || !(qf[info.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT))
      return {Code::invalid_argument,
              "AdoptInfo: queue_family = " + std::to_string(info.queue_family) + " has no compute queue"};
    Status s = impl->init_common();
    if (!s.ok()) return s;
    if (info.queue) impl->queue = info.queue;
    register_live(impl.get());
    out->impl_ = std::move(impl);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return {Code::internal, "out of host memory adopting the Vulkan device"};
  }
}

std::string Context::device_name() const { return impl_ ? std::string(impl_->props.deviceName) : std::string(); }
VkInstance Context::instance() const { return impl_ ? impl_->instance : VK_NULL_HANDLE; }
VkPhysicalDevice Context::physical_device() const { return impl_ ? impl_->phys : VK_NULL_HANDLE; }
VkDevice Context::device() const { return impl_ ? impl_->device : VK_NULL_HANDLE; }
VkQueue Context::queue() const { return impl_ ? impl_->queue : VK_NULL_HANDLE; }
uint32_t Context::queue_family() const { return impl_ ? impl_->family : 0; }
void Context::set_tuning(const DispatchTuning& t) {
  if (impl_) impl_->tuning = t;
}
HostPathStats Context::last_host_stats() const { return impl_ ? impl_->stats : HostPathStats{}; }

Status Context::register_host_memory(const void* ptr, uint64_t size) {
  if (!impl_) return {Code::invalid_argument, "GPU context not created"};
  if (!ptr || size == 0) return {Code::invalid_argument, "register_host_memory: ptr = null or size = 0"};
  Impl& I = *impl_;
  if (!I.host_import)
    return {Code::unsupported, "register_host_memory: the device does not offer VK_EXT_external_memory_host"};
  const uintptr_t a = reinterpret_cast<uintptr_t>(ptr);
  if (size > UINTPTR_MAX - a) return {Code::invalid_argument, "register_host_memory: range wraps the address space"};
  for (const Impl::Registered& r : I.registered)
    if (a < r.hi && r.lo < a + size)
      return {Code::invalid_argument, "register_host_memory: the range overlaps one registered before"};
  try {
    Impl::Registered r;
    uint64_t skew = 0;
    if (!I.import_host(ptr, size, &r.b, &skew))
      return {Code::unsupported,
              "register_host_memory: the driver refused to import " + std::to_string(size) + " bytes at this pointer"};
    r.lo = a;
    r.hi = a + size;
    r.base = a - skew;
    I.registered.push_back(r);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return {Code::internal, "out of host memory"};
  }
}

Status Context::unregister_host_memory(const void* ptr) {
  if (!impl_) return {Code::invalid_argument, "GPU context not created"};
  Impl& I = *impl_;
  const uintptr_t a = reinterpret_cast<uintptr_t>(ptr);
  for (size_t i = 0; i < I.registered.size(); ++i)
    if (I.registered[i].lo == a) {
      if (I.device) vkQueueWaitIdle(I.queue);
      I.free_buffer(&I.registered[i].b);
      I.registered.erase(I.registered.begin() + static_cast<std::ptrdiff_t>(i));
      return Status::Ok();
    }
  return {Code::invalid_argument, "unregister_host_memory: pointer was not registered"};
}
void Context::trim() {
  if (impl_) impl_->trim();
}

// ---- Recording ---------------------------------------------------------------

namespace {
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

// ---- Host conveniences -------------------------------------------------------

Status Context::check_subresource(const Layout& layout, uint32_t subresource, const Box* box, uint64_t lin_row_pitch,
                                  uint64_t lin_depth_pitch) const {
  if (!impl_) return {Code::invalid_argument, "GPU context not created"};
  try {
    detail::GpuRegion r;
    bool empty = false;
    SWZ_TRY(detail::resolve_region(layout, 0, layout.size(), subresource, box, 0, UINT64_MAX, lin_row_pitch,
                                   lin_depth_pitch, "linear", &r, &empty));
    if (empty) return Status::Ok();
    // The host path binds the linear box from byte 0 of its staging buffer.
    detail::GpuRegion h = r;
    h.swz_offset = 0;
    h.lin_offset = 0;
    return impl_->check_region(h);
  } catch (const std::bad_alloc&) {
    return {Code::internal, "out of host memory"};
  }
}

// Both host directions: validate, then convert through staging buffers.
Status Context::Impl::host_subresource(const Layout& layout, uint8_t* resource, uint64_t resource_size,
                                       uint32_t subresource, const Box* box, uint8_t* linear, uint64_t linear_size,
                                       uint64_t lin_row_pitch, uint64_t lin_depth_pitch, bool to_swizzled) {
  try {
    detail::GpuRegion r;
    bool empty = false;
    SWZ_TRY(detail::resolve_region(layout, 0, resource_size, subresource, box, 0, linear_size, lin_row_pitch,
                                   lin_depth_pitch, to_swizzled ? "source" : "destination", &r, &empty));
    if (empty) return Status::Ok();
    if (!resource) return {Code::invalid_argument, "resource = null"};
    if (!linear) return {Code::invalid_argument, to_swizzled ? "source = null" : "destination = null"};
    SWZ_TRY(check_gpu_disjoint(r, reinterpret_cast<uintptr_t>(resource), reinterpret_cast<uintptr_t>(linear),
                               to_swizzled, " in host memory"));
    return host_convert(r, to_swizzled, resource + r.swz_offset, linear);
  } catch (const std::bad_alloc&) {
    return {Code::internal, "out of host memory"};
  }
}

Status Context::write_to_subresource(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource,
                                     const Box* box, const void* src, uint64_t src_size, uint64_t src_row_pitch,
                                     uint64_t src_depth_pitch) {
  if (!impl_) return {Code::invalid_argument, "GPU context not created"};
  // The source is only read: host_convert copies it into staging.
  return impl_->host_subresource(layout, static_cast<uint8_t*>(resource), resource_size, subresource, box,
                                 const_cast<uint8_t*>(static_cast<const uint8_t*>(src)), src_size, src_row_pitch,
                                 src_depth_pitch, true);
}

Status Context::read_from_subresource(void* dst, uint64_t dst_size, uint64_t dst_row_pitch, uint64_t dst_depth_pitch,
                                      const Layout& layout, const void* resource, uint64_t resource_size,
                                      uint32_t subresource, const Box* box) {
  if (!impl_) return {Code::invalid_argument, "GPU context not created"};
  // The resource is only read: host_convert copies it into staging.
  return impl_->host_subresource(layout, const_cast<uint8_t*>(static_cast<const uint8_t*>(resource)), resource_size,
                                 subresource, box, static_cast<uint8_t*>(dst), dst_size, dst_row_pitch, dst_depth_pitch,
                                 false);
}

}  // namespace swz::gpu
