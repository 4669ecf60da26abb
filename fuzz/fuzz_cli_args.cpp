// libFuzzer harness: the swz command's option parsing (CLI11 with the
// options of src/cli/texture.cpp's add_common_options) and texture/layout
// construction (make_texture, copy_options) on fuzzed argument vectors.
// The input is the arguments after "swz", separated by NUL bytes; the first
// picks the subcommand (offset, locate, info, as in src/cli/main.cpp).
// No file I/O: an input with an argument that holds '/' or names an
// existing file is skipped, so a --layout value is never read as a file. Properties: parse errors and bad values end in
// CLI::ParseError or swz::cli::Error with a non-empty message, never a crash or sanitizer report; a texture that was
// built answers element_offset / locate without crashing, and locate(element_offset(0, 0, 0)) names subresource 0.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common.hpp"
#include "core/layout_work.hpp"  // internal: the shared-bytes check's bound
#include "swz/address.hpp"
#include "texture.hpp"

namespace {
// The shared-bytes bound of the other harnesses (fuzz_common.hpp, whose helpers this harness does
// not use): groups needing more than 2^14 byte runs are refused, the same code and refusal as the
// library's 2^26, so that no input nears 1 s under the sanitizers. Without it, an AMD GFX9 mip
// chain (2526x6651, 11 mips, each mip at its own offset: one group, checked run by run) takes
// seconds.
const bool kSharedByteRunLimitSet = (swz::detail::set_shared_byte_run_limit(uint64_t{1} << 14), true);
}  // namespace

namespace {
[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "swz fuzz property failed: %s %s\n", what, detail.c_str());
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swz::cli;
  std::vector<std::string> args{"swz"};
  std::string cur;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(static_cast<char>(data[i]));
    }
  }
  args.push_back(cur);
  if (args.size() > 40) return 0;
  // An argument that names a file (a --layout value would be read as JSON)
  // is dropped: stat only, nothing is opened.
  for (size_t i = 1; i < args.size(); ++i)
    if (args[i].find('/') != std::string::npos || access(args[i].c_str(), F_OK) == 0) return 0;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());

  // The parser is built once and reused: building CLI11's ~60 options per input would be a
  // large part of the harness's time. CLI11 clears the previous results when it parses again; the
  // bound values are reset here to the defaults they had after construction.
  struct Parser {
    CLI::App app{"swz"};
    CommonOptions o, fresh;
    uint32_t sub = 0;
    std::vector<uint32_t> coords;
    std::string offset_text;
    CLI::App *of = nullptr, *lo = nullptr, *in = nullptr;
    Parser() {
      // The options offset, locate and info get in src/cli/main.cpp (no copy options; --offset).
      const CommonOptionUse use{"", false, ""};
      app.require_subcommand(1);
      of = app.add_subcommand("offset", "");
      add_common_options(of, &o, use);  // one CommonOptions for every subcommand, as in src/cli/main.cpp
      of->add_option("--subresource", sub, "");
      of->add_option("coords", coords, "")->expected(2, 4)->required();
      lo = app.add_subcommand("locate", "");
      add_common_options(lo, &o, use);
      lo->add_option("OFFSET", offset_text, "")->required();
      in = app.add_subcommand("info", "");
      add_common_options(in, &o, use);
      fresh = o;
    }
  };
  static Parser& P = *new Parser;  // never destroyed (CLI11 options point into it)
  P.o = P.fresh;
  P.sub = 0;
  P.coords.clear();
  P.offset_text.clear();
  CommonOptions& o = P.o;
  try {
    P.app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return 0;
  }
  // Array sizes between 65 and 2^20 (the largest make_layout accepts) are capped at 64, as the
  // copy harnesses do (fuzz_common.hpp, Limits): the locate check builds a Locator over every
  // subresource, and 10^5 of them (--array 9403 --mips full) take seconds under the
  // sanitizers. Larger counts, refused at once, are kept; the
  // per-slice cost of make_layout has its own unit test
  // (Reliability.ArraySlicesShareOneGeometryComputation).
  if (o.array > 64 && o.array <= (1u << 20)) o.array = 64;
  auto* of = P.of;
  auto* lo = P.lo;
  const std::vector<uint32_t>& coords = P.coords;
  const std::string& offset_text = P.offset_text;
  try {
    Texture t = make_texture(o, parse_size(o.size));
    (void)copy_options(o);
    const swz::Layout& L = t.layout;
    if (L.subresource_count() == 0) fail("a texture with no subresources", t.describe());
    if (!t.describe().empty() && t.layout_arg.empty()) fail("no layout argument", t.describe());
    uint64_t off = 0;
    if (!L.sub(0).packed && swz::element_offset(L, 0, 0, 0, 0, 0, &off).ok()) {
      swz::Location loc;
      swz::Status st = swz::locate(L, off, &loc);
      if (!st.ok() || loc.subresource != 0) fail("locate(element_offset(sub 0, 0, 0, 0))", st.message());
    }
    if (*of && coords.size() >= 2) {
      swz::Status st = swz::element_offset(L, P.sub, coords[0], coords[1], coords.size() > 2 ? coords[2] : 0,
                                           coords.size() > 3 ? coords[3] : 0, &off);
      if (!st.ok() && st.message().empty()) fail("element_offset error without a message", "");
    }
    if (*lo) {
      const uint64_t at = parse_u64(offset_text, "OFFSET");
      swz::Location loc;
      swz::Status st = swz::locate(L, at, &loc);
      if (st.ok() != (at < L.size())) fail("locate ok/size mismatch", std::to_string(at));
    }
  } catch (const Error& e) {
    if (std::string(e.what()).empty()) fail("an error without a message", "");
  }
  return 0;
}
