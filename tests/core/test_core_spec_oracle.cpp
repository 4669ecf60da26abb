// The specification's sample routine as the oracle for random patterns that
// use everything the pattern can say: four XOR terms on one address bit,
// XOR terms from above the block and from the sample index, immediates,
// postamble terms (inside and above the block), depth (Z bits and stacked
// slices), samples, and pre-swizzle offsets.
//
// Oracles: the literal transcription of SimpleSwizzle
// (tests/support/literal_reference.hpp; 32-bit, X/Y/Z only, unstacked) and
// reference_offset (src/core/reference.cpp: the same routine in 64 bits with
// the sample channel and the prose's stacking). The two are first checked
// against each other where both apply; then the compiled plan (Plan::offset),
// element_offset through a layout, and the copies (every kernel built in)
// are checked against them, byte by byte with guard bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/plan.hpp"  // internal: the compiled tables
#include "literal_reference.hpp"
#include "swz/swz.hpp"
#include "test_scale.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

struct Gen {
  Pattern p;
  unsigned k = 0;          // log2 element bytes
  unsigned s_bits = 0;     // sample bits (S primaries)
  bool three_d = false;    // Z primaries or stacked
  unsigned four_xor = 0;   // address bits with four XOR terms
};

// A random valid pattern with at least one address bit carrying four XOR
// terms. Coordinate bits named by XOR terms are above the block (so the
// in-block map stays a bijection) or, sometimes, inside it (validate() then
// decides); sample bits may be primaries and XOR terms.
Gen four_xor_pattern(std::mt19937_64& rng, bool allow_samples, bool allow_stack) {
  for (;;) {
    Gen g;
    g.k = static_cast<unsigned>(rng() % 5);
    const unsigned n = g.k + 2 + static_cast<unsigned>(rng() % 9);
    g.s_bits = allow_samples && rng() % 3 == 0 ? 1 + static_cast<unsigned>(rng() % 2) : 0;
    const bool stack = allow_stack && g.s_bits == 0 && rng() % 4 == 0;
    const bool use_z = !stack && rng() % 2 == 0;
    g.three_d = stack || use_z;
    if (n < g.k + g.s_bits + 1) continue;
    Pattern& p = g.p;
    unsigned cnt[4] = {g.k, 0, 0, 0};
    for (unsigned i = 0; i < g.k; ++i) p.interleave[i] = BitEntry::make(Channel::X, i);
    // Channels of the bits above the element: samples outermost, the rest random.
    std::vector<unsigned> ch;
    for (unsigned i = g.k; i < n - g.s_bits; ++i) ch.push_back(static_cast<unsigned>(rng() % (use_z ? 3 : 2)));
    for (unsigned i = 0; i < g.s_bits; ++i) ch.push_back(3);
    for (unsigned i = g.k; i < n; ++i) {
      const unsigned c = ch[i - g.k];
      p.interleave[i] = BitEntry::make(static_cast<Channel>(c), cnt[c]++);
    }
    auto term = [&](bool inside) -> BitEntry {
      for (;;) {
        const unsigned c = static_cast<unsigned>(rng() % 4);
        if (c == 2 && !use_z) continue;
        if (c == 3) {
          if (g.s_bits == 0) continue;
          return BitEntry::make(Channel::S, static_cast<unsigned>(rng() % g.s_bits));
        }
        const unsigned lo = c == 0 ? std::max(g.k, inside ? g.k : cnt[0]) : (inside ? 0 : cnt[c]);
        const unsigned b = lo + static_cast<unsigned>(rng() % 10);
        if (b > 31) continue;
        return BitEntry::make(static_cast<Channel>(c), b);
      }
    };
    for (unsigned i = g.k; i < n; ++i) {
      const unsigned terms = rng() % 3 == 0 ? 4 : static_cast<unsigned>(rng() % 5);
      for (unsigned j = 0; j < terms; ++j) p.xors[j][i] = term(rng() % 5 == 0);
    }
    // Always one bit with all four terms from above the block.
    const unsigned at = g.k + static_cast<unsigned>(rng() % (n - g.k));
    for (unsigned j = 0; j < 4; ++j) p.xors[j][at] = term(false);
    for (unsigned i = 8; i < 24; ++i) {
      if (rng() % 4 == 0) p.postamble[0][i] = term(rng() % 3 == 0);
      if (rng() % 8 == 0) p.postamble[1][i] = term(false);
      if (i >= n && rng() % 2) p.postamble[0][i] = BitEntry{}, p.postamble[1][i] = BitEntry{};
    }
    if (rng() % 2) p.immediate = static_cast<uint32_t>((rng() % (uint64_t{1} << n)) & ~((uint64_t{1} << g.k) - 1));
    if (stack) p.flags |= kFlagStackDepthSlices;
    if (!validate(p, 1u << g.k).ok()) continue;
    for (unsigned i = 0; i < n; ++i) {
      bool all = true;
      for (unsigned j = 0; j < 4; ++j) all = all && p.xors[j][i].valid;
      g.four_xor += all;
    }
    if (g.four_xor == 0) continue;
    return g;
  }
}

