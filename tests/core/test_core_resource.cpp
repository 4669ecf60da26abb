// Whole resources: device-dependent layouts and transitions (the D3D12 parameterized-swizzle specification), planes
// and footprints, packed mip tails, region and tile copies (the D3D12 batched copy APIs).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "swz/device_layout.hpp"
#include "swz/swz.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

Pattern P(const char* text) {
  Pattern p;
  EXPECT_TRUE(parse_pattern_text(text, &p).ok()) << text;
  return p;
}

DeviceLayoutDesc base_desc(uint32_t mips, std::initializer_list<const char*> pats) {
  DeviceLayoutDesc d;
  EXPECT_TRUE(find_format("R8G8B8A8_UNORM", &d.texture.format).ok());
  d.texture.width = 64;
  d.texture.height = 32;
  d.texture.mip_levels = mips;
  int i = 0;
  for (const char* t : pats) d.patterns[i++] = P(t);
  return d;
}

int slot_of(const DeviceLayoutDesc& d, uint32_t mip, uint32_t plane = 0) {
  int s = -1;
  Status st = device_pattern_slot(d, mip, plane, &s);
  EXPECT_TRUE(st.ok()) << st.message();
  return s;
}

}  // namespace

// Seed 000: "a texture layout that supports two swizzle patterns, and only has
// three mip levels ... the driver should set 1 for MipLevelSwizzleTransition[0]
// and 2 or greater for MipLevelSwizzleTransition[1]".
TEST(Transitions, SpecTwoPatternsThreeMips) {
  for (uint8_t second : {uint8_t{2}, uint8_t{3}, uint8_t{200}}) {
    DeviceLayoutDesc d = base_desc(3, {"X0 X1 X2 X3 Y0 Y1", "X0 X1 Y0 X2 X3 Y1"});
    d.mip_transitions = {1, second, kNoTransition, kNoTransition, kNoTransition};
    EXPECT_EQ(slot_of(d, 0), 0);
    EXPECT_EQ(slot_of(d, 1), 1);
    EXPECT_EQ(slot_of(d, 2), 1);
  }
}

// "UINT8_MAX can set in MipLevelSwizzleTransition[0] ... Only the swizzle
// pattern 0 associated with the texture layout will be used."
TEST(Transitions, Uint8MaxInEntryZeroMeansSlotZero) {
  DeviceLayoutDesc d = base_desc(5, {"X0 X1 X2 X3 Y0 Y1", "X0 X1 Y0 X2 X3 Y1", "X0 X1 Y0 Y1 X2 X3"});
  d.mip_transitions = {kNoTransition, 1, 2, 3, 4};
  for (uint32_t m = 0; m < 5; ++m) EXPECT_EQ(slot_of(d, m), 0) << m;
}

// "The driver is expected to fill out the first few array entries with 0. The
// runtime will accumulate multiple transitions with the same value."
TEST(Transitions, LeadingZerosSkipPatternsForSmallResources) {
  DeviceLayoutDesc d = base_desc(3, {"X0 X1 X2 X3 Y0 Y1", "X0 X1 Y0 X2 X3 Y1", "X0 X1 Y0 Y1 X2 X3"});
  d.mip_transitions = {0, 0, 1, kNoTransition, kNoTransition};
  EXPECT_EQ(slot_of(d, 0), 2);
  EXPECT_EQ(slot_of(d, 1), 2);  // 3 transitions <= 1, clamped to the last present slot
  d.mip_transitions = {0, 2, kNoTransition, kNoTransition, kNoTransition};
  EXPECT_EQ(slot_of(d, 0), 1);
  EXPECT_EQ(slot_of(d, 1), 1);
  EXPECT_EQ(slot_of(d, 2), 2);
  // The legacy single-transition form maps onto the same array.
  EXPECT_EQ(legacy_mip_transitions(1, {2, kNoTransition, kNoTransition, kNoTransition}),
            (std::array<uint8_t, 5>{1, 2, kNoTransition, kNoTransition, kNoTransition}));
}

