// Internal: which subresource spans hold a byte offset of a resource, found
// in constant time (the search step of locate, docs/ARCHITECTURE.md §2
// "Locate").
//
// The resource [0, size) is cut at every span's start, end and padding start
// into segments; within one segment the set of spans holding a byte and the
// last span whose padding starts at or before it are the same for every byte. A bucket table
// (offset >> shift -> first segment that reaches into the bucket) finds a
// segment with one load and, usually, no step: the shift is chosen so that
// there are about four buckets per segment (at least 4096, at most 2^20).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace swz::detail {

class SpanIndex {
 public:
  enum Kind : uint32_t {
    kGap = 0,     ///< no span holds these bytes: padding against pad_sub
    kOne = 1,     ///< exactly one span (sub) holds them
    kShared = 2,  ///< two or more spans hold them
  };
  struct Segment {
    uint64_t start_B = 0;  ///< the segment's first byte (the previous segment's end)
    uint64_t end_B = 0;    ///< one past the segment's last byte
    Kind kind = kGap;
    uint32_t sub = 0;      ///< kOne: the span that holds the bytes
    uint32_t pad_sub = 0;  ///< the last span (by start_B + lead_B, then index) whose padding starts at or before
                           ///< the bytes; 0 if none
  };
  struct Span {
    uint64_t start_B = 0, size_B = 0;
    /// The subresource's own bytes start lead_B bytes into the span (padding
    /// from there on is reported against it); see build.
    uint64_t lead_B = 0;
  };

  /// spans[i] is the span of subresource i (bytes from the resource's start;
  /// it may be empty, overlap others or reach past size_B). A byte that no
  /// subresource has an element at is padding against the last subresource
  /// (highest index among equals) whose start_B + lead_B is at or before it.
  static SpanIndex build(const std::vector<Span>& spans, uint64_t size_B);

  /// The segment holding `offset`; offset < the size given to build.
  const Segment& find(uint64_t offset) const {
    const std::size_t b = static_cast<std::size_t>(offset >> shift_);
    std::size_t j = first_[b];
    const std::size_t last = first_[b + 1];  // the segment holding the next bucket's first byte
    if (last - j > 8) {                      // many small segments in one bucket: bisect
      std::size_t lo = j, hi = last;         // segments[hi] reaches past offset
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (segments_[mid].end_B > offset)
          hi = mid;
        else
          lo = mid + 1;
      }
      return segments_[lo];
    }
    while (segments_[j].end_B <= offset) ++j;
    return segments_[j];
  }

  const std::vector<Segment>& segments() const { return segments_; }
  /// Buckets are the bytes [b << shift(), (b + 1) << shift()) of the resource.
  unsigned shift() const { return shift_; }
  /// The segment holding bucket b's first byte, and whether it holds the
  /// whole bucket (up to the end of the resource).
  std::size_t bucket_segment(std::size_t b, bool* whole) const {
    const std::size_t j = first_[b];
    const uint64_t lo = uint64_t{b} << shift_, last = segments_.back().end_B - 1;
    const uint64_t span = (uint64_t{1} << shift_) - 1;
    *whole = segments_[j].end_B > (last - lo < span ? last : lo + span);  // it holds the bucket's last byte
    return j;
  }
  std::size_t bucket_count() const { return first_.empty() ? 0 : first_.size() - 1; }

 private:
  std::vector<Segment> segments_;  ///< in offset order, covering [0, size); the last ends at size
  std::vector<uint32_t> first_;    ///< per bucket, then one more: the segment holding the bucket's first byte
  unsigned shift_ = 0;
};

}  // namespace swz::detail
