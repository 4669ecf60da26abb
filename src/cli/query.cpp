#include "query.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "common.hpp"
#include "number_option.hpp"
#include "swz/address.hpp"
#include "swz/quote.hpp"

namespace swz::cli {
namespace {

/// Answers are collected in one buffer and written in large writes: on
/// standard output, when the buffer passes kOutChunk, before standard input is
/// read again (so a stream gets its answers before swz waits for more), and at
/// the end; on a terminal, after every line.
constexpr size_t kOutChunk = size_t{1} << 16;
/// No query is longer: a longer line of standard input stops the reading
/// (the stream may never end, as /dev/zero does not).
constexpr size_t kMaxLine = 4096;

void write_out(std::string* out) {
  if (out->empty()) return;
  if (std::fflush(stdout) != 0) fail(std::string("cannot write standard output: ") + std::strerror(errno));
  const char* p = out->data();
  size_t left = out->size();
  while (left > 0) {
    const ssize_t put = write(STDOUT_FILENO, p, left);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) fail(std::string("cannot write standard output: ") + std::strerror(errno));
    p += put;
    left -= static_cast<size_t>(put);
  }
  out->clear();
}

/// Calls `each(text, where, &out)` for every query: the arguments, or the
/// lines of standard input for "-". `where` names it in messages ("" for one
/// argument). `each` appends the answer's line to `out`, or keeps it pending
/// until `finish(&out)` appends the pending answers in order; finish is
/// called before every write. Lines of standard input are answered as they
/// come (a stream, see kOutChunk). Every query is answered in order: a bad
/// one (an Error from `each`) prints "error: MESSAGE" in its place on
/// standard output and "swz: error: MESSAGE" on standard error, and the
/// others are still answered; then, if any was bad, throws Error naming how
/// many (exit status 1).
template <class F, class Finish>
void for_each_query(const std::vector<std::string>& args, const F& each, const Finish& finish) {
  std::string out;
  auto flush = [&] {
    finish(&out);
    write_out(&out);
  };
  uint64_t total = 0, bad = 0;
  auto mark_bad = [&](const std::string& message) {
    ++bad;
    flush();  // the answers before the bad query go out first, in order
    std::fprintf(stderr, "swz: error: %s\n", message.c_str());
    out += "error: " + message + "\n";
  };
  auto answer = [&](const std::string& text, const std::string& where) {
    ++total;
    try {
      each(text, where, &out);
    } catch (const Error& e) {
      mark_bad(e.what());
    }
  };
  if (args.size() == 1 && args[0] == "-") {
    // A closed standard input or a directory reads as an empty stream: say so instead of answering
    // nothing with exit 0.
    struct stat in_st;
    if (closed_at_start(STDIN_FILENO) || fstat(STDIN_FILENO, &in_st) != 0)
      fail("cannot read standard input: it is closed");
    if (S_ISDIR(in_st.st_mode)) fail("cannot read standard input: it is a directory");
    const bool tty = isatty(STDOUT_FILENO) != 0;
    out.reserve(kOutChunk + 256);
    std::string buf(size_t{1} << 20, '\0'), text, where;
    size_t begin = 0, end = 0;  // unread bytes of buf
    bool eof = false;
    uint64_t n = 0;
    for (;;) {
      const char* nl = static_cast<const char*>(std::memchr(buf.data() + begin, '\n', end - begin));
      if ((nl ? static_cast<size_t>(nl - (buf.data() + begin)) : end - begin) > kMaxLine) {
        ++total;
        mark_bad("line " + std::to_string(n + 1) + " of standard input has more than " + std::to_string(kMaxLine) +
                 " bytes, more than any query; stopped reading there");
        break;
      }
      if (!nl && !eof) {
        // Need more input: answers so far go out first.
        flush();
        if (begin > 0) {
          std::memmove(buf.data(), buf.data() + begin, end - begin);
          end -= begin;
          begin = 0;
        }
        if (end == buf.size()) buf.resize(buf.size() * 2);
        const ssize_t got = read(STDIN_FILENO, buf.data() + end, buf.size() - end);
        if (got < 0) {
          if (errno == EINTR) continue;
          fail(std::string("cannot read standard input: ") + std::strerror(errno));
        }
        if (got == 0) eof = true;
        end += static_cast<size_t>(got);
        continue;
      }
      if (!nl && begin == end) break;
      const size_t stop = nl ? static_cast<size_t>(nl - buf.data()) : end;
      std::string_view line(buf.data() + begin, stop - begin);
      begin = nl ? stop + 1 : end;
      ++n;
      const size_t a = line.find_first_not_of(" \t\r");
      if (a == std::string_view::npos || line[a] == '#') continue;
      const size_t b = line.find_last_not_of(" \t\r");
      text.assign(line.substr(a, b - a + 1));
      where.assign("line ");
      char num[24];
      where.append(num, static_cast<size_t>(std::to_chars(num, num + sizeof num, n).ptr - num));
      where.append(" of standard input");
      answer(text, where);
      if (tty || out.size() >= kOutChunk) flush();
    }
  } else {
    for (const std::string& a : args)
      if (a == "-") fail("'-' (read standard input) must be the only argument");
    for (const std::string& a : args) answer(a, std::string());  // the message quotes the argument itself
  }
  flush();
  if (bad) fail(std::to_string(bad) + " of " + std::to_string(total) + " queries could not be answered");
}

void no_pending(std::string*) {}

/// Appends `v` in decimal (or 0x hex).
void append_u64(std::string* out, uint64_t v, bool hex = false) {
  char num[24];
  if (hex) out->append("0x");
  out->append(num, static_cast<size_t>(std::to_chars(num, num + sizeof num, v, hex ? 16 : 10).ptr - num));
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

/// The numbers of a well-formed query without allocating: up to `max`
/// numbers separated by one comma (with optional blanks around it) or by
/// blanks. False for anything else (numbers() then gives the answer or the
/// error).
bool quick_numbers(std::string_view text, uint64_t* v, size_t max, size_t* count) {
  size_t n = 0, i = 0;
  bool need = true;  // a number must come next (at the start, after a comma)
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      ++i;
    } else if (c == ',') {
      if (need) return false;
      need = true;
      ++i;
    } else {
      size_t j = i;
      while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != ',') ++j;
      if (n == max || read_unsigned(text.substr(i, j - i), &v[n]) != NumberText::ok) return false;
      ++n;
      need = false;
      i = j;
    }
  }
  if (need && n > 0) return false;  // a comma at the end
  *count = n;
  return true;
}

}  // namespace

