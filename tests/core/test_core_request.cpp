// The one overlap rule and the capability table (core/request.hpp), against
// brute-force oracles written here.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/request.hpp"
#include "swz/swz.hpp"

namespace {
using namespace swz;
using swz::detail::ElementSpan;
using swz::detail::MemoryRange;

bool boxes_meet(const ElementSpan& a, const ElementSpan& b) {
  return a.subresource == b.subresource && a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 && a.z0 < b.z1 &&
         b.z0 < a.z1 && a.x0 < a.x1 && a.y0 < a.y1 && a.z0 < a.z1 && b.x0 < b.x1 && b.y0 < b.y1 && b.z0 < b.z1;
}

// Brute force: any pair with a write on one side that meets.
bool brute_span_overlap(const std::vector<ElementSpan>& s) {
  for (size_t i = 0; i < s.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if ((s[i].write || s[j].write) && boxes_meet(s[i], s[j])) return true;
  return false;
}

TEST(Request, SpanOverlapMatchesBruteForce) {
  std::mt19937 g(29);
  auto r = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(g); };
  size_t with = 0, without = 0;
  for (int it = 0; it < 4000; ++it) {
    std::vector<ElementSpan> s(r(1, 8));
    for (size_t i = 0; i < s.size(); ++i) {
      ElementSpan& e = s[i];
      e.subresource = r(0, 1);
      e.x0 = r(0, 20), e.y0 = r(0, 20), e.z0 = r(0, 3);
      e.x1 = e.x0 + r(0, 8), e.y1 = e.y0 + r(0, 8), e.z1 = e.z0 + r(0, 2);
      e.entry = i;
      e.write = r(0, 1);
    }
    size_t a = 0, b = 0;
    const bool got = detail::find_span_overlap(s, &a, &b);
    ASSERT_EQ(got, brute_span_overlap(s)) << "iteration " << it;
    if (got) {
      ++with;
      EXPECT_TRUE(s[a].write) << "the first of the pair is written";
      EXPECT_TRUE(boxes_meet(s[a], s[b]));
      EXPECT_NE(a, b);
    } else {
      ++without;
    }
  }
  EXPECT_GT(with, 100u);
  EXPECT_GT(without, 500u);
}

// Brute force over ranges: a write meets a read, or (unless shared) another write.
bool brute_memory(const std::vector<MemoryRange>& reads, const std::vector<MemoryRange>& writes, bool share) {
  auto meet = [](const MemoryRange& a, const MemoryRange& b) {
    return a.size_B && b.size_B && a.begin_B < b.begin_B + b.size_B && b.begin_B < a.begin_B + a.size_B;
  };
  for (size_t i = 0; i < writes.size(); ++i) {
    for (const MemoryRange& r : reads)
      if (meet(writes[i], r)) return true;
    if (!share)
      for (size_t j = 0; j < i; ++j)
        if (meet(writes[i], writes[j])) return true;
  }
  return false;
}

TEST(Request, MemoryDisjointMatchesBruteForce) {
  std::mt19937 g(30);
  auto r = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(g); };
  size_t refused = 0, accepted = 0;
  for (int it = 0; it < 4000; ++it) {
    std::vector<MemoryRange> reads(r(0, 5)), writes(r(1, 5));
    for (auto* v : {&reads, &writes}) {
      for (MemoryRange& m : *v) m = MemoryRange(uint64_t{r(0, 200)}, r(0, 40), "range");
    }
    if (reads.size() == 1 && writes.size() == 1) {
      EXPECT_EQ(detail::check_memory_disjoint(reads[0], writes[0]).ok(), !brute_memory(reads, writes, true));
    }
    const bool share = r(0, 1);
    const Status st = detail::check_memory_disjoint(reads, writes, share);
    ASSERT_EQ(!st.ok(), brute_memory(reads, writes, share)) << "iteration " << it << ": " << st.message();
    if (st.ok()) {
      ++accepted;
    } else {
      ++refused;
      EXPECT_EQ(st.code(), Code::invalid_argument);
      EXPECT_NE(st.message().find("share memory"), std::string::npos) << st.message();
    }
  }
  EXPECT_GT(refused, 500u);
  EXPECT_GT(accepted, 500u);
}

TEST(Request, MemoryRangesAtTheTopOfTheAddressSpace) {
  // A range running past 2^64 ends at the top; it still meets a range below the top.
  const Status st =
      detail::check_memory_disjoint(MemoryRange(UINT64_MAX - 10, 100, "read"), MemoryRange(UINT64_MAX - 2, 1, "write"));
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(
      detail::check_memory_disjoint(MemoryRange(UINT64_MAX - 10, 5, "read"), MemoryRange(UINT64_MAX - 5, 5, "write"))
          .ok());
  // The two-range form and the sweep agree.
  const std::vector<MemoryRange> r{MemoryRange(uint64_t{100}, 50, "read")}, w{MemoryRange(uint64_t{149}, 1, "write")};
  EXPECT_FALSE(detail::check_memory_disjoint(r, w).ok());
  EXPECT_FALSE(detail::check_memory_disjoint(r[0], w[0]).ok());
}

