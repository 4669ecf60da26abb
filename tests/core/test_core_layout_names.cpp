// Layout names: the one parser shared by the CLI, Python and the C API.
#include <cstdio>
#include <fstream>
#include <string>

#include "swz/device_layout.hpp"
#include "swz/layout_names.hpp"
#include "test_util.hpp"

using namespace swz;
using namespace swz_test;

namespace {

// Two layouts are the same when every subresource sits at the same place with
// the same pitches and pattern.
void expect_same(const Layout& a, const Layout& b) {
  ASSERT_EQ(a.subresource_count(), b.subresource_count());
  EXPECT_EQ(a.size(), b.size());
  for (uint32_t i = 0; i < a.subresource_count(); ++i) {
    EXPECT_EQ(a.sub(i).offset, b.sub(i).offset) << i;
    EXPECT_EQ(a.sub(i).row_pitch, b.sub(i).row_pitch) << i;
    EXPECT_EQ(a.sub(i).depth_pitch_B, b.sub(i).depth_pitch_B) << i;
    EXPECT_EQ(a.sub(i).stack_rows, b.sub(i).stack_rows) << i;
    EXPECT_EQ(a.patterns()[a.sub(i).pattern_slot], b.patterns()[b.sub(i).pattern_slot]) << i;
  }
}

Layout spec_layout(const TextureDesc& d, LayoutKind k, const Pattern* p = nullptr, uint64_t row_pitch_B = 0) {
  LayoutSpec s;
  s.kind = k;
  if (p) s.pattern = *p;
  s.row_pitch_B = row_pitch_B;
  Layout L;
  EXPECT_TRUE(make_layout(d, s, &L).ok());
  return L;
}

}  // namespace

TEST(LayoutNames, BuiltinsEqualMakeLayout) {
  const TextureDesc d = tex2d("R8G8B8A8_UNORM", 300, 200, 3, 2);
  Layout L;
  ASSERT_TRUE(make_layout_from_name("std64k", d, {}, &L).ok());
  expect_same(L, spec_layout(d, LayoutKind::Std64K));
  ASSERT_TRUE(make_layout_from_name("std4k", d, {}, &L).ok());
  expect_same(L, spec_layout(d, LayoutKind::Std4K));
  for (const char* n : {"row-major", "row_major"}) {
    LayoutOptions o;
    o.row_pitch_B = 4096;
    ASSERT_TRUE(make_layout_from_name(n, d, o, &L).ok()) << n;
    expect_same(L, spec_layout(d, LayoutKind::RowMajor, nullptr, 4096));
  }
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2", &p).ok());
  ASSERT_TRUE(make_layout_from_name("pattern:X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2", d, {}, &L).ok());
  expect_same(L, spec_layout(d, LayoutKind::Pattern, &p));
}

TEST(LayoutNames, FamiliesEqualMakeNamedLayout) {
  const TextureDesc d = tex2d("R8G8B8A8_UNORM", 130, 70);  // one mip: AMD families need offsets= for more
  for (const char* n : {"nv-block-linear:gob=tegra,bh=4", "intel-tile4", "amd-gfx10-sw64k-s-x:pipes=16,pbxor=3"}) {
    Layout a, b;
    ASSERT_TRUE(make_layout_from_name(n, d, {}, &a).ok()) << n;
    ASSERT_TRUE(make_named_layout(n, d, &b).ok()) << n;
    expect_same(a, b);
  }
}

