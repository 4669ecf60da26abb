// Subresource placement against an oracle written from the public rules
// (tests/support/placement_oracle.hpp): D3D12 GetCopyableFootprints for
// row-major, the standard-swizzle tile shapes, and pattern layouts' block
// rules. The library's Layout is checked against the oracle field by field,
// and bytes written by the copies are checked at the oracle's places.
#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "literal_reference.hpp"
#include "placement_oracle.hpp"
#include "swz/swz.hpp"
#include "test_scale.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

std::string what(const TextureDesc& d, const std::string& layout) {
  return layout + " " + d.format.name + " " + std::to_string(d.width) + "x" + std::to_string(d.height) + "x" +
         std::to_string(d.depth) + " mips " + std::to_string(d.mip_levels) + " array " + std::to_string(d.array_size);
}

// The product's placement of every subresource equals the oracle's.
::testing::AssertionResult same_placement(const Layout& L, const swz_oracle::Resource& want, bool check_sizes = true) {
  if (L.subresource_count() != want.subs.size())
    return ::testing::AssertionFailure() << "subresource count " << L.subresource_count() << ", oracle "
                                         << want.subs.size();
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const SubresourceLayout& s = L.sub(i);
    const swz_oracle::Place& p = want.subs[i];
    auto fail = [&](const char* field, uint64_t got, uint64_t exp) {
      return ::testing::AssertionFailure() << "subresource " << i << " (mip " << s.mip << ", slice " << s.array_slice
                                           << "): " << field << " = " << got << ", oracle " << exp;
    };
    if (s.width_el != p.width_el) return fail("width_el", s.width_el, p.width_el);
    if (s.height_el != p.height_el) return fail("height_el", s.height_el, p.height_el);
    if (s.depth != p.depth) return fail("depth", s.depth, p.depth);
    if (s.row_pitch != p.row_pitch) return fail("row_pitch", s.row_pitch, p.row_pitch);
    if (p.depth > 1 && !s.stack_depth && s.depth_pitch_B != p.depth_pitch)
      return fail("depth_pitch_B", s.depth_pitch_B, p.depth_pitch);
    if (s.stack_rows != p.stack_rows) return fail("stack_rows", s.stack_rows, p.stack_rows);
    if (!check_sizes) continue;
    if (s.offset != p.offset) return fail("offset", s.offset, p.offset);
    if (p.size_exact && s.size != p.size) return fail("size", s.size, p.size);
  }
  if (check_sizes && L.size() != want.size)
    return ::testing::AssertionFailure() << "resource size " << L.size() << ", oracle " << want.size;
  return ::testing::AssertionSuccess();
}

// Writes every subresource through the copy engine with random bytes and
// checks each byte at the oracle's place: the subresource's offset and
// pitches from `want`, the in-block address from the specification's sample
// routine (literal transcription, 32-bit; surfaces here stay below 4 GiB).
void check_bytes_at_oracle_places(const Layout& L, const swz_oracle::Resource& want, std::mt19937_64& rng,
                                  const std::string& label) {
  std::vector<uint8_t> res(want.size + 64, 0xCD);
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const swz_oracle::Place& p = want.subs[i];
    const Pattern& pat = L.patterns()[L.sub(i).pattern_slot];
    const uint64_t row = uint64_t{p.width_el} * p.element_bytes, slice = row * p.height_el;
    std::vector<uint8_t> src(slice * p.depth);
    for (auto& b : src) b = static_cast<uint8_t>(rng());
    std::vector<uint8_t> got = res;
    Status st = write_to_subresource(L, got.data(), want.size, i, nullptr, src.data(), src.size(), row, slice);
    ASSERT_TRUE(st.ok()) << label << " sub " << i << ": " << st.message();
    const uint32_t pre[3] = {0, 0, 0};
    std::vector<uint8_t> exp = res;
    for (uint32_t z = 0; z < p.depth; ++z)
      for (uint32_t y = 0; y < p.height_el; ++y)
        for (uint32_t x = 0; x < p.width_el; ++x)
          for (uint32_t j = 0; j < p.element_bytes; ++j) {
            const uint32_t c[3] = {x * p.element_bytes + j, y, z};
            // The literal routine adds z * depth stride to Y for stacked patterns; none here.
            const uint64_t off = p.offset + swz::test::literal_simple_swizzle(
                                                pat, c, pre, static_cast<uint32_t>(p.row_pitch),
                                                static_cast<uint32_t>(p.depth_pitch));
            exp.at(off) = src[z * slice + y * row + uint64_t{x} * p.element_bytes + j];
          }
    ASSERT_TRUE(got == exp) << label << ": subresource " << i << " bytes differ from the oracle's places";
    res.swap(got);
  }
}

