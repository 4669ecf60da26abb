// infer(): solve for the pattern of a probe dump (include/swz/identify.hpp).
//
// The probe gives A(x, y), the byte address of every texel. A parameterized
// swizzle puts byte coordinates (xb, y) at
//   ((xb >> e0) * 2^n + (y >> e1) * row_pitch) ^ G(xb, y),
// G GF(2)-linear plus the immediate (src/core/plan.hpp). For each split of
// the block into e0 X bits (bytes) and e1 Y bits (n = e0 + e1), the vectors
// A(2^j, 0) ^ A(0, 0) and A(0, 2^j) ^ A(0, 0) give each coordinate bit's G
// contribution once the block base is taken out; the row pitch comes from the
// block rows (the one that leaves the fewest postamble terms). Primaries are a
// perfect matching of in-block coordinate bits to address bits; the other
// bits of each address bit are its XOR terms (up to four, then the postamble's
// two for bits 8..23); G bits above the block are postamble terms. Candidates
// are tried from the fewest terms and smallest block, each checked against
// every texel of the probe.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <functional>

#include "identify/internal.hpp"
#include "swz/identify.hpp"
#include "core/plan.hpp"

namespace swz {
namespace {

constexpr uint64_t kNone = UINT64_MAX;

std::string texel(uint64_t i, uint32_t w) {
  char b[48];
  std::snprintf(b, sizeof b, "(%llu,%llu)", static_cast<unsigned long long>(i % w),
                static_cast<unsigned long long>(i / w));
  return b;
}

struct Solved {
  Pattern pattern;
  uint64_t row_pitch_B = 0;  // 0 = default
  unsigned n = 0;
  unsigned post_terms = 0, xor_terms = 0;
  bool pitch_default = true;
};

unsigned log2_ceil(uint64_t v) {
  unsigned b = 0;
  while ((uint64_t{1} << b) < v) ++b;
  return b;
}

// Perfect matching of in-block coordinates (rows: vector bits < n) to address bits.
bool match(const std::vector<uint32_t>& vec, unsigned n, std::vector<int>* owner) {
  owner->assign(n, -1);
  std::vector<char> seen;
  std::function<bool(int)> augment = [&](int c) -> bool {
    for (unsigned i = 0; i < n; ++i) {
      if (!((vec[c] >> i) & 1) || seen[i]) continue;
      seen[i] = 1;
      if ((*owner)[i] < 0 || augment((*owner)[i])) {
        (*owner)[i] = c;
        return true;
      }
    }
    return false;
  };
  for (int c = 0; c < static_cast<int>(vec.size()); ++c) {
    seen.assign(n, 0);
    if (!augment(c)) return false;
  }
  return true;
}

struct Probe {
  uint32_t w = 0, h = 0, eb = 0;
  unsigned k = 0;                 // log2 element bytes
  std::vector<uint64_t> pos;      // address of texel i (relative to the offset)
  const uint8_t* data = nullptr;  // the probe from the offset on
  uint64_t size = 0;
  bool holds_zero(uint64_t a) const {
    if (a % eb || a + 4 > size) return false;
    uint32_t v;
    std::memcpy(&v, data + a, 4);
    return v == 0;
  }
  uint64_t A(uint64_t x, uint64_t y) const { return pos[y * w + x]; }
};

bool build(const Probe& p, unsigned e0, unsigned e1, uint64_t rp, bool rp_default, Solved* out);

// Row pitches for one block split that explain the block rows, fewest
// postamble terms first (with few block rows several can).
std::vector<std::pair<uint64_t, bool>> row_pitches(const Probe& p, unsigned e0, unsigned e1) {
  const unsigned n = e0 + e1;
  const uint64_t BB = uint64_t{1} << n;
  const uint64_t a00 = p.A(0, 0);
  const uint64_t row_B = uint64_t{p.w} * p.eb;
  const uint64_t min_rp = ((row_B + (uint64_t{1} << e0) - 1) >> e0) * BB;
  // S(r) = r * RP ^ H(r), H linear in r's bits.
  const uint64_t R = (uint64_t{p.h} + (uint64_t{1} << e1) - 1) >> e1;
  if (R <= 1) return {{min_rp, true}};
  auto S = [&](uint64_t r) { return p.A(0, r << e1) ^ a00; };
  const uint64_t c = S(1) & ~(BB - 1);
  std::vector<uint64_t> cands = {c, min_rp};
  for (unsigned t = n; t < 24; ++t) {
    cands.push_back(c ^ (uint64_t{1} << t));
    for (unsigned u = t + 1; u < 24; ++u) cands.push_back(c ^ (uint64_t{1} << t) ^ (uint64_t{1} << u));
  }
  std::vector<std::pair<unsigned, uint64_t>> ok_list;
  const unsigned rbits = log2_ceil(R);
  for (uint64_t cand : cands) {
    if (cand < min_rp || cand % BB) continue;
    std::vector<uint64_t> hj(rbits);
    for (unsigned j = 0; j < rbits; ++j) hj[j] = S(uint64_t{1} << j) ^ ((uint64_t{1} << j) * cand);
    bool ok = true;
    for (uint64_t r = 1; r < R && ok; ++r) {
      uint64_t hr = 0;
      for (unsigned j = 0; j < rbits; ++j)
        if ((r >> j) & 1) hr ^= hj[j];
      ok = S(r) == ((r * cand) ^ hr);
    }
    if (!ok) continue;
    unsigned cost = 0;
    for (uint64_t v : hj) cost += static_cast<unsigned>(std::popcount(v >> n));
    cost = cost * 2 + (cand != min_rp);
    bool dup = false;
    for (auto& e : ok_list) dup |= e.second == cand;
    if (!dup) ok_list.emplace_back(cost, cand);
  }
  std::stable_sort(ok_list.begin(), ok_list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<uint64_t, bool>> out;
  for (size_t i = 0; i < ok_list.size() && i < 6; ++i) out.emplace_back(ok_list[i].second, ok_list[i].second == min_rp);
  return out;
}

// Builds the pattern for one block split and row pitch, or returns false.
bool build(const Probe& p, unsigned e0, unsigned e1, uint64_t rp, bool rp_default, Solved* out) {
  const unsigned n = e0 + e1, k = p.k;
  const uint64_t BB = uint64_t{1} << n;
  const uint64_t a00 = p.A(0, 0);
  const unsigned xbits = log2_ceil(p.w) + k;  // byte-coordinate bits that exist: X0..X(xbits-1)
  const unsigned ybits = log2_ceil(p.h);

  // G contribution of every coordinate bit that exists (channel 0 = X bytes, 1 = Y).
  struct Coord {
    int ch;
    unsigned bit;
    uint64_t g;
    bool in_block;
  };
  std::vector<Coord> coords;
  for (unsigned j = k; j < std::max(xbits, e0); ++j) {
    const bool in = j < e0;
    if (j >= xbits) {  // phantom: in the block, beyond the texture
      coords.push_back({0, j, kNone, true});
      continue;
    }
    const uint64_t d = p.A(uint64_t{1} << (j - k), 0) ^ a00;
    coords.push_back({0, j, in ? d : d ^ ((uint64_t{1} << (j - e0)) << n), in});
  }
  for (unsigned b = 0; b < std::max(ybits, e1); ++b) {
    const bool in = b < e1;
    if (b >= ybits) {
      coords.push_back({1, b, kNone, true});
      continue;
    }
    const uint64_t d = p.A(0, uint64_t{1} << b) ^ a00;
    coords.push_back({1, b, in ? d : d ^ ((uint64_t{1} << (b - e1)) * rp), in});
  }
  // Everything must fit G's 32 bits; element bytes are never terms.
  for (const Coord& c : coords)
    if (c.g != kNone && ((c.g >> 32) || (c.g & ((uint64_t{1} << k) - 1)))) return false;

  // In-block vectors; phantoms take the address bits the others do not reach.
  std::vector<size_t> inblock;
  for (size_t i = 0; i < coords.size(); ++i)
    if (coords[i].in_block) inblock.push_back(i);
  // Gaussian elimination over the low n bits (bits 0..k-1 are the element's own).
  std::vector<uint32_t> basis(n, 0);  // basis[t] has top bit t
  auto insert = [&](uint32_t v) {
    for (int t = static_cast<int>(n) - 1; t >= 0 && v; --t) {
      if (!((v >> t) & 1)) continue;
      if (!basis[t]) {
        basis[t] = v;
        return true;
      }
      v ^= basis[t];
    }
    return false;
  };
  const uint32_t low = static_cast<uint32_t>(BB - 1);
  for (unsigned t = 0; t < k; ++t) insert(1u << t);
  for (size_t i : inblock)
    if (coords[i].g != kNone && !insert(static_cast<uint32_t>(coords[i].g) & low)) return false;  // not a bijection
  for (size_t i : inblock) {
    if (coords[i].g != kNone) continue;
    bool placed = false;
    for (unsigned t = k; t < n && !placed; ++t)
      if (insert(1u << t)) {
        coords[i].g = uint64_t{1} << t;
        placed = true;
      }
    if (!placed) return false;
  }
  std::vector<uint32_t> vec;
  for (size_t i : inblock) vec.push_back(static_cast<uint32_t>(coords[i].g) & low);
  std::vector<int> owner;
  // Address bits 0..k-1 are X0..X(k-1): match only the rest.
  std::vector<uint32_t> shifted;
  for (uint32_t v : vec) shifted.push_back(v >> k);
  if (!match(shifted, n - k, &owner)) return false;

  Pattern pat;
  for (unsigned t = 0; t < k; ++t) pat.interleave[t] = BitEntry::make(Channel::X, t);
  std::vector<int> primary_of(n, -1);
  for (unsigned t = k; t < n; ++t) {
    const Coord& c = coords[inblock[owner[t - k]]];
    pat.interleave[t] = BitEntry::make(static_cast<Channel>(c.ch), c.bit);
    primary_of[t] = static_cast<int>(inblock[owner[t - k]]);
  }
  unsigned xor_terms = 0, post_terms = 0;
  for (unsigned t = k; t < 32; ++t) {
    int used_x = 0, used_p = 0;
    for (size_t i = 0; i < coords.size(); ++i) {
      if (!((coords[i].g >> t) & 1) || static_cast<int>(i) == (t < n ? primary_of[t] : -1)) continue;
      const BitEntry e = BitEntry::make(static_cast<Channel>(coords[i].ch), coords[i].bit);
      if (t < n && used_x < 4) {
        pat.xors[used_x++][t] = e;
        ++xor_terms;
      } else if (t >= 8 && t < 24 && used_p < 2) {
        pat.postamble[used_p++][t] = e;
        ++post_terms;
      } else {
        return false;  // more terms than the descriptor holds
      }
    }
  }
  pat.immediate = static_cast<uint32_t>(a00);
  if (!validate(pat, p.eb).ok()) return false;
  out->pattern = pat;
  out->n = n;
  out->row_pitch_B = rp_default ? 0 : rp;
  out->pitch_default = rp_default;
  out->xor_terms = xor_terms;
  out->post_terms = post_terms;
  return true;
}

// Number of texels (from the start) that the layout places where the probe
// has them; stops at the first mismatch. `first_bad` gets its index.
uint64_t agree(const Probe& p, const ident::AddressTables& t, uint64_t* first_bad) {
  for (uint32_t y = 0; y < p.h; ++y)
    for (uint32_t x = 0; x < p.w; ++x)
      if (x == 0 && y == 0 ? !p.holds_zero(t.at(0, 0)) : t.at(x, y) != p.pos[uint64_t{y} * p.w + x]) {
        *first_bad = uint64_t{y} * p.w + x;
        return *first_bad;
      }
  *first_bad = kNone;
  return uint64_t{p.w} * p.h;
}

// Fills p.pos (the byte offset of each texel index) from the probe's `slots`
// elements; parse_error when an index never appears or one other than 0
// (zeros may be padding) appears twice.
Status read_probe(Probe& p, uint64_t slots, uint64_t N) {
  const uint8_t* base = p.data;
  const uint32_t eb = p.eb, width = p.w;
  std::vector<std::string> dups;
  uint64_t dup_count = 0;
  for (uint64_t s = 0; s < slots; ++s) {
    uint32_t v;
    std::memcpy(&v, base + s * eb, 4);
    if (v >= N) continue;
    if (p.pos[v] == kNone)
      p.pos[v] = s * eb;
    else if (v != 0) {  // zeros may be padding
      if (dups.size() < 6)
        dups.push_back("index " + std::to_string(v) + " " + texel(v, width) + " at bytes " + std::to_string(p.pos[v]) +
                       " and " + std::to_string(s * eb));
      ++dup_count;
    }
  }
  {
    std::string missing;
    uint64_t miss = 0;
    for (uint64_t i = 0; i < N; ++i)
      if (p.pos[i] == kNone && miss++ < 8) missing += (missing.empty() ? "" : ", ") + texel(i, width);
    if (miss)
      return {Code::parse_error, "not a probe: " + std::to_string(miss) + " of " + std::to_string(N) +
                                     " texel indices never appear (texels " + missing + (miss > 8 ? ", ..." : "") +
                                     "); check --size, --format and --offset. A probe holds y*" +
                                     std::to_string(width) +
                                     "+x as a little-endian u32 in the first 4 bytes of the element at (x,y)"};
  }
  if (dup_count)
    return {Code::parse_error, "not a probe: " + std::to_string(dup_count) + " indices appear more than once (" +
                                   [&] {
                                     std::string s;
                                     for (const auto& d : dups) s += (s.empty() ? "" : "; ") + d;
                                     return s;
                                   }() +
                                   (dup_count > dups.size() ? "; ..." : "") + ")"};
  return Status::Ok();
}

// The simplest built-in name whose layout matches the probe byte for byte,
// into r (layout, row pitch, builtin, made); r is left as it is when none does.
// A solved pattern with a pipe/bank XOR adds its pbxor to the AMD names.
void match_builtin(const Probe& p, const FormatInfo& format, uint32_t width, uint32_t height, InferResult* out) {
  InferResult& r = *out;
  std::vector<ident::CandidateName> names = ident::candidate_names(format, width, height);
  if (r.solved_pattern && r.pattern.immediate >= 256) {
    const std::string pb = "pbxor=" + std::to_string(r.pattern.immediate >> 8);
    std::vector<ident::CandidateName> more;
    for (const auto& n : names)
      if (n.name.rfind("amd-", 0) == 0)
        more.push_back({n.name + (n.name.find(':') == std::string::npos ? ":" : ",") + pb, 0, n.params + 1, n.order});
    names.insert(names.end(), more.begin(), more.end());
  }
  std::stable_sort(names.begin(), names.end(), ident::simpler);
  for (const auto& n : names) {
    Layout L;
    if (!ident::make_candidate(n, format, width, height, &L).ok()) continue;
    ident::AddressTables t;
    if (!ident::make_tables(L, &t).ok()) continue;
    uint64_t bad;
    agree(p, t, &bad);
    if (bad != kNone) continue;
    r.layout = n.name;
    r.row_pitch_B = n.row_pitch_B;
    if (n.name.rfind("row-major:pitch=", 0) == 0) {  // printed as --layout row-major --row-pitch N
      r.layout = "row-major";
      r.row_pitch_B = std::stoull(n.name.substr(16));
    }
    r.builtin = true;
    r.made = L;
    break;
  }
}

// Why no pattern reproduces the probe: the closest fit (when a block split
// gave one) and the texels where it disagrees, else a small violation of
// linearity.
std::string no_match_message(const Probe& p, uint64_t N, bool have_wrong, const Solved& best_wrong, uint64_t best_bad,
                             const ident::AddressTables& best_tab) {
  const uint32_t width = p.w, height = p.h;
  std::string msg =
      "no parameterized swizzle pattern reproduces the probe (the address map is not GF(2)-linear per block, or "
      "needs more XOR "
      "terms than the descriptor holds)";
  if (have_wrong) {
    msg +=
        "; the closest fit, 'pattern:" + to_text(best_wrong.pattern) + "'" +
        (best_wrong.row_pitch_B ? " with row pitch " + std::to_string(best_wrong.row_pitch_B) : std::string()) +
        ", disagrees first at texel " + texel(best_bad, width) + ": the probe has it at byte " +
        std::to_string(p.pos[best_bad]) + ", the fit at byte " +
        std::to_string(best_tab.at(static_cast<uint32_t>(best_bad % width), static_cast<uint32_t>(best_bad / width)));
    std::string more;
    int cnt = 0;
    uint64_t total = 0;
    for (uint64_t i = best_bad; i < N; ++i)
      if (best_tab.at(static_cast<uint32_t>(i % width), static_cast<uint32_t>(i / width)) != p.pos[i]) {
        ++total;
        if (cnt++ < 8) more += (more.empty() ? "" : ", ") + texel(i, width);
      }
    msg += " (" + std::to_string(total) + " texels disagree: " + more + (total > 8 ? ", ..." : "") + ")";
  }
  if (!have_wrong) {
    // No block split even gives a pattern: name a small linearity violation.
    auto lin_msg = [&](uint64_t x1, uint64_t y1, uint64_t x2, uint64_t y2) -> std::string {
      if (x1 + x2 >= width || y1 + y2 >= height) return {};
      const uint64_t pred = p.A(x1, y1) ^ p.A(x2, y2) ^ p.A(0, 0), got = p.A(x1 + x2, y1 + y2);
      if (pred == got) return {};
      return "; texels " + texel(y1 * width + x1, width) + ", " + texel(y2 * width + x2, width) +
             " and (0,0) are at bytes " + std::to_string(p.A(x1, y1)) + ", " + std::to_string(p.A(x2, y2)) + " and " +
             std::to_string(p.A(0, 0)) + ", so a linear map puts " + texel((y1 + y2) * width + x1 + x2, width) +
             " at byte " + std::to_string(pred) + " (if both bits are in the block), but the probe has it at byte " +
             std::to_string(got) + ". Check --size and --format";
    };
    std::string why;
    for (uint64_t a = 1; a < 64 && why.empty(); a <<= 1)
      for (uint64_t b = a << 1; b < 64 && why.empty(); b <<= 1) {
        why = lin_msg(a, 0, b, 0);
        if (why.empty()) why = lin_msg(0, a, 0, b);
        if (why.empty()) why = lin_msg(a, 0, 0, b);
      }
    msg += why;
  }
  return msg;
}

}  // namespace

Status infer(std::span<const uint8_t> probe, const FormatInfo& format, uint32_t width, uint32_t height,
             uint64_t offset_B, InferResult* out) {
  if (!out) return {Code::invalid_argument, "out = null"};
  if (width == 0 || height == 0)
    return {Code::invalid_argument, "size = " + std::to_string(width) + "x" + std::to_string(height) +
                                        " (width and height must be at least 1)"};
  const uint32_t eb = format.element_bytes;
  if (format.block_compressed() || format.planes != 1 || eb < 4 || eb > 16 || (eb & (eb - 1)))
    return {Code::invalid_argument,
            std::string("format ") + format.name + " (" + std::to_string(eb) +
                "-byte elements): a probe needs uncompressed single-plane elements of 4, 8 or 16 bytes, whose first 4 "
                "bytes hold the texel index; probe 1- and 2-byte formats with a 4-byte format of the same tiling "
                "(R32_UINT), then name the layout for the small format"};
  const uint64_t N = uint64_t{width} * height;
  if (N > UINT32_MAX)
    return {Code::invalid_argument, "size = " + std::to_string(width) + "x" + std::to_string(height) +
                                        ": more texels than a 32-bit index holds"};
  if (offset_B >= probe.size())
    return {Code::out_of_range, "offset = " + std::to_string(offset_B) + " is at or past the end of the probe (" +
                                    std::to_string(probe.size()) + " bytes)"};
  // Any layout of N elements spans at least N * eb bytes.
  if (probe.size() - offset_B < N * eb)
    return {Code::buffer_too_small, "the probe has " + std::to_string(probe.size() - offset_B) +
                                        " bytes after the offset; a " + std::to_string(width) + "x" +
                                        std::to_string(height) + " texture of " + std::to_string(eb) +
                                        "-byte elements needs at least " + std::to_string(N * eb)};

  Probe p;
  p.w = width;
  p.h = height;
  p.eb = eb;
  p.k = static_cast<unsigned>(std::countr_zero(eb));
  p.pos.assign(N, kNone);
  const uint8_t* base = probe.data() + offset_B;
  const uint64_t slots = (probe.size() - offset_B) / eb;
  p.data = base;
  p.size = probe.size() - offset_B;
  SWZ_TRY(read_probe(p, slots, N));

  TextureDesc desc;
  desc.width = width;
  desc.height = height;
  desc.format = format;
  InferResult r;
  r.elements_verified = N;
  r.bytes_verified_per_element = 4;
  uint64_t span = 0;
  for (uint64_t a : p.pos) span = std::max(span, a + eb);
  r.span_B = span;

  // Texel 0 holds index 0, as zero padding does: candidates for its address
  // are the first zero slot and the addresses linearity predicts from its
  // neighbours (in-block XOR of three texels), those that hold a zero.
  std::vector<uint64_t> zero_cands = {p.pos[0]};
  {
    auto holds_zero = [&](uint64_t a) { return p.holds_zero(a); };
    auto add = [&](uint64_t a) {
      if (holds_zero(a) && std::find(zero_cands.begin(), zero_cands.end(), a) == zero_cands.end())
        zero_cands.push_back(a);
    };
    if (width >= 4) add(p.A(1, 0) ^ p.A(2, 0) ^ p.A(3, 0));
    if (height >= 4) add(p.A(0, 1) ^ p.A(0, 2) ^ p.A(0, 3));
    if (width >= 2 && height >= 2) add(p.A(1, 0) ^ p.A(0, 1) ^ p.A(1, 1));
  }

  // The solver: every block split, cheapest first, checked on every texel.
  uint64_t best_agree = 0, best_bad = kNone;
  Solved best_wrong;
  bool have_wrong = false;
  ident::AddressTables best_tab;
  std::vector<uint64_t> best_pos0;
  for (uint64_t a0 : zero_cands) {
    if (r.solved_pattern) break;
    p.pos[0] = a0;
    std::vector<Solved> sols;
    const unsigned xmax = log2_ceil(width) + p.k, ymax = log2_ceil(height);
    for (unsigned e0 = p.k; e0 <= std::min(xmax + 4, 20u); ++e0)
      for (unsigned e1 = 0; e1 <= std::min(ymax + 4, 16u); ++e1) {
        if (e0 + e1 > 24 || p.A(0, 0) >= (uint64_t{1} << (e0 + e1))) continue;  // the immediate lies inside the block
        for (const auto& [rp, def] : row_pitches(p, e0, e1)) {
          Solved s;
          if (build(p, e0, e1, rp, def, &s)) sols.push_back(s);
        }
      }
    std::stable_sort(sols.begin(), sols.end(), [](const Solved& a, const Solved& b) {
      if (a.post_terms != b.post_terms) return a.post_terms < b.post_terms;
      if (a.xor_terms != b.xor_terms) return a.xor_terms < b.xor_terms;
      if (a.pitch_default != b.pitch_default) return a.pitch_default;
      return a.n < b.n;
    });
    for (const Solved& s : sols) {
      LayoutSpec spec;
      spec.kind = LayoutKind::Pattern;
      spec.pattern = s.pattern;
      spec.row_pitch_B = s.row_pitch_B;
      Layout L;
      if (!make_layout(desc, spec, &L).ok()) continue;
      ident::AddressTables t;
      if (!ident::make_tables(L, &t).ok()) continue;
      uint64_t bad;
      const uint64_t good = agree(p, t, &bad);
      if (bad == kNone) {
        r.pattern = s.pattern;
        r.solved_pattern = true;
        r.layout = "pattern:" + to_text(s.pattern);
        r.row_pitch_B = s.row_pitch_B;
        r.made = L;
        break;
      }
      if (!have_wrong || good > best_agree) {
        have_wrong = true;
        best_agree = good;
        best_bad = bad;
        best_wrong = s;
        best_tab = t;
        best_pos0 = {a0};
      }
    }
  }
  if (!r.solved_pattern && !best_pos0.empty()) p.pos[0] = best_pos0[0];

  // A built-in name that matches byte for byte wins (simplest first).
  match_builtin(p, format, width, height, &r);
  if (r.layout.empty()) {
    const std::string msg = no_match_message(p, N, have_wrong, best_wrong, best_bad, best_tab);
    return {Code::parse_error, msg};
  }
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace swz
