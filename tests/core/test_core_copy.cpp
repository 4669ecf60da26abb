// Plan + scalar tiler + copy API against the reference routine, over random
// patterns, element sizes, sizes, boxes and pitches, with guard bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

#include "swz/swz.hpp"
#include "core/plan.hpp"  // internal: the compiled tables
#include "placement_oracle.hpp"
#include "test_scale.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

constexpr uint8_t kGuard = 0xCD;
constexpr uint64_t kSlack = 64;

struct Case {
  Pattern pattern;
  TextureDesc desc;
  Layout layout;
};

// Expected resource bytes after writing `src` (box in elements) computed per
// byte with reference_offset, at the place and pitches of the placement
// oracle (tests/support/placement_oracle.hpp), not the Layout's.
void reference_write(const Pattern& p, const swz_oracle::Place& s, const Box& b, const uint8_t* src, uint64_t rp,
                     uint64_t dp, std::vector<uint8_t>& res) {
  AddressParams a;
  a.row_pitch = s.row_pitch;
  a.depth_pitch_B = s.depth_pitch;
  a.stack_rows = s.stack_rows;
  const uint32_t eb = s.element_bytes;
  for (uint32_t z = b.front; z < b.back; ++z)
    for (uint32_t y = b.top; y < b.bottom; ++y)
      for (uint32_t x = b.left; x < b.right; ++x)
        for (uint32_t j = 0; j < eb; ++j) {
          uint64_t off = s.offset + reference_offset(p, uint64_t{x} * eb + j, y, z, 0, a);
          res.at(off) = src[(z - b.front) * dp + (y - b.top) * rp + (x - b.left) * eb + j];
        }
}

}  // namespace

