// identify(): rank built-in layouts for a dump of an ordinary image
// (include/swz/identify.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>

#include "identify/identification.hpp"
#include "identify/internal.hpp"
#include "swz/identify.hpp"

namespace swz::ident {

// Candidates that hold the texture within the dump.
Status Identification::collect_candidates() {
  uint64_t smallest_need = UINT64_MAX;
  std::string smallest_name;
  for (const CandidateName& n : ident::candidate_names(format, width, height)) {
    Cand c;
    c.name = n;
    if (!ident::make_candidate(n, format, width, height, &c.layout).ok()) continue;
    // A dump that ends early still shows the layout in the bytes it has:
    // layouts of which at least half is present are ranked on those bytes.
    if (c.layout.size() > avail) {
      if (c.layout.size() < smallest_need) {
        smallest_need = c.layout.size();
        smallest_name = n.name;
      }
      if (c.layout.size() / 2 > avail) continue;
      c.short_B = c.layout.size() - avail;
    }
    if (!ident::make_tables(c.layout, &c.tab).ok()) continue;
    cands.push_back(std::move(c));
  }
  if (cands.empty()) {
    std::string msg = "no layout fits: the dump has " + std::to_string(avail) + " bytes after the offset";
    if (smallest_need != UINT64_MAX)
      msg += "; the smallest layout tried ('" + smallest_name + "') needs " + std::to_string(smallest_need) +
             " (at least half of a layout must be present)";
    else
      msg += "; no built-in layout supports " + std::string(format.name) + " at " + std::to_string(width) + "x" +
             std::to_string(height);
    return {Code::out_of_range, msg};
  }
  return Status::Ok();
}

// Random texel pairs (the same positions for every candidate).
void Identification::draw_randoms() {
  randoms.resize(2048);
  for (auto& r : randoms) r = {rng.below(width), rng.below(height), rng.below(width), rng.below(height)};
}

// Mean difference of the random texel pairs as candidate `t` decodes them.
double Identification::norm_of(const AddressTables& t) const {
  uint64_t s = 0;
  uint64_t n = 0;
  for (const auto& r : randoms) {
    const uint64_t a = t.at(r[0], r[1]), b = t.at(r[2], r[3]);
    if (!sc.has(a) || !sc.has(b)) continue;
    s += sc.diff(a, b);
    ++n;
  }
  return n ? std::max(1.0, static_cast<double>(s) / static_cast<double>(n)) : 1.0;
}

// Padding: the most frequent element value of the dump (zeros, usually),
// when it is frequent. A layout that decodes more of it than the best one
// loses the difference in score: a wrong layout over a sparse dump (a wide
// pitch) decodes mostly smooth padding.
void Identification::find_padding() {
  const uint64_t slots = avail / eb;
  const int n = 4096;
  std::vector<std::array<uint8_t, 16>> seen(n);
  for (auto& v : seen) {
    v.fill(0);
    std::memcpy(v.data(), sc.data + (rng.next() % slots) * eb, eb);
  }
  std::sort(seen.begin(), seen.end());
  int best_run = 0;
  size_t best_at = 0;
  for (size_t i = 0, j; i < seen.size(); i = j) {
    for (j = i; j < seen.size() && seen[j] == seen[i]; ++j) {
    }
    if (static_cast<int>(j - i) > best_run) {
      best_run = static_cast<int>(j - i);
      best_at = i;
    }
  }
  if (best_run * 20 >= n) pad_value.assign(seen[best_at].begin(), seen[best_at].begin() + eb);
}

double Identification::padding_fraction(const AddressTables& t) const {
  if (pad_value.empty()) return 0.0;
  uint32_t hits = 0;
  for (const auto& r : randoms)
    for (uint64_t a : {t.at(r[0], r[1]), t.at(r[2], r[3])}) hits += sc.has(a) && is_padding(sc.data + a);
  return hits / (2.0 * static_cast<double>(randoms.size()));
}

// Texels a short dump does not hold count against a layout: a decode is
// judged only where it can be seen.
double Identification::missing_fraction(const AddressTables& t) const {
  uint32_t misses = 0;
  for (const auto& r : randoms)
    for (uint64_t a : {t.at(r[0], r[1]), t.at(r[2], r[3])}) misses += !sc.has(a);
  return misses / (2.0 * static_cast<double>(randoms.size()));
}

void Identification::find_padding_and_missing() {
  find_padding();
  pad.resize(cands.size());
  miss.resize(cands.size());
  for (size_t i = 0; i < cands.size(); ++i) {
    pad[i] = padding_fraction(cands[i].tab);
    miss[i] = missing_fraction(cands[i].tab);
  }
  pad_min = *std::min_element(pad.begin(), pad.end());
}

// Normaliser: random pairs of the dump's elements that are not padding
// (the image's texels, whatever the layout); else the median over the
// candidates of their random texel pairs (one constant, so that padding
// a layout decodes does not change it).
void Identification::find_norm() {
  {
    const uint64_t slots = avail / eb;
    std::vector<uint64_t> texel_at;  // non-padding elements
    for (int tries = 0; tries < (1 << 20) && texel_at.size() < 4096; ++tries) {
      const uint64_t a = (rng.next() % slots) * eb;
      if (pad_value.empty() || std::memcmp(sc.data + a, pad_value.data(), eb) != 0) texel_at.push_back(a);
    }
    uint64_t sum = 0, pairs_n = 0;
    for (size_t i = 0; i + 1 < texel_at.size(); i += 2, ++pairs_n) sum += sc.diff(texel_at[i], texel_at[i + 1]);
    if (pairs_n >= 64) norm = std::max(1.0, static_cast<double>(sum) / static_cast<double>(pairs_n));
  }
  if (norm <= 1.0) {
    std::vector<double> norms;
    for (const Cand& c : cands) norms.push_back(norm_of(c.tab));
    std::nth_element(norms.begin(), norms.begin() + norms.size() / 2, norms.end());
    norm = std::max(1.0, norms[norms.size() / 2]);
  }
}

// Sample: per seam level (x+1 = 2^t * odd, y+1 likewise), up to P pairs.
void Identification::sample_pairs() {
  const uint32_t P = 320;
  for (int axis = 0; axis < 2; ++axis) {
    const uint32_t len = axis ? height : width, other = axis ? width : height;
    for (unsigned t = 0; t < 31 && (1u << t) < len; ++t) {
      const uint32_t odd_count = (((len - 1) >> t) + 1) / 2;
      if (!odd_count) continue;
      const uint64_t total = uint64_t{odd_count} * other;
      const uint32_t take = static_cast<uint32_t>(std::min<uint64_t>(P, total));
      for (uint32_t i = 0; i < take; ++i) {
        uint64_t k = total <= P ? i : rng.next() % total;
        const uint32_t m = static_cast<uint32_t>(k % odd_count), o = static_cast<uint32_t>(k / odd_count);
        const uint32_t c = ((2 * m + 1) << t) - 1;
        pairs.push_back(axis ? Pair{o, c, levels, true} : Pair{c, o, levels, false});
      }
      ++levels;
    }
  }
}

// Sampled score and signature of one candidate. `xr` is XORed into the
// in-block address (the AMD pipe/bank XOR sweep).
double Identification::sampled(const AddressTables& t, uint32_t xr, uint64_t* sig_out) {
  std::fill(lsum.begin(), lsum.end(), 0.0);
  std::fill(lcnt.begin(), lcnt.end(), 0);
  uint64_t h = 0x12345;
  for (const Pair& p : pairs) {
    const uint64_t a = t.at(p.x, p.y) ^ xr;
    const uint64_t b = (p.vertical ? t.at(p.x, p.y + 1) : t.at(p.x + 1, p.y)) ^ xr;
    h = mix(mix(h, a), b);
    if (!sc.has(a) || !sc.has(b)) continue;
    lsum[p.level] += sc.diff(a, b);
    ++lcnt[p.level];
  }
  if (sig_out) {  // the random texels too: tiny textures have few pairs
    for (size_t r = 0; r < 64 && r < randoms.size(); ++r) h = mix(h, t.at(randoms[r][0], randoms[r][1]) ^ xr);
    *sig_out = h;
  }
  return combine(lsum, lcnt, norm);
}

// Sampled score and signature of every candidate.
void Identification::score_sampled() {
  lsum.assign(levels, 0.0);
  lcnt.assign(levels, 0);
  score.resize(cands.size());
  sig.resize(cands.size());
  for (size_t i = 0; i < cands.size(); ++i) score[i] = sampled(cands[i].tab, 0, &sig[i]) - penalty(i);
}

// AMD pipe/bank XOR (pbxor=N: N << 8 XORed into the block): swept for the
// best few AMD candidates; a value that beats the plain layout is added.
void Identification::sweep_pbxor() {
  // Only modes that take the XOR: the _X/_T modes up to GFX11 (addrlib
  // ignores or refuses it on the others), and GFX12's.
  auto takes_pbxor = [](const std::string& n) {
    const std::string fam = n.substr(0, n.find(':'));
    const bool xor_mode =
        fam.size() > 2 && (fam.compare(fam.size() - 2, 2, "-x") == 0 || fam.compare(fam.size() - 2, 2, "-t") == 0);
    return xor_mode || fam.rfind("amd-gfx12-", 0) == 0;
  };
  std::vector<size_t> amd;
  for (size_t i = 0; i < cands.size(); ++i)
    if (cands[i].name.name.rfind("amd-", 0) == 0 && takes_pbxor(cands[i].name.name) &&
        block_bits_of(cands[i].layout) > 8 && cands[i].tab.base == 0 && cands[i].short_B == 0)
      amd.push_back(i);
  std::stable_sort(amd.begin(), amd.end(), [&](size_t a, size_t b) { return score[a] > score[b]; });
  std::vector<uint64_t> seen_sig;
  uint32_t budget = 3072;  // values of N tried in all
  for (size_t i : amd) {
    if (seen_sig.size() >= 8) break;
    if (std::find(seen_sig.begin(), seen_sig.end(), sig[i]) != seen_sig.end()) continue;
    const unsigned nb = block_bits_of(cands[i].layout);
    if ((1u << (nb - 8)) > budget) continue;
    budget -= 1u << (nb - 8);
    seen_sig.push_back(sig[i]);
    const AddressTables& t = cands[i].tab;
    // Pairs inside one 256-byte chunk keep their difference for every N:
    // sum them once; re-read only the pairs that cross chunks.
    std::vector<double> fixed_sum(levels, 0.0);
    std::vector<uint64_t> fixed_cnt(levels, 0);
    struct Cross {
      uint64_t a, b;
      uint16_t level;
    };
    std::vector<Cross> cross;
    for (const Pair& p : pairs) {
      const uint64_t a = t.at(p.x, p.y), b = p.vertical ? t.at(p.x, p.y + 1) : t.at(p.x + 1, p.y);
      ++fixed_cnt[p.level];
      if ((a >> 8) == (b >> 8))
        fixed_sum[p.level] += sc.diff(a, b);
      else
        cross.push_back({a, b, p.level});
    }
    std::vector<uint64_t> texels;  // for the padding fraction of each N
    for (size_t r = 0; r < randoms.size() && texels.size() < 512; ++r)
      texels.push_back(t.at(randoms[r][0], randoms[r][1]));
    auto pad_of = [&](uint32_t xr) {
      if (pad_value.empty()) return 0.0;
      uint32_t hits = 0;
      for (uint64_t a : texels) hits += std::memcmp(sc.data + (a ^ xr), pad_value.data(), eb) == 0;
      return hits / static_cast<double>(texels.size());
    };
    const double pad0 = pad_of(0);
    double best = score[i] + 0.002;  // (a layout with the whole texture present: no XOR moves a texel out)
    uint32_t best_v = 0;
    for (uint32_t v = 1; v < (1u << (nb - 8)); ++v) {
      const uint32_t xr = v << 8;
      lsum = fixed_sum;
      for (const Cross& c : cross) lsum[c.level] += sc.diff(c.a ^ xr, c.b ^ xr);
      const double sv = combine(lsum, fixed_cnt, norm) - penalty(i) - (pad_of(xr) - pad0);
      if (sv > best) {
        best = sv;
        best_v = v;
      }
    }
    if (!best_v) continue;
    Cand c;
    c.name = cands[i].name;
    c.name.name +=
        (c.name.name.find(':') == std::string::npos ? ":" : ",") + std::string("pbxor=") + std::to_string(best_v);
    c.name.params += 1;
    // addrlib keeps only the mode's pipe and bank bits (GFX10+): a value
    // with other bits set names a layout it would not build.
    if (!ident::make_candidate(c.name, format, width_px, height_px, &c.layout).ok() || c.layout.size() > avail ||
        c.layout.patterns().empty() || (c.layout.patterns()[0].immediate >> 8) != best_v ||
        !ident::make_tables(c.layout, &c.tab).ok())
      continue;
    uint64_t sg;
    pad.push_back(padding_fraction(c.tab));
    const double miss_i = miss[i];
    miss.push_back(miss_i);
    cands.push_back(std::move(c));
    score.push_back(sampled(cands.back().tab, 0, &sg) - penalty(cands.size() - 1));
    sig.push_back(sg);
  }
}

// Groups of candidates equal on the sample; simplest name first; best
// sampled score first.
std::vector<Group> Identification::group_by_signature() const {
  std::map<uint64_t, size_t> by_sig;
  std::vector<Group> groups;
  for (size_t i = 0; i < cands.size(); ++i) {
    auto [it, fresh] = by_sig.emplace(sig[i], groups.size());
    if (fresh) {
      groups.push_back({});
      groups.back().score = score[i];
    }
    groups[it->second].members.push_back(i);
  }
  for (Group& g : groups)
    std::stable_sort(g.members.begin(), g.members.end(),
                     [&](size_t a, size_t b) { return ident::simpler(cands[a].name, cands[b].name); });
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.score > b.score; });
  return groups;
}

