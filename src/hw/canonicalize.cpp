// canonicalize(): a term order whose primaries are exactly the in-block bits
// (include/swz/canonicalize.hpp).
#include "swz/canonicalize.hpp"

#include <bit>
#include <charconv>
#include <functional>
#include <vector>

namespace swz {
namespace {

const char kChan[4] = {'X', 'Y', 'Z', 'S'};

// Where a term of an address bit came from: the interleave chain (slot 0 =
// primary, 1..4 = XOR chains) or a postamble chain (5, 6).
struct Term {
  BitEntry e;
  int slot;
};

}  // namespace

Status parse_block_extents(std::string_view text, BlockExtents* out) {
  uint64_t v[4] = {1, 1, 1, 1};
  int n = 0;
  size_t pos = 0;
  while (true) {
    size_t end = text.find_first_of("xX", pos);
    std::string_view part = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (n >= 4)
      return {Code::parse_error, "block extents '" + std::string(text) + "': at most 4 numbers (WxH[xD[xS]])"};
    uint64_t x = 0;
    auto r = std::from_chars(part.data(), part.data() + part.size(), x);
    if (part.empty() || r.ec != std::errc() || r.ptr != part.data() + part.size())
      return {Code::parse_error, "block extents '" + std::string(text) + "': '" + std::string(part) +
                                     "' is not a number (WxH[xD[xS]], W in bytes)"};
    if (x == 0 || (x & (x - 1)) != 0)
      return {Code::invalid_argument,
              "block extents '" + std::string(text) + "': " + std::to_string(x) + " is not a power of two"};
    v[n++] = x;
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  if (n < 2) return {Code::parse_error, "block extents '" + std::string(text) + "': need at least WxH (W in bytes)"};
  *out = {v[0], v[1], v[2], v[3]};
  return Status::Ok();
}

std::string to_string(const BlockExtents& e) {
  std::string s = std::to_string(e.x_bytes);
  s += 'x';
  s += std::to_string(e.y);
  if (e.z > 1 || e.s > 1) {
    s += 'x';
    s += std::to_string(e.z);
  }
  if (e.s > 1) {
    s += 'x';
    s += std::to_string(e.s);
  }
  return s;
}

Status canonicalize(const Pattern& in, const BlockExtents& ext, Pattern* out) {
  const uint64_t extv[4] = {ext.x_bytes, ext.y, ext.z, ext.s};
  unsigned m[4];
  unsigned total = 0;
  for (int c = 0; c < 4; ++c) {
    if (extv[c] == 0 || (extv[c] & (extv[c] - 1)) != 0)
      return {Code::invalid_argument,
              std::string("block extent of ") + kChan[c] + " = " + std::to_string(extv[c]) + " is not a power of two"};
    m[c] = static_cast<unsigned>(std::countr_zero(extv[c]));
    total += m[c];
  }
  const unsigned n = in.block_bits();
  if (total != n)
    return {Code::invalid_argument, "block extents " + to_string(ext) + " hold 2^" + std::to_string(total) +
                                        " bytes but the pattern has " + std::to_string(n) +
                                        " interleave entries (a 2^" + std::to_string(n) + "-byte block)"};
  // In-block coordinate bits, numbered: channel c bit b -> base[c] + b.
  unsigned base[4] = {0, m[0], m[0] + m[1], m[0] + m[1] + m[2]};
  auto in_block = [&](const BitEntry& e) { return e.valid && e.bit < m[e.channel & 3]; };
  auto idx = [&](const BitEntry& e) { return base[e.channel & 3] + e.bit; };

  // Terms of each address bit, with cancelling pairs removed.
  std::vector<std::vector<Term>> terms(n);
  for (unsigned i = 0; i < n; ++i) {
    std::vector<Term> t;
    t.push_back({in.interleave[i], 0});
    for (int j = 0; j < 4; ++j)
      if (in.xors[j][i].valid) t.push_back({in.xors[j][i], 1 + j});
    if (i >= 8 && i <= 23)
      for (int j = 0; j < 2; ++j)
        if (in.postamble[j][i].valid) t.push_back({in.postamble[j][i], 5 + j});
    std::vector<Term> kept;
    for (const Term& a : t) {
      bool cancelled = false;
      for (size_t k = 0; k < kept.size(); ++k)
        if (kept[k].e.channel == a.e.channel && kept[k].e.bit == a.e.bit) {
          kept.erase(kept.begin() + static_cast<long>(k));
          cancelled = true;
          break;
        }
      if (!cancelled) kept.push_back(a);
    }
    terms[i] = std::move(kept);
  }

  // Kuhn's augmenting paths: address bit i -> in-block coordinate bit.
  std::vector<int> match_coord(n, -1);  // coordinate bit index -> address bit
  std::vector<int> match_addr(n, -1);   // address bit -> index into terms[i]
  std::vector<char> seen;
  std::function<bool(unsigned)> augment = [&](unsigned i) -> bool {
    for (size_t k = 0; k < terms[i].size(); ++k) {
      const BitEntry& e = terms[i][k].e;
      if (!in_block(e)) continue;
      unsigned c = idx(e);
      if (seen[c]) continue;
      seen[c] = 1;
      if (match_coord[c] < 0 || augment(static_cast<unsigned>(match_coord[c]))) {
        match_coord[c] = static_cast<int>(i);
        match_addr[i] = static_cast<int>(k);
        return true;
      }
    }
    return false;
  };
  std::string unmatched;
  for (unsigned i = 0; i < n; ++i) {
    seen.assign(n, 0);
    if (!augment(i)) {
      if (!unmatched.empty()) unmatched += ", ";
      unmatched += std::to_string(i);
    }
  }
  if (!unmatched.empty()) {
    std::string missing;
    for (int c = 0; c < 4; ++c)
      for (unsigned b = 0; b < m[c]; ++b)
        if (match_coord[base[c] + b] < 0) {
          if (!missing.empty()) missing += ", ";
          missing += std::string(1, kChan[c]) + std::to_string(b);
        }
    return {Code::invalid_argument, "canonicalize: no term order makes the primaries exactly the in-block bits of a " +
                                        to_string(ext) + " block: address bits {" + unmatched +
                                        "} cannot all get a distinct in-block term (in-block bits " + "left over: {" +
                                        missing + "}); the in-block map is singular or the extents are wrong"};
  }

  Pattern p = in;
  for (unsigned i = 0; i < n; ++i) {
    const std::vector<Term>& t = terms[i];
    const Term chosen = t[static_cast<size_t>(match_addr[i])];
    std::vector<BitEntry> chain;  // the rest of the interleave chain, in order
    BitEntry post[2] = {};
    for (size_t k = 0; k < t.size(); ++k) {
      if (static_cast<int>(k) == match_addr[i]) continue;
      if (t[k].slot >= 5)
        post[t[k].slot - 5] = t[k].e;
      else
        chain.push_back(t[k].e);
    }
    if (chosen.slot >= 5) {
      // The chosen term leaves its postamble slot; the displaced chain term
      // (the old primary) takes that slot if the chain is full.
      if (chain.size() > 4) {
        post[chosen.slot - 5] = chain.front();
        chain.erase(chain.begin());
      }
    }
    p.interleave[i] = chosen.e;
    for (int j = 0; j < 4; ++j)
      p.xors[j][i] = j < static_cast<int>(chain.size()) ? chain[static_cast<size_t>(j)] : BitEntry{};
    if (i >= 8 && i <= 23)
      for (int j = 0; j < 2; ++j) p.postamble[j][i] = post[j];
  }
  Status st = validate(p, 1);
  if (!st.ok()) return {st.code(), "canonicalize: the reordered pattern is still invalid: " + st.message()};
  *out = p;
  return Status::Ok();
}

}  // namespace swz