TEST(CopyProperty, RandomPatternsMatchReference) {
  std::mt19937_64 rng(20261130);
  int ran = 0, refused = 0;
  for (int it = 0; it < swz_test::scaled(1500); ++it) {
    swz_test::RandomPatternOptions o;
    o.element_log2 = static_cast<unsigned>(rng() % 5);
    o.max_block_bits = o.element_log2 + 2 + static_cast<unsigned>(rng() % 9);
    o.allow_high_postamble = rng() % 4 == 0;
    Pattern p = swz_test::random_pattern(rng, o);
    TextureDesc d;
    d.format = swz_test::format_for_bytes(1u << o.element_log2);
    const bool is3d = rng() % 3 == 0;
    auto dim = [&](unsigned maxv) { return 1 + static_cast<uint32_t>(rng() % maxv); };
    d.width = rng() % 5 == 0 ? 1 : dim(70);
    d.height = rng() % 5 == 0 ? 1 : dim(40);
    if (is3d) {
      d.dimension = Dimension::Texture3D;
      d.depth = dim(6);
    }
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    Layout L;
    Status st = make_layout(d, spec, &L);
    if (!st.ok()) {
      // Only the postamble check may refuse a valid pattern: terms that move
      // whole blocks can make two blocks collide on some surfaces.
      ASSERT_NE(st.message().find("postamble"), std::string::npos) << st.message() << " " << to_text(p);
      ++refused;
      continue;
    }
    const SubresourceLayout& s = L.sub(0);
    // The product's placement of subresource 0 against the oracle's.
    const swz_oracle::Resource placed = swz_oracle::pattern_layout(d, p);
    const swz_oracle::Place& want_place = placed.subs.at(0);
    ASSERT_EQ(s.offset, want_place.offset) << to_text(p);
    ASSERT_EQ(s.row_pitch, want_place.row_pitch) << to_text(p);
    ASSERT_EQ(s.stack_rows, want_place.stack_rows) << to_text(p);
    if (s.depth > 1 && !p.stack_depth_slices()) ASSERT_EQ(s.depth_pitch_B, want_place.depth_pitch) << to_text(p);
    if (want_place.size_exact) ASSERT_EQ(L.size(), want_place.size) << to_text(p);
    // Random box (sometimes the whole subresource, sometimes empty-free edges).
    Box b{0, 0, 0, s.width, s.height, s.depth};
    if (rng() % 2) {
      b.left = static_cast<uint32_t>(rng() % s.width);
      b.right = b.left + 1 + static_cast<uint32_t>(rng() % (s.width - b.left));
      b.top = static_cast<uint32_t>(rng() % s.height);
      b.bottom = b.top + 1 + static_cast<uint32_t>(rng() % (s.height - b.top));
      b.front = static_cast<uint32_t>(rng() % s.depth);
      b.back = b.front + 1 + static_cast<uint32_t>(rng() % (s.depth - b.front));
    }
    const uint32_t eb = s.element_bytes;
    const uint64_t w = b.right - b.left, h = b.bottom - b.top, dd = b.back - b.front;
    const uint64_t rp = w * eb + (rng() % 3) * static_cast<uint64_t>(rng() % 37);
    const uint64_t dp = rp * h + (rng() % 2) * static_cast<uint64_t>(rng() % 50);
    const uint64_t lin_size = (dd - 1) * dp + (h - 1) * rp + w * eb;
    std::vector<uint8_t> src(lin_size);
    for (auto& x : src) x = static_cast<uint8_t>(rng());
    std::vector<uint8_t> res(L.size() + kSlack, kGuard), want(L.size() + kSlack, kGuard);
    CopyOptions co;
    co.backend = Backend::Scalar;
    co.threads = 1 + static_cast<unsigned>(rng() % 2);
    st = write_to_subresource(L, res.data(), L.size(), 0, &b, src.data(), src.size(), rp, dp, co);
    ASSERT_TRUE(st.ok()) << st.message();
    reference_write(p, want_place, b, src.data(), rp, dp, want);
    ASSERT_EQ(res, want) << to_text(p) << " eb=" << eb << " " << d.width << "x" << d.height << "x" << d.depth;
    // Read back into a guarded linear buffer.
    std::vector<uint8_t> back(lin_size + kSlack, kGuard);
    st = read_from_subresource(back.data(), lin_size, rp, dp, L, res.data(), L.size(), 0, &b, co);
    ASSERT_TRUE(st.ok()) << st.message();
    for (uint64_t z = 0; z < dd; ++z)
      for (uint64_t y = 0; y < h; ++y)
        ASSERT_EQ(0, std::memcmp(back.data() + z * dp + y * rp, src.data() + z * dp + y * rp, w * eb));
    for (uint64_t i = lin_size; i < back.size(); ++i) ASSERT_EQ(back[i], kGuard);
    ++ran;
  }
  EXPECT_GT(ran, swz_test::scaled(1000));
  std::printf("ran %d cases, %d refused because postamble terms make blocks collide\n", ran, refused);
}