TEST(Transitions, PlaneGroups) {
  DeviceLayoutDesc d;
  ASSERT_TRUE(find_format("NV12", &d.texture.format).ok());
  d.patterns[0] = P("X0 X1 X2 X3 Y0 Y1");
  d.patterns[6] = P("X0 X1 X2 Y0 Y1 X3");
  d.plane_transitions = {1, kNoTransition};
  EXPECT_EQ(slot_of(d, 0, 0), 0);
  EXPECT_EQ(slot_of(d, 0, 1), 6);
  d.plane_transitions = {kNoTransition, kNoTransition};
  EXPECT_EQ(slot_of(d, 0, 1), 0);
  d.patterns[0].reset();
  int s;
  EXPECT_FALSE(device_pattern_slot(d, 0, 1, &s).ok());
}

// A device layout with a different pattern per mip and pre-swizzle offsets:
// every byte written lands where the spec's reference routine puts it.
TEST(DeviceLayout, MatchesReferencePerMipAndRoundTripsJson) {
  DeviceLayoutDesc d = base_desc(3, {"X0 X1 X2 X3 Y0 X4 Y1 Y2^X5", "X0 X1 X2 Y0 X3 Y1 X4^Y3 Y2 post8=X6"});
  d.mip_transitions = {1, kNoTransition, kNoTransition, kNoTransition, kNoTransition};
  d.texture.width = 50;
  d.texture.height = 20;
  d.subresources = {{0, 0, 0, 0, 0, 0}, {8192, 2048, 0, 4, 8, 0}, {16384, 0, 0, 0, 0, 0}};
  Layout L;
  Status st = make_device_layout(d, &L);
  ASSERT_TRUE(st.ok()) << st.message();
  std::mt19937_64 rng(3);
  ASSERT_EQ(L.sub(1).pattern_slot, 1);
  std::vector<uint8_t> res(L.size() + 64, 0xCD), want(res);
  for (uint32_t i = 0; i < 3; ++i) {
    const auto& s = L.sub(i);
    EXPECT_EQ(s.pre_swizzle[0], d.subresources[i].row_byte_pre_swizzle);
    std::vector<uint8_t> src(packed_subresource_bytes(s));
    for (auto& b : src) b = static_cast<uint8_t>(rng());
    const uint64_t rp = uint64_t{s.width_el} * 4;
    ASSERT_TRUE(
        write_to_subresource(L, res.data(), L.size(), i, nullptr, src.data(), src.size(), rp, rp * s.height_el).ok());
    const Pattern& pat = *d.patterns[i == 0 ? 0 : 1];
    AddressParams a;
    a.row_pitch = s.row_pitch;
    a.depth_pitch_B = s.depth_pitch_B;
    a.stack_rows = s.stack_rows;
    a.pre_swizzle[0] = d.subresources[i].row_byte_pre_swizzle;
    a.pre_swizzle[1] = d.subresources[i].column_pre_swizzle;
    for (uint32_t y = 0; y < s.height_el; ++y)
      for (uint32_t x = 0; x < s.width_el; ++x)
        for (uint32_t j = 0; j < 4; ++j)
          want.at(d.subresources[i].offset + reference_offset(pat, x * 4 + j, y, 0, 0, a)) = src[y * rp + x * 4 + j];
  }
  EXPECT_EQ(res, want);
  DeviceLayoutDesc back;
  ASSERT_TRUE(parse_resource_layout_json(to_json(d), &back).ok()) << to_json(d);
  EXPECT_EQ(to_json(back), to_json(d));
  Layout L2;
  ASSERT_TRUE(make_device_layout(back, &L2).ok());
  EXPECT_EQ(L2.size(), L.size());
}

