// locate and Locator::locate: the inverse of the address rule, one offset or
// a batch, over the tables that core/locator_build.cpp makes.
#include <algorithm>
#include <atomic>

#include "core/locator.hpp"
#include "core/parallel.hpp"

namespace swz {

namespace {
Status offset_past_end(uint64_t size_B, uint64_t offset) {
  return {Code::out_of_range, "offset = " + std::to_string(offset) + " is at or past the end of the resource (" +
                                  std::to_string(size_B) + " bytes)"};
}
}  // namespace

namespace {
// Locator::Impl's query; the caller checked offset < size. Returns the
// subresource whose span holds the offset when it is the only one, else null.
// Several subresources may share bytes (mips packed into one tail block); the batch asks here
// only for shared segments without an owner table (Impl::owner_of_segment):
// every subresource whose span (Impl::hold) holds the offset is tried, in index order, and
// the first that has an element there (or is packed) answers. A padding byte
// is reported against pad_sub (the span index's answer: the last subresource
// whose own bytes start at or before it).
const detail::SubDecoder* locate_in(const Locator::Impl& m, uint64_t offset, uint32_t pad_sub, Location* out) {
  // Subresources starting at or before the offset: by_start[0..hi).
  const size_t hi = static_cast<size_t>(std::upper_bound(m.sorted_start.begin(), m.sorted_start.end(), offset) -
                                        m.sorted_start.begin());
  Location pad;
  pad.padding = true;
  pad.subresource = pad_sub;
  *out = pad;
  if (hi == 0) return nullptr;
  // Those whose span holds the offset, tried in index order (usually one;
  // past eight, all subresources are scanned in index order).
  uint32_t cand[8];
  size_t nc = 0;
  for (size_t j = hi; j-- > 0 && m.max_end[j] > offset;) {
    const detail::SpanIndex::Span& d = m.hold[m.by_start[j]];
    if (offset - d.start_B >= d.size_B) continue;
    if (nc == 8) {
      for (const detail::SubDecoder& e : m.subs)
        if (e.start_B <= offset && offset - e.start_B < e.size_B) {
          Location hit;
          e.decode_or_pad(offset - e.start_B, &hit);
          if (!hit.padding) {
            *out = hit;
            break;
          }
        }
      return nullptr;
    }
    cand[nc++] = m.by_start[j];
  }
  for (size_t k = 1; k < nc; ++k)  // index order (insertion sort of at most 8)
    for (size_t j = k; j > 0 && cand[j - 1] > cand[j]; --j) std::swap(cand[j - 1], cand[j]);
  for (size_t k = 0; k < nc; ++k) {
    Location hit;
    m.subs[cand[k]].decode_or_pad(offset - m.subs[cand[k]].start_B, &hit);
    if (!hit.padding) {
      *out = hit;
      break;
    }
  }
  return nc == 1 ? &m.subs[cand[0]] : nullptr;
}
}  // namespace

Status Locator::locate(uint64_t offset, Location* out) const { return locate(&offset, 1, out); }

Status locate(const Layout& layout, uint64_t offset, Location* out) {
  if (!out) return {Code::invalid_argument, "out = null"};
  Locator l;
  SWZ_TRY(Locator::make(layout, &l));
  return l.locate(offset, out);
}

namespace {
// An offset in a shared segment with an owner table: one decode, or padding against the segment's
// pad_sub.
inline void locate_owned(const Locator::Impl& m, const Locator::Impl::SharedOwner& w, uint64_t o, Location* out) {
  const uint8_t r = w.rank[static_cast<size_t>((o >> w.gran_log2) - w.first_group)];
  if (r == 0) {
    Location pad;
    pad.padding = true;
    pad.subresource = w.pad_sub;
    *out = pad;
    return;
  }
  const uint32_t c = w.cands[r - 1];
  const Locator::Impl::Direct& f = m.direct[c];
  const uint64_t rel = o - f.start_B;
  const bool hit =
      f.shape ? detail::decode_at(*f.shape, c, rel, rel, out) : m.subs[c].decode(o - m.subs[c].start_B, out);
  if (!hit) locate_in(m, o, w.pad_sub, out);  // not reached when the table is right
}

// One offset inside the resource, through the span index: padding, one
// subresource to decode (the usual case, inlined), or several sharing the
// byte (locate_in decides).
[[gnu::always_inline]] inline void locate_one(const Locator::Impl& m, const detail::SpanIndex::Segment& seg, uint64_t o,
                                              Location* out) {
  if (seg.kind == detail::SpanIndex::kOne) {
    const Locator::Impl::Direct& f = m.direct[seg.sub];
    if (f.shape && seg.pad_sub == seg.sub) {
      detail::decode_write(*f.shape, seg.sub, o - f.start_B, out);
    } else {
      const detail::SubDecoder& d = m.subs[seg.sub];
      d.decode_or_pad(o - d.start_B, out);
      if (out->padding) out->subresource = seg.pad_sub;
    }
  } else if (seg.kind == detail::SpanIndex::kGap) {
    Location pad;
    pad.padding = true;
    pad.subresource = seg.pad_sub;
    *out = pad;
  } else {
    const Locator::Impl::SharedOwner& w = m.owner_of_segment[static_cast<size_t>(&seg - m.spans.segments().data())];
    if (w.rank)
      locate_owned(m, w, o, out);
    else
      locate_in(m, o, seg.pad_sub, out);
  }
}

// locate_one for the offsets that the bucket table does not answer, kept out
// of the hot loop.
[[gnu::noinline]] void locate_cold(const Locator::Impl& m, uint64_t o, uint32_t owned_segment, Location* out) {
  if (owned_segment)  // a bucket wholly inside a segment with an owner table
    locate_owned(m, m.owner_of_segment[owned_segment - 1], o, out);
  else
    locate_one(m, m.spans.find(o), o, out);
}

// Locator's batch over offsets that are all inside the resource, in chunks
// of kChunk. A chunk whose offsets all lie in one segment held by one
// subresource (and reported against it when padding) starts a run: it and
// the offsets after it that stay in the segment are decoded with the
// subresource's shape in registers (sequential sweeps). In any other chunk
// each offset goes through the bucket table: a bucket wholly inside one
// subresource gives its start and shared shape (one decode), any other
// bucket the span index (locate_cold). After a chunk that is not a run, the
// run test waits 1, 2, 4 ... 64 chunks, so random offsets over many
// subresources pay it rarely and have no per-offset run test to mispredict.

template <bool kSparse>
void locate_batch_as(const Locator::Impl& m, const uint64_t* offsets, uint64_t n, Location* out) {
  constexpr uint64_t kChunk = 16;
  const unsigned shift = m.spans.shift();
  const Locator::Impl::HotBucket* const hot_of_bucket = m.hot_of_bucket.data();
  const detail::DecodeShape* const shapes = m.shapes.data();
  uint64_t skip = 0, backoff = 0;  // chunks to go before the next run test; the next wait
  for (uint64_t i = 0; i < n;) {
    const uint64_t e = std::min(n, i + kChunk);
    if (skip == 0) {
      uint64_t lo = offsets[i], hi = lo;
      for (uint64_t j = i + 1; j < e; ++j) {
        lo = std::min(lo, offsets[j]);
        hi = std::max(hi, offsets[j]);
      }
      const detail::SpanIndex::Segment& first = m.spans.find(lo);
      if (first.kind == detail::SpanIndex::kOne && first.pad_sub == first.sub && hi < first.end_B) {
        uint64_t j = e;
        while (j < n && offsets[j] - first.start_B < first.end_B - first.start_B) ++j;
        m.subs[first.sub].decode_run(offsets + i, static_cast<size_t>(j - i), out + i);
        i = j;
        backoff = 0;
        continue;
      }
      // Not a run: test again after 1, 2, 4, ... 64 chunks.
      backoff = std::min<uint64_t>(backoff ? 2 * backoff : 1, 64);
      skip = backoff;
    } else {
      --skip;
    }
    // The chunk's bucket entries first: independent loads that overlap,
    // instead of each waiting behind the previous offset's decode.
    Locator::Impl::HotBucket t[kChunk];
    const uint64_t c = e - i;
    for (uint64_t j = 0; j < c; ++j) t[j] = hot_of_bucket[static_cast<size_t>(offsets[i + j] >> shift)];
    for (uint64_t j = 0; j < c; ++j) {
      const uint64_t o = offsets[i + j];
      if (t[j].shape == Locator::Impl::kNoHot) {
        locate_cold(m, o, t[j].sub, &out[i + j]);
        continue;
      }
      detail::decode_write<kSparse>(shapes[t[j].shape], t[j].sub, o - t[j].start_B, &out[i + j]);
    }
    i = e;
  }
}
void locate_batch(const Locator::Impl& m, const uint64_t* offsets, uint64_t n, Location* out) {
  if (m.sparse)
    locate_batch_as<true>(m, offsets, n, out);
  else
    locate_batch_as<false>(m, offsets, n, out);
}
}  // namespace

namespace {
// The first of offsets[b, e) at or past size_B, or e. The scan for one
// (the usual answer: none) has no early exit and no 64-bit compare (SSE2 has
// none), so it vectorises: o >= size_B exactly when o has its top bit set or
// size_B - 1 - o borrows (for sizes below 2^63; a larger size only makes
// the exact scan run).
uint64_t first_outside(const uint64_t* offsets, uint64_t b, uint64_t e, uint64_t size_B) {
  uint64_t past = 0;
  const uint64_t last = size_B - 1;
  for (uint64_t i = b; i < e; ++i) past |= offsets[i] | (last - offsets[i]);
  if (!(past >> 63)) return e;
  while (b < e && offsets[b] < size_B) ++b;
  return b;
}
}  // namespace

Status Locator::locate(const uint64_t* offsets, uint64_t n, Location* out) const {
  if (n && (!offsets || !out)) return {Code::invalid_argument, "locate: offsets and out must not be null"};
  if (!impl_) return {Code::invalid_argument, "the Locator was not made (use Locator::make)"};
  const Impl& m = *impl_;
  // Offsets are checked against the size block by block as they are located (no pass over the
  // whole batch first), in blocks of kBlock offsets: the block's offsets are still in cache when
  // they are located.
  constexpr uint64_t kBlock = uint64_t{1} << 13;
  // Large batches are split over threads: one per 2^16 offsets (about 1 ms of work on one core, against
  // tens of microseconds to start a thread), at most one per core. The threads take blocks from a shared
  // counter, so one that the system delays (a machine shared with other work) leaves its blocks to the
  // others instead of holding up the call.
  constexpr uint64_t kPerThread = uint64_t{1} << 16;
  const uint64_t parts = std::clamp<uint64_t>(n / kPerThread, 1, detail::hardware_threads());
  // One part runs on the calling thread (run_parts starts no thread for it).
  std::atomic<uint64_t> next{0}, first_bad{n};
  detail::run_parts(static_cast<size_t>(parts), [&](size_t) {
    for (;;) {
      const uint64_t b = next.fetch_add(kBlock, std::memory_order_relaxed);
      // Blocks after an offset past the end need not be located (the call fails); every block
      // before the first such offset is, since first_bad never drops below it.
      if (b >= n || b >= first_bad.load(std::memory_order_relaxed)) return;
      const uint64_t e = std::min(n, b + kBlock), g = first_outside(offsets, b, e, m.size_B);
      locate_batch(m, offsets + b, g - b, out + b);
      if (g < e) {
        uint64_t cur = first_bad.load(std::memory_order_relaxed);
        while (g < cur && !first_bad.compare_exchange_weak(cur, g, std::memory_order_relaxed)) {
        }
      }
    }
  });
  const uint64_t good = first_bad.load();  // offsets[0..good) are inside the resource
  if (good == n) return Status::Ok();
  Status st = offset_past_end(m.size_B, offsets[good]);
  return n > 1 ? Status(st.code(), st.message() + " (at index " + std::to_string(good) + ")") : st;
}

}  // namespace swz