TEST(CopyProperty, ValidPatternsAreBijectionsAndLocateInvertsOffset) {
  std::mt19937_64 rng(77);
  int ran = 0, full_scans = 0;
  for (int it = 0; it < swz_test::scaled(300); ++it) {
    swz_test::RandomPatternOptions o;
    o.element_log2 = static_cast<unsigned>(rng() % 5);
    o.max_block_bits = o.element_log2 + 1 + static_cast<unsigned>(rng() % 8);
    o.allow_high_postamble = rng() % 3 == 0;
    Pattern p = swz_test::random_pattern(rng, o);
    TextureDesc d;
    d.format = swz_test::format_for_bytes(1u << o.element_log2);
    d.width = 1 + static_cast<uint32_t>(rng() % 40);
    d.height = 1 + static_cast<uint32_t>(rng() % 30);
    if (rng() % 2) {
      d.dimension = Dimension::Texture3D;
      d.depth = 1 + static_cast<uint32_t>(rng() % 4);
      d.mip_levels = 1 + static_cast<uint32_t>(rng() % full_mip_count(d.width, d.height, d.depth));
    } else {
      d.array_size = 1 + static_cast<uint32_t>(rng() % 3);
      d.mip_levels = 1 + static_cast<uint32_t>(rng() % full_mip_count(d.width, d.height, 1));
    }
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    Layout L;
    if (!make_layout(d, spec, &L).ok()) continue;
    ++ran;
    std::set<uint64_t> seen;
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const auto& s = L.sub(i);
      for (uint32_t z = 0; z < s.depth; ++z)
        for (uint32_t y = 0; y < s.height_el; ++y)
          for (uint32_t x = 0; x < s.width_el; ++x) {
            uint64_t off;
            ASSERT_TRUE(element_offset(L, i, x, y, z, 0, &off).ok());
            ASSERT_GE(off, s.offset);
            ASSERT_LT(off + s.element_bytes - 1, s.offset + s.size);
            ASSERT_TRUE(seen.insert(off).second) << "collision " << to_text(p);
            Location loc;
            uint32_t byte = static_cast<uint32_t>(rng() % s.element_bytes);
            ASSERT_TRUE(locate(L, off + byte, &loc).ok());
            ASSERT_FALSE(loc.padding) << to_text(p) << " sub " << i << " " << x << "," << y << "," << z;
            EXPECT_EQ(loc.subresource, i);
            EXPECT_EQ(loc.x, x);
            EXPECT_EQ(loc.y, y);
            EXPECT_EQ(loc.z, z);
            EXPECT_EQ(loc.byte, byte);
          }
    }
    // Every other byte of the resource is padding (full scan on small
    // resources; on large ones, random bytes must decode consistently).
    uint64_t elements_bytes = 0;
    for (uint32_t i = 0; i < L.subresource_count(); ++i) elements_bytes += packed_subresource_bytes(L.sub(i));
    if (L.size() > (1u << 16)) {
      for (int k = 0; k < 2000; ++k) {
        const uint64_t off = rng() % L.size();
        Location loc;
        ASSERT_TRUE(locate(L, off, &loc).ok());
        if (loc.padding) continue;
        uint64_t back;
        ASSERT_TRUE(element_offset(L, loc.subresource, loc.x, loc.y, loc.z, 0, &back).ok());
        ASSERT_EQ(back + loc.byte, off);
      }
      continue;
    }
    uint64_t padding = 0;
    for (uint64_t off = 0; off < L.size(); ++off) {
      Location loc;
      ASSERT_TRUE(locate(L, off, &loc).ok());
      padding += loc.padding;
    }
    EXPECT_EQ(padding, L.size() - elements_bytes) << to_text(p);
    ++full_scans;
  }
  // Refused layouts are skipped: the loop must still have checked most cases.
  EXPECT_GE(ran, swz_test::scaled(300) * 3 / 4);
  EXPECT_GE(full_scans, swz_test::scaled(300) / 4);
}

