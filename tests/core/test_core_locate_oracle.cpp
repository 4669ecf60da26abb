// locate and Locator::locate against a brute-force oracle built from the
// forward address rule alone (the constant-time search):
//  - the oracle enumerates every element of every subresource through
//    element_offset() (the forward rule), then answers a byte offset by
//    scanning all subresources in index order: the first whose span holds the
//    byte and that is packed, or has an element covering it, answers; a byte
//    that none answers is padding against the last subresource whose own
//    bytes start at or before it (highest index among equal starts; 0 when
//    none starts before). A subresource's own bytes start at its offset plus
//    the whole-block base of its pre-swizzle origin (docs/ARCHITECTURE.md
//    rules 4-6): AMD array slices stacked in one frame all have slice 0's
//    offset, and slice s's own bytes start s depth pitches in;
//  - offsets: every byte of small resources; otherwise each subresource's
//    edges (start - 1 .. start + 1, end - 2 .. end + 1), random bytes, a
//    sequential sweep and bytes of random elements, queried in sorted and in
//    random order (the run path and the search path), and one at a time;
//    offsets at and past the end are refused with out_of_range;
//  - resources: random patterns with many mips and array slices, 3D with
//    mips, planar formats, the standard swizzles with packed D3D12 mip tails
//    (spans shared by several subresources), hardware families, and explicit
//    placements with gaps, a tail past the last subresource and overlapping
//    spans; and every byte of AMD arrays with full mip chains, whose tail
//    blocks (shared by several mips) the Locator answers from owner tables.
// SpanIndex (src/core/span_index.hpp) is checked on its own against a scan of
// random span lists (empty, overlapping, past the end, many small spans in
// one bucket, padding starts after the span's start).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/span_index.hpp"
#include "swz/swz.hpp"
#include "test_scale.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

struct Elem {
  uint64_t start_B;
  uint32_t sub, x, y, z, sample;
};

/// Where subresource i's own bytes start: its offset plus the whole-block base
/// (rule 4) of its origin, where element (0, 0, 0) lands after the pre-swizzle
/// (rule 5) and stacking (rule 6: z' = 0, and element z = 0 adds no rows).
/// The blocks before it belong to the subresources stacked before it.
uint64_t own_start(const Layout& L, uint32_t i) {
  const SubresourceLayout& s = L.sub(i);
  if (s.packed) return s.offset;
  const Pattern& p = L.patterns()[static_cast<size_t>(s.pattern_slot)];
  const std::array<uint64_t, 4> ext = p.block_extent();
  const uint64_t y = s.pre_swizzle[1], z = s.stack_rows ? 0 : s.pre_swizzle[2];
  const uint64_t lead = s.pre_swizzle[0] / ext[0] * (uint64_t{1} << p.block_bits()) + y / ext[1] * s.row_pitch +
                        z / ext[2] * s.depth_pitch_B;
  EXPECT_LT(lead, s.size) << "subresource " << i << " starts past its span";
  return s.offset + lead;
}

