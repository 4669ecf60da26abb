// Every refusal at its boundary: one table per rule, each edge of the box
// (left, top, front, right, bottom, back) one below, at and one past its
// limit, through each C++ entry point that takes a box (write_to_subresource,
// read_from_subresource, box_linear_bytes, copy_regions as source box and as
// destination); the depth-pitch, row-pitch and buffer-size refusals at several
// depths and heights; the destination-overlap check of copy_regions with boxes
// of different sizes touching and overlapping by one element on each axis.
// Expected codes are written in the tables, from the D3D12 rules (D3D12_BOX,
// WriteToSubresource, CopyTextureRegion), not from the library.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "swz/swz.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

constexpr uint8_t kGuard = 0xCD;

// One box through every entry point; each must answer `want`. On a refusal
// nothing is written.
void expect_box_everywhere(const Layout& L, const Box& b, Code want, const std::string& what) {
  const uint64_t rp = 4096, dp = 4096 * 64;
  std::vector<uint8_t> lin(dp * 8, 1), res(L.size(), kGuard);
  SCOPED_TRACE(what + " box (" + std::to_string(b.left) + "," + std::to_string(b.top) + "," + std::to_string(b.front) +
               ")-(" + std::to_string(b.right) + "," + std::to_string(b.bottom) + "," + std::to_string(b.back) + ")");
  Status st = write_to_subresource(L, res.data(), res.size(), 0, &b, lin.data(), lin.size(), rp, dp);
  EXPECT_EQ(st.code(), want) << "write_to_subresource: " << st.message();
  if (!st.ok())
    for (uint8_t v : res) ASSERT_EQ(v, kGuard) << "write_to_subresource wrote before refusing";
  std::vector<uint8_t> back(lin.size(), 2);
  st = read_from_subresource(back.data(), back.size(), rp, dp, L, res.data(), res.size(), 0, &b);
  EXPECT_EQ(st.code(), want) << "read_from_subresource: " << st.message();
  if (!st.ok())
    for (uint8_t v : back) ASSERT_EQ(v, 2) << "read_from_subresource wrote before refusing";
  uint64_t n = 0;
  st = box_linear_bytes(L, 0, &b, rp, dp, &n);
  EXPECT_EQ(st.code(), want) << "box_linear_bytes: " << st.message();
  // As the source box of a region copy into a copy of the same layout.
  std::vector<uint8_t> dst(L.size(), kGuard);
  RegionCopy r;
  r.whole_source = false;
  r.src_box = b;
  st = copy_regions(L, dst.data(), dst.size(), L, res.data(), res.size(), &r, 1);
  EXPECT_EQ(st.code(), want) << "copy_regions (source box): " << st.message();
  if (!st.ok())
    for (uint8_t v : dst) ASSERT_EQ(v, kGuard) << "copy_regions wrote before refusing";
}

struct EdgeRow {
  const char* edge;
  Box box;
  Code want;
};

}  // namespace