TEST(DeviceLayout, IndexableSlotsComeFromColumnPreSwizzle) {
  DeviceLayoutDesc d = base_desc(2, {"X0 X1 X2 X3 Y0 Y1", "X0 X1 Y0 X2 X3 Y1", "X0 X1 Y0 Y1 X2 X3"});
  d.indexable = true;
  d.subresources = {{0, 0, 0, 0, 2, 0}, {8192, 0, 0, 0, 1, 0}};
  Layout L;
  ASSERT_TRUE(make_device_layout(d, &L).ok());
  EXPECT_EQ(L.patterns()[L.sub(0).pattern_slot], *d.patterns[2]);
  EXPECT_EQ(L.patterns()[L.sub(1).pattern_slot], *d.patterns[1]);
  EXPECT_EQ(L.sub(0).pre_swizzle[1], 0u);  // no pre-swizzle offsets in indexable mode
  d.subresources[1].column_pre_swizzle = 7;
  Status st = make_device_layout(d, &L);
  EXPECT_NE(st.message().find("ColumnPreSwizzleOffset = 7"), std::string::npos) << st.message();
}

TEST(DeviceLayout, JsonErrorsNameTheField) {
  DeviceLayoutDesc d;
  for (const char* bad : {"{}", "{\"format\": \"R8_UNORM\", \"width\": 4, \"patterns\": [], \"subresources\": []}",
                          "{\"format\": \"R8_UNORM\", \"width\": \"4\", \"patterns\": [\"X0\"], \"subresources\": []}",
                          "{\"format\": \"R8_UNORM\", \"width\": 4, \"patterns\": [\"X0\"], \"mip_transitions\": "
                          "[300], \"subresources\": []}",
                          "{\"format\": \"R8_UNORM\", \"width\": 4, \"patterns\": [\"Q9\"], \"subresources\": []}",
                          "{\"format\": \"R8_UNORM\", \"width\": 4, \"patterns\": [\"X0\"], \"subresources\": [{}]}"}) {
    Status st = parse_resource_layout_json(bad, &d);
    EXPECT_EQ(st.code(), Code::parse_error) << bad;
  }
  ASSERT_TRUE(parse_resource_layout_json(
                  "{\"format\": \"R8_UNORM\", \"width\": 4, \"patterns\": [\"Y0 Y1\"], \"mip_transition\": 255,"
                  " \"additional_mip_transitions\": [255, 255, 255, 255], \"subresources\": [{\"offset\": 0}]}",
                  &d)
                  .ok());
  Layout L;
  ASSERT_TRUE(make_device_layout(d, &L).ok());
  EXPECT_EQ(L.sub(0).row_pitch, 16u);  // 4 blocks (1 byte x 4 rows each) per block row
}

// "mip_levels": 0 is the full chain, as in every TextureDesc: a 4x4 texture
// takes 3 subresources, and the layout equals the one with "mip_levels": 3.
TEST(DeviceLayout, MipLevelsZeroIsTheFullChain) {
  auto text = [](const char* mips) {
    return std::string("{\"format\": \"R8G8B8A8_UNORM\", \"width\": 4, \"height\": 4, \"mip_levels\": ") + mips +
           ", \"patterns\": [\"X0 X1 Y0 Y1\"], \"subresources\": [{\"offset\": 0}, {\"offset\": 64},"
           " {\"offset\": 128}]}";
  };
  DeviceLayoutDesc zero, three;
  ASSERT_TRUE(parse_resource_layout_json(text("0"), &zero).ok());
  ASSERT_TRUE(parse_resource_layout_json(text("3"), &three).ok());
  Layout a, b;
  const Status st = make_device_layout(zero, &a);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(make_device_layout(three, &b).ok());
  EXPECT_EQ(a.desc().mip_levels, 3u);
  ASSERT_EQ(a.subresource_count(), b.subresource_count());
  EXPECT_EQ(a.size(), b.size());
  for (uint32_t i = 0; i < a.subresource_count(); ++i) EXPECT_EQ(a.sub(i).offset, b.sub(i).offset) << i;
}

