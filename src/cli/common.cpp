#include "common.hpp"
#include "number_option.hpp"
#include "swz/quote.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>

namespace swz::cli {

void fail(const std::string& message) { throw Error(message); }

namespace {
bool g_closed_at_start[3] = {false, false, false};
}

void guard_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() takes the lowest free descriptor: this one. Opened for the other
    // direction, so that reading it (0) or writing it (1, 2) still fails with
    // EBADF, as on the closed descriptor.
    const int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    if (got != fd) _exit(125);  // no /dev/null: any file swz opened could become descriptor `fd`
    g_closed_at_start[fd] = true;
  }
}

bool closed_at_start(int fd) { return fd >= 0 && fd <= 2 && g_closed_at_start[fd]; }

void check(const Status& s, std::string_view context) {
  if (s.ok()) return;
  std::string msg(context);
  if (!msg.empty()) msg += ": ";
  msg += s.message().empty() ? std::string(code_name(s.code())) : s.message();
  throw Error(msg);
}

std::string bytes_text(uint64_t n) {
  std::string out = std::to_string(n) + (n == 1 ? " byte" : " bytes");
  if (n >= 1024) {
    static const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = static_cast<double>(n);
    int u = -1;
    while (v >= 1024.0 && u < 5) {
      v /= 1024.0;
      ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.1f %s)", v, units[u]);
    out += buf;
  }
  return out;
}

std::string extension_of(std::string_view path) {
  std::string ext = std::filesystem::path(std::string(path)).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

uint64_t parse_u64(std::string_view text, std::string_view what) {
  uint64_t v = 0;
  switch (read_unsigned(text, &v)) {
    case NumberText::ok:
      break;
    case NumberText::empty:
      fail(std::string(what) + " " + quoted_for_message(text) + " is empty");
    case NumberText::out_of_range:
      fail(std::string(what) + " " + quoted_for_message(text) + " is out of range (0 .. 18446744073709551615)");
    case NumberText::malformed:
      if (what == "--offset" && text == "auto")
        fail("--offset auto: only identify and view search for the texture's start; run swz identify --offset auto "
             "and pass the offset= it prints to --offset");
      fail(std::string(what) + " " + quoted_for_message(text) + " is not a decimal or 0x-hex number");
  }
  return v;
}

std::string shell_word(const std::string& s) {
  bool safe = !s.empty();
  for (char c : s)
    safe &=
        std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_.,:=/+@%").find(c) != std::string_view::npos;
  if (safe) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace swz::cli