/// The brute-force inverse of a layout: every element's first byte by the
/// forward rule.
class Oracle {
 public:
  explicit Oracle(const Layout& L) : L_(L) {
    for (uint32_t i = 0; i < L.subresource_count(); ++i) own_.push_back(own_start(L, i));
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const SubresourceLayout& s = L.sub(i);
      max_eb_ = std::max<uint64_t>(max_eb_, s.element_bytes);
      if (s.packed) continue;
      for (uint32_t z = 0; z < s.depth; ++z)
        for (uint32_t y = 0; y < s.height_el; ++y)
          for (uint32_t x = 0; x < s.width_el; ++x)
            for (uint32_t smp = 0; smp < L.desc().samples; ++smp) {
              uint64_t off = 0;
              const Status st = element_offset(L, i, x, y, z, smp, &off);
              EXPECT_TRUE(st.ok()) << st.message();
              elems_.push_back({off, i, x, y, z, smp});
            }
    }
    std::sort(elems_.begin(), elems_.end(), [](const Elem& a, const Elem& b) {
      return a.start_B < b.start_B || (a.start_B == b.start_B && a.sub < b.sub);
    });
  }

  size_t element_count() const { return elems_.size(); }
  const std::vector<Elem>& elements() const { return elems_; }

  Location at(uint64_t o) const {
    // Elements covering o (their bytes are contiguous, docs/ARCHITECTURE.md rule 8).
    std::vector<const Elem*> cover;
    auto it =
        std::upper_bound(elems_.begin(), elems_.end(), o, [](uint64_t v, const Elem& e) { return v < e.start_B; });
    while (it != elems_.begin()) {
      --it;
      if (o - it->start_B >= max_eb_) break;
      if (o - it->start_B < L_.sub(it->sub).element_bytes) cover.push_back(&*it);
    }
    for (uint32_t i = 0; i < L_.subresource_count(); ++i) {
      const SubresourceLayout& s = L_.sub(i);
      if (o < s.offset || o - s.offset >= s.size) continue;
      Location r;
      if (s.packed) {
        r.packed = true;
        r.subresource = i;
        return r;
      }
      for (const Elem* e : cover)
        if (e->sub == i) {
          r.subresource = i;
          r.x = e->x;
          r.y = e->y;
          r.z = e->z;
          r.sample = e->sample;
          r.byte = static_cast<uint32_t>(o - e->start_B);
          return r;
        }
    }
    for (const Elem* e : cover)  // an element outside its subresource's span would be a layout bug
      ADD_FAILURE() << "element of subresource " << e->sub << " covers byte " << o << " outside its span";
    Location pad;
    pad.padding = true;
    uint64_t best = 0;
    bool any = false;
    for (uint32_t i = 0; i < L_.subresource_count(); ++i)
      if (own_[i] <= o && (!any || own_[i] >= best)) {
        any = true;
        best = own_[i];
        pad.subresource = i;
      }
    return pad;
  }

 private:
  const Layout& L_;
  std::vector<uint64_t> own_;  ///< own_start of each subresource
  std::vector<Elem> elems_;
  uint64_t max_eb_ = 1;
};

void expect_same(const Location& got, const Location& want, uint64_t off, const std::string& what) {
  ASSERT_EQ(got.padding, want.padding) << what << " offset " << off;
  ASSERT_EQ(got.packed, want.packed) << what << " offset " << off;
  ASSERT_EQ(got.subresource, want.subresource) << what << " offset " << off;
  ASSERT_EQ(got.x, want.x) << what << " offset " << off;
  ASSERT_EQ(got.y, want.y) << what << " offset " << off;
  ASSERT_EQ(got.z, want.z) << what << " offset " << off;
  ASSERT_EQ(got.sample, want.sample) << what << " offset " << off;
  ASSERT_EQ(got.byte, want.byte) << what << " offset " << off;
}

struct Counts {
  uint64_t elements = 0, padding = 0, packed = 0;
};

