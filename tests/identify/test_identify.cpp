// identify() and infer() (include/swz/identify.hpp).
//
// identify: real photographs (examples/coffee.png and
// tests/data/identify/chelsea.png, both CC0; see examples/CREDITS.md and
// tests/data/README.md) are cropped, swizzled by the copy engine
// (write_to_subresource, independent of identify's address tables) into every
// candidate layout, and identify must rank a layout first that puts every texel
// at the same byte (equivalent names are reported once). The subset here runs
// in seconds; IdentifyAccuracy.FullTable runs every 17th candidate of the
// full accuracy table, and all of it with SWZ_IDENTIFY_FULL_TABLE=1
// (bench/identify_accuracy.sh).
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
#include "test_scale.hpp"
#include "test_util.hpp"

using namespace swz;
using namespace swz_test;

namespace {

struct Photo {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;
};

Photo load(const std::string& path) {
  Photo q;
  int n = 0;
  unsigned char* d = stbi_load(path.c_str(), &q.w, &q.h, &n, 4);
  if (d) {
    q.rgba.assign(d, d + size_t(q.w) * q.h * 4);
    stbi_image_free(d);
  }
  return q;
}

const Photo& coffee() {
  static Photo p = load(std::string(SWZ_TEST_DATA) + "/../../examples/coffee.png");
  return p;
}

const Photo& chelsea() {
  static Photo p = load(std::string(SWZ_TEST_DATA) + "/identify/chelsea.png");
  return p;
}

const Photo* g_photo = nullptr;  // the photograph crop() reads; coffee by default

// A w x h crop at (x0, y0) converted to `eb`-byte elements: 1 = luma (R8),
// 2 = R8G8, 4 = RGBA8, 8 = RGBA16 (value * 257), 16 = RGBA32F.
std::vector<uint8_t> crop(uint32_t w, uint32_t h, uint32_t x0, uint32_t y0, uint32_t eb) {
  const Photo& p = g_photo ? *g_photo : coffee();
  std::vector<uint8_t> out(size_t{w} * h * eb);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const uint8_t* s = &p.rgba[(size_t(y0 + y) * p.w + (x0 + x)) * 4];
      uint8_t* d = &out[(size_t{y} * w + x) * eb];
      if (eb == 1)
        d[0] = static_cast<uint8_t>((s[0] * 77 + s[1] * 150 + s[2] * 29) >> 8);
      else if (eb == 2) {
        d[0] = s[0];
        d[1] = s[1];
      } else if (eb == 4)
        std::memcpy(d, s, 4);
      else if (eb == 8)
        for (int c = 0; c < 4; ++c) {
          uint16_t v = static_cast<uint16_t>(s[c] * 257);
          std::memcpy(d + 2 * c, &v, 2);
        }
      else
        for (int c = 0; c < 4; ++c) {
          float v = s[c] / 255.0f;
          std::memcpy(d + 4 * c, &v, 4);
        }
    }
  return out;
}

