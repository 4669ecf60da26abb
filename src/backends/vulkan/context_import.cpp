// Context::Impl: the host path through imported caller memory
// (VK_EXT_external_memory_host): one direct dispatch or device-local bands,
// and host memory the caller registers once.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "backends/vulkan/context_impl.hpp"
#include "core/parse_number.hpp"

namespace swz::gpu {

// The registered buffer holding [p, p + n), and p's offset in it.
bool Context::Impl::find_registered(const void* p, uint64_t n, VkBuffer* buf, uint64_t* skew) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  for (const Registered& r : registered)
    if (a >= r.lo && a <= r.hi && n <= r.hi - a) {
      *buf = r.b.buf;
      *skew = a - r.base;
      return true;
    }
  return false;
}

void Context::Impl::free_registered() {
  for (Registered& r : registered) free_buffer(&r.b);
  registered.clear();
}

// Imports [p, p + n) rounded out to the import alignment as a storage
// buffer; *skew = p - (the imported base). False when the driver refuses
// (read-only or file-backed pages, for example): the caller stages instead.
bool Context::Impl::import_host(const void* p, uint64_t n, HostBuffer* out, uint64_t* skew) {
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
bool Context::Impl::host_convert_imported(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin,
                                          Status* result) {
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

// ---- Imported memory in bands ---------------------------------------------
// The band of the imported path (DispatchTuning::import_band_B);
// UINT64_MAX: no bands.
uint64_t Context::Impl::import_band_B(uint64_t span_B) const {
  uint64_t v = tuning.import_band_B;
  // SWZ_GPU_IMPORT_BAND: "direct" or a whole number of bytes (decimal or
  // 0x hex); anything else ("16M", "-1") is ignored like a malformed
  // SWZ_GPU_RING_CHUNK, rather than read as its leading digits.
  const char* e = v == 0 ? std::getenv("SWZ_GPU_IMPORT_BAND") : nullptr;
  if (e && std::strcmp(e, "direct") == 0)
    v = UINT64_MAX;
  else if (e)
    v = swz::detail::env_unsigned("SWZ_GPU_IMPORT_BAND", 0);
  if (v == UINT64_MAX) return v;
  if (v == 0) v = std::clamp<uint64_t>(span_B / 8, uint64_t{4} << 20, uint64_t{32} << 20);
  return std::clamp<uint64_t>(v, 4096, kMaxRingChunk);
}

// Makes `slots` device-local band slots of lin_cap / res_cap bytes
// (existing larger ones are kept).
Status Context::Impl::ensure_band_slots(size_t slots, uint64_t lin_cap, uint64_t res_cap) {
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
Status Context::Impl::run_banded_import(const RingPlan& P, bool to_swz, VkBuffer rbuf, uint64_t rskew, VkBuffer lbuf,
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
  const unsigned pair_u = static_cast<unsigned>(swz::detail::env_unsigned("SWZ_GPU_PAIR_WG_LOG2", 0));
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

}  // namespace swz::gpu