Layout layout_named(const char* name, const char* format, uint32_t w, uint32_t h) {
  TextureDesc d;
  EXPECT_TRUE(find_format(format, &d.format).ok());
  d.width = w;
  d.height = h;
  Layout L;
  const Status st = make_layout_from_name(name, d, LayoutOptions{}, &L);
  EXPECT_TRUE(st.ok()) << st.message();
  return L;
}

TEST(Request, ConditionalPostambleIsRefusedByEveryOperation) {
  const Layout L = layout_named("pattern:X0 X1 X2 X3 X4 X5 Y0 Y1 Y2 Y3 cond-post", "R8G8B8A8_UNORM", 32, 32);
  using detail::Operation;
  for (Operation op : {Operation::SubresourceCopy, Operation::RegionCopy, Operation::TileCopy, Operation::Clear,
                       Operation::ResolveDest, Operation::Address, Operation::Locate}) {
    const Status st = detail::check_operation(L, 0, op);
    EXPECT_EQ(st.code(), Code::unsupported) << detail::operation_name(op);
    EXPECT_NE(st.message().find("conditional-postamble"), std::string::npos) << st.message();
  }
  // And through the public calls that used to compute its addresses.
  std::vector<uint8_t> res(L.size()), buf(L.size());
  RegionCopy r;
  EXPECT_EQ(copy_regions(L, res.data(), res.size(), L, buf.data(), buf.size(), &r, 1).code(), Code::unsupported);
  EXPECT_EQ(copy_tiles(L, res.data(), res.size(), TileCoordinate{}, TileRegionSize{}, buf.data(), buf.size(), 0,
                       TileCopyDirection::SwizzledToLinearBuffer)
                .code(),
            Code::unsupported);
  uint64_t off = 0;
  EXPECT_EQ(element_offset(L, 0, 1, 1, 0, 0, &off).code(), Code::unsupported);
  Location loc;
  EXPECT_EQ(locate(L, 4, &loc).code(), Code::unsupported);
  AddressMap m;
  EXPECT_EQ(AddressMap::make(L, 0, &m).code(), Code::unsupported);
  EXPECT_EQ(res, std::vector<uint8_t>(L.size()));
}

TEST(Request, SamePlacementComparesLayoutsNotObjects) {
  const Layout a = layout_named("std4k", "R8G8B8A8_UNORM", 64, 64), b = layout_named("std4k", "R8G8B8A8_UNORM", 64, 64);
  const Layout c = layout_named("row-major", "R8G8B8A8_UNORM", 64, 64);
  EXPECT_TRUE(detail::same_placement(a, b));
  EXPECT_FALSE(detail::same_placement(a, c));
  // Two layout objects of one placement over one buffer: a region over its own source is refused.
  std::vector<uint8_t> buf(a.size(), 1);
  RegionCopy r;
  r.dst_x = 8;
  r.dst_y = 8;
  r.whole_source = false;
  r.src_box = Box{0, 0, 0, 16, 16, 1};
  EXPECT_EQ(copy_regions(a, buf.data(), buf.size(), b, buf.data(), buf.size(), &r, 1).code(), Code::invalid_argument);
  EXPECT_EQ(buf, std::vector<uint8_t>(a.size(), 1));
}

TEST(Request, ManyDisjointRegionsAreCheckedInNearLinearTime) {
  // 256 x 320 one-texel regions cover every texel once: all disjoint. The
  // pairwise check took seconds at this count; the sweep takes milliseconds.
  const Layout L = layout_named("std4k", "R8_UNORM", 256, 320);
  std::vector<RegionCopy> rs;
  for (uint32_t y = 0; y < 320; ++y)
    for (uint32_t x = 0; x < 256; ++x) {
      RegionCopy r;
      r.dst_x = 255 - x;
      r.dst_y = y;
      r.whole_source = false;
      r.src_box = Box{x, y, 0, x + 1, y + 1, 1};
      rs.push_back(r);
    }
  std::vector<uint8_t> src(L.size()), dst(L.size());
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 31 + 7);
  ASSERT_TRUE(copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), rs.data(), rs.size()).ok());
  // Mirrored columns: element (x, y) of dst holds element (255 - x, y) of src.
  for (uint32_t y = 0; y < 320; y += 37)
    for (uint32_t x = 0; x < 256; x += 13) {
      uint64_t d = 0, s = 0;
      ASSERT_TRUE(element_offset(L, 0, x, y, 0, 0, &d).ok());
      ASSERT_TRUE(element_offset(L, 0, 255 - x, y, 0, 0, &s).ok());
      EXPECT_EQ(dst[d], src[s]);
    }
  // One more region over an earlier one is refused, naming both.
  RegionCopy extra = rs[1000];
  rs.push_back(extra);
  const Status st = copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), rs.data(), rs.size());
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("regions 1000 and 81920 overlap"), std::string::npos) << st.message();
}

}  // namespace
