// Explicit layouts: no two subresources on the same bytes (make_explicit_layout).
//
// Explicit placements come from drivers, containers and user parameters, so
// two subresources may be placed on the same bytes by mistake. Spans may
// overlap legitimately (mips packed into one tail block, mips sharing one
// surface), so subresources whose spans chain-overlap form a group, and each
// group is checked in one of two ways:
//
//  1. Same frame (the common case: mip tails, mip chains in one surface): every
//     member has the same offset, pattern, element size and row pitch, no
//     depth stacking, no postamble term above the block, and (when the group
//     spans more than one slice of blocks) the same depth pitch. Then all
//     members are boxes of one injective map (coordinates after the
//     pre-swizzle -> bytes: blocks row-major at pitches that hold the union
//     of the boxes, a bijection inside each block), so two members share a
//     byte exactly when their boxes intersect: a sweep over the boxes in
//     order of their first row, whatever the surface size.
//  2. Otherwise every byte run of every member is marked in a bitmap of the
//     group's span and a byte claimed twice is refused. This costs one step
//     per run (a run is 2^run_log2 bytes, often 16), so it is bounded: a group
//     needing more than shared_byte_run_limit() runs is refused with a message
//     (Code::unsupported) rather than taking minutes (marked run by run, the
//     mip tails of a 47 x 33554432 BC4 array in xbox360-tiled would take
//     that long; they are one frame, so case 1 compares their boxes).
#include <algorithm>
#include <atomic>
#include <bit>
#include <string>
#include <vector>

#include "core/addresser.hpp"
#include "core/layout_work.hpp"
#include "core/plan.hpp"
#include "swz/layout.hpp"

