// write_to_subresource / read_from_subresource: validation, bounds, backend
// choice and thread split. Kernels only ever see fully checked Regions.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#include "core/kernel.hpp"
#include "core/request.hpp"
#include "core/parallel.hpp"
#include "swz/copy.hpp"
#include "core/plan.hpp"
#include "core/checked_math.hpp"
#include "core/enum_names.hpp"

namespace swz {
namespace {
using swz::detail::add_ok;
using swz::detail::ceil_div;
using swz::detail::mul_ok;

// Automatic threading (CopyOptions::threads = 0) gives each thread at least
// this many bytes: below it, starting a thread costs more than it saves and
// auto would be slower than one thread (swz_bench_matrix's x_1thread counter).
constexpr uint64_t kMinBytesPerThread = uint64_t{2} << 20;

unsigned auto_threads(uint64_t bytes) {
  const uint64_t want = bytes / kMinBytesPerThread;
  if (want <= 1) return 1;  // the common small copy: no query at all
  return static_cast<unsigned>(std::min<uint64_t>(detail::hardware_threads(), want));
}

using KernelFn = void (*)(const detail::Region&, detail::Direction);

// The kernels in the order Auto prefers them; fn is null for one that is
// not built, and off says which build options left it out.
struct BackendKernel {
  Backend backend;
  KernelFn fn;
  const char* off;
};
constexpr BackendKernel kKernels[] = {
#ifdef SWZ_HAVE_HIGHWAY
    {Backend::Highway, detail::highway_copy, nullptr},
#else
    {Backend::Highway, nullptr, "SWZ_SIMD=OFF or SWZ_HIGHWAY=OFF"},
#endif
#ifdef SWZ_HAVE_XSIMD
    {Backend::Xsimd, detail::xsimd_copy, nullptr},
#else
    {Backend::Xsimd, nullptr, "SWZ_SIMD=OFF or SWZ_XSIMD=OFF"},
#endif
    {Backend::Scalar, detail::scalar_copy, nullptr}};

Status pick_backend(Backend want, KernelFn* fn) {
  Backend b = want;
  if (b == Backend::Auto) {
    const char* env = std::getenv("SWZ_BACKEND");
    if (env && *env) {
      const std::string e(env);
      if (!parse_backend(e, &b) || b == Backend::Auto)
        return {Code::invalid_argument, "SWZ_BACKEND = '" + e + "' (expected scalar, highway or xsimd)"};
    }
  }
  for (const BackendKernel& k : kKernels) {
    if (b != Backend::Auto && b != k.backend) continue;
    if (k.fn) {
      *fn = k.fn;
      return Status::Ok();
    }
    if (b != Backend::Auto)
      return {Code::unsupported,
              std::string("backend ") + backend_name(b) + " is not built into this swz (" + k.off + ")"};
  }
  *fn = detail::scalar_copy;  // a value outside the enum (C callers): the scalar kernel, as ever
  return Status::Ok();
}

// Each part on its own thread where the system grants one, the rest on this
// thread: a refused thread never aborts the process nor skips a part.
// When the list of parts cannot be allocated, the whole region runs here.
void run_parts_of(const std::vector<detail::Region>& parts, bool complete, const detail::Region& whole, KernelFn fn,
                  detail::Direction dir) {
  if (!complete) return fn(whole, dir);
  detail::run_parts(parts.size(), [&](std::size_t i) { fn(parts[i], dir); });
}

bool append(std::vector<detail::Region>& parts, const detail::Region& part) noexcept {
  try {
    parts.push_back(part);
    return true;
  } catch (...) {
    return false;
  }
}

Status run(const detail::Resolved& res, uint8_t* swz_base, uint8_t* lin, detail::Direction dir, const CopyOptions& o) {
  KernelFn fn = detail::scalar_copy;
  SWZ_TRY(pick_backend(o.backend, &fn));
  detail::Region r = res.r;
  r.swz = swz_base;
  r.lin = lin;
  r.streaming = o.write_combined;
  r.write_combined = o.write_combined;
  r.copy_bytes = res.lin_bytes;  // the streaming decision covers the whole copy, not a thread's part
  unsigned threads = o.threads;
  if (threads == 0) threads = auto_threads(res.lin_bytes);
  // Split by block rows (or by slices for tall 3D boxes); each part covers
  // whole rows of blocks so threads never write the same destination line.
  const Plan& p = *r.plan;
  const uint64_t ext_y = uint64_t{1} << p.ext_log2[1];
  if (threads > 1 && r.d >= threads && !r.stack_rows) {
    std::vector<detail::Region> parts;
    bool complete = true;
    const uint32_t ext_z = 1u << std::min(p.ext_log2[2], 31u);
    uint32_t chunks = static_cast<uint32_t>(ceil_div(r.d + (r.z0 % ext_z), ext_z));
    uint32_t per = static_cast<uint32_t>(ceil_div(chunks, threads));
    uint32_t zs = r.z0;
    const uint32_t zend = r.z0 + r.d;
    while (zs < zend) {
      uint64_t lim = (uint64_t{zs} / ext_z + per) * ext_z;
      uint32_t ze = static_cast<uint32_t>(std::min<uint64_t>(lim, zend));
      detail::Region part = r;
      part.z0 = zs;
      part.d = ze - zs;
      part.lin = lin + uint64_t{zs - r.z0} * r.lin_depth_pitch;
      if (!(complete = append(parts, part))) break;
      zs = ze;
    }
    run_parts_of(parts, complete, r, fn, dir);
    return Status::Ok();
  }
  if (threads > 1 && r.d == 1 && r.h > ext_y) {
    std::vector<detail::Region> parts;
    bool complete = true;
    // y is the adjusted row coordinate only through pre-swizzle/stacking; split on
    // multiples of the block height in the unadjusted coordinate, which is a
    // block-row split whenever the Y pre-swizzle offset is block-aligned.
    uint64_t rows = r.h;
    uint64_t per = ceil_div(ceil_div(rows, ext_y), threads) * ext_y;
    uint64_t ys = r.y0;
    const uint64_t yend = uint64_t{r.y0} + r.h;
    while (ys < yend) {
      uint64_t ye = std::min(yend, (ys / ext_y) * ext_y + per);
      detail::Region part = r;
      part.y0 = static_cast<uint32_t>(ys);
      part.h = static_cast<uint32_t>(ye - ys);
      part.lin = lin + (ys - r.y0) * r.lin_row_pitch;
      if (!(complete = append(parts, part))) break;
      ys = ye;
    }
    run_parts_of(parts, complete, r, fn, dir);
    return Status::Ok();
  }
  fn(r, dir);
  return Status::Ok();
}

}  // namespace

Status to_element_box(const Layout& layout, uint32_t subresource, const Box* box, ElementBox* out) {
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(subresource, &s));
  const FormatInfo& f = layout.desc().format;
  Box b{0, 0, 0, s.width, s.height, s.depth};
  if (box) b = *box;
  *out = ElementBox{};
  if (b.right <= b.left || b.bottom <= b.top || b.back <= b.front) {
    out->empty = true;
    return Status::Ok();
  }
  if (b.right > s.width || b.bottom > s.height || b.back > s.depth)
    return {Code::out_of_range,
            "box (" + std::to_string(b.left) + "," + std::to_string(b.top) + "," + std::to_string(b.front) + ")-(" +
                std::to_string(b.right) + "," + std::to_string(b.bottom) + "," + std::to_string(b.back) +
                ") lies outside subresource " + std::to_string(subresource) + " (" + std::to_string(s.width) + "x" +
                std::to_string(s.height) + "x" + std::to_string(s.depth) + " texels)"};
  const uint32_t bw = f.block_width, bh = f.block_height;
  if (b.left % bw || b.top % bh)
    return {Code::invalid_argument, "box left/top = " + std::to_string(b.left) + "/" + std::to_string(b.top) +
                                        " must be multiples of the " + std::to_string(bw) + "x" + std::to_string(bh) +
                                        " block of " + f.name};
  if ((b.right % bw && b.right != s.width) || (b.bottom % bh && b.bottom != s.height))
    return {Code::invalid_argument, "box right/bottom = " + std::to_string(b.right) + "/" + std::to_string(b.bottom) +
                                        " must be multiples of the block size or the subresource edge for " + f.name};
  out->x_el = b.left / bw;
  out->y_el = b.top / bh;
  out->z = b.front;
  out->width_el = static_cast<uint32_t>(ceil_div(b.right, bw) - out->x_el);
  out->height_el = static_cast<uint32_t>(ceil_div(b.bottom, bh) - out->y_el);
  out->depth = b.back - b.front;
  return Status::Ok();
}

