// swz_bench_bus: what the host-device bus carries when both directions run at
// once (the host path's ceiling). Raw Vulkan, no swz.
//
// The host path moves every surface byte up to the device and back down. Its
// best possible rate is the bus rate only if uploads and downloads overlap
// (PCIe is full duplex); without overlap it is half. This program measures,
// on one device, with pinned host memory (HOST_VISIBLE | HOST_CACHED) and
// device-local buffers of --mib MiB each:
//   ce up, ce down         vkCmdCopyBuffer one way, alone
//   ce up || ce down       both at once, on two queues (transfer family when the
//                          device has one with two queues, else compute)
//   sh up, sh down, sh h2h the plain compute copy (one 16-byte load and store
//                          per invocation) host->device, device->host,
//                          host->host
//   ce up || sh down       the copy engine uploads while a shader writes to
//                          host memory, and the reverse
// Each line: the median of --reps runs, GB/s of bytes moved per direction and
// the sum of both directions. With --import 1 the two host buffers are the
// caller's kind of memory instead: 4 KiB-aligned heap blocks imported
// through VK_EXT_external_memory_host (as swz's host path imports them).
// Usage: swz_bench_bus [--mib N] [--reps N] [--import 0|1]
#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

const uint32_t kPlainCopy[] = {
#include "bench_plain_copy.inc"
};
const uint32_t kPlainCopy2[] = {
#include "bench_plain_copy2.inc"
};

#define CK(x)                                                                 \
  do {                                                                        \
    VkResult r_ = (x);                                                        \
    if (r_ != VK_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #x, int(r_), __LINE__); \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Buf {
  VkBuffer b = VK_NULL_HANDLE;
  VkDeviceMemory m = VK_NULL_HANDLE;
  void* map = nullptr;
};

struct Q {
  VkQueue q = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  std::string name;
};

}  // namespace