const char* format_name(uint32_t eb) {
  return eb == 1   ? "R8_UNORM"
         : eb == 2 ? "R8G8_UNORM"
         : eb == 4 ? "R8G8B8A8_UNORM"
         : eb == 8 ? "R16G16B16A16_UNORM"
                   : "R32G32B32A32_FLOAT";
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

// A plain BC1 encoder (S3TC's rule, written for this test): per 4x4 block,
// the two texels of least and greatest luma as the 5:6:5 endpoints (colour 0
// the greater, so the block is in four-colour mode), each texel the nearest
// of the four palette colours. Edge blocks repeat the last row and column.
std::vector<uint8_t> encode_bc1(const std::vector<uint8_t>& rgba, uint32_t w, uint32_t h) {
  const uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
  std::vector<uint8_t> out(size_t{bw} * bh * 8);
  auto q565 = [](const uint8_t* c) {
    return static_cast<uint16_t>(((c[0] >> 3) << 11) | ((c[1] >> 2) << 5) | (c[2] >> 3));
  };
  auto rgb_of = [](uint16_t v, int* c) {
    c[0] = ((v >> 11) & 31) * 255 / 31;
    c[1] = ((v >> 5) & 63) * 255 / 63;
    c[2] = (v & 31) * 255 / 31;
  };
  for (uint32_t by = 0; by < bh; ++by)
    for (uint32_t bx = 0; bx < bw; ++bx) {
      const uint8_t* t[16];
      for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t x = std::min(w - 1, bx * 4 + i % 4), y = std::min(h - 1, by * 4 + i / 4);
        t[i] = &rgba[(size_t{y} * w + x) * 4];
      }
      auto luma = [](const uint8_t* c) { return c[0] * 2 + c[1] * 5 + c[2]; };
      const uint8_t *lo = t[0], *hi = t[0];
      for (const uint8_t* c : t) {
        if (luma(c) < luma(lo)) lo = c;
        if (luma(c) > luma(hi)) hi = c;
      }
      uint16_t c0 = q565(hi), c1 = q565(lo);
      if (c0 < c1) std::swap(c0, c1);
      uint32_t idx = 0;
      if (c0 != c1) {
        int p[4][3];
        rgb_of(c0, p[0]);
        rgb_of(c1, p[1]);
        for (int k = 0; k < 3; ++k) {
          p[2][k] = (2 * p[0][k] + p[1][k]) / 3;
          p[3][k] = (p[0][k] + 2 * p[1][k]) / 3;
        }
        for (uint32_t i = 0; i < 16; ++i) {
          int best = 0, best_d = INT32_MAX;
          for (int k = 0; k < 4; ++k) {
            int d = 0;
            for (int c = 0; c < 3; ++c) d += (t[i][c] - p[k][c]) * (t[i][c] - p[k][c]);
            if (d < best_d) best_d = d, best = k;
          }
          idx |= static_cast<uint32_t>(best) << (2 * i);
        }
      }
      uint8_t* o = &out[(size_t{by} * bw + bx) * 8];
      const uint8_t b[8] = {static_cast<uint8_t>(c0), static_cast<uint8_t>(c0 >> 8), static_cast<uint8_t>(c1),
                            static_cast<uint8_t>(c1 >> 8), static_cast<uint8_t>(idx), static_cast<uint8_t>(idx >> 8),
                            static_cast<uint8_t>(idx >> 16), static_cast<uint8_t>(idx >> 24)};
      std::memcpy(o, b, 8);
    }
  return out;
}

// Where a texture sits in its dump: after lead_B bytes of noise (found with
// an offset search every step_B bytes) and before as many zero bytes, or
// with only the first `keep` of its layout present (the dump ends there).
struct Placement {
  uint64_t lead_B = 0;
  uint64_t step_B = 0;
  double keep = 1.0;
};