// Rule: the box lies inside the subresource (D3D12_BOX: right, bottom, back
// are exclusive and at most the subresource's width, height, depth). The
// subresource is 9 x 7 x 5 texels (R8G8B8A8, 3D, row-major and std64k).
TEST(Boundaries, BoxInsideTheSubresourceEveryEdge) {
  const Box full{0, 0, 0, 9, 7, 5};
  const std::vector<EdgeRow> rows = {
      // right: one below, at, one past the width
      {"right", {0, 0, 0, 8, 7, 5}, Code::ok},
      {"right", {0, 0, 0, 9, 7, 5}, Code::ok},
      {"right", {0, 0, 0, 10, 7, 5}, Code::out_of_range},
      {"bottom", {0, 0, 0, 9, 6, 5}, Code::ok},
      {"bottom", {0, 0, 0, 9, 7, 5}, Code::ok},
      {"bottom", {0, 0, 0, 9, 8, 5}, Code::out_of_range},
      {"back", {0, 0, 0, 9, 7, 4}, Code::ok},
      {"back", {0, 0, 0, 9, 7, 5}, Code::ok},
      {"back", {0, 0, 0, 9, 7, 6}, Code::out_of_range},
      // left/top/front: the last texel, and one past the box (empty: nothing to do)
      {"left", {8, 0, 0, 9, 7, 5}, Code::ok},
      {"left", {9, 0, 0, 9, 7, 5}, Code::ok},
      {"top", {0, 6, 0, 9, 7, 5}, Code::ok},
      {"top", {0, 7, 0, 9, 7, 5}, Code::ok},
      {"front", {0, 0, 4, 9, 7, 5}, Code::ok},
      {"front", {0, 0, 5, 9, 7, 5}, Code::ok},
      // a one-texel box at the far corner, and one past it on each axis
      {"corner", {8, 6, 4, 9, 7, 5}, Code::ok},
      {"corner x", {9, 6, 4, 10, 7, 5}, Code::out_of_range},
      {"corner y", {8, 7, 4, 9, 8, 5}, Code::out_of_range},
      {"corner z", {8, 6, 5, 9, 7, 6}, Code::out_of_range},
  };
  for (LayoutKind kind : {LayoutKind::RowMajor, LayoutKind::Std64K}) {
    LayoutSpec spec;
    spec.kind = kind;
    Layout L;
    ASSERT_TRUE(make_layout(swz_test::tex3d("R8G8B8A8_UNORM", 9, 7, 5), spec, &L).ok());
    ASSERT_EQ(L.sub(0).width, full.right);
    for (const EdgeRow& r : rows) expect_box_everywhere(L, r.box, r.want, std::string(L.name()) + " " + r.edge);
  }
}

// Rule: for block-compressed formats, left and top are multiples of the 4x4
// block; right and bottom are multiples of 4 or the subresource edge; front
// and back are free (D3D12 WriteToSubresource, CopyTextureRegion). BC1 3D,
// 10 x 14 x 5 texels (neither 10 nor 14 a multiple of 4).
TEST(Boundaries, BlockCompressedEdgesEveryEdge) {
  const std::vector<EdgeRow> rows = {
      {"left", {3, 0, 0, 8, 8, 1}, Code::invalid_argument},
      {"left", {4, 0, 0, 8, 8, 1}, Code::ok},
      {"left", {5, 0, 0, 8, 8, 1}, Code::invalid_argument},
      {"top", {0, 3, 0, 8, 8, 1}, Code::invalid_argument},
      {"top", {0, 4, 0, 8, 8, 1}, Code::ok},
      {"top", {0, 5, 0, 8, 8, 1}, Code::invalid_argument},
      {"front", {0, 0, 1, 8, 8, 2}, Code::ok},
      {"front", {0, 0, 4, 8, 8, 5}, Code::ok},
      {"right", {0, 0, 0, 7, 8, 1}, Code::invalid_argument},
      {"right", {0, 0, 0, 8, 8, 1}, Code::ok},
      {"right", {0, 0, 0, 9, 8, 1}, Code::invalid_argument},   // one below the edge
      {"right", {0, 0, 0, 10, 8, 1}, Code::ok},                // at the edge
      {"right", {0, 0, 0, 11, 8, 1}, Code::out_of_range},      // one past it
      {"right", {0, 0, 0, 12, 8, 1}, Code::out_of_range},      // a multiple of 4 past the edge
      {"bottom", {0, 0, 0, 8, 7, 1}, Code::invalid_argument},
      {"bottom", {0, 0, 0, 8, 8, 1}, Code::ok},
      {"bottom", {0, 0, 0, 8, 13, 1}, Code::invalid_argument},
      {"bottom", {0, 0, 0, 8, 14, 1}, Code::ok},
      {"bottom", {0, 0, 0, 8, 15, 1}, Code::out_of_range},
      {"bottom", {0, 0, 0, 8, 16, 1}, Code::out_of_range},
      {"back", {0, 0, 0, 8, 8, 3}, Code::ok},
      {"back", {0, 0, 0, 8, 8, 5}, Code::ok},
      {"back", {0, 0, 0, 8, 8, 6}, Code::out_of_range},
      {"left+right at edges", {8, 12, 0, 10, 14, 5}, Code::ok},
  };
  for (LayoutKind kind : {LayoutKind::RowMajor, LayoutKind::Std64K}) {
    LayoutSpec spec;
    spec.kind = kind;
    Layout L;
    ASSERT_TRUE(make_layout(swz_test::tex3d("BC1_UNORM", 10, 14, 5), spec, &L).ok());
    for (const EdgeRow& r : rows) expect_box_everywhere(L, r.box, r.want, std::string(L.name()) + " BC1 " + r.edge);
  }
}

