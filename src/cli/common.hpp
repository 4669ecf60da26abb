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

/// Makes sure descriptors 0, 1 and 2 are open, so that no file swz opens gets
/// one of them (its own messages would then land inside an output): each one
/// closed at start gets /dev/null, opened for the other direction so that
/// using it still fails (EBADF) as the closed one did. Exits 125 when
/// /dev/null cannot be opened. Call first thing in main, before any thread.
void guard_standard_descriptors();

/// True when descriptor `fd` (0-2) was closed when swz started.
bool closed_at_start(int fd);

/// Throws Error("<context>: <status message>") when `s` is not ok.
void check(const Status& s, std::string_view context);

/// "1234567 bytes (1.2 MiB)".
std::string bytes_text(uint64_t n);

/// Lower-case extension with the dot (".png"), or "" when there is none.
std::string extension_of(std::string_view path);

/// Parses an unsigned decimal or 0x-hex integer; throws Error naming `what`.
uint64_t parse_u64(std::string_view text, std::string_view what);

/// `s` as one POSIX shell word: as is when it holds only safe characters
/// (letters, digits and -_.,:=/+@%), else single-quoted.
std::string shell_word(const std::string& s);

}  // namespace swz::cli
