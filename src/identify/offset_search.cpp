// Where in a dump a texture starts (IdentifyOptions::offset_step_B): every
// distinct candidate decode is scored quickly at every offset of the search
// grid, and the offsets where some layout decodes best are handed back to be
// ranked in full (identify.cpp).
//
// The quick score is identify()'s score on a fixed subsample: up to
// kPairsPerLevel neighbour pairs per seam level, minus the fraction of a few
// random texels that decode as the dump's padding value or lie past its end.
// A decode shifted by whole blocks is nearly as smooth as the right one, so
// each decode keeps several offsets; the best decodes' offsets are scored
// again on the whole sample, and the best few of those over every texel,
// before the best offsets are ranked in full.
// Candidates that give the same addresses on the sample give the same decode
// at every offset, so each such group is scored once.
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_set>

#include "identify/identification.hpp"

namespace swz::ident {
namespace {

constexpr uint32_t kPairsPerLevel = 12;
constexpr size_t kPenaltyTexels = 32;
constexpr size_t kKeptPerDecode = 8;   // offsets each decode keeps from the quick score
constexpr size_t kDecodesRefined = 8;  // decodes whose kept offsets are scored on the whole sample
constexpr size_t kDecodesDecoded = 3;  // of those, decodes whose kept offsets are scored over every texel
constexpr size_t kOffsetsRanked = 3;   // offsets ranked in full
// A quick score stops after a quarter of its pairs when it is below the
// larger of kEarlyBar (identify's noise level) and the best quick score so
// far less kEarlyMargin: such a decode is noise or padding at that offset.
constexpr double kEarlyBar = 0.1;
constexpr double kEarlyMargin = 0.3;
// Texels of each tier-3 decode (a subsample of rows past it).
constexpr uint64_t kEdgeDecodeTexels = uint64_t{1} << 18;
// Bound on the quick scores' element reads (offsets x distinct decodes x
// reads per decode): a few seconds of work at most. Reads of a large texture
// scatter over the dump and miss the caches (about 20 ns each), and a smooth
// dump stops no decode early, so every read counted here may happen.
constexpr uint64_t kMaxReads = uint64_t{1} << 28;

struct Best {
  double score = -1e300;
  uint64_t offset_B = 0;
};

}  // namespace

Status search_offsets(std::span<const uint8_t> dump, const FormatInfo& format, uint32_t width_px, uint32_t height_px,
                      const IdentifyOptions& opt, std::vector<uint64_t>* out) {
  out->clear();
  const uint64_t step = opt.offset_step_B, el_B = format.element_bytes;
  if (step % el_B != 0)
    return {Code::invalid_argument, "offset_step = " + std::to_string(step) + " is not a multiple of the element size (" +
                                        std::to_string(el_B) + " bytes of " + format.name + ")"};
  Identification id(format, width_px, height_px);
  SWZ_TRY(id.prepare(dump, opt.offset_B));

  // One candidate per distinct decode.
  id.lsum.assign(id.levels, 0.0);
  id.lcnt.assign(id.levels, 0);
  std::vector<size_t> reps;
  std::unordered_set<uint64_t> seen;
  for (size_t i = 0; i < id.cands.size(); ++i) {
    uint64_t sg = 0;
    id.sampled(id.cands[i].tab, 0, &sg);
    if (seen.insert(sg).second) reps.push_back(i);
  }
  // The quick sample, level by level in turn, so that any prefix of it
  // covers every level.
  std::vector<std::vector<Pair>> by_level(id.levels);
  for (const Pair& p : id.pairs)
    if (by_level[p.level].size() < kPairsPerLevel) by_level[p.level].push_back(p);
  std::vector<Pair> quick;
  for (uint32_t i = 0; i < kPairsPerLevel; ++i)
    for (const std::vector<Pair>& l : by_level)
      if (i < l.size()) quick.push_back(l[i]);
  const size_t early_n = quick.size() / 4;
  const size_t texels_n = std::min(kPenaltyTexels / 2, id.randoms.size());

  const uint64_t span_B = dump.size() - opt.offset_B;
  const uint64_t offsets_n = (span_B - 1) / step + 1;
  const uint64_t reads_per_decode = 2 * quick.size() + 2 * texels_n;
  const uint64_t max_offsets = std::max<uint64_t>(1, kMaxReads / std::max<uint64_t>(1, reps.size() * reads_per_decode));
  if (offsets_n > max_offsets) {
    // The smallest step, in whole elements, that the bound accepts from this start.
    const uint64_t fits = (span_B - 1) / max_offsets + 1;
    const uint64_t step_ok = (fits + el_B - 1) / el_B * el_B;
    return {Code::invalid_argument,
            "offset_step = " + std::to_string(step) + " gives " + std::to_string(offsets_n) + " offsets for " +
                std::to_string(reps.size()) + " distinct layouts, more than the search's bound of " +
                std::to_string(max_offsets) + " offsets: give a step of at least " + std::to_string(step_ok) +
                ", or a start offset nearer the texture"};
  }

  // Tier 1: the quick score of every distinct decode at every offset; each
  // keeps its kKeptPerDecode best offsets.
  std::vector<std::vector<Best>> kept(reps.size());
  auto keep = [](std::vector<Best>& v, Best b) {
    if (v.size() == kKeptPerDecode && b.score <= v.back().score) return;
    if (v.size() == kKeptPerDecode) v.pop_back();
    v.insert(std::upper_bound(v.begin(), v.end(), b, [](const Best& x, const Best& y) { return x.score > y.score; }), b);
  };
  std::vector<double> sum(id.levels);
  std::vector<uint64_t> cnt(id.levels);
  // The score of decode t at the scorer's offset on `pairs` and `texels`
  // random texel pairs; when the first early_n pairs already score below
  // `bar`, that partial score (the decode is noise or padding here).
  auto score_at = [&](const AddressTables& t, const std::vector<Pair>& pairs, size_t texels, double bar) {
    double lost = 0;  // texels that are padding or past the end
    for (size_t i = 0; i < texels; ++i)
      for (int k = 0; k < 2; ++k) {
        const uint64_t a = t.at(id.randoms[i][2 * k], id.randoms[i][2 * k + 1]);
        if (!id.sc.has(a))
          lost += kMissingWeight;
        else
          lost += id.is_padding(id.sc.data + a);
      }
    lost /= static_cast<double>(std::max<size_t>(1, 2 * texels));
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(cnt.begin(), cnt.end(), 0);
    for (size_t i = 0; i < pairs.size(); ++i) {
      if (i == early_n && combine(sum, cnt, id.norm) - lost < bar) break;
      const Pair& p = pairs[i];
      const uint64_t a = t.at(p.x, p.y), b = p.vertical ? t.at(p.x, p.y + 1) : t.at(p.x + 1, p.y);
      if (!id.sc.has(a) || !id.sc.has(b)) continue;
      sum[p.level] += id.sc.diff(a, b);
      ++cnt[p.level];
    }
    return combine(sum, cnt, id.norm) - lost;
  };
  double best_seen = -1e300;
  for (uint64_t k = 0; k < offsets_n; ++k) {
    const uint64_t at_B = opt.offset_B + k * step, avail = dump.size() - at_B;
    id.sc.at(dump.data() + at_B, avail);
    for (size_t r = 0; r < reps.size(); ++r) {
      const Cand& c = id.cands[reps[r]];
      if (c.layout.size() / 2 > avail) continue;
      const double bar = std::max(kEarlyBar, best_seen - kEarlyMargin);
      const double s = score_at(c.tab, quick, texels_n, bar);
      best_seen = std::max(best_seen, s);
      keep(kept[r], {s, at_B});
    }
  }
  // Tier 2: the best decodes' kept offsets again, on the whole sample; then
  // tier 3: the best few of those decodes over every texel at each kept
  // offset (a shift by whole blocks or rows differs from the right offset
  // only at the image's edges).
  std::vector<size_t> order(reps.size());
  for (size_t r = 0; r < order.size(); ++r) order[r] = r;
  auto top_score = [&](size_t r) { return kept[r].empty() ? -1e300 : kept[r].front().score; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return top_score(a) > top_score(b); });
  struct Refined {
    double score;
    size_t rep;
  };
  std::vector<Refined> refined;
  for (size_t i = 0; i < order.size() && i < kDecodesRefined && !kept[order[i]].empty(); ++i) {
    double best_r = -1e300;
    for (const Best& b : kept[order[i]]) {
      id.sc.at(dump.data() + b.offset_B, dump.size() - b.offset_B);
      best_r = std::max(best_r, score_at(id.cands[reps[order[i]]].tab, id.pairs, id.randoms.size(), -1e300));
    }
    refined.push_back({best_r, order[i]});
  }
  std::stable_sort(refined.begin(), refined.end(), [](const Refined& a, const Refined& b) { return a.score > b.score; });
  std::vector<Best> decoded;
  for (size_t i = 0; i < refined.size() && i < kDecodesDecoded; ++i) {
    Best best_d;
    for (const Best& b : kept[refined[i].rep]) {
      id.sc.at(dump.data() + b.offset_B, dump.size() - b.offset_B);
      double lost = 0;
      const double s = id.decode_score(id.cands[reps[refined[i].rep]].tab, &lost, kEdgeDecodeTexels) - lost;
      if (s > best_d.score) best_d = {s, b.offset_B};
    }
    decoded.push_back(best_d);
  }
  std::stable_sort(decoded.begin(), decoded.end(), [](const Best& a, const Best& b) { return a.score > b.score; });
  for (const Best& b : decoded)
    if (out->size() < kOffsetsRanked && std::find(out->begin(), out->end(), b.offset_B) == out->end())
      out->push_back(b.offset_B);
  return Status::Ok();
}

}  // namespace swz::ident