// The depth stride of a subresource: "depth_stride_B" (bytes) or "stack_rows"
// (rows, stacked-depth patterns), and the older one-number "depth_stride",
// read as rows when the subresource's pattern stacks and as bytes otherwise.
TEST(DeviceLayout, DepthStrideKeysKeepTheirUnits) {
  auto doc = [](const char* pattern, const char* depth) {
    return std::string(
               "{\"format\": \"R8G8B8A8_UNORM\", \"dimension\": \"3D\", \"width\": 16, \"height\": 8, "
               "\"depth\": 4, \"patterns\": [\"") +
           pattern + "\"], \"subresources\": [{\"offset\": 0" + depth + "}]}";
  };
  const char* kStacked = "X0 X1 X2 Y0 X3 Y1 stack";
  const char* kPlain = "X0 X1 X2 Y0 X3 Y1";
  struct Case {
    const char *pattern, *depth;
    uint64_t depth_stride_B, stack_rows;
  };
  for (const Case& c :
       {Case{kStacked, ", \"depth_stride\": 12", 0, 12}, Case{kStacked, ", \"stack_rows\": 12", 0, 12},
        Case{kPlain, ", \"depth_stride\": 1024", 1024, 0}, Case{kPlain, ", \"depth_stride_B\": 1024", 1024, 0}}) {
    const std::string text = doc(c.pattern, c.depth);
    DeviceLayoutDesc d;
    Status st = parse_resource_layout_json(text, &d);
    ASSERT_TRUE(st.ok()) << text << ": " << st.message();
    EXPECT_EQ(d.subresources[0].depth_stride_B, c.depth_stride_B) << text;
    EXPECT_EQ(d.subresources[0].stack_rows, c.stack_rows) << text;
    Layout L;
    st = make_device_layout(d, &L);
    ASSERT_TRUE(st.ok()) << text << ": " << st.message();
    EXPECT_EQ(L.sub(0).depth_pitch_B, c.depth_stride_B) << text;
    EXPECT_EQ(L.sub(0).stack_rows, c.stack_rows) << text;
    // to_json writes the explicit keys, never the one-number form.
    const std::string out = to_json(d);
    EXPECT_NE(out.find("\"depth_stride_B\""), std::string::npos) << out;
    EXPECT_NE(out.find("\"stack_rows\""), std::string::npos) << out;
    EXPECT_EQ(out.find("\"depth_stride\""), std::string::npos) << out;
  }
  DeviceLayoutDesc d;
  const std::string both = doc(kStacked, ", \"depth_stride\": 12, \"stack_rows\": 12");
  Status st = parse_resource_layout_json(both, &d);
  EXPECT_EQ(st.code(), Code::parse_error) << both;
  EXPECT_NE(st.message().find("not both"), std::string::npos) << st.message();
  // Each explicit field is refused where its unit does not apply, by name.
  ASSERT_TRUE(parse_resource_layout_json(doc(kStacked, ", \"depth_stride_B\": 1024"), &d).ok());
  Layout L;
  st = make_device_layout(d, &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_EQ(st.message(),
            "subresource 0: depth_stride_B = 1024 but pattern slot 0 stacks depth slices; give stack_rows instead");
  ASSERT_TRUE(parse_resource_layout_json(doc(kPlain, ", \"stack_rows\": 12"), &d).ok());
  st = make_device_layout(d, &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_EQ(st.message(),
            "subresource 0: stack_rows = 12 but pattern slot 0 does not stack depth slices; give depth_stride_B "
            "instead");
}

TEST(Planes, Nv12RowMajorSubresourcesAndFootprints) {
  TextureDesc t;
  ASSERT_TRUE(find_format("NV12", &t.format).ok());
  t.width = 100;
  t.height = 50;
  t.array_size = 2;
  LayoutSpec spec;
  Layout L;
  ASSERT_TRUE(make_layout(t, spec, &L).ok());
  ASSERT_EQ(L.subresource_count(), 4u);
  EXPECT_EQ(L.sub(2).plane, 1u);  // index 2 = mip 0 + slice 0*1 + plane 1*1*2
  EXPECT_EQ(L.sub(2).width, 50u);
  EXPECT_EQ(L.sub(2).height, 25u);
  EXPECT_EQ(L.sub(2).element_bytes, 2u);
  EXPECT_EQ(L.sub(0).row_pitch, 512u);  // two-plane formats: pitch aligned to 512
  std::vector<Footprint> fp;
  uint64_t total;
  ASSERT_TRUE(copyable_footprints(t, &fp, &total, 1).ok());
  ASSERT_EQ(fp.size(), 4u);
  EXPECT_EQ(fp[0].offset, 1u);  // the base offset is not aligned
  EXPECT_EQ(fp[0].row_pitch, 512u);
  EXPECT_EQ(fp[1].offset, 1u + 49 * 512 + 100 + 412);  // next multiple of 512 after the first
  EXPECT_STREQ(fp[2].format_name, "R8G8_TYPELESS");
  EXPECT_EQ(fp[2].rows, 25u);
  // Planes round-trip through copies.
  std::vector<uint8_t> res(L.size());
  for (uint32_t i = 0; i < 4; ++i) {
    const auto& s = L.sub(i);
    std::vector<uint8_t> src(packed_subresource_bytes(s), static_cast<uint8_t>(i + 1)), back(src.size());
    const uint64_t rp = uint64_t{s.width_el} * s.element_bytes;
    ASSERT_TRUE(
        write_to_subresource(L, res.data(), res.size(), i, nullptr, src.data(), src.size(), rp, rp * s.height_el).ok());
    ASSERT_TRUE(
        read_from_subresource(back.data(), back.size(), rp, rp * s.height_el, L, res.data(), res.size(), i, nullptr)
            .ok());
    EXPECT_EQ(src, back);
  }
}

TEST(Planes, DepthStencilFootprintsAndStandardSwizzleRefusal) {
  TextureDesc t;
  ASSERT_TRUE(find_format("D24_UNORM_S8_UINT", &t.format).ok());
  t.width = 33;
  t.height = 3;
  std::vector<Footprint> fp;
  uint64_t total;
  ASSERT_TRUE(copyable_footprints(t, &fp, &total).ok());
  ASSERT_EQ(fp.size(), 2u);
  EXPECT_EQ(fp[0].element_bytes, 4u);
  EXPECT_EQ(fp[1].element_bytes, 1u);
  EXPECT_EQ(fp[1].row_pitch, 512u);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  EXPECT_EQ(make_layout(t, spec, &L).code(), Code::unsupported);
}

TEST(PackedMips, D3D12PolicyPlacesOpaqueTailPerSlice) {
  TextureDesc t;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &t.format).ok());
  t.width = 512;
  t.height = 512;
  t.mip_levels = 10;
  t.array_size = 2;
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  spec.mip_tail = MipTail::D3D12;
  spec.packed = {3, 7, 1};  // mips 0-2 standard (16 + 4 + 1 tiles), mips 3-9 in one packed tile
  Layout L;
  Status st = make_layout(t, spec, &L);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(L.sub(3).offset, 21u * 65536);
  EXPECT_TRUE(L.sub(3).packed);
  EXPECT_EQ(L.sub(9).offset, L.sub(3).offset);
  EXPECT_EQ(L.sub(10).offset, 22u * 65536);  // slice 1 starts after slice 0's packed tile
  EXPECT_EQ(L.size(), 44u * 65536);
  EXPECT_EQ(L.allocation_size(), 44u * 65536);
  std::vector<uint8_t> res(L.size()), src(64 * 64 * 4);
  EXPECT_EQ(write_to_subresource(L, res.data(), res.size(), 3, nullptr, src.data(), src.size(), 256, 0).code(),
            Code::unsupported);
  Location loc;
  ASSERT_TRUE(locate(L, 21u * 65536 + 5, &loc).ok());
  EXPECT_TRUE(loc.packed);
  EXPECT_EQ(loc.subresource, 3u);
  spec.packed = {3, 6, 1};
  EXPECT_EQ(make_layout(t, spec, &L).code(), Code::invalid_argument);
}

