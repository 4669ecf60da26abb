// Pattern forms and validation (docs/ARCHITECTURE.md rule 8, "Text and binary forms").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "swz/device_layout.hpp"
#include "swz/swz.hpp"
#include "swz/vendor.hpp"
#include "core/pattern_json.hpp"  // internal: the reader of family rows
#include "hw/hw_internal.hpp"     // internal: the vendor pattern files as loaded
#include "test_scale.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

// The spec's StandardSwizzle_2d_NonMSAA_16_32bpp demonstration (the D3D12 parameterized-swizzle specification),
// written as {Valid, ChannelIndex, SourceBitIndex} triples.
Pattern spec_standard_swizzle_16_32() {
  const int t[16][3] = {{1, 0, 0}, {1, 0, 1}, {1, 0, 2}, {1, 0, 3}, {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {1, 0, 4},
                        {1, 1, 3}, {1, 0, 5}, {1, 1, 4}, {1, 0, 6}, {1, 1, 5}, {1, 0, 7}, {1, 1, 6}, {1, 0, 8}};
  Pattern p;
  for (int i = 0; i < 16; ++i)
    p.interleave[i] = {t[i][0] != 0, static_cast<uint8_t>(t[i][1]), static_cast<uint8_t>(t[i][2])};
  return p;
}

Pattern P(const char* text) {
  Pattern p;
  const Status st = parse_pattern_text(text, &p);
  EXPECT_TRUE(st.ok()) << text << ": " << st.message();
  return p;
}

}  // namespace

TEST(PatternText, SpecDemonstrationPrintsAsExpected) {
  EXPECT_EQ(to_text(spec_standard_swizzle_16_32()), "X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8");
  EXPECT_TRUE(validate(spec_standard_swizzle_16_32(), 4).ok());
  EXPECT_TRUE(validate(spec_standard_swizzle_16_32(), 2).ok());
}

TEST(PatternText, ParsesEveryPart) {
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 X1 Y0^X9^_^Z1 Y1 post8=Y4^X9 imm=0x4 stack cond-post", &p).ok());
  EXPECT_EQ(p.block_bits(), 4u);
  EXPECT_EQ(p.interleave[2], BitEntry::make(Channel::Y, 0));
  EXPECT_EQ(p.xors[0][2], BitEntry::make(Channel::X, 9));
  EXPECT_FALSE(p.xors[1][2].valid);
  EXPECT_EQ(p.xors[2][2], BitEntry::make(Channel::Z, 1));
  EXPECT_EQ(p.postamble[0][8], BitEntry::make(Channel::Y, 4));
  EXPECT_EQ(p.postamble[1][8], BitEntry::make(Channel::X, 9));
  EXPECT_EQ(p.immediate, 4u);
  EXPECT_EQ(p.flags, 3u);
  EXPECT_EQ(to_text(p), "X0 X1 Y0^X9^_^Z1 Y1 post8=Y4^X9 imm=0x4 stack cond-post");
}

TEST(PatternText, RejectsMalformed) {
  Pattern p;
  for (const char* bad : {"X0 Q1", "X32", "X0^Y1^Y2^Y3^Y4^Y5", "post8=Y1^Y2^Y3", "imm=zz", "post99=X1", "X0 post8"}) {
    Status s = parse_pattern_text(bad, &p);
    EXPECT_EQ(s.code(), Code::parse_error) << bad;
    EXPECT_FALSE(s.message().empty());
  }
  std::string many;
  for (int i = 0; i < 33; ++i) many += "X0 ";
  EXPECT_EQ(parse_pattern_text(many, &p).code(), Code::parse_error);
}

TEST(PatternForms, RandomRoundTripsAreExact) {
  std::mt19937_64 rng(1234);
  for (int it = 0; it < swz_test::scaled(3000); ++it) {
    swz_test::RandomPatternOptions o;
    o.element_log2 = static_cast<unsigned>(rng() % 5);
    o.max_block_bits = 4 + static_cast<unsigned>(rng() % 28);
    o.allow_high_postamble = true;
    Pattern p = swz_test::random_pattern(rng, o);
    if (rng() % 7 == 0) p.flags |= kFlagConditionalPostamble;
    Pattern q;
    ASSERT_TRUE(parse_pattern_text(to_text(p), &q).ok()) << to_text(p);
    EXPECT_EQ(p, q) << to_text(p);
    ASSERT_TRUE(parse_pattern_json(to_json(p), &q).ok()) << to_json(p);
    EXPECT_EQ(p, q) << to_json(p);
    auto bytes = to_ddi_bytes_0022(p);
    ASSERT_EQ(bytes.size(), kDdiBytes0022);
    ASSERT_TRUE(from_ddi_bytes(bytes, &q).ok());
    EXPECT_EQ(p, q);
    EXPECT_EQ(to_ddi_bytes_0022(q), bytes);
  }
}

