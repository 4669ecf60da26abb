// The C API (include/swz/swz.h): forwards to the C++ API. Every entry point
// catches every exception (bad_alloc -> SWZ_OUT_OF_MEMORY, anything else ->
// SWZ_INTERNAL), and records the message of a failure per thread.
#include "swz/swz.h"

#include <memory>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "swz/address.hpp"
#include "swz/copy.hpp"
#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/layout_names.hpp"
#include "swz/status.hpp"
#include "swz/surface.hpp"
#include "capi_internal.hpp"

#ifndef SWZ_VERSION_STRING
#error "SWZ_VERSION_STRING must be defined by the build (the CMake project version)"
#endif

namespace {

thread_local std::string t_message;
thread_local const char* t_last = "";

void set_error(const char* msg) noexcept {
  try {
    t_message.assign(msg);
    t_last = t_message.c_str();
  } catch (...) {
    t_last = "out of memory while recording an error message";
  }
}

swz_status fail(swz_status code, const char* msg) noexcept {
  set_error(msg);
  return code;
}

swz_status from(const swz::Status& s) noexcept {
  if (s.ok()) {
    t_last = "";
    return SWZ_OK;
  }
  set_error(s.message().c_str());
  return static_cast<swz_status>(static_cast<int>(s.code()));
}

// Runs `f` (returning swz::Status) with every exception turned into a status.
template <class F>
swz_status guarded(F&& f) noexcept {
  try {
    return from(f());
  } catch (const std::bad_alloc&) {
    return fail(SWZ_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    std::string m = "internal error (please report): ";
    try {
      m += e.what();
    } catch (...) {
    }
    return fail(SWZ_INTERNAL, m.c_str());
  } catch (...) {
    return fail(SWZ_INTERNAL, "internal error (please report): unknown exception");
  }
}

using swz_capi::null_arg;
using swz_capi::to_box;

swz::Status to_desc(const swz_texture_desc& c, swz::TextureDesc* d) {
  if (c.dimension != SWZ_TEXTURE_2D && c.dimension != SWZ_TEXTURE_3D)
    return {swz::Code::invalid_argument,
            "desc.dimension = " + std::to_string(c.dimension) + " (expected SWZ_TEXTURE_2D or SWZ_TEXTURE_3D)"};
  d->dimension = c.dimension == SWZ_TEXTURE_3D ? swz::Dimension::Texture3D : swz::Dimension::Texture2D;
  SWZ_TRY(swz_capi::find_format(c.format, c.dxgi_format, &d->format));
  d->width = c.width;
  d->height = c.height;
  d->depth = c.depth ? c.depth : 1;
  d->array_size = c.array_size ? c.array_size : 1;
  d->samples = c.samples ? c.samples : 1;
  // SWZ_MIPS_FULL is TextureDesc's 0: the full chain, as D3D12_RESOURCE_DESC's MipLevels.
  d->mip_levels = c.mip_levels == SWZ_MIPS_FULL ? 0 : c.mip_levels;
  return swz::Status::Ok();
}

swz::Status to_options(const swz_copy_options* o, swz::CopyOptions* out) {
  swz::CopyOptions r;
  if (!o) {
    *out = r;
    return swz::Status::Ok();
  }
  static_assert(SWZ_BACKEND_AUTO == static_cast<int>(swz::Backend::Auto) &&
                    SWZ_BACKEND_SCALAR == static_cast<int>(swz::Backend::Scalar) &&
                    SWZ_BACKEND_HIGHWAY == static_cast<int>(swz::Backend::Highway) &&
                    SWZ_BACKEND_XSIMD == static_cast<int>(swz::Backend::Xsimd),
                "swz_backend mirrors swz::Backend");
  if (o->backend > SWZ_BACKEND_XSIMD)
    return {swz::Code::invalid_argument, "options.backend = " + std::to_string(o->backend) + " (no such backend)"};
  r.backend = static_cast<swz::Backend>(o->backend);
  r.threads = o->threads;
  r.write_combined = o->write_combined != 0;
  *out = r;
  return swz::Status::Ok();
}

// What the subresource copies share: the options and the box (pitches of 0
// are the box's tight pitches, as in the C++ calls). Filled in place
// (box_ptr points into it).
struct SubresourceCopy {
  swz::CopyOptions options;
  swz::Box box;
  const swz::Box* box_ptr = nullptr;
};

swz::Status prepare_copy(const swz_layout* layout, const swz_box* box, const swz_copy_options* options,
                         SubresourceCopy* out) {
  if (!layout) return null_arg("layout");
  SWZ_TRY(to_options(options, &out->options));
  if (box) {
    out->box = to_box(*box);
    out->box_ptr = &out->box;
  }
  return swz::Status::Ok();
}

// The entry points that answer a question about a layout into *out: both
// pointers checked (out named out_name), then `body` fills *out.
template <class T, class F>
swz_status answer_into(const swz_layout* layout, T* out, const char* out_name, F&& body) noexcept {
  return guarded([&]() -> swz::Status {
    if (!layout) return null_arg("layout");
    if (!out) return null_arg(out_name);
    return body();
  });
}

// The whole-surface copies: the layout checked, the options converted, then
// `body(options)` copies.
template <class F>
swz_status surface_copy(const swz_layout* layout, const swz_copy_options* options, F&& body) noexcept {
  return guarded([&]() -> swz::Status {
    if (!layout) return null_arg("layout");
    swz::CopyOptions o;
    SWZ_TRY(to_options(options, &o));
    return body(o);
  });
}

}  // namespace

// For the other files of the C API (capi_internal.hpp).
namespace swz_capi {
swz_status run(const std::function<swz::Status()>& body) noexcept {
  return guarded([&] { return body(); });
}
swz::Status copy_options(const swz_copy_options* o, swz::CopyOptions* out) { return to_options(o, out); }
}  // namespace swz_capi

extern "C" {

// swz_status mirrors swz::Code (from() casts one to the other), plus
// SWZ_OUT_OF_MEMORY, which only the C API reports.
static_assert(SWZ_OK == static_cast<int>(swz::Code::ok) &&
                  SWZ_INVALID_ARGUMENT == static_cast<int>(swz::Code::invalid_argument) &&
                  SWZ_OUT_OF_RANGE == static_cast<int>(swz::Code::out_of_range) &&
                  SWZ_BUFFER_TOO_SMALL == static_cast<int>(swz::Code::buffer_too_small) &&
                  SWZ_UNSUPPORTED == static_cast<int>(swz::Code::unsupported) &&
                  SWZ_PARSE_ERROR == static_cast<int>(swz::Code::parse_error) &&
                  SWZ_IO_ERROR == static_cast<int>(swz::Code::io_error) &&
                  SWZ_OVERFLOW == static_cast<int>(swz::Code::overflow) &&
                  SWZ_NO_DEVICE == static_cast<int>(swz::Code::no_device) &&
                  SWZ_INTERNAL == static_cast<int>(swz::Code::internal),
              "swz_status mirrors swz::Code");

const char* swz_status_name(int status) {
  if (status == SWZ_OUT_OF_MEMORY) return "out_of_memory";
  if (status < SWZ_OK || status > SWZ_INTERNAL) return "unknown";
  return swz::code_name(static_cast<swz::Code>(status));
}

const char* swz_last_error(void) { return t_last; }

const char* swz_version(void) { return SWZ_VERSION_STRING; }

swz_status swz_layout_create(const char* name, const swz_texture_desc* desc, const swz_layout_options* options,
                             swz_layout** out) {
  return guarded([&]() -> swz::Status {
    if (!out) return null_arg("out");
    if (!name) return null_arg("name");
    swz::LayoutName ln;
    SWZ_TRY(swz::LayoutName::parse(name, &ln));
    swz::TextureDesc d{};
    if (!ln.fixed_texture()) {
      if (!desc)
        return {swz::Code::invalid_argument, "desc = NULL (only a resource-layout file fixes the texture itself)"};
      SWZ_TRY(to_desc(*desc, &d));
    }
    swz::LayoutOptions lo;
    if (options) {
      lo.row_pitch_B = options->row_pitch_B;
      lo.depth_pitch_B = options->depth_pitch_B;
      lo.stack_rows = options->stack_rows;
      if (options->d3d12_mip_tail) {
        lo.mip_tail = swz::MipTail::D3D12;
        lo.packed.num_standard_mips = options->num_standard_mips;
        lo.packed.num_packed_mips = options->num_packed_mips;
        lo.packed.num_tiles_for_packed_mips = options->num_tiles_for_packed_mips;
      }
    }
    auto h = std::make_unique<swz_layout>();
    SWZ_TRY(ln.make(d, lo, &h->layout));
    SWZ_TRY(swz::surface_linear_offsets(h->layout, &h->surface_offsets_B));
    SWZ_TRY(swz::surface_linear_bytes(h->layout, &h->surface_linear_size_B));
    *out = h.release();
    return swz::Status::Ok();
  });
}

void swz_layout_destroy(swz_layout* layout) { delete layout; }

swz_status swz_layout_get_info(const swz_layout* layout, swz_layout_info* out) {
  return answer_into(layout, out, "out", [&]() -> swz::Status {
    const swz::Layout& L = layout->layout;
    const swz::TextureDesc& d = L.desc();
    const uint64_t size_B = L.size(), alignment_B = L.alignment(), allocation_B = L.allocation_size();
    const uint32_t count = L.subresource_count();
    const uint32_t dim = d.dimension == swz::Dimension::Texture3D ? SWZ_TEXTURE_3D : SWZ_TEXTURE_2D;
    // (swz.h's order; test_capi.c checks every member)
    *out = swz_layout_info{size_B,        alignment_B,  allocation_B, layout->surface_linear_size_B,
                           count,         d.width,      d.height,     d.depth,
                           d.array_size,  d.mip_levels, d.samples,    d.format.dxgi,
                           d.format.name, dim};
    return swz::Status::Ok();
  });
}

swz_status swz_layout_get_subresource(const swz_layout* layout, uint32_t subresource, swz_subresource_info* out) {
  return answer_into(layout, out, "out", [&]() -> swz::Status {
    swz::SubresourceLayout s;
    SWZ_TRY(layout->layout.subresource(subresource, &s));
    const uint64_t linear_B = swz::packed_subresource_bytes(s), surface_B = layout->surface_offsets_B[subresource];
    // (swz.h's order; test_capi.c checks every member)
    *out = swz_subresource_info{s.offset,  s.size,     s.row_pitch,   s.depth_pitch_B, s.stack_rows, linear_B,
                                surface_B, s.mip,      s.array_slice, s.plane,         s.width,      s.height,
                                s.depth,   s.width_el, s.height_el,   s.element_bytes, s.packed,     s.stack_depth};
    return swz::Status::Ok();
  });
}

swz_status swz_box_linear_size(const swz_layout* layout, uint32_t subresource, const swz_box* box, uint64_t row_pitch_B,
                               uint64_t depth_pitch_B, uint64_t* out_B) {
  static_assert(sizeof(swz_box) == sizeof(swz::Box), "swz_box mirrors swz::Box");
  return answer_into(layout, out_B, "out_B", [&]() -> swz::Status {
    const swz::Box b = box ? to_box(*box) : swz::Box{};
    uint64_t n = 0;
    SWZ_TRY(swz::box_linear_bytes(layout->layout, subresource, box ? &b : nullptr, row_pitch_B, depth_pitch_B, &n));
    *out_B = n;
    return swz::Status::Ok();
  });
}

swz_status swz_write_subresource(const swz_layout* layout, void* resource, uint64_t resource_size_B,
                                 uint32_t subresource, const swz_box* box, const void* src, uint64_t src_size_B,
                                 uint64_t src_row_pitch_B, uint64_t src_depth_pitch_B,
                                 const swz_copy_options* options) {
  return guarded([&]() -> swz::Status {
    SubresourceCopy c;
    SWZ_TRY(prepare_copy(layout, box, options, &c));
    return swz::write_to_subresource(layout->layout, resource, resource_size_B, subresource, c.box_ptr, src, src_size_B,
                                     src_row_pitch_B, src_depth_pitch_B, c.options);
  });
}

swz_status swz_read_subresource(const swz_layout* layout, void* dst, uint64_t dst_size_B, uint64_t dst_row_pitch_B,
                                uint64_t dst_depth_pitch_B, const void* resource, uint64_t resource_size_B,
                                uint32_t subresource, const swz_box* box, const swz_copy_options* options) {
  return guarded([&]() -> swz::Status {
    SubresourceCopy c;
    SWZ_TRY(prepare_copy(layout, box, options, &c));
    return swz::read_from_subresource(dst, dst_size_B, dst_row_pitch_B, dst_depth_pitch_B, layout->layout, resource,
                                      resource_size_B, subresource, c.box_ptr, c.options);
  });
}

swz_status swz_swizzle_surface(const swz_layout* layout, void* resource, uint64_t resource_size_B, const void* linear,
                               uint64_t linear_size_B, const uint64_t* linear_offsets_B,
                               const swz_copy_options* options) {
  return surface_copy(layout, options, [&](const swz::CopyOptions& o) {
    return swz::swizzle_surface(layout->layout, resource, resource_size_B, linear, linear_size_B, linear_offsets_B, o);
  });
}

swz_status swz_deswizzle_surface(const swz_layout* layout, void* linear, uint64_t linear_size_B, const void* resource,
                                 uint64_t resource_size_B, const uint64_t* linear_offsets_B,
                                 const swz_copy_options* options) {
  return surface_copy(layout, options, [&](const swz::CopyOptions& o) {
    return swz::deswizzle_surface(layout->layout, linear, linear_size_B, resource, resource_size_B, linear_offsets_B,
                                  o);
  });
}

swz_status swz_element_offset(const swz_layout* layout, uint32_t subresource, uint32_t x, uint32_t y, uint32_t z,
                              uint32_t sample, uint64_t* out_B) {
  return answer_into(layout, out_B, "out_B", [&]() -> swz::Status {
    uint64_t off = 0;
    SWZ_TRY(swz::element_offset(layout->layout, subresource, x, y, z, sample, &off));
    *out_B = off;
    return swz::Status::Ok();
  });
}

swz_status swz_locate(const swz_layout* layout, uint64_t offset_B, swz_location* out) {
  return answer_into(layout, out, "out", [&]() -> swz::Status {
    swz::Location l;
    SWZ_TRY(swz::locate(layout->layout, offset_B, &l));
    // (swz.h's order; test_capi.c checks every member)
    *out = swz_location{l.subresource, l.x, l.y, l.z, l.sample, l.byte, l.padding, l.packed};
    return swz::Status::Ok();
  });
}

}  // extern "C"
