// swz — status type returned by every fallible call. No exceptions cross the API.
#pragma once
#include <string>
#include <utility>

namespace swz {

/// Error categories. `ok` is the only success value.
enum class Code {
  ok = 0,
  invalid_argument,  ///< a field has a value the rules forbid (message names field and value)
  out_of_range,      ///< a coordinate, box, index or offset lies outside the resource
  buffer_too_small,  ///< a caller buffer is shorter than the copy needs
  unsupported,       ///< valid input the operation refuses (e.g. D3D12 refuses MSAA here)
  parse_error,       ///< malformed text / JSON / binary input
  io_error,          ///< file could not be read or written
  overflow,          ///< a size or offset does not fit in 64 bits
  no_device,         ///< no Vulkan device (GPU path only)
  internal,          ///< a bug in swz; please report
};

/// Result of a call: a code and, on failure, a message that names the field,
/// index and value at fault.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code c, std::string msg) : code_(c), message_(std::move(msg)) {}
  static Status Ok() { return {}; }
  bool ok() const { return code_ == Code::ok; }
  explicit operator bool() const { return ok(); }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Code code_ = Code::ok;
  std::string message_;
};

/// Short name of a code ("invalid_argument", ...).
const char* code_name(Code c);

}  // namespace swz

/// Propagate a failing status.
#define SWZ_TRY(expr)                                  \
  do {                                                 \
    ::swz::Status swz_try_status_ = (expr);            \
    if (!swz_try_status_.ok()) return swz_try_status_; \
  } while (0)