// copy_regions between two different layouts equals deswizzle-then-swizzle.
TEST(RegionCopy, BetweenLayoutsEqualsDeswizzleThenSwizzle) {
  std::mt19937_64 rng(11);
  int ran = 0;
  for (int it = 0; it < 40; ++it) {
    const uint32_t eb = 1u << (rng() % 5);
    TextureDesc t;
    t.format = swz_test::format_for_bytes(eb);
    t.width = 20 + static_cast<uint32_t>(rng() % 150);
    t.height = 10 + static_cast<uint32_t>(rng() % 90);
    LayoutSpec a, b;
    a.kind = LayoutKind::Std64K;
    swz_test::RandomPatternOptions o;
    o.element_log2 = static_cast<unsigned>(std::countr_zero(eb));
    o.allow_z = false;
    o.allow_stack = false;
    b.kind = LayoutKind::Pattern;
    b.pattern = swz_test::random_pattern(rng, o);
    Layout LA, LB;
    ASSERT_TRUE(make_layout(t, a, &LA).ok());
    if (!make_layout(t, b, &LB).ok()) continue;
    std::vector<uint8_t> img(uint64_t{t.width} * t.height * eb);
    for (auto& v : img) v = static_cast<uint8_t>(rng());
    std::vector<uint8_t> ra(LA.size()), rb(LB.size(), 0), rb2(LB.size(), 0);
    const uint64_t rp = uint64_t{t.width} * eb;
    ASSERT_TRUE(
        write_to_subresource(LA, ra.data(), ra.size(), 0, nullptr, img.data(), img.size(), rp, rp * t.height).ok());
    RegionCopy r;
    r.whole_source = false;
    r.src_box = {static_cast<uint32_t>(rng() % 10),
                 static_cast<uint32_t>(rng() % 5),
                 0,
                 t.width - static_cast<uint32_t>(rng() % 7),
                 t.height - static_cast<uint32_t>(rng() % 4),
                 1};
    r.dst_x = static_cast<uint32_t>(rng() % (t.width - (r.src_box.right - r.src_box.left) + 1));
    r.dst_y = static_cast<uint32_t>(rng() % (t.height - (r.src_box.bottom - r.src_box.top) + 1));
    Status st = copy_regions(LB, rb.data(), rb.size(), LA, ra.data(), ra.size(), &r, 1);
    ASSERT_TRUE(st.ok()) << st.message();
    // The same through a linear staging buffer.
    const uint32_t w = r.src_box.right - r.src_box.left, h = r.src_box.bottom - r.src_box.top;
    std::vector<uint8_t> stage(uint64_t{w} * h * eb);
    ASSERT_TRUE(
        read_from_subresource(stage.data(), stage.size(), w * eb, stage.size(), LA, ra.data(), ra.size(), 0, &r.src_box)
            .ok());
    Box db{r.dst_x, r.dst_y, 0, r.dst_x + w, r.dst_y + h, 1};
    ASSERT_TRUE(
        write_to_subresource(LB, rb2.data(), rb2.size(), 0, &db, stage.data(), stage.size(), w * eb, stage.size())
            .ok());
    ASSERT_EQ(rb, rb2) << to_text(b.pattern);
    ++ran;
  }
  EXPECT_GE(ran, 30) << "region copies compared";
}

