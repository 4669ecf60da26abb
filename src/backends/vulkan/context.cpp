// swz::gpu::Context: instance and device creation (or adoption), the
// device state every path shares (layouts, command pool), teardown at exit,
// and the accessors. The other parts of Context::Impl: context_memory.cpp,
// context_record.cpp, context_ring.cpp, context_import.cpp, context_host.cpp.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_set>
#include <vector>

#include "backends/vulkan/context_impl.hpp"
#include "core/parse_number.hpp"

namespace swz::gpu {

namespace {

bool has_ext(VkPhysicalDevice pd, const char* name) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> e(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, e.data());
  for (auto& x : e)
    if (std::strcmp(x.extensionName, name) == 0) return true;
  return false;
}

}  // namespace

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

Context::Impl::~Impl() {
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
void Context::Impl::exit_teardown() {
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

void Context::Impl::destroy() {
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

// VK_EXT_external_memory_host is enabled on the device: read its
// alignment and check that our buffers accept host allocations.
void Context::Impl::init_host_import() {
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

Status Context::Impl::init_common() {
  vkGetPhysicalDeviceProperties(phys, &props);
  vkGetPhysicalDeviceMemoryProperties(phys, &memprops);
  if (props.apiVersion < VK_API_VERSION_1_1)
    return {Code::unsupported, std::string("GPU path: device ") + props.deviceName + " supports only Vulkan " +
                                   std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." +
                                   std::to_string(VK_API_VERSION_MINOR(props.apiVersion)) + " (1.1 needed)"};
  lim.max_storage_range = props.limits.maxStorageBufferRange;
  // Testing knob: pretend the device binds at most this many bytes, so
  // that the band split runs on small surfaces (never raises the limit).
  const uint64_t max_binding = swz::detail::env_unsigned("SWZ_GPU_MAX_BINDING", 0);
  if (max_binding >= 4096 && max_binding < lim.max_storage_range) lim.max_storage_range = max_binding;
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

// The instance (Vulkan 1.1 at least; the validation layer when asked for and
// installed), owned by I.
static Status create_instance(Context::Impl* I, const ContextOptions& o) {
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
  return Status::Ok();
}

static Status create_impl(Context::Impl* I, const ContextOptions& o) {
  SWZ_TRY(create_instance(I, o));
  uint32_t n = 0;
  VkResult r = vkEnumeratePhysicalDevices(I->instance, &n, nullptr);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE)
    return {Code::no_device, "vkEnumeratePhysicalDevices returned " + vk_err(r)};
  if (n == 0) return {Code::no_device, "no Vulkan device (the loader found no driver that reports a physical device)"};
  std::vector<VkPhysicalDevice> devs(n);
  vkEnumeratePhysicalDevices(I->instance, &n, devs.data());
  int want = o.device_index;
  if (want < 0) {
    // SWZ_VK_DEVICE: a decimal or 0x hex index; anything else is ignored.
    const uint64_t v = swz::detail::env_unsigned("SWZ_VK_DEVICE", UINT64_MAX);
    if (v != UINT64_MAX) want = static_cast<int>(std::min<uint64_t>(v, INT_MAX));
  }
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


void Context::trim() {
  if (impl_) impl_->trim();
}

}  // namespace swz::gpu