TextureDesc random_desc(std::mt19937_64& rng, const char* const* formats, size_t nformats, bool allow3d) {
  TextureDesc d;
  d.format = swz_test::fmt(formats[rng() % nformats]);
  const bool is3d = allow3d && rng() % 3 == 0;
  d.width = 1 + static_cast<uint32_t>(rng() % (rng() % 4 == 0 ? 600 : 90));
  d.height = 1 + static_cast<uint32_t>(rng() % (rng() % 4 == 0 ? 400 : 70));
  if (is3d) {
    d.dimension = Dimension::Texture3D;
    d.depth = 1 + static_cast<uint32_t>(rng() % 40);
  } else {
    d.array_size = 1 + static_cast<uint32_t>(rng() % 4);
  }
  d.mip_levels = 1 + static_cast<uint32_t>(rng() % full_mip_count(d.width, d.height, d.depth));
  return d;
}

}  // namespace

// Hand-computed GetCopyableFootprints cases (512-byte placement, 256-byte pitch).
TEST(PlacementOracle, RowMajorKnownFootprints) {
  // R8G8B8A8 100x10, 3 mips, 2 slices:
  //  mip0 100x10: row 400 -> pitch 512, size 9*512+400 = 5008 at 0
  //  mip1 50x5:   row 200 -> pitch 256, size 4*256+200 = 1224 at 5120
  //  mip2 25x2:   row 100 -> pitch 256, size 256+100 = 356 at 6656 (5120+1224 = 6344 -> 6656)
  //  slice 1 mip0 at 7168 (6656+356 = 7012 -> 7168)
  TextureDesc d = swz_test::tex2d("R8G8B8A8_UNORM", 100, 10, 3, 2);
  Layout L;
  ASSERT_TRUE(make_layout(d, LayoutSpec{}, &L).ok());
  const swz_oracle::Resource o = swz_oracle::row_major(d);
  const uint64_t offsets[] = {0, 5120, 6656, 7168};
  const uint64_t pitches[] = {512, 256, 256, 512};
  const uint64_t sizes[] = {5008, 1224, 356, 5008};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(o.subs[i].offset, offsets[i]) << i;
    EXPECT_EQ(o.subs[i].row_pitch, pitches[i]) << i;
    EXPECT_EQ(o.subs[i].size, sizes[i]) << i;
    EXPECT_EQ(L.sub(i).offset, offsets[i]) << i;
    EXPECT_EQ(L.sub(i).row_pitch, pitches[i]) << i;
    EXPECT_EQ(L.sub(i).size, sizes[i]) << i;
  }
  // 3D BC1 20x12x3, 2 mips: mip0 5x3 blocks of 8 bytes: row 40 -> 256, depth pitch 768,
  // size 256*(3*3-1)+40 = 2088; mip1 10x6x1 -> 3x2 blocks: at 2560, size 256+24 = 280.
  TextureDesc v = swz_test::tex3d("BC1_UNORM", 20, 12, 3, 2);
  ASSERT_TRUE(make_layout(v, LayoutSpec{}, &L).ok());
  EXPECT_EQ(L.sub(0).depth_pitch_B, 768u);
  EXPECT_EQ(L.sub(0).size, 2088u);
  EXPECT_EQ(L.sub(1).offset, 2560u);
  EXPECT_EQ(L.sub(1).size, 280u);
  EXPECT_EQ(L.size(), 2840u);
  EXPECT_TRUE(same_placement(L, swz_oracle::row_major(v)));
}

TEST(PlacementOracle, RowMajorRandomDescriptions) {
  static const char* const formats[] = {"R8_UNORM",       "R8G8_UNORM",         "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
                                        "R32G32B32_FLOAT", "R32G32B32A32_FLOAT", "BC1_UNORM",      "BC7_UNORM"};
  std::mt19937_64 rng(3401);
  int checked = 0, bytes_checked = 0;
  for (int it = 0; it < swz_test::scaled(300); ++it) {
    const TextureDesc d = random_desc(rng, formats, std::size(formats), true);
    Layout L;
    const Status st = make_layout(d, LayoutSpec{}, &L);
    ASSERT_TRUE(st.ok()) << what(d, "row-major") << ": " << st.message();
    const swz_oracle::Resource o = swz_oracle::row_major(d);
    ASSERT_TRUE(o.ok);
    ASSERT_TRUE(same_placement(L, o)) << what(d, "row-major");
    // copyable_footprints describes the same D3D12 placement.
    std::vector<Footprint> fp;
    uint64_t total = 0;
    ASSERT_TRUE(copyable_footprints(d, &fp, &total).ok());
    ASSERT_EQ(fp.size(), o.subs.size());
    for (size_t i = 0; i < fp.size(); ++i) {
      ASSERT_EQ(fp[i].offset, o.subs[i].offset) << what(d, "footprint") << " sub " << i;
      ASSERT_EQ(fp[i].row_pitch, o.subs[i].row_pitch) << what(d, "footprint") << " sub " << i;
      ASSERT_EQ(fp[i].total_bytes, o.subs[i].size) << what(d, "footprint") << " sub " << i;
    }
    ASSERT_EQ(total, o.size) << what(d, "footprint");
    ++checked;
    if (o.size < (1u << 20) && it % 4 == 0) {
      check_bytes_at_oracle_places(L, o, rng, what(d, "row-major"));
      ++bytes_checked;
    }
  }
  EXPECT_EQ(checked, swz_test::scaled(300));
  EXPECT_GE(bytes_checked, swz_test::scaled(300) / 8);
}