uint64_t block_ext(const Pattern& p, unsigned c) {
  uint64_t e = 1;
  for (unsigned i = 0; i < 32 && p.interleave[i].valid; ++i) e <<= (p.interleave[i].channel == c);
  return e;
}

}  // namespace

// The two transcriptions agree wherever both apply (unstacked, no sample
// terms, 32-bit): four XOR terms, immediates, postambles, Z, pre-swizzle.
TEST(SpecOracle, LiteralAndReferenceAgree) {
  std::mt19937_64 rng(3410);
  int compared = 0;
  for (int it = 0; it < swz_test::scaled(400); ++it) {
    const Gen g = four_xor_pattern(rng, false, false);
    const Pattern& p = g.p;
    const uint64_t BB = uint64_t{1} << p.block_bits();
    AddressParams a;
    a.row_pitch = BB * (1 + rng() % 6);
    a.depth_pitch_B = a.row_pitch * (1 + rng() % 5);
    for (int i = 0; i < 3; ++i) a.pre_swizzle[i] = rng() % 3 == 0 ? rng() % 200 : 0;
    for (int q = 0; q < 64; ++q) {
      const uint32_t c[3] = {static_cast<uint32_t>(rng() % 300), static_cast<uint32_t>(rng() % 100),
                             static_cast<uint32_t>(rng() % 20)};
      const uint32_t pre[3] = {static_cast<uint32_t>(a.pre_swizzle[0]), static_cast<uint32_t>(a.pre_swizzle[1]),
                               static_cast<uint32_t>(a.pre_swizzle[2])};
      const uint64_t lit = swz::test::literal_simple_swizzle(p, c, pre, static_cast<uint32_t>(a.row_pitch),
                                                             static_cast<uint32_t>(a.depth_pitch_B));
      const uint64_t ref = reference_offset(p, c[0], c[1], c[2], 0, a);
      ASSERT_EQ(lit, ref) << to_text(p) << " at " << c[0] << "," << c[1] << "," << c[2];
      ++compared;
    }
  }
  EXPECT_EQ(compared, 64 * swz_test::scaled(400));
}

// The compiled tables (Plan::offset, the kernels' address rule) against the
// routine at random coordinates, samples included, unstacked.
TEST(SpecOracle, PlanOffsetMatchesRoutine) {
  std::mt19937_64 rng(3411);
  int compared = 0, with_samples = 0;
  for (int it = 0; it < swz_test::scaled(500); ++it) {
    const Gen g = four_xor_pattern(rng, true, false);
    const Pattern& p = g.p;
    std::shared_ptr<const Plan> plan;
    ASSERT_TRUE(Plan::compile(p, 1u << g.k, &plan).ok()) << to_text(p);
    const uint64_t BB = uint64_t{1} << p.block_bits();
    AddressParams a;
    a.row_pitch = BB * (1 + rng() % 8);
    a.depth_pitch_B = a.row_pitch * (1 + rng() % 5);
    for (int q = 0; q < 64; ++q) {
      const uint64_t x = rng() % 4096, y = rng() % 512, z = g.three_d ? rng() % 64 : 0;
      const uint64_t s = g.s_bits ? rng() % (uint64_t{1} << g.s_bits) : 0;
      const uint64_t want = reference_offset(p, x, y, z, s, a);
      ASSERT_EQ(plan->offset(x, y, z, s, a.row_pitch, a.depth_pitch_B), want)
          << to_text(p) << " at " << x << "," << y << "," << z << " sample " << s;
      ++compared;
    }
    with_samples += g.s_bits != 0;
  }
  EXPECT_EQ(compared, 64 * swz_test::scaled(500));
  EXPECT_GE(with_samples, std::max(1, swz_test::scaled(500) / 10));  // patterns with sample bits were drawn
}

