// canonicalize(): reorders addrlib-style terms so the primaries are the
// in-block bits, without changing the map. Known vectors: the AMD addrlib
// equations in tests/data/hw/real_patterns.json (research copy; each row
// was checked there against Addr2ComputeSurfaceAddrFromCoord), evaluated here
// term by term as printed, independently of the library's tables.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "swz/canonicalize.hpp"
#include "swz/swz.hpp"

using namespace swz;

namespace {

struct Term {
  int c;
  unsigned b;
};
using Equation = std::vector<std::vector<Term>>;  // per address bit, the XORed terms

Equation parse_equation(const std::vector<std::string>& bits) {
  Equation eq;
  for (const std::string& tok : bits) {
    std::vector<Term> t;
    std::stringstream ss(tok);
    std::string part;
    while (std::getline(ss, part, '^'))
      t.push_back({std::string("XYZS").find(part[0]) == std::string::npos
                       ? -1
                       : static_cast<int>(std::string("XYZS").find(part[0])),
                   static_cast<unsigned>(std::stoul(part.substr(1)))});
    eq.push_back(t);
  }
  return eq;
}

// The equation as printed: address bit i = XOR of its terms (coordinates absolute).
uint64_t eval(const Equation& eq, const uint64_t coord[4]) {
  uint64_t v = 0;
  for (size_t i = 0; i < eq.size(); ++i) {
    uint64_t b = 0;
    for (const Term& t : eq[i]) b ^= (coord[t.c] >> t.b) & 1;
    v |= b << i;
  }
  return v;
}

nlohmann::json load_reference() {
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/hw/real_patterns.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

std::vector<std::string> row_bits(const nlohmann::json& row) {
  std::vector<std::string> out;
  for (const auto& b : row["bits"]) {
    std::string t = b["src"].get<std::string>();
    for (const auto& x : b["xor"]) t += "^" + x.get<std::string>();
    out.push_back(t);
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& t : v) s += (s.empty() ? "" : " ") + t;
  return s;
}

}  // namespace

TEST(VendorCanonicalize, ParsesBlockExtents) {
  BlockExtents e;
  ASSERT_TRUE(parse_block_extents("512x128", &e).ok());
  EXPECT_EQ(e.x_bytes, 512u);
  EXPECT_EQ(e.y, 128u);
  EXPECT_EQ(e.z, 1u);
  ASSERT_TRUE(parse_block_extents("16x8x4x2", &e).ok());
  EXPECT_EQ(e.z, 4u);
  EXPECT_EQ(e.s, 2u);
  EXPECT_EQ(to_string(e), "16x8x4x2");
  EXPECT_EQ(parse_block_extents("512", &e).code(), Code::parse_error);
  EXPECT_EQ(parse_block_extents("512xq", &e).code(), Code::parse_error);
  EXPECT_EQ(parse_block_extents("100x8", &e).code(), Code::invalid_argument);
  EXPECT_EQ(parse_block_extents("1x1x1x1x1", &e).code(), Code::parse_error);
}

// GFX10.3 SW_64KB_R_X, 8 pipes (research notes §2): a8 = X9^Y4^Y7 has X9
// (outside the 512-byte-wide block) first, and Y4..Y6 only appear as XOR terms.
TEST(VendorCanonicalize, Gfx103RenderEquationNeedsReordering) {
  const char* raw = "X0 X1 X2 X3 Y0 Y1 X4 Y2 X9^Y4^Y7 X6^Y4^Z2 X8^Y5^Z1 X5 Y3 X8^Y7 X9^Y6 X7^Y6^Z0";
  Pattern p;
  ASSERT_TRUE(parse_pattern_text(raw, &p).ok());
  Status v = validate(p, 4);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.message().find("canonicalize"), std::string::npos) << v.message();

  Pattern c;
  ASSERT_TRUE(canonicalize(p, {512, 128, 1, 1}, &c).ok());
  EXPECT_TRUE(validate(c, 4).ok()) << validate(c, 4).message();
  EXPECT_EQ(c.block_extent()[0], 512u);
  EXPECT_EQ(c.block_extent()[1], 128u);
  // Same map: every in-block coordinate and a spread of out-of-block ones.
  Equation eq = parse_equation({"X0", "X1", "X2", "X3", "Y0", "Y1", "X4", "Y2", "X9^Y4^Y7", "X6^Y4^Z2", "X8^Y5^Z1",
                                "X5", "Y3", "X8^Y7", "X9^Y6", "X7^Y6^Z0"});
  AddressParams a;
  a.row_pitch = 65536 * 4;
  a.depth_pitch_B = a.row_pitch * 8;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    uint64_t xb = rng() % 2048, y = rng() % 1024, z = rng() % 8;
    uint64_t coord[4] = {xb, y, z, 0};
    uint64_t want = (z * a.depth_pitch_B) + (y >> 7) * a.row_pitch + (xb >> 9) * 65536 + eval(eq, coord);
    ASSERT_EQ(reference_offset(c, xb, y, z, 0, a), want) << xb << "," << y << "," << z;
  }
}