// Swizzles a crop into every candidate layout and runs identify on it.
// eb 0: the crop as BC1 blocks (encode_bc1).
void run_accuracy(uint32_t w, uint32_t h, uint32_t eb, uint32_t x0, uint32_t y0, std::map<std::string, Tally>* tally,
                  double* seconds, size_t stride = 1, uint32_t amd_pbxor = 0, Placement at = {}) {
  const FormatInfo f = fmt(eb ? format_name(eb) : "BC1_UNORM");
  const std::vector<uint8_t> lin = eb ? crop(w, h, x0, y0, eb) : encode_bc1(crop(w, h, x0, y0, 4), w, h);
  const uint64_t lin_row_B = eb ? uint64_t{w} * eb : uint64_t{(w + 3) / 4} * 8;
  const std::vector<ident::CandidateName> names = ident::candidate_names(f, w, h);
  for (size_t i = 0; i < names.size(); i += stride) {
    ident::CandidateName n = names[i];
    if (amd_pbxor) {  // only the AMD layouts, with a pipe/bank XOR
      if (n.name.rfind("amd-", 0) != 0) continue;
      n.name += (n.name.find(':') == std::string::npos ? ":" : ",") + std::string("pbxor=") + std::to_string(amd_pbxor);
    }
    Layout truth;
    if (!ident::make_candidate(n, f, w, h, &truth).ok()) continue;
    std::vector<uint8_t> dump(truth.size(), 0);
    ASSERT_TRUE(write_to_subresource(truth, dump.data(), dump.size(), 0, nullptr, lin.data(), lin.size(), lin_row_B,
                                     lin.size())
                    .ok())
        << n.name;
    if (at.keep < 1.0) dump.resize(static_cast<size_t>(static_cast<double>(dump.size()) * at.keep));
    if (at.lead_B) {
      std::vector<uint8_t> noise(at.lead_B);
      uint64_t z = 0x9E3779B97F4A7C15ull * (i + 1);
      for (uint8_t& b : noise) b = static_cast<uint8_t>((z = z * 6364136223846793005ull + 1442695040888963407ull) >> 56);
      dump.insert(dump.begin(), noise.begin(), noise.end());
      if (at.keep == 1.0) dump.resize(dump.size() + at.lead_B, 0);  // zeros after it, as a heap's free space
    }
    std::vector<IdentifyCandidate> got;
    IdentifyOptions o;
    o.top = 3;
    o.offset_step_B = at.step_B;
    auto t0 = std::chrono::steady_clock::now();
    Status st = identify(dump, f, w, h, o, &got);
    *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_FALSE(got.empty());
    Layout best;
    ident::CandidateName bn{got[0].layout, 0, 0};
    ASSERT_TRUE(ident::make_candidate(bn, f, w, h, &best).ok()) << got[0].layout;
    Tally& t = (*tally)[family_of(n.name)];
    ++t.cases;
    // A layout whose decode is the truth's flipped or transposed (3DS and PS4
    // tiles, X-first and Y-first Morton orders of a square) scores the same,
    // or, on a short dump, within the noise of which texels are missing
    // (kFlipTie): the truth among those counts as found.
    constexpr double kFlipTie = 0.005;
    bool tied_with_truth = false;
    for (size_t k = 1; k < got.size() && got[0].score - got[k].score <= (at.keep < 1.0 ? kFlipTie : 0.0); ++k) {
      Layout tied;
      tied_with_truth |= ident::make_candidate({got[k].layout, 0, 0}, f, w, h, &tied).ok() &&
                         same_offsets(tied, truth) && got[k].offset_B == at.lead_B;
    }
    if ((same_offsets(best, truth) && got[0].offset_B == at.lead_B) || tied_with_truth)
      ++t.first;
    else
      t.misses.push_back(n.name + (n.row_pitch_B ? " pitch " + std::to_string(n.row_pitch_B) : "") + " @" +
                         std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(eb) + "B -> " +
                         got[0].layout + " at " + std::to_string(got[0].offset_B) + " (" +
                         std::to_string(got[0].score) + ")");
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

TEST(Identify, PhotosAreLoaded) {
  ASSERT_EQ(coffee().w, 600);
  ASSERT_EQ(coffee().h, 400);
  ASSERT_EQ(chelsea().w, 451);
  ASSERT_EQ(chelsea().h, 300);
}

TEST(IdentifyAccuracy, SubsetRanksTheTruthFirst) {
  std::map<std::string, Tally> tally;
  double secs = 0;
  using swz_test::scaled_stride;  // SWZ_TEST_SCALE < 1: fewer candidates
  run_accuracy(128, 128, 4, 200, 100, &tally, &secs, scaled_stride(2));
  run_accuracy(157, 93, 4, 31, 207, &tally, &secs, scaled_stride(2));
  run_accuracy(97, 61, 16, 400, 300, &tally, &secs, scaled_stride(5));
  g_photo = &chelsea();
  run_accuracy(120, 90, 4, 160, 100, &tally, &secs, scaled_stride(4));
  g_photo = nullptr;
  int cases, first;
  report(tally, &cases, &first);
  std::printf("  identify: %.1f ms per dump\n", 1000 * secs / cases);
  // Candidates a size does not fit are skipped: the subset must still rank many.
  EXPECT_GE(cases, 100 / static_cast<int>(scaled_stride(1)));
  EXPECT_GE(first * 100, cases * 95);
}

// Block-compressed dumps are ranked on their decoded blocks' colours.
TEST(IdentifyAccuracy, Bc1DumpsRankTheTruthFirst) {
  std::map<std::string, Tally> tally;
  double secs = 0;
  using swz_test::scaled_stride;
  run_accuracy(256, 192, 0, 100, 80, &tally, &secs, scaled_stride(2));
  run_accuracy(212, 140, 0, 31, 207, &tally, &secs, scaled_stride(3));
  int cases, first;
  report(tally, &cases, &first);
  EXPECT_GE(cases, 30 / static_cast<int>(scaled_stride(1)));
  EXPECT_GE(first * 100, cases * 95);
}

// One crop of the photograph for run_accuracy: its size, element bytes (0:
// BC1), top-left corner, and the stride over the candidate list (before
// SWZ_TEST_SCALE).
struct Crop {
  uint32_t w, h, eb, x0, y0;
  size_t stride;
};

// run_accuracy over `crops` placed as `at`: at least min_cases cases (at
// full scale), and the truth first in 95% of them.
void expect_accuracy(std::initializer_list<Crop> crops, Placement at, int min_cases, const char* what) {
  std::map<std::string, Tally> tally;
  double secs = 0;
  for (const Crop& c : crops)
    run_accuracy(c.w, c.h, c.eb, c.x0, c.y0, &tally, &secs, swz_test::scaled_stride(c.stride), 0, at);
  int cases, first;
  report(tally, &cases, &first);
  std::printf("  %s: %.1f ms per dump\n", what, cases ? 1000 * secs / cases : 0.0);
  EXPECT_GE(cases, min_cases / static_cast<int>(swz_test::scaled_stride(1)));
  EXPECT_GE(first * 100, cases * 95);
}

// A texture inside a larger dump, 12 KiB in, found by searching every 4 KiB:
// the right layout first, at the right offset.
TEST(IdentifyAccuracy, UnknownOffsetFindsTheStart) {
  expect_accuracy({{128, 128, 4, 200, 100, 3}, {157, 93, 2, 31, 207, 4}, {212, 140, 0, 31, 207, 4}},
                  Placement{12288, 4096, 1.0}, 60, "identify with an offset search");
}

// Dumps cut 10% short: ranked on the bytes present, the right layout first.
TEST(IdentifyAccuracy, ShortDumpsRankTheTruthFirst) {
  expect_accuracy({{128, 128, 4, 200, 100, 2}, {157, 93, 4, 31, 207, 3}, {256, 192, 0, 100, 80, 3}},
                  Placement{0, 0, 0.9}, 60, "identify of a short dump");
}

// Both at once: 12 KiB in and cut 10% short.
TEST(IdentifyAccuracy, UnknownOffsetOfAShortDump) {
  expect_accuracy({{128, 128, 4, 200, 100, 3}}, Placement{12288, 4096, 0.9}, 20,
                  "identify of a short dump with an offset search");
}

// A dump with less than one element after the offset is refused, not
// sampled (for a 1x1 texture, every layout fits half in a few bytes).
TEST(Identify, LessThanOneElementIsRefused) {
  const std::vector<uint8_t> dump(60, 7);
  struct Case {
    const char* format;
    size_t bytes;
    uint64_t offset_B;
  };
  int cases = 0;
  for (const Case& c : {Case{"R8G8B8A8_UNORM", 3, 0}, Case{"BC7_UNORM", 15, 0}, Case{"BC1_UNORM", 7, 0},
                        Case{"R32G32B32A32_FLOAT", 60, 48}}) {
    std::vector<IdentifyCandidate> got;
    IdentifyOptions o;
    o.offset_B = c.offset_B;
    const Status st = identify(std::span<const uint8_t>(dump.data(), c.bytes), fmt(c.format), 1, 1, o, &got);
    EXPECT_EQ(st.code(), Code::out_of_range) << c.format << ": " << st.message();
    EXPECT_NE(st.message().find("less than one element"), std::string::npos) << st.message();
    o.offset_step_B = fmt(c.format).element_bytes;
    EXPECT_FALSE(identify(std::span<const uint8_t>(dump.data(), c.bytes), fmt(c.format), 1, 1, o, &got).ok());
    ++cases;
  }
  EXPECT_EQ(cases, 4);
}

TEST(IdentifyAccuracy, AmdPipeBankXor) {
  // pbxor=N (the pipe/bank XOR) is swept for the best AMD candidates (XOR
  // modes only: addrlib refuses it on GFX9 SW_64KB_S, ignores it on GFX10+ non-XOR modes).
  const FormatInfo f = fmt("R8G8B8A8_UNORM");
  const std::vector<uint8_t> lin = crop(256, 128, 150, 100, 4);
  for (const char* name :
       {"amd-gfx10.3-sw64k-r-x:pbxor=5", "amd-gfx9-sw64k-r-x:pbxor=200", "amd-gfx11-sw4k-d-x:pbxor=9"}) {
    Layout truth;
    ASSERT_TRUE(ident::make_candidate({name, 0, 0}, f, 256, 128, &truth).ok()) << name;
    std::vector<uint8_t> dump(truth.size(), 0);
    ASSERT_TRUE(
        write_to_subresource(truth, dump.data(), dump.size(), 0, nullptr, lin.data(), lin.size(), 1024, lin.size())
            .ok());
    std::vector<IdentifyCandidate> got;
    ASSERT_TRUE(identify(dump, f, 256, 128, {}, &got).ok());
    Layout best;
    ASSERT_TRUE(ident::make_candidate({got[0].layout, 0, 0}, f, 256, 128, &best).ok()) << got[0].layout;
    EXPECT_TRUE(same_offsets(best, truth)) << name << " -> " << got[0].layout;
  }
}

TEST(IdentifyAccuracy, AmdPipeBankXorOfTexelPairs) {
  // The swept pbxor candidate is laid out for the texture's texels, not for
  // its grid of elements: a 256x128 R8G8_B8G8 dump (128x128 two-texel
  // elements) with a pipe/bank XOR ranks it first.
  const FormatInfo f = fmt("R8G8_B8G8_UNORM");
  const std::vector<uint8_t> lin = crop(128, 128, 150, 100, 4);
  const char* name = "amd-gfx10.3-sw64k-r-x:pbxor=5";
  Layout truth;
  ASSERT_TRUE(ident::make_candidate({name, 0, 0}, f, 256, 128, &truth).ok()) << name;
  std::vector<uint8_t> dump(truth.size(), 0);
  ASSERT_TRUE(
      write_to_subresource(truth, dump.data(), dump.size(), 0, nullptr, lin.data(), lin.size(), 512, lin.size()).ok());
  std::vector<IdentifyCandidate> got;
  ASSERT_TRUE(identify(dump, f, 256, 128, {}, &got).ok());
  Layout best;
  ASSERT_TRUE(ident::make_candidate({got[0].layout, 0, 0}, f, 256, 128, &best).ok()) << got[0].layout;
  EXPECT_TRUE(same_offsets(best, truth)) << name << " -> " << got[0].layout;
}

// Every size and element size of the accuracy table; by default every 17th
// candidate of each (a bounded run), all of them with SWZ_IDENTIFY_FULL_TABLE=1.
TEST(IdentifyAccuracy, FullTable) {
  const char* full = std::getenv("SWZ_IDENTIFY_FULL_TABLE");
  const size_t stride = full && std::string(full) == "1" ? 1 : swz_test::scaled_stride(17);
  std::map<std::string, Tally> tally;
  double secs = 0;
  const uint32_t sizes[][2] = {{256, 256}, {512, 256}, {600, 400}, {301, 187}, {97, 61}, {64, 64}, {1, 1}};
  for (uint32_t eb : {4u, 1u, 2u, 8u, 16u})
    for (auto& s : sizes) run_accuracy(s[0], s[1], eb, (600 - s[0]) / 3, (400 - s[1]) / 2, &tally, &secs, stride);
  g_photo = &chelsea();
  const uint32_t cat_sizes[][2] = {{256, 256}, {451, 300}, {128, 64}, {203, 77}};
  for (uint32_t eb : {4u, 1u, 8u})
    for (auto& s : cat_sizes)
      run_accuracy(s[0], s[1], eb, (451 - s[0]) / 2, (300 - s[1]) / 2, &tally, &secs, stride);
  g_photo = nullptr;
  // AMD with a pipe/bank XOR (families whose block is larger than 256 bytes).
  for (uint32_t pb : {1u, 6u})
    for (auto& s : sizes)
      run_accuracy(s[0], s[1], 4, (600 - s[0]) / 4, (400 - s[1]) / 3, &tally, &secs, stride == 1 ? 1 : 3, pb);
  int cases, first;
  report(tally, &cases, &first);
  std::printf("  identify: %.1f ms per dump on average (every %zu-th candidate)\n", 1000 * secs / cases, stride);
  EXPECT_GE(cases, 200 / static_cast<int>(stride));
  EXPECT_GE(first * 100, cases * 95);
}

// ---- infer -------------------------------------------------------------------

namespace {

// A probe of `truth`: element (x, y) holds y*W+x in its first 4 bytes, the
// other bytes of the element a marker, padding zero; written by the copy engine.
std::vector<uint8_t> make_probe(const Layout& truth) {
  const SubresourceLayout& s = truth.sub(0);
  const uint32_t w = s.width_el, h = s.height_el, eb = s.element_bytes;
  std::vector<uint8_t> lin(size_t{w} * h * eb, 0xA5);
  for (uint32_t i = 0; i < w * h; ++i) std::memcpy(&lin[size_t{i} * eb], &i, 4);
  std::vector<uint8_t> dump(truth.size(), 0);
  EXPECT_TRUE(write_to_subresource(truth, dump.data(), dump.size(), 0, nullptr, lin.data(), lin.size(),
                                   uint64_t{w} * eb, lin.size())
                  .ok());
  return dump;
}

const char* probe_format(uint32_t eb) { return eb == 4 ? "R32_UINT" : eb == 8 ? "R32G32_UINT" : "R32G32B32A32_UINT"; }

// infer must return a layout that puts every texel where `truth` does, and
// whose text (with its row pitch) makes that same layout again.
void expect_inferred(const Layout& truth, const std::string& what) {
  const SubresourceLayout& s = truth.sub(0);
  const std::vector<uint8_t> probe = make_probe(truth);
  InferResult r;
  Status st = infer(probe, truth.desc().format, s.width_el, s.height_el, 0, &r);
  ASSERT_TRUE(st.ok()) << what << ": " << st.message();
  EXPECT_TRUE(same_offsets(r.made, truth)) << what << " -> " << r.layout;
  Layout again;
  ASSERT_TRUE(
      ident::make_candidate({r.layout, r.row_pitch_B, 0}, truth.desc().format, s.width_el, s.height_el, &again).ok())
      << r.layout;
  EXPECT_TRUE(same_offsets(again, truth)) << what << " -> " << r.layout << " pitch " << r.row_pitch_B;
}

}  // namespace

TEST(Infer, EveryBuiltinLayout) {
  const uint32_t sizes[][3] = {{64, 64, 4}, {100, 37, 8}, {96, 40, 16}, {300, 75, 4}};
  int n = 0;
  const size_t step = swz_test::scaled_stride(1);  // SWZ_TEST_SCALE < 1: every step-th candidate
  size_t index = 0;
  for (auto& sz : sizes) {
    const uint32_t eb = sz[2];
    {
      const FormatInfo f = fmt(probe_format(eb));
      for (const ident::CandidateName& c : ident::candidate_names(f, sz[0], sz[1])) {
        if (index++ % step != 0) continue;
        Layout truth;
        if (!ident::make_candidate(c, f, sz[0], sz[1], &truth).ok()) continue;
        expect_inferred(truth, c.name + " pitch " + std::to_string(c.row_pitch_B) + " " + std::to_string(sz[0]) + "x" +
                                   std::to_string(sz[1]) + "x" + std::to_string(eb) + "B");
        ++n;
      }
    }
  }
  EXPECT_GT(n, 200 / static_cast<int>(step));
}

TEST(Infer, BuiltinNameIsPreferred) {
  const FormatInfo f = fmt("R32_UINT");
  TextureDesc d = tex2d("R32_UINT", 300, 200);
  Layout truth;
  ASSERT_TRUE(make_layout_from_name("nv-block-linear:gob=tegra,bh=4", d, {}, &truth).ok());
  InferResult r;
  ASSERT_TRUE(infer(make_probe(truth), f, 300, 200, 0, &r).ok());
  EXPECT_TRUE(r.builtin);
  EXPECT_EQ(r.layout.rfind("nv-block-linear", 0), 0u) << r.layout;
  EXPECT_TRUE(r.solved_pattern);
  // pbxor comes back as a parameter of the AMD name.
  ASSERT_TRUE(make_layout_from_name("amd-gfx10.3-sw64k-r-x:pbxor=37", d, {}, &truth).ok());
  ASSERT_TRUE(infer(make_probe(truth), f, 300, 200, 0, &r).ok());
  EXPECT_TRUE(r.builtin) << r.layout;
  EXPECT_NE(r.layout.find("pbxor=37"), std::string::npos) << r.layout;
}

TEST(Infer, RandomPatternsWithChainsPostambleAndImmediate) {
  std::mt19937_64 rng(1616);
  int solved = 0, tried = 0;
  for (int it = 0; it < swz_test::scaled(200); ++it) {
    RandomPatternOptions o;
    o.element_log2 = 2 + static_cast<unsigned>(rng() % 3);
    o.max_block_bits = 16;
    o.allow_z = false;
    o.allow_stack = false;
    o.allow_high_postamble = true;
    const Pattern pat = random_pattern(rng, o);
    const uint32_t w = 1 + static_cast<uint32_t>(rng() % 200), h = 1 + static_cast<uint32_t>(rng() % 200);
    TextureDesc d = tex2d(probe_format(1u << o.element_log2), w, h);
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = pat;
    Layout truth;
    if (!make_layout(d, spec, &truth).ok()) continue;
    if (rng() % 3 == 0) {  // a wider row pitch
      spec.row_pitch_B = truth.sub(0).row_pitch + (uint64_t{1} << pat.block_bits()) * (1 + rng() % 5);
      if (!make_layout(d, spec, &truth).ok()) continue;
    }
    if (truth.size() > (uint64_t{64} << 20)) continue;
    ++tried;
    const std::vector<uint8_t> probe = make_probe(truth);
    InferResult r;
    Status st = infer(probe, d.format, w, h, 0, &r);
    EXPECT_TRUE(st.ok()) << to_text(pat) << " " << w << "x" << h << " pitch " << spec.row_pitch_B << ": "
                         << st.message();
    if (!st.ok()) continue;
    EXPECT_TRUE(same_offsets(r.made, truth)) << to_text(pat) << " -> " << r.layout;
    ++solved;
  }
  EXPECT_GT(tried, swz_test::scaled(100));
  EXPECT_EQ(solved, tried);
}

TEST(Infer, OffsetIsHonoured) {
  TextureDesc d = tex2d("R32_UINT", 40, 30);
  Layout truth;
  ASSERT_TRUE(make_layout_from_name("std4k", d, {}, &truth).ok());
  std::vector<uint8_t> probe = make_probe(truth);
  probe.insert(probe.begin(), 4096, 0x77);
  InferResult r;
  ASSERT_TRUE(infer(probe, d.format, 40, 30, 4096, &r).ok());
  EXPECT_EQ(r.layout, "std4k");
}

TEST(Infer, NotAProbe) {
  TextureDesc d = tex2d("R32_UINT", 16, 16);
  Layout truth;
  ASSERT_TRUE(make_layout_from_name("std4k", d, {}, &truth).ok());
  const std::vector<uint8_t> good = make_probe(truth);
  InferResult r;
  // Missing: index 17 overwritten by 300 (out of range, ignored).
  std::vector<uint8_t> p = good;
  uint64_t at17 = 0;
  for (size_t i = 0; i < p.size(); i += 4) {
    uint32_t v;
    std::memcpy(&v, &p[i], 4);
    if (v == 17) at17 = i;
  }
  uint32_t v300 = 300;
  std::memcpy(&p[at17], &v300, 4);
  Status st = infer(p, d.format, 16, 16, 0, &r);
  EXPECT_EQ(st.code(), Code::parse_error);
  EXPECT_NE(st.message().find("(1,1)"), std::string::npos) << st.message();
  // Duplicate: index 17 written again into padding (the last slot).
  p = good;
  uint32_t v17 = 17;
  std::memcpy(&p[p.size() - 4], &v17, 4);
  st = infer(p, d.format, 16, 16, 0, &r);
  EXPECT_EQ(st.code(), Code::parse_error);
  EXPECT_NE(st.message().find("more than once"), std::string::npos) << st.message();
  // Not linear: two texels swapped.
  p = good;
  uint64_t at40 = 0;
  for (size_t i = 0; i < p.size(); i += 4) {
    uint32_t v;
    std::memcpy(&v, &p[i], 4);
    if (v == 40) at40 = i;
  }
  std::swap_ranges(p.begin() + static_cast<long>(at17), p.begin() + static_cast<long>(at17) + 4,
                   p.begin() + static_cast<long>(at40));
  st = infer(p, d.format, 16, 16, 0, &r);
  EXPECT_EQ(st.code(), Code::parse_error);
  EXPECT_NE(st.message().find("disagree"), std::string::npos) << st.message();
  // Formats under 4 bytes are refused with the advice.
  st = infer(good, fmt("R8G8_UNORM"), 16, 16, 0, &r);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("4-byte format"), std::string::npos) << st.message();
}

// A probe shorter than the texture's elements is reported as short, not as
// missing indices (a 4-byte file for a 1x1 16-byte format).
TEST(Infer, ShortProbeNamesItsSize) {
  FormatInfo f;
  ASSERT_TRUE(find_format("R32G32B32A32_UINT", &f));
  const std::vector<uint8_t> four(4, 0);
  InferResult r;
  Status st = infer(four, f, 1, 1, 0, &r);
  EXPECT_EQ(st.code(), Code::buffer_too_small) << st.message();
  EXPECT_NE(st.message().find("the probe has 4 bytes"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("needs at least 16"), std::string::npos) << st.message();
}