// Full decode of the best `full_n` groups: split members that differ
// outside the sample, then score every texel pair. The groups past the full
// decode follow, with their sampled scores.
// Textures past `texels` texels are scored on every row_step-th row (odd,
// so that every seam level of y still appears) and the row below it, and on
// the last row.
uint32_t Identification::row_step(uint64_t texels) const {
  return static_cast<uint32_t>((uint64_t{width} * height / texels) | 1);
}

double Identification::decode_score(const AddressTables& t, double* lost_fraction, uint64_t texels_max) const {
  std::vector<uint16_t> xl(width), yl(height);
  uint16_t lv = 0;
  std::vector<uint16_t> xlev(32, 0), ylev(32, 0);
  for (unsigned b = 0; b < 31 && (1u << b) < width; ++b) xlev[b] = lv++;
  for (unsigned b = 0; b < 31 && (1u << b) < height; ++b) ylev[b] = lv++;
  for (uint32_t x = 0; x + 1 < width; ++x) xl[x] = xlev[ctz32(x + 1)];
  for (uint32_t y = 0; y + 1 < height; ++y) yl[y] = ylev[ctz32(y + 1)];
  std::vector<uint64_t> rowa(width), rowb(width);
  std::vector<double> sum(lv);
  std::vector<uint64_t> cnt(lv);
  double lost = 0;
  uint64_t texels = 0;
  const uint32_t step = row_step(texels_max);
  // The rows y = 0, step, 2 * step, ... and the last row: the image's edges
  // tell a decode at the right offset from one shifted by whole rows.
  for (uint32_t y = 0; y < height; y = y + step < height || y + 1 == height ? y + step : height - 1) {
    const bool last = y + 1 == height;
    for (uint32_t x = 0; x < width; ++x) rowa[x] = t.at(x, y);
    if (!last)
      for (uint32_t x = 0; x < width; ++x) rowb[x] = t.at(x, y + 1);
    for (uint32_t x = 0; x < width; ++x) {
      ++texels;
      if (!sc.has(rowa[x])) {
        lost += kMissingWeight;
        continue;
      }
      lost += is_padding(sc.data + rowa[x]);
      if (x + 1 < width && sc.has(rowa[x + 1])) {
        sum[xl[x]] += sc.diff(rowa[x], rowa[x + 1]);
        ++cnt[xl[x]];
      }
      if (!last && sc.has(rowb[x])) {
        sum[yl[y]] += sc.diff(rowa[x], rowb[x]);
        ++cnt[yl[y]];
      }
    }
  }
  if (lost_fraction) *lost_fraction = lost / static_cast<double>(std::max<uint64_t>(1, texels));
  return combine(sum, cnt, norm);
}