TEST(RegionCopy, RulesAreEnforced) {
  TextureDesc t;
  ASSERT_TRUE(find_format("BC1_UNORM", &t.format).ok());
  t.width = 30;
  t.height = 30;
  LayoutSpec s;
  s.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(t, s, &L).ok());
  std::vector<uint8_t> a(L.size()), b(L.size());
  RegionCopy r[2];
  r[0].whole_source = false;
  r[0].src_box = {0, 0, 0, 8, 8, 1};
  r[1] = r[0];
  r[1].dst_x = 4;  // overlaps region 0 in the destination
  Status st = copy_regions(L, b.data(), b.size(), L, a.data(), a.size(), r, 2);
  EXPECT_NE(st.message().find("overlap"), std::string::npos) << st.message();
  r[1].dst_x = 8;
  EXPECT_TRUE(copy_regions(L, b.data(), b.size(), L, a.data(), a.size(), r, 2).ok());
  r[1].dst_x = 2;  // not a multiple of 4
  EXPECT_EQ(copy_regions(L, b.data(), b.size(), L, a.data(), a.size(), r, 2).code(), Code::invalid_argument);
  r[1].dst_x = 8;
  r[1].src_box = {4, 4, 0, 30, 30, 1};  // reaches the edge: allowed
  r[1].dst_x = 0;
  r[1].dst_y = 0;
  r[0].dst_x = 28;  // 28 + 8 > 30 texels
  EXPECT_EQ(copy_regions(L, b.data(), b.size(), L, a.data(), a.size(), r, 2).code(), Code::out_of_range);
  TextureDesc t2 = t;
  ASSERT_TRUE(find_format("BC7_UNORM", &t2.format).ok());
  Layout L2;
  ASSERT_TRUE(make_layout(t2, s, &L2).ok());
  EXPECT_EQ(copy_regions(L2, b.data(), b.size(), L, a.data(), a.size(), r, 1).code(), Code::invalid_argument);
}