TEST(PatternForms, ArbitraryDdiBytesRoundTripExactly) {
  // Any 232 bytes (invalid entries with payload, unknown flags) survive.
  std::mt19937_64 rng(99);
  for (int it = 0; it < swz_test::scaled(500); ++it) {
    std::vector<uint8_t> b(kDdiBytes0022);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    Pattern p;
    ASSERT_TRUE(from_ddi_bytes(b, &p).ok());
    EXPECT_EQ(to_ddi_bytes_0022(p), b);
  }
}

TEST(PatternForms, LegacyStructLayout) {
  // D3D12DDI_SWIZZLE_PATTERN_DESC: three arrays, InterleavePatternXOR3 (a
  // constant XORed into the in-block offset), Flags.
  std::vector<uint8_t> b(kDdiBytesLegacy, 0);
  b[0] = 1 | (0 << 1) | (0 << 3);       // X0
  b[1] = 1 | (1 << 1) | (0 << 3);       // Y0
  b[32 + 1] = 1 | (0 << 1) | (5 << 3);  // XOR1 of bit 1: X5
  b[64 + 1] = 1 | (2 << 1) | (3 << 3);  // XOR2 of bit 1: Z3
  b[96] = 0x2;                          // XOR3 constant
  b[100] = 1;                           // Flags
  Pattern p;
  ASSERT_TRUE(from_ddi_bytes(b, &p).ok());
  EXPECT_EQ(to_text(p), "X0 Y0^X5^Z3 imm=0x2 stack");
  std::vector<uint8_t> back;
  ASSERT_TRUE(to_ddi_bytes_legacy(p, &back).ok());
  EXPECT_EQ(back, b);
  // Fields the old struct lacks are refused, not dropped.
  p.xors[2][1] = BitEntry::make(Channel::Y, 7);
  EXPECT_EQ(to_ddi_bytes_legacy(p, &back).code(), Code::unsupported);
  Pattern q;
  EXPECT_EQ(from_ddi_bytes(std::vector<uint8_t>(100), &q).code(), Code::parse_error);
}

TEST(PatternJson, WrongTypesAreParseErrors) {
  Pattern p;
  for (const char* bad : {"[1,2]", "{\"bits\": 3}", "{\"bits\": [1]}", "{\"bits\": [\"X0\"], \"immediate\": -1}",
                          "{\"bits\": [\"X0\"], \"flags\": [\"bogus\"]}",
                          "{\"bits\": [\"X0\"], \"postamble\": {\"8\": 5}}", "{not json"}) {
    Status s = parse_pattern_json(bad, &p);
    EXPECT_EQ(s.code(), Code::parse_error) << bad;
  }
  ASSERT_TRUE(
      parse_pattern_json("{\"bits\": [\"X0\", \"Y0\"], \"immediate\": 2, \"name\": \"meta ignored\"}", &p).ok());
  EXPECT_EQ(p.immediate, 2u);
}

// A misspelt key is not dropped with the pattern used without it
// ({"bits": ..., "postambel": {...}} is not the bare interleave): each is
// refused, naming the key and the keys allowed.
TEST(PatternJson, MisspeltKeysAreRefusedByName) {
  const std::string known = "(known: bits, postamble, immediate, flags, name, description, source)";
  struct Row {
    const char* json;
    const char* key;
  };
  const Row rows[] = {
      {R"({"bits": ["X0", "X1", "Y0", "Y1"], "postambel": {"8": "Y4"}})", "postambel"},
      {R"({"bits": ["X0", "X1", "Y0", "Y1"], "immediat": "0x4"})", "immediat"},
      {R"({"bits": ["X0", "X1", "Y0", "Y1"], "flag": ["stack"]})", "flag"},
      {R"({"bit": ["X0", "X1", "Y0", "Y1"]})", "bit"},
      // The keys of a row of a built-in family file belong to those files only.
      {R"({"bits": ["X0", "X1", "Y0", "Y1"], "dim": "2D"})", "dim"},
      {R"({"bits": ["X0", "X1", "Y0", "Y1"], "element_bytes": 4})", "element_bytes"},
  };
  const Pattern keep = P("X0 Y0");
  for (const Row& r : rows) {
    Pattern p = keep;
    const Status st = parse_pattern_json(r.json, &p);
    EXPECT_EQ(st.code(), Code::parse_error) << r.json;
    EXPECT_EQ(st.message(), "pattern JSON: unknown key \"" + std::string(r.key) + "\" " + known) << r.json;
    EXPECT_EQ(p, keep) << r.json;
  }
  // Spelt right, the same documents parse, and each key is used.
  Pattern p;
  ASSERT_TRUE(parse_pattern_json(R"({"bits": ["X0", "X1", "Y0", "Y1"], "postamble": {"8": "Y4"}, "immediate": "0x4",
                                     "flags": ["stack"], "name": "n", "description": {"any": ["value"]},
                                     "source": null})",
                                 &p)
                  .ok());
  EXPECT_EQ(p, P("X0 X1 Y0 Y1 post8=Y4 imm=0x4 stack"));
}

