// Context::Impl: memory types, host-visible and device-local buffers, their
// release, and the pattern tables' arenas.
#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/vulkan/context_impl.hpp"

namespace swz::gpu {

namespace {

uint64_t fnv1a(const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

}  // namespace

void Context::Impl::free_buffer(HostBuffer* b) {
  if (!device) return;
  if (b->map) vkUnmapMemory(device, b->mem);
  if (b->buf) vkDestroyBuffer(device, b->buf, nullptr);
  if (b->mem) vkFreeMemory(device, b->mem, nullptr);
  *b = HostBuffer{};
}

void Context::Impl::trim() {
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

int Context::Impl::find_memory(uint32_t bits, VkMemoryPropertyFlags req, VkMemoryPropertyFlags pref) const {
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

Status Context::Impl::make_host_buffer(uint64_t size, VkMemoryPropertyFlags pref, HostBuffer* out) {
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
Status Context::Impl::make_device_buffer(uint64_t size, HostBuffer* out) {
  return make_bound_buffer(
      size,
      [&](const VkMemoryRequirements& mr) {
        const int type = find_memory(mr.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
        return type >= 0 ? type : find_memory(mr.memoryTypeBits, 0, 0);
      },
      vk_fail("vkAllocateMemory (ring)", VK_ERROR_OUT_OF_DEVICE_MEMORY), "vkAllocateMemory (ring)", out);
}

Status Context::Impl::ensure_stage(HostBuffer* b, uint64_t size) {
  if (b->buf && b->size >= size) return Status::Ok();
  free_buffer(b);
  return make_host_buffer(size, VK_MEMORY_PROPERTY_HOST_CACHED_BIT, b);
}

// Returns the buffer and offset holding `t` (uploaded once per content).
Status Context::Impl::upload_tables(const detail::SwizzleTables& t, VkBuffer* buf, uint64_t* off) {
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

}  // namespace swz::gpu