// copy_tiles: each tile in the buffer is "linear within the tile".
TEST(TileCopy, LinearWithinTilesBothWays) {
  TextureDesc t;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &t.format).ok());
  t.width = 300;  // 3 x 2 tiles of 128 x 128, the last ones partial
  t.height = 200;
  LayoutSpec s;
  s.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(t, s, &L).ok());
  std::vector<uint8_t> img(300 * 200 * 4);
  for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<uint8_t>(i * 7 + i / 1200);
  std::vector<uint8_t> res(L.size());
  ASSERT_TRUE(write_to_subresource(L, res.data(), res.size(), 0, nullptr, img.data(), img.size(), 1200, 0).ok());
  TileCoordinate c{1, 0, 0, 0};
  TileRegionSize sz;
  sz.num_tiles = 4;  // tiles 1, 2 (row 0) then 3, 4 (row 1): linear order wraps
  std::vector<uint8_t> buf(16 + 4 * 65536, 0);
  ASSERT_TRUE(copy_tiles(L, res.data(), res.size(), c, sz, buf.data(), buf.size(), 16,
                         TileCopyDirection::SwizzledToLinearBuffer)
                  .ok());
  const int tiles[4][2] = {{1, 0}, {2, 0}, {0, 1}, {1, 1}};
  for (int k = 0; k < 4; ++k)
    for (uint32_t y = 0; y < 128; ++y)
      for (uint32_t x = 0; x < 128; ++x) {
        const uint32_t gx = tiles[k][0] * 128 + x, gy = tiles[k][1] * 128 + y;
        if (gx >= 300 || gy >= 200) continue;
        ASSERT_EQ(0, std::memcmp(&buf[16 + k * 65536 + (y * 128 + x) * 4], &img[(gy * 300 + gx) * 4], 4))
            << k << " " << x << "," << y;
      }
  // Back into a clean resource: those tiles' texels reappear.
  std::vector<uint8_t> res2(L.size(), 0);
  ASSERT_TRUE(copy_tiles(L, res2.data(), res2.size(), c, sz, buf.data(), buf.size(), 16,
                         TileCopyDirection::LinearBufferToSwizzled)
                  .ok());
  EXPECT_EQ(0, std::memcmp(res2.data() + 65536, res.data() + 65536, 4 * 65536));
  sz.num_tiles = 6;
  EXPECT_EQ(copy_tiles(L, res2.data(), res2.size(), c, sz, buf.data(), buf.size(), 16,
                       TileCopyDirection::LinearBufferToSwizzled)
                .code(),
            Code::out_of_range);
  sz = TileRegionSize{4, true, 2, 2, 1};
  EXPECT_EQ(copy_tiles(L, res2.data(), res2.size(), c, sz, buf.data(), buf.size() - 1, 16,
                       TileCopyDirection::LinearBufferToSwizzled)
                .code(),
            Code::buffer_too_small);
}

