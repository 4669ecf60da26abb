// Hostile tests of the one request path (core/request.hpp): the overlap rule,
// pitch 0 = tight, and the cost of the region overlap check.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "core/request.hpp"
#include "swz/swz.hpp"

namespace {
using namespace swz;
using swz::detail::ElementSpan;
using swz::detail::MemoryRange;

Layout named(const char* name, const char* format, uint32_t w, uint32_t h, uint32_t d = 1) {
  TextureDesc desc;
  EXPECT_TRUE(find_format(format, &desc.format).ok());
  desc.width = w;
  desc.height = h;
  if (d > 1) {
    desc.dimension = Dimension::Texture3D;
    desc.depth = d;
  }
  Layout L;
  const Status st = make_layout_from_name(name, desc, LayoutOptions{}, &L);
  EXPECT_TRUE(st.ok()) << name << " " << w << "x" << h << "x" << d << ": " << st.message();
  return L;
}

// (5) The last byte of the address space is a byte: two one-byte ranges at
// 2^64-1 share it. The sweep and the two-range form both missed it (their
// ends were clamped to 2^64-1, so [2^64-1, 2^64) looked empty).
TEST(RequestBreakit, LastByteOfTheAddressSpaceIsAByte) {
  const MemoryRange r(UINT64_MAX, 1, "read"), w(UINT64_MAX, 1, "write");
  EXPECT_FALSE(detail::check_memory_disjoint(r, w).ok());
  const std::vector<MemoryRange> rs{r}, ws{w};
  EXPECT_FALSE(detail::check_memory_disjoint(rs, ws).ok());
  // A range running past the top meets one at the top.
  EXPECT_FALSE(detail::check_memory_disjoint(MemoryRange(UINT64_MAX - 4, 100, "read"), w).ok());
  const std::vector<MemoryRange> two{MemoryRange(UINT64_MAX - 4, 100, "a"), MemoryRange(UINT64_MAX, 1, "b")};
  EXPECT_FALSE(detail::check_memory_disjoint({}, two).ok());
  EXPECT_TRUE(detail::check_memory_disjoint({}, two, true).ok());
  // Adjacent below the top stays legal.
  EXPECT_TRUE(detail::check_memory_disjoint(MemoryRange(UINT64_MAX - 1, 1, "read"), w).ok());
  const std::vector<MemoryRange> adj{MemoryRange(UINT64_MAX - 1, 1, "a"), MemoryRange(UINT64_MAX, 1, "b")};
  EXPECT_TRUE(detail::check_memory_disjoint({}, adj).ok());
  // Zero-size ranges anywhere never overlap.
  EXPECT_TRUE(detail::check_memory_disjoint(MemoryRange(UINT64_MAX, 0, "read"), w).ok());
}

// (2) Adjacent ranges, zero-size ranges and disjoint boxes in one buffer are legal.
TEST(RequestBreakit, AdjacentAndEmptyAreLegal) {
  const Layout L = named("std4k", "R8G8B8A8_UNORM", 64, 64);
  std::vector<uint8_t> buf(2 * L.size() + 64);
  // Linear bytes right after the subresource, in the same allocation.
  uint8_t* res = buf.data();
  uint8_t* lin = buf.data() + L.size();
  EXPECT_TRUE(write_to_subresource(L, res, L.size(), 0, nullptr, lin, 64 * 64 * 4, 0, 0).ok());
  EXPECT_TRUE(read_from_subresource(lin, 64 * 64 * 4, 0, 0, L, res, L.size(), 0, nullptr).ok());
  // An empty box with the linear bytes inside the resource.
  const Box empty{3, 3, 0, 3, 9, 1};
  EXPECT_TRUE(write_to_subresource(L, res, L.size(), 0, &empty, res, L.size(), 0, 0).ok());
  // Disjoint boxes of one subresource in one buffer.
  RegionCopy r;
  r.whole_source = false;
  r.src_box = Box{0, 0, 0, 16, 16, 1};
  r.dst_x = 16;
  EXPECT_TRUE(copy_regions(L, res, L.size(), L, res, L.size(), &r, 1).ok());
  r.dst_x = 15;  // one column over the source
  EXPECT_EQ(copy_regions(L, res, L.size(), L, res, L.size(), &r, 1).code(), Code::invalid_argument);
}

// (6) Pitch 0 = tight with a row pitch the box does not use: a one-row box
// with d > 1, row pitch 1 (unused: one row) and depth pitch 0 means the tight
// depth pitch, the slice of the box. It was computed as row_pitch * h = 1 and
// the call refused, while the same call with row pitch 0 succeeds.
TEST(RequestBreakit, TightDepthPitchIgnoresAnUnusedRowPitch) {
  const Layout L = named("std64k", "R8G8B8A8_UNORM", 16, 16, 8);
  std::vector<uint8_t> res(L.size()), a(L.size()), b(L.size());
  std::vector<uint8_t> lin(16 * 4 * 8);
  for (size_t i = 0; i < lin.size(); ++i) lin[i] = static_cast<uint8_t>(i * 7 + 1);
  const Box box{0, 3, 0, 16, 4, 8};  // 16 x 1 x 8
  ASSERT_TRUE(write_to_subresource(L, a.data(), a.size(), 0, &box, lin.data(), lin.size(), 0, 0).ok());
  const Status st = write_to_subresource(L, b.data(), b.size(), 0, &box, lin.data(), lin.size(), 1, 0);
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(a, b);
  uint64_t n0 = 0, n1 = 0;
  ASSERT_TRUE(box_linear_bytes(L, 0, &box, 0, 0, &n0).ok());
  const Status sb = box_linear_bytes(L, 0, &box, 1, 0, &n1);
  EXPECT_TRUE(sb.ok()) << sb.message();
  EXPECT_EQ(n0, n1);
  std::vector<uint8_t> back0(lin.size()), back1(lin.size());
  ASSERT_TRUE(read_from_subresource(back0.data(), back0.size(), 0, 0, L, a.data(), a.size(), 0, &box).ok());
  EXPECT_TRUE(read_from_subresource(back1.data(), back1.size(), 1, 0, L, a.data(), a.size(), 0, &box).ok());
  EXPECT_EQ(back0, lin);
  EXPECT_EQ(back1, lin);
}

// (6) Row pitch 0 with h > 1 and depth pitch 0 with d > 1 are the tight pitches.
TEST(RequestBreakit, PitchZeroIsTightForEveryAxis) {
  const Layout L = named("std64k", "R8G8B8A8_UNORM", 32, 32, 4);
  std::vector<uint8_t> lin(8 * 4 * 5 * 3);
  for (size_t i = 0; i < lin.size(); ++i) lin[i] = static_cast<uint8_t>(i * 13 + 5);
  const Box box{4, 2, 1, 12, 7, 4};  // 8 x 5 x 3
  std::vector<uint8_t> a(L.size()), b(L.size());
  ASSERT_TRUE(write_to_subresource(L, a.data(), a.size(), 0, &box, lin.data(), lin.size(), 0, 0).ok());
  ASSERT_TRUE(write_to_subresource(L, b.data(), b.size(), 0, &box, lin.data(), lin.size(), 32, 160).ok());
  EXPECT_EQ(a, b);
  // One byte short of tight is too small.
  EXPECT_EQ(write_to_subresource(L, a.data(), a.size(), 0, &box, lin.data(), lin.size() - 1, 0, 0).code(),
            Code::buffer_too_small);
}

// (4) A few thousand deep boxes: the overlap check expands every box into one
// piece per slice (64 bytes each): 1000 regions of depth 2048 made 2M pieces
// (4M in one buffer). Slices between the same z boundaries are one piece.
TEST(RequestBreakit, DeepRegionsAreCheckedPerDistinctSliceRange) {
  std::vector<ElementSpan> spans;
  for (size_t i = 0; i < 20000; ++i)
    spans.push_back({0, i, 0, 0, i + 1, 1, 2048, i, true});
  for (size_t i = 0; i < 20000; ++i)
    spans.push_back({0, i, 1, 0, i + 1, 2, 2048, i, false});
  size_t a = 0, b = 0;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(detail::find_span_overlap(spans, &a, &b));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 0.5) << "find_span_overlap over 40000 spans of 2048 slices took " << s << " s";
  // Overlaps are still found between staggered deep boxes, in a late slice.
  spans.push_back({0, 7, 0, 2047, 8, 2, 2048, 99999, false});
  EXPECT_TRUE(detail::find_span_overlap(spans, &a, &b));
  EXPECT_EQ(spans[a].entry, 7u);
  EXPECT_EQ(spans[b].entry, 99999u);
  // Staggered z ranges: overlap only in slice 1000.
  std::vector<ElementSpan> st{{0, 0, 0, 0, 1, 1, 1001, 0, true}, {0, 0, 0, 1000, 1, 1, 2048, 1, true},
                              {0, 1, 0, 1001, 2, 1, 2000, 2, true}};
  EXPECT_TRUE(detail::find_span_overlap(st, &a, &b));
  EXPECT_EQ(a + b, 1u);
  st[1].z0 = 1001;
  st[2].z0 = 2000;
  st[2].z1 = 2048;
  EXPECT_FALSE(detail::find_span_overlap(st, &a, &b));
}

