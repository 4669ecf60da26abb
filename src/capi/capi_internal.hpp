// The C API's shared internals (src/capi/*.cpp): the opaque layout handle and
// the exception and status guard every entry point runs its body in.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "swz/copy.hpp"
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
/// swz_copy_options -> CopyOptions; *status names a bad field.
swz::CopyOptions copy_options(const swz_copy_options* o, swz::Status* status);
/// invalid_argument "<name> = NULL".
swz::Status null_arg(const char* name);

}  // namespace swz_capi