// The 64 KB tile of 4-byte elements is 128 x 128 (D3D12_TEXTURE_LAYOUT's
// 32 bpp masks: 0xAA8F over X bytes, 0x5570 over Y); the others are from the
// D3D11.3 spec's table. Tiles are whole: a 129 x 1 texture is two tiles.
TEST(PlacementOracle, StandardSwizzleKnownShapes) {
  Layout L;
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  ASSERT_TRUE(make_layout(swz_test::tex2d("R8G8B8A8_UNORM", 129, 1), spec, &L).ok());
  EXPECT_EQ(L.size(), 2u * 65536);
  EXPECT_EQ(L.sub(0).row_pitch, 2u * 65536);
  ASSERT_TRUE(make_layout(swz_test::tex2d("R8G8B8A8_UNORM", 128, 129), spec, &L).ok());
  EXPECT_EQ(L.size(), 2u * 65536);
  EXPECT_EQ(L.sub(0).row_pitch, 65536u);
  ASSERT_TRUE(make_layout(swz_test::tex2d("R8_UNORM", 257, 256), spec, &L).ok());
  EXPECT_EQ(L.size(), 2u * 65536);
  ASSERT_TRUE(make_layout(swz_test::tex2d("R32G32B32A32_FLOAT", 64, 65), spec, &L).ok());
  EXPECT_EQ(L.size(), 2u * 65536);
  // BC1 (8-byte 4x4 blocks): 512 x 256 texels per tile.
  ASSERT_TRUE(make_layout(swz_test::tex2d("BC1_UNORM", 512, 257), spec, &L).ok());
  EXPECT_EQ(L.size(), 2u * 65536);
  // 3D 4-byte: 32 x 32 x 16.
  ASSERT_TRUE(make_layout(swz_test::tex3d("R8G8B8A8_UNORM", 32, 32, 17), spec, &L).ok());
  EXPECT_EQ(L.size(), 2u * 65536);
  EXPECT_EQ(L.sub(0).depth_pitch_B, 65536u);
  ASSERT_TRUE(make_layout(swz_test::tex3d("R8G8B8A8_UNORM", 33, 32, 16), spec, &L).ok());
  EXPECT_EQ(L.size(), 2u * 65536);
  // 4 KB 2D 2-byte: 64 x 32; mip 1 of 65 x 33 is 32 x 16: one tile, after mip 0's 2 x 2.
  spec.kind = LayoutKind::Std4K;
  ASSERT_TRUE(make_layout(swz_test::tex2d("R8G8_UNORM", 65, 33, 2), spec, &L).ok());
  EXPECT_EQ(L.sub(0).size, 4u * 4096);
  EXPECT_EQ(L.sub(1).offset, 4u * 4096);
  EXPECT_EQ(L.size(), 5u * 4096);
}

TEST(PlacementOracle, StandardSwizzleRandomDescriptions) {
  static const char* const formats[] = {"R8_UNORM",          "R8G8_UNORM",         "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
                                        "R32G32B32A32_FLOAT", "BC1_UNORM",          "BC7_UNORM",      "BC4_UNORM"};
  std::mt19937_64 rng(3402);
  int checked = 0, bytes_checked = 0;
  for (LayoutKind kind : {LayoutKind::Std64K, LayoutKind::Std4K})
    for (int it = 0; it < swz_test::scaled(150); ++it) {
      const TextureDesc d = random_desc(rng, formats, std::size(formats), true);
      LayoutSpec spec;
      spec.kind = kind;
      Layout L;
      const Status st = make_layout(d, spec, &L);
      const swz_oracle::Resource o = swz_oracle::standard_swizzle(d, kind == LayoutKind::Std64K);
      if (!o.ok) {  // std4k 3D of 2-, 4- and 16-byte elements
        EXPECT_EQ(st.code(), Code::unsupported) << what(d, L.name()) << ": " << st.message();
        continue;
      }
      ASSERT_TRUE(st.ok()) << what(d, kind == LayoutKind::Std64K ? "std64k" : "std4k") << ": " << st.message();
      ASSERT_TRUE(same_placement(L, o)) << what(d, L.name());
      ++checked;
      if (o.size < (8u << 20) && it % 5 == 0) {
        check_bytes_at_oracle_places(L, o, rng, what(d, L.name()));
        ++bytes_checked;
      }
    }
  EXPECT_GE(checked, 2 * swz_test::scaled(150) * 3 / 4);
  EXPECT_GE(bytes_checked, swz_test::scaled(150) / 5);
}

