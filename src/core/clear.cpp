// clear_subresources (ClearTextureSubresources) and fill_buffers (FillBuffers).
// The region rules of the D3D12 batched clear specification live here; the
// value conversions in core/format_convert.cpp; the addresses come from
// SubresourceAddresser (core/addresser.hpp), the one address rule.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/addresser.hpp"
#include "core/checked_math.hpp"
#include "core/request.hpp"
#include "core/format_convert.hpp"
#include "core/layout_work.hpp"
#include "core/plan.hpp"
#include "swz/clear.hpp"

namespace swz {
namespace {
using detail::ceil_div;

struct ClearJob {
  uint32_t sub = 0;
  uint32_t x0 = 0, y0 = 0, z0 = 0, x1 = 0, y1 = 0, z1 = 0;  // elements / slices, end exclusive
  uint8_t element[16] = {};
};

std::string box_text(const Box& b) {
  std::string t;  // appended piece by piece (GCC 12 warns, wrongly, on "(" + std::to_string(...))
  t += '(';
  t += std::to_string(b.left) + "," + std::to_string(b.top) + "," + std::to_string(b.front);
  t += ")-(";
  t += std::to_string(b.right) + "," + std::to_string(b.bottom) + "," + std::to_string(b.back);
  t += ')';
  return t;
}

Status check_not_inverted(const Box& b, const std::string& at) {
  const char* lo = b.left > b.right ? "left" : b.top > b.bottom ? "top" : b.front > b.back ? "front" : nullptr;
  if (!lo) return Status::Ok();
  const char* hi = b.left > b.right ? "right" : b.top > b.bottom ? "bottom" : "back";
  const uint32_t vlo = b.left > b.right ? b.left : b.top > b.bottom ? b.top : b.front;
  const uint32_t vhi = b.left > b.right ? b.right : b.top > b.bottom ? b.bottom : b.back;
  return {Code::invalid_argument, at + "box " + box_text(b) + " is inverted: " + lo + " = " + std::to_string(vlo) +
                                      " > " + hi + " = " + std::to_string(vhi)};
}

// Region alignment of ClearTextureSubresources: the largest block dimension
// over the planes (BC 4x4; NV12/P010/P016 2x2; YUY2/Y210/Y216 2x1, ...).
void clear_alignment(const FormatInfo& f, uint32_t* ha, uint32_t* va) {
  *ha = f.block_width;
  *va = f.block_height;
  if (f.planes > 1 && !f.depth_stencil)
    for (uint32_t p = 0; p < f.planes; ++p) {
      PlaneInfo pi;
      if (plane_info(f, p, &pi).ok()) {
        *ha = std::max(*ha, pi.width_divisor);
        *va = std::max(*va, pi.height_divisor);
      }
    }
}

// The logical (plane 0) size of subresource i, texels.
void logical_size(const Layout& L, uint32_t i, uint32_t* w, uint32_t* h, uint32_t* d) {
  const SubresourceLayout& s = L.sub(i);
  const TextureDesc& td = L.desc();
  const uint32_t i0 = calc_subresource(s.mip, s.array_slice, 0, td.mip_levels, td.array_size);
  const SubresourceLayout& s0 = L.sub(i0);
  *w = s0.width;
  *h = s0.height;
  *d = s0.depth;
}

Status plan_clear(const Layout& L, uint64_t resource_size, const ClearDesc& c, size_t idx, uint32_t sub,
                  const detail::Codec& codec, bool all, std::vector<ClearJob>* jobs) {
  const std::string at = "clear " + std::to_string(idx) + ", subresource " + std::to_string(sub) + ": ";
  const SubresourceLayout& s = L.sub(sub);
  if (Status st = detail::check_operation(L, sub, detail::Operation::Clear); !st.ok())
    return {st.code(), "clear " + std::to_string(idx) + ": " + st.message()};
  if (codec.special == detail::Special::Absent) {
    if (all) return Status::Ok();
    return {Code::unsupported, at + "format " + codec.name + " has no component in plane " + std::to_string(s.plane)};
  }
  if (codec.element_bytes != s.element_bytes)
    return {Code::internal, at + "codec element size " + std::to_string(codec.element_bytes) +
                                " != layout element size " + std::to_string(s.element_bytes)};
  const FormatInfo& f = L.desc().format;
  uint32_t lw, lh, ld;
  logical_size(L, sub, &lw, &lh, &ld);
  Box b{0, 0, 0, lw, lh, ld};
  if (!c.whole) b = c.box;
  // Zero volume (an edge equal to its opposite): nothing to clear. Inverted boxes were refused already.
  if (b.right <= b.left || b.bottom <= b.top || b.back <= b.front) return Status::Ok();
  if (b.right > lw || b.bottom > lh || b.back > ld)
    return {Code::out_of_range, at + "box " + box_text(b) + " lies outside the subresource (" + std::to_string(lw) +
                                    "x" + std::to_string(lh) + "x" + std::to_string(ld) + " texels)"};
  uint32_t ha, va;
  clear_alignment(f, &ha, &va);
  if (b.left % ha || b.top % va || (b.right % ha && b.right != lw) || (b.bottom % va && b.bottom != lh))
    return {Code::invalid_argument, at + "box " + box_text(b) + " is not aligned to the " + std::to_string(ha) + "x" +
                                        std::to_string(va) + " region alignment of " + f.name +
                                        " (left/top multiples, right/bottom multiples or the subresource edge)"};
  // Texels per element of this plane: the block (BC, 4:2:2 pairs) or the plane's subsampling.
  uint32_t ux = f.block_width, uy = f.block_height;
  if (f.planes > 1) {
    PlaneInfo pi;
    SWZ_TRY(plane_info(f, s.plane, &pi));
    ux = pi.width_divisor;
    uy = pi.height_divisor;
  }
  ClearJob j;
  j.sub = sub;
  j.x0 = b.left / ux;
  j.y0 = b.top / uy;
  j.x1 = std::min<uint32_t>(static_cast<uint32_t>(ceil_div(b.right, ux)), s.width_el);
  j.y1 = std::min<uint32_t>(static_cast<uint32_t>(ceil_div(b.bottom, uy)), s.height_el);
  j.z0 = b.front;
  j.z1 = std::min(b.back, s.depth);
  if (j.x0 >= j.x1 || j.y0 >= j.y1 || j.z0 >= j.z1) return Status::Ok();
  uint64_t end;
  if (!detail::add_ok(s.offset, s.size, &end)) return {Code::overflow, at + "subresource end does not fit in 64 bits"};
  if (resource_size < end)
    return {Code::buffer_too_small, at + "resource buffer is " + std::to_string(resource_size) +
                                        " bytes; the subresource ends at byte " + std::to_string(end)};
  jobs->push_back(j);
  return Status::Ok();
}

// Writes one job. Single-sampled swizzled layouts: through write_to_subresource
// (the copy kernels) from a linear strip of rows that holds the element
// repeated, a strip of rows per call; the kernels move whole runs with vector
// stores. Row-linear layouts and multisampled ones (the copy calls refuse
// MSAA, as D3D12 does): every sample of every row, in the contiguous runs the
// plan reports.
void run_clear(const Layout& L, uint8_t* res, uint64_t res_size, const ClearJob& j, std::vector<uint8_t>& row) {
  const SubresourceLayout& s = L.sub(j.sub);
  const Plan& p = L.plan(j.sub);
  const uint64_t eb = s.element_bytes;
  const uint64_t x0 = uint64_t{j.x0} * eb, x1 = uint64_t{j.x1} * eb;
  const uint64_t row_B = x1 - x0;
  const uint32_t samples = L.desc().samples;
  if (samples == 1 && !p.row_linear) {  // row-linear plans (row-major): one memcpy per row below is faster
    const FormatInfo& f = L.desc().format;
    const uint32_t ux = f.planes > 1 ? 1 : f.block_width, uy = f.planes > 1 ? 1 : f.block_height;
    const uint32_t h = j.y1 - j.y0;
    const uint32_t strip =
        static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(h, (uint64_t{256} << 10) / row_B)));
    row.resize(row_B * strip);
    for (uint64_t k = 0; k < row.size(); ++k) row[k] = j.element[k % eb];
    for (uint32_t z = j.z0; z < j.z1; ++z)
      for (uint32_t y = j.y0; y < j.y1; y += strip) {
        const uint32_t ye = std::min(j.y1, y + strip);
        // Element box -> texel box (BC and 2x1 blocks: the last one may end at the subresource edge).
        const Box b{j.x0 * ux, y * uy, z, std::min(j.x1 * ux, s.width), std::min(ye * uy, s.height), z + 1};
        const Status st =
            write_to_subresource(L, res, res_size, j.sub, &b, row.data(), row.size(), row_B, row_B * strip);
        (void)st;  // checked by plan_clear: the box lies inside, the buffer is large enough
      }
    return;
  }
  detail::SubresourceAddresser a(s, p);
  row.resize(row_B);
  for (uint64_t k = 0; k < row.size(); ++k) row[k] = j.element[k % eb];
  const uint64_t run = uint64_t{1} << p.run_log2;
  for (uint32_t smp = 0; smp < samples; ++smp)
    for (uint32_t z = j.z0; z < j.z1; ++z)
      for (uint32_t y = j.y0; y < j.y1; ++y)
        for (uint64_t xb = x0; xb < x1;) {
          const uint64_t off = a.offset_B(xb, y, z, smp);
          uint64_t n = x1 - xb;
          if (!p.row_linear) n = std::min(n, run - ((xb + a.frame().pre[0]) & (run - 1)));
          std::memcpy(res + off, row.data() + (xb - x0), n);
          xb += n;
        }
}

}  // namespace

