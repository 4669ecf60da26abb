// Placed-footprint copies and CopyResources (swz/footprint.hpp) against
// independent oracles:
//  - every byte a footprint copy moves is placed by reference_offset (the
//    specification's SimpleSwizzle routine, scalar, per bit) and by the
//    footprint formula of D3D12_PLACED_SUBRESOURCE_FOOTPRINT, with guard
//    bytes in both buffers: nothing else may change;
//  - copy_resources equals read_from_subresource with the source layout then
//    write_to_subresource with the destination layout, subresource by
//    subresource, over random layouts, formats, mips and arrays;
//  - hostile descriptors each get a named error and leave both buffers as
//    they were.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <string>
#include <vector>

#include "swz/swz.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

constexpr uint64_t kGuard_B = 512;  // random bytes after each buffer's used part

const char* const kFormats[] = {"R8_UNORM",          "R8G8_UNORM", "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
                                "R32G32B32A32_UINT", "BC1_UNORM",  "BC7_UNORM",      "B5G6R5_UNORM"};

// A random layout by name (built-ins, hardware families, random patterns);
// false when the combination is refused (e.g. a family without this element size).
bool random_layout(std::mt19937_64& rng, const TextureDesc& d, Layout* out, std::string* what) {
  const uint32_t eb = d.format.element_bytes;
  switch (rng() % 6) {
    case 0:
      *what = "row-major";
      break;
    case 1:
      *what = "std64k";
      break;
    case 2:
      *what = "std4k";
      break;
    case 3:
      *what = "nv-block-linear";
      break;
    case 4:
      *what = "amd-gfx10-sw64k-s";
      break;
    default: {
      swz_test::RandomPatternOptions o;
      o.element_log2 = static_cast<unsigned>(std::countr_zero(eb));
      o.max_block_bits = o.element_log2 + 4 + static_cast<unsigned>(rng() % 10);
      o.allow_stack = d.dimension == Dimension::Texture3D;
      *what = "pattern:" + to_text(swz_test::random_pattern(rng, o));
    }
  }
  return make_layout_from_name(*what, d, LayoutOptions{}, out).ok();
}

TextureDesc random_desc(std::mt19937_64& rng, bool allow_3d) {
  TextureDesc d = swz_test::tex2d(kFormats[rng() % std::size(kFormats)], 1 + static_cast<uint32_t>(rng() % 90),
                                  1 + static_cast<uint32_t>(rng() % 70));
  if (allow_3d && rng() % 4 == 0) {
    d.dimension = Dimension::Texture3D;
    d.depth = 1 + static_cast<uint32_t>(rng() % 5);
  } else {
    d.array_size = 1 + static_cast<uint32_t>(rng() % 3);
  }
  d.mip_levels = 1 + static_cast<uint32_t>(rng() % full_mip_count(d.width, d.height, d.depth));
  return d;
}

std::vector<uint8_t> random_bytes(std::mt19937_64& rng, uint64_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// The resource offset of byte j of element (x, y, z) of subresource `sub`,
// from the reference routine (not the plan).
uint64_t ref_offset(const Layout& L, uint32_t sub, uint64_t x, uint64_t y, uint64_t z, uint32_t j) {
  const SubresourceLayout& s = L.sub(sub);
  AddressParams a;
  a.row_pitch = s.row_pitch;
  a.depth_pitch_B = s.depth_pitch_B;
  a.stack_rows = s.stack_rows;
  for (int i = 0; i < 3; ++i) a.pre_swizzle[i] = s.pre_swizzle[i];
  return s.offset + reference_offset(L.patterns()[s.pattern_slot], x * s.element_bytes + j, y, z, 0, a);
}

uint32_t rnd(std::mt19937_64& rng, uint32_t n) { return n ? static_cast<uint32_t>(rng() % n) : 0; }

}  // namespace

