// Work counters of the calling thread's last make_layout call (internal; for
// tests that bound the work of layout building without timing it).
#pragma once
#include <cstdint>

namespace swz::detail {

struct LayoutWork {
  uint64_t placed = 0;         ///< subresources whose geometry was computed (slices of one mip share it)
  uint64_t walked_blocks = 0;  ///< blocks visited by the postamble walks
};

/// The counters of the last make_layout call on this thread.
LayoutWork last_layout_work();

}  // namespace swz::detail