Status encode_clear_value(const FormatInfo& format, uint32_t plane, const ClearValue& value, void* out,
                          uint64_t out_size, ClearMember* member) {
  detail::Codec c;
  SWZ_TRY(detail::codec_for(format, plane, &c));
  if (out_size < c.element_bytes)
    return {Code::buffer_too_small, "output is " + std::to_string(out_size) + " bytes; an element of " + format.name +
                                        " is " + std::to_string(c.element_bytes)};
  if (!out) return {Code::invalid_argument, "out = null"};
  detail::encode_clear(c, value, static_cast<uint8_t*>(out));
  if (member) *member = c.member;
  return Status::Ok();
}

namespace {
thread_local uint64_t t_clear_encodes = 0;
}  // namespace

uint64_t detail::last_clear_encodes() { return t_clear_encodes; }

Status clear_subresources(const Layout& L, void* resource, uint64_t resource_size, const ClearDesc* descs,
                          size_t count) {
  t_clear_encodes = 0;
  if (count && !descs) return {Code::invalid_argument, "descs = null with count = " + std::to_string(count)};
  std::vector<ClearJob> jobs;
  for (size_t i = 0; i < count; ++i) {
    const ClearDesc& c = descs[i];
    const std::string at = "clear " + std::to_string(i) + ": ";
    FormatInfo f = L.desc().format;
    if (c.format_dxgi) {
      FormatInfo o;
      Status st = find_format(c.format_dxgi, &o);
      if (!st.ok()) return {st.code(), at + "format_dxgi: " + st.message()};
      if (o.element_bytes != f.element_bytes || o.block_width != f.block_width || o.block_height != f.block_height ||
          o.planes != f.planes)
        return {Code::invalid_argument, at + "format_dxgi = " + std::to_string(c.format_dxgi) + " (" + o.name +
                                            ") differs from the resource's " + f.name +
                                            " in element size, block shape or planes"};
      f = o;
    }
    // An inverted box (left > right, top > bottom or front > back) is a caller's mistake, not an empty
    // region: refused, naming the edges. A box of zero volume clears nothing.
    if (!c.whole) SWZ_TRY(check_not_inverted(c.box, at));
    const bool all = c.subresource == kAllSubresources;
    if (!all && c.subresource >= L.subresource_count())
      return {Code::out_of_range, at + "subresource = " + std::to_string(c.subresource) + " (the layout has " +
                                      std::to_string(L.subresource_count()) + " subresources)"};
    const uint32_t first = all ? 0 : c.subresource, last = all ? L.subresource_count() : c.subresource + 1;
    if (all && !c.whole) {
      uint32_t w0, h0, d0;
      logical_size(L, 0, &w0, &h0, &d0);
      for (uint32_t s = 1; s < L.subresource_count(); ++s) {
        uint32_t w, h, d;
        logical_size(L, s, &w, &h, &d);
        if (w != w0 || h != h0 || d != d0)
          return {
              Code::invalid_argument,
              at + "a box with subresource = 0xFFFFFFFF needs every subresource to have the same size; subresource " +
                  std::to_string(s) + " is " + std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(d) +
                  ", subresource 0 is " + std::to_string(w0) + "x" + std::to_string(h0) + "x" + std::to_string(d0)};
      }
    }
    // The encoded element depends on the format and the plane only: encoded once per plane of this
    // clear, not once per subresource (a BC7 encode searches modes and partitions; a clear of all
    // 384 subresources of a BC7 array would otherwise encode 384 times).
    struct PlaneElement {
      bool done = false;
      uint8_t element[16] = {};
    };
    PlaneElement by_plane[4];
    for (uint32_t s = first; s < last; ++s) {
      const uint32_t plane = L.sub(s).plane;
      detail::Codec codec;
      Status st = detail::codec_for(f, plane, &codec);
      if (!st.ok()) return {st.code(), at + st.message()};
      const size_t before = jobs.size();
      SWZ_TRY(plan_clear(L, resource_size, c, i, s, codec, all, &jobs));
      if (jobs.size() == before) continue;
      if (plane >= 4) {  // no format has more than 3 planes; kept correct without the cache
        detail::encode_clear(codec, c.value, jobs.back().element);
        ++t_clear_encodes;
        continue;
      }
      PlaneElement& pe = by_plane[plane];
      if (!pe.done) {
        detail::encode_clear(codec, c.value, pe.element);
        ++t_clear_encodes;
        pe.done = true;
      }
      std::memcpy(jobs.back().element, pe.element, sizeof pe.element);
    }
  }
  if (jobs.empty()) return Status::Ok();
  if (!resource) return {Code::invalid_argument, "resource = null"};
  std::vector<uint8_t> row;
  for (const ClearJob& j : jobs) run_clear(L, static_cast<uint8_t*>(resource), resource_size, j, row);
  return Status::Ok();
}

