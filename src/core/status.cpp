#include "swz/status.hpp"
#include "swz/quote.hpp"

#include "core/enum_names.hpp"
#include "core/json_strict.hpp"

namespace swz {
namespace {
constexpr detail::EnumName<Code> kCodeNames[] = {{Code::ok, "ok"},
                                                 {Code::invalid_argument, "invalid_argument"},
                                                 {Code::out_of_range, "out_of_range"},
                                                 {Code::buffer_too_small, "buffer_too_small"},
                                                 {Code::unsupported, "unsupported"},
                                                 {Code::parse_error, "parse_error"},
                                                 {Code::io_error, "io_error"},
                                                 {Code::overflow, "overflow"},
                                                 {Code::no_device, "no_device"},
                                                 {Code::internal, "internal"}};
}  // namespace

const char* code_name(Code c) { return detail::name_of(kCodeNames, c, "unknown"); }

std::string quoted_for_message(std::string_view text, size_t max_bytes, char quote) {
  return detail::quoted_for_message(text, max_bytes, quote);
}
}  // namespace swz
