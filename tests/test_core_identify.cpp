// identify() and infer() (include/swz/identify.hpp).
//
// identify: a real photograph (examples/coffee.png, CC0, see
// examples/CREDITS.md) is cropped, swizzled by the copy engine
// (write_to_subresource, independent of identify's address tables) into every
// candidate layout, and identify must rank a layout first that puts every texel
// at the same byte (equivalent names are reported once). The subset here runs
// in seconds; the full accuracy table is the disabled test
// IdentifyAccuracy.DISABLED_FullTable (bench/identify_accuracy.sh runs it).
//
// infer: probes (element (x, y) holds y*W+x) made through the copy engine from
// random patterns with XOR chains, postamble terms above the block and
// immediates, and from every built-in layout, are solved exactly.
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "identify/internal.hpp"
#include "swz/copy.hpp"
#include "swz/identify.hpp"
#include "swz/layout_names.hpp"
#include "test_util.hpp"

using namespace swz;
using namespace swz_test;

namespace {

struct Photo {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;
};

const Photo& coffee() {
  static Photo p = [] {
    Photo q;
    const std::string path = std::string(SWZ_TEST_DATA) + "/../../examples/coffee.png";
    int n = 0;
    unsigned char* d = stbi_load(path.c_str(), &q.w, &q.h, &n, 4);
    if (d) {
      q.rgba.assign(d, d + size_t(q.w) * q.h * 4);
      stbi_image_free(d);
    }
    return q;
  }();
  return p;
}

// A w x h crop at (x0, y0) converted to `eb`-byte elements: 1 = luma (R8),
// 2 = R8G8, 4 = RGBA8, 8 = RGBA16 (value * 257), 16 = RGBA32F.
std::vector<uint8_t> crop(uint32_t w, uint32_t h, uint32_t x0, uint32_t y0, uint32_t eb) {
  const Photo& p = coffee();
  std::vector<uint8_t> out(size_t{w} * h * eb);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const uint8_t* s = &p.rgba[(size_t(y0 + y) * p.w + (x0 + x)) * 4];
      uint8_t* d = &out[(size_t{y} * w + x) * eb];
      if (eb == 1) d[0] = static_cast<uint8_t>((s[0] * 77 + s[1] * 150 + s[2] * 29) >> 8);
      else if (eb == 2) { d[0] = s[0]; d[1] = s[1]; }
      else if (eb == 4) std::memcpy(d, s, 4);
      else if (eb == 8) for (int c = 0; c < 4; ++c) { uint16_t v = static_cast<uint16_t>(s[c] * 257); std::memcpy(d + 2 * c, &v, 2); }
      else for (int c = 0; c < 4; ++c) { float v = s[c] / 255.0f; std::memcpy(d + 4 * c, &v, 4); }
    }
  return out;
}

const char* format_name(uint32_t eb) {
  return eb == 1 ? "R8_UNORM" : eb == 2 ? "R8G8_UNORM" : eb == 4 ? "R8G8B8A8_UNORM" : eb == 8 ? "R16G16B16A16_UNORM" : "R32G32B32A32_FLOAT";
}

bool same_offsets(const Layout& a, const Layout& b) {
  ident::AddressTables ta, tb;
  if (!ident::make_tables(a, &ta).ok() || !ident::make_tables(b, &tb).ok()) return false;
  for (uint32_t y = 0; y < a.sub(0).height_el; ++y)
    for (uint32_t x = 0; x < a.sub(0).width_el; ++x)
      if (ta.at(x, y) != tb.at(x, y)) return false;
  return true;
}

std::string family_of(const std::string& name) { return name.substr(0, name.find(':')); }

struct Tally {
  int cases = 0, first = 0;
  std::vector<std::string> misses;
};

// Swizzles a crop into every candidate layout and runs identify on it.
void run_accuracy(uint32_t w, uint32_t h, uint32_t eb, uint32_t x0, uint32_t y0, std::map<std::string, Tally>* tally, double* seconds,
                  size_t stride = 1) {
  const FormatInfo f = fmt(format_name(eb));
  const std::vector<uint8_t> lin = crop(w, h, x0, y0, eb);
  const std::vector<ident::CandidateName> names = ident::candidate_names(f, w, h);
  for (size_t i = 0; i < names.size(); i += stride) {
    const ident::CandidateName& n = names[i];
    Layout truth;
    if (!ident::make_candidate(n, f, w, h, &truth).ok()) continue;
    std::vector<uint8_t> dump(truth.size(), 0);
    ASSERT_TRUE(write_to_subresource(truth, dump.data(), dump.size(), 0, nullptr, lin.data(), lin.size(), uint64_t{w} * eb, lin.size()).ok())
        << n.name;
    std::vector<IdentifyCandidate> got;
    IdentifyOptions o;
    o.top = 3;
    auto t0 = std::chrono::steady_clock::now();
    Status st = identify(dump, f, w, h, o, &got);
    *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_FALSE(got.empty());
    Layout best;
    ident::CandidateName bn{got[0].layout, got[0].row_pitch_B, 0};
    ASSERT_TRUE(ident::make_candidate(bn, f, w, h, &best).ok()) << got[0].layout;
    Tally& t = (*tally)[family_of(n.name)];
    ++t.cases;
    if (same_offsets(best, truth)) ++t.first;
    else
      t.misses.push_back(n.name + (n.row_pitch_B ? " pitch " + std::to_string(n.row_pitch_B) : "") + " @" + std::to_string(w) + "x" +
                         std::to_string(h) + "x" + std::to_string(eb) + "B -> " + got[0].layout + " (" + std::to_string(got[0].score) + ")");
  }
}

void report(const std::map<std::string, Tally>& tally, int* cases, int* first) {
  *cases = *first = 0;
  for (const auto& [fam, t] : tally) {
    *cases += t.cases;
    *first += t.first;
    std::printf("  %-24s %4d/%-4d first\n", fam.c_str(), t.first, t.cases);
    for (const std::string& m : t.misses) std::printf("      miss: %s\n", m.c_str());
  }
  std::printf("  total %d/%d = %.1f%%\n", *first, *cases, *cases ? 100.0 * *first / *cases : 0.0);
}

}  // namespace

TEST(Identify, PhotoIsLoaded) {
  ASSERT_EQ(coffee().w, 600);
  ASSERT_EQ(coffee().h, 400);
}

TEST(IdentifyAccuracy, SubsetRanksTheTruthFirst) {
  std::map<std::string, Tally> tally;
  double secs = 0;
  run_accuracy(128, 128, 4, 200, 100, &tally, &secs);
  run_accuracy(157, 93, 4, 31, 207, &tally, &secs);
  int cases, first;
  report(tally, &cases, &first);
  std::printf("  identify: %.1f ms per dump\n", 1000 * secs / cases);
  EXPECT_GE(first * 100, cases * 95);
}

TEST(IdentifyAccuracy, DISABLED_FullTable) {
  std::map<std::string, Tally> tally;
  double secs = 0;
  const uint32_t sizes[][2] = {{256, 256}, {512, 256}, {600, 400}, {301, 187}, {97, 61}, {64, 64}, {1, 1}};
  for (uint32_t eb : {4u, 1u, 2u, 8u, 16u})
    for (auto& s : sizes) run_accuracy(s[0], s[1], eb, (600 - s[0]) / 3, (400 - s[1]) / 2, &tally, &secs);
  int cases, first;
  report(tally, &cases, &first);
  std::printf("  identify: %.1f ms per dump on average\n", 1000 * secs / cases);
  EXPECT_GE(first * 100, cases * 95);
}
