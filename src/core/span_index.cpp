// SpanIndex::build: the segments of a resource's subresource spans and the
// bucket table over them (see span_index.hpp).
#include "core/span_index.hpp"

#include <algorithm>

namespace swz::detail {

SpanIndex SpanIndex::build(const std::vector<Span>& spans, uint64_t size_B) {
  SpanIndex ix;
  if (size_B == 0) return ix;
  const uint32_t n = static_cast<uint32_t>(spans.size());
  auto end_of = [&](uint32_t i) {  // clamped to the resource; no overflow
    const Span& s = spans[i];
    if (s.start_B >= size_B) return size_B;
    return s.size_B >= size_B - s.start_B ? size_B : s.start_B + s.size_B;
  };
  auto pad_from = [&](uint32_t i) {  // where padding starts to be reported against span i; size_B if not inside
    const Span& s = spans[i];
    return s.lead_B >= size_B - s.start_B ? size_B : s.start_B + s.lead_B;
  };
  // Every place where the set of spans holding a byte, or the last span
  // whose padding starts at or before it, can change.
  std::vector<uint64_t> cut{0, size_B};
  for (uint32_t i = 0; i < n; ++i)
    if (spans[i].start_B < size_B) {
      cut.push_back(spans[i].start_B);
      cut.push_back(end_of(i));
      cut.push_back(pad_from(i));
    }
  std::sort(cut.begin(), cut.end());
  cut.erase(std::unique(cut.begin(), cut.end()), cut.end());
  const size_t pieces = cut.size() - 1;  // [cut[p], cut[p + 1])
  auto piece_of = [&](uint64_t off) {
    return static_cast<size_t>(std::lower_bound(cut.begin(), cut.end(), off) - cut.begin());
  };
  // How many spans hold each piece and the XOR of their indices (the index
  // itself when there is one), as differences at the span's first and
  // one-past-last piece; and the last span (by padding start, then index)
  // whose padding starts at each piece's start.
  std::vector<int64_t> count(pieces + 1, 0);
  std::vector<uint32_t> ids(pieces + 1, 0);
  std::vector<uint32_t> starting(pieces + 1, 0);
  std::vector<bool> has_start(pieces + 1, false);
  for (uint32_t i = 0; i < n; ++i) {
    if (spans[i].start_B >= size_B) continue;
    const uint64_t from = pad_from(i);
    if (from < size_B) {
      const size_t f = piece_of(from);
      starting[f] = i;  // increasing i: the highest index wins among equal starts
      has_start[f] = true;
    }
    if (spans[i].size_B == 0) continue;
    const size_t a = piece_of(spans[i].start_B);
    const size_t b = piece_of(end_of(i));
    ++count[a];
    --count[b];
    ids[a] ^= i;
    ids[b] ^= i;
  }
  int64_t held = 0;
  uint32_t x = 0, pad = 0;
  for (size_t p = 0; p < pieces; ++p) {
    held += count[p];
    x ^= ids[p];
    if (has_start[p]) pad = starting[p];
    Segment s;
    s.start_B = cut[p];
    s.end_B = cut[p + 1];
    s.kind = held == 0 ? kGap : held == 1 ? kOne : kShared;
    s.sub = held == 1 ? x : 0;
    s.pad_sub = pad;
    if (!ix.segments_.empty()) {
      Segment& prev = ix.segments_.back();
      if (prev.kind == s.kind && prev.sub == s.sub && prev.pad_sub == s.pad_sub) {
        prev.end_B = s.end_B;
        continue;
      }
    }
    ix.segments_.push_back(s);
  }
  // About four buckets per segment, at least 4096 and at most 2^20.
  const uint64_t target = std::clamp<uint64_t>(4 * uint64_t{ix.segments_.size()}, 4096, uint64_t{1} << 20);
  while (((size_B - 1) >> ix.shift_) + 1 > target) ++ix.shift_;
  const uint64_t buckets = ((size_B - 1) >> ix.shift_) + 1;
  ix.first_.resize(static_cast<size_t>(buckets) + 1);
  uint32_t j = 0;
  for (uint64_t b = 0; b < buckets; ++b) {
    const uint64_t lo = b << ix.shift_;
    while (ix.segments_[j].end_B <= lo) ++j;
    ix.first_[static_cast<size_t>(b)] = j;
  }
  ix.first_[static_cast<size_t>(buckets)] = static_cast<uint32_t>(ix.segments_.size() - 1);
  return ix;
}

}  // namespace swz::detail