TEST(PlacementOracle, PatternLayoutsRandomPatterns) {
  std::mt19937_64 rng(3403);
  int checked = 0, exact = 0, bytes_checked = 0;
  for (int it = 0; it < swz_test::scaled(300); ++it) {
    swz_test::RandomPatternOptions o;
    o.element_log2 = static_cast<unsigned>(rng() % 5);
    o.max_block_bits = o.element_log2 + 1 + static_cast<unsigned>(rng() % 10);
    o.allow_high_postamble = rng() % 4 == 0;
    const Pattern p = swz_test::random_pattern(rng, o);
    TextureDesc d;
    d.format = swz_test::format_for_bytes(1u << o.element_log2);
    d.width = 1 + static_cast<uint32_t>(rng() % 70);
    d.height = 1 + static_cast<uint32_t>(rng() % 50);
    if (rng() % 2) {
      d.dimension = Dimension::Texture3D;
      d.depth = 1 + static_cast<uint32_t>(rng() % 9);
    } else {
      d.array_size = 1 + static_cast<uint32_t>(rng() % 3);
    }
    d.mip_levels = 1 + static_cast<uint32_t>(rng() % full_mip_count(d.width, d.height, d.depth));
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    Layout L;
    const Status st = make_layout(d, spec, &L);
    if (!st.ok()) {
      ASSERT_NE(st.message().find("postamble"), std::string::npos) << to_text(p) << ": " << st.message();
      continue;
    }
    const swz_oracle::Resource want = swz_oracle::pattern_layout(d, p);
    const bool sizes = !swz_oracle::block_shape(p).high_postamble;
    ASSERT_TRUE(same_placement(L, want, sizes)) << to_text(p) << " " << what(d, "pattern");
    ++checked;
    if (!sizes) continue;
    ++exact;
    if (!p.stack_depth_slices() && want.size < (4u << 20) && it % 3 == 0) {
      check_bytes_at_oracle_places(L, want, rng, to_text(p) + " " + what(d, "pattern"));
      ++bytes_checked;
    }
  }
  EXPECT_GE(checked, swz_test::scaled(300) * 3 / 4);
  EXPECT_GE(exact, swz_test::scaled(300) / 2);
  EXPECT_GE(bytes_checked, swz_test::scaled(300) / 10);
}

// D3D12_PACKED_MIP_INFO: the packed mips of each array slice share
// NumTilesForPackedMips whole tiles (64 KB for std64k, 4 KB for std4k) right
// after that slice's standard mips; the next slice starts after them.
TEST(PlacementOracle, PackedMipTailTiles) {
  int checked = 0;
  for (LayoutKind kind : {LayoutKind::Std64K, LayoutKind::Std4K})
    for (uint32_t standard : {0u, 1u, 3u})
      for (uint32_t tiles : {1u, 2u, 5u}) {
        TextureDesc d = swz_test::tex2d("R8G8B8A8_UNORM", 300, 200, 9, 3);
        LayoutSpec spec;
        spec.kind = kind;
        spec.mip_tail = MipTail::D3D12;
        spec.packed.num_standard_mips = standard;
        spec.packed.num_packed_mips = 9 - standard;
        spec.packed.num_tiles_for_packed_mips = tiles;
        Layout L;
        const Status st = make_layout(d, spec, &L);
        ASSERT_TRUE(st.ok()) << st.message();
        const swz_oracle::Resource o = swz_oracle::standard_swizzle(d, kind == LayoutKind::Std64K, standard, tiles);
        ASSERT_EQ(L.subresource_count(), o.subs.size());
        for (uint32_t i = 0; i < L.subresource_count(); ++i) {
          EXPECT_EQ(L.sub(i).packed, i % 9 >= standard) << i;
          EXPECT_EQ(L.sub(i).offset, o.subs[i].offset) << L.name() << " standard " << standard << " tiles " << tiles
                                                       << " sub " << i;
          EXPECT_EQ(L.sub(i).size, o.subs[i].size) << L.name() << " standard " << standard << " tiles " << tiles
                                                   << " sub " << i;
        }
        EXPECT_EQ(L.size(), o.size) << L.name() << " standard " << standard << " tiles " << tiles;
        ++checked;
      }
  EXPECT_EQ(checked, 18);
}