namespace detail {

Status resolve_region(const Layout& layout, uint64_t resource_size, uint32_t subresource, const Box* box,
                      uint64_t lin_size, uint64_t lin_row_pitch, uint64_t lin_depth_pitch, const char* lin_name,
                      Resolved* out) {
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(subresource, &s));
  const Plan& p = layout.plan(subresource);
  SWZ_TRY(check_operation(layout, subresource, Operation::SubresourceCopy));
  const uint32_t eb = s.element_bytes;
  // Non-power-of-two elements (R32G32B32, 12 bytes) reach here only through
  // row-major and byte-granular explicit layouts: D3D12 refuses them for
  // swizzled layouts, and make_layout already does (docs/ARCHITECTURE.md rule 11).
  ElementBox eb_box;
  SWZ_TRY(to_element_box(layout, subresource, box, &eb_box));
  if (eb_box.empty) {
    out->empty = true;
    return Status::Ok();
  }
  Region& r = out->r;
  r.plan = &p;
  r.x0 = eb_box.x_el;
  r.y0 = eb_box.y_el;
  r.z0 = eb_box.z;
  r.w = eb_box.width_el;
  r.h = eb_box.height_el;
  r.d = eb_box.depth;
  // Linear side: the one rule for linear buffers (pitch 0 = tight).
  LinearExtent lin;
  SWZ_TRY(resolve_linear(r.w, r.h, r.d, eb, lin_size, lin_row_pitch, lin_depth_pitch, lin_name, &lin));
  out->lin_bytes = lin.used_B;
  out->sub_offset = s.offset;
  out->sub_size = s.size;
  out->subresource = subresource;
  // A pitch the box does not use (one row, one slice) may hold anything, as
  // in D3D12; kernels step their pointers by it past the last row or slice,
  // so they get the harmless value resolve_linear gives (a depth pitch of
  // 2^64-1 on a 2D box would make a walker's slice pointer wrap around the
  // address space, undefined behaviour even though never read).
  r.lin_row_pitch = lin.row_pitch_B;
  r.lin_depth_pitch = lin.depth_pitch_B;
  // Resource side: the layout keeps every offset of the subresource in [offset, offset + size).
  uint64_t end;
  if (!add_ok(s.offset, s.size, &end)) return {Code::overflow, "subresource end does not fit in 64 bits"};
  if (resource_size < end)
    return {Code::buffer_too_small, "resource buffer is " + std::to_string(resource_size) + " bytes; subresource " +
                                        std::to_string(subresource) + " ends at byte " + std::to_string(end)};
  const Frame f = Frame::of(s);
  r.row_pitch = f.row_pitch_B;
  r.depth_pitch_B = f.depth_pitch_B;
  r.stack_rows = f.stack_rows;
  for (int i = 0; i < 3; ++i) r.pre[i] = f.pre[i];
  return Status::Ok();
}