// Checks one layout; returns what kinds of answers it saw.
Counts check_against_oracle(const Layout& L, std::mt19937_64& rng, const std::string& what) {
  Counts c;
  const Oracle oracle(L);
  std::vector<uint64_t> offs;
  const uint64_t size = L.size();
  if (size <= (uint64_t{1} << 15)) {
    for (uint64_t o = 0; o < size; ++o) offs.push_back(o);
  } else {
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const uint64_t a = L.sub(i).offset, e = a + L.sub(i).size;
      for (uint64_t o : {a - 1, a, a + 1, e - 2, e - 1, e, e + 1})
        if (o < size) offs.push_back(o);
    }
    for (int k = 0; k < 3000; ++k) offs.push_back(rng() % size);
    const uint64_t from = rng() % (size - 1500);
    for (uint64_t o = from; o < from + 1500; ++o) offs.push_back(o);
    const auto& el = oracle.elements();
    for (int k = 0; k < 3000 && !el.empty(); ++k) {
      const Elem& e = el[rng() % el.size()];
      offs.push_back(e.start_B + rng() % L.sub(e.sub).element_bytes);
    }
    offs.push_back(size - 1);
  }
  std::vector<Location> want(offs.size());
  for (size_t i = 0; i < offs.size(); ++i) want[i] = oracle.at(offs[i]);
  Locator loc;
  EXPECT_TRUE(Locator::make(L, &loc).ok());
  // Random order (the search path), then sorted (runs inside one subresource).
  std::vector<size_t> order(offs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return offs[a] < offs[b]; });
    std::vector<uint64_t> q(offs.size());
    for (size_t i = 0; i < q.size(); ++i) q[i] = offs[order[i]];
    std::vector<Location> got(q.size());
    const Status st = loc.locate(q.data(), q.size(), got.data());
    EXPECT_TRUE(st.ok()) << what << ": " << st.message();
    for (size_t i = 0; i < q.size(); ++i) {
      expect_same(got[i], want[order[i]], q[i], what + (pass ? " (sorted batch)" : " (random batch)"));
      if (testing::Test::HasFatalFailure()) return c;
    }
  }
  for (size_t i = 0; i<offs.size(); i += offs.size()> 5000 ? 7 : 1) {
    Location one;
    const Status st = locate(L, offs[i], &one);
    EXPECT_TRUE(st.ok()) << what << ": " << st.message();
    expect_same(one, want[i], offs[i], what + " (one offset)");
    if (testing::Test::HasFatalFailure()) return c;
  }
  for (const Location& w : want) {
    c.elements += !w.padding && !w.packed;
    c.padding += w.padding;
    c.packed += w.packed;
  }
  for (uint64_t o : {size, size + 1, std::numeric_limits<uint64_t>::max()}) {
    Location one;
    EXPECT_EQ(locate(L, o, &one).code(), Code::out_of_range) << what << " offset " << o;
  }
  EXPECT_GT(c.elements, 0u) << what;
  if (size <= (uint64_t{1} << 15)) {  // every byte: each element byte found exactly once
    uint64_t element_bytes = 0;
    for (uint32_t i = 0; i < L.subresource_count(); ++i)
      if (!L.sub(i).packed) element_bytes += packed_subresource_bytes(L.sub(i)) * L.desc().samples;
    EXPECT_EQ(c.elements, element_bytes) << what;
  }
  return c;
}

