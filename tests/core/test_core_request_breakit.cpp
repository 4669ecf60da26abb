// Hostile tests of the one request path (core/request.hpp): the overlap rule,
// pitch 0 = tight, and the cost of the region overlap check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
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
  EXPECT_FALSE(detail::find_span_overlap(spans, &a, &b));
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
TEST(RequestBreakit, ManyDeepRegionsInOneBuffer) {
  const Layout L = named("std64k", "R8_UNORM", 2000, 1, 256);
  std::vector<uint8_t> buf(L.size());
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 31 + 7);
  std::vector<RegionCopy> rs(1000);
  for (uint32_t i = 0; i < 1000; ++i) {
    rs[i].whole_source = false;
    rs[i].src_box = Box{i, 0, 0, i + 1, 1, 256};
    rs[i].dst_x = 1000 + i;
  }
  const Status st = copy_regions(L, buf.data(), buf.size(), L, buf.data(), buf.size(), rs.data(), rs.size());
  ASSERT_TRUE(st.ok()) << st.message();
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

namespace {
using namespace swz;

// (1)/(2) Differential: random batches of regions between random
// subresources (mips and array slices of vendor layouts, whose mip tails
// share blocks) in ONE buffer. Whenever the call is accepted, its bytes must
// equal the same batch run from a separate copy of the source; whenever the
// one-buffer call is refused, the batch must really touch a written element
// twice (checked through element_offset), or write a byte the same batch reads.
TEST(RequestBreakit, OneBufferRegionsMatchSeparateBuffers) {
  std::mt19937 g(77);
  auto r = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(g); };
  size_t accepted = 0, refused = 0;
  for (const char* name : {"std64k", "std4k", "nv-block-linear", "amd-gfx9-sw64k-s", "amd-gfx10-sw4k-d-x",
                           "amd-gfx10.3-sw64k-s-x", "row-major"}) {
    TextureDesc d;
    ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.format).ok());
    d.width = 96;
    d.height = 40;
    d.mip_levels = 7;
    d.array_size = 2;
    Layout L;
    const Status ms = make_layout_from_name(name, d, LayoutOptions{}, &L);
    if (!ms.ok()) continue;
    std::vector<uint8_t> orig(L.size());
    for (size_t i = 0; i < orig.size(); ++i) orig[i] = static_cast<uint8_t>(g());
    for (int it = 0; it < 150; ++it) {
      std::vector<RegionCopy> rs(r(1, 4));
      for (RegionCopy& rc : rs) {
        rc.src_subresource = r(0, L.subresource_count() - 1);
        rc.dst_subresource = r(0, L.subresource_count() - 1);
        const SubresourceLayout &ss = L.sub(rc.src_subresource), &ds = L.sub(rc.dst_subresource);
        const uint32_t w = r(0, std::min(ss.width, ds.width)), h = r(0, std::min(ss.height, ds.height));
        rc.whole_source = false;
        const uint32_t sx = r(0, ss.width - w), sy = r(0, ss.height - h);
        rc.src_box = Box{sx, sy, 0, sx + w, sy + h, 1};
        rc.dst_x = r(0, ds.width - w);
        rc.dst_y = r(0, ds.height - h);
      }
      std::vector<uint8_t> one = orig, two = orig;
      const std::vector<uint8_t> src = orig;
      const Status s1 = copy_regions(L, one.data(), one.size(), L, one.data(), one.size(), rs.data(), rs.size());
      const Status s2 = copy_regions(L, two.data(), two.size(), L, src.data(), src.size(), rs.data(), rs.size());
      if (s2.code() != Code::ok) {
        EXPECT_EQ(s1.code(), s2.code()) << name << ": " << s1.message() << " | " << s2.message();
        continue;
      }
      // Brute force: bytes written and read, through element_offset.
      std::vector<int> wr(L.size()), rd(L.size());
      bool clash = false;
      for (const RegionCopy& rc : rs)
        for (uint32_t y = 0; y < rc.src_box.bottom - rc.src_box.top; ++y)
          for (uint32_t x = 0; x < rc.src_box.right - rc.src_box.left; ++x) {
            uint64_t so = 0, dof = 0;
            ASSERT_TRUE(element_offset(L, rc.src_subresource, rc.src_box.left + x, rc.src_box.top + y, 0, 0, &so).ok());
            ASSERT_TRUE(element_offset(L, rc.dst_subresource, rc.dst_x + x, rc.dst_y + y, 0, 0, &dof).ok());
            for (int k = 0; k < 4; ++k) {
              if (wr[dof + k]++) clash = true;
              rd[so + k] = 1;
            }
          }
      for (size_t i = 0; i < wr.size() && !clash; ++i)
        if (wr[i] && rd[i]) clash = true;
      if (s1.ok()) {
        ++accepted;
        EXPECT_FALSE(clash) << name << " iteration " << it << ": accepted a batch that reads/writes a byte twice";
        EXPECT_EQ(one, two) << name << " iteration " << it;
      } else {
        ++refused;
        EXPECT_EQ(s1.code(), Code::invalid_argument) << s1.message();
        EXPECT_TRUE(clash) << name << " iteration " << it << ": refused a disjoint batch: " << s1.message();
        EXPECT_EQ(one, orig);
      }
    }
  }
  EXPECT_GT(accepted, 100u);
  EXPECT_GT(refused, 50u);
}

}  // namespace