// Both directions, one random region or the whole source, random footprints
// (offset, row pitch, size), every layout kind and format, BC included.
TEST(FootprintCopy, BothDirectionsMatchTheReferenceRoutine) {
  std::mt19937_64 rng(20261202);
  int ran = 0;
  for (int it = 0; it < 400; ++it) {
    TextureDesc d = random_desc(rng, true);
    Layout L;
    std::string name;
    if (!random_layout(rng, d, &L, &name)) continue;
    const uint32_t sub = rnd(rng, L.subresource_count());
    const SubresourceLayout& s = L.sub(sub);
    if (s.packed) continue;
    const uint32_t bw = d.format.block_width, bh = d.format.block_height, eb = s.element_bytes;
    // The footprint: at least the region, block-aligned, random slack.
    PlacedFootprint fp;
    fp.format = d.format;
    fp.width = (s.width_el + rnd(rng, 3)) * bw;
    fp.height = (s.height_el + rnd(rng, 3)) * bh;
    fp.depth = s.depth + rnd(rng, 2);
    fp.offset_B = uint64_t{rnd(rng, 4)} * 512;
    fp.row_pitch_B = (uint64_t{fp.width / bw} * eb + 255) / 256 * 256 + uint64_t{rnd(rng, 2)} * 256;
    uint64_t fp_bytes = 0;
    ASSERT_TRUE(footprint_bytes(fp, &fp_bytes).ok());
    const uint64_t slice_B = fp.row_pitch_B * (fp.height / bh);
    const bool to_texture = rng() % 2;
    // One region in elements: w x h x dd, source and destination origins.
    const uint64_t w = 1 + rnd(rng, s.width_el), h = 1 + rnd(rng, s.height_el), dd = 1 + rnd(rng, s.depth);
    const uint64_t tx = rnd(rng, uint32_t(s.width_el - w + 1)), ty = rnd(rng, uint32_t(s.height_el - h + 1)),
                   tz = rnd(rng, uint32_t(s.depth - dd + 1));
    const uint64_t fx = rnd(rng, uint32_t(fp.width / bw - w + 1)), fy = rnd(rng, uint32_t(fp.height / bh - h + 1)),
                   fz = rnd(rng, uint32_t(fp.depth - dd + 1));
    FootprintRegion r;
    r.whole_source = false;
    auto texel_end = [](uint64_t el_end, uint32_t b, uint32_t edge) {
      return uint32_t(std::min<uint64_t>(el_end * b, edge));
    };
    if (to_texture) {
      r.src_box = Box{uint32_t(fx * bw),       uint32_t(fy * bh),       uint32_t(fz),
                      uint32_t((fx + w) * bw), uint32_t((fy + h) * bh), uint32_t(fz + dd)};
      r.dst_x = uint32_t(tx * bw), r.dst_y = uint32_t(ty * bh), r.dst_z = uint32_t(tz);
    } else {
      r.src_box = Box{uint32_t(tx * bw),
                      uint32_t(ty * bh),
                      uint32_t(tz),
                      texel_end(tx + w, bw, s.width),
                      texel_end(ty + h, bh, s.height),
                      uint32_t(tz + dd)};
      r.dst_x = uint32_t(fx * bw), r.dst_y = uint32_t(fy * bh), r.dst_z = uint32_t(fz);
    }
    std::vector<uint8_t> res = random_bytes(rng, L.size() + kGuard_B);
    std::vector<uint8_t> buf = random_bytes(rng, fp.offset_B + fp_bytes + kGuard_B);
    std::vector<uint8_t> want_res = res, want_buf = buf;
    for (uint64_t z = 0; z < dd; ++z)
      for (uint64_t y = 0; y < h; ++y)
        for (uint64_t x = 0; x < w; ++x)
          for (uint32_t j = 0; j < eb; ++j) {
            const uint64_t ro = ref_offset(L, sub, tx + x, ty + y, tz + z, j);
            const uint64_t bo = fp.offset_B + (fz + z) * slice_B + (fy + y) * fp.row_pitch_B + (fx + x) * eb + j;
            if (to_texture)
              want_res.at(ro) = buf.at(bo);
            else
              want_buf.at(bo) = res.at(ro);
          }
    CopyOptions co;
    co.threads = 1 + rnd(rng, 2);
    const bool whole = rng() % 8 == 0 && !to_texture && fp.width / bw >= s.width_el;
    Status st;
    if (whole) {
      // count = 0: the whole subresource to the footprint's origin.
      want_buf = buf;
      for (uint64_t z = 0; z < s.depth; ++z)
        for (uint64_t y = 0; y < s.height_el; ++y)
          for (uint64_t x = 0; x < s.width_el; ++x)
            for (uint32_t j = 0; j < eb; ++j)
              want_buf.at(fp.offset_B + z * slice_B + y * fp.row_pitch_B + x * eb + j) =
                  res.at(ref_offset(L, sub, x, y, z, j));
      st = copy_placed_footprint(L, res.data(), L.size(), sub, buf.data(), buf.size() - kGuard_B, fp,
                                 FootprintCopyDirection::TextureToBuffer, nullptr, 0, co);
    } else {
      st = copy_placed_footprint(
          L, res.data(), L.size(), sub, buf.data(), buf.size() - kGuard_B, fp,
          to_texture ? FootprintCopyDirection::BufferToTexture : FootprintCopyDirection::TextureToBuffer, &r, 1, co);
    }
    ASSERT_TRUE(st.ok()) << st.message() << " layout " << name << " " << d.format.name;
    ASSERT_EQ(res, want_res) << name << " " << d.format.name << " sub " << sub;
    ASSERT_EQ(buf, want_buf) << name << " " << d.format.name << " sub " << sub;
    ++ran;
  }
  EXPECT_GT(ran, 150);
}

