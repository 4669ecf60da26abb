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

/// Work of the calling thread's last check for shared bytes of an explicit
/// layout (src/core/shared_bytes.cpp).
struct SharedBytesWork {
  uint64_t box_groups = 0;   ///< overlapping groups decided by comparing boxes (one frame)
  uint64_t marked_runs = 0;  ///< byte runs marked in a bitmap (the other groups)
};
SharedBytesWork last_shared_bytes_work();

/// Largest number of byte runs one group may need in the bitmap check; a
/// group needing more is refused (Code::unsupported). Default 2^26 (about a
/// second); the fuzz harnesses lower it so that every input stays fast.
uint64_t shared_byte_run_limit();
void set_shared_byte_run_limit(uint64_t runs);

/// Clear values encoded by the calling thread's last clear_subresources call
/// (src/core/clear.cpp): one per clear and plane, however many subresources
/// the clear names.
uint64_t last_clear_encodes();

}  // namespace swz::detail
