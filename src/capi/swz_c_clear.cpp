// The C API of clears, fills and resolves (include/swz/swz.h): forwards to
// include/swz/clear.hpp through the guard of capi_internal.hpp.
#include <string>
#include <vector>

#include "capi_internal.hpp"
#include "swz/clear.hpp"
#include "swz/swz.h"

namespace {

using swz_capi::null_arg;

swz::ClearValue to_value(const swz_clear_data& d) {
  swz::ClearValue v;
  static_assert(sizeof d.bytes == sizeof v.bytes, "D3D12_CLEAR_DATA is 16 bytes");
  for (int i = 0; i < 16; ++i) v.bytes[i] = d.bytes[i];
  return v;
}

swz::ClearDesc to_clear_desc(const swz_clear_desc& c) {
  swz::ClearDesc d;
  d.subresource = c.subresource;
  d.value = to_value(c.value);
  d.format_dxgi = c.format_dxgi;
  d.whole = c.box == nullptr;
  if (c.box) d.box = swz_capi::to_box(*c.box);
  return d;
}

// (FillDesc's members in order)
swz::FillDesc to_fill_desc(const swz_fill_desc& c) {
  return {c.offset_B, to_value(c.value), c.format_dxgi, c.raw_pattern_bytes, c.repeat_count};
}

}  // namespace

extern "C" {

swz_status swz_clear_subresources(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                                  const swz_clear_desc* descs, uint32_t count) {
  return swz_capi::run([&]() -> swz::Status {
    if (!layout) return null_arg("layout");
    if (count && !descs) return null_arg("descs");
    std::vector<swz::ClearDesc> v(count);
    for (uint32_t i = 0; i < count; ++i) v[i] = to_clear_desc(descs[i]);
    return swz::clear_subresources(layout->layout, resource, resource_size_B, v.data(), v.size());
  });
}

swz_status swz_encode_clear_value(const char* format, uint32_t dxgi_format, uint32_t plane, const swz_clear_data* value,
                                  void* out, uint64_t out_size_B) {
  return swz_capi::run([&]() -> swz::Status {
    if (!value) return null_arg("value");
    swz::FormatInfo f;
    SWZ_TRY(swz_capi::find_format(format, dxgi_format, &f));
    return swz::encode_clear_value(f, plane, to_value(*value), out, out_size_B);
  });
}

swz_status swz_fill_buffers(void* buffer, uint64_t buffer_size_B, const swz_fill_desc* descs, uint32_t count) {
  return swz_capi::run([&]() -> swz::Status {
    if (count && !descs) return null_arg("descs");
    std::vector<swz::FillDesc> v(count);
    for (uint32_t i = 0; i < count; ++i) v[i] = to_fill_desc(descs[i]);
    return swz::fill_buffers(buffer, buffer_size_B, v.data(), v.size());
  });
}

swz_status swz_resolve_subresource(const swz_layout* dst_layout, void* dst, uint64_t dst_size_B,
                                   uint32_t dst_subresource, uint32_t dst_x, uint32_t dst_y,
                                   const swz_layout* src_layout, const void* src, uint64_t src_size_B,
                                   uint32_t src_subresource, const swz_rect* src_rect, uint32_t format_dxgi,
                                   uint32_t mode) {
  return swz_capi::run([&]() -> swz::Status {
    if (!dst_layout) return null_arg("dst_layout");
    if (!src_layout) return null_arg("src_layout");
    swz::ResolveDesc r;
    switch (mode) {
      case SWZ_RESOLVE_AVERAGE:
        r.mode = swz::ResolveMode::Average;
        break;
      case SWZ_RESOLVE_MIN:
        r.mode = swz::ResolveMode::Min;
        break;
      case SWZ_RESOLVE_MAX:
        r.mode = swz::ResolveMode::Max;
        break;
      default:
        return {swz::Code::unsupported,
                "mode = " + std::to_string(mode) +
                    " (SWZ_RESOLVE_MIN 1, SWZ_RESOLVE_MAX 2 or SWZ_RESOLVE_AVERAGE 3; DECOMPRESS 0 is not supported)"};
    }
    r.dst_subresource = dst_subresource;
    r.dst_x = dst_x;
    r.dst_y = dst_y;
    r.src_subresource = src_subresource;
    r.whole = src_rect == nullptr;
    if (src_rect) r.rect = swz::Rect{src_rect->left, src_rect->top, src_rect->right, src_rect->bottom};
    r.format_dxgi = format_dxgi;
    return swz::resolve_subresource(dst_layout->layout, dst, dst_size_B, src_layout->layout, src, src_size_B, r);
  });
}

}  // extern "C"