TEST(LocateOracle, SpanIndexMatchesAScanOfTheSpans) {
  std::mt19937_64 rng(1414);
  for (int it = 0; it < swz_test::scaled(300); ++it) {
    const uint64_t size = 1 + rng() % (it % 3 == 0 ? 200000 : 3000);
    const uint32_t n = 1 + static_cast<uint32_t>(rng() % (it % 5 == 0 ? 300 : 20));
    std::vector<detail::SpanIndex::Span> spans(n);
    for (auto& s : spans) {
      switch (rng() % 6) {
        case 0:
          s = {rng() % size, 0};
          break;  // empty
        case 1:
          s = {rng() % (size + 10), rng() % (size + 10)};
          break;  // may reach past the end
        case 2:
          s = {size + rng() % 5, 1 + rng() % 5};
          break;  // past the end
        case 3:
          s = {rng() % size, std::numeric_limits<uint64_t>::max() - rng() % 4};
          break;  // no overflow
        default:
          s = {rng() % size, 1 + rng() % std::max<uint64_t>(1, size / n)};
          break;
      }
    }
    for (auto& s : spans)  // padding from a later byte than the span's first, sometimes
      if (rng() % 3 == 0 && s.start_B < size) s.lead_B = rng() % (size - s.start_B + 2);
    if (it % 4 == 0) {  // one big span and many tiny ones in one bucket (the bisecting lookup)
      spans[0] = {0, size / 2};
      for (uint32_t i = 1; i < n; ++i) spans[i] = {size / 2 + i, 1};
    }
    const detail::SpanIndex ix = detail::SpanIndex::build(spans, size);
    ASSERT_EQ(ix.segments().back().end_B, size);
    ASSERT_LE(ix.bucket_count(), uint64_t{1} << 20);
    for (size_t bk = 0; bk < ix.bucket_count(); ++bk) {  // whole: one segment holds every byte of the bucket
      bool whole = false;
      const size_t j = ix.bucket_segment(bk, &whole);
      const uint64_t lo = uint64_t{bk} << ix.shift(), hi = std::min(size, lo + (uint64_t{1} << ix.shift())) - 1;
      ASSERT_EQ(&ix.find(lo), &ix.segments()[j]) << "iteration " << it << " bucket " << bk;
      ASSERT_EQ(whole, &ix.find(hi) == &ix.segments()[j]) << "iteration " << it << " bucket " << bk;
    }
    const uint64_t step = size > 20000 ? 1 + rng() % 13 : 1;
    for (uint64_t o = rng() % step; o < size; o += step) {
      uint32_t held = 0, sole = 0, pad = 0;
      bool any = false;
      uint64_t best = 0;
      for (uint32_t i = 0; i < n; ++i) {
        const auto& s = spans[i];
        if (o >= s.start_B && o - s.start_B < s.size_B) {
          ++held;
          sole = i;
        }
        const uint64_t from = s.start_B + s.lead_B;  // no overflow: lead_B is set only for starts < size
        if (from <= o && (!any || from >= best)) {
          any = true;
          best = from;
          pad = i;
        }
      }
      const detail::SpanIndex::Segment& seg = ix.find(o);
      const auto kind = held == 0   ? detail::SpanIndex::kGap
                        : held == 1 ? detail::SpanIndex::kOne
                                    : detail::SpanIndex::kShared;
      ASSERT_EQ(seg.kind, kind) << "iteration " << it << " offset " << o;
      if (held == 1) ASSERT_EQ(seg.sub, sole) << "iteration " << it << " offset " << o;
      ASSERT_EQ(seg.pad_sub, pad) << "iteration " << it << " offset " << o;
    }
  }
}

TEST(LocateOracle, RandomPatternsWithManyMipsSlicesAndDepth) {
  std::mt19937_64 rng(14);
  int ran = 0;
  const int want = swz_test::scaled(60);
  for (int it = 0; it < 4 * want && ran < want; ++it) {
    swz_test::RandomPatternOptions o;
    o.element_log2 = static_cast<unsigned>(rng() % 5);
    o.max_block_bits = o.element_log2 + 1 + static_cast<unsigned>(rng() % 9);
    o.allow_high_postamble = rng() % 3 == 0;
    const Pattern p = swz_test::random_pattern(rng, o);
    TextureDesc d;
    d.format = swz_test::format_for_bytes(1u << o.element_log2);
    d.width = 1 + static_cast<uint32_t>(rng() % 40);
    d.height = 1 + static_cast<uint32_t>(rng() % 40);
    if (rng() % 3 == 0) {
      d.dimension = Dimension::Texture3D;
      d.depth = 1 + static_cast<uint32_t>(rng() % 9);
      d.mip_levels = full_mip_count(d.width, d.height, d.depth) - static_cast<uint32_t>(rng() % 2);
    } else {
      d.array_size = 1 + static_cast<uint32_t>(rng() % 12);
      d.mip_levels = full_mip_count(d.width, d.height, 1) - static_cast<uint32_t>(rng() % 2);
    }
    d.mip_levels = std::max(1u, d.mip_levels);
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    Layout L;
    if (!make_layout(d, spec, &L).ok() || L.size() > (uint64_t{1} << 28)) continue;
    check_against_oracle(L, rng, to_text(p));
    if (testing::Test::HasFatalFailure()) return;
    ++ran;
  }
  EXPECT_GE(ran, want * 2 / 3);
}

