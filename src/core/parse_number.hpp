// swz internal — an unsigned number in decimal or 0x hex, as pattern text
// (imm=0x300), layout names (row-major:pitch=N) and hardware family
// parameters write it.
#pragma once
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace swz::detail {

/// The whole of `text` as an unsigned number: decimal, or hex after a 0x / 0X
/// prefix. False for anything else (empty, other characters, above 2^64 - 1).
inline bool parse_unsigned(std::string_view text, uint64_t* out) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  uint64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) return false;
  *out = v;
  return true;
}

/// The environment variable `name` read by parse_unsigned, or `fallback`
/// when it is unset or not such a number ("-1", " 8", "+8", "010" is ten,
/// "16M", a value above 2^64 - 1). The one reader of numbers from the
/// environment.
inline uint64_t env_unsigned(const char* name, uint64_t fallback) {
  const char* e = std::getenv(name);
  uint64_t v = 0;
  return e && parse_unsigned(e, &v) ? v : fallback;
}

}  // namespace swz::detail
