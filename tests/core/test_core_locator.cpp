// Locator (the batch inverse map) against the forward address rule:
//  - element_offset(): every byte the batch assigns to an element must be
//    that element's byte under the forward rule;
//  - on a full scan of a small resource, the bytes found in elements number
//    exactly the elements' bytes (no element byte reported as padding);
//  - locate(), one offset at a time (the search path), agrees with the batch
//    (the run path).
// Layouts: random patterns (XOR terms, postamble above the block, stacked
// depth), the standard swizzles with mips and arrays, and hardware families
// with packed mip tails and pre-swizzled levels. A large batch runs the
// threaded path; an offset past the end names its index.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "swz/swz.hpp"
#include "test_scale.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

void expect_same(const Location& a, const Location& b, uint64_t off, const std::string& what) {
  ASSERT_EQ(a.padding, b.padding) << what << " offset " << off;
  ASSERT_EQ(a.packed, b.packed) << what << " offset " << off;
  ASSERT_EQ(a.subresource, b.subresource) << what << " offset " << off;
  if (a.padding || a.packed) return;
  ASSERT_EQ(a.x, b.x) << what << " offset " << off;
  ASSERT_EQ(a.y, b.y) << what << " offset " << off;
  ASSERT_EQ(a.z, b.z) << what << " offset " << off;
  ASSERT_EQ(a.sample, b.sample) << what << " offset " << off;
  ASSERT_EQ(a.byte, b.byte) << what << " offset " << off;
}

// Every byte (or, for large resources, random bytes in random order, a
// sorted sweep and bytes of random elements) through the batch, against locate() and element_offset().
void check_layout(const Layout& L, std::mt19937_64& rng, const std::string& what) {
  Locator loc;
  ASSERT_TRUE(Locator::make(L, &loc).ok());
  std::vector<uint64_t> offs;
  if (L.size() <= (uint64_t{1} << 14)) {
    for (uint64_t o = 0; o < L.size(); ++o) offs.push_back(o);
  } else {
    for (int k = 0; k < 4000; ++k) offs.push_back(rng() % L.size());
    const uint64_t start = rng() % (L.size() - 2000);
    for (uint64_t o = start; o < start + 2000; ++o) offs.push_back(o);
    // Sparse resources (postamble terms far above the block): bytes of random elements too.
    for (int k = 0; k < 2000; ++k) {
      const uint32_t i = static_cast<uint32_t>(rng() % L.subresource_count());
      const SubresourceLayout& s = L.sub(i);
      if (s.packed) continue;
      uint64_t off = 0;
      ASSERT_TRUE(element_offset(L, i, static_cast<uint32_t>(rng() % s.width_el),
                                 static_cast<uint32_t>(rng() % s.height_el), static_cast<uint32_t>(rng() % s.depth), 0,
                                 &off)
                      .ok());
      offs.push_back(off + rng() % s.element_bytes);
    }
  }
  std::vector<Location> got(offs.size());
  ASSERT_TRUE(loc.locate(offs.data(), offs.size(), got.data()).ok()) << what;
  uint64_t elements = 0;
  for (size_t i = 0; i < offs.size(); ++i) {
    Location want;
    ASSERT_TRUE(locate(L, offs[i], &want).ok());
    expect_same(got[i], want, offs[i], what);
    if (got[i].padding || got[i].packed) continue;
    ++elements;
    uint64_t back = 0;
    ASSERT_TRUE(element_offset(L, got[i].subresource, got[i].x, got[i].y, got[i].z, got[i].sample, &back).ok()) << what;
    ASSERT_EQ(back + got[i].byte, offs[i]) << what;
  }
  EXPECT_GT(elements, 0u) << what;
  if (offs.size() == L.size()) {  // a full scan: every element byte found, no false padding
    uint64_t element_bytes = 0;
    for (uint32_t i = 0; i < L.subresource_count(); ++i)
      if (!L.sub(i).packed) element_bytes += packed_subresource_bytes(L.sub(i)) * L.desc().samples;
    EXPECT_EQ(elements, element_bytes) << what;
  }
}

}  // namespace