TEST(LocateOracle, NamedLayoutsPlanarFormatsAndPackedTails) {
  std::mt19937_64 rng(15);
  struct Case {
    const char* name;
    const char* format;
    uint32_t w, h, d, mips, array;
  };
  const Case cases[] = {
      {"std64k", "R8G8B8A8_UNORM", 64, 64, 1, 7, 13},  // many subresources of one tile each
      {"std4k", "R8G8B8A8_UNORM", 40, 24, 1, 0, 16},
      {"std4k", "BC1_UNORM", 64, 64, 1, 0, 6},
      {"std64k", "R16G16B16A16_FLOAT", 16, 16, 16, 0, 1},  // mipped 3D
      {"std4k", "R8_UNORM", 32, 32, 8, 0, 1},
      {"row-major", "NV12", 64, 32, 1, 1, 5},            // two planes
      {"row-major", "R24G8_TYPELESS", 20, 12, 1, 0, 3},  // depth-stencil planes
      {"row-major", "R8G8_UNORM", 33, 17, 1, 0, 9},
      {"nv-block-linear:gob=tegra", "R8G8B8A8_UNORM", 100, 60, 1, 0, 3},
      {"nv-block-linear:gob=tegra", "R32G32B32A32_FLOAT", 20, 12, 6, 0, 1},
      {"intel-tiley", "R8G8B8A8_UNORM", 90, 50, 1, 0, 2},
      {"amd-gfx9-sw64k-s-x", "R8G8B8A8_UNORM", 100, 60, 1, 0, 2},
      {"amd-gfx9-sw64k-s", "R8G8B8A8_UNORM", 300, 7, 1, 0, 3},  // slices stacked in one frame (Z origins)
      {"amd-gfx10-sw64k-s-x", "R8G8B8A8_UNORM", 70, 90, 1, 0, 4},
      {"mali-u-interleaved", "R8G8B8A8_UNORM", 70, 40, 1, 0, 3},
      {"apple-twiddled", "R16_UNORM", 64, 48, 1, 0, 2},
  };
  int ran = 0;
  for (const Case& c : cases) {
    TextureDesc d;
    ASSERT_TRUE(find_format(c.format, &d.format).ok()) << c.format;
    d.width = c.w;
    d.height = c.h;
    if (c.d > 1) {
      d.dimension = Dimension::Texture3D;
      d.depth = c.d;
    }
    d.array_size = c.array;
    d.mip_levels = c.mips ? c.mips : full_mip_count(c.w, c.h, c.d);
    Layout L;
    Status st = make_layout_from_name(c.name, d, LayoutOptions{}, &L);
    if (!st.ok()) {  // a family that refuses mips or arrays: one level, one slice
      d.mip_levels = 1;
      d.array_size = 1;
      st = make_layout_from_name(c.name, d, LayoutOptions{}, &L);
    }
    ASSERT_TRUE(st.ok()) << c.name << " " << c.format << ": " << st.message();
    check_against_oracle(L, rng, std::string(c.name) + " " + c.format);
    if (testing::Test::HasFatalFailure()) return;
    ++ran;
  }
  // D3D12 packed mip tails: mips 3.. of each slice share one opaque tile (shared spans).
  TextureDesc t = swz_test::tex2d("R8G8B8A8_UNORM", 512, 512, 10, 3);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  spec.mip_tail = MipTail::D3D12;
  spec.packed = {3, 7, 1};
  Layout L;
  ASSERT_TRUE(make_layout(t, spec, &L).ok());
  const Counts k = check_against_oracle(L, rng, "std64k with a packed tail");
  EXPECT_GT(k.packed, 0u);
  EXPECT_EQ(ran, static_cast<int>(std::size(cases)));
}

