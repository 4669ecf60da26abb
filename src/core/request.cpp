// The capability table and the overlap rule (core/request.hpp).
#include "core/request.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>

#include "core/checked_math.hpp"
#include "core/plan.hpp"

namespace swz::detail {
namespace {

// What each operation accepts. `msaa`: 0 refused, 1 allowed, 2 required.
struct Capability {
  Operation op;
  const char* name;
  bool packed_tail;       ///< may touch a packed mip tail subresource
  int msaa;               ///< 0 refuses samples > 1, 1 allows them, 2 requires them
  bool stacked_depth;     ///< may touch a stacked-depth subresource
  bool pre_swizzle;       ///< may touch a subresource with pre-swizzle offsets
  const char* msaa_note;  ///< why MSAA is refused or required
  Code msaa_code = Code::unsupported;  ///< the code of that refusal
};

// CONDITIONAL_POSTAMBLE_XORS is refused by every operation: the DDI leaves
// its meaning unspecified, so no address of such a pattern is known.
constexpr Capability kCapabilities[] = {
    {Operation::SubresourceCopy, "copy", false, 0, true, true,
     "D3D12 refuses MSAA resources in WriteToSubresource/ReadFromSubresource"},
    {Operation::RegionCopy, "region copy", false, 0, true, true, "MSAA region copies are not supported"},
    {Operation::TileCopy, "copy_tiles", false, 0, false, false, "copy_tiles: MSAA resources are not supported"},
    {Operation::Clear, "clear", false, 1, true, true, ""},
    {Operation::ResolveSource, "resolve", false, 2, true, true, "a resolve needs a multisampled source (samples > 1)",
     Code::invalid_argument},
    {Operation::ResolveDest, "resolve", false, 0, true, true,
     "the destination of a resolve must be single-sampled (samples = 1)", Code::invalid_argument},
    {Operation::Address, "address query", false, 1, true, true, ""},
    {Operation::Locate, "locate", true, 1, true, true, ""},
};

const Capability& row_of(Operation op) {
  for (const Capability& c : kCapabilities)
    if (c.op == op) return c;
  return kCapabilities[0];
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

const char* operation_name(Operation op) { return row_of(op).name; }

Status check_operation(const Layout& layout, uint32_t subresource, Operation op, const char* side) {
  // Messages are built only on a refusal: this runs on every copy call.
  auto at = [&] { return side && *side ? std::string(side) + " " : std::string(); };
  if (subresource >= layout.subresource_count()) {
    SubresourceLayout unused;
    const Status st = layout.subresource(subresource, &unused);
    return {st.code(), at() + st.message()};
  }
  const SubresourceLayout& s = layout.sub(subresource);
  const Capability& c = row_of(op);
  auto sub = [&] { return at() + "subresource " + std::to_string(subresource); };
  if (layout.plan(subresource).conditional_postamble)
    return {Code::unsupported, sub() + ": its pattern has the conditional-postamble flag (CONDITIONAL_POSTAMBLE_XORS), "
                                       "which the DDI leaves unspecified; swz will not guess its addresses (" +
                                       c.name + " refused)"};
  if (s.packed && !c.packed_tail)
    return {Code::unsupported, sub() + " is in the packed mip tail: its layout is adapter-specific, so swz will not " +
                                   (op == Operation::Address ? std::string("address it") : std::string(c.name) + " it")};
  const uint32_t samples = layout.desc().samples;
  if ((c.msaa == 0 && samples > 1) || (c.msaa == 2 && samples < 2))
    return {c.msaa_code, at() + "samples = " + std::to_string(samples) + ": " + c.msaa_note};
  if (s.stack_depth && !c.stacked_depth)
    return {Code::unsupported, std::string(c.name) + ": " + sub() + ": stacked-depth patterns have no 3D tile grid"};
  if ((s.pre_swizzle[0] || s.pre_swizzle[1] || s.pre_swizzle[2]) && !c.pre_swizzle)
    return {Code::unsupported,
            std::string(c.name) + ": " + sub() + " has pre-swizzle offsets (a mip tail): it has no whole-tile grid"};
  return Status::Ok();
}

bool memory_overlaps(const void* a, uint64_t na, const void* b, uint64_t nb) {
  // Compared by last bytes, saturated at the top of the address space: a size
  // given as "the rest of memory" (UINT64_MAX) must not wrap pb + nb to below
  // pa and make one buffer look like two.
  const uint64_t pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  if (!na || !nb) return false;
  const uint64_t la = na - 1 > UINT64_MAX - pa ? UINT64_MAX : pa + (na - 1);
  const uint64_t lb = nb - 1 > UINT64_MAX - pb ? UINT64_MAX : pb + (nb - 1);
  return pa <= lb && pb <= la;
}

std::string MemoryRange::name() const {
  std::string n = what;
  if (index != kNoIndex) {
    n += ' ';
    n += std::to_string(index);
  }
  n += suffix;
  return n;
}

namespace {
Status overlap_error(const MemoryRange& a, const MemoryRange& b) {
  return {Code::invalid_argument, "memory overlap: " + a.name() + " (" + std::to_string(a.size_B) + " bytes at " +
                                      hex(a.begin_B) + ") and " + b.name() + " (" + std::to_string(b.size_B) +
                                      " bytes at " + hex(b.begin_B) +
                                      ") share memory; swz refuses a call whose written memory overlaps memory it "
                                      "reads or writes elsewhere (use separate buffers)"};
}
// The last byte of a non-empty range; one that runs past the address space
// ends at its top. (An exclusive end cannot be written for a range holding
// the byte at 2^64-1: clamping it to 2^64-1 made that byte invisible.)
uint64_t last_of(const MemoryRange& m) {
  return m.size_B - 1 > UINT64_MAX - m.begin_B ? UINT64_MAX : m.begin_B + (m.size_B - 1);
}
}  // namespace

Status check_memory_disjoint(const MemoryRange& read, const MemoryRange& write) {
  if (!read.size_B || !write.size_B) return Status::Ok();
  if (read.begin_B <= last_of(write) && write.begin_B <= last_of(read)) return overlap_error(read, write);
  return Status::Ok();
}

Status check_memory_disjoint(std::span<const MemoryRange> reads, std::span<const MemoryRange> writes,
                             bool writes_may_share) {
  // Sweep in address order: a range overlaps an earlier-starting one exactly
  // when it starts at or before the largest last byte seen so far of that kind.
  struct Item {
    uint64_t begin, last;
    bool write;
    const MemoryRange* r;
  };
  std::vector<Item> items;
  items.reserve(reads.size() + writes.size());
  auto add = [&](std::span<const MemoryRange> v, bool w) {
    for (const MemoryRange& m : v)
      if (m.size_B) items.push_back({m.begin_B, last_of(m), w, &m});
  };
  add(writes, true);
  add(reads, false);
  std::stable_sort(items.begin(), items.end(), [](const Item& x, const Item& y) { return x.begin < y.begin; });
  const Item* far_write = nullptr;  // earlier write reaching furthest
  const Item* far_read = nullptr;
  for (const Item& it : items) {
    const Item* hit = nullptr;
    if (far_write && it.begin <= far_write->last && (!it.write || !writes_may_share)) hit = far_write;
    if (!hit && it.write && far_read && it.begin <= far_read->last) hit = far_read;
    if (hit) return overlap_error(*hit->r, *it.r);
    Item const*& far = it.write ? far_write : far_read;
    if (!far || it.last > far->last) far = &it;
  }
  return Status::Ok();
}

namespace {

// Range add / range max over [0, n): does any active span cover a row?
class MaxTree {
 public:
  explicit MaxTree(size_t n) : n_(std::max<size_t>(n, 1)), max_(4 * n_, 0), add_(4 * n_, 0) {}
  void add(size_t lo, size_t hi, int v) { update(1, 0, n_, lo, hi, v); }
  int max(size_t lo, size_t hi) const { return query(1, 0, n_, lo, hi); }

 private:
  void update(size_t node, size_t l, size_t r, size_t lo, size_t hi, int v) {
    if (hi <= l || r <= lo) return;
    if (lo <= l && r <= hi) {
      max_[node] += v;
      add_[node] += v;
      return;
    }
    const size_t m = (l + r) / 2;
    update(2 * node, l, m, lo, hi, v);
    update(2 * node + 1, m, r, lo, hi, v);
    max_[node] = add_[node] + std::max(max_[2 * node], max_[2 * node + 1]);
  }
  int query(size_t node, size_t l, size_t r, size_t lo, size_t hi) const {
    if (hi <= l || r <= lo) return 0;
    if (lo <= l && r <= hi) return max_[node];
    const size_t m = (l + r) / 2;
    return add_[node] + std::max(query(2 * node, l, m, lo, hi), query(2 * node + 1, m, r, lo, hi));
  }
  size_t n_;
  std::vector<int> max_, add_;
};

// One slice range of one span: rows [y0, y1) of slice range z, columns [x0, x1).
struct Piece {
  uint32_t sub;
  uint64_t z, x0, x1, y0, y1;
  size_t span;
  bool write;
};

}  // namespace

bool find_span_overlap(const std::vector<ElementSpan>& spans, size_t* a, size_t* b) {
  auto empty = [](const ElementSpan& s) { return s.x0 >= s.x1 || s.y0 >= s.y1 || s.z0 >= s.z1; };
  // Slices between two consecutive z boundaries (fronts and backs of the
  // spans of one subresource) hold the same spans: one piece per such slice
  // range, not per slice (1000 boxes of depth 2048 over the same slices are
  // 1000 pieces, not 2 million). A piece's z is the index of its range.
  std::vector<std::pair<uint32_t, uint64_t>> bounds;
  for (const ElementSpan& s : spans)
    if (!empty(s)) {
      bounds.emplace_back(s.subresource, s.z0);
      bounds.emplace_back(s.subresource, s.z1);
    }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  auto bound = [&](uint32_t sub, uint64_t z) {
    return static_cast<uint64_t>(std::lower_bound(bounds.begin(), bounds.end(), std::make_pair(sub, z)) -
                                 bounds.begin());
  };
  std::vector<Piece> pieces;
  for (size_t i = 0; i < spans.size(); ++i) {
    const ElementSpan& s = spans[i];
    if (empty(s)) continue;
    const uint64_t k1 = bound(s.subresource, s.z1);
    for (uint64_t k = bound(s.subresource, s.z0); k < k1; ++k)
      pieces.push_back({s.subresource, k, s.x0, s.x1, s.y0, s.y1, i, s.write});
  }
  // Group by (subresource, slice); within a group, sweep over x with the
  // active pieces' rows in two trees (written rows, read rows).
  std::sort(pieces.begin(), pieces.end(), [](const Piece& p, const Piece& q) {
    return std::tie(p.sub, p.z) < std::tie(q.sub, q.z);
  });
  size_t g0 = 0;
  while (g0 < pieces.size()) {
    size_t g1 = g0;
    while (g1 < pieces.size() && pieces[g1].sub == pieces[g0].sub && pieces[g1].z == pieces[g0].z) ++g1;
    const bool any_write = std::any_of(pieces.begin() + g0, pieces.begin() + g1, [](const Piece& p) { return p.write; });
    if (g1 - g0 > 1 && any_write) {
      std::vector<uint64_t> ys;
      for (size_t k = g0; k < g1; ++k) {
        ys.push_back(pieces[k].y0);
        ys.push_back(pieces[k].y1);
      }
      std::sort(ys.begin(), ys.end());
      ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
      auto rank = [&](uint64_t y) { return static_cast<size_t>(std::lower_bound(ys.begin(), ys.end(), y) - ys.begin()); };
      // Events: (x, 0 = end / 1 = start, piece); ends first at the same x (half-open columns).
      std::vector<std::tuple<uint64_t, int, size_t>> ev;
      ev.reserve(2 * (g1 - g0));
      for (size_t k = g0; k < g1; ++k) {
        ev.emplace_back(pieces[k].x0, 1, k);
        ev.emplace_back(pieces[k].x1, 0, k);
      }
      std::sort(ev.begin(), ev.end());
      MaxTree written(ys.size()), read(ys.size());
      for (const auto& [x, start, k] : ev) {
        const Piece& p = pieces[k];
        const size_t lo = rank(p.y0), hi = rank(p.y1);
        if (!start) {
          (p.write ? written : read).add(lo, hi, -1);
          continue;
        }
        const bool hit = written.max(lo, hi) > 0 || (p.write && read.max(lo, hi) > 0);
        if (hit) {
          // Name the partner: a piece of this group that overlaps p with a write on either side.
          for (size_t m = g0; m < g1; ++m) {
            const Piece& q = pieces[m];
            if (m == k || !(q.write || p.write) || q.span == p.span) continue;
            if (q.x0 < p.x1 && p.x0 < q.x1 && q.y0 < p.y1 && p.y0 < q.y1) {
              const bool p_first = p.write != q.write ? p.write : p.span < q.span;
              *a = p_first ? p.span : q.span;
              *b = p_first ? q.span : p.span;
              return true;
            }
          }
        }
        (p.write ? written : read).add(lo, hi, 1);
      }
    }
    g0 = g1;
  }
  return false;
}

bool same_placement(const Layout& a, const Layout& b) {
  if (&a == &b) return true;
  if (a.size() != b.size() || a.subresource_count() != b.subresource_count()) return false;
  const TextureDesc &da = a.desc(), &db = b.desc();
  if (da.samples != db.samples) return false;
  for (uint32_t i = 0; i < a.subresource_count(); ++i) {
    const SubresourceLayout &s = a.sub(i), &t = b.sub(i);
    if (s.offset != t.offset || s.size != t.size || s.row_pitch != t.row_pitch || s.depth_pitch_B != t.depth_pitch_B ||
        s.stack_rows != t.stack_rows || s.element_bytes != t.element_bytes || s.width_el != t.width_el ||
        s.height_el != t.height_el || s.depth != t.depth || s.packed != t.packed)
      return false;
    for (int k = 0; k < 3; ++k)
      if (s.pre_swizzle[k] != t.pre_swizzle[k]) return false;
    if (&a.plan(i) != &b.plan(i) && !(a.patterns()[s.pattern_slot] == b.patterns()[t.pattern_slot])) return false;
  }
  return true;
}

Status resolve_linear(uint64_t w_el, uint64_t h_el, uint64_t d, uint64_t element_B, uint64_t buffer_B,
                      uint64_t row_pitch_B, uint64_t depth_pitch_B, const char* name, LinearExtent* out,
                      const char* extent) {
  uint64_t row, t, slice, need;
  if (!mul_ok(w_el, element_B, &row)) return {Code::overflow, std::string(name) + " row size does not fit in 64 bits"};
  if (row_pitch_B == 0) row_pitch_B = row;
  if (h_el > 1 && row_pitch_B < row)
    return {Code::invalid_argument, std::string(name) + " row pitch = " + std::to_string(row_pitch_B) +
                                        " is smaller than a row of the " + extent + " (" + std::to_string(row) +
                                        " bytes)"};
  if (!mul_ok(h_el - 1, row_pitch_B, &t) || !add_ok(t, row, &slice))
    return {Code::overflow, std::string(name) + " slice size does not fit in 64 bits"};
  if (depth_pitch_B == 0 && !mul_ok(h_el > 1 ? row_pitch_B : row, h_el, &depth_pitch_B))
    return {Code::overflow, std::string(name) + " tight depth pitch does not fit in 64 bits"};
  if (d > 1 && depth_pitch_B < slice)
    return {Code::invalid_argument, std::string(name) + " depth pitch = " + std::to_string(depth_pitch_B) +
                                        " is smaller than a slice of the " + extent + " (" + std::to_string(slice) +
                                        " bytes)"};
  if (!mul_ok(d - 1, depth_pitch_B, &t) || !add_ok(t, slice, &need))
    return {Code::overflow, std::string(name) + " size does not fit in 64 bits"};
  if (buffer_B < need)
    return {Code::buffer_too_small,
            std::string(name) + " buffer is " + std::to_string(buffer_B) + " bytes; the " + extent + " needs " +
                std::to_string(need)};
  out->row_B = row;
  out->row_pitch_B = h_el > 1 ? row_pitch_B : row;
  out->slice_B = slice;
  out->depth_pitch_B = d > 1 ? depth_pitch_B : slice;
  out->used_B = need;
  return Status::Ok();
}

}  // namespace swz::detail
