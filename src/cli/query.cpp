#include "query.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "common.hpp"
#include "swz/address.hpp"
#include "swz/quote.hpp"

namespace swz::cli {
namespace {

constexpr size_t kMaxLine = 4096;

/// Reads one line of standard input (without its '\n') into *line. A line
/// longer than kMaxLine bytes is read no further: *too_long is set and the
/// rest stays unread. False at the end of input.
bool read_line(std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  for (;;) {
    const int c = std::getc(stdin);
    if (c == EOF) return !line->empty();
    if (c == '\n') return true;
    if (line->size() == kMaxLine) {
      *too_long = true;
      return true;
    }
    line->push_back(static_cast<char>(c));
  }
}

/// Calls `each(text, where)` for every query: the arguments, or the lines of
/// standard input for "-". `where` names it in messages ("" for one argument).
/// `each` returns the answer's line. Every query is answered in order, as it
/// comes: a bad one (an Error from `each`) prints "error: MESSAGE" in its
/// place on standard output and "swz: error: MESSAGE" on standard error, and
/// the others are still answered; then, if any was bad, throws Error naming
/// how many (exit status 1).
template <class F>
void for_each_query(const std::vector<std::string>& args, const F& each) {
  uint64_t total = 0, bad = 0;
  auto answer = [&](const std::string& text, const std::string& where, bool flush) {
    ++total;
    std::string line;
    try {
      line = each(text, where);
    } catch (const Error& e) {
      ++bad;
      line = std::string("error: ") + e.what() + "\n";
      std::fflush(stdout);
      std::fprintf(stderr, "swz: error: %s\n", e.what());
    }
    std::fputs(line.c_str(), stdout);
    if (flush) std::fflush(stdout);
  };
  if (args.size() == 1 && args[0] == "-") {
    // A closed standard input or a directory reads as an empty stream: say so instead of answering
    // nothing with exit 0.
    struct stat in_st;
    if (closed_at_start(STDIN_FILENO) || fstat(STDIN_FILENO, &in_st) != 0)
      fail("cannot read standard input: it is closed");
    if (S_ISDIR(in_st.st_mode)) fail("cannot read standard input: it is a directory");
    const bool tty = isatty(STDOUT_FILENO) != 0;
    std::string line;
    uint64_t n = 0;
    bool too_long = false;
    while (read_line(&line, &too_long)) {
      ++n;
      if (too_long) {  // no query is that long: stop reading (the stream may never end)
        ++total;
        ++bad;
        const std::string m = "line " + std::to_string(n) + " of standard input has more than " +
                              std::to_string(kMaxLine) + " bytes, more than any query; stopped reading there";
        std::fflush(stdout);
        std::printf("error: %s\n", m.c_str());
        std::fprintf(stderr, "swz: error: %s\n", m.c_str());
        break;
      }
      size_t a = line.find_first_not_of(" \t\r");
      if (a == std::string::npos || line[a] == '#') continue;
      size_t b = line.find_last_not_of(" \t\r");
      answer(line.substr(a, b - a + 1), "line " + std::to_string(n) + " of standard input", tty);
    }
    if (std::ferror(stdin)) fail("cannot read standard input");
  } else {
    for (const std::string& a : args)
      if (a == "-") fail("'-' (read standard input) must be the only argument");
    for (const std::string& a : args)
      answer(a, args.size() > 1 ? "argument " + quoted_for_message(a) : std::string(), false);
  }
  if (bad) fail(std::to_string(bad) + " of " + std::to_string(total) + " queries could not be answered");
}

std::string at(const std::string& where) { return where.empty() ? std::string() : " (" + where + ")"; }

/// The numbers of one query: fields separated by commas or by spaces/tabs
/// ("17,3", "17 3", "17, 3"). An empty field between commas, or a comma at
/// either end ("3,,4", "3,4,", ",3") is an error naming the query, not
/// skipped.
std::vector<uint64_t> numbers(const std::string& text, const std::string& what, const std::string& where) {
  std::vector<uint64_t> out;
  size_t field = 0;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    ++field;
    const bool blank = part.find_first_not_of(" \t") == std::string::npos;
    if (blank && (comma != std::string::npos || field > 1))
      fail(quoted_for_message(text) + at(where) + ": " + what + " field " + std::to_string(field) +
           " is empty (fields are separated by one comma)");
    size_t i = 0;
    while (i < part.size()) {
      size_t j = part.find_first_of(" \t", i);
      if (j == std::string::npos) j = part.size();
      if (j > i) {
        try {
          out.push_back(parse_u64(part.substr(i, j - i), what));
        } catch (const Error& e) {
          fail(e.what() + at(where));
        }
      }
      i = j + 1;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

void run_offset(const CommonOptions& o, uint32_t sub, const std::vector<std::string>& args, bool hex) {
  Texture t = make_texture(o, parse_size(o.size));
  const uint64_t base = resource_base(o, t.layout.size());
  if (sub >= t.layout.subresource_count())
    fail("--subresource " + std::to_string(sub) + ": a " + t.describe() + " texture has " +
         std::to_string(t.layout.subresource_count()) + " subresource(s)");
  AddressMap map;
  check(AddressMap::make(t.layout, sub, &map, args.size() == 1 && args[0] == "-" ? 1u << 20 : args.size()),
        "subresource " + std::to_string(sub));
  // The old form "X Y [Z] [S]": plain numbers, one element.
  bool single = args.size() >= 2 && args.size() <= 4;
  for (const std::string& a : args) single = single && a.find(',') == std::string::npos && a != "-";
  std::vector<std::string> queries = args;
  if (single) {
    std::string joined;
    for (const std::string& a : args) joined += (joined.empty() ? "" : " ") + a;
    queries = {joined};
  }
  for_each_query(queries, [&](const std::string& text, const std::string& where) {
    std::vector<uint64_t> c = numbers(text, "coordinate", where);
    if (c.size() < 2 || c.size() > 4)
      fail(quoted_for_message(text) + at(where) + " is not X,Y[,Z[,SAMPLE]] (element coordinates)");
    static const char* const kNames[] = {"X", "Y", "Z", "SAMPLE"};
    for (size_t i = 0; i < c.size(); ++i)
      if (c[i] > UINT32_MAX)
        fail(std::string(kNames[i]) + " = " + std::to_string(c[i]) + " in " + quoted_for_message(text) + at(where) +
             " does not fit in 32 bits");
    uint64_t x = c[0], y = c[1], z = c.size() > 2 ? c[2] : 0, s = c.size() > 3 ? c[3] : 0;
    uint64_t off = 0;
    check(map.offset(x, y, z, s, &off), "element (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                                            std::to_string(z) + ") sample " + std::to_string(s) + " of subresource " +
                                            std::to_string(sub) + at(where));
    off += base;
    char line[32];
    std::snprintf(line, sizeof line, hex ? "0x%llx\n" : "%llu\n", static_cast<unsigned long long>(off));
    return std::string(line);
  });
}

void run_locate(const CommonOptions& o, const std::vector<std::string>& args) {
  Texture t = make_texture(o, parse_size(o.size));
  const uint64_t base = resource_base(o, t.layout.size());
  Locator loc;
  check(Locator::make(t.layout, &loc), "locate");
  for_each_query(args, [&](const std::string& text, const std::string& where) {
    std::vector<uint64_t> v = numbers(text, "OFFSET", where);
    if (v.size() != 1) fail(quoted_for_message(text) + at(where) + " is not one byte offset");
    uint64_t off = v[0];
    if (off < base)
      fail("offset " + quoted_for_message(text) + at(where) + " is before the resource, which starts at --offset " + std::to_string(base));
    off -= base;
    if (off >= t.layout.size())
      fail("offset " + quoted_for_message(text) + at(where) + " is at or past the end of the resource (" + bytes_text(t.layout.size()) +
           (base ? " from --offset " + std::to_string(base) : std::string()) + ", a " + t.describe() +
           " texture in layout " + t.layout_arg + ")");
    Location l;
    check(loc.locate(off, &l), "offset " + quoted_for_message(text) + at(where));
    if (l.packed) return "packed subresource=" + std::to_string(l.subresource) + "\n";
    if (l.padding) return "padding subresource=" + std::to_string(l.subresource) + "\n";
    return "subresource=" + std::to_string(l.subresource) + " x=" + std::to_string(l.x) + " y=" + std::to_string(l.y) +
           " z=" + std::to_string(l.z) + " sample=" + std::to_string(l.sample) + " byte=" + std::to_string(l.byte) +
           "\n";
  });
}

}  // namespace swz::cli