std::vector<Group> Identification::full_decode(std::vector<Group>& groups, size_t full_n) const {
  std::vector<Group> finals;
  const uint32_t step = row_step(kFullDecodeTexels);
  for (size_t gi = 0; gi < full_n; ++gi) {
    Group& g = groups[gi];
    std::map<uint64_t, size_t> sub;  // full hash -> index into finals
    const size_t cap = 64;
    for (size_t k = 0; k < g.members.size(); ++k) {
      const size_t i = g.members[k];
      uint64_t h = 0;
      if (g.members.size() > 1 && k < cap) {
        const AddressTables& t = cands[i].tab;
        for (uint32_t y = 0; y < height; y += step)
          for (uint32_t x = 0; x < width; ++x) h = mix(h, t.at(x, y));
      }
      auto [it, fresh] = sub.emplace(h, finals.size());
      if (fresh) {
        Group ng;
        ng.full = true;
        finals.push_back(ng);
      }
      finals[it->second].members.push_back(i);
    }
  }
  for (Group& g : finals) g.score = decode_score(cands[g.members.front()].tab, nullptr, kFullDecodeTexels) - penalty(g.members.front());
  std::stable_sort(finals.begin(), finals.end(), [](const Group& a, const Group& b) { return a.score > b.score; });
  // Groups past the full decode keep their sampled score, below the decoded ones.
  for (size_t gi = full_n; gi < groups.size(); ++gi) finals.push_back(groups[gi]);
  return finals;
}

