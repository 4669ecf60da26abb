// libFuzzer harness: swz view's request parameters (src/cli/view_request.cpp).
// The input is a query string, NAME=VALUE pairs separated by '&' (no percent
// decoding: the server hands the parser decoded values, any bytes). Defaults
// are a command line's (std64k, R8G8B8A8_UNORM, 600x400). Properties: the
// parser never throws (try_parse_view_request is noexcept) and fails with a
// non-empty message or succeeds; a parsed request's layout is the default,
// pattern text or a name whose family part (before ':') has no '/' or '.',
// so LayoutName::parse never reads a file for it; its numbers are in their bounds;
// the equivalent command line is built without crashing and starts with
// "swz deswizzle".
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_common.hpp"
#include "view_request.hpp"

using swz_fuzz::fail;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  swz::cli::QueryParams params;
  size_t start = 0;
  while (start <= text.size()) {
    size_t amp = text.find('&', start);
    if (amp == std::string::npos) amp = text.size();
    const std::string pair = text.substr(start, amp - start);
    const size_t eq = pair.find('=');
    params.emplace_back(pair.substr(0, eq), eq == std::string::npos ? std::string() : pair.substr(eq + 1));
    start = amp + 1;
  }
  swz::cli::ViewRequest defaults;
  defaults.texture.layout = "std64k";
  defaults.texture.format = "R8G8B8A8_UNORM";
  defaults.texture.size = "600x400";
  swz::cli::ViewRequest r;
  const std::string error = swz::cli::try_parse_view_request(params, defaults, &r);
  if (!error.empty()) return 0;
  const std::string& layout = r.texture.layout;
  const std::string head = layout.substr(0, layout.find(':'));
  if (layout != "std64k" && layout.rfind("pattern:", 0) != 0 && head.find_first_of("/.") != std::string::npos)
    fail("a request named a path as its layout:", layout);
  if (r.count_B < 1 || r.count_B > swz::cli::kMaxCount_B || r.top < 1 || r.top > swz::cli::kMaxTop)
    fail("count or top out of bounds:", std::to_string(r.count_B) + " " + std::to_string(r.top));
  const std::string cmd = swz::cli::deswizzle_command(r, "dump.bin", r.mip);
  if (cmd.rfind("swz deswizzle ", 0) != 0) fail("the command line:", cmd);
  return 0;
}