// Layouts with pre-swizzle offsets, explicit pitches, stacked depth and
// samples (make_explicit_layout): every element's element_offset against the
// routine with the pitches given here.
TEST(SpecOracle, ElementOffsetWithPreSwizzleStackingAndSamples) {
  std::mt19937_64 rng(3412);
  int layouts = 0, stacked = 0, sampled = 0, pre = 0;
  for (int it = 0; it < swz_test::scaled(300); ++it) {
    const Gen g = four_xor_pattern(rng, true, true);
    const Pattern& p = g.p;
    const uint32_t eb = 1u << g.k;
    TextureDesc d;
    d.format = swz_test::format_for_bytes(eb);
    d.width = 1 + static_cast<uint32_t>(rng() % 40);
    d.height = 1 + static_cast<uint32_t>(rng() % 30);
    if (g.s_bits) {
      d.samples = 1u << g.s_bits;
    } else if (g.three_d) {
      d.dimension = Dimension::Texture3D;
      d.depth = 1 + static_cast<uint32_t>(rng() % 6);
    }
    const uint64_t BB = uint64_t{1} << p.block_bits();
    const uint64_t ex = block_ext(p, 0), ey = block_ext(p, 1), ez = block_ext(p, 2);
    SubresourcePlacement pl;
    if (rng() % 2) {
      pl.pre_swizzle[0] = eb * (rng() % 50);
      pl.pre_swizzle[1] = rng() % 40;
      pl.pre_swizzle[2] = p.stack_depth_slices() ? 0 : rng() % 5;
    }
    const uint64_t blocks_x = (pl.pre_swizzle[0] + uint64_t{d.width} * eb + ex - 1) / ex;
    pl.row_pitch = (blocks_x + rng() % 3) * BB;
    AddressParams a;
    a.row_pitch = pl.row_pitch;
    for (int i = 0; i < 3; ++i) a.pre_swizzle[i] = pl.pre_swizzle[i];
    if (p.stack_depth_slices()) {
      pl.stack_rows = (d.height + ey - 1) / ey * ey + ey * (rng() % 3);
      a.stack_rows = pl.stack_rows;
    } else {
      const uint64_t blocks_y = (pl.pre_swizzle[1] + d.height + ey - 1) / ey;
      pl.depth_pitch_B = (blocks_y + rng() % 2) * pl.row_pitch;
      a.depth_pitch_B = pl.depth_pitch_B;
    }
    (void)ez;
    Layout L;
    const Status st = make_explicit_layout(d, {p}, {pl}, "oracle", 0, &L);
    if (!st.ok()) {  // postamble terms above the block can make blocks collide on a surface
      ASSERT_NE(st.message().find("postamble"), std::string::npos) << to_text(p) << ": " << st.message();
      continue;
    }
    ++layouts;
    stacked += p.stack_depth_slices();
    sampled += d.samples > 1;
    pre += pl.pre_swizzle[0] + pl.pre_swizzle[1] + pl.pre_swizzle[2] != 0;
    ASSERT_EQ(L.sub(0).row_pitch, pl.row_pitch);
    for (uint32_t s = 0; s < d.samples; ++s)
      for (uint32_t z = 0; z < d.depth; ++z)
        for (uint32_t y = 0; y < d.height; ++y)
          for (uint32_t x = 0; x < d.width; ++x) {
            uint64_t off = 0;
            ASSERT_TRUE(element_offset(L, 0, x, y, z, s, &off).ok());
            ASSERT_EQ(off, reference_offset(p, uint64_t{x} * eb, y, z, s, a))
                << to_text(p) << " at " << x << "," << y << "," << z << " sample " << s;
          }
  }
  EXPECT_GE(layouts, swz_test::scaled(300) / 2);
  EXPECT_GE(stacked, swz_test::scaled(300) / 20);
  EXPECT_GE(sampled, swz_test::scaled(300) / 10);
  EXPECT_GE(pre, swz_test::scaled(300) / 5);
}