// copy_regions' destination: (dst_x, dst_y, dst_z) + the box's size at most
// the destination subresource, on each axis; BC destinations on the 4x4 grid.
TEST(Boundaries, RegionDestinationEveryAxis) {
  Layout L;
  ASSERT_TRUE(make_layout(swz_test::tex3d("R8G8B8A8_UNORM", 9, 7, 5), LayoutSpec{}, &L).ok());
  std::vector<uint8_t> src(L.size(), 1), dst(L.size(), kGuard);
  const struct {
    uint32_t x, y, z;
    Code want;
  } rows[] = {
      {6, 0, 0, Code::ok}, {7, 0, 0, Code::out_of_range}, {0, 4, 0, Code::ok}, {0, 5, 0, Code::out_of_range},
      {0, 0, 3, Code::ok}, {0, 0, 4, Code::out_of_range},
  };
  for (const auto& row : rows) {
    RegionCopy r;
    r.whole_source = false;
    r.src_box = Box{0, 0, 0, 3, 3, 2};
    r.dst_x = row.x;
    r.dst_y = row.y;
    r.dst_z = row.z;
    Status st = copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), &r, 1);
    EXPECT_EQ(st.code(), row.want) << row.x << "," << row.y << "," << row.z << ": " << st.message();
  }
  Layout B;
  ASSERT_TRUE(make_layout(swz_test::tex2d("BC1_UNORM", 16, 16), LayoutSpec{}, &B).ok());
  std::vector<uint8_t> bs(B.size(), 1), bd(B.size(), 0);
  for (uint32_t x : {3u, 4u, 5u})
    for (uint32_t y : {3u, 4u, 5u}) {
      RegionCopy r;
      r.whole_source = false;
      r.src_box = Box{0, 0, 0, 4, 4, 1};
      r.dst_x = x;
      r.dst_y = y;
      const Code want = (x == 4 && y == 4) ? Code::ok : Code::invalid_argument;
      Status st = copy_regions(B, bd.data(), bd.size(), B, bs.data(), bs.size(), &r, 1);
      EXPECT_EQ(st.code(), want) << "BC dst " << x << "," << y << ": " << st.message();
    }
}