TEST(LayoutNames, Errors) {
  const TextureDesc d = tex2d("R8G8B8A8_UNORM", 64, 64);
  Layout L;
  Status st = make_layout_from_name("std46k", d, {}, &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("unknown layout 'std46k'; did you mean "), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("'std64k'?"), std::string::npos) << st.message();
  st = make_layout_from_name("nv-blocklinear:gob=tegra", d, {}, &L);
  EXPECT_NE(st.message().find("did you mean 'nv-block-linear'"), std::string::npos) << st.message();
  st = make_layout_from_name("std64k:x=1", d, {}, &L);
  EXPECT_NE(st.message().find("takes no parameters"), std::string::npos) << st.message();
  // row-major:pitch=N names the row pitch; nothing else.
  ASSERT_TRUE(make_layout_from_name("row-major:pitch=4096", d, {}, &L).ok());
  EXPECT_EQ(L.sub(0).row_pitch, 4096u);
  ASSERT_TRUE(make_layout_from_name("row_major:pitch=0x100", d, {}, &L).ok());
  EXPECT_EQ(L.sub(0).row_pitch, 256u);
  st = make_layout_from_name("row-major:pitch=x", d, {}, &L);
  EXPECT_NE(st.message().find("pitch=N"), std::string::npos) << st.message();
  st = make_layout_from_name("row-major:bh=2", d, {}, &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  LayoutOptions other;
  other.row_pitch_B = 512;
  st = make_layout_from_name("row-major:pitch=4096", d, other, &L);
  EXPECT_NE(st.message().find("contradicts"), std::string::npos) << st.message();
  st = make_layout_from_name("pattern:X0 Q1", d, {}, &L);
  EXPECT_EQ(st.code(), Code::parse_error) << st.message();
  st = make_layout_from_name("/nonexistent/x.json", d, {}, &L);
  EXPECT_EQ(st.code(), Code::io_error) << st.message();
  LayoutOptions o;
  o.row_pitch_B = 8192;
  st = make_layout_from_name("intel-tile4", d, o, &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("row_pitch_B = 8192 does not apply to hardware layout 'intel-tile4'"), std::string::npos)
      << st.message();
  // Stacked-depth patterns take rows, the others bytes: each refuses the other field.
  const TextureDesc d3 = tex3d("R8G8B8A8_UNORM", 16, 16, 4);
  o = {};
  o.depth_pitch_B = 4096;
  st = make_layout_from_name("pattern:X0 X1 X2 X3 Y0 Y1 stack", d3, o, &L);
  EXPECT_NE(st.message().find("give stack_rows"), std::string::npos) << st.message();
  o = {};
  o.stack_rows = 32;
  ASSERT_TRUE(make_layout_from_name("pattern:X0 X1 X2 X3 Y0 Y1 stack", d3, o, &L).ok());
  EXPECT_EQ(L.sub(0).stack_rows, 32u);
  EXPECT_EQ(L.sub(0).depth_pitch_B, 0u);
  st = make_layout_from_name("std64k", d3, o, &L);
  EXPECT_NE(st.message().find("give depth_pitch_B"), std::string::npos) << st.message();
}

TEST(LayoutNames, ResourceLayoutFileFixesTheTexture) {
  // A driver-reported resource layout: one 64x64 RGBA8 subresource, row-major pattern.
  DeviceLayoutDesc dev;
  dev.texture = tex2d("R8G8B8A8_UNORM", 64, 64);
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 X4 X5 X6 X7 Y0 Y1", &p).ok());
  dev.patterns[0] = p;
  dev.subresources.resize(1);
  dev.subresources[0].offset = 512;
  const std::string path = testing::TempDir() + "swz_layout_names_resource.json";
  {
    std::ofstream f(path);
    f << to_json(dev);
  }
  LayoutName n;
  ASSERT_TRUE(LayoutName::parse(path, &n).ok());
  ASSERT_NE(n.fixed_texture(), nullptr);
  EXPECT_EQ(n.fixed_texture()->width, 64u);
  EXPECT_FALSE(n.takes_options());
  Layout L;
  ASSERT_TRUE(n.make(*n.fixed_texture(), {}, &L).ok());
  EXPECT_EQ(L.sub(0).offset, 512u);
  std::remove(path.c_str());
}

// A file that fails both readers is reported in the form it has, judged by
// its top-level keys, not by whether the text holds "subresources": a
// resource layout with "subresorces" misspelt is reported as a resource
// layout, naming the key that is wrong (not "unknown key \"format\""); a
// pattern file whose metadata holds a key "subresources" is reported as a
// pattern.
TEST(LayoutNames, FileErrorsInTheFormTheFileHas) {
  struct Row {
    const char* json;
    const char* want;
  };
  const Row rows[] = {
      {R"({"format": "R8_UNORM", "width": 64, "height": 64, "patterns": ["X0 X1 Y0 Y1"], "subresorces": [{"offset": 0}]})",
       "': resource layout: unknown key \"subresorces\" (known: format"},
      {R"({"format": "R8_UNORM", "width": 64, "patterns": ["X0 X1 Y0 Y1"]})",
       "': resource layout: \"subresources\" must be an array"},
      {R"({"bits": ["X0", "X1", "Y0", "Q1"], "description": {"subresources": []}})",
       "': bit 3: 'Q1' is not a source bit"},
      {R"({"bits": ["X0", "X1"], "postambel": {}})", "': pattern JSON: unknown key \"postambel\""},
      {R"({"bits": ["X0", "X1"], "subresources": []})", "': pattern JSON: unknown key \"subresources\""},
      {R"({"bits": ["X0", "X1"], "format": "R8_UNORM"})", "': pattern JSON: unknown key \"format\""},
      {R"({"bits": ["X0", "X1"])", "pattern JSON: not valid JSON"},
  };
  const std::string path = testing::TempDir() + "swz_layout_names_bad.json";
  for (const Row& r : rows) {
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f << r.json;
    }
    LayoutName n;
    const Status st = LayoutName::parse(path, &n);
    EXPECT_EQ(st.code(), Code::parse_error) << r.json;
    EXPECT_NE(st.message().find(r.want), std::string::npos) << r.json << "\n  " << st.message();
  }
  std::remove(path.c_str());
}