TEST(CopyRoundTrip, EveryLayoutFormatAndMip) {
  std::mt19937_64 rng(5);
  int ran = 0;
  const char* formats[] = {"R8_UNORM",           "R8G8_UNORM", "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
                           "R32G32B32A32_FLOAT", "BC1_UNORM",  "BC7_UNORM"};
  for (LayoutKind kind : {LayoutKind::RowMajor, LayoutKind::Std64K, LayoutKind::Std4K})
    for (const char* fmt : formats)
      for (bool is3d : {false, true}) {
        TextureDesc d;
        ASSERT_TRUE(find_format(fmt, &d.format).ok());
        d.width = 37 + static_cast<uint32_t>(rng() % 90);
        d.height = 21 + static_cast<uint32_t>(rng() % 50);
        if (is3d) {
          d.dimension = Dimension::Texture3D;
          d.depth = 5;
        } else {
          d.array_size = 2;
        }
        d.mip_levels = full_mip_count(d.width, d.height, d.depth);
        LayoutSpec spec;
        spec.kind = kind;
        Layout L;
        Status st = make_layout(d, spec, &L);
        if (kind == LayoutKind::Std4K && is3d && d.format.element_bytes != 1 && d.format.element_bytes != 8) {
          EXPECT_EQ(st.code(), Code::unsupported) << st.message();
          continue;
        }
        ASSERT_TRUE(st.ok()) << st.message();
        ++ran;
        std::vector<uint8_t> res(L.size(), 0);
        for (uint32_t i = 0; i < L.subresource_count(); ++i) {
          const auto& s = L.sub(i);
          EXPECT_EQ(s.offset % L.alignment(), 0u);
          uint64_t rp = uint64_t{s.width_el} * s.element_bytes, dp = rp * s.height_el;
          std::vector<uint8_t> src(packed_subresource_bytes(s)), back(src.size(), 0);
          for (auto& x : src) x = static_cast<uint8_t>(rng());
          ASSERT_TRUE(write_to_subresource(L, res.data(), res.size(), i, nullptr, src.data(), src.size(), rp, dp).ok());
          ASSERT_TRUE(
              read_from_subresource(back.data(), back.size(), rp, dp, L, res.data(), res.size(), i, nullptr).ok());
          ASSERT_EQ(src, back) << L.name() << " " << fmt << " sub " << i;
        }
      }
  // 3 kinds x 7 formats x 2 dimensions, less std4k 3D for R8G8, R8G8B8A8, R32G32B32A32 and BC7.
  EXPECT_EQ(ran, 3 * 7 * 2 - 4);
}

TEST(Layout, Std64kSizesAndPlacement) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.format).ok());
  d.width = 1000;
  d.height = 600;
  d.mip_levels = 3;
  d.array_size = 2;
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  ASSERT_EQ(L.subresource_count(), 6u);
  // mip0: 1000x600 -> 8x5 tiles of 128x128; mip1 500x300 -> 4x3; mip2 250x150 -> 2x2.
  EXPECT_EQ(L.sub(0).size, 40u * 65536);
  EXPECT_EQ(L.sub(0).row_pitch, 8u * 65536);
  EXPECT_EQ(L.sub(1).offset, 40u * 65536);
  EXPECT_EQ(L.sub(2).offset, 52u * 65536);
  EXPECT_EQ(L.sub(3).offset, 56u * 65536);  // slice 1, mip 0: index 3 = 0 + 1*3
  EXPECT_EQ(L.sub(3).array_slice, 1u);
  EXPECT_EQ(L.size(), 112u * 65536);
  EXPECT_EQ(calc_subresource(2, 1, 0, 3, 2), 5u);
}

TEST(Layout, RowMajorFootprintPitches) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R32G32B32_FLOAT", &d.format).ok());  // 12 bytes: row-major only
  d.width = 33;
  d.height = 5;
  LayoutSpec spec;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  EXPECT_EQ(L.sub(0).row_pitch, 512u);  // 396 -> 512
  EXPECT_EQ(L.size(), 4u * 512 + 396);
  spec.kind = LayoutKind::Std64K;
  EXPECT_EQ(make_layout(d, spec, &L).code(), Code::unsupported);
  std::vector<Footprint> fp;
  uint64_t total;
  d.mip_levels = 2;
  ASSERT_TRUE(copyable_footprints(d, &fp, &total).ok());
  ASSERT_EQ(fp.size(), 2u);
  EXPECT_EQ(fp[1].offset, 2560u);  // 4*512+396 = 2444 -> aligned to 512
  EXPECT_EQ(fp[1].row_pitch, 256u);
  EXPECT_EQ(total, 2560u + 1 * 256 + 16 * 12);
}