// Two destination regions of different sizes in one call: adjacent on an
// axis is fine, one element of overlap is refused, on each axis and from
// either side. Region A: 4 x 3 x 2 at (5, 5, 3); region B: 2 x 5 x 3.
TEST(Boundaries, RegionOverlapOfDifferentSizesEveryAxis) {
  Layout L;
  ASSERT_TRUE(make_layout(swz_test::tex3d("R8G8B8A8_UNORM", 16, 16, 8), LayoutSpec{}, &L).ok());
  std::vector<uint8_t> src(L.size(), 1), dst(L.size(), kGuard);
  const uint32_t ax = 5, ay = 5, az = 3, aw = 4, ah = 3, ad = 2;
  const uint32_t bw = 2, bh = 5, bd = 3;
  struct Row {
    const char* what;
    uint32_t bx, by, bz;
    Code want;
  };
  // B overlaps A on the two axes not named, so only the named axis decides.
  const std::vector<Row> rows = {
      {"x: B right of A, touching", ax + aw, ay - 1, az - 1, Code::ok},
      {"x: B right of A, one overlap", ax + aw - 1, ay - 1, az - 1, Code::invalid_argument},
      {"x: B left of A, touching", ax - bw, ay - 1, az - 1, Code::ok},
      {"x: B left of A, one overlap", ax - bw + 1, ay - 1, az - 1, Code::invalid_argument},
      {"y: B below A, touching", ax + 1, ay + ah, az - 1, Code::ok},
      {"y: B below A, one overlap", ax + 1, ay + ah - 1, az - 1, Code::invalid_argument},
      {"y: B above A, touching", ax + 1, ay - bh, az - 1, Code::ok},
      {"y: B above A, one overlap", ax + 1, ay - bh + 1, az - 1, Code::invalid_argument},
      {"z: B behind A, touching", ax + 1, ay - 1, az + ad, Code::ok},
      {"z: B behind A, one overlap", ax + 1, ay - 1, az + ad - 1, Code::invalid_argument},
      {"z: B in front of A, touching", ax + 1, ay - 1, az - bd, Code::ok},
      {"z: B in front of A, one overlap", ax + 1, ay - 1, az - bd + 1, Code::invalid_argument},
      {"B inside A's bounds", ax + 1, ay, az, Code::invalid_argument},
  };
  for (const Row& row : rows) {
    RegionCopy r[2];
    r[0].whole_source = r[1].whole_source = false;
    r[0].src_box = Box{0, 0, 0, aw, ah, ad};
    r[0].dst_x = ax;
    r[0].dst_y = ay;
    r[0].dst_z = az;
    r[1].src_box = Box{8, 8, 4, 8 + bw, 8 + bh, 4 + bd};
    r[1].dst_x = row.bx;
    r[1].dst_y = row.by;
    r[1].dst_z = row.bz;
    for (int order = 0; order < 2; ++order) {
      const RegionCopy pair[2] = {r[order], r[1 - order]};
      Status st = copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), pair, 2);
      EXPECT_EQ(st.code(), row.want) << row.what << (order ? " (B first)" : " (A first)") << ": " << st.message();
    }
  }
  for (uint8_t v : dst)
    if (v != kGuard && v != 1) FAIL() << "unexpected byte";
}

// Rule: a layout's depth pitch holds a slice of blocks (make_layout refuses a
// smaller one whenever the subresource has more than one slice of blocks),
// at several depths and block depths: one block below the tightest pitch, at
// it, and not a multiple of the block.
TEST(Boundaries, LayoutDepthPitchAtSeveralDepths) {
  struct P {
    const char* text;
    uint32_t ext_y, ext_z;  // rows and slices per block
  } pats[] = {{"X0 X1 Y0 Y1", 4, 1}, {"X0 Y0 Y1 Z0", 4, 2}, {"X0 Y0 Z0 Z1", 2, 4}};
  int refusals = 0;
  for (const P& pt : pats) {
    Pattern p;
    ASSERT_TRUE(parse_pattern_text(pt.text, &p).ok());
    const uint64_t BB = 16;
    for (uint32_t depth : {1u, 2u, 3u, 4u, 5u, 8u, 9u, 17u}) {
      const TextureDesc d = swz_test::tex3d("R8_UNORM", 12, 10, depth);
      LayoutSpec spec;
      spec.kind = LayoutKind::Pattern;
      spec.pattern = p;
      Layout tight;
      ASSERT_TRUE(make_layout(d, spec, &tight).ok()) << pt.text << " depth " << depth;
      const uint64_t min_dp = tight.sub(0).depth_pitch_B;
      const bool slices_of_blocks = (depth + pt.ext_z - 1) / pt.ext_z > 1;
      Layout L;
      spec.depth_pitch_B = min_dp;
      EXPECT_TRUE(make_layout(d, spec, &L).ok()) << pt.text << " depth " << depth << " at the tightest";
      spec.depth_pitch_B = min_dp + BB;
      EXPECT_TRUE(make_layout(d, spec, &L).ok()) << pt.text << " depth " << depth << " one block more";
      spec.depth_pitch_B = min_dp - BB;
      Status st = make_layout(d, spec, &L);
      if (slices_of_blocks) {
        EXPECT_EQ(st.code(), Code::invalid_argument) << pt.text << " depth " << depth << " one block less";
        EXPECT_NE(st.message().find("depth_pitch_B = " + std::to_string(min_dp - BB)), std::string::npos)
            << st.message();
        ++refusals;
      } else {
        EXPECT_TRUE(st.ok()) << pt.text << " depth " << depth << ": one slice of blocks needs no depth pitch";
      }
      spec.depth_pitch_B = min_dp + 1;
      EXPECT_EQ(make_layout(d, spec, &L).code(), Code::invalid_argument) << pt.text << " not a block multiple";
      // The tightest pitch is the rows of blocks x the row pitch (10 rows).
      EXPECT_EQ(min_dp, (10 + pt.ext_y - 1) / pt.ext_y * tight.sub(0).row_pitch) << pt.text;
    }
  }
  EXPECT_EQ(refusals, 7 + 6 + 4);  // depths with more than one slice of blocks: all but 1; all but 1, 2; all but 1..4
}