// Every subresource through GetCopyableFootprints-style footprints in one
// upload buffer: buffer -> texture -> buffer gives the rows back, and the
// texture equals the one write_to_subresource makes from the same rows.
TEST(FootprintCopy, CopyableFootprintsRoundTrip) {
  std::mt19937_64 rng(7);
  int ran = 0;
  for (int it = 0; it < 30; ++it) {
    TextureDesc d = random_desc(rng, true);
    Layout L;
    std::string name;
    if (!random_layout(rng, d, &L, &name)) continue;
    std::vector<Footprint> fps;
    uint64_t total = 0;
    ASSERT_TRUE(copyable_footprints(d, &fps, &total).ok());
    ASSERT_EQ(fps.size(), L.subresource_count());
    std::vector<uint8_t> up = random_bytes(rng, total), res(L.size(), 0), res2(L.size(), 0), down(total, 0);
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      PlacedFootprint fp;
      ASSERT_TRUE(placed_footprint(fps[i], &fp).ok());
      Status st = copy_placed_footprint(L, res.data(), res.size(), i, up.data(), up.size(), fp,
                                        FootprintCopyDirection::BufferToTexture, nullptr, 0);
      ASSERT_TRUE(st.ok()) << st.message() << " " << name;
      st = write_to_subresource(L, res2.data(), res2.size(), i, nullptr, up.data() + fp.offset_B,
                                up.size() - fp.offset_B, fp.row_pitch_B, fp.row_pitch_B * fps[i].rows);
      ASSERT_TRUE(st.ok()) << st.message();
      st = copy_placed_footprint(L, res.data(), res.size(), i, down.data(), down.size(), fp,
                                 FootprintCopyDirection::TextureToBuffer, nullptr, 0);
      ASSERT_TRUE(st.ok()) << st.message();
      const SubresourceLayout& s = L.sub(i);
      for (uint64_t z = 0; z < s.depth; ++z)
        for (uint64_t y = 0; y < s.height_el; ++y) {
          const uint64_t at = fp.offset_B + (z * fps[i].rows + y) * fp.row_pitch_B;
          ASSERT_TRUE(
              std::equal(up.begin() + at, up.begin() + at + uint64_t{s.width_el} * s.element_bytes, down.begin() + at))
              << name << " sub " << i;
        }
    }
    ASSERT_EQ(res, res2) << name;
    ++ran;
  }
  EXPECT_GE(ran, 20) << "layouts round-tripped";
}