Status Identification::prepare(std::span<const uint8_t> dump, uint64_t at_B) {
  offset_B = at_B;
  avail = dump.size() - at_B;
  eb = format.element_bytes;
  // Every sample is drawn from the dump's whole elements: there must be one.
  if (avail < eb)
    return {Code::out_of_range, "the dump holds " + std::to_string(avail) + " bytes after offset " +
                                    std::to_string(at_B) + ", less than one element of " + format.name + " (" +
                                    std::to_string(eb) + " bytes)"};
  SWZ_TRY(collect_candidates());
  // From here on, the texture is its grid of elements (4x4 blocks for BC,
  // texel pairs for the 4:2:2 formats), as the address tables are.
  width = (width_px + format.block_width - 1) / format.block_width;
  height = (height_px + format.block_height - 1) / format.block_height;
  sc.at(dump.data() + at_B, avail);
  sc.span = eb;
  sc.feat = feature_bytes(format);
  detail::BlockKind kind;
  if (format.block_compressed() && block_kind_of(format, &kind)) sc.use_blocks(kind, dump.data() + at_B, avail);
  draw_randoms();
  find_padding_and_missing();
  find_norm();
  sample_pairs();
  return Status::Ok();
}

Status rank_at(std::span<const uint8_t> dump, const FormatInfo& format, uint32_t width_px, uint32_t height_px,
               uint64_t offset_B, const IdentifyOptions& opt, std::vector<IdentifyCandidate>* out,
               double* pad_min) {
  Identification id(format, width_px, height_px);
  SWZ_TRY(id.prepare(dump, offset_B));
  if (pad_min) *pad_min = id.pad_min;
  id.score_sampled();
  id.sweep_pbxor();
  std::vector<Group> groups = id.group_by_signature();
  const size_t full_n = std::min(groups.size(), static_cast<size_t>(std::max(opt.full_decode, opt.top)));
  const std::vector<Group> finals = id.full_decode(groups, full_n);
  for (const Group& g : finals) {
    if (out->size() >= opt.top) break;
    const Cand& c = id.cands[g.members.front()];
    IdentifyCandidate r;
    r.score = g.score;
    r.layout = c.name.name;
    r.equivalents = static_cast<uint32_t>(g.members.size() - 1);
    r.offset_B = offset_B;
    r.short_B = c.short_B;
    out->push_back(std::move(r));
  }
  return Status::Ok();
}

}  // namespace swz::ident

