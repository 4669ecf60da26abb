// Locator::make: builds the decoders, the span index, the shared shapes and
// the owner tables that locate (core/locate.cpp) reads.
#include <algorithm>
#include <array>
#include <map>
#include <mutex>

#include "core/locator.hpp"
#include "swz/copy.hpp"
#include "core/checked_math.hpp"
#include "core/request.hpp"

namespace swz {

namespace detail {
namespace {

/// Everything of a DecodeShape but the subresource index: subresources with
/// the same key (the slices of one mip) decode with one shared shape.
std::array<uint64_t, 24> shape_key(const DecodeShape& k) {
  return {reinterpret_cast<uintptr_t>(k.plan),
          reinterpret_cast<uintptr_t>(k.inv_tab),
          k.frame.pre[0],
          k.frame.pre[1],
          k.frame.pre[2],
          k.frame.stack_rows,
          k.frame.row_pitch_B,
          k.frame.depth_pitch_B,
          k.row_magic,
          k.depth_magic,
          k.block_bits,
          k.ext_log2[0],
          k.ext_log2[1],
          k.ext_log2[2],
          k.inv_bytes,
          k.in_mask,
          k.immediate_in,
          k.width_el,
          k.height_el,
          k.depth,
          k.samples,
          k.element_bytes,
          static_cast<uint64_t>(static_cast<int64_t>(k.element_log2)),
          uint64_t{k.verify} | uint64_t{k.high_into_block} << 1};
}

/// Byte tables of a plan's in-block inverse: row k * 256 + v is the XOR of
/// inverse[8k + b] over the set bits b of v.
std::vector<std::array<uint32_t, 4>> inverse_tables(const Plan& p) {
  const unsigned bytes = (p.block_bits + 7) / 8;
  std::vector<std::array<uint32_t, 4>> t(size_t{bytes} * 256);
  for (unsigned k = 0; k < bytes; ++k)
    for (unsigned v = 1; v < 256; ++v) {
      const unsigned low = static_cast<unsigned>(std::countr_zero(v));
      const unsigned bit = 8 * k + low;
      std::array<uint32_t, 4> r = t[k * 256 + (v & (v - 1))];
      if (bit < p.block_bits)
        for (int ch = 0; ch < 4; ++ch) r[static_cast<size_t>(ch)] ^= p.inverse[bit][ch];
      t[k * 256 + v] = r;
    }
  return t;
}

}  // namespace
}  // namespace detail

struct Layout::LocatorCache {
  std::once_flag once;
  std::shared_ptr<const Locator::Impl> impl;
};

std::shared_ptr<Layout::LocatorCache> detail::new_locator_cache() { return std::make_shared<Layout::LocatorCache>(); }

namespace {
/// log2 of the bytes of an aligned group that subresource i's elements cover whole: the element
/// bytes' power-of-two part, the pre-swizzle X origin's, and the plan's contiguous run (its address
/// bits below run_log2 are X's own bits, with no XOR terms and no immediate on them). So for
/// g = 2^result, the g-aligned bytes x_B..x_B + g - 1 of one element land on g consecutive
/// addresses starting at a multiple of g (pitches are multiples of the block), and every byte of
/// an aligned address group belongs to the same element or to none of subresource i.
unsigned whole_group_log2(const Layout& L, uint32_t i) {
  const SubresourceLayout& s = L.sub(i);
  const Plan& p = L.plan(i);
  unsigned t = std::min<unsigned>(p.run_log2, static_cast<unsigned>(std::countr_zero(s.element_bytes)));
  if (s.pre_swizzle[0]) t = std::min<unsigned>(t, static_cast<unsigned>(std::countr_zero(s.pre_swizzle[0])));
  return std::min(t, 16u);
}

/// Locator::Impl::owner_of_segment: for each shared segment of the span index whose candidates
/// (the subresources whose hold span covers it) are at most 255, none packed, and small enough to
/// enumerate, a table of owners built with the forward rule: every element of every candidate,
/// in index order, marks its groups in the segment that are still free (the lowest index wins
/// where two have an element at one byte, as in locate_in). Segments whose candidates decode with
/// the same shapes from the same distance before the segment (the slices of an AMD array in one
/// frame, whose shapes build_locator shares) have the same table: it is built once. Bounded: at
/// most 2^20 groups (one byte each) per table and 2^24 in all, and 2^21 element groups
/// enumerated; segments past the bounds keep the search.
void build_owner_tables(const Layout& L, Locator::Impl* impl) {
  const std::vector<detail::SpanIndex::Segment>& segs = impl->spans.segments();
  impl->owner_of_segment.assign(segs.size(), Locator::Impl::SharedOwner{});
  const uint32_t n = L.subresource_count();
  const uint64_t samples = L.desc().samples;
  constexpr uint64_t kTableGroups = uint64_t{1} << 20, kAllGroups = uint64_t{1} << 24;
  constexpr uint64_t kEnumerated = uint64_t{1} << 21;  // about 0.03 s of CPU at most (Release)
  std::vector<uint64_t> chunks_of(n, 0);  // element groups of subresource i (0: packed)
  std::vector<unsigned> gran(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (L.sub(i).packed) continue;
    gran[i] = whole_group_log2(L, i);
    const SubresourceLayout& s = L.sub(i);
    chunks_of[i] = uint64_t{s.width_el} * s.height_el * s.depth * samples * (s.element_bytes >> gran[i]);
  }
  std::map<std::vector<uint64_t>, size_t> table_of_key;
  uint64_t groups_all = 0, enumerated = 0;
  for (size_t j = 0; j < segs.size(); ++j) {
    const detail::SpanIndex::Segment& sg = segs[j];
    if (sg.kind != detail::SpanIndex::kShared) continue;
    const uint64_t o = sg.start_B;
    const size_t hi = static_cast<size_t>(std::upper_bound(impl->sorted_start.begin(), impl->sorted_start.end(), o) -
                                          impl->sorted_start.begin());
    std::vector<uint32_t> cands;
    bool ok = true;
    for (size_t q = hi; q-- > 0 && impl->max_end[q] > o;) {
      const uint32_t i = impl->by_start[q];
      const detail::SpanIndex::Span& h = impl->hold[i];
      if (o - h.start_B >= h.size_B) continue;
      if (L.sub(i).packed || cands.size() == 255) ok = false;
      cands.push_back(i);
    }
    if (!ok || cands.size() < 2) continue;
    std::sort(cands.begin(), cands.end());
    unsigned g = 16;
    uint64_t work = 0;
    for (uint32_t i : cands) {
      g = std::min(g, gran[i]);
      work += chunks_of[i];
    }
    const uint64_t first = sg.start_B >> g, groups = ((sg.end_B - 1) >> g) - first + 1;
    // The table's key: what fixes which candidate has an element at each byte of the segment.
    std::vector<uint64_t> key{sg.end_B - sg.start_B, sg.start_B & ((uint64_t{1} << g) - 1), g};
    for (uint32_t i : cands) {
      const Locator::Impl::Direct& f = impl->direct[i];
      key.push_back(f.shape ? reinterpret_cast<uintptr_t>(f.shape) : ~uint64_t{i});
      key.push_back(sg.start_B - f.start_B);
    }
    const auto known = table_of_key.find(key);
    size_t t = 0;
    if (known != table_of_key.end()) {
      t = known->second;
    } else {
      if (groups > kTableGroups || groups_all + groups > kAllGroups || enumerated + work > kEnumerated) continue;
      groups_all += groups;
      enumerated += work;
      std::vector<uint8_t> rank(static_cast<size_t>(groups), 0);
      for (size_t r = 0; r < cands.size(); ++r) {
        const uint32_t i = cands[r];
        const SubresourceLayout& s = L.sub(i);
        const detail::SubresourceAddresser a(s, L.plan(i));
        const uint64_t step = uint64_t{1} << gran[i], per = s.element_bytes >> gran[i];
        // The row's terms once per row: this loop runs up to kEnumerated times per layout, and the
        // first locate on a layout pays for it.
        for (uint32_t z = 0; z < s.depth; ++z)
          for (uint32_t y = 0; y < s.height_el; ++y)
            for (uint32_t smp = 0; smp < samples; ++smp) {
              const detail::SubresourceAddresser::Row row = a.row(y, z, smp);
              for (uint32_t x = 0; x < s.width_el; ++x)
                for (uint64_t c = 0; c < per; ++c) {
                  // The element's bytes [off, off + step) that lie in the segment.
                  const uint64_t off = a.offset_B(row, uint64_t{x} * s.element_bytes + c * step);
                  const uint64_t from = std::max(off, sg.start_B), to = std::min(off + step, sg.end_B);
                  for (uint64_t b = from >> g; from < to && b <= (to - 1) >> g; ++b) {
                    uint8_t& v = rank[static_cast<size_t>(b - first)];
                    if (!v) v = static_cast<uint8_t>(r + 1);
                  }
                }
            }
      }
      t = impl->owner_tables.size();
      impl->owner_tables.push_back(std::move(rank));
      table_of_key.emplace(std::move(key), t);
    }
    Locator::Impl::SharedOwner& w = impl->owner_of_segment[j];
    w.rank = impl->owner_tables[t].data();
    impl->owner_cands.push_back(std::move(cands));
    w.first_group = first;
    w.gran_log2 = g;
    w.pad_sub = sg.pad_sub;
  }
  // Candidate lists last: owner_cands no longer moves.
  for (size_t j = 0, q = 0; j < segs.size(); ++j)
    if (impl->owner_of_segment[j].rank) impl->owner_of_segment[j].cands = impl->owner_cands[q++].data();
  // Buckets wholly inside a segment with a table name it (sub = segment + 1 of a kNoHot entry):
  // the batch's tail offsets skip the span index's search.
  for (size_t b = 0; b < impl->hot_of_bucket.size(); ++b) {
    bool whole = false;
    const size_t j = impl->spans.bucket_segment(b, &whole);
    if (whole && impl->owner_of_segment[j].rank && impl->hot_of_bucket[b].shape == Locator::Impl::kNoHot)
      impl->hot_of_bucket[b].sub = static_cast<uint32_t>(j + 1);
  }
}

std::shared_ptr<const Locator::Impl> build_locator(const Layout& L,
                                                   const std::vector<std::shared_ptr<const Plan>>& plans);
}  // namespace

Status Locator::make(const Layout& layout, Locator* out) {
  if (!out) return {Code::invalid_argument, "out = null"};
  for (uint32_t i = 0; i < layout.subresource_count(); ++i)
    SWZ_TRY(detail::check_operation(layout, i, detail::Operation::Locate));
  if (!layout.locator_cache_) {
    out->impl_ = build_locator(layout, layout.sub_plans_);
    return Status::Ok();
  }
  Layout::LocatorCache& c = *layout.locator_cache_;
  std::call_once(c.once, [&] { c.impl = build_locator(layout, layout.sub_plans_); });
  out->impl_ = c.impl;
  return Status::Ok();
}

namespace {
/// Bytes from subresource i's offset to the start of its own bytes: the
/// whole-block base (docs/ARCHITECTURE.md rule 4) of its pre-swizzle origin
/// (rules 5-6), where its first row of blocks begins. AMD array slices
/// stacked in one frame share slice 0's offset and have origin Z = s: slice
/// s's bytes begin s depth pitches in. Padding bytes are reported against
/// the last subresource whose own bytes start at or before them. 0 for
/// packed subresources, and where the base does not lie inside the span.
uint64_t own_lead_B(const Layout& L, uint32_t i) {
  const SubresourceLayout& s = L.sub(i);
  if (s.packed) return 0;
  const Plan& p = L.plan(i);
  const detail::Adjusted a = detail::Frame::of(s).adjust(0, 0, 0);
  uint64_t terms[3] = {0, 0, 0}, lead = 0;
  const uint64_t blocks[3] = {a.x_B >> p.ext_log2[0], a.y >> p.ext_log2[1], a.z >> p.ext_log2[2]};
  const uint64_t strides[3] = {p.block_bytes, s.row_pitch, s.depth_pitch_B};
  for (int c = 0; c < 3; ++c)
    if (!detail::mul_ok(blocks[c], strides[c], &terms[c]) || !detail::add_ok(lead, terms[c], &lead))
      return 0;
  return lead < s.size ? lead : 0;
}

std::shared_ptr<const Locator::Impl> build_locator(const Layout& L,
                                                   const std::vector<std::shared_ptr<const Plan>>& sub_plans) {
  auto impl = std::make_shared<Locator::Impl>();
  impl->plans = sub_plans;
  impl->size_B = L.size();
  const uint32_t n = L.subresource_count();
  impl->subs.reserve(n);
  std::vector<const Plan*> plans;
  std::vector<size_t> table_of(n, SIZE_MAX);
  for (uint32_t i = 0; i < n; ++i) {
    impl->subs.emplace_back(L, i);
    if (L.sub(i).packed) continue;
    const Plan* p = &L.plan(i);
    const auto it = std::find(plans.begin(), plans.end(), p);
    table_of[i] = static_cast<size_t>(it - plans.begin());
    if (it == plans.end()) {
      plans.push_back(p);
      impl->tables.push_back(detail::inverse_tables(*p));
    }
  }
  for (uint32_t i = 0; i < n; ++i)
    if (table_of[i] != SIZE_MAX) impl->subs[i].k.inv_tab = impl->tables[table_of[i]].data();
  std::vector<detail::SpanIndex::Span> spans(n);
  for (uint32_t i = 0; i < n; ++i) {
    const detail::SubDecoder& d = impl->subs[i];
    const uint64_t lead = own_lead_B(L, i);
    // A direct subresource (no whole-block XOR terms) has no element before its own bytes: an
    // element's block base is at least the origin's (every block coordinate is), and the rest of
    // its address stays inside the block. So its span, for which subresources hold a byte, starts
    // there too: the slices of an AMD array in one frame then hold disjoint bytes (one decode per
    // offset, the bucket fast path) instead of every slice sharing slice 0's bytes.
    spans[i] = d.direct ? detail::SpanIndex::Span{d.start_B + lead, d.size_B - lead, 0}
                        : detail::SpanIndex::Span{d.start_B, d.size_B, lead};
  }
  // The search of locate_in over the same spans (sorted by start, then index).
  impl->hold.resize(n);
  for (uint32_t i = 0; i < n; ++i) impl->hold[i] = {spans[i].start_B, spans[i].size_B};
  impl->by_start.resize(n);
  for (uint32_t i = 0; i < n; ++i) impl->by_start[i] = i;
  std::stable_sort(impl->by_start.begin(), impl->by_start.end(),
                   [&](uint32_t a, uint32_t b) { return spans[a].start_B < spans[b].start_B; });
  impl->max_end.resize(n);
  impl->sorted_start.resize(n);
  for (uint32_t j = 0; j < n; ++j) impl->sorted_start[j] = spans[impl->by_start[j]].start_B;
  uint64_t m = 0;
  for (uint32_t j = 0; j < n; ++j) {
    const detail::SpanIndex::Span& h = spans[impl->by_start[j]];
    m = std::max(m, h.start_B + h.size_B);
    impl->max_end[j] = m;
  }
  impl->spans = detail::SpanIndex::build(spans, impl->size_B);
  std::map<std::array<uint64_t, 24>, size_t> shape_of;
  std::vector<size_t> which(n, SIZE_MAX);
  impl->direct.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const detail::SubDecoder& d = impl->subs[i];
    impl->direct[i].start_B = d.start_B;
    if (!d.direct) continue;
    // A Z origin that only moves whole slices of blocks (one-slice-deep blocks, no stacking, no Z
    // bit in G) is the same decode from a start that many depth pitches later: AMD array slices
    // in one frame then share their mip's shape (9 shapes instead of 2304 for 9 mips x 256
    // slices, so the shapes the random offsets read stay in cache).
    detail::DecodeShape k = d.k;
    const Plan& p = *k.plan;
    bool z_moves_slices = k.frame.pre[2] != 0 && k.frame.stack_rows == 0 && p.ext_log2[2] == 0 &&
                          k.frame.depth_pitch_B != 0 && k.frame.pre[2] < (uint64_t{1} << 32);
    for (unsigned b = 0; b < 32 && z_moves_slices; ++b) z_moves_slices = p.lin[2][b] == 0;
    uint64_t lead = 0;
    // Only up to its own start (own_lead_B): the offsets that reach this shape are at or after it.
    if (z_moves_slices && detail::mul_ok(k.frame.pre[2], k.frame.depth_pitch_B, &lead) &&
        lead <= own_lead_B(L, i)) {
      impl->direct[i].start_B = d.start_B + lead;
      k.frame.pre[2] = 0;
    }
    const auto [it, added] = shape_of.emplace(detail::shape_key(k), impl->shapes.size());
    if (added) impl->shapes.push_back(k);
    which[i] = it->second;
  }
  for (uint32_t i = 0; i < n; ++i)
    if (which[i] != SIZE_MAX) impl->direct[i].shape = &impl->shapes[which[i]];
  const detail::SpanIndex& ix = impl->spans;
  impl->hot_of_bucket.assign(ix.bucket_count(), Locator::Impl::HotBucket{});
  for (size_t b = 0; b < ix.bucket_count(); ++b) {
    bool whole = false;
    const size_t j = ix.bucket_segment(b, &whole);
    const detail::SpanIndex::Segment& s = ix.segments()[j];
    if (!whole || s.kind != detail::SpanIndex::kOne || s.pad_sub != s.sub || which[s.sub] == SIZE_MAX) continue;
    impl->hot_of_bucket[b] = {impl->direct[s.sub].start_B, static_cast<uint32_t>(which[s.sub]), s.sub};
  }
  uint64_t element_bytes = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (!L.sub(i).packed) element_bytes += packed_subresource_bytes(L.sub(i)) * L.desc().samples;
  impl->sparse = element_bytes < impl->size_B - impl->size_B / 8;
  build_owner_tables(L, impl.get());  // after hot_of_bucket, which it marks
  return impl;
}
}  // namespace

}  // namespace swz
