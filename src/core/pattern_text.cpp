// Text and JSON forms of a pattern (docs/ARCHITECTURE.md "Text and binary forms").
#include <cctype>
#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/json_strict.hpp"
#include "core/pattern_json.hpp"
#include "core/parse_number.hpp"

#include "swz/pattern.hpp"

namespace swz {
namespace {

const char kChan[4] = {'X', 'Y', 'Z', 'S'};

std::string term(const BitEntry& e) {
  if (!e.valid) return "_";
  return std::string(1, kChan[e.channel & 3]) + std::to_string(e.bit);
}

bool parse_term(std::string_view t, BitEntry* out) {
  if (t.size() < 2 || t.size() > 3) return false;
  int c;
  switch (std::toupper(static_cast<unsigned char>(t[0]))) {
    case 'X':
      c = 0;
      break;
    case 'Y':
      c = 1;
      break;
    case 'Z':
      c = 2;
      break;
    case 'S':
      c = 3;
      break;
    default:
      return false;
  }
  unsigned b = 0;
  for (size_t i = 1; i < t.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
    b = b * 10 + static_cast<unsigned>(t[i] - '0');
  }
  if (b > 31) return false;
  *out = BitEntry::make(static_cast<Channel>(c), b);
  return true;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

// "Y3^X9^_^Z1": primary then XOR slots.
Status parse_bit_token(std::string_view tok, unsigned index, Pattern* p) {
  auto parts = split(tok, '^');
  if (parts.size() > 5)
    return {Code::parse_error, "bit " + std::to_string(index) + " " + detail::quoted_for_message(tok, 64, '\'') +
                                   ": at most four XOR terms"};
  if (parts[0] == "-") {
    p->interleave[index] = BitEntry{};
  } else if (!parse_term(parts[0], &p->interleave[index]))
    return {Code::parse_error, "bit " + std::to_string(index) + ": " + detail::quoted_for_message(parts[0], 64, '\'') +
                                   " is not a source bit (X0..X31, Y0..Y31, Z0..Z31, S0..S31)"};
  for (size_t j = 1; j < parts.size(); ++j) {
    if (parts[j] == "_") continue;
    if (!parse_term(parts[j], &p->xors[j - 1][index]))
      return {Code::parse_error, "bit " + std::to_string(index) + " XOR term " + std::to_string(j) + ": " +
                                     detail::quoted_for_message(parts[j], 64, '\'') + " is not a source bit"};
  }
  return Status::Ok();
}

Status parse_post(std::string_view key_bit, std::string_view terms, Pattern* p) {
  unsigned bit = 0;
  auto r = std::from_chars(key_bit.data(), key_bit.data() + key_bit.size(), bit);
  if (r.ec != std::errc() || r.ptr != key_bit.data() + key_bit.size() || bit > 31)
    return {Code::parse_error,
            "postamble: " + detail::quoted_for_message(key_bit, 64, '\'') + " is not an address bit number"};
  if (p->postamble[0][bit].valid || p->postamble[1][bit].valid)
    return {Code::parse_error, "post" + std::to_string(bit) + " is given twice"};
  auto parts = split(terms, '^');
  if (parts.size() > 2)
    return {Code::parse_error,
            "post" + std::to_string(bit) + ": at most two postamble terms, got " + std::to_string(parts.size())};
  for (size_t j = 0; j < parts.size(); ++j) {
    if (parts[j] == "_") continue;
    if (!parse_term(parts[j], &p->postamble[j][bit]))
      return {Code::parse_error, "post" + std::to_string(bit) + ": " + detail::quoted_for_message(parts[j], 64, '\'') +
                                     " is not a source bit"};
  }
  return Status::Ok();
}

Status parse_uint32(std::string_view v, const char* field, uint32_t* out) {
  uint64_t x = 0;
  if (!detail::parse_unsigned(v, &x) || x > UINT32_MAX)
    return {Code::parse_error,
            std::string(field) + ": " + detail::quoted_for_message(v, 64, '\'') + " is not a 32-bit unsigned number"};
  *out = static_cast<uint32_t>(x);
  return Status::Ok();
}

std::string bit_token(const Pattern& p, unsigned i) {
  std::string s = p.interleave[i].valid ? term(p.interleave[i]) : std::string("-");
  int last = -1;
  for (int j = 0; j < 4; ++j)
    if (p.xors[j][i].valid) last = j;
  for (int j = 0; j <= last; ++j) {
    s.push_back('^');
    s += term(p.xors[j][i]);
  }
  return s;
}

// Number of interleave tokens to print: up to the last entry that is valid or
// has XOR terms.
unsigned token_count(const Pattern& p) {
  unsigned cnt = 0;
  for (unsigned i = 0; i < 32; ++i) {
    bool any = p.interleave[i].valid;
    for (int j = 0; j < 4; ++j) any |= p.xors[j][i].valid;
    if (any) cnt = i + 1;
  }
  return cnt;
}

std::string post_terms(const Pattern& p, unsigned i) {
  if (!p.postamble[0][i].valid && !p.postamble[1][i].valid) return {};
  std::string s = term(p.postamble[0][i]);
  if (p.postamble[1][i].valid) {
    s.push_back('^');
    s += term(p.postamble[1][i]);
  }
  return s;
}

void add_token(std::string& s, const std::string& t) {
  if (!s.empty()) s.push_back(' ');
  s.append(t);
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

}  // namespace

Status parse_pattern_text(std::string_view text, Pattern* out) {
  Pattern p;
  unsigned index = 0;
  bool seen_imm = false;
  std::string s(text);
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r' || c == ',') c = ' ';
  for (auto tok : split(s, ' ')) {
    if (tok.empty()) continue;
    if (tok.size() > 4 && tok.substr(0, 4) == "post") {
      auto eq = tok.find('=');
      if (eq == std::string_view::npos)
        return {Code::parse_error, detail::quoted_for_message(tok, 64, '\'') + ": expected postN=TERMS"};
      SWZ_TRY(parse_post(tok.substr(4, eq - 4), tok.substr(eq + 1), &p));
    } else if (tok.substr(0, 4) == "imm=") {
      if (seen_imm) return {Code::parse_error, "imm= is given twice"};
      seen_imm = true;
      SWZ_TRY(parse_uint32(tok.substr(4), "imm", &p.immediate));
    } else if (tok == "stack") {
      p.flags |= kFlagStackDepthSlices;
    } else if (tok == "cond-post") {
      p.flags |= kFlagConditionalPostamble;
    } else if (tok.substr(0, 6) == "flags=") {
      SWZ_TRY(parse_uint32(tok.substr(6), "flags", &p.flags));
    } else {
      if (index >= 32)
        return {Code::parse_error,
                "more than 32 interleave bits (token " + detail::quoted_for_message(tok, 64, '\'') + ")"};
      SWZ_TRY(parse_bit_token(tok, index, &p));
      ++index;
    }
  }
  *out = p;
  return Status::Ok();
}

std::string to_text(const Pattern& p) {
  std::string s;
  unsigned cnt = token_count(p);
  for (unsigned i = 0; i < cnt; ++i) {
    add_token(s, bit_token(p, i));
  }
  for (unsigned i = 0; i < 32; ++i) {
    std::string t = post_terms(p, i);
    if (!t.empty()) add_token(s, "post" + std::to_string(i) + "=" + t);
  }
  if (p.immediate) add_token(s, "imm=" + hex(p.immediate));
  uint32_t rest = p.flags;
  if (rest & kFlagStackDepthSlices) add_token(s, "stack");
  if (rest & kFlagConditionalPostamble) add_token(s, "cond-post");
  rest &= ~uint32_t{kFlagStackDepthSlices | kFlagConditionalPostamble};
  if (rest) add_token(s, "flags=" + hex(p.flags));
  return s;
}

Status parse_pattern_json(std::string_view text, Pattern* out) {
  // A repeated key is refused (nlohmann keeps the last value silently), and so
  // is metadata nested past 64 levels (a hostile file nested 5 M levels deep
  // would take hundreds of MB); the resource-layout reader has the same cap.
  nlohmann::json j;
  SWZ_TRY(detail::parse_json_strict(text, 64, "pattern JSON", &j));
  return detail::parse_pattern_object(j, {}, out);
}

Status detail::parse_pattern_object(const nlohmann::json& j, std::initializer_list<const char*> extra_keys,
                                    Pattern* out) {
  if (!j.is_object()) return {Code::parse_error, "pattern JSON: the top level must be an object"};
  // Only the keys below are read; any other key (a misspelt "postambel",
  // "immediat" or "flag") is refused rather than dropped without a word.
  SWZ_TRY(detail::check_keys(j, {"bits", "postamble", "immediate", "flags", "name", "description", "source"},
                             "pattern JSON", extra_keys));
  Pattern p;
  auto bits = j.find("bits");
  if (bits == j.end() || !bits->is_array())
    return {Code::parse_error, "pattern JSON: \"bits\" must be an array of strings such as \"X0\" or \"Y3^X9\""};
  if (bits->size() > 32)
    return {Code::parse_error, "pattern JSON: \"bits\" has " + std::to_string(bits->size()) + " entries (at most 32)"};
  unsigned i = 0;
  for (const auto& b : *bits) {
    if (!b.is_string()) return {Code::parse_error, "pattern JSON: bits[" + std::to_string(i) + "] is not a string"};
    SWZ_TRY(parse_bit_token(b.get<std::string>(), i, &p));
    ++i;
  }
  if (auto post = j.find("postamble"); post != j.end()) {
    if (!post->is_object())
      return {Code::parse_error, "pattern JSON: \"postamble\" must be an object {\"8\": \"Y4^X9\"}"};
    for (auto it = post->begin(); it != post->end(); ++it) {
      if (!it.value().is_string())
        return {Code::parse_error,
                "pattern JSON: postamble[" + detail::quoted_for_message(it.key()) + "] is not a string"};
      SWZ_TRY(parse_post(it.key(), it.value().get<std::string>(), &p));
    }
  }
  if (auto imm = j.find("immediate"); imm != j.end()) {
    if (imm->is_string()) {
      SWZ_TRY(parse_uint32(imm->get<std::string>(), "immediate", &p.immediate));
    } else if (imm->is_number_unsigned() && imm->get<uint64_t>() <= 0xffffffffu) {
      p.immediate = static_cast<uint32_t>(imm->get<uint64_t>());
    } else {
      return {Code::parse_error, "pattern JSON: \"immediate\" must be a 32-bit unsigned integer or a hex string"};
    }
  }
  if (auto fl = j.find("flags"); fl != j.end()) {
    if (!fl->is_array()) return {Code::parse_error, "pattern JSON: \"flags\" must be an array such as [\"stack\"]"};
    for (const auto& f : *fl) {
      if (!f.is_string()) return {Code::parse_error, "pattern JSON: flags entries must be strings"};
      auto v = f.get<std::string>();
      uint32_t other = 0;
      if (v == "stack")
        p.flags |= kFlagStackDepthSlices;
      else if (v == "cond-post")
        p.flags |= kFlagConditionalPostamble;
      else if (!v.empty() && v[0] >= '0' && v[0] <= '9' && parse_uint32(v, "flags", &other).ok())
        p.flags |= other;  // other bits, as to_json prints them
      else
        return {Code::parse_error, "pattern JSON: unknown flag " + detail::quoted_for_message(v) +
                                       " (known: stack, cond-post, or a number such as \"0x8\")"};
    }
  }
  *out = p;
  return Status::Ok();
}

std::string to_json(const Pattern& p) {
  using nlohmann::json;
  json j;
  json bits = json::array();
  unsigned cnt = token_count(p);
  for (unsigned i = 0; i < cnt; ++i) bits.push_back(bit_token(p, i));
  j["bits"] = bits;
  json post = json::object();
  for (unsigned i = 0; i < 32; ++i) {
    std::string t = post_terms(p, i);
    if (!t.empty()) post[std::to_string(i)] = t;
  }
  if (!post.empty()) j["postamble"] = post;
  if (p.immediate) j["immediate"] = hex(p.immediate);
  json flags = json::array();
  if (p.flags & kFlagStackDepthSlices) flags.push_back("stack");
  if (p.flags & kFlagConditionalPostamble) flags.push_back("cond-post");
  // Bits with no name (validate() refuses them) print as a number, so that
  // every pattern round-trips.
  if (const uint32_t rest = p.flags & ~uint32_t{kFlagStackDepthSlices | kFlagConditionalPostamble})
    flags.push_back(hex(rest));
  if (!flags.empty()) j["flags"] = flags;
  return j.dump();
}

}  // namespace swz