TEST(Locator, RandomPatternsMatchLocateAndTheForwardRule) {
  std::mt19937_64 rng(2026);
  int ran = 0;
  const int want = swz_test::scaled(120);
  for (int it = 0; it < 4 * want && ran < want; ++it) {
    swz_test::RandomPatternOptions o;
    o.element_log2 = static_cast<unsigned>(rng() % 5);
    o.max_block_bits = o.element_log2 + 1 + static_cast<unsigned>(rng() % 9);
    o.allow_high_postamble = rng() % 3 == 0;
    const Pattern p = swz_test::random_pattern(rng, o);
    TextureDesc d;
    d.format = swz_test::format_for_bytes(1u << o.element_log2);
    d.width = 1 + static_cast<uint32_t>(rng() % 70);
    d.height = 1 + static_cast<uint32_t>(rng() % 50);
    if (rng() % 3 == 0) {
      d.dimension = Dimension::Texture3D;
      d.depth = 1 + static_cast<uint32_t>(rng() % 5);
      d.mip_levels = 1 + static_cast<uint32_t>(rng() % full_mip_count(d.width, d.height, d.depth));
    } else {
      d.array_size = 1 + static_cast<uint32_t>(rng() % 4);
      d.mip_levels = 1 + static_cast<uint32_t>(rng() % full_mip_count(d.width, d.height, 1));
    }
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    Layout L;
    if (!make_layout(d, spec, &L).ok()) continue;
    check_layout(L, rng, to_text(p));
    if (testing::Test::HasFatalFailure()) return;
    ++ran;
  }
  EXPECT_GE(ran, want * 5 / 6);
}

TEST(Locator, NamedLayoutsWithMipsArraysAndTails) {
  std::mt19937_64 rng(7);
  struct Case {
    const char* name;
    const char* format;
    uint32_t w, h, d, mips, array;
  };
  const Case cases[] = {
      {"std64k", "R8G8B8A8_UNORM", 300, 200, 1, 9, 3},
      {"std4k", "BC7_UNORM", 260, 130, 1, 0, 2},
      {"std64k", "R16G16B16A16_FLOAT", 40, 30, 12, 0, 1},
      {"row-major", "R8_UNORM", 33, 17, 1, 0, 4},
      {"nv-block-linear:gob=tegra", "R8G8B8A8_UNORM", 333, 111, 1, 0, 2},
      {"nv-block-linear:gob=tegra", "R32G32B32A32_FLOAT", 45, 21, 7, 0, 1},
      {"intel-tiley", "R8G8B8A8_UNORM", 150, 99, 1, 0, 1},
      {"intel-tileys", "R8G8B8A8_UNORM", 300, 300, 1, 0, 1},
      {"amd-gfx9-sw64k-s-x", "R8G8B8A8_UNORM", 200, 150, 1, 1, 2},
      {"mali-u-interleaved", "R8G8B8A8_UNORM", 70, 40, 1, 0, 1},
      {"apple-twiddled", "R16_UNORM", 64, 48, 1, 0, 1},
  };
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
    const Status st = make_layout_from_name(c.name, d, LayoutOptions{}, &L);
    if (!st.ok()) {
      // A family that refuses mips here is covered by the next single-level try.
      d.mip_levels = 1;
      ASSERT_TRUE(make_layout_from_name(c.name, d, LayoutOptions{}, &L).ok()) << c.name << ": " << st.message();
    }
    check_layout(L, rng, c.name);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(Locator, LargeBatchesRunThreadedWithTheSameAnswers) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.format).ok());
  d.width = 1024;
  d.height = 1024;
  d.mip_levels = 4;
  Layout L;
  ASSERT_TRUE(make_layout_from_name("std64k", d, LayoutOptions{}, &L).ok());
  Locator loc;
  ASSERT_TRUE(Locator::make(L, &loc).ok());
  std::mt19937_64 rng(3);
  std::vector<uint64_t> offs(uint64_t{3} << 19);  // six parts' worth
  for (auto& o : offs) o = rng() % L.size();
  std::vector<Location> got(offs.size());
  ASSERT_TRUE(loc.locate(offs.data(), offs.size(), got.data()).ok());
  for (size_t i = 0; i < offs.size(); i += 97) {
    Location want;
    ASSERT_TRUE(locate(L, offs[i], &want).ok());
    expect_same(got[i], want, offs[i], "threaded batch");
  }
}