namespace {
using namespace swz;

// (4) The brief's sizes end to end, in one buffer (read and written boxes):
// 1000 regions of depth 2048, and 100k one-texel regions.
TEST(RequestBreakit, BriefSizesInOneBuffer) {
  {
    const Layout L = named("row-major", "R8_UNORM", 2000, 1, 2048);
    std::vector<uint8_t> buf(L.size());
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 31 + 7);
    std::vector<RegionCopy> rs(1000);
    for (uint32_t i = 0; i < 1000; ++i) {
      rs[i].whole_source = false;
      rs[i].src_box = Box{i, 0, 0, i + 1, 1, 2048};
      rs[i].dst_x = 1000 + i;
    }
    const Status st = copy_regions(L, buf.data(), buf.size(), L, buf.data(), buf.size(), rs.data(), rs.size());
    ASSERT_TRUE(st.ok()) << st.message();
    // One more region reading a destination column in its last slice is refused.
    RegionCopy bad;
    bad.whole_source = false;
    bad.src_box = Box{1999, 0, 2047, 2000, 1, 2048};
    bad.dst_x = 0;
    bad.dst_z = 0;
    rs.push_back(bad);
    EXPECT_EQ(copy_regions(L, buf.data(), buf.size(), L, buf.data(), buf.size(), rs.data(), rs.size()).code(),
              Code::invalid_argument);
  }
  {
    const Layout L = named("std4k", "R8_UNORM", 512, 512);
    std::vector<uint8_t> buf(L.size(), 3);
    std::vector<RegionCopy> rs;
    for (uint32_t i = 0; i < 100000; ++i) {
      RegionCopy r;
      r.whole_source = false;
      const uint32_t x = i % 256, y = i / 256;  // 256 x 391 sources on the left, destinations on the right
      r.src_box = Box{x, y, 0, x + 1, y + 1, 1};
      r.dst_x = 256 + x;
      r.dst_y = y;
      rs.push_back(r);
    }
    const Status st = copy_regions(L, buf.data(), buf.size(), L, buf.data(), buf.size(), rs.data(), rs.size());
    EXPECT_TRUE(st.ok()) << st.message();
  }
}

// (2) Adjacent and other-subresource placements in one allocation are legal
// for every call that takes two pointers.
TEST(RequestBreakit, AdjacentPlacementsInOneAllocation) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.format).ok());
  d.width = 64;
  d.height = 64;
  d.mip_levels = 3;
  Layout L;
  ASSERT_TRUE(make_layout_from_name("std64k", d, LayoutOptions{}, &L).ok());
  uint64_t lin_B = 0;
  ASSERT_TRUE(surface_linear_bytes(L, &lin_B).ok());
  std::vector<uint8_t> all(L.size() + std::max<uint64_t>(lin_B, 65536));
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint8_t>(i * 3 + 1);
  uint8_t* res = all.data();
  uint8_t* lin = all.data() + L.size();
  EXPECT_TRUE(swizzle_surface(L, res, L.size(), lin, lin_B).ok());
  EXPECT_TRUE(deswizzle_surface(L, lin, lin_B, res, L.size()).ok());
  // The linear box of mip 1 inside mip 0's bytes: another subresource, legal.
  const uint64_t m1 = uint64_t{32} * 32 * 4;
  EXPECT_TRUE(write_to_subresource(L, res, L.size(), 1, nullptr, res + L.sub(0).offset, m1, 0, 0).ok());
  EXPECT_TRUE(read_from_subresource(res + L.sub(0).offset, m1, 0, 0, L, res, L.size(), 1, nullptr).ok());
  // ... and one byte into mip 1's span: refused.
  EXPECT_EQ(write_to_subresource(L, res, L.size(), 1, nullptr, res + L.sub(1).offset - m1 + 1, m1, 0, 0).code(),
            Code::invalid_argument);
  // Tiles right after the subresource, and in another subresource's bytes.
  TileRegionSize one;
  one.num_tiles = 1;
  EXPECT_TRUE(copy_tiles(L, res, L.size(), TileCoordinate{}, one, res, all.size(), L.size(),
                         TileCopyDirection::SwizzledToLinearBuffer)
                  .ok());
  TileCoordinate m1t;
  m1t.subresource = 1;
  EXPECT_TRUE(copy_tiles(L, res, L.size(), m1t, one, res, all.size(), L.sub(0).offset,
                         TileCopyDirection::LinearBufferToSwizzled)
                  .ok());
  // copy_resources: two copies of the resource back to back.
  std::vector<uint8_t> two(2 * L.size());
  EXPECT_TRUE(copy_resources(L, two.data() + L.size(), L.size(), L, two.data(), L.size()).ok());
  EXPECT_EQ(copy_resources(L, two.data() + 1, L.size(), L, two.data(), L.size()).code(), Code::invalid_argument);
}

}  // namespace