Status check_copy_memory(const void* resource, const Resolved& res, const void* lin, const char* lin_name,
                         bool linear_written) {
  const MemoryRange lin_side(lin, res.lin_bytes, lin_name);
  const MemoryRange res_side(static_cast<const uint8_t*>(resource) + res.sub_offset, res.sub_size, "subresource",
                             res.subresource, " of the resource");
  return linear_written ? check_memory_disjoint(res_side, lin_side) : check_memory_disjoint(lin_side, res_side);
}

}  // namespace detail

namespace {
// What write_to_subresource and read_from_subresource check before any byte
// moves: the request (resolve_region), then, unless the box is empty, the
// two pointers.
Status resolve_call(const Layout& layout, const void* resource, uint64_t resource_size, uint32_t subresource,
                    const Box* box, const void* lin, uint64_t lin_size, uint64_t lin_row_pitch,
                    uint64_t lin_depth_pitch, const char* lin_name, detail::Resolved* res) {
  SWZ_TRY(detail::resolve_region(layout, resource_size, subresource, box, lin_size, lin_row_pitch, lin_depth_pitch,
                                 lin_name, res));
  if (res->empty) return Status::Ok();
  if (!resource) return {Code::invalid_argument, "resource = null"};
  if (!lin) return {Code::invalid_argument, std::string(lin_name) + " = null"};
  return detail::check_copy_memory(resource, *res, lin, lin_name, std::string(lin_name) == "destination");
}

constexpr detail::EnumName<Backend> kBackendNames[] = {
    {Backend::Auto, "auto"}, {Backend::Scalar, "scalar"}, {Backend::Highway, "highway"}, {Backend::Xsimd, "xsimd"}};
}  // namespace