// A BC mip smaller than its block: the footprint holds whole blocks and the
// subresource ends at its logical edge inside the block.
TEST(FootprintCopy, BlockCompressedMipEdges) {
  TextureDesc d = swz_test::tex2d("BC1_UNORM", 6, 6, 3);
  Layout L;
  ASSERT_TRUE(make_layout_from_name("std64k", d, {}, &L).ok());
  std::vector<uint8_t> res(L.size(), 0);
  PlacedFootprint fp;
  fp.format = d.format;
  fp.width = 4;
  fp.height = 4;
  fp.row_pitch_B = 256;
  std::vector<uint8_t> buf(512, 0x5A);
  // Mip 2 is 1x1 texels: one block. The whole 4x4 footprint goes in.
  ASSERT_TRUE(copy_placed_footprint(L, res.data(), res.size(), 2, buf.data(), buf.size(), fp,
                                    FootprintCopyDirection::BufferToTexture, nullptr, 0)
                  .ok());
  uint64_t off = 0;
  ASSERT_TRUE(element_offset(L, 2, 0, 0, 0, 0, &off).ok());
  for (int j = 0; j < 8; ++j) EXPECT_EQ(res[off + j], 0x5A);
  // A destination at x = 4 of the 6-texel mip 0 fits (the block ends at the edge);
  // one at x = 8 does not.
  FootprintRegion r;
  r.dst_x = 4;
  EXPECT_TRUE(copy_placed_footprint(L, res.data(), res.size(), 0, buf.data(), buf.size(), fp,
                                    FootprintCopyDirection::BufferToTexture, &r, 1)
                  .ok());
  r.dst_x = 8;
  EXPECT_EQ(copy_placed_footprint(L, res.data(), res.size(), 0, buf.data(), buf.size(), fp,
                                  FootprintCopyDirection::BufferToTexture, &r, 1)
                .code(),
            Code::out_of_range);
  // The D3D12 rule (CopyTextureRegion, block-compressed formats): box offsets multiples of 4,
  // sizes multiples of 4 or up to the subresource's logical edge. A region may cover the
  // last block, whose texels past the edge are the block's padding:
  // that is the block itself, not memory beyond the subresource. Past that, or off the grid,
  // refused, and nothing is written.
  std::vector<uint8_t> big(4096, 0x5A);
  PlacedFootprint fp8 = fp;
  fp8.width = 8;
  fp8.height = 8;
  const std::vector<uint8_t> res0 = res;
  r = FootprintRegion{};
  r.whole_source = false;
  r.src_box = Box{4, 4, 0, 6, 6, 1};  // texture to buffer: right/bottom at the 6x6 edge
  EXPECT_TRUE(copy_placed_footprint(L, res.data(), res.size(), 0, big.data(), big.size(), fp8,
                                    FootprintCopyDirection::TextureToBuffer, &r, 1)
                  .ok());
  r.src_box = Box{4, 4, 0, 8, 8, 1};  // into the padding of the subresource's last block: outside it
  Status st = copy_placed_footprint(L, res.data(), res.size(), 0, big.data(), big.size(), fp8,
                                    FootprintCopyDirection::TextureToBuffer, &r, 1);
  EXPECT_EQ(st.code(), Code::out_of_range) << st.message();
  r.src_box = Box{0, 0, 0, 6, 4, 1};  // buffer to texture: the footprint's box must lie on its blocks
  st = copy_placed_footprint(L, res.data(), res.size(), 0, big.data(), big.size(), fp8,
                             FootprintCopyDirection::BufferToTexture, &r, 1);
  EXPECT_EQ(st.code(), Code::invalid_argument) << st.message();
  EXPECT_NE(st.message().find("must lie on the 4x4 blocks"), std::string::npos) << st.message();
  r.src_box = Box{0, 0, 0, 8, 8, 1};  // two blocks from x = 4 of a two-block mip: past its end
  r.dst_x = 4;
  st = copy_placed_footprint(L, res.data(), res.size(), 0, big.data(), big.size(), fp8,
                             FootprintCopyDirection::BufferToTexture, &r, 1);
  EXPECT_EQ(st.code(), Code::out_of_range) << st.message();
  EXPECT_EQ(res, res0);
}