// ---- FillBuffers ---------------------------------------------------------------------------------

Status fill_buffers(void* buffer, uint64_t buffer_size, const FillDesc* descs, size_t count) {
  if (count && !descs) return {Code::invalid_argument, "descs = null with count = " + std::to_string(count)};
  struct Job {
    uint64_t offset, reps;
    uint32_t p;
    uint8_t pattern[16];
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < count; ++i) {
    const FillDesc& d = descs[i];
    const std::string at = "fill " + std::to_string(i) + ": ";
    Job j{};
    if (d.format_dxgi == 0) {
      const uint32_t r = d.raw_pattern_bytes;
      if (!(r == 1 || r == 2 || r == 4 || r == 8 || r == 12 || r == 16))
        return {Code::invalid_argument, at + "raw_pattern_bytes = " + std::to_string(r) +
                                            " (with format UNKNOWN it must be 1, 2, 4, 8, 12 or 16)"};
      j.p = r;
      std::memcpy(j.pattern, d.value.bytes, r);  // the least significant r bytes of D3D12_CLEAR_DATA
    } else {
      if (d.raw_pattern_bytes)
        return {Code::invalid_argument, at + "raw_pattern_bytes = " + std::to_string(d.raw_pattern_bytes) +
                                            " with format_dxgi = " + std::to_string(d.format_dxgi) +
                                            " (must be 0 when a format is given)"};
      if (d.format_dxgi == 66) return {Code::invalid_argument, at + "format R1_UNORM is not supported by FillBuffers"};
      FormatInfo f;
      Status st = find_format(d.format_dxgi, &f);
      if (!st.ok()) return {st.code(), at + "format_dxgi: " + st.message()};
      if (f.block_width > 1 || f.block_height > 1 || f.planes > 1)
        return {
            Code::invalid_argument,
            at + "format " + f.name + " has no single-texel value to repeat (block-compressed, 2x1-packed or planar)"};
      detail::Codec c;
      st = detail::codec_for(f, 0, &c);
      if (!st.ok()) return {st.code(), at + st.message()};
      detail::encode_clear(c, d.value, j.pattern);
      j.p = c.element_bytes;
    }
    const uint64_t align = j.p >= 4 ? 4 : j.p;
    if (d.offset_B % align)
      return {Code::invalid_argument, at + "offset_B = " + std::to_string(d.offset_B) + " is not a multiple of " +
                                          std::to_string(align) + " (pattern of " + std::to_string(j.p) + " bytes)"};
    if (d.offset_B > buffer_size)
      return {Code::out_of_range, at + "offset_B = " + std::to_string(d.offset_B) + " lies past the end of the " +
                                      std::to_string(buffer_size) + "-byte buffer"};
    j.offset = d.offset_B;
    j.reps =
        std::min<uint64_t>(d.repeat_count, (buffer_size - d.offset_B) / j.p);  // a partial last repetition is omitted
    if (j.reps) jobs.push_back(j);
  }
  if (jobs.empty()) return Status::Ok();
  if (!buffer) return {Code::invalid_argument, "buffer = null"};
  auto* out = static_cast<uint8_t*>(buffer);
  for (const Job& j : jobs) {
    uint8_t* dst = out + j.offset;
    // Double the written prefix: log2(reps) memcpy calls.
    const uint64_t total = j.reps * j.p;
    std::memcpy(dst, j.pattern, j.p);
    for (uint64_t done = j.p; done < total;) {
      const uint64_t n = std::min(done, total - done);
      std::memcpy(dst + done, dst, n);
      done += n;
    }
  }
  return Status::Ok();
}

}  // namespace swz