// The same misspellings inside a resource layout's "patterns" entry.
TEST(PatternJson, ResourceLayoutPatternEntriesRefuseUnknownKeys) {
  for (const char* key : {"postambel", "immediat", "flag"}) {
    const std::string doc =
        R"({"format": "R8_UNORM", "width": 4, "height": 4, "patterns": [{"bits": ["X0", "X1", "Y0", "Y1"], ")" +
        std::string(key) + R"(": ["stack"]}], "subresources": [{"offset": 0}]})";
    DeviceLayoutDesc d;
    d.size = 77;
    const Status st = parse_resource_layout_json(doc, &d);
    EXPECT_EQ(st.code(), Code::parse_error) << doc;
    EXPECT_NE(st.message().find("resource layout: patterns[0]: pattern JSON: unknown key \"" + std::string(key) +
                                "\" (known: bits, postamble"),
              std::string::npos)
        << st.message();
    EXPECT_EQ(d.size, 77u);
  }
  DeviceLayoutDesc d;
  ASSERT_TRUE(parse_resource_layout_json(R"({"format": "R8_UNORM", "width": 4, "height": 4,
      "patterns": [{"bits": ["X0", "X1", "Y0", "Y1"], "immediate": "0x1", "name": "ok"}], "subresources": [{"offset": 0}]})",
                                         &d)
                  .ok());
  ASSERT_TRUE(d.patterns[0].has_value());
  EXPECT_EQ(*d.patterns[0], P("X0 X1 Y0 Y1 imm=0x1"));
}

// The reader of family rows (patterns/std64k.json, std4k.json) takes the
// row's selector keys on top of a pattern's, and nothing else.
TEST(PatternJson, FamilyRowKeysOnlyWhereGiven) {
  const auto row = nlohmann::json::parse(
      R"({"dim": "2D", "element_bytes": 1, "tile_texels": [4, 2, 1], "bits": ["X0", "X1", "Y0"], "confirmed": true})");
  Pattern p;
  ASSERT_TRUE(detail::parse_pattern_object(row, {"dim", "element_bytes", "tile_texels", "confirmed"}, &p).ok());
  EXPECT_EQ(p, P("X0 X1 Y0"));
  auto typo = row;
  typo["confirmd"] = true;
  const Status st = detail::parse_pattern_object(typo, {"dim", "element_bytes", "tile_texels", "confirmed"}, &p);
  EXPECT_EQ(st.code(), Code::parse_error);
  EXPECT_EQ(st.message(),
            "pattern JSON: unknown key \"confirmd\" (known: bits, postamble, immediate, flags, name, description, "
            "source, dim, element_bytes, tile_texels, confirmed)");
  EXPECT_EQ(detail::parse_pattern_object(row, {}, &p).message().find("pattern JSON: unknown key \"confirmed\""), 0u);
}