int main(int argc, char** argv) {
  uint64_t mib = 256;
  int reps = 10;
  bool import = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--mib")) mib = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--import")) import = std::atoi(argv[i + 1]) != 0;
  }
  const uint64_t n = mib << 20;

  VkApplicationInfo ai{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  ai.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &ai;
  VkInstance inst;
  CK(vkCreateInstance(&ici, nullptr, &inst));
  uint32_t np = 0;
  vkEnumeratePhysicalDevices(inst, &np, nullptr);
  std::vector<VkPhysicalDevice> pds(np);
  vkEnumeratePhysicalDevices(inst, &np, pds.data());
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  for (VkPhysicalDevice p : pds) {
    VkPhysicalDeviceProperties pp;
    vkGetPhysicalDeviceProperties(p, &pp);
    if (!pd || pp.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) pd = p;
  }
  if (!pd) {
    std::fprintf(stderr, "no Vulkan device\n");
    return 1;
  }
  VkPhysicalDeviceProperties pp;
  vkGetPhysicalDeviceProperties(pd, &pp);
  uint32_t nqf = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nqf, nullptr);
  std::vector<VkQueueFamilyProperties> qf(nqf);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nqf, qf.data());
  std::printf("device: %s; %s MiB per direction, median of %d; host memory: %s\n", pp.deviceName,
              std::to_string(mib).c_str(), reps, import ? "imported heap blocks" : "Vulkan HOST_CACHED allocations");
  int cfam = -1, tfam = -1;
  for (uint32_t f = 0; f < nqf; ++f) {
    std::printf("queue family %u: flags 0x%x, %u queues\n", f, unsigned(qf[f].queueFlags), qf[f].queueCount);
    if (cfam < 0 && (qf[f].queueFlags & VK_QUEUE_COMPUTE_BIT)) cfam = int(f);
    if (tfam < 0 && !(qf[f].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) &&
        (qf[f].queueFlags & VK_QUEUE_TRANSFER_BIT))
      tfam = int(f);
  }
  const uint32_t cq = std::min(2u, qf[cfam].queueCount);
  const uint32_t tq = tfam >= 0 ? std::min(2u, qf[tfam].queueCount) : 0;
  float prio[2] = {1.f, 1.f};
  VkDeviceQueueCreateInfo qci[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}, {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
  qci[0].queueFamilyIndex = uint32_t(cfam);
  qci[0].queueCount = cq;
  qci[0].pQueuePriorities = prio;
  qci[1].queueFamilyIndex = uint32_t(tfam);
  qci[1].queueCount = tq;
  qci[1].pQueuePriorities = prio;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = tq ? 2 : 1;
  dci.pQueueCreateInfos = qci;
  const char* exts[2] = {"VK_KHR_external_memory", "VK_EXT_external_memory_host"};
  if (import) {
    dci.enabledExtensionCount = 2;
    dci.ppEnabledExtensionNames = exts;
  }
  VkDevice dev;
  CK(vkCreateDevice(pd, &dci, nullptr, &dev));

  auto make_q = [&](uint32_t fam, uint32_t idx, const char* nm) {
    Q q;
    q.name = nm;
    vkGetDeviceQueue(dev, fam, idx, &q.q);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = fam;
    CK(vkCreateCommandPool(dev, &pci, nullptr, &q.pool));
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = q.pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    CK(vkAllocateCommandBuffers(dev, &cai, &q.cb));
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    CK(vkCreateFence(dev, &fci, nullptr, &q.fence));
    return q;
  };
  std::vector<Q> qs;
  qs.push_back(make_q(uint32_t(cfam), 0, "compute 0"));
  if (cq > 1) qs.push_back(make_q(uint32_t(cfam), 1, "compute 1"));
  if (tq > 0) qs.push_back(make_q(uint32_t(tfam), 0, "transfer 0"));
  if (tq > 1) qs.push_back(make_q(uint32_t(tfam), 1, "transfer 1"));

  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  auto make = [&](bool host) {
    Buf b;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = n;
    bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    bci.sharingMode = VK_SHARING_MODE_CONCURRENT;
    uint32_t fams[2] = {uint32_t(cfam), uint32_t(tfam)};
    bci.queueFamilyIndexCount = tq ? 2 : 1;
    bci.pQueueFamilyIndices = fams;
    if (!tq) bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkExternalMemoryBufferCreateInfo eb{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    eb.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    if (host && import) bci.pNext = &eb;
    CK(vkCreateBuffer(dev, &bci, nullptr, &b.b));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, b.b, &mr);
    if (host && import) {
      void* p = nullptr;
      if (posix_memalign(&p, 4096, n) != 0) std::exit(1);
      std::memset(p, 0x5a, n);
      auto props = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
          vkGetDeviceProcAddr(dev, "vkGetMemoryHostPointerPropertiesEXT"));
      VkMemoryHostPointerPropertiesEXT hp{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
      CK(props(dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, p, &hp));
      uint32_t type = 0;
      while (type < 32 && !((mr.memoryTypeBits & hp.memoryTypeBits) >> type & 1u)) ++type;
      VkImportMemoryHostPointerInfoEXT ii{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
      ii.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
      ii.pHostPointer = p;
      VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      mai.pNext = &ii;
      mai.allocationSize = n;
      mai.memoryTypeIndex = type;
      CK(vkAllocateMemory(dev, &mai, nullptr, &b.m));
      CK(vkBindBufferMemory(dev, b.b, b.m, 0));
      b.map = p;
      return b;
    }
    const VkMemoryPropertyFlags want =
        host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT
             : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    int type = -1;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type < 0; ++i)
      if ((mr.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want &&
          (host || !(mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) ||
           mp.memoryTypeCount == 1))
        type = int(i);
    if (type < 0)
      for (uint32_t i = 0; i < mp.memoryTypeCount && type < 0; ++i)
        if ((mr.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) type = int(i);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = mr.size;
    mai.memoryTypeIndex = uint32_t(type);
    CK(vkAllocateMemory(dev, &mai, nullptr, &b.m));
    CK(vkBindBufferMemory(dev, b.b, b.m, 0));
    if (host) {
      CK(vkMapMemory(dev, b.m, 0, VK_WHOLE_SIZE, 0, &b.map));
      std::memset(b.map, 0x5a, n);
    }
    return b;
  };
  Buf h1 = make(true), h2 = make(true), d1 = make(false), d2 = make(false);

  // A compute pipeline of `code` with `nbind` storage-buffer bindings and
  // `push_B` bytes of push constants (its set layout and pipeline layout too).
  auto make_pipeline = [&](const uint32_t* code, size_t code_B, uint32_t nbind, uint32_t push_B,
                           VkDescriptorSetLayout* dsl_out, VkPipelineLayout* pl_out, VkPipeline* pipe_out) {
    std::vector<VkDescriptorSetLayoutBinding> bd(nbind);
    for (uint32_t i = 0; i < nbind; ++i) bd[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dlci.bindingCount = nbind;
    dlci.pBindings = bd.data();
    CK(vkCreateDescriptorSetLayout(dev, &dlci, nullptr, dsl_out));
    VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_B};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = dsl_out;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &pcr;
    CK(vkCreatePipelineLayout(dev, &plci, nullptr, pl_out));
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = code_B;
    smci.pCode = code;
    VkShaderModule sm;
    CK(vkCreateShaderModule(dev, &smci, nullptr, &sm));
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = sm;
    cpci.stage.pName = "main";
    cpci.layout = *pl_out;
    CK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, pipe_out));
  };
  // The plain copy (bindings 0-1, push {grid_x}) and the two-range copy
  // (bindings 0-3, push {grid_x, split}).
  VkDescriptorSetLayout dsl, dsl4;
  VkPipelineLayout pl, pl4;
  VkPipeline pipe, pipe2;
  make_pipeline(kPlainCopy, sizeof kPlainCopy, 2, 4, &dsl, &pl, &pipe);
  make_pipeline(kPlainCopy2, sizeof kPlainCopy2, 4, 8, &dsl4, &pl4, &pipe2);
  VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4096};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpci.maxSets = 2048;
  dpci.poolSizeCount = 1;
  dpci.pPoolSizes = &ps;
  VkDescriptorPool dp;
  CK(vkCreateDescriptorPool(dev, &dpci, nullptr, &dp));
  // A descriptor set of `layout` holding `infos` as bindings 0, 1, ...
  auto make_set = [&](VkDescriptorSetLayout layout, std::initializer_list<VkDescriptorBufferInfo> infos) {
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = dp;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &layout;
    VkDescriptorSet ds;
    CK(vkAllocateDescriptorSets(dev, &dsai, &ds));
    std::vector<VkWriteDescriptorSet> w(infos.size(), VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET});
    for (uint32_t i = 0; i < w.size(); ++i) {
      w[i].dstSet = ds;
      w[i].dstBinding = i;
      w[i].descriptorCount = 1;
      w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w[i].pBufferInfo = infos.begin() + i;
    }
    vkUpdateDescriptorSets(dev, uint32_t(w.size()), w.data(), 0, nullptr);
    return ds;
  };
  auto set_for = [&](const Buf& s, const Buf& d, uint64_t so = 0, uint64_t dof = 0, uint64_t len = 0) {
    if (!len) len = n;
    return make_set(dsl, {{s.b, so, len}, {d.b, dof, len}});
  };
  // A set of the two-range copy: a -> (band of `len` at so_a / do_a), b likewise.
  auto set4_for = [&](const Buf& sa, const Buf& da, uint64_t so_a, uint64_t do_a, const Buf& sb, const Buf& db,
                      uint64_t so_b, uint64_t do_b, uint64_t len) {
    return make_set(dsl4, {{sa.b, so_a, len}, {da.b, do_a, len}, {sb.b, so_b, len}, {db.b, do_b, len}});
  };

  // One operation recorded into a queue's command buffer.
  using Rec = std::function<void(VkCommandBuffer)>;
  auto ce = [&](const Buf& s, const Buf& d) -> Rec {
    return [&s, &d, n](VkCommandBuffer cb) {
      VkBufferCopy r{0, 0, n};
      vkCmdCopyBuffer(cb, s.b, d.b, 1, &r);
    };
  };
  std::vector<VkDescriptorSet> sets;
  auto dispatch = [&](VkCommandBuffer cb, VkDescriptorSet ds, uint64_t len) {
    const uint64_t groups = len / 4096;  // 256 invocations x 16 bytes
    uint32_t gx = uint32_t(std::min<uint64_t>(groups, 32768));
    uint32_t gy = uint32_t(groups / gx);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, nullptr);
    vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &gx);
    vkCmdDispatch(cb, gx, gy, 1);
  };
  auto sh = [&](const Buf& s, const Buf& d) -> Rec {
    VkDescriptorSet ds = set_for(s, d);
    sets.push_back(ds);
    return [=, &dispatch](VkCommandBuffer cb) { dispatch(cb, ds, n); };
  };

  // Runs the operations at once, each on its own queue; returns seconds.
  auto run = [&](const std::vector<std::pair<Q*, Rec>>& ops) {
    for (auto& o : ops) {
      CK(vkResetCommandBuffer(o.first->cb, 0));
      VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      CK(vkBeginCommandBuffer(o.first->cb, &bi));
      o.second(o.first->cb);
      CK(vkEndCommandBuffer(o.first->cb));
      CK(vkResetFences(dev, 1, &o.first->fence));
    }
    const double t0 = now_s();
    for (auto& o : ops) {
      VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      si.commandBufferCount = 1;
      si.pCommandBuffers = &o.first->cb;
      CK(vkQueueSubmit(o.first->q, 1, &si, o.first->fence));
    }
    for (auto& o : ops) CK(vkWaitForFences(dev, 1, &o.first->fence, VK_TRUE, UINT64_MAX));
    return now_s() - t0;
  };
  auto report = [&](const char* what, const std::vector<std::pair<Q*, Rec>>& ops) {
    run(ops);  // warm
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) t.push_back(run(ops));
    std::sort(t.begin(), t.end());
    const double med = t[t.size() / 2];
    const double per = double(n) * 1e-9 / med;
    std::string qn;
    for (auto& o : ops) qn += (qn.empty() ? "" : " + ") + o.first->name;
    std::printf("%-28s %-26s %7.3f ms  %6.1f GB/s per stream  %6.1f GB/s total\n", what, qn.c_str(), med * 1e3, per,
                per * double(ops.size()));
  };

  Q* c0 = &qs[0];
  Q* c1 = cq > 1 ? &qs[1] : nullptr;
  Q* t0 = tq > 0 ? &qs[cq] : nullptr;
  Q* t1 = tq > 1 ? &qs[cq + 1] : nullptr;
  const Rec up1 = ce(h1, d1), down2 = ce(d2, h2);
  report("ce up", {{c0, up1}});
  report("ce down", {{c0, down2}});
  if (c1) report("ce up || ce down", {{c0, up1}, {c1, down2}});
  if (t0) {
    report("ce up", {{t0, up1}});
    report("ce down", {{t0, down2}});
  }
  if (t0 && t1) report("ce up || ce down", {{t0, up1}, {t1, down2}});
  if (t0) report("ce up || ce down", {{t0, up1}, {c0, down2}});
  const Rec sh_up = sh(h1, d1), sh_down = sh(d2, h2), sh_h2h = sh(h1, h2), sh_d2d = sh(d1, d2);
  report("sh d2d", {{c0, sh_d2d}});
  report("sh up", {{c0, sh_up}});
  report("sh down", {{c0, sh_down}});
  report("sh h2h", {{c0, sh_h2h}});
  Q* other = t0 ? t0 : c1;
  if (other) {
    report("ce up || sh down", {{other, up1}, {c0, sh_down}});
    report("sh up || ce down", {{c0, sh_up}, {other, down2}});
  }
  if (c1) report("sh up || sh down", {{c0, sh_up}, {c1, sh_down}});
  report("sh up, sh down in one cb", {{c0, [&](VkCommandBuffer cb) {
                                         sh_up(cb);
                                         sh_down(cb);
                                       }}});
  // The pipeline of a staged host path: per step, band j up (host h1 ->
  // device slot), band j-1 converted (device slot -> device slot, a plain
  // copy standing in), band j-2 down (device slot -> host h2), one barrier.
  for (uint64_t band_mib : {4, 8, 16, 32}) {
    const uint64_t b = band_mib << 20;
    if (b * 3 > n) continue;
    vkResetDescriptorPool(dev, dp, 0);
    const uint64_t nb = n / b;
    std::vector<VkDescriptorSet> up(nb), cv(nb), dn(nb);
    for (uint64_t j = 0; j < nb; ++j) {
      const uint64_t slot = (j % 3) * b;
      up[j] = set_for(h1, d1, j * b, slot, b);
      cv[j] = set_for(d1, d2, slot, slot, b);
      dn[j] = set_for(d2, h2, slot, j * b, b);
    }
    char nm[64];
    std::snprintf(nm, sizeof nm, "pipeline, %llu MiB bands", static_cast<unsigned long long>(band_mib));
    // The same with band j's upload and band j-2's download in ONE dispatch
    // (two dispatches in a row did not overlap on the H200).
    std::vector<VkDescriptorSet> ud(nb + 2);
    for (uint64_t j = 2; j < nb; ++j)
      ud[j] = set4_for(h1, d1, j * b, (j % 3) * b, d2, h2, ((j - 2) % 3) * b, (j - 2) * b, b);
    char nm2[80];
    std::snprintf(nm2, sizeof nm2, "pipeline2, %llu MiB bands", static_cast<unsigned long long>(band_mib));
    auto bar = [](VkCommandBuffer cb) {
      VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
      mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                           nullptr, 0, nullptr);
    };
    report(nm2, {{c0, [&](VkCommandBuffer cb) {
                    for (uint64_t j = 0; j < nb + 2; ++j) {
                      if (j >= 2 && j < nb) {
                        const uint64_t groups = 2 * b / 4096;
                        uint32_t pcv[2] = {uint32_t(std::min<uint64_t>(groups, 32768)), uint32_t(b / 4096)};
                        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe2);
                        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl4, 0, 1, &ud[j], 0, nullptr);
                        vkCmdPushConstants(cb, pl4, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pcv);
                        vkCmdDispatch(cb, pcv[0], uint32_t(groups / pcv[0]), 1);
                      } else {
                        if (j < nb) dispatch(cb, up[j], b);
                        if (j >= 2) dispatch(cb, dn[j - 2], b);
                      }
                      if (j >= 1 && j <= nb) dispatch(cb, cv[j - 1], b);
                      bar(cb);
                    }
                  }}});
    report(nm, {{c0, [&](VkCommandBuffer cb) {
                   for (uint64_t j = 0; j < nb + 2; ++j) {
                     if (j < nb) dispatch(cb, up[j], b);
                     if (j >= 1 && j <= nb) dispatch(cb, cv[j - 1], b);
                     if (j >= 2) dispatch(cb, dn[j - 2], b);
                     VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
                     mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
                     mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
                     vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                          0, 1, &mb, 0, nullptr, 0, nullptr);
                   }
                 }}});
  }
  vkDeviceWaitIdle(dev);
  return 0;
}
