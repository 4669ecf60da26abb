// Context::Impl: the host conveniences (write_to_subresource,
// read_from_subresource): the choice of host path and the whole-staging path.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "backends/vulkan/context_impl.hpp"

namespace swz::gpu {

namespace {

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

}  // namespace

// The path the caller asked for: the tuning, else SWZ_GPU_HOST_PATH.
HostPath Context::Impl::wanted_path() const {
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

Status Context::Impl::host_convert(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin) {
  const auto t0 = std::chrono::steady_clock::now();
  stats = HostPathStats{};
  Status s = host_convert_path(r0, to_swz, res_sub, lin);
  stats.total_ms = ms_since(t0);
  return s;
}

Status Context::Impl::host_convert_path(const detail::GpuRegion& r0, bool to_swz, uint8_t* res_sub, uint8_t* lin) {
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