// Every AMD addrlib row of the research table: canonicalize with the 2D block
// of 4-byte elements (width takes the odd bit), then compare with the printed
// equation evaluated term by term on random coordinates.
TEST(VendorCanonicalize, EveryAmdReferenceEquationKeepsItsMap) {
  auto ref = load_reference();
  int rows = 0;
  std::mt19937_64 rng(11);
  for (const auto& row : ref) {
    const std::string name = row["name"].get<std::string>();
    if (name.rfind("amd_gfx", 0) != 0 || name.find("gfx12") != std::string::npos) continue;
    ++rows;
    const auto bits = row_bits(row);
    const unsigned n = static_cast<unsigned>(bits.size());
    ASSERT_EQ(uint64_t{1} << n, row["block_bytes"].get<uint64_t>()) << name;
    const unsigned rem = n - 2;
    BlockExtents ext{uint64_t{4} << ((rem + 1) / 2), uint64_t{1} << (rem / 2), 1, 1};
    Pattern p, c;
    ASSERT_TRUE(parse_pattern_text(join(bits), &p).ok()) << name;
    Status st = canonicalize(p, ext, &c);
    ASSERT_TRUE(st.ok()) << name << ": " << st.message();
    ASSERT_TRUE(validate(c, 4).ok()) << name;
    Equation eq = parse_equation(bits);
    AddressParams a;
    const uint64_t bb = uint64_t{1} << n;
    a.row_pitch = bb * 8;  // 8 blocks across
    a.depth_pitch_B = a.row_pitch * 4;
    for (int i = 0; i < 3000; ++i) {
      uint64_t xb = (rng() % (ext.x_bytes * 8)) & ~uint64_t{3}, y = rng() % (ext.y * 4), z = rng() % 16;
      uint64_t coord[4] = {xb, y, z, 0};
      uint64_t want = z * a.depth_pitch_B + (y / ext.y) * a.row_pitch + (xb / ext.x_bytes) * bb + eval(eq, coord);
      ASSERT_EQ(reference_offset(c, xb, y, z, 0, a), want) << name << " at " << xb << "," << y << "," << z;
    }
  }
  EXPECT_GE(rows, 80);
}

TEST(VendorCanonicalize, Errors) {
  Pattern p, c;
  ASSERT_TRUE(parse_pattern_text("X0 X1 Y0 Y1", &p).ok());
  Status st = canonicalize(p, {2, 2, 1, 1}, &c);  // 2 + 1 bits for 4 entries
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("4 interleave entries"), std::string::npos) << st.message();
  EXPECT_EQ(canonicalize(p, {3, 4, 1, 1}, &c).code(), Code::invalid_argument);
  // Singular: address bits 2 and 3 both only see Y0.
  ASSERT_TRUE(parse_pattern_text("X0 X1 Y0 Y0^X7", &p).ok());
  st = canonicalize(p, {4, 4, 1, 1}, &c);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("singular"), std::string::npos) << st.message();
  // Already canonical patterns come back unchanged.
  ASSERT_TRUE(parse_pattern_text("X0 X1 Y0^X5 Y1 X2^Y3", &p).ok());
  ASSERT_TRUE(canonicalize(p, {8, 4, 1, 1}, &c).ok());
  EXPECT_EQ(to_text(c), to_text(p));
}

TEST(VendorCanonicalize, CancelsPairsAndUsesPostambleTerms) {
  Pattern p, c;
  // Y0 appears twice on bit 2 (cancels): the map there is X9 alone -> bit 2 must come from elsewhere.
  ASSERT_TRUE(parse_pattern_text("X0 X1 Y0^Y0^X9^Y1 Y1", &p).ok());
  EXPECT_EQ(canonicalize(p, {4, 4, 1, 1}, &c).code(), Code::invalid_argument);
  // A primary taken from a postamble term inside the block (bit 8 of a 512-byte block).
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 Y0 Y1 Y2 X4 X9^X10^X11^X12^X13 post8=Y3", &p).ok());
  ASSERT_TRUE(canonicalize(p, {32, 16, 1, 1}, &c).ok());
  EXPECT_EQ(c.interleave[8], BitEntry::make(Channel::Y, 3));
  EXPECT_TRUE(validate(c, 1).ok());
  AddressParams a;
  a.row_pitch = 512 * 4;
  for (uint64_t x = 0; x < 32; ++x)  // in-block coordinates: X9..X13 are 0, so address bit 8 = Y3
    for (uint64_t y = 0; y < 16; ++y) {
      uint64_t want = (x & 15) | ((y & 1) << 4) | (((y >> 1) & 1) << 5) | (((y >> 2) & 1) << 6) |
                      (((x >> 4) & 1) << 7) | (((y >> 3) & 1) << 8);
      ASSERT_EQ(reference_offset(c, x, y, 0, 0, a), want) << x << "," << y;
    }
}
