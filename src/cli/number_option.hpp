// swz CLI — unsigned integer options checked on the text the user typed.
//
// CLI11 converts an out-of-range or negative value into an unsigned option
// without a useful message ("Could not convert", or -1 read as 2^64-1).
// These options check the text first and report it as typed together with
// the allowed range: "--array: '99999999999' is out of range (0 .. 4294967295)".
#pragma once
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace swz::cli {

/// How `text` reads as an unsigned 64-bit number: decimal, or hex after 0x / 0X.
enum class NumberText { ok, empty, malformed, out_of_range };

/// The one reading of unsigned numbers typed on the command line (options,
/// coordinates, offsets); each caller words its own message.
inline NumberText read_unsigned(std::string_view t, uint64_t* out) {
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    t.remove_prefix(2);
    base = 16;
  }
  if (t.empty()) return NumberText::empty;
  uint64_t v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (p != t.data() + t.size()) return NumberText::malformed;
  if (ec == std::errc::result_out_of_range) return NumberText::out_of_range;
  if (ec != std::errc()) return NumberText::malformed;
  *out = v;
  return NumberText::ok;
}

/// An error message for `text` as an unsigned value in 0..`max` (decimal or
/// 0x hex), or "" when it is one.
inline std::string unsigned_text_error(const std::string& text, uint64_t max) {
  const std::string range = "(0 .. " + std::to_string(max) + ")";
  uint64_t v = 0;
  switch (read_unsigned(text, &v)) {
    case NumberText::out_of_range:
      return "'" + text + "' is out of range " + range;
    case NumberText::empty:
    case NumberText::malformed:
      return "'" + text + "' is not a whole number " + range + ", decimal or 0x hex";
    case NumberText::ok:
      break;
  }
  if (v > max) return "'" + text + "' is out of range " + range;
  return {};
}

/// A CLI11 check of the text against 0..`max` (no text of its own in --help).
inline CLI::Validator unsigned_range(uint64_t max) {
  return CLI::Validator([max](std::string& v) { return unsigned_text_error(v, max); }, std::string());
}

/// add_option for an unsigned integer, checked against its type's range.
template <class T>
CLI::Option* add_unsigned_option(CLI::App* app, const std::string& name, T& value, const std::string& description) {
  static_assert(std::is_unsigned_v<T>);
  return app->add_option(name, value, description)->check(unsigned_range(std::numeric_limits<T>::max()));
}

}  // namespace swz::cli