// Hostile descriptors: each refused with the field named, nothing written.
TEST(FootprintCopy, HostileDescriptorsNameTheFieldAndWriteNothing) {
  TextureDesc d = swz_test::tex2d("R8G8B8A8_UNORM", 64, 32, 2);
  Layout L;
  ASSERT_TRUE(make_layout_from_name("std64k", d, {}, &L).ok());
  std::mt19937_64 rng(3);
  const std::vector<uint8_t> res0 = random_bytes(rng, L.size()), buf0 = random_bytes(rng, 4096 * 10);
  PlacedFootprint good;
  good.format = d.format;
  good.width = 64;
  good.height = 32;
  good.offset_B = 1024;
  good.row_pitch_B = 256;
  struct Case {
    const char* what;
    PlacedFootprint fp;
    std::vector<FootprintRegion> regions;
    FootprintCopyDirection dir;
    Code code;
    const char* needle;
    uint64_t buffer_size;
  };
  auto with = [&](auto f) {
    PlacedFootprint p = good;
    f(p);
    return p;
  };
  FootprintRegion small;
  small.whole_source = false;
  small.src_box = {0, 0, 0, 16, 16, 1};
  FootprintRegion small2 = small;
  small2.dst_x = 8;  // overlaps `small` in the destination
  FootprintRegion off_edge = small;
  off_edge.dst_x = 56;  // 56 + 16 > 64
  FootprintRegion bad_box = small;
  bad_box.src_box = {0, 0, 0, 65, 16, 1};
  const auto B2T = FootprintCopyDirection::BufferToTexture, T2B = FootprintCopyDirection::TextureToBuffer;
  FormatInfo r16;
  ASSERT_TRUE(find_format("R16G16B16A16_UNORM", &r16).ok());
  FormatInfo bgra;
  ASSERT_TRUE(find_format("B8G8R8A8_UNORM", &bgra).ok());
  const Case cases[] = {
      {"misaligned placement",
       with([](PlacedFootprint& p) { p.offset_B = 256; }),
       {},
       B2T,
       Code::invalid_argument,
       "footprint.offset_B = 256",
       buf0.size()},
      {"row pitch not a multiple of 256",
       with([](PlacedFootprint& p) { p.row_pitch_B = 300; }),
       {},
       T2B,
       Code::invalid_argument,
       "footprint.row_pitch_B = 300",
       buf0.size()},
      {"row pitch shorter than a row",
       with([](PlacedFootprint& p) { p.width = 128; }),
       {},
       B2T,
       Code::invalid_argument,
       "footprint.row_pitch_B = 256 is smaller",
       buf0.size()},
      {"footprint past the buffer end",
       good,
       {},
       B2T,
       Code::buffer_too_small,
       "footprint at offset_B 1024",
       1024 + 256 * 31},
      {"format of another size",
       with([&](PlacedFootprint& p) {
         p.format = r16;
         p.row_pitch_B = 512;
       }),
       {},
       B2T,
       Code::invalid_argument,
       "footprint.format = R16G16B16A16_UNORM",
       buf0.size()},
      {"format of another family",
       with([&](PlacedFootprint& p) { p.format = bgra; }),
       {},
       T2B,
       Code::invalid_argument,
       "footprint.format = B8G8R8A8_UNORM",
       buf0.size()},
      {"zero height",
       with([](PlacedFootprint& p) { p.height = 0; }),
       {},
       B2T,
       Code::invalid_argument,
       "footprint.width/height/depth",
       buf0.size()},
      {"overlapping destination regions",
       good,
       {small, small2},
       B2T,
       Code::invalid_argument,
       "regions 0 and 1 overlap",
       buf0.size()},
      {"overlapping destination regions in the footprint",
       good,
       {small, small2},
       T2B,
       Code::invalid_argument,
       "regions 0 and 1 overlap",
       buf0.size()},
      {"destination outside the subresource",
       good,
       {small, off_edge},
       B2T,
       Code::out_of_range,
       "region 1: the region at (56,0,0)",
       buf0.size()},
      {"source box outside the footprint", good, {bad_box}, B2T, Code::out_of_range, "region 0: src_box", buf0.size()},
      {"whole footprint larger than mip 1",
       good,
       {},
       B2T,
       Code::out_of_range,
       "does not fit in subresource",
       buf0.size()},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> res = res0, buf = buf0;
    const uint32_t sub = std::string(c.what) == "whole footprint larger than mip 1" ? 1 : 0;
    Status st = copy_placed_footprint(L, res.data(), res.size(), sub, buf.data(), c.buffer_size, c.fp, c.dir,
                                      c.regions.empty() ? nullptr : c.regions.data(), c.regions.size());
    EXPECT_EQ(st.code(), c.code) << c.what << ": " << st.message();
    EXPECT_NE(st.message().find(c.needle), std::string::npos) << c.what << ": " << st.message();
    EXPECT_EQ(res, res0) << c.what;
    EXPECT_EQ(buf, buf0) << c.what;
  }
  // The footprint inside the resource's own memory: refused, nothing written.
  std::vector<uint8_t> res = res0;
  Status st = copy_placed_footprint(L, res.data(), res.size(), 0, res.data(), res.size(), good, B2T, nullptr, 0);
  EXPECT_EQ(st.code(), Code::invalid_argument) << st.message();
  EXPECT_NE(st.message().find("share memory"), std::string::npos) << st.message();
  EXPECT_EQ(res, res0);
  // The typed/typeless family and sRGB are the same data.
  for (const char* f : {"R8G8B8A8_TYPELESS", "R8G8B8A8_UNORM_SRGB", "R8G8B8A8_UINT"}) {
    PlacedFootprint p = good;
    ASSERT_TRUE(find_format(f, &p.format).ok());
    std::vector<uint8_t> r2 = res0, b2 = buf0;
    EXPECT_TRUE(copy_placed_footprint(L, r2.data(), r2.size(), 0, b2.data(), b2.size(), p, T2B, nullptr, 0).ok()) << f;
  }
}