// AMD array slices share one frame: every slice of a mip has slice 0's offset and
// its own Z origin, so its span starts at slice 0's bytes. The slices' bytes follow
// one another at the slice pitch (the depth pitch): slice s owns
// [s * pitch, (s + 1) * pitch), its padding bytes included, not the highest slice,
// whose span holds every slice's bytes (swz locate --layout amd-gfx9-sw64k-s ...
// --size 300x7 --array 3 196607 is subresource 0, not 2).
TEST(LocateOracle, AmdArraySlicesOwnTheirPaddingBytes) {
  for (const char* name : {"amd-gfx9-sw64k-s", "amd-gfx9-sw4k-s", "amd-gfx10-sw64k-s-x"}) {
    TextureDesc d = swz_test::tex2d("R8G8B8A8_UNORM", 300, 7, 1, 3);
    Layout L;
    const Status st = make_layout_from_name(name, d, LayoutOptions{}, &L);
    ASSERT_TRUE(st.ok()) << name << ": " << st.message();
    const uint64_t pitch = L.sub(0).depth_pitch_B;
    ASSERT_EQ(L.size(), 3 * pitch) << name;
    for (uint32_t i = 0; i < 3; ++i) ASSERT_EQ(L.sub(i).offset, 0u) << name;  // one frame
    std::vector<uint64_t> offs(L.size());
    for (uint64_t o = 0; o < offs.size(); ++o) offs[o] = o;
    std::vector<Location> got(offs.size());
    Locator loc;
    ASSERT_TRUE(Locator::make(L, &loc).ok());
    ASSERT_TRUE(loc.locate(offs.data(), offs.size(), got.data()).ok());
    uint64_t padding = 0;
    for (uint64_t o = 0; o < offs.size(); ++o) {
      ASSERT_EQ(got[o].subresource, o / pitch) << name << " offset " << o << (got[o].padding ? " (padding)" : "");
      padding += got[o].padding;
    }
    EXPECT_GT(padding, 0u) << name;
    Location one;  // slice 0's last byte (a padding byte), one query
    ASSERT_TRUE(locate(L, pitch - 1, &one).ok());
    EXPECT_TRUE(one.padding) << name;
    EXPECT_EQ(one.subresource, 0u) << name;
  }
}