// Every JSON file under patterns/ (vendor/ too) loads as the library reads it:
// a single pattern through parse_pattern_json, std64k.json and std4k.json
// through standard_swizzle_pattern (each confirmed row equals its bits), the
// vendor files through the vendor tables (every family they name is known).
TEST(PatternFiles, EveryFileUnderPatternsLoads) {
  namespace fs = std::filesystem;
  const fs::path root = SWZ_PATTERNS_DIR;
  int files = 0;
  for (const auto& de : fs::recursive_directory_iterator(root)) {
    if (!de.is_regular_file() || de.path().extension() != ".json") continue;
    ++files;
    const std::string rel = fs::relative(de.path(), root).generic_string();
    SCOPED_TRACE(rel);
    std::ifstream in(de.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const auto j = nlohmann::json::parse(text);
    if (j.contains("bits")) {
      Pattern p;
      const Status st = parse_pattern_json(text, &p);
      EXPECT_TRUE(st.ok()) << st.message();
    } else if (rel == "std64k.json" || rel == "std4k.json") {
      const LayoutKind kind = rel == "std64k.json" ? LayoutKind::Std64K : LayoutKind::Std4K;
      ASSERT_TRUE(j.contains("patterns"));
      for (const auto& row : j["patterns"]) {
        SCOPED_TRACE(row.dump());
        Pattern want, got;
        ASSERT_TRUE(parse_pattern_json(nlohmann::json{{"bits", row["bits"]}}.dump(), &want).ok());
        const Dimension dim = row["dim"] == "3D" ? Dimension::Texture3D : Dimension::Texture2D;
        const Status st = standard_swizzle_pattern(kind, dim, row["element_bytes"].get<uint32_t>(), &got);
        if (row.value("confirmed", true)) {
          ASSERT_TRUE(st.ok()) << st.message();
          EXPECT_EQ(got, want);
        } else {
          EXPECT_EQ(st.code(), Code::unsupported) << st.message();
        }
        // The row as it stands is a family row, not a pattern file.
        EXPECT_EQ(parse_pattern_json(row.dump(), &got).code(), Code::parse_error);
      }
    } else if (rel.rfind("vendor/", 0) == 0) {
      Status st;
      vendor::data(&st);
      ASSERT_TRUE(st.ok()) << st.message();
      ASSERT_TRUE(j.contains("families") || j.contains("gobs"));
      if (j.contains("families"))
        for (const auto& f : j["families"]) EXPECT_TRUE(is_named_layout(f["name"].get<std::string>())) << f["name"];
      if (j.contains("gobs")) EXPECT_TRUE(is_named_layout("nv-block-linear"));
    } else {
      ADD_FAILURE() << "a JSON file under patterns/ that no reader of the library loads";
    }
  }
  EXPECT_EQ(files, 7);  // std64k, std4k, vendor/{amd,intel,nvidia,other,consoles}
}

struct BadCase {
  const char* text;
  uint32_t element_bytes;
  const char* must_mention;
};

TEST(PatternValidate, EachRuleNamesFieldAndValue) {
  const BadCase cases[] = {
      {"X0 - Y0", 1, "InterleavePatternSourceBits[2]"},          // not a prefix
      {"X0 X0", 1, "InterleavePatternSourceBits[1] = X0"},       // repeat: not a bijection
      {"X0 X2", 1, "X1 is missing"},                             // channel primaries not 0..m-1
      {"X0 Y0^X0", 2, "InterleavePatternXORSourceBits[1]"},      // XOR reads a byte-in-element bit
      {"X0 X1 Y0 imm=0x10", 1, "PostambleXORImmediate = 0x10"},  // immediate above the block
      {"X0 X1 Y0 imm=0x1", 2, "PostambleXORImmediate = 0x1"},    // immediate inside an element
      {"Y0 X0", 2, "InterleavePatternSourceBits[0] = Y0"},       // element bytes first
      {"X0 Y0 Z0 stack", 1, "STACK_DEPTH_SLICES"},               // Z with stacking
      {"X0 Y0 post4=Y1", 1, "PostambleXORSourceBits[4]"},        // postamble outside 8..23
      {"X0^Y0 Y0^X0", 1, "address bits {0, 1}"},                 // singular in-block map
      {"X0 Y0 flags=0x10", 1, "Flags = 0x10"},
  };
  for (const auto& c : cases) {
    Pattern p;
    ASSERT_TRUE(parse_pattern_text(c.text, &p).ok()) << c.text;
    Status s = validate(p, c.element_bytes);
    EXPECT_EQ(s.code(), Code::invalid_argument) << c.text;
    EXPECT_NE(s.message().find(c.must_mention), std::string::npos) << c.text << " -> " << s.message();
  }
  // The XOR past the prefix cannot be written in the text form with a valid
  // primary, so build it directly.
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 Y0", &p).ok());
  p.xors[1][5] = BitEntry::make(Channel::Y, 3);
  Status s = validate(p, 1);
  EXPECT_NE(s.message().find("InterleavePatternXOR2SourceBits[5] = Y3"), std::string::npos) << s.message();
}

TEST(PatternValidate, SpecRowMajorExampleAsPrintedIsRejected) {
  // Seed 000 prints RowMajor_2d_NonMSAA_32bpp as {1,0,1},{1,0,1}: X1 twice.
  Pattern p;
  p.interleave[0] = {true, 0, 1};
  p.interleave[1] = {true, 0, 1};
  EXPECT_FALSE(validate(p, 4).ok());
  Pattern q;
  ASSERT_TRUE(parse_pattern_text("X0 X1", &q).ok());
  EXPECT_TRUE(validate(q, 4).ok());
}

TEST(PatternValidate, InBlockPostambleCountsForInvertibility) {
  // Address bit 8 = Y0 ^ (postamble) Y0: cancels, leaving Y0 unmapped.
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 X4 X5 X6 X7 Y0 post8=Y0", &p).ok());
  EXPECT_FALSE(validate(p, 1).ok());
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 X4 X5 X6 X7 Y0 post8=X1", &p).ok());
  EXPECT_TRUE(validate(p, 1).ok());
}
