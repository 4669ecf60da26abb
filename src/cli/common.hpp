// swz CLI — shared helpers. The CLI uses exceptions internally (cli::Error);
// only the library API is exception-free.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "swz/status.hpp"

namespace swz::cli {

/// A user-facing error: main() prints "swz: error: <what()>" and exits 1.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& message);

/// Throws Error("<context>: <status message>") when `s` is not ok.
void check(const Status& s, std::string_view context);

/// "1234567 bytes (1.2 MiB)".
std::string bytes_text(uint64_t n);

/// Lower-case extension with the dot (".png"), or "" when there is none.
std::string extension_of(std::string_view path);

/// Parses an unsigned decimal or 0x-hex integer; throws Error naming `what`.
uint64_t parse_u64(std::string_view text, std::string_view what);

}  // namespace swz::cli