// A single-plane depth format takes its R-format twin as the footprint format.
TEST(FootprintCopy, DepthFormatsTakeTheirColorTwin) {
  TextureDesc d = swz_test::tex2d("D32_FLOAT", 64, 8);
  Layout L;
  ASSERT_TRUE(make_layout_from_name("row-major", d, {}, &L).ok());
  std::vector<uint8_t> res(L.size()), buf(256 * 8);
  PlacedFootprint fp;
  fp.width = 64;
  fp.height = 8;
  fp.row_pitch_B = 256;
  for (const char* f : {"D32_FLOAT", "R32_FLOAT", "R32_TYPELESS", "R32_UINT"}) {
    fp.format = swz_test::fmt(f);
    Status st = copy_placed_footprint(L, res.data(), res.size(), 0, buf.data(), buf.size(), fp,
                                      FootprintCopyDirection::BufferToTexture, nullptr, 0);
    EXPECT_TRUE(st.ok()) << f << ": " << st.message();
  }
  fp.format = swz_test::fmt("R16G16_FLOAT");
  Status st = copy_placed_footprint(L, res.data(), res.size(), 0, buf.data(), buf.size(), fp,
                                    FootprintCopyDirection::BufferToTexture, nullptr, 0);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("whose format is D32_FLOAT"), std::string::npos) << st.message();
}

// Planar formats: each plane with its own footprint format and size.
TEST(FootprintCopy, PlanarPlanes) {
  TextureDesc d = swz_test::tex2d("NV12", 64, 32);
  Layout L;
  ASSERT_TRUE(make_layout_from_name("row-major", d, {}, &L).ok());
  ASSERT_EQ(L.subresource_count(), 2u);
  std::vector<Footprint> fps;
  uint64_t total = 0;
  ASSERT_TRUE(copyable_footprints(d, &fps, &total).ok());
  std::mt19937_64 rng(5);
  std::vector<uint8_t> up = random_bytes(rng, total), res(L.size(), 0), down(total, 0);
  for (uint32_t i = 0; i < 2; ++i) {
    PlacedFootprint fp;
    ASSERT_TRUE(placed_footprint(fps[i], &fp).ok());
    ASSERT_TRUE(copy_placed_footprint(L, res.data(), res.size(), i, up.data(), up.size(), fp,
                                      FootprintCopyDirection::BufferToTexture, nullptr, 0)
                    .ok());
    ASSERT_TRUE(copy_placed_footprint(L, res.data(), res.size(), i, down.data(), down.size(), fp,
                                      FootprintCopyDirection::TextureToBuffer, nullptr, 0)
                    .ok());
  }
  for (uint32_t i = 0; i < 2; ++i)
    for (uint32_t y = 0; y < fps[i].rows; ++y) {
      const uint64_t at = fps[i].offset + y * fps[i].row_pitch;
      ASSERT_TRUE(std::equal(up.begin() + at, up.begin() + at + fps[i].row_size, down.begin() + at))
          << "plane " << i << " row " << y;
    }
  // Plane 1 with plane 0's format: refused, naming the plane.
  PlacedFootprint fp;
  ASSERT_TRUE(placed_footprint(fps[0], &fp).ok());
  Status st = copy_placed_footprint(L, res.data(), res.size(), 1, up.data(), up.size(), fp,
                                    FootprintCopyDirection::BufferToTexture, nullptr, 0);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("plane 1 of NV12"), std::string::npos) << st.message();
}