TEST(CopyErrors, HostileInputsNameTheFieldAndWriteNothing) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.format).ok());
  d.width = 130;
  d.height = 70;
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  std::vector<uint8_t> res(L.size(), kGuard), src(130 * 70 * 4, 1);
  auto untouched = [&] {
    for (auto v : res)
      if (v != kGuard) return false;
    return true;
  };
  const uint64_t rp = 130 * 4, dp = rp * 70;
  struct Row {
    const char* what;
    Status st;
    Code code;
    const char* mention;
  };
  Box outside{0, 0, 0, 131, 70, 1}, inverted{5, 5, 0, 4, 6, 1};
  std::vector<Row> rows;
  rows.push_back({"box outside",
                  write_to_subresource(L, res.data(), res.size(), 0, &outside, src.data(), src.size(), rp, dp),
                  Code::out_of_range, "box"});
  rows.push_back({"row pitch small",
                  write_to_subresource(L, res.data(), res.size(), 0, nullptr, src.data(), src.size(), rp - 1, dp),
                  Code::invalid_argument, "row pitch"});
  rows.push_back({"source short",
                  write_to_subresource(L, res.data(), res.size(), 0, nullptr, src.data(), src.size() - 1, rp, dp),
                  Code::buffer_too_small, "source buffer"});
  rows.push_back({"resource short",
                  write_to_subresource(L, res.data(), res.size() - 1, 0, nullptr, src.data(), src.size(), rp, dp),
                  Code::buffer_too_small, "resource buffer"});
  rows.push_back({"subresource",
                  write_to_subresource(L, res.data(), res.size(), 1, nullptr, src.data(), src.size(), rp, dp),
                  Code::out_of_range, "subresource = 1"});
  for (const auto& r : rows) {
    EXPECT_EQ(r.st.code(), r.code) << r.what << ": " << r.st.message();
    EXPECT_NE(r.st.message().find(r.mention), std::string::npos) << r.what << ": " << r.st.message();
    EXPECT_TRUE(untouched()) << r.what;
  }
  EXPECT_TRUE(write_to_subresource(L, res.data(), res.size(), 0, &inverted, src.data(), src.size(), rp, dp).ok());
  EXPECT_TRUE(untouched());
  std::vector<uint8_t> dst(src.size() - 1, kGuard);
  Status st = read_from_subresource(dst.data(), dst.size(), rp, dp, L, res.data(), res.size(), 0, nullptr);
  EXPECT_EQ(st.code(), Code::buffer_too_small);
  for (auto v : dst) ASSERT_EQ(v, kGuard);
  // BC boxes must sit on block edges.
  TextureDesc bc;
  ASSERT_TRUE(find_format("BC1_UNORM", &bc.format).ok());
  bc.width = 10;
  bc.height = 10;
  Layout LB;
  ASSERT_TRUE(make_layout(bc, spec, &LB).ok());
  std::vector<uint8_t> rb(LB.size());
  Box mis{1, 0, 0, 4, 4, 1}, edge{8, 8, 0, 10, 10, 1};
  EXPECT_EQ(write_to_subresource(LB, rb.data(), rb.size(), 0, &mis, src.data(), src.size(), 8, 8).code(),
            Code::invalid_argument);
  EXPECT_TRUE(write_to_subresource(LB, rb.data(), rb.size(), 0, &edge, src.data(), src.size(), 8, 8).ok());
}

TEST(LayoutErrors, DescriptionFieldsAreChecked) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.format).ok());
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  d.width = 0;
  EXPECT_NE(make_layout(d, spec, &L).message().find("width = 0"), std::string::npos);
  d.width = 4;
  d.height = 4;
  d.mip_levels = 4;
  EXPECT_NE(make_layout(d, spec, &L).message().find("mip_levels = 4"), std::string::npos);
  d.mip_levels = 1;
  d.samples = 4;
  EXPECT_EQ(make_layout(d, spec, &L).code(), Code::unsupported);
  d.samples = 1;
  d.width = 0xffffffffu;
  d.height = 0xffffffffu;
  d.array_size = 0xffff;
  Status st = make_layout(d, spec, &L);
  EXPECT_EQ(st.code(), Code::overflow) << st.message();
  spec.kind = LayoutKind::RowMajor;
  spec.row_pitch_B = 100;
  d.width = 30;
  d.height = 2;
  d.array_size = 1;
  st = make_layout(d, spec, &L);
  EXPECT_NE(st.message().find("row_pitch = 100"), std::string::npos) << st.message();
}