uint64_t resource_offset(const Texture& t, uint64_t base, uint64_t file_offset,
                         const std::function<std::string()>& what) {
  if (file_offset < base)
    fail("offset " + what() + " is before the resource, which starts at --offset " + std::to_string(base));
  const uint64_t off = file_offset - base;
  if (off >= t.layout.size())
    fail("offset " + what() + " is at or past the end of the resource (" + bytes_text(t.layout.size()) +
         (base ? " from --offset " + std::to_string(base) : std::string()) + ", a " + t.describe() +
         " texture in layout " + t.layout_arg + ")");
  return off;
}

uint64_t element_file_offset(const Texture& t, uint64_t base, uint32_t sub, uint32_t x, uint32_t y, uint32_t z,
                             uint32_t sample) {
  uint64_t off = 0;
  check(element_offset(t.layout, sub, x, y, z, sample, &off),
        "element (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ") sample " +
            std::to_string(sample) + " of subresource " + std::to_string(sub));
  return off + base;
}

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
  for_each_query(queries, [&](const std::string& text, const std::string& where, std::string* answer) {
    uint64_t c[4];
    size_t cn = 0;
    if (!quick_numbers(text, c, 4, &cn) || cn < 2) {
      const std::vector<uint64_t> v = numbers(text, "coordinate", where);
      if (v.size() < 2 || v.size() > 4)
        fail(quoted_for_message(text) + at(where) + " is not X,Y[,Z[,SAMPLE]] (element coordinates)");
      cn = v.size();
      std::copy(v.begin(), v.end(), c);
    }
    static const char* const kNames[] = {"X", "Y", "Z", "SAMPLE"};
    for (size_t i = 0; i < cn; ++i)
      if (c[i] > UINT32_MAX)
        fail(std::string(kNames[i]) + " = " + std::to_string(c[i]) + " in " + quoted_for_message(text) + at(where) +
             " does not fit in 32 bits");
    uint64_t x = c[0], y = c[1], z = cn > 2 ? c[2] : 0, s = cn > 3 ? c[3] : 0;
    uint64_t off = 0;
    if (Status st = map.offset(x, y, z, s, &off); !st.ok())  // the message only on failure
      check(st, "element (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ") sample " +
                    std::to_string(s) + " of subresource " + std::to_string(sub) + at(where));
    append_u64(answer, off + base, hex);
    answer->push_back('\n');
  }, no_pending);
}

void run_locate(const CommonOptions& o, const std::vector<std::string>& args) {
  Texture t = make_texture(o, parse_size(o.size));
  const uint64_t base = resource_base(o, t.layout.size());
  Locator loc;
  check(Locator::make(t.layout, &loc), "locate");
  // Offsets are checked one by one, then located in batches (the Locator's
  // batch call) and answered in order.
  constexpr size_t kBatch = 4096;
  std::vector<uint64_t> pending;
  std::vector<Location> found;
  pending.reserve(kBatch);
  auto finish = [&](std::string* answer) {
    if (pending.empty()) return;
    found.resize(pending.size());
    if (!loc.locate(pending.data(), pending.size(), found.data()).ok())
      for (size_t i = 0; i < pending.size(); ++i)
        check(loc.locate(pending[i], &found[i]), "offset " + std::to_string(pending[i] + base));
    // One line per record, written in place: at most 96 characters each.
    size_t at_B = answer->size();
    answer->resize(at_B + found.size() * 96);
    char* const start = answer->data();
    char* p = start + at_B;
    auto put = [&p](std::string_view s) {
      std::memcpy(p, s.data(), s.size());
      p += s.size();
    };
    auto num = [&p](uint32_t v) { p = std::to_chars(p, p + 10, v).ptr; };
    for (const Location& l : found) {
      if (l.packed || l.padding) {
        put(l.packed ? "packed subresource=" : "padding subresource=");
        num(l.subresource);
      } else {
        put("subresource=");
        num(l.subresource);
        put(" x=");
        num(l.x);
        put(" y=");
        num(l.y);
        put(" z=");
        num(l.z);
        put(" sample=");
        num(l.sample);
        put(" byte=");
        num(l.byte);
      }
      *p++ = '\n';
    }
    answer->resize(static_cast<size_t>(p - start));
    pending.clear();
  };
  for_each_query(
      args,
      [&](const std::string& text, const std::string& where, std::string* answer) {
        uint64_t off = 0;
        size_t qn = 0;
        if (!quick_numbers(text, &off, 1, &qn) || qn != 1) {
          std::vector<uint64_t> v = numbers(text, "OFFSET", where);
          if (v.size() != 1) fail(quoted_for_message(text) + at(where) + " is not one byte offset");
          off = v[0];
        }
        pending.push_back(resource_offset(t, base, off, [&] { return quoted_for_message(text) + at(where); }));
        if (pending.size() == kBatch) finish(answer);
      },
      finish);
}

}  // namespace swz::cli