TEST(LayoutNames, ListingAndSuggestions) {
  bool has_std64k = false, has_nv = false;
  for (const LayoutListing& l : layout_listing()) {
    has_std64k |= l.name == "std64k";
    has_nv |= l.name == "nv-block-linear";
    EXPECT_FALSE(l.description.empty()) << l.name;
  }
  EXPECT_TRUE(has_std64k && has_nv);
  auto near = closest_layout_names("intel-tile-4");
  ASSERT_FALSE(near.empty());
  EXPECT_EQ(near[0], "intel-tile4");
  EXPECT_TRUE(closest_layout_names("zzzzzzzzzzzzzzzz").empty());
}

// describe_layout_name answers for every listed name. Known vector: the D3D12
// 64KB standard swizzle for 32 bpp has xBytesMask 0xAA8F and yMask 0x5570
// (D3D12 documentation, standard swizzle tables): bits 0-3 X, 4-6 Y, then
// X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8.
TEST(LayoutNames, DescribeEveryListedName) {
  for (const LayoutListing& l : layout_listing()) {
    std::string text;
    // 4-byte elements, or the first size the family lists (intel-tilew: 1;
    // dreamcast-twiddled, gamecube-tiled: 1 and 2).
    Status st;
    for (uint32_t eb : {4u, 1u, 2u}) {
      st = describe_layout_name(l.name, eb, &text);
      if (st.ok()) break;
    }
    EXPECT_TRUE(st.ok()) << l.name << ": " << st.message();
    EXPECT_FALSE(text.empty()) << l.name;
  }
  std::string text;
  ASSERT_TRUE(describe_layout_name("std64k", 4, &text).ok());
  EXPECT_NE(text.find("2D: X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8\n"), std::string::npos) << text;
  EXPECT_NE(text.find("512 bytes (128 elements) x 128 rows"), std::string::npos) << text;
  ASSERT_TRUE(describe_layout_name("pattern:X0 X1 Y0 Y1", 4, &text).ok());
  EXPECT_NE(text.find("16-byte block"), std::string::npos) << text;
  Status st = describe_layout_name("std46k", 4, &text);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("did you mean"), std::string::npos) << st.message();
  EXPECT_EQ(describe_layout_name("std64k", 0, &text).code(), Code::invalid_argument);
}