// The copies, through every kernel built into this swz, against the routine:
// random boxes of random four-XOR patterns (with pre-swizzle offsets and
// stacked depth), every byte of the resource compared, guard bytes after it.
TEST(SpecOracle, CopiesThroughEveryKernelMatchRoutine) {
  std::mt19937_64 rng(3413);
  int cases = 0, kernel_runs = 0;
  for (int it = 0; it < swz_test::scaled(250); ++it) {
    const Gen g = four_xor_pattern(rng, false, true);
    const Pattern& p = g.p;
    const uint32_t eb = 1u << g.k;
    TextureDesc d;
    d.format = swz_test::format_for_bytes(eb);
    d.width = 1 + static_cast<uint32_t>(rng() % 60);
    d.height = 1 + static_cast<uint32_t>(rng() % 40);
    if (g.three_d) {
      d.dimension = Dimension::Texture3D;
      d.depth = 1 + static_cast<uint32_t>(rng() % 5);
    }
    const uint64_t BB = uint64_t{1} << p.block_bits();
    const uint64_t ex = block_ext(p, 0), ey = block_ext(p, 1);
    SubresourcePlacement pl;
    if (rng() % 2) {
      pl.pre_swizzle[0] = eb * (rng() % 40);
      pl.pre_swizzle[1] = rng() % 20;
      pl.pre_swizzle[2] = p.stack_depth_slices() ? 0 : rng() % 3;
    }
    pl.offset = BB * (rng() % 3);
    pl.row_pitch = ((pl.pre_swizzle[0] + uint64_t{d.width} * eb + ex - 1) / ex + rng() % 2) * BB;
    AddressParams a;
    a.row_pitch = pl.row_pitch;
    for (int i = 0; i < 3; ++i) a.pre_swizzle[i] = pl.pre_swizzle[i];
    if (p.stack_depth_slices()) {
      pl.stack_rows = (d.height + ey - 1) / ey * ey;
      a.stack_rows = pl.stack_rows;
    } else {
      pl.depth_pitch_B = ((pl.pre_swizzle[1] + d.height + ey - 1) / ey) * pl.row_pitch;
      a.depth_pitch_B = pl.depth_pitch_B;
    }
    Layout L;
    const Status st = make_explicit_layout(d, {p}, {pl}, "oracle", 0, &L);
    if (!st.ok()) {
      ASSERT_NE(st.message().find("postamble"), std::string::npos) << to_text(p) << ": " << st.message();
      continue;
    }
    if (L.size() > (uint64_t{8} << 20)) continue;
    ++cases;
    Box b{0, 0, 0, d.width, d.height, d.depth};
    if (rng() % 2) {
      b.left = static_cast<uint32_t>(rng() % d.width);
      b.right = b.left + 1 + static_cast<uint32_t>(rng() % (d.width - b.left));
      b.top = static_cast<uint32_t>(rng() % d.height);
      b.bottom = b.top + 1 + static_cast<uint32_t>(rng() % (d.height - b.top));
      b.front = static_cast<uint32_t>(rng() % d.depth);
      b.back = b.front + 1 + static_cast<uint32_t>(rng() % (d.depth - b.front));
    }
    const uint64_t w = b.right - b.left, h = b.bottom - b.top, dd = b.back - b.front;
    const uint64_t rp = w * eb + rng() % 9, dp = rp * h + rng() % 17;
    const uint64_t lin_size = (dd - 1) * dp + (h - 1) * rp + w * eb;
    std::vector<uint8_t> src(lin_size);
    for (auto& v : src) v = static_cast<uint8_t>(rng());
    std::vector<uint8_t> init(L.size() + 64);
    for (auto& v : init) v = static_cast<uint8_t>(rng());
    std::vector<uint8_t> want = init;
    for (uint64_t z = 0; z < dd; ++z)
      for (uint64_t y = 0; y < h; ++y)
        for (uint64_t x = 0; x < w; ++x)
          for (uint32_t j = 0; j < eb; ++j)
            want.at(pl.offset + reference_offset(p, (b.left + x) * eb + j, b.top + y, b.front + z, 0, a)) =
                src[z * dp + y * rp + x * eb + j];
    for (Backend be : {Backend::Scalar, Backend::Highway, Backend::Xsimd}) {
      CopyOptions co;
      co.backend = be;
      co.threads = 1 + static_cast<unsigned>(rng() % 2);
      std::vector<uint8_t> res = init;
      Status ws = write_to_subresource(L, res.data(), L.size(), 0, &b, src.data(), src.size(), rp, dp, co);
      if (be != Backend::Scalar && ws.code() == Code::unsupported) continue;  // kernel not built
      ASSERT_TRUE(ws.ok()) << backend_name(be) << ": " << ws.message();
      ASSERT_TRUE(res == want) << backend_name(be) << " write differs from the routine: " << to_text(p) << " "
                               << d.width << "x" << d.height << "x" << d.depth;
      std::vector<uint8_t> back(lin_size, 0);
      std::vector<uint8_t> expect_back(lin_size, 0);
      for (uint64_t z = 0; z < dd; ++z)
        for (uint64_t y = 0; y < h; ++y)
          std::copy_n(src.begin() + static_cast<long>(z * dp + y * rp), w * eb,
                      expect_back.begin() + static_cast<long>(z * dp + y * rp));
      Status rs = read_from_subresource(back.data(), lin_size, rp, dp, L, want.data(), L.size(), 0, &b, co);
      ASSERT_TRUE(rs.ok()) << backend_name(be) << ": " << rs.message();
      ASSERT_TRUE(back == expect_back) << backend_name(be) << " read differs from the routine: " << to_text(p);
      ++kernel_runs;
    }
  }
  EXPECT_GE(cases, swz_test::scaled(250) / 2);
  EXPECT_GE(kernel_runs, cases);
  std::printf("%d cases, %d kernel runs\n", cases, kernel_runs);
}