// Rule: the linear side of a copy. Its row pitch holds a row of the box when
// the box has more than one row; its depth pitch holds a slice of the box
// when the box has more than one slice; its size holds the last byte. At
// several heights and depths, one below and at each limit.
TEST(Boundaries, LinearPitchesAndSizeAtSeveralDepths) {
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(swz_test::tex3d("R8G8B8A8_UNORM", 20, 9, 7), spec, &L).ok());
  std::vector<uint8_t> res(L.size(), kGuard);
  int refused = 0, accepted = 0;
  for (uint32_t h : {1u, 2u, 3u, 9u})
    for (uint32_t depth : {1u, 2u, 3u, 7u}) {
      const Box b{1, 0, 0, 6, h, depth};
      const uint64_t row = 5 * 4;
      for (uint64_t rp : {row - 1, row, uint64_t{32}}) {
        const uint64_t slice = (h - 1) * rp + row;
        for (uint64_t dp : {slice - 1, slice, slice + 3}) {
          const uint64_t need = (depth - 1) * dp + slice;
          const bool rp_bad = h > 1 && rp < row;
          const bool dp_bad = !rp_bad && depth > 1 && dp < slice;
          for (uint64_t size : {need - 1, need}) {
            std::vector<uint8_t> lin(need + 16, 3);
            const Code want = rp_bad || dp_bad ? Code::invalid_argument
                              : size < need    ? Code::buffer_too_small
                                               : Code::ok;
            const std::string what = "h " + std::to_string(h) + " d " + std::to_string(depth) + " rp " +
                                     std::to_string(rp) + " dp " + std::to_string(dp) + " size " +
                                     std::to_string(size);
            Status st = write_to_subresource(L, res.data(), res.size(), 0, &b, lin.data(), size, rp, dp);
            EXPECT_EQ(st.code(), want) << "write " << what << ": " << st.message();
            st = read_from_subresource(lin.data(), size, rp, dp, L, res.data(), res.size(), 0, &b);
            EXPECT_EQ(st.code(), want) << "read " << what << ": " << st.message();
            uint64_t n = 0;
            st = box_linear_bytes(L, 0, &b, rp, dp, &n);
            EXPECT_EQ(st.code(), rp_bad || dp_bad ? Code::invalid_argument : Code::ok) << "box_linear_bytes " << what;
            if (st.ok()) EXPECT_EQ(n, need) << what;
            (want == Code::ok ? accepted : refused)++;
          }
        }
      }
    }
  EXPECT_GT(refused, 50);
  EXPECT_GT(accepted, 30);
  // The resource side: one byte short of the subresource's end, and at it.
  std::vector<uint8_t> lin(20 * 9 * 7 * 4, 1);
  EXPECT_EQ(write_to_subresource(L, res.data(), L.size() - 1, 0, nullptr, lin.data(), lin.size(), 80, 720).code(),
            Code::buffer_too_small);
  EXPECT_TRUE(write_to_subresource(L, res.data(), L.size(), 0, nullptr, lin.data(), lin.size(), 80, 720).ok());
}

