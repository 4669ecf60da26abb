#include "swz/status.hpp"

namespace swz {
const char* code_name(Code c) {
  switch (c) {
    case Code::ok:
      return "ok";
    case Code::invalid_argument:
      return "invalid_argument";
    case Code::out_of_range:
      return "out_of_range";
    case Code::buffer_too_small:
      return "buffer_too_small";
    case Code::unsupported:
      return "unsupported";
    case Code::parse_error:
      return "parse_error";
    case Code::io_error:
      return "io_error";
    case Code::overflow:
      return "overflow";
    case Code::no_device:
      return "no_device";
    case Code::internal:
      return "internal";
  }
  return "unknown";
}
}  // namespace swz