#include "swz/swz.h"

namespace {

// (3) The C API gives the C++ verdicts for the requests fixed above.
TEST(RequestBreakit, CApiAgreesOnTheFixedRequests) {
  swz_texture_desc d{};
  d.format = "R8G8B8A8_UNORM";
  d.width = 64;
  d.height = 64;
  swz_layout* L = nullptr;
  ASSERT_EQ(swz_layout_create("std4k", &d, nullptr, &L), SWZ_OK);
  const swz::Layout CL = named("std4k", "R8G8B8A8_UNORM", 64, 64);
  std::vector<uint8_t> buf(CL.size());
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 11 + 1);
  const std::vector<uint8_t> before = buf;
  // A region over its own source with a UINT64_MAX size: refused.
  const swz_box box{0, 0, 0, 16, 16, 1};
  const swz_texture_region r{0, 8, 8, 0, 0, &box};
  EXPECT_EQ(swz_copy_regions(L, buf.data(), buf.size(), L, buf.data(), UINT64_MAX, &r, 1), SWZ_INVALID_ARGUMENT);
  EXPECT_EQ(buf, before);
  // An all-empty footprint copy over the resource's own bytes: accepted, nothing written.
  swz_placed_footprint fp{};
  fp.format = "R8G8B8A8_UNORM";
  fp.width = 64;
  fp.height = 64;
  fp.row_pitch_B = 256;
  const swz_box empty{4, 4, 0, 4, 8, 1};
  swz_copy_region er{};
  er.src_box = &empty;
  EXPECT_EQ(swz_copy_placed_footprint(L, buf.data(), buf.size(), 0, buf.data(), buf.size(), &fp, SWZ_BUFFER_TO_TEXTURE,
                                      &er, 1, nullptr),
            SWZ_OK);
  EXPECT_EQ(buf, before);
  swz_layout_destroy(L);
  // A one-row 3D box, unused row pitch, depth pitch 0: tight, as in C++.
  swz_texture_desc d3{};
  d3.dimension = SWZ_TEXTURE_3D;
  d3.format = "R8G8B8A8_UNORM";
  d3.width = 16;
  d3.height = 16;
  d3.depth = 8;
  swz_layout* L3 = nullptr;
  ASSERT_EQ(swz_layout_create("std64k", &d3, nullptr, &L3), SWZ_OK);
  const swz::Layout C3 = named("std64k", "R8G8B8A8_UNORM", 16, 16, 8);
  std::vector<uint8_t> lin(16 * 4 * 8), a(C3.size()), b(C3.size());
  for (size_t i = 0; i < lin.size(); ++i) lin[i] = static_cast<uint8_t>(i * 7 + 1);
  const swz_box row{0, 3, 0, 16, 4, 8};
  EXPECT_EQ(swz_write_subresource(L3, a.data(), a.size(), 0, &row, lin.data(), lin.size(), 1, 0, nullptr), SWZ_OK);
  const swz::Box cb{0, 3, 0, 16, 4, 8};
  EXPECT_TRUE(swz::write_to_subresource(C3, b.data(), b.size(), 0, &cb, lin.data(), lin.size(), 0, 0).ok());
  EXPECT_EQ(a, b);
  swz_layout_destroy(L3);
}

}  // namespace

namespace {
// (4) Staggered deep boxes (every box starts at another slice) cost one piece
// per slice range they cross: n boxes of depth d starting at slices 0..n-1
// make about n*d pieces, bounded by the copy's own row count (a 3D sweep
// would remove the factor). Here 300 boxes of depth 256: disjoint columns,
// no overlap found.
TEST(RequestBreakit, StaggeredDeepBoxesCost) {
  std::vector<swz::detail::ElementSpan> s;
  for (size_t i = 0; i < 300; ++i) s.push_back({0, i, 0, i, i + 1, 1, i + 256, i, true});
  size_t a = 0, b = 0;
  EXPECT_FALSE(swz::detail::find_span_overlap(s, &a, &b));
}
}  // namespace