// ---- Validation (docs/ARCHITECTURE.md rule 8): each rule just inside and
// just outside its limit. Patterns are built field by field.

namespace {

Pattern from_text(const char* t) {
  Pattern p;
  EXPECT_TRUE(parse_pattern_text(t, &p).ok()) << t;
  return p;
}

}  // namespace

TEST(BoundaryValidation, EachRuleAtItsLimit) {
  struct Row {
    const char* what;
    Pattern p;
    uint32_t eb;
    bool valid;
  };
  std::vector<Row> rows;
  // Postamble terms apply to address bits 8..23 only.
  {
    Pattern p = from_text("X0 X1 X2 X3 Y0 Y1 Y2 Y3 X4 X5 X6 X7");
    Pattern at = p, past = p, below = p;
    at.postamble[0][23] = BitEntry::make(Channel::Y, 9);
    past.postamble[0][24] = BitEntry::make(Channel::Y, 9);
    below.postamble[1][7] = BitEntry::make(Channel::Y, 9);
    Pattern first = p;
    first.postamble[1][8] = BitEntry::make(Channel::Y, 9);
    rows.push_back({"postamble on bit 23", at, 1, true});
    rows.push_back({"postamble on bit 24", past, 1, false});
    rows.push_back({"postamble on bit 8", first, 1, true});
    rows.push_back({"postamble on bit 7", below, 1, false});
  }
  // XOR terms only on address bits of the prefix (n = 6 here).
  {
    Pattern p = from_text("X0 X1 Y0 Y1 X2 Y2");
    for (int j = 0; j < 4; ++j) {
      Pattern last = p, past = p;
      last.xors[j][5] = BitEntry::make(Channel::X, 9);
      past.xors[j][6] = BitEntry::make(Channel::X, 9);
      rows.push_back({"XOR term on the last bit", last, 1, true});
      rows.push_back({"XOR term one past the prefix", past, 1, false});
    }
  }
  // The immediate fits the block: bit n-1 is inside, bit n is not.
  {
    Pattern p = from_text("X0 X1 X2 Y0 Y1");
    Pattern in = p, out = p;
    in.immediate = 1u << 4;
    out.immediate = 1u << 5;
    rows.push_back({"immediate bit n-1", in, 1, true});
    rows.push_back({"immediate bit n", out, 1, false});
  }
  // 4-byte elements: address bits 0..1 take no XOR terms (any of the four),
  // no immediate bits; bit 2 may.
  {
    Pattern p = from_text("X0 X1 X2 Y0 X3 Y1");
    for (int j = 0; j < 4; ++j) {
      Pattern on1 = p, on2 = p;
      on1.xors[j][1] = BitEntry::make(Channel::Y, 5);
      on2.xors[j][2] = BitEntry::make(Channel::Y, 5);
      rows.push_back({"XOR term on an element byte (bit 1)", on1, 4, false});
      rows.push_back({"XOR term on bit 2 of 4-byte elements", on2, 4, true});
    }
    Pattern imm1 = p, imm2 = p;
    imm1.immediate = 2;
    imm2.immediate = 4;
    rows.push_back({"immediate bit 1 with 4-byte elements", imm1, 4, false});
    rows.push_back({"immediate bit 2 with 4-byte elements", imm2, 4, true});
    Pattern b2 = from_text("X0 Y0 X1");
    b2.immediate = 1;
    rows.push_back({"immediate bit 0 with 2-byte elements", b2, 2, false});
  }
  // Stacked depth: no Z bits anywhere, at any position.
  for (const char* t : {"Z0 X0 Y0 stack", "X0 Y0 X1 Y1 X2 Y2 X3 Y3 Z0 stack", "X0 Y0 X1 Y1 X2 Y2 X3 Y3 X4 Z0 stack"}) {
    Pattern p;
    EXPECT_FALSE(parse_pattern_text(t, &p).ok() && validate(p, 1).ok()) << t;
  }
  {
    Pattern p = from_text("X0 Y0 X1 Y1 X2 Y2 X3 Y3 X4 Y4");
    p.flags |= kFlagStackDepthSlices;
    rows.push_back({"stacked without Z", p, 1, true});
    Pattern z = p;
    z.interleave[9] = BitEntry::make(Channel::Z, 0);
    rows.push_back({"stacked with Z0 as bit 9", z, 1, false});
    Pattern z2 = from_text("X0 Y0 Z0 Y1 X1 Y2 X2 Y3 X3 Y4");
    rows.push_back({"Z0 as bit 2, not stacked", z2, 1, true});
    z2.flags |= kFlagStackDepthSlices;
    rows.push_back({"stacked with Z0 as bit 2", z2, 1, false});
  }
  // The in-block map must be invertible: an XOR term (any of the four) or an
  // in-block postamble term (either of the two) naming its own bit's primary
  // cancels it. The same term naming another bit's source is fine.
  {
    Pattern p = from_text("X0 X1 Y0 Y1");
    for (int j = 0; j < 4; ++j) {
      Pattern self = p, other = p;
      self.xors[j][1] = BitEntry::make(Channel::X, 1);
      other.xors[j][1] = BitEntry::make(Channel::X, 7);
      rows.push_back({"XOR term cancelling its primary", self, 1, false});
      rows.push_back({"XOR term from above the block", other, 1, true});
    }
    Pattern q = from_text("X0 X1 X2 X3 Y0 Y1 Y2 Y3 X4 Y4");
    for (int j = 0; j < 2; ++j) {
      Pattern self = q, other = q;
      self.postamble[j][8] = BitEntry::make(Channel::X, 4);
      other.postamble[j][8] = BitEntry::make(Channel::Y, 4);
      rows.push_back({"in-block postamble term cancelling its primary", self, 1, false});
      rows.push_back({"in-block postamble term from another in-block bit", other, 1, true});
    }
  }
  // Valid entries form a prefix: an entry right after the first invalid one.
  {
    Pattern p = from_text("X0 X1 Y0 Y1");
    Pattern gap = p;
    gap.interleave[5] = BitEntry::make(Channel::Y, 2);
    Pattern next = p;
    next.interleave[4] = BitEntry::make(Channel::Y, 2);
    Pattern last = p;
    last.interleave[31] = BitEntry::make(Channel::Y, 2);
    rows.push_back({"entry after a gap of one", gap, 1, false});
    rows.push_back({"entry 31 after a gap", last, 1, false});
    rows.push_back({"entry right after the last", next, 1, true});
  }
  // A primary used twice is not a bijection, whichever channel; the message says so.
  for (const char* t : {"X0 X0", "X0 Y0 Y0", "X0 Z0 Z0", "X0 S0 S0"}) {
    rows.push_back({t, from_text(t), 1, false});
    const Status st = validate(from_text(t), 1);
    EXPECT_NE(st.message().find("repeats a primary source bit"), std::string::npos) << t << ": " << st.message();
  }
  int checked = 0;
  for (const Row& r : rows) {
    const Status st = validate(r.p, r.eb);
    EXPECT_EQ(st.ok(), r.valid) << r.what << ": " << to_text(r.p) << ": " << st.message();
    if (!r.valid) EXPECT_EQ(st.code(), Code::invalid_argument) << r.what;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(rows.size()));
  EXPECT_GT(checked, 30);
}

