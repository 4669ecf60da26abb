// GPU benchmark: swizzle / deswizzle dispatches against a plain compute copy
// of the same bytes (same buffers, same workgroup shape), timed with
// timestamp queries in one command buffer after a clock warm-up, the kinds
// interleaved rep by rep, each after a copy of --scrub-mib unrelated bytes
// (so every kind starts from the same L2 state); median of --reps runs. GB/s count the surface
// bytes once. Also reports vkCmdCopyBuffer of the same bytes for reference.
//
//   swz_bench_gpu [--quick] [--sizes 64,256,1024] [--reps 20] [--wg 11[,12..]]
//                 [--warm-gib 16] [--scrub-mib 128] [--verify] [--md FILE]
//
// Cases: std64k 32 bpp (R8G8B8A8) and 8 bpp (R8), and an XOR-heavy pattern
// (AMD GFX9 SW_64KB_S_X 32 bpp with a pipe/bank immediate), each as one 2D
// surface of the given MiB (8 bpp 1 GiB = 32768 x 32768, one subresource).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "swz/gpu.hpp"
#include "swz/swz.hpp"

namespace {

using namespace swz;

#define CHECK_VK(x)                                                              \
  do {                                                                           \
    VkResult r_ = (x);                                                           \
    if (r_ != VK_SUCCESS) {                                                      \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #x, int(r_), __LINE__); \
      std::exit(2);                                                              \
    }                                                                            \
  } while (0)

#define CHECK_OK(x)                                                                   \
  do {                                                                                \
    Status s_ = (x);                                                                  \
    if (!s_.ok()) {                                                                   \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #x, s_.message().c_str(), __LINE__); \
      std::exit(2);                                                                   \
    }                                                                                 \
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
    ai.memoryTypeIndex = host ? mem_type(mr.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
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
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  }
  void copy(const Buf& s, const Buf& d, uint64_t n, uint64_t so = 0, uint64_t dof = 0) {
    VkBufferCopy r{so, dof, n};
    vkCmdCopyBuffer(cb, s.buf, d.buf, 1, &r);
  }
};

struct CaseDef {
  std::string name;
  LayoutKind kind;
  const char* format;
  const char* pattern;  // for LayoutKind::Pattern
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

}  // namespace

int main(int argc, char** argv) {
  std::vector<uint64_t> sizes_mib = {64, 256, 1024};
  std::vector<unsigned> wgs = {0};
  int reps = 20;
  uint64_t warm_gib = 16;  // copies run before timing, to bring the clocks up
  uint64_t scrub_mib = 128;  // copy of unrelated bytes before each timed dispatch
  bool verify = false;
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
      reps = 3;
      warm_gib = 0;
      scrub_mib = 0;
      verify = true;
    } else if (a == "--sizes" && i + 1 < argc) {
      list(&sizes_mib);
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
    } else if (a == "--md" && i + 1 < argc) {
      md = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--sizes 64,256,1024] [--reps N] [--wg 11,12] [--warm-gib 16] [--scrub-mib 128] [--verify] [--md FILE]\n", argv[0]);
      return 1;
    }
  }
  Vk vk;
  Status st = gpu::Context::create(&vk.ctx);
  if (!st.ok()) {
    std::printf("no Vulkan device (%s): %s\n", code_name(st.code()), st.message().c_str());
    return st.code() == Code::no_device ? 0 : 1;
  }
  vk.dev = vk.ctx.device();
  vkGetPhysicalDeviceMemoryProperties(vk.ctx.physical_device(), &vk.mp);
  vkGetPhysicalDeviceProperties(vk.ctx.physical_device(), &vk.props);
  std::printf("device: %s  maxStorageBufferRange %u  timestampPeriod %.3f ns\n", vk.props.deviceName,
              vk.props.limits.maxStorageBufferRange, double(vk.props.limits.timestampPeriod));
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
  vk.qcount = static_cast<uint32_t>(8 * reps);
  VkQueryPoolCreateInfo qci{};
  qci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qci.queryCount = vk.qcount;
  CHECK_VK(vkCreateQueryPool(vk.dev, &qci, nullptr, &vk.qp));

  const std::vector<CaseDef> cases = {
      {"std64k 32bpp", LayoutKind::Std64K, "R8G8B8A8_UNORM", nullptr},
      {"std64k 8bpp", LayoutKind::Std64K, "R8_UNORM", nullptr},
      {"xor-heavy 32bpp (AMD SW_64KB_S_X)", LayoutKind::Pattern, "R8G8B8A8_UNORM",
       "X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3^X8^Z3 X5^Y6^Z2 Y4^X7^Z1 X6^Y5^Z0 Y5^X10^Z7 X7^Y8^Z6 Y6^X9^Z5 X8^Y7^Z4 imm=0x500"},
  };

  Buf scrub_a, scrub_b;
  if (scrub_mib) {
    scrub_a = vk.make(scrub_mib << 20, false);
    scrub_b = vk.make(scrub_mib << 20, false);
  }
  // Times several recorders interleaved (rep by rep, so clock changes hit all
  // of them alike) after a warm-up of about 16 GB of copies that brings the
  // clocks up; returns the median ms of each.
  auto time_all = [&](const std::vector<std::function<void()>>& recs, const std::function<void()>& warmup, uint64_t bytes) {
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
    for (uint64_t i = 0; i < warm_n; ++i) {
      vk.barrier();
      warmup();
    }
    for (int r = 0; r < reps; ++r)
      for (uint32_t k = 0; k < n; ++k) {
        if (scrub_mib) {
          // Push the previous kind's lines out of the L2 so that each timed
          // dispatch starts from the same cache state.
          vk.barrier();
          CHECK_OK(vk.ctx.record_buffer_copy(vk.cb, {scrub_a.buf, 0, scrub_a.size}, {scrub_b.buf, 0, scrub_b.size}, scrub_a.size));
        }
        vk.barrier();
        vkCmdWriteTimestamp(vk.cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, vk.qp, 2 * (r * n + k));
        recs[k]();
        vkCmdWriteTimestamp(vk.cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, vk.qp, 2 * (r * n + k) + 1);
      }
    vk.submit();
    std::vector<uint64_t> ts(need);
    CHECK_VK(vkGetQueryPoolResults(vk.dev, vk.qp, 0, need, ts.size() * 8, ts.data(), 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    std::vector<double> out;
    for (uint32_t k = 0; k < n; ++k) {
      std::vector<double> ms;
      for (int r = 0; r < reps; ++r)
        ms.push_back(double(ts[2 * (r * n + k) + 1] - ts[2 * (r * n + k)]) * double(vk.props.limits.timestampPeriod) * 1e-6);
      out.push_back(median(ms));
    }
    return out;
  };

  std::string table =
      "| case | surface | words per workgroup | compute copy GB/s | swizzle GB/s | ratio | deswizzle GB/s | ratio | vkCmdCopyBuffer GB/s |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  bool all_ok = true;
  for (const CaseDef& cd : cases) {
    for (uint64_t mib : sizes_mib) {
      TextureDesc d;
      CHECK_OK(find_format(cd.format, &d.format));
      const uint64_t bytes = mib << 20;
      const uint64_t texels = bytes / d.format.element_bytes;
      uint32_t side = static_cast<uint32_t>(std::llround(std::sqrt(double(texels))));
      d.width = side;
      d.height = static_cast<uint32_t>(texels / side);
      LayoutSpec spec;
      spec.kind = cd.kind;
      if (cd.pattern) CHECK_OK(parse_pattern_text(cd.pattern, &spec.pattern));
      Layout L;
      CHECK_OK(make_layout(d, spec, &L));
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
        auto rec_copy = [&] {
          CHECK_OK(vk.ctx.record_buffer_copy(vk.cb, {lin.buf, 0, lin_bytes}, {res.buf, 0, L.size()}, lin_bytes, &info_c));
        };
        auto rec_w = [&] {
          CHECK_OK(vk.ctx.record_write_to_subresource(vk.cb, L, {res.buf, 0, L.size()}, 0, nullptr, {lin.buf, 0, lin_bytes}, rp, 0, &info_w));
        };
        auto rec_r = [&] {
          CHECK_OK(vk.ctx.record_read_from_subresource(vk.cb, {lin2.buf, 0, lin_bytes}, rp, 0, L, {res.buf, 0, L.size()}, 0, nullptr, &info_r));
        };
        auto rec_xfer = [&] { vk.copy(lin, lin2, lin_bytes); };
        const std::vector<double> tm = time_all({rec_copy, rec_w, rec_r, rec_xfer}, rec_copy, lin_bytes);
        const double t_copy = tm[0], t_w = tm[1], t_r = tm[2], t_x = tm[3];
        const double gb = double(lin_bytes) * 1e-9;
        char line[512];
        std::snprintf(line, sizeof line, "| %s | %ux%u, %llu MiB | 2^%u x %uB | %.1f | %.1f | %.2f | %.1f | %.2f | %.1f |\n",
                      cd.name.c_str(), d.width, d.height, static_cast<unsigned long long>(mib), info_w.chunks_log2, info_w.word_bytes,
                      gb / (t_copy * 1e-3), gb / (t_w * 1e-3), t_copy / t_w, gb / (t_r * 1e-3), t_copy / t_r, gb / (t_x * 1e-3));
        std::printf("%s", line);
        std::fflush(stdout);
        table += line;
      }
      if (verify) {
        // Round trip on the device (lin -> res -> lin2, compare), and the
        // swizzled bytes against the CPU for surfaces up to 256 MiB.
        vk.ctx.set_tuning({});
        vk.begin();
        CHECK_OK(vk.ctx.record_write_to_subresource(vk.cb, L, {res.buf, 0, L.size()}, 0, nullptr, {lin.buf, 0, lin_bytes}, rp, 0));
        vk.barrier();
        CHECK_OK(vk.ctx.record_read_from_subresource(vk.cb, {lin2.buf, 0, lin_bytes}, rp, 0, L, {res.buf, 0, L.size()}, 0, nullptr));
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
        std::printf("verify %s %llu MiB: %s\n", cd.name.c_str(), static_cast<unsigned long long>(mib), ok ? "ok" : "MISMATCH");
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
  std::printf("\n%s", table.c_str());
  if (!md.empty()) {
    if (FILE* f = std::fopen(md.c_str(), "w")) {
      std::fprintf(f, "device: %s\n\n%s", vk.props.deviceName, table.c_str());
      std::fclose(f);
    }
  }
  vkDestroyQueryPool(vk.dev, vk.qp, nullptr);
  vkDestroyCommandPool(vk.dev, vk.pool, nullptr);
  return all_ok ? 0 : 3;
}
