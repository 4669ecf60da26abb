// Context::Impl: the pinned ring, the host path that copies bands of the
// caller's memory through pinned chunks (HostPath::ring and ring_copy).
#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "backends/vulkan/context_impl.hpp"
#include "core/parse_number.hpp"

namespace swz::gpu {

void Context::Impl::free_ring() {
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

// The chunk for a region spanning `span_B` bytes: as asked, else 1/8 of
// the region between 2 and 8 MiB (so that mid-sized surfaces still have
// several chunks to overlap).
uint64_t Context::Impl::ring_chunk_B(uint64_t span_B) const {
  uint64_t v = tuning.ring_chunk_B ? tuning.ring_chunk_B : swz::detail::env_unsigned("SWZ_GPU_RING_CHUNK", 0);
  if (v == 0) v = std::clamp<uint64_t>(span_B / 8, uint64_t{2} << 20, uint64_t{8} << 20);
  return std::clamp<uint64_t>(v, 4096, kMaxRingChunk);
}

unsigned Context::Impl::ring_slots() const {
  const uint64_t v = tuning.ring_slots ? tuning.ring_slots : swz::detail::env_unsigned("SWZ_GPU_RING_SLOTS", 3);
  return static_cast<unsigned>(std::clamp<uint64_t>(v, 2, 8));
}

unsigned Context::Impl::copy_threads() const {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t v =
      tuning.copy_threads ? tuning.copy_threads : swz::detail::env_unsigned("SWZ_GPU_COPY_THREADS", std::min(8u, hw));
  return static_cast<unsigned>(std::clamp<uint64_t>(v, 1, 64));
}

// False (plan left incomplete) when the region cannot go through the
// ring: a band larger than kMaxRingChunk, or write bands whose resource
// windows overlap a neighbour's while they must be copied in. Bands of
// about `cap0` bytes. The ring puts each band's windows at byte 0 of its
// slot's chunks; with `mirror` (the banded import path) they start at the
// caller's address modulo 256 instead (lin_base and res_base: the offsets
// of the linear box and the subresource in their imported buffers), so
// that the device copies and the plan see the caller's alignment.
bool Context::Impl::plan_ring(const detail::GpuRegion& r0, bool to_swz, uint64_t cap0, RingPlan* P, Status* err,
                              bool mirror, uint64_t lin_base, uint64_t res_base) const {
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
Status Context::Impl::ensure_ring(size_t slots, uint64_t lin_cap, uint64_t res_cap, bool dev) {
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
Status Context::Impl::submit_band(const RingPlan& P, size_t k, RingSlot& r, bool to_swz, bool dev) {
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

Status Context::Impl::run_ring(const RingPlan& P, bool to_swz, uint8_t* res_sub, uint8_t* lin, bool dev) {
  using clock = std::chrono::steady_clock;
  const size_t n = P.bands.size();
  const size_t slots = std::min<size_t>(ring_slots(), n);
  const unsigned threads = copy_threads();
  const bool stream = tuning.stream_copies || swz::detail::env_unsigned("SWZ_GPU_STREAM_COPIES", 0) == 1;
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

}  // namespace swz::gpu