// AMD mip tails in arrays: each slice's small mips share one tail block, which the
// Locator answers from a per-block owner table built with the forward rule. Every byte of the
// resource against the oracle, random order and sorted, for GFX9 and GFX10 with and without the
// pipe/bank XOR (the XOR modes give each slice its own table), one frame (GFX9 non-XOR: every
// slice at slice 0's offset with its own Z origin) and slices one after another.
TEST(LocateOracle, AmdMipTailsWithArraysEveryByte) {
  std::mt19937_64 rng(1414);
  struct Case {
    const char* name;
    const char* format;
    uint32_t w, h, array;
  };
  const Case cases[] = {
      {"amd-gfx9-sw64k-s", "R8G8B8A8_UNORM", 128, 128, 3},   // one frame; 7 mips share each tail
      {"amd-gfx9-sw64k-s-x", "R8G8B8A8_UNORM", 128, 128, 3},
      {"amd-gfx9-sw64k-d-x", "R8G8B8A8_UNORM", 128, 64, 3},
      {"amd-gfx9-sw4k-s", "R8G8B8A8_UNORM", 64, 64, 4},
      {"amd-gfx10-sw64k-s", "R8G8B8A8_UNORM", 128, 128, 3},
      {"amd-gfx10-sw64k-s-x", "R8G8B8A8_UNORM", 128, 128, 3},
      {"amd-gfx10-sw64k-r-x", "R8G8B8A8_UNORM", 200, 100, 2},
      {"amd-gfx10-sw4k-d-x", "R8G8B8A8_UNORM", 60, 40, 5},
  };
  // Under SWZ_TEST_SCALE < 1 (qemu) the first cases only (GFX9 and GFX10, one frame and XOR).
  const int n_all = static_cast<int>(std::size(cases));
  const int n_cases = std::min(n_all, swz_test::scaled(n_all) + 1);
  for (int ci = 0; ci < n_cases; ++ci) {
    const Case& c = cases[ci];
    TextureDesc d = swz_test::tex2d(c.format, c.w, c.h, 0, c.array);
    d.mip_levels = full_mip_count(c.w, c.h, 1);
    Layout L;
    const Status st = make_layout_from_name(c.name, d, LayoutOptions{}, &L);
    ASSERT_TRUE(st.ok()) << c.name << ": " << st.message();
    const std::string what = std::string(c.name) + " " + c.format + " mip tails";
    // The layout has mips sharing bytes (the point of the case): some byte is in two spans.
    bool shared = false;
    for (uint32_t i = 0; i + 1 < L.subresource_count() && !shared; ++i)
      for (uint32_t j = i + 1; j < L.subresource_count() && !shared; ++j) {
        const SubresourceLayout &a = L.sub(i), &b = L.sub(j);
        shared = L.sub(i).pre_swizzle[2] == L.sub(j).pre_swizzle[2] && a.offset < b.offset + b.size &&
                 b.offset < a.offset + a.size;
      }
    EXPECT_TRUE(shared) << what;
    const Oracle oracle(L);
    std::vector<uint64_t> offs(L.size());
    for (uint64_t o = 0; o < offs.size(); ++o) offs[o] = o;
    std::shuffle(offs.begin(), offs.end(), rng);
    Locator loc;
    ASSERT_TRUE(Locator::make(L, &loc).ok());
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) std::sort(offs.begin(), offs.end());
      std::vector<Location> got(offs.size());
      ASSERT_TRUE(loc.locate(offs.data(), offs.size(), got.data()).ok()) << what;
      uint64_t elements = 0;
      for (size_t i = 0; i < offs.size(); ++i) {
        expect_same(got[i], oracle.at(offs[i]), offs[i], what + (pass ? " (sorted)" : " (random)"));
        if (testing::Test::HasFatalFailure()) return;
        elements += !got[i].padding && !got[i].packed;
      }
      uint64_t element_bytes = 0;
      for (uint32_t i = 0; i < L.subresource_count(); ++i)
        element_bytes += packed_subresource_bytes(L.sub(i)) * L.desc().samples;
      EXPECT_EQ(elements, element_bytes) << what;  // each element byte found exactly once
    }
  }
}