namespace swz {

using ident::AddressTables;

Status decode_linear(std::span<const uint8_t> dump, const Layout& layout, uint64_t offset_B,
                     std::vector<uint8_t>* out, uint64_t* missing_el) {
  if (offset_B > dump.size())
    return {Code::out_of_range, "offset = " + std::to_string(offset_B) + " is past the end of the dump (" +
                                    std::to_string(dump.size()) + " bytes)"};
  if (!missing_el && layout.size() > dump.size() - offset_B)
    return {Code::buffer_too_small, "layout '" + layout.name() + "' needs " + std::to_string(layout.size()) +
                                        " bytes after the offset; the dump has " +
                                        std::to_string(dump.size() - offset_B)};
  AddressTables t;
  SWZ_TRY(ident::make_tables(layout, &t));
  const uint32_t eb = layout.sub(0).element_bytes;
  const uint32_t w = layout.sub(0).width_el, h = layout.sub(0).height_el;
  out->resize(size_t{w} * h * eb);
  const uint8_t* src = dump.data() + offset_B;
  const uint64_t avail = dump.size() - offset_B;
  uint64_t missing = 0;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      uint8_t* to = out->data() + (size_t{y} * w + x) * eb;
      const uint64_t a = t.at(x, y);
      if (a < avail && avail - a >= eb) {
        std::memcpy(to, src + a, eb);
      } else {
        std::memset(to, 0, eb);
        ++missing;
      }
    }
  if (missing_el) *missing_el = missing;
  return Status::Ok();
}