TEST(RowMajor, NonPowerOfTwoElementsCopyByteGranular) {
  TextureDesc t;
  ASSERT_TRUE(find_format("R32G32B32_FLOAT", &t.format).ok());
  t.width = 7;
  t.height = 3;
  LayoutSpec s;
  Layout L;
  ASSERT_TRUE(make_layout(t, s, &L).ok());
  std::vector<uint8_t> img(7 * 3 * 12), back(img.size());
  for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<uint8_t>(i);
  std::vector<uint8_t> res(L.size());
  ASSERT_TRUE(write_to_subresource(L, res.data(), res.size(), 0, nullptr, img.data(), img.size(), 84, 0).ok());
  for (int y = 0; y < 3; ++y) EXPECT_EQ(0, std::memcmp(&res[y * 256], &img[y * 84], 84));
  ASSERT_TRUE(read_from_subresource(back.data(), back.size(), 84, 0, L, res.data(), res.size(), 0, nullptr).ok());
  EXPECT_EQ(img, back);
}

#include "swz/vendor.hpp"

// Seed 002 region copies between two real vendor layouts (NVIDIA block
// linear and Intel Tile4, then AMD GFX10 with pipe XOR) equal deswizzle then
// swizzle through a linear staging buffer, on every mip.
TEST(RegionCopy, BetweenVendorLayoutsEqualsStagedCopy) {
  const char* pairs[][2] = {{"nv-block-linear:gob=tegra,bh=2", "intel-tile4"},
                            {"intel-tiley", "amd-gfx10-sw64k-s-x"},
                            {"amd-gfx9-sw64k-s", "nv-block-linear:gob=turing"}};
  std::mt19937_64 rng(21);
  for (const auto& pr : pairs) {
    TextureDesc t;
    ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &t.format).ok());
    t.width = 333;
    t.height = 129;
    t.mip_levels = 4;  // AMD GFX9/GFX10 chains as addrlib places them
    Layout A, B;
    Status st = make_named_layout(pr[0], t, &A);
    ASSERT_TRUE(st.ok()) << pr[0] << ": " << st.message();
    st = make_named_layout(pr[1], t, &B);
    ASSERT_TRUE(st.ok()) << pr[1] << ": " << st.message();
    std::vector<uint8_t> ra(A.size()), rb(B.size(), 0x5A), rb2(B.size(), 0x5A);
    for (auto& v : ra) v = static_cast<uint8_t>(rng());
    std::vector<RegionCopy> regions;
    for (uint32_t m = 0; m < t.mip_levels; ++m) {
      RegionCopy r;
      r.src_subresource = r.dst_subresource = m;
      regions.push_back(r);
      const auto& s = A.sub(m);
      std::vector<uint8_t> stage(packed_subresource_bytes(s));
      const uint64_t rp = uint64_t{s.width_el} * 4;
      ASSERT_TRUE(
          read_from_subresource(stage.data(), stage.size(), rp, stage.size(), A, ra.data(), ra.size(), m, nullptr)
              .ok());
      ASSERT_TRUE(
          write_to_subresource(B, rb2.data(), rb2.size(), m, nullptr, stage.data(), stage.size(), rp, stage.size())
              .ok());
    }
    st = copy_regions(B, rb.data(), rb.size(), A, ra.data(), ra.size(), regions.data(), regions.size());
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(rb, rb2) << pr[0] << " -> " << pr[1];
  }
}

// Placements that put two subresources on the same bytes are refused; mips
// that share one tail block without sharing bytes are not.
TEST(DeviceLayout, OverlappingPlacementsAreRefused) {
  DeviceLayoutDesc d = base_desc(2, {"X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8"});
  d.texture.width = 60;
  d.texture.height = 40;
  d.subresources = {{0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}};
  Layout L;
  Status st = make_device_layout(d, &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("shares byte"), std::string::npos) << st.message();
  // Mip 1 (30x20) placed inside mip 0's tile, at an origin past mip 0's texels
  // (x from 64 texels = 256 bytes): the same block, no shared byte.
  d.subresources = {{0, 0, 0, 0, 0, 0}, {0, 0, 0, 256, 0, 0}};
  st = make_device_layout(d, &L);
  EXPECT_TRUE(st.ok()) << st.message();
}
