#include "core/json_strict.hpp"

#include <cstdio>
#include <set>
#include <string>
#include <vector>

namespace swz::detail {

namespace {

// Thrown from the parser callback to stop parsing at the first offence.
struct Refusal {
  std::string message;
};

// Bytes of the UTF-8 character that starts at s[i] (2..4), or 0 where s[i]
// does not start a well-formed one (RFC 3629: no overlong forms C0/C1 xx,
// E0 80..9F, F0 80..8F; no surrogates ED A0..BF; nothing past U+10FFFF,
// F4 90..BF and F5..FF). Python decodes messages strictly: one such sequence
// left raw made the whole message an empty ValueError.
size_t utf8_length(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the second byte's range
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  }
  if (n == 0 || i + n > s.size()) return 0;
  const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
  if (c1 < lo || c1 > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

}  // namespace

std::string quoted_for_message(std::string_view text, size_t max_bytes, char quote) {
  std::string out(1, quote);
  char buf[8];
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = c < 0x80 ? 1 : utf8_length(text, i);
    const size_t step = n == 0 ? 1 : n;
    if (i + step > max_bytes) break;  // never cut inside a character
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else if (n == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);  // not UTF-8
      out += buf;
    } else if (n == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(text[i + 1]));  // C1 control
      out += buf;
    } else {
      out.append(text.data() + i, step);
    }
    i += step;
  }
  if (i < text.size()) return out + "..." + quote + " (" + std::to_string(text.size()) + " bytes)";
  return out + quote;
}

Status parse_json_strict(std::string_view text, int max_depth, std::string_view what, nlohmann::json* out) {
  using nlohmann::json;
  const std::string w(what);
  // keys[d]: the keys seen so far in the object whose members sit at depth d.
  std::vector<std::set<std::string>> keys;
  auto cb = [&](int depth, json::parse_event_t ev, json& parsed) -> bool {
    switch (ev) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        // depth is the level of the value that opens here; its members are one deeper.
        if (depth + 1 > max_depth)
          throw Refusal{w + ": nested more than " + std::to_string(max_depth) + " levels deep"};
        if (ev == json::parse_event_t::object_start) {
          if (keys.size() < static_cast<size_t>(depth) + 2) keys.resize(static_cast<size_t>(depth) + 2);
          keys[static_cast<size_t>(depth) + 1].clear();
        }
        break;
      case json::parse_event_t::key: {
        const auto& k = parsed.get_ref<const std::string&>();
        if (static_cast<size_t>(depth) < keys.size() && !keys[static_cast<size_t>(depth)].insert(k).second)
          throw Refusal{w + ": key " + quoted_for_message(k) + " appears twice in one object"};
        break;
      }
      default:
        break;
    }
    return true;
  };
  // The parser takes a NUL byte for the end of the text, so '{...}' then
  // U+0000 then anything would be accepted with the rest dropped. JSON text
  // holds no raw U+0000 anywhere (inside strings it is written \u0000).
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
    return {Code::parse_error, w + ": not valid JSON: U+0000 at byte " + std::to_string(nul) + " (of " +
                                   std::to_string(text.size()) + "; JSON text holds none)"};
  json j;
  try {
    j = json::parse(text.begin(), text.end(), cb, /*allow_exceptions=*/true);
  } catch (const Refusal& r) {
    return {Code::parse_error, r.message};
  } catch (const json::parse_error& e) {
    // e.byte: 1-based position of the last byte read (the end of the token that
    // broke the syntax); past the end when the text stops inside a value (a
    // truncated file).
    if (e.byte > text.size())
      return {Code::parse_error,
              w + ": not valid JSON: the text ends early, after byte " + std::to_string(text.size())};
    return {Code::parse_error, w + ": not valid JSON: syntax error near byte " + std::to_string(e.byte - 1) + " (of " +
                                   std::to_string(text.size()) + ")"};
  } catch (const json::out_of_range&) {
    // 406: a number past a double's range ("1e400"); its what() echoes the
    // number as written, of any length.
    return {Code::parse_error, w + ": not valid JSON: a number is too large"};
  } catch (const std::bad_alloc&) {
    return {Code::parse_error, w + ": too large to parse in the memory available"};
  } catch (const std::exception& e) {
    return {Code::parse_error, w + ": " + e.what()};
  }
  if (j.is_discarded()) return {Code::parse_error, w + ": not valid JSON"};
  *out = std::move(j);
  return Status::Ok();
}

Status check_keys(const nlohmann::json& obj, std::initializer_list<const char*> known, const std::string& where,
                  std::initializer_list<const char*> also_known) {
  const std::initializer_list<const char*> lists[2] = {known, also_known};
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool found = false;
    for (const auto& l : lists)
      for (const char* k : l) found = found || it.key() == k;
    if (found) continue;
    std::string names;
    for (const auto& l : lists)
      for (const char* k : l) names += (names.empty() ? "" : ", ") + std::string(k);
    return {Code::parse_error, where + ": unknown key " + quoted_for_message(it.key()) + " (known: " + names + ")"};
  }
  return Status::Ok();
}

}  // namespace swz::detail