Status identify(std::span<const uint8_t> dump, const FormatInfo& format, uint32_t width, uint32_t height,
                const IdentifyOptions& opt, std::vector<IdentifyCandidate>* out) {
  if (!out) return {Code::invalid_argument, "out = null"};
  out->clear();
  if (width == 0 || height == 0)
    return {Code::invalid_argument, "size = " + std::to_string(width) + "x" + std::to_string(height) +
                                        " (width and height must be at least 1)"};
  if (format.element_bytes == 0 || format.element_bytes > 16 || format.planes != 1)
    return {Code::invalid_argument,
            std::string("format ") + format.name + ": identify needs a single-plane format of 1..16 bytes per element"};
  if (opt.top == 0 || opt.top > 1000)
    return {Code::invalid_argument, "top = " + std::to_string(opt.top) + " (1..1000)"};
  if (opt.offset_B >= dump.size())
    return {Code::out_of_range, "offset = " + std::to_string(opt.offset_B) + " is at or past the end of the dump (" +
                                    std::to_string(dump.size()) + " bytes)"};
  if (opt.offset_step_B == 0) return ident::rank_at(dump, format, width, height, opt.offset_B, opt, out, nullptr);
  std::vector<uint64_t> offsets;
  SWZ_TRY(ident::search_offsets(dump, format, width, height, opt, &offsets));
  // The best few offsets, each ranked in full; one line per layout, at its
  // best offset. Each ranking charges padding beyond the least any of its
  // candidates decodes; across offsets the least of all rankings is the
  // reference, so that an offset whose every decode reads padding loses.
  std::vector<IdentifyCandidate> all;
  std::vector<std::pair<size_t, double>> runs;  // (first index in all, the ranking's least padding)
  for (uint64_t o : offsets) {
    std::vector<IdentifyCandidate> at;
    double pad_min = 0;
    if (!ident::rank_at(dump, format, width, height, o, opt, &at, &pad_min).ok()) continue;
    runs.emplace_back(all.size(), pad_min);
    all.insert(all.end(), at.begin(), at.end());
  }
  double least = 1;
  for (const auto& r : runs) least = std::min(least, r.second);
  for (size_t k = 0; k < runs.size(); ++k) {
    const size_t end = k + 1 < runs.size() ? runs[k + 1].first : all.size();
    for (size_t i = runs[k].first; i < end; ++i) all[i].score -= runs[k].second - least;
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const IdentifyCandidate& a, const IdentifyCandidate& b) { return a.score > b.score; });
  for (IdentifyCandidate& c : all) {
    if (out->size() >= opt.top) break;
    const bool seen = std::any_of(out->begin(), out->end(), [&](const IdentifyCandidate& o) { return o.layout == c.layout; });
    if (!seen) out->push_back(std::move(c));
  }
  if (out->empty()) return ident::rank_at(dump, format, width, height, opt.offset_B, opt, out, nullptr);
  return Status::Ok();
}

}  // namespace swz