// copy_resources = deswizzle with the source layout, then swizzle with the
// destination layout, subresource by subresource.
TEST(CopyResources, EqualsDeswizzleThenSwizzle) {
  std::mt19937_64 rng(1202);
  int ran = 0;
  for (int it = 0; it < 120; ++it) {
    TextureDesc d = random_desc(rng, true);
    Layout LA, LB;
    std::string na, nb;
    if (!random_layout(rng, d, &LA, &na) || !random_layout(rng, d, &LB, &nb)) continue;
    std::vector<uint8_t> src = random_bytes(rng, LA.size());
    const std::vector<uint8_t> dst0 = random_bytes(rng, LB.size() + kGuard_B);
    std::vector<uint8_t> dst = dst0, want = dst0;
    Status st = copy_resources(LB, dst.data(), LB.size(), LA, src.data(), src.size());
    ASSERT_TRUE(st.ok()) << st.message() << " " << na << " -> " << nb;
    for (uint32_t i = 0; i < LA.subresource_count(); ++i) {
      const SubresourceLayout& s = LA.sub(i);
      const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
      std::vector<uint8_t> lin(slice * s.depth);
      ASSERT_TRUE(
          read_from_subresource(lin.data(), lin.size(), row, slice, LA, src.data(), src.size(), i, nullptr).ok());
      ASSERT_TRUE(
          write_to_subresource(LB, want.data(), LB.size(), i, nullptr, lin.data(), lin.size(), row, slice).ok());
    }
    ASSERT_EQ(dst, want) << na << " -> " << nb << " " << d.format.name;
    ++ran;
  }
  EXPECT_GT(ran, 40);
}

