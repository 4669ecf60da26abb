// The C API's shared internals (src/capi/*.cpp): the opaque layout handle, the
// guard every entry point runs its body in, and the conversions of C
// arguments that more than one file needs.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "swz/copy.hpp"
#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/status.hpp"
#include "swz/swz.h"

struct swz_layout {
  swz::Layout layout;
  std::vector<uint64_t> surface_offsets_B;  // per subresource, tightly packed
  uint64_t surface_linear_size_B = 0;
};

namespace swz_capi {

/// Runs `body` with every exception turned into a status and the message of
/// a failure recorded for swz_last_error (swz_c.cpp).
swz_status run(const std::function<swz::Status()>& body) noexcept;
/// swz_copy_options -> CopyOptions (defaults for NULL); names a bad field.
swz::Status copy_options(const swz_copy_options* o, swz::CopyOptions* out);

/// invalid_argument "<name> = NULL".
inline swz::Status null_arg(const char* name) { return {swz::Code::invalid_argument, std::string(name) + " = NULL"}; }
/// The same box in the C++ type (swz_box mirrors swz::Box).
inline swz::Box to_box(const swz_box& b) { return {b.left, b.top, b.front, b.right, b.bottom, b.back}; }
/// A format given by DXGI name (when not NULL) or by DXGI_FORMAT value.
inline swz::Status find_format(const char* name, uint32_t dxgi, swz::FormatInfo* out) {
  return name ? swz::find_format(std::string_view(name), out) : swz::find_format(dxgi, out);
}

}  // namespace swz_capi