const char* backend_name(Backend b) { return detail::name_of(kBackendNames, b, "?"); }

bool parse_backend(std::string_view name, Backend* out) { return detail::value_of(kBackendNames, name, out); }

uint64_t packed_subresource_bytes(const SubresourceLayout& s) {
  return uint64_t{s.width_el} * s.element_bytes * s.height_el * s.depth;
}

Status write_to_subresource(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource,
                            const Box* box, const void* src, uint64_t src_size, uint64_t src_row_pitch,
                            uint64_t src_depth_pitch, const CopyOptions& options) {
  detail::Resolved res;
  SWZ_TRY(resolve_call(layout, resource, resource_size, subresource, box, src, src_size, src_row_pitch, src_depth_pitch,
                       "source", &res));
  if (res.empty) return Status::Ok();
  return run(res, static_cast<uint8_t*>(resource) + layout.sub(subresource).offset,
             const_cast<uint8_t*>(static_cast<const uint8_t*>(src)), detail::Direction::ToSwizzled, options);
}

Status read_from_subresource(void* dst, uint64_t dst_size, uint64_t dst_row_pitch, uint64_t dst_depth_pitch,
                             const Layout& layout, const void* resource, uint64_t resource_size, uint32_t subresource,
                             const Box* box, const CopyOptions& options) {
  detail::Resolved res;
  SWZ_TRY(resolve_call(layout, resource, resource_size, subresource, box, dst, dst_size, dst_row_pitch, dst_depth_pitch,
                       "destination", &res));
  if (res.empty) return Status::Ok();
  const uint8_t* sub = static_cast<const uint8_t*>(resource) + layout.sub(subresource).offset;
  if (options.write_combined) {
    // The resource is write-combined (uncached) memory: copy the subresource
    // out with streaming loads into a cached temporary, then convert from it.
    std::unique_ptr<uint8_t[]> cached(new (std::nothrow) uint8_t[res.sub_size]);
    if (cached) {
      unsigned threads = options.threads;
      if (threads == 0) threads = auto_threads(res.sub_size);
      detail::stream_load_copy(cached.get(), sub, res.sub_size, threads);
      CopyOptions o = options;
      o.write_combined = false;  // the destination is ordinary memory
      return run(res, cached.get(), static_cast<uint8_t*>(dst), detail::Direction::ToLinear, o);
    }
    // No memory for the temporary: read in place (correct, slower).
  }
  return run(res, const_cast<uint8_t*>(sub), static_cast<uint8_t*>(dst), detail::Direction::ToLinear, options);
}

}  // namespace swz