namespace swz {
namespace detail {

namespace {
std::atomic<uint64_t> g_run_limit{uint64_t{1} << 26};
thread_local SharedBytesWork t_shared_bytes_work;
}  // namespace

uint64_t shared_byte_run_limit() { return g_run_limit.load(std::memory_order_relaxed); }
void set_shared_byte_run_limit(uint64_t runs) { g_run_limit.store(runs, std::memory_order_relaxed); }
SharedBytesWork last_shared_bytes_work() { return t_shared_bytes_work; }

}  // namespace detail

namespace {

/// The box of a subresource in its adjusted coordinates (bytes of X after the
/// pre-swizzle, rows, slices): [lo, hi) per axis.
struct AdjBox {
  uint64_t lo[3], hi[3];
};

AdjBox adjusted_box(const SubresourceLayout& s) {
  AdjBox b;
  b.lo[0] = s.pre_swizzle[0];
  b.hi[0] = s.pre_swizzle[0] + uint64_t{s.width_el} * s.element_bytes;
  b.lo[1] = s.pre_swizzle[1];
  b.hi[1] = s.pre_swizzle[1] + s.height_el;
  b.lo[2] = s.pre_swizzle[2];
  b.hi[2] = s.pre_swizzle[2] + s.depth;
  return b;
}

bool same_plan(const Plan& a, const Plan& b) {
  return &a == &b || (a.element_bytes == b.element_bytes && a.pattern() == b.pattern());
}

}  // namespace

// Returns true when the group [g, e) of `order` is a same-frame group (case 1
// above) and *st holds the verdict; false when case 2 must check it.
static bool check_same_frame(const std::vector<SubresourceLayout>& subs,
                             const std::vector<std::shared_ptr<const Plan>>& plans, uint32_t samples,
                             const std::vector<uint32_t>& order, size_t g, size_t e, Status* st) {
  const SubresourceLayout& s0 = subs[order[g]];
  const Plan& p0 = *plans[order[g]];
  if (p0.high_mask || p0.stack_depth || p0.conditional_postamble || s0.stack_rows || s0.packed) return false;
  if (p0.block_bits < 32 && (uint64_t{p0.immediate} >> p0.block_bits)) return false;
  if (samples > (uint64_t{1} << p0.ext_log2[3])) return false;
  const uint64_t BB = p0.block_bytes;
  uint64_t bx_end = 0, by_end = 0, bz_end = 0;  // blocks of the union of the boxes, per axis
  struct Member {
    AdjBox box;
    uint32_t index;
  };
  std::vector<Member> m;
  m.reserve(e - g);
  for (size_t k = g; k < e; ++k) {
    const SubresourceLayout& s = subs[order[k]];
    if (s.offset != s0.offset || s.row_pitch != s0.row_pitch || s.stack_rows || s.packed ||
        !same_plan(*plans[order[k]], p0))
      return false;
    const AdjBox b = adjusted_box(s);
    if (b.hi[0] <= b.lo[0] || b.hi[1] <= b.lo[1] || b.hi[2] <= b.lo[2]) return false;
    bx_end = std::max(bx_end, ((b.hi[0] - 1) >> p0.ext_log2[0]) + 1);
    by_end = std::max(by_end, ((b.hi[1] - 1) >> p0.ext_log2[1]) + 1);
    bz_end = std::max(bz_end, ((b.hi[2] - 1) >> p0.ext_log2[2]) + 1);
    m.push_back({b, order[k]});
  }
  // The block placement base = bx * BB + by * row_pitch + bz * depth_pitch is
  // one-to-one on the union's blocks when each pitch holds the axis below it.
  if (bx_end > s0.row_pitch / BB) return false;
  if (bz_end > 1) {
    for (size_t k = g; k < e; ++k)
      if (subs[order[k]].depth_pitch_B != s0.depth_pitch_B) return false;
    if (by_end > s0.depth_pitch_B / s0.row_pitch) return false;
  }
  // Boxes in order of their first row; each is compared with the boxes that
  // start before its last row ends (every pair that meets is among them), at
  // most 2^26 comparisons (slices stacked in one surface cost one each).
  std::sort(m.begin(), m.end(), [](const Member& a, const Member& b) { return a.box.lo[1] < b.box.lo[1]; });
  uint64_t steps = 0;
  for (size_t a = 0; a < m.size(); ++a) {
    const AdjBox& A = m[a].box;
    for (size_t b = a + 1; b < m.size() && m[b].box.lo[1] < A.hi[1]; ++b) {
      if (++steps > (uint64_t{1} << 26)) return false;
      const AdjBox& B = m[b].box;
      uint64_t lo[3];
      bool meet = true;
      for (int c = 0; c < 3 && meet; ++c) {
        lo[c] = std::max(A.lo[c], B.lo[c]);
        meet = lo[c] < std::min(A.hi[c], B.hi[c]);
      }
      if (!meet) continue;
      // A shared byte: the corner of the intersection, as member a addresses it.
      const detail::SubresourceAddresser addr(subs[m[a].index], *plans[m[a].index]);
      const uint64_t at = addr.offset_B(lo[0] - A.lo[0], lo[1] - A.lo[1], lo[2] - A.lo[2], 0);
      *st = {Code::invalid_argument, "subresource " + std::to_string(std::max(m[a].index, m[b].index)) +
                                         " shares byte " + std::to_string(at) + " with subresource " +
                                         std::to_string(std::min(m[a].index, m[b].index)) +
                                         " (check the offsets and pre-swizzle origins)"};
      return true;
    }
  }
  *st = Status::Ok();
  return true;
}

Status Layout::check_no_shared_bytes(const Layout& L) {
  detail::t_shared_bytes_work = {};
  detail::SharedBytesWork& work = detail::t_shared_bytes_work;
  const uint32_t n = L.subresource_count();
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return L.subs_[a].offset < L.subs_[b].offset; });
  size_t g = 0;
  while (g < n) {
    // A group of subresources whose spans chain-overlap.
    uint64_t lo = L.subs_[order[g]].offset, hi = lo + L.subs_[order[g]].size;
    size_t e = g + 1;
    while (e < n && L.subs_[order[e]].offset < hi) {
      hi = std::max(hi, L.subs_[order[e]].offset + L.subs_[order[e]].size);
      ++e;
    }
    if (e - g > 1) {
      Status st;
      if (check_same_frame(L.subs_, L.sub_plans_, L.desc_.samples, order, g, e, &st)) {
        ++work.box_groups;
        if (!st.ok()) return st;
        g = e;
        continue;
      }
      if (hi - lo > (uint64_t{1} << 30))
        return {Code::unsupported,
                "subresources " + std::to_string(order[g]) + ".." + std::to_string(order[e - 1]) +
                    " have overlapping spans over more than 1 GiB; swz cannot verify that they share no bytes"};
      // The runs to mark, counted before any is marked.
      uint64_t runs = 0;
      for (size_t k = g; k < e; ++k) {
        const SubresourceLayout& s = L.subs_[order[k]];
        const Plan& p = *L.sub_plans_[order[k]];
        const uint64_t row = uint64_t{s.width_el} * s.element_bytes;
        const uint64_t per_row = p.row_linear ? 2 : (row >> p.run_log2) + 2;
        const uint64_t rows = uint64_t{s.height_el} * s.depth * L.desc_.samples;
        const uint64_t limit = detail::shared_byte_run_limit();
        if (per_row > limit || rows > limit || (runs += per_row * rows) > limit)
          return {Code::unsupported,
                  "subresources " + std::to_string(order[g]) + ".." + std::to_string(order[e - 1]) +
                      " overlap in memory without one common frame (offset, pattern, pitches); checking them for "
                      "shared bytes would take more than " +
                      std::to_string(limit) + " steps (byte runs); swz cannot verify them"};
      }
      std::vector<uint64_t> bits((hi - lo + 63) / 64, 0);
      for (size_t k = g; k < e; ++k) {
        const uint32_t i = order[k];
        const SubresourceLayout& s = L.subs_[i];
        const Plan& p = *L.sub_plans_[i];
        const uint64_t eb = s.element_bytes, row = uint64_t{s.width_el} * eb;
        const uint64_t run = p.row_linear ? row : (uint64_t{1} << p.run_log2);
        const detail::SubresourceAddresser addr(s, p);
        for (uint64_t z = 0; z < s.depth; ++z)
          for (uint64_t y = 0; y < s.height_el; ++y)
            for (uint32_t samp = 0; samp < L.desc_.samples; ++samp) {
              uint64_t x = 0;
              while (x < row) {
                const uint64_t xa = x + s.pre_swizzle[0];
                const uint64_t len = std::min(row - x, run - (xa & (run - 1)));
                const uint64_t a = addr.offset_B(x, y, z, samp) - lo;
                ++work.marked_runs;
                // Mark [a, a + len) a word at a time; a bit already set is a shared byte.
                for (uint64_t b = a; b < a + len;) {
                  const uint64_t bit = b & 63, take = std::min<uint64_t>(64 - bit, a + len - b);
                  const uint64_t m = (take == 64 ? ~uint64_t{0} : ((uint64_t{1} << take) - 1)) << bit;
                  uint64_t& w = bits[b >> 6];
                  if (w & m)
                    return {Code::invalid_argument,
                            "subresource " + std::to_string(i) + " shares byte " +
                                std::to_string(lo + b + static_cast<uint64_t>(std::countr_zero(w & m)) - bit) +
                                " with another subresource placed over the same memory (check the offsets)"};
                  w |= m;
                  b += take;
                }
                x += len;
              }
            }
      }
    }
    g = e;
  }
  return Status::Ok();
}

}  // namespace swz