// The pattern's sample bits must address exactly the texture's samples.
TEST(BoundaryValidation, SampleBitsMatchTheSamples) {
  const struct {
    const char* pattern;
    uint32_t samples;
    bool ok;
  } rows[] = {{"X0 X1 Y0 Y1 S0", 1, false}, {"X0 X1 Y0 Y1 S0", 2, true},       {"X0 X1 Y0 Y1 S0", 4, false},
              {"X0 X1 Y0 S0 S1", 2, false}, {"X0 X1 Y0 S0 S1", 4, true},       {"X0 X1 Y0 S0 S1", 8, false},
              {"X0 X1 Y0 Y1", 1, true},     {"X0 X1 Y0 Y1", 2, false}};
  for (const auto& r : rows) {
    TextureDesc d = swz_test::tex2d("R8_UNORM", 8, 8);
    d.samples = r.samples;
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = from_text(r.pattern);
    Layout L;
    const Status st = make_layout(d, spec, &L);
    EXPECT_EQ(st.ok(), r.ok) << r.pattern << " with " << r.samples << " samples: " << st.message();
  }
}

// Explicit row pitches: at least a row of blocks, and a multiple of the block.
TEST(BoundaryValidation, RowPitchAtItsLimits) {
  for (const char* t : {"X0 X1 Y0 Y1", "X0 X1 X2 X3 Y0 Y1 Y2 Y3", "X0 X1 X2 X3 Y0 Y1 Y2 Y3 X4 X5 Y4 Y5"}) {
    const Pattern p = from_text(t);
    const uint64_t BB = uint64_t{1} << p.block_bits();
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    const TextureDesc d = swz_test::tex2d("R8_UNORM", 100, 20);
    Layout tight;
    ASSERT_TRUE(make_layout(d, spec, &tight).ok()) << t;
    const uint64_t min_rp = tight.sub(0).row_pitch;
    Layout L;
    spec.row_pitch_B = min_rp;
    EXPECT_TRUE(make_layout(d, spec, &L).ok()) << t;
    spec.row_pitch_B = min_rp + BB;
    EXPECT_TRUE(make_layout(d, spec, &L).ok()) << t;
    spec.row_pitch_B = min_rp - BB;
    EXPECT_EQ(make_layout(d, spec, &L).code(), Code::invalid_argument) << t << " one block short";
    for (uint64_t off : {uint64_t{1}, BB / 2, BB - 1}) {
      spec.row_pitch_B = min_rp + off;
      EXPECT_EQ(make_layout(d, spec, &L).code(), Code::invalid_argument) << t << " pitch + " << off;
    }
  }
}

// CONDITIONAL_POSTAMBLE_XORS is imported but its meaning is unspecified:
// every copy refuses a layout whose pattern has it, and writes nothing.
TEST(BoundaryValidation, ConditionalPostambleRefusedByCopies) {
  for (const char* t : {"X0 X1 Y0 Y1 cond-post", "X0 X1 X2 X3 Y0 Y1 Y2 Y3 X4 post8=Y5 cond-post"}) {
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = from_text(t);
    Layout L;
    ASSERT_TRUE(make_layout(swz_test::tex2d("R8_UNORM", 16, 16), spec, &L).ok()) << t;
    std::vector<uint8_t> res(L.size(), kGuard), lin(256, 1), back(256, 2);
    EXPECT_EQ(write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), 16, 256).code(),
              Code::unsupported)
        << t;
    EXPECT_EQ(read_from_subresource(back.data(), back.size(), 16, 256, L, res.data(), res.size(), 0, nullptr).code(),
              Code::unsupported)
        << t;
    for (uint8_t v : res) ASSERT_EQ(v, kGuard) << t;
    for (uint8_t v : back) ASSERT_EQ(v, 2) << t;
  }
}