// Explicit placements: random gaps between subresources, a resource larger
// than its last subresource, subresources out of index order, and pairs that
// share a span (the second shifted below the first by a pre-swizzle Y, as mips
// in one tail block are).
TEST(LocateOracle, ExplicitPlacementsWithGapsAndSharedSpans) {
  std::mt19937_64 rng(16);
  int ran = 0, shared = 0;
  const int want = swz_test::scaled(40);
  for (int it = 0; it < 4 * want && ran < want; ++it) {
    swz_test::RandomPatternOptions o;
    o.element_log2 = static_cast<unsigned>(rng() % 4);
    o.max_block_bits = o.element_log2 + 2 + static_cast<unsigned>(rng() % 8);
    o.allow_z = false;
    o.allow_stack = false;
    const Pattern p = swz_test::random_pattern(rng, o);
    TextureDesc d;
    d.format = swz_test::format_for_bytes(1u << o.element_log2);
    d.width = 1 + static_cast<uint32_t>(rng() % 30);
    d.height = 1 + static_cast<uint32_t>(rng() % 30);
    d.array_size = 1 + static_cast<uint32_t>(rng() % 6);
    d.mip_levels = std::max(1u, full_mip_count(d.width, d.height, 1) - static_cast<uint32_t>(rng() % 2));
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    Layout base;
    if (!make_layout(d, spec, &base).ok()) continue;
    const uint64_t pitch = base.sub(0).row_pitch;  // mip 0's: wide enough for every mip
    const uint64_t block = base.alignment();
    const uint32_t n = base.subresource_count();
    std::vector<SubresourcePlacement> pl(n);
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    if (rng() % 2) std::shuffle(order.begin(), order.end(), rng);
    const uint64_t block_rows = p.block_extent()[1];
    uint64_t at = block * (rng() % 3);
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t i = order[k];
      pl[i].row_pitch = pitch;
      if (k > 0 && rng() % 3 == 0) {  // below the previous one, in its span
        const uint32_t prev = order[k - 1];
        pl[i].offset = pl[prev].offset;
        pl[i].pre_swizzle[1] = pl[prev].pre_swizzle[1] + base.sub(prev).height_el;
      } else {
        pl[i].offset = at;
      }
      const uint64_t rows = pl[i].pre_swizzle[1] + base.sub(i).height_el;
      const uint64_t span = (rows + block_rows - 1) / block_rows * pitch;  // its blocks' rows
      at = std::max(at, pl[i].offset + span + block * (rng() % 3));        // plus a gap, sometimes
    }
    Layout L;
    const uint64_t size = rng() % 2 ? 0 : at + block * (1 + rng() % 3);
    if (!make_explicit_layout(d, {p}, pl, "explicit", size, &L).ok()) continue;
    if (L.size() > (uint64_t{1} << 26)) continue;
    bool overlap = false;
    for (uint32_t i = 0; i < n && !overlap; ++i)
      for (uint32_t j = 0; j < i && !overlap; ++j)
        overlap =
            L.sub(i).offset < L.sub(j).offset + L.sub(j).size && L.sub(j).offset < L.sub(i).offset + L.sub(i).size;
    shared += overlap;
    const Counts c = check_against_oracle(L, rng, "explicit " + to_text(p));
    if (testing::Test::HasFatalFailure()) return;
    EXPECT_GT(c.padding, 0u);
    ++ran;
  }
  EXPECT_GE(ran, want * 2 / 3);
  EXPECT_GT(shared, 0);  // shared spans were exercised
}

}  // namespace

// A mip chain in one AMD frame whose shared segment holds more elements than the owner tables
// enumerate (2^21), as in fuzz/regressions/fuzz_cli_args/slow-locator-owner-table-amd-mip-chain-*
// (a table for it would take over 1 s under ASan to build). The segment keeps the
// search; its bytes still answer as the oracle does (random bytes, each subresource's edges).
TEST(LocateOracle, AmdMipChainPastTheOwnerTableBound) {
  TextureDesc d = swz_test::tex2d("R8G8B8A8_UNORM", 320, 6612, 0, 1);
  d.mip_levels = 7;
  Layout L;
  const Status st = make_layout_from_name("amd-gfx9-sw64k-d", d, LayoutOptions{}, &L);
  ASSERT_TRUE(st.ok()) << st.message();
  const Oracle oracle(L);
  std::mt19937_64 rng(2026);
  std::vector<uint64_t> offs;
  for (int k = 0; k < swz_test::scaled(1 << 16); ++k) offs.push_back(rng() % L.size());
  for (uint32_t i = 0; i < L.subresource_count(); ++i)
    for (uint64_t e : {L.sub(i).offset, L.sub(i).offset + L.sub(i).size - 1})
      for (uint64_t o = e >= 2 ? e - 2 : 0; o <= e + 2 && o < L.size(); ++o) offs.push_back(o);
  Locator loc;
  ASSERT_TRUE(Locator::make(L, &loc).ok());
  std::vector<Location> got(offs.size());
  ASSERT_TRUE(loc.locate(offs.data(), offs.size(), got.data()).ok());
  size_t elements = 0;
  for (size_t i = 0; i < offs.size(); ++i) {
    expect_same(got[i], oracle.at(offs[i]), offs[i], "amd-gfx9-sw64k-d 320x6612 7 mips");
    if (testing::Test::HasFatalFailure()) return;
    elements += !got[i].padding;
  }
  EXPECT_GT(elements, offs.size() / 4);  // the bytes are mostly elements, not all padding
}
