// GPU benchmark. Three parts, each selectable:
//
// --dispatch (default): swizzle / deswizzle dispatches against a PLAIN
//   compute copy of the same bytes (bench/plain_copy.comp: one 16-byte load
//   and store per invocation, exact grid), timed with timestamp queries in
//   one command buffer after a clock warm-up, the kinds interleaved rep by
//   rep, each after a copy of --scrub-mib unrelated bytes (so every kind
//   starts from the same L2 state); median of --reps runs. GB/s count the
//   surface bytes once. Also reported: Context::record_buffer_copy (the
//   library's own copy) and vkCmdCopyBuffer of the same bytes.
// --host: the host-memory conveniences (Context::write_to_subresource /
//   read_from_subresource) end to end per size (--host-sizes, MiB; default
//   64,256,1024), through each host path forced (import per call, import of
//   registered memory, the pinned ring and ring_copy for each --ring-chunk-mib,
//   --ring-threads and --ring-stream (0: memcpy, 1: non-temporal stores; "nt"
//   in the column name), the staged path (whole staging buffers)) and automatic (first call on
//   a new Context and steady state), next to the CPU path
//   (swz::write_to_subresource, automatic threads) and the bus bandwidth at
//   that size (vkCmdCopyBuffer between a pinned host buffer and device
//   memory, each direction), plus each mode's time split (setup, host copies,
//   GPU wait). Every mode's bytes are compared with the CPU path's.
// --wc: swz::write_to_subresource into a mapped DEVICE_LOCAL | HOST_VISIBLE
//   (write-combined) buffer with write_combined off / on, 1 and N threads,
//   next to memcpy into the same mapping; reads back from it with and
//   without write_combined (streaming loads) next to memcpy out of it.
//
//   swz_bench_gpu [--quick] [--dispatch] [--host] [--wc] [--sizes 1,2,...] [--reps 30]
//                 [--host-sizes 64,256,1024] [--ring-chunk-mib 8] [--ring-threads 0] [--ring-stream 0]
//                 [--wg 11[,12..]] [--warm-gib 16] [--scrub-mib 128] [--verify] [--md FILE]
//
// Dispatch cases: std64k 8, 32 and 128 bpp, NVIDIA block linear (Turing
// GOBs, 32 bpp), AMD GFX9 SW_64KB_S_X (32 bpp, pipe/bank XOR immediate), each
// as one 2D subresource of exactly the given MiB (power-of-two sides).
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <string>
#include <vector>

#include "backends/vulkan/dispatch.hpp"  // the same recording as the GPU path
#include "swz/gpu.hpp"
#include "swz/swz.hpp"