TEST(CopyResources, MismatchedDescriptionsAreNamedAndWriteNothing) {
  TextureDesc d = swz_test::tex2d("R8G8B8A8_UNORM", 64, 64, 3, 2);
  Layout LA;
  ASSERT_TRUE(make_layout_from_name("std64k", d, {}, &LA).ok());
  std::mt19937_64 rng(9);
  const std::vector<uint8_t> src = random_bytes(rng, LA.size());
  struct Case {
    const char* field;
    TextureDesc desc;
  };
  std::vector<Case> cases;
  auto add = [&](const char* field, auto f) {
    TextureDesc t = d;
    f(t);
    cases.push_back({field, t});
  };
  add("width differs", [](TextureDesc& t) { t.width = 32; });
  add("height differs", [](TextureDesc& t) { t.height = 128; });
  add("mip_levels differs", [](TextureDesc& t) { t.mip_levels = 2; });
  add("array_size differs", [](TextureDesc& t) { t.array_size = 3; });
  add("format differs", [](TextureDesc& t) { t.format = swz_test::fmt("R16G16_UNORM"); });
  add("samples differs", [](TextureDesc& t) {
    t.samples = 4;
    t.mip_levels = 1;
  });
  for (const Case& c : cases) {
    Layout LB;
    Status st;
    if (c.desc.samples > 1) {
      // An MSAA layout: a pattern with two sample bits.
      st = make_layout_from_name("pattern:X0 X1 S0 S1 X2 X3 Y0 Y1 X4 Y2 X5 Y3", c.desc, {}, &LB);
    } else {
      st = make_layout_from_name("row-major", c.desc, {}, &LB);
    }
    ASSERT_TRUE(st.ok()) << c.field << ": " << st.message();
    std::vector<uint8_t> dst(LB.size(), 0x11);
    const std::vector<uint8_t> dst0 = dst;
    st = copy_resources(LB, dst.data(), dst.size(), LA, src.data(), src.size());
    EXPECT_EQ(st.code(), Code::invalid_argument) << c.field;
    EXPECT_NE(st.message().find(c.field), std::string::npos) << st.message();
    EXPECT_EQ(dst, dst0) << c.field;
  }
  // Same description: buffers too small, or sharing memory.
  Layout LB;
  ASSERT_TRUE(make_layout_from_name("row-major", d, {}, &LB).ok());
  std::vector<uint8_t> dst(LB.size(), 0x11);
  EXPECT_EQ(copy_resources(LB, dst.data(), dst.size() - 1, LA, src.data(), src.size()).code(), Code::buffer_too_small);
  EXPECT_EQ(copy_resources(LB, dst.data(), dst.size(), LA, src.data(), src.size() - 1).code(), Code::buffer_too_small);
  std::vector<uint8_t> both(LA.size() + LB.size());
  Status st = copy_resources(LB, both.data() + 16, LB.size(), LA, both.data(), LA.size());
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("overlap"), std::string::npos) << st.message();
  EXPECT_TRUE(std::all_of(dst.begin(), dst.end(), [](uint8_t v) { return v == 0x11; }));
  EXPECT_TRUE(copy_resources(LB, dst.data(), dst.size(), LA, src.data(), src.size()).ok());
}

// Subresources larger than one staging band (about 1 MiB) move in bands of
// rows; odd heights leave a short last band; 3D goes slice by slice.
TEST(CopyResources, LargeSubresourcesGoInBands) {
  struct Case {
    const char *from, *to;
    TextureDesc desc;
  };
  const Case cases[] = {
      {"std64k", "nv-block-linear", swz_test::tex2d("R32G32B32A32_FLOAT", 1024, 301, 2)},
      {"nv-block-linear", "std4k", swz_test::tex2d("BC7_UNORM", 1024, 1030, 2)},
      {"row-major", "std64k", swz_test::tex3d("R16G16B16A16_UNORM", 520, 300, 3, 2)},
      {"pattern:X0 X1 X2 Y0 X3 Y1 X4 Y2 X5 Y3 X6 Y4", "std64k", swz_test::tex2d("R8G8B8A8_UNORM", 600, 500, 1, 2)},
  };
  std::mt19937_64 rng(44);
  for (const Case& c : cases) {
    Layout LA, LB;
    ASSERT_TRUE(make_layout_from_name(c.from, c.desc, {}, &LA).ok()) << c.from;
    ASSERT_TRUE(make_layout_from_name(c.to, c.desc, {}, &LB).ok()) << c.to;
    ASSERT_GT(uint64_t{LA.sub(0).width_el} * LA.sub(0).element_bytes * LA.sub(0).height_el, uint64_t{1} << 20)
        << "not banded";
    const std::vector<uint8_t> src = random_bytes(rng, LA.size());
    std::vector<uint8_t> dst = random_bytes(rng, LB.size()), want = dst;
    Status st = copy_resources(LB, dst.data(), dst.size(), LA, src.data(), src.size());
    ASSERT_TRUE(st.ok()) << st.message();
    for (uint32_t i = 0; i < LA.subresource_count(); ++i) {
      const SubresourceLayout& s = LA.sub(i);
      const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
      std::vector<uint8_t> lin(slice * s.depth);
      ASSERT_TRUE(
          read_from_subresource(lin.data(), lin.size(), row, slice, LA, src.data(), src.size(), i, nullptr).ok());
      ASSERT_TRUE(
          write_to_subresource(LB, want.data(), LB.size(), i, nullptr, lin.data(), lin.size(), row, slice).ok());
    }
    ASSERT_TRUE(dst == want) << c.from << " -> " << c.to;
  }
}