// (4) copy_regions end to end: 1000 one-texel columns of depth 256 through a
// 3D texture in one buffer, source and destination columns disjoint.
TEST(RequestBreakit, ManyDeepRegionsInOneBufferAreFast) {
  const Layout L = named("std64k", "R8_UNORM", 2000, 1, 256);
  std::vector<uint8_t> buf(L.size());
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 31 + 7);
  std::vector<RegionCopy> rs(1000);
  for (uint32_t i = 0; i < 1000; ++i) {
    rs[i].whole_source = false;
    rs[i].src_box = Box{i, 0, 0, i + 1, 1, 256};
    rs[i].dst_x = 1000 + i;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = copy_regions(L, buf.data(), buf.size(), L, buf.data(), buf.size(), rs.data(), rs.size());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_LT(s, 1.0);
  uint64_t d = 0, o = 0;
  ASSERT_TRUE(element_offset(L, 0, 1005, 0, 200, 0, &d).ok());
  ASSERT_TRUE(element_offset(L, 0, 5, 0, 200, 0, &o).ok());
  EXPECT_EQ(buf[d], buf[o]);
}

}  // namespace

namespace {
using namespace swz;

// (2) Empty regions: a placed-footprint copy whose every region is empty moves
// no byte, so its footprint sharing memory with the subresource is no
// overlap (write_to_subresource accepts the same empty box over shared bytes).
// It was refused "share memory".
TEST(RequestBreakit, AllEmptyFootprintRegionsShareNothing) {
  const Layout L = named("std4k", "R8G8B8A8_UNORM", 64, 64);
  std::vector<uint8_t> buf(L.size() + 64 * 256);
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 5 + 3);
  const std::vector<uint8_t> before = buf;
  PlacedFootprint fp;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &fp.format).ok());
  fp.width = 64;
  fp.height = 64;
  fp.row_pitch_B = 256;
  FootprintRegion r;
  r.whole_source = false;
  r.src_box = Box{4, 4, 0, 4, 8, 1};  // zero width
  for (auto dir : {FootprintCopyDirection::BufferToTexture, FootprintCopyDirection::TextureToBuffer}) {
    const Status st = copy_placed_footprint(L, buf.data(), buf.size(), 0, buf.data(), buf.size(), fp, dir, &r, 1);
    EXPECT_TRUE(st.ok()) << st.message();
  }
  EXPECT_EQ(buf, before);
  // The same call with a non-empty box is refused, nothing written.
  r.src_box = Box{4, 4, 0, 8, 8, 1};
  EXPECT_EQ(copy_placed_footprint(L, buf.data(), buf.size(), 0, buf.data(), buf.size(), fp,
                                  FootprintCopyDirection::BufferToTexture, &r, 1)
                .code(),
            Code::invalid_argument);
  EXPECT_EQ(buf, before);
}

}  // namespace