TEST(Locator, AnOffsetPastTheEndNamesItsIndexAndKeepsTheAnswersBefore) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R8_UNORM", &d.format).ok());
  d.width = 64;
  d.height = 64;
  Layout L;
  ASSERT_TRUE(make_layout_from_name("std4k", d, LayoutOptions{}, &L).ok());
  Locator loc;
  ASSERT_TRUE(Locator::make(L, &loc).ok());
  const uint64_t offs[4] = {0, 5, L.size(), 7};
  Location got[4];
  got[3].x = 12345;
  const Status st = loc.locate(offs, 4, got);
  EXPECT_EQ(st.code(), Code::out_of_range);
  EXPECT_NE(st.message().find("offset = " + std::to_string(L.size())), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("at index 2"), std::string::npos) << st.message();
  Location want;
  ASSERT_TRUE(locate(L, 5, &want).ok());
  expect_same(got[1], want, 5, "before the bad offset");
  EXPECT_EQ(got[3].x, 12345u);  // not written
  Locator unmade;
  EXPECT_EQ(unmade.locate(0, &want).code(), Code::invalid_argument);
  EXPECT_EQ(loc.locate(offs, 1, nullptr).code(), Code::invalid_argument);
}

// The threaded path checks offsets block by block as the threads take them: the error still
// names the first offset past the end, whatever block a thread reached first, and every
// record before it is written.
TEST(Locator, AThreadedBatchNamesTheFirstOffsetPastTheEnd) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.format).ok());
  d.width = 512;
  d.height = 512;
  d.mip_levels = 3;
  d.array_size = 4;
  Layout L;
  ASSERT_TRUE(make_layout_from_name("std64k", d, LayoutOptions{}, &L).ok());
  Locator loc;
  ASSERT_TRUE(Locator::make(L, &loc).ok());
  std::mt19937_64 rng(5);
  std::vector<uint64_t> offs(uint64_t{1} << 19);
  for (auto& o : offs) o = rng() % L.size();
  const size_t first = 300001, later[3] = {300002, 400000, (size_t{1} << 19) - 1};
  for (size_t i : later) offs[i] = L.size() + i;
  offs[first] = L.size();
  std::vector<Location> got(offs.size());
  const Status st = loc.locate(offs.data(), offs.size(), got.data());
  EXPECT_EQ(st.code(), Code::out_of_range);
  EXPECT_NE(st.message().find("offset = " + std::to_string(L.size()) + " "), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("at index " + std::to_string(first)), std::string::npos) << st.message();
  for (size_t i = 0; i < first; i += 89) {
    Location want;
    ASSERT_TRUE(locate(L, offs[i], &want).ok());
    expect_same(got[i], want, offs[i], "before the first bad offset");
  }
  Location want;
  ASSERT_TRUE(locate(L, offs[first - 1], &want).ok());
  expect_same(got[first - 1], want, offs[first - 1], "just before the first bad offset");
}

// make_layout accepts any depth pitch for a subresource of one slice (it is never
// multiplied by a non-zero slice index); the inverse must not divide offsets by it.
// Depth pitch 46 < one 7-row slice of 256-byte rows: the bytes from row 1 on are elements,
// not padding.
TEST(Locator, ADepthPitchSmallerThanTheOnlySliceIsIgnored) {
  TextureDesc d = swz_test::tex2d("R8_UNORM", 39, 7, 4, 3);
  LayoutSpec spec;
  spec.kind = LayoutKind::RowMajor;
  spec.depth_pitch_B = 46;
  Layout L;
  const Status st = make_layout(d, spec, &L);
  ASSERT_TRUE(st.ok()) << st.message();
  Location w;
  ASSERT_TRUE(locate(L, 256, &w).ok());
  EXPECT_FALSE(w.padding);
  EXPECT_EQ(w.y, 1u);
  EXPECT_EQ(w.x, 0u);
  std::mt19937_64 rng(46);
  check_layout(L, rng, "row-major, depth pitch 46");
}