namespace {

using namespace swz;

#define CHECK_VK(x)                                                             \
  do {                                                                          \
    VkResult r_ = (x);                                                          \
    if (r_ != VK_SUCCESS) {                                                     \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #x, int(r_), __LINE__); \
      std::exit(2);                                                             \
    }                                                                           \
  } while (0)

#define CHECK_OK(x)                                                                          \
  do {                                                                                       \
    Status s_ = (x);                                                                         \
    if (!s_.ok()) {                                                                          \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #x, s_.message().c_str(), __LINE__); \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

struct Buf {
  VkBuffer buf = VK_NULL_HANDLE;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  uint8_t* map = nullptr;
  uint64_t size = 0;
};

struct Vk {
  gpu::Context ctx;
  VkDevice dev = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties mp{};
  VkPhysicalDeviceProperties props{};
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkQueryPool qp = VK_NULL_HANDLE;
  uint32_t qcount = 0;

  uint32_t mem_type(uint32_t bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags pref = 0) {
    int fallback = -1;
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
      if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) {
        if ((mp.memoryTypes[i].propertyFlags & pref) == pref) return i;
        if (fallback < 0) fallback = static_cast<int>(i);
      }
    if (fallback < 0) {
      std::fprintf(stderr, "no memory type\n");
      std::exit(2);
    }
    return static_cast<uint32_t>(fallback);
  }
  Buf make(uint64_t size, bool host) {
    Buf b;
    b.size = size;
    VkBufferCreateInfo bi{};
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    CHECK_VK(vkCreateBuffer(dev, &bi, nullptr, &b.buf));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, b.buf, &mr);
    VkMemoryAllocateInfo ai{};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = mr.size;
    ai.memoryTypeIndex =
        host ? mem_type(mr.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        VK_MEMORY_PROPERTY_HOST_CACHED_BIT)
             : mem_type(mr.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CHECK_VK(vkAllocateMemory(dev, &ai, nullptr, &b.mem));
    CHECK_VK(vkBindBufferMemory(dev, b.buf, b.mem, 0));
    if (host) {
      void* m;
      CHECK_VK(vkMapMemory(dev, b.mem, 0, VK_WHOLE_SIZE, 0, &m));
      b.map = static_cast<uint8_t*>(m);
    }
    return b;
  }
  void free(Buf& b) {
    if (b.map) vkUnmapMemory(dev, b.mem);
    vkDestroyBuffer(dev, b.buf, nullptr);
    vkFreeMemory(dev, b.mem, nullptr);
    b = Buf{};
  }
  void begin() {
    CHECK_VK(vkResetCommandBuffer(cb, 0));
    VkCommandBufferBeginInfo bi{};
    bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CHECK_VK(vkBeginCommandBuffer(cb, &bi));
  }
  void submit() {
    CHECK_VK(vkEndCommandBuffer(cb));
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    CHECK_VK(vkQueueSubmit(ctx.queue(), 1, &si, VK_NULL_HANDLE));
    CHECK_VK(vkQueueWaitIdle(ctx.queue()));
  }
  void barrier() {
    VkMemoryBarrier mb{};
    mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr,
                         0, nullptr);
  }
  void copy(const Buf& s, const Buf& d, uint64_t n, uint64_t so = 0, uint64_t dof = 0) {
    VkBufferCopy r{so, dof, n};
    vkCmdCopyBuffer(cb, s.buf, d.buf, 1, &r);
  }
};

const uint32_t kPlainCopySpv[] = {
#include "bench_plain_copy.inc"
};

// The plain-copy reference pipeline (push descriptors, like the library's).
struct PlainCopy {
  VkDevice dev = VK_NULL_HANDLE;
  VkDescriptorSetLayout dsl = VK_NULL_HANDLE;
  VkPipelineLayout pl = VK_NULL_HANDLE;
  VkShaderModule mod = VK_NULL_HANDLE;
  VkPipeline pipe = VK_NULL_HANDLE;
  PFN_vkCmdPushDescriptorSetKHR push = nullptr;
  uint32_t max_x = 65535;
  void init(VkDevice d, const VkPhysicalDeviceProperties& props) {
    dev = d;
    max_x = props.limits.maxComputeWorkGroupCount[0];
    push = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR"));
    VkDescriptorSetLayoutBinding b[2]{};
    for (uint32_t i = 0; i < 2; ++i) {
      b[i].binding = i;
      b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      b[i].descriptorCount = 1;
      b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dci{};
    dci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    dci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    dci.bindingCount = 2;
    dci.pBindings = b;
    CHECK_VK(vkCreateDescriptorSetLayout(dev, &dci, nullptr, &dsl));
    VkPushConstantRange r{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo pci{};
    pci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pci.setLayoutCount = 1;
    pci.pSetLayouts = &dsl;
    pci.pushConstantRangeCount = 1;
    pci.pPushConstantRanges = &r;
    CHECK_VK(vkCreatePipelineLayout(dev, &pci, nullptr, &pl));
    VkShaderModuleCreateInfo mci{};
    mci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mci.codeSize = sizeof(kPlainCopySpv);
    mci.pCode = kPlainCopySpv;
    CHECK_VK(vkCreateShaderModule(dev, &mci, nullptr, &mod));
    VkComputePipelineCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = mod;
    ci.stage.pName = "main";
    ci.layout = pl;
    CHECK_VK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &pipe));
  }
  void destroy() {
    vkDestroyPipeline(dev, pipe, nullptr);
    vkDestroyShaderModule(dev, mod, nullptr);
    vkDestroyPipelineLayout(dev, pl, nullptr);
    vkDestroyDescriptorSetLayout(dev, dsl, nullptr);
  }
  // bytes must be a multiple of 4096 (256 invocations x 16 bytes).
  void record(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, uint64_t bytes) {
    if (bytes % 4096) {
      std::fprintf(stderr, "plain copy of %llu bytes: not a multiple of 4096\n",
                   static_cast<unsigned long long>(bytes));
      std::exit(2);
    }
    uint64_t groups = bytes / 4096;
    uint32_t gx = static_cast<uint32_t>(std::min<uint64_t>(groups, max_x));
    while (groups % gx) --gx;  // exact grid: gx * gy == groups
    const uint32_t gy = static_cast<uint32_t>(groups / gx);
    VkDescriptorBufferInfo si{src, 0, bytes}, di{dst, 0, bytes};
    const VkDescriptorBufferInfo* infos[2] = {&si, &di};
    swz::gpu::detail::bind_and_dispatch(push, cb, pipe, pl, infos, 2, &gx, 4, gx, gy);
  }
};

struct CaseDef {
  std::string name;
  const char* format;
  const char* layout;  // "std64k" or a named layout spec
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : (v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]));
}

void fill_random(uint8_t* p, uint64_t n, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    std::memcpy(p + i, &s, 8);
  }
  for (; i < n; ++i) p[i] = static_cast<uint8_t>(i * 131);
}

// A 2D subresource of exactly `bytes` with power-of-two sides (wider than tall).
Layout make_case_layout(const CaseDef& cd, uint64_t bytes, TextureDesc* d) {
  CHECK_OK(find_format(cd.format, &d->format));
  const uint64_t texels = bytes / d->format.element_bytes;
  const unsigned lg = static_cast<unsigned>(std::countr_zero(texels));
  d->width = 1u << ((lg + 1) / 2);
  d->height = static_cast<uint32_t>(texels >> ((lg + 1) / 2));
  Layout L;
  if (std::strcmp(cd.layout, "std64k") == 0) {
    LayoutSpec spec;
    spec.kind = LayoutKind::Std64K;
    CHECK_OK(make_layout(*d, spec, &L));
  } else {
    CHECK_OK(make_named_layout(cd.layout, *d, &L));
  }
  return L;
}

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// malloc-like placement: 16 bytes past a 64-byte boundary, 4 KiB pages.
struct HostMem {
  uint8_t* raw = nullptr;
  uint8_t* p = nullptr;
  explicit HostMem(uint64_t n) {
    raw = static_cast<uint8_t*>(std::aligned_alloc(4096, (n + 64 + 4095) / 4096 * 4096));
    p = raw + 16;
    std::memset(raw, 0, n + 16);  // fault the pages in
  }
  ~HostMem() { std::free(raw); }
  HostMem(const HostMem&) = delete;
  HostMem& operator=(const HostMem&) = delete;
};