namespace {
using namespace swz;

// (1)+(5) A buffer size of UINT64_MAX ("the rest of memory") made
// memory_overlaps wrap (pb + nb < pa): one buffer looked like two separate
// ones, so copy_regions skipped the source boxes and copied a region over its
// own source, writing bytes different from the same copy between two buffers.
TEST(RequestBreakit, HugeBufferSizeDoesNotHideOneBuffer) {
  const Layout L = named("std4k", "R8G8B8A8_UNORM", 64, 64);
  EXPECT_TRUE(detail::memory_overlaps(reinterpret_cast<void*>(0x1000), UINT64_MAX, reinterpret_cast<void*>(0x1000), 16));
  EXPECT_TRUE(detail::memory_overlaps(reinterpret_cast<void*>(0x1000), 16, reinterpret_cast<void*>(0x1000), UINT64_MAX));
  EXPECT_FALSE(detail::memory_overlaps(reinterpret_cast<void*>(0x1000), 16, reinterpret_cast<void*>(0x1010), UINT64_MAX));
  std::vector<uint8_t> buf(L.size());
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 11 + 1);
  const std::vector<uint8_t> before = buf;
  RegionCopy r;
  r.whole_source = false;
  r.src_box = Box{0, 0, 0, 16, 16, 1};
  r.dst_x = 8;
  r.dst_y = 8;  // over its own source
  for (auto [ds, ss] : {std::pair<uint64_t, uint64_t>{L.size(), UINT64_MAX}, {UINT64_MAX, L.size()},
                        {UINT64_MAX, UINT64_MAX}}) {
    const Status st = copy_regions(L, buf.data(), ds, L, buf.data(), ss, &r, 1);
    EXPECT_EQ(st.code(), Code::invalid_argument) << st.message();
  }
  EXPECT_EQ(buf, before);
}

}  // namespace