// Runs f(t, lo, hi) on `threads` threads over [0, n) in 64-byte-aligned parts.
template <class F>
void parallel_parts(unsigned threads, uint64_t n, F f) {
  if (threads <= 1) {
    f(0u, uint64_t{0}, n);
    return;
  }
  std::vector<std::thread> th;
  const uint64_t part = (n / threads + 63) / 64 * 64;
  for (unsigned t = 0; t < threads; ++t) {
    const uint64_t lo = std::min<uint64_t>(n, t * part), hi = std::min<uint64_t>(n, lo + part);
    th.emplace_back([=] { f(t, lo, hi); });
  }
  for (auto& x : th) x.join();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<uint64_t> sizes_mib = {1, 2, 4, 8, 16, 64, 256, 1024};
  std::vector<uint64_t> host_mib = {64, 256, 1024};
  std::vector<uint64_t> ring_chunk_mib = {8};  // --ring-chunk-mib
  std::vector<unsigned> ring_threads = {0};    // --ring-threads (0 = the library's default)
  std::vector<unsigned> ring_stream = {0};     // --ring-stream 0,1 (1 = non-temporal host copies)
  std::vector<uint64_t> wc_mib = {1, 4, 16, 64, 256};
  std::vector<unsigned> wgs = {0};
  int reps = 30;
  uint64_t warm_gib = 16;    // copies run before timing, to bring the clocks up
  uint64_t scrub_mib = 128;  // copy of unrelated bytes before each timed dispatch
  bool verify = false, do_dispatch = false, do_host = false, do_wc = false;
  std::string md;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto list = [&](auto* out) {
      out->clear();
      std::string v = argv[++i];
      size_t p = 0;
      while (p <= v.size()) {
        size_t q = v.find(',', p);
        if (q == std::string::npos) q = v.size();
        out->push_back(static_cast<typename std::decay_t<decltype(*out)>::value_type>(std::stoull(v.substr(p, q - p))));
        p = q + 1;
      }
    };
    if (a == "--quick") {
      sizes_mib = {4};
      host_mib = {4};
      ring_chunk_mib = {1};
      wc_mib = {1};
      reps = 3;
      warm_gib = 0;
      scrub_mib = 0;
      verify = true;
    } else if (a == "--sizes" && i + 1 < argc) {
      list(&sizes_mib);
    } else if (a == "--host-sizes" && i + 1 < argc) {
      list(&host_mib);
    } else if (a == "--ring-chunk-mib" && i + 1 < argc) {
      list(&ring_chunk_mib);
    } else if (a == "--ring-threads" && i + 1 < argc) {
      list(&ring_threads);
    } else if (a == "--ring-stream" && i + 1 < argc) {
      list(&ring_stream);
    } else if (a == "--wc-sizes" && i + 1 < argc) {
      list(&wc_mib);
    } else if (a == "--wg" && i + 1 < argc) {
      list(&wgs);
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (a == "--warm-gib" && i + 1 < argc) {
      warm_gib = std::stoull(argv[++i]);
    } else if (a == "--scrub-mib" && i + 1 < argc) {
      scrub_mib = std::stoull(argv[++i]);
    } else if (a == "--verify") {
      verify = true;
    } else if (a == "--dispatch") {
      do_dispatch = true;
    } else if (a == "--host") {
      do_host = true;
    } else if (a == "--wc") {
      do_wc = true;
    } else if (a == "--md" && i + 1 < argc) {
      md = argv[++i];
    } else {
      std::fprintf(
          stderr,
          "usage: %s [--quick] [--dispatch] [--host] [--wc] [--sizes 1,2,..] [--host-sizes ..] [--ring-chunk-mib "
          "8,..] [--ring-threads 0,16,..] [--ring-stream 0,1] [--wc-sizes "
          "..] [--reps N] "
          "[--wg 11,12] [--warm-gib 16] [--scrub-mib 128] [--verify] [--md FILE]\n",
          argv[0]);
      return 1;
    }
  }
  if (!do_dispatch && !do_host && !do_wc) do_dispatch = true;
  Vk vk;
  Status st = gpu::Context::create(&vk.ctx);
  if (!st.ok()) {
    std::printf("no Vulkan device (%s): %s\n", code_name(st.code()), st.message().c_str());
    return st.code() == Code::no_device ? 0 : 1;
  }
  vk.dev = vk.ctx.device();
  vkGetPhysicalDeviceMemoryProperties(vk.ctx.physical_device(), &vk.mp);
  vkGetPhysicalDeviceProperties(vk.ctx.physical_device(), &vk.props);
  std::printf("device: %s  maxStorageBufferRange %u  timestampPeriod %.3f ns  hardware threads %u\n",
              vk.props.deviceName, vk.props.limits.maxStorageBufferRange, double(vk.props.limits.timestampPeriod),
              std::thread::hardware_concurrency());
  VkCommandPoolCreateInfo pci{};
  pci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = vk.ctx.queue_family();
  CHECK_VK(vkCreateCommandPool(vk.dev, &pci, nullptr, &vk.pool));
  VkCommandBufferAllocateInfo cai{};
  cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  cai.commandPool = vk.pool;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 1;
  CHECK_VK(vkAllocateCommandBuffers(vk.dev, &cai, &vk.cb));
  vk.qcount = static_cast<uint32_t>(16 * reps);
  VkQueryPoolCreateInfo qci{};
  qci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qci.queryCount = vk.qcount;
  CHECK_VK(vkCreateQueryPool(vk.dev, &qci, nullptr, &vk.qp));
  PlainCopy plain;
  plain.init(vk.dev, vk.props);

  // Times several recorders interleaved (rep by rep, so clock changes hit all
  // of them alike) after a warm-up that brings the clocks up; returns the
  // median ms of each.
  Buf scrub_a, scrub_b;
  if (scrub_mib && do_dispatch) {
    scrub_a = vk.make(scrub_mib << 20, false);
    scrub_b = vk.make(scrub_mib << 20, false);
  }
  auto time_all = [&](const std::vector<std::function<void()>>& recs, const std::function<void()>& warmup,
                      uint64_t bytes, bool scrub) {
    const uint32_t n = static_cast<uint32_t>(recs.size());
    const uint32_t need = 2 * n * static_cast<uint32_t>(reps);
    if (need > vk.qcount) {
      vkDestroyQueryPool(vk.dev, vk.qp, nullptr);
      vk.qcount = need;
      VkQueryPoolCreateInfo q2{};
      q2.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      q2.queryType = VK_QUERY_TYPE_TIMESTAMP;
      q2.queryCount = vk.qcount;
      CHECK_VK(vkCreateQueryPool(vk.dev, &q2, nullptr, &vk.qp));
    }
    vk.begin();
    vkCmdResetQueryPool(vk.cb, vk.qp, 0, vk.qcount);
    const uint64_t warm_n = std::clamp<uint64_t>((warm_gib << 30) / std::max<uint64_t>(bytes, 1), 1, 2000);
    for (uint64_t i = 0; i < warm_n && warm_gib; ++i) {
      vk.barrier();
      warmup();
    }
    for (int r = 0; r < reps; ++r)
      for (uint32_t k = 0; k < n; ++k) {
        if (scrub && scrub_mib) {
          // Push the previous kind's lines out of the L2 so that each timed
          // dispatch starts from the same cache state.
          vk.barrier();
          plain.record(vk.cb, scrub_a.buf, scrub_b.buf, scrub_a.size);
        }
        vk.barrier();
        vkCmdWriteTimestamp(vk.cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, vk.qp, 2 * (r * n + k));
        recs[k]();
        vkCmdWriteTimestamp(vk.cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, vk.qp, 2 * (r * n + k) + 1);
      }
    vk.submit();
    std::vector<uint64_t> ts(need);
    CHECK_VK(vkGetQueryPoolResults(vk.dev, vk.qp, 0, need, ts.size() * 8, ts.data(), 8,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    std::vector<double> out;
    for (uint32_t k = 0; k < n; ++k) {
      std::vector<double> ms;
      for (int r = 0; r < reps; ++r)
        ms.push_back(double(ts[2 * (r * n + k) + 1] - ts[2 * (r * n + k)]) * double(vk.props.limits.timestampPeriod) *
                     1e-6);
      out.push_back(median(ms));
    }
    return out;
  };

  const std::vector<CaseDef> cases = {
      {"std64k 8bpp", "R8_UNORM", "std64k"},
      {"std64k 32bpp", "R8G8B8A8_UNORM", "std64k"},
      {"std64k 128bpp", "R32G32B32A32_FLOAT", "std64k"},
      {"nv-block-linear turing bh=16 32bpp", "R8G8B8A8_UNORM", "nv-block-linear:gob=turing,bh=16"},
      {"amd-gfx9-sw64k-s-x pbxor=5 32bpp", "R8G8B8A8_UNORM", "amd-gfx9-sw64k-s-x:pbxor=5"},
  };

  std::string table;
  bool all_ok = true;
  if (do_dispatch) {
    table +=
        "| case | surface | words per workgroup | plain copy GB/s | record_buffer_copy GB/s | swizzle GB/s | ratio | "
        "deswizzle GB/s | ratio | "
        "vkCmdCopyBuffer GB/s |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (const CaseDef& cd : cases) {
      for (uint64_t mib : sizes_mib) {
        TextureDesc d;
        const uint64_t bytes = mib << 20;
        Layout L = make_case_layout(cd, bytes, &d);
        const uint64_t lin_bytes = uint64_t{d.width} * d.height * d.format.element_bytes;
        const uint64_t rp = uint64_t{d.width} * d.format.element_bytes;
        Buf lin = vk.make(lin_bytes, false), res = vk.make(L.size(), false), lin2 = vk.make(lin_bytes, false);
        {
          Buf stage = vk.make(lin_bytes, true);
          fill_random(stage.map, lin_bytes, mib);
          vk.begin();
          vk.copy(stage, lin, lin_bytes);
          vk.submit();
          vk.free(stage);
        }
        for (unsigned wg : wgs) {
          gpu::DispatchTuning t;
          t.wg_chunks_log2 = wg;
          vk.ctx.set_tuning(t);
          gpu::DispatchInfo info_c{}, info_w{}, info_r{};
          auto rec_plain = [&] { plain.record(vk.cb, lin.buf, lin2.buf, lin_bytes); };
          auto rec_copy = [&] {
            CHECK_OK(vk.ctx.record_buffer_copy(vk.cb, {lin.buf, 0, lin_bytes}, {lin2.buf, 0, lin_bytes}, lin_bytes,
                                               &info_c));
          };
          auto rec_w = [&] {
            CHECK_OK(vk.ctx.record_write_to_subresource(vk.cb, L, {res.buf, 0, L.size()}, 0, nullptr,
                                                        {lin.buf, 0, lin_bytes}, rp, 0, &info_w));
          };
          auto rec_r = [&] {
            CHECK_OK(vk.ctx.record_read_from_subresource(vk.cb, {lin2.buf, 0, lin_bytes}, rp, 0, L,
                                                         {res.buf, 0, L.size()}, 0, nullptr, &info_r));
          };
          auto rec_xfer = [&] { vk.copy(lin, lin2, lin_bytes); };
          const std::vector<double> tm =
              time_all({rec_plain, rec_copy, rec_w, rec_r, rec_xfer}, rec_plain, lin_bytes, true);
          const double t_plain = tm[0], t_copy = tm[1], t_w = tm[2], t_r = tm[3], t_x = tm[4];
          const double gb = double(lin_bytes) * 1e-9;
          char line[512];
          std::snprintf(line, sizeof line,
                        "| %s | %ux%u, %llu MiB | 2^%u x %uB | %.1f | %.1f | %.1f | %.3f | %.1f | %.3f | %.1f |\n",
                        cd.name.c_str(), d.width, d.height, static_cast<unsigned long long>(mib), info_w.chunks_log2,
                        info_w.word_bytes, gb / (t_plain * 1e-3), gb / (t_copy * 1e-3), gb / (t_w * 1e-3),
                        t_plain / t_w, gb / (t_r * 1e-3), t_plain / t_r, gb / (t_x * 1e-3));
          std::printf("%s", line);
          std::fflush(stdout);
          table += line;
        }
        if (verify) {
          // Round trip on the device (lin -> res -> lin2, compare), and the
          // swizzled bytes against the CPU for surfaces up to 256 MiB.
          vk.ctx.set_tuning({});
          vk.begin();
          CHECK_OK(vk.ctx.record_write_to_subresource(vk.cb, L, {res.buf, 0, L.size()}, 0, nullptr,
                                                      {lin.buf, 0, lin_bytes}, rp, 0));
          vk.barrier();
          CHECK_OK(vk.ctx.record_read_from_subresource(vk.cb, {lin2.buf, 0, lin_bytes}, rp, 0, L,
                                                       {res.buf, 0, L.size()}, 0, nullptr));
          vk.barrier();
          Buf h1 = vk.make(lin_bytes, true), h2 = vk.make(lin_bytes, true), hr = vk.make(L.size(), true);
          vk.copy(lin, h1, lin_bytes);
          vk.copy(lin2, h2, lin_bytes);
          vk.copy(res, hr, L.size());
          vk.submit();
          bool ok = std::memcmp(h1.map, h2.map, lin_bytes) == 0;
          if (ok && mib <= 256) {
            std::vector<uint8_t> cpu(L.size());
            std::memcpy(cpu.data(), hr.map, L.size());  // padding bytes as the GPU left them
            CHECK_OK(write_to_subresource(L, cpu.data(), cpu.size(), 0, nullptr, h1.map, lin_bytes, rp, 0));
            ok = std::memcmp(cpu.data(), hr.map, L.size()) == 0;
          }
          std::printf("verify %s %llu MiB: %s\n", cd.name.c_str(), static_cast<unsigned long long>(mib),
                      ok ? "ok" : "MISMATCH");
          all_ok = all_ok && ok;
          vk.free(h1);
          vk.free(h2);
          vk.free(hr);
        }
        vk.free(lin);
        vk.free(res);
        vk.free(lin2);
      }
    }
    if (scrub_mib) {
      vk.free(scrub_a);
      vk.free(scrub_b);
    }
  }

  if (do_host) {
    // Per size: the bus (vkCmdCopyBuffer between a pinned host buffer and
    // device memory, both directions), the CPU path, and the host
    // conveniences through each HostPath, same buffers, same run. GB/s count
    // the linear surface bytes once. Each mode's output is compared with the
    // CPU path's bytes.
    struct Mode {
      std::string name;
      gpu::DispatchTuning t;
      bool registered = false;  // both spans registered (register_host_memory) beforehand
    };
    std::vector<Mode> modes;
    {
      Mode m;
      m.name = "import";
      m.t.host_path = gpu::HostPath::import;
      modes.push_back(m);
      m.name = "import, registered";
      m.registered = true;
      modes.push_back(m);
      m.name = "import direct, registered";  // one dispatch over the bus, no bands
      m.t.import_band_B = UINT64_MAX;
      modes.push_back(m);
      m.t.import_band_B = 0;
      m.registered = false;
      for (uint64_t chunk : ring_chunk_mib)
        for (unsigned th : ring_threads)
          for (unsigned nt : ring_stream)
            for (gpu::HostPath p : {gpu::HostPath::ring, gpu::HostPath::ring_copy}) {
              m.t = gpu::DispatchTuning{};
              m.t.host_path = p;
              m.t.ring_chunk_B = chunk << 20;
              m.t.copy_threads = th;
              m.t.stream_copies = nt != 0;
              char nm[96];
              std::snprintf(nm, sizeof nm, "%s %llu MiB x%u%s", p == gpu::HostPath::ring ? "ring" : "ring_copy",
                            static_cast<unsigned long long>(chunk),
                            th ? th : std::min(8u, std::max(1u, std::thread::hardware_concurrency())), nt ? " nt" : "");
              m.name = nm;
              modes.push_back(m);
            }
      m.t = gpu::DispatchTuning{};
      m.t.host_path = gpu::HostPath::staged;
      m.name = "staged (old)";
      modes.push_back(m);
    }
    const char* const path_names[] = {"auto", "import", "ring", "ring_copy", "staged"};
    std::string hdr = "| surface | bus up | bus down | CPU | auto, first call | auto |";
    std::string sep = "| --- | --- | --- | --- | --- | --- |";
    for (const Mode& m : modes) {
      hdr += " " + m.name + " |";
      sep += " --- |";
    }
    hdr += " best GPU / bus |\n";
    sep += " --- |\n";
    std::string tables[2], breakdown;
    for (int dir = 0; dir < 2; ++dir)
      tables[dir] =
          std::string("\n") +
          (dir == 0 ? "Host path, swizzle (write_to_subresource)" : "Host path, deswizzle (read_from_subresource)") +
          ", " + cases[1].name + ", GB/s of surface bytes, median of " +
          std::to_string(std::max(3, std::min(reps, 10))) + " calls:\n\n" + hdr + sep;
    breakdown =
        "\nHost path breakdown (median call, ms): total / setup (imports, buffers) / host copies / waiting for the "
        "GPU; chunks\n\n| surface | direction | mode | total | setup | host copies | GPU wait | chunks |\n| --- | --- "
        "| "
        "--- | --- | --- | --- | --- | --- |\n";
    const CaseDef& cd = cases[1];
    const unsigned hw = std::thread::hardware_concurrency();
    std::printf("\nhost path: CPU %u hardware threads; modes:", hw);
    for (const Mode& m : modes) std::printf(" [%s]", m.name.c_str());
    std::printf("\n");
    for (uint64_t mib : host_mib) {
      TextureDesc d;
      Layout L = make_case_layout(cd, mib << 20, &d);
      const uint64_t lin_bytes = uint64_t{d.width} * d.height * d.format.element_bytes;
      const uint64_t rp = uint64_t{d.width} * d.format.element_bytes;
      const double gb = double(lin_bytes) * 1e-9;
      // Bus at this size (a 1 GiB cap keeps device memory modest).
      double bus_up = 0, bus_down = 0;
      {
        const uint64_t n = std::min<uint64_t>(lin_bytes, 1ull << 30);
        Buf h = vk.make(n, true), dv = vk.make(n, false);
        std::memset(h.map, 1, n);
        auto up = [&] { vk.copy(h, dv, n); };
        auto down = [&] { vk.copy(dv, h, n); };
        const uint64_t save_warm = warm_gib;
        warm_gib = 1;
        const std::vector<double> tm = time_all({up, down}, up, n, false);
        warm_gib = save_warm;
        bus_up = double(n) * 1e-9 / (tm[0] * 1e-3);
        bus_down = double(n) * 1e-9 / (tm[1] * 1e-3);
        vk.free(h);
        vk.free(dv);
      }
      HostMem lin(lin_bytes), res(L.size()), lin2(lin_bytes), res_cpu(L.size());
      fill_random(lin.p, lin_bytes, 7);
      auto timed = [&](auto f, int n) {
        std::vector<double> t;
        for (int i = 0; i < n; ++i) {
          const double t0 = now_s();
          f();
          t.push_back(now_s() - t0);
        }
        return median(t);
      };
      const int n = std::max(3, std::min(reps, 10));
      // CPU path (automatic threads); its bytes are the reference.
      const double cw = timed(
          [&] { CHECK_OK(write_to_subresource(L, res_cpu.p, L.size(), 0, nullptr, lin.p, lin_bytes, rp, 0)); }, n);
      const double cr = timed(
          [&] { CHECK_OK(read_from_subresource(lin2.p, lin_bytes, rp, 0, L, res_cpu.p, L.size(), 0, nullptr)); }, n);
      bool ok = std::memcmp(lin.p, lin2.p, lin_bytes) == 0;
      auto check = [&](int dir) {
        const bool same =
            dir == 0 ? std::memcmp(res.p, res_cpu.p, L.size()) == 0 : std::memcmp(lin2.p, lin.p, lin_bytes) == 0;
        ok = ok && same;
        return same;
      };
      auto call = [&](gpu::Context& c, int dir) {
        if (dir == 0) return c.write_to_subresource(L, res.p, L.size(), 0, nullptr, lin.p, lin_bytes, rp, 0);
        return c.read_from_subresource(lin2.p, lin_bytes, rp, 0, L, res.p, L.size(), 0, nullptr);
      };
      // Automatic, first call on a new Context, then steady state.
      double first[2], autos[2];
      std::string auto_path[2];
      {
        gpu::Context fresh;
        CHECK_OK(gpu::Context::create(&fresh));
        for (int dir = 0; dir < 2; ++dir) {
          std::memset(dir == 0 ? res.p : lin2.p, 0, dir == 0 ? L.size() : lin_bytes);
          first[dir] = timed([&] { CHECK_OK(call(fresh, dir)); }, 1);
          autos[dir] = timed([&] { CHECK_OK(call(fresh, dir)); }, n);
          auto_path[dir] = path_names[static_cast<int>(fresh.last_host_stats().path)];
          check(dir);
        }
      }
      std::string cells[2];
      double best[2] = {0, 0};
      for (const Mode& m : modes) {
        gpu::Context c;  // one Context per mode: each starts from nothing, like a program
        CHECK_OK(gpu::Context::create(&c));
        c.set_tuning(m.t);
        bool reg = true;
        if (m.registered) {
          Status s1 = c.register_host_memory(lin.p, lin_bytes);
          Status s2 = s1.ok() ? c.register_host_memory(res.p, L.size()) : s1;
          Status s3 = s2.ok() ? c.register_host_memory(lin2.p, lin_bytes) : s2;
          reg = s3.ok();
          if (!reg) std::printf("%s: %s\n", m.name.c_str(), s3.message().c_str());
        }
        for (int dir = 0; dir < 2; ++dir) {
          char cell[64];
          std::memset(dir == 0 ? res.p : lin2.p, 0, dir == 0 ? L.size() : lin_bytes);
          Status s = reg ? call(c, dir) : Status{Code::unsupported, "not registered"};  // first call, untimed
          if (!s.ok()) {
            std::snprintf(cell, sizeof cell, " n/a |");
            std::printf("%s: %s\n", m.name.c_str(), s.message().c_str());
            cells[dir] += cell;
            continue;
          }
          std::vector<double> t, tot, setup, hc, wt;
          gpu::HostPathStats hs;
          for (int i = 0; i < n; ++i) {
            const double t0 = now_s();
            CHECK_OK(call(c, dir));
            t.push_back(now_s() - t0);
            hs = c.last_host_stats();
            tot.push_back(hs.total_ms);
            setup.push_back(hs.setup_ms);
            hc.push_back(hs.host_copy_ms);
            wt.push_back(hs.wait_ms);
          }
          const double sec = median(t);
          const bool same = check(dir);
          best[dir] = std::max(best[dir], gb / sec);
          std::snprintf(cell, sizeof cell, " %.2f%s |", gb / sec, same ? "" : " (MISMATCH)");
          cells[dir] += cell;
          char line[320];
          std::snprintf(line, sizeof line, "| %llu MiB | %s | %s (ran %s) | %.2f | %.2f | %.2f | %.2f | %u |\n",
                        static_cast<unsigned long long>(mib), dir == 0 ? "swizzle" : "deswizzle", m.name.c_str(),
                        path_names[static_cast<int>(hs.path)], median(tot), median(setup), median(hc), median(wt),
                        hs.chunks);
          breakdown += line;
          std::printf("%s", line);
          std::fflush(stdout);
        }
        if (m.registered && reg) {
          CHECK_OK(c.unregister_host_memory(lin.p));
          CHECK_OK(c.unregister_host_memory(res.p));
          CHECK_OK(c.unregister_host_memory(lin2.p));
        }
      }
      all_ok = all_ok && ok;
      for (int dir = 0; dir < 2; ++dir) {
        char head[384];
        const double cpu = gb / (dir == 0 ? cw : cr);
        std::snprintf(head, sizeof head, "| %ux%u, %llu MiB%s | %.1f | %.1f | %.2f | %.2f | %.2f (%s) |", d.width,
                      d.height, static_cast<unsigned long long>(mib), ok ? "" : " (MISMATCH)", bus_up, bus_down, cpu,
                      gb / first[dir], gb / autos[dir], auto_path[dir].c_str());
        char tail[64];
        std::snprintf(tail, sizeof tail, " %.2f |\n", best[dir] / (dir == 0 ? bus_up : bus_down));
        const std::string row = head + cells[dir] + tail;
        std::printf("%s", row.c_str());
        tables[dir] += row;
      }
      std::fflush(stdout);
    }
    table += tables[0] + tables[1] + breakdown;
  }

  if (do_wc) {
    // A DEVICE_LOCAL | HOST_VISIBLE mapping (write-combined on discrete GPUs).
    int wc_type = -1;
    for (uint32_t i = 0; i < vk.mp.memoryTypeCount; ++i) {
      const VkMemoryPropertyFlags f = vk.mp.memoryTypes[i].propertyFlags;
      if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
          !(f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT)) {
        wc_type = static_cast<int>(i);
        break;
      }
    }
    if (wc_type < 0) {
      std::printf("\nwc: no DEVICE_LOCAL | HOST_VISIBLE uncached memory type on this device\n");
    } else {
      const unsigned nt = std::max(2u, std::min(8u, std::thread::hardware_concurrency()));
      char hdr[640];
      std::snprintf(hdr, sizeof hdr,
                    "\nWC memory type %d (flags 0x%x)\n\n| case | surface | memcpy 1T GB/s | swz wc=off 1T | swz wc=on "
                    "1T | ratio on/memcpy 1T | memcpy %uT | "
                    "swz wc=off %uT | swz wc=on %uT | ratio on/memcpy %uT |\n| --- | --- | --- | --- | --- | --- | --- "
                    "| --- | --- | --- |\n",
                    wc_type, unsigned(vk.mp.memoryTypes[wc_type].propertyFlags), nt, nt, nt, nt);
      std::printf("%s", hdr);
      table += hdr;
      std::string reads =
          "\n| read from WC | surface | memcpy out 1T GB/s | swz read wc=off 1T | swz read wc=on 1T |\n| --- | --- | "
          "--- | --- | --- |\n";
      const CaseDef wc_cases[2] = {cases[1], cases[3]};
      for (const CaseDef& cd : wc_cases) {
        for (uint64_t mib : wc_mib) {
          TextureDesc d;
          Layout L = make_case_layout(cd, mib << 20, &d);
          const uint64_t lin_bytes = uint64_t{d.width} * d.height * d.format.element_bytes;
          const uint64_t rp = uint64_t{d.width} * d.format.element_bytes;
          HostMem lin(lin_bytes), back(lin_bytes);
          fill_random(lin.p, lin_bytes, 3);
          VkBufferCreateInfo bi{};
          bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
          bi.size = L.size();
          bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
          VkBuffer b;
          CHECK_VK(vkCreateBuffer(vk.dev, &bi, nullptr, &b));
          VkMemoryRequirements mr;
          vkGetBufferMemoryRequirements(vk.dev, b, &mr);
          VkMemoryAllocateInfo ai{};
          ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
          ai.allocationSize = mr.size;
          ai.memoryTypeIndex = static_cast<uint32_t>(wc_type);
          VkDeviceMemory mem;
          if (vkAllocateMemory(vk.dev, &ai, nullptr, &mem) != VK_SUCCESS) {
            std::printf("wc: %llu MiB allocation refused\n", static_cast<unsigned long long>(mib));
            vkDestroyBuffer(vk.dev, b, nullptr);
            continue;
          }
          void* m;
          CHECK_VK(vkMapMemory(vk.dev, mem, 0, VK_WHOLE_SIZE, 0, &m));
          uint8_t* wc = static_cast<uint8_t*>(m);
          const int n = std::max(3, std::min(reps, 10));
          auto timed = [&](auto f) {
            std::vector<double> t;
            f();  // first touch of the mapping
            for (int i = 0; i < n; ++i) {
              const double t0 = now_s();
              f();
              t.push_back(now_s() - t0);
            }
            return median(t);
          };
          double r[2][3];
          for (int ti = 0; ti < 2; ++ti) {
            const unsigned th = ti ? nt : 1;
            CopyOptions off, on;
            off.threads = on.threads = th;
            on.write_combined = true;
            r[ti][0] = timed([&] {
              parallel_parts(th, lin_bytes,
                             [&](unsigned, uint64_t lo, uint64_t hi) { std::memcpy(wc + lo, lin.p + lo, hi - lo); });
            });
            r[ti][1] = timed(
                [&] { CHECK_OK(write_to_subresource(L, wc, L.size(), 0, nullptr, lin.p, lin_bytes, rp, 0, off)); });
            r[ti][2] = timed(
                [&] { CHECK_OK(write_to_subresource(L, wc, L.size(), 0, nullptr, lin.p, lin_bytes, rp, 0, on)); });
          }
          const double gb = double(lin_bytes) * 1e-9;
          char line[512];
          std::snprintf(line, sizeof line,
                        "| %s | %llu MiB | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", cd.name.c_str(),
                        static_cast<unsigned long long>(mib), gb / r[0][0], gb / r[0][1], gb / r[0][2],
                        r[0][0] / r[0][2], gb / r[1][0], gb / r[1][1], gb / r[1][2], r[1][0] / r[1][2]);
          std::printf("%s", line);
          std::fflush(stdout);
          table += line;
          if (mib <= 4) {
            // Reads from WC memory are uncached: keep them to small surfaces.
            CopyOptions off, on;
            off.threads = on.threads = 1;
            on.write_combined = true;
            CHECK_OK(write_to_subresource(L, wc, L.size(), 0, nullptr, lin.p, lin_bytes, rp, 0));
            const double mo = timed([&] { std::memcpy(back.p, wc, lin_bytes); });
            const double ro = timed(
                [&] { CHECK_OK(read_from_subresource(back.p, lin_bytes, rp, 0, L, wc, L.size(), 0, nullptr, off)); });
            const bool ok1 = std::memcmp(back.p, lin.p, lin_bytes) == 0;
            std::memset(back.p, 0, lin_bytes);
            const double rn = timed(
                [&] { CHECK_OK(read_from_subresource(back.p, lin_bytes, rp, 0, L, wc, L.size(), 0, nullptr, on)); });
            const bool ok2 = std::memcmp(back.p, lin.p, lin_bytes) == 0;
            all_ok = all_ok && ok1 && ok2;
            std::snprintf(line, sizeof line, "| %s%s | %llu MiB | %.3f | %.3f | %.3f |\n", cd.name.c_str(),
                          ok1 && ok2 ? "" : " (MISMATCH)", static_cast<unsigned long long>(mib), gb / mo, gb / ro,
                          gb / rn);
            std::printf("%s", line);
            std::fflush(stdout);
            reads += line;
          }
          vkUnmapMemory(vk.dev, mem);
          vkDestroyBuffer(vk.dev, b, nullptr);
          vkFreeMemory(vk.dev, mem, nullptr);
        }
      }
      table += reads;
    }
  }

  std::printf("\n%s", table.c_str());
  if (!md.empty()) {
    if (FILE* f = std::fopen(md.c_str(), "w")) {
      std::fprintf(f, "device: %s\n\n%s", vk.props.deviceName, table.c_str());
      std::fclose(f);
    }
  }
  plain.destroy();
  vkDestroyQueryPool(vk.dev, vk.qp, nullptr);
  vkDestroyCommandPool(vk.dev, vk.pool, nullptr);
  return all_ok ? 0 : 3;
}
