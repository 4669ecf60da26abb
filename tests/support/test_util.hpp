// Shared test helpers: random valid patterns and formats by element size.
#pragma once
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "swz/swz.hpp"

namespace swz_test {

/// A format by DXGI name (the test fails if it is unknown).
inline swz::FormatInfo fmt(const char* name) {
  swz::FormatInfo f;
  EXPECT_TRUE(swz::find_format(name, &f).ok()) << name;
  return f;
}

inline swz::TextureDesc tex2d(const char* format, uint32_t w, uint32_t h, uint32_t mips = 1, uint32_t array = 1) {
  swz::TextureDesc d;
  d.format = fmt(format);
  d.width = w;
  d.height = h;
  d.mip_levels = mips;
  d.array_size = array;
  return d;
}

inline swz::TextureDesc tex3d(const char* format, uint32_t w, uint32_t h, uint32_t depth, uint32_t mips = 1) {
  swz::TextureDesc d = tex2d(format, w, h, mips);
  d.dimension = swz::Dimension::Texture3D;
  d.depth = depth;
  return d;
}

inline swz::FormatInfo format_for_bytes(uint32_t eb) {
  const char* name = eb == 1    ? "R8_UNORM"
                     : eb == 2  ? "R8G8_UNORM"
                     : eb == 4  ? "R8G8B8A8_UNORM"
                     : eb == 8  ? "R16G16B16A16_UNORM"
                     : eb == 16 ? "R32G32B32A32_FLOAT"
                                : "R32G32B32_FLOAT";
  swz::FormatInfo f;
  (void)swz::find_format(name, &f);
  return f;
}

struct RandomPatternOptions {
  unsigned element_log2 = 2;
  unsigned max_block_bits = 14;
  bool allow_z = true;
  bool allow_stack = true;
  bool allow_high_postamble = false;  // postamble terms at or above the block
};

/// A random pattern that passes validate() for 2^element_log2-byte elements:
/// random interleave order of the channels' bits, random XOR terms (from any
/// coordinate bit but the bytes of an element), postamble terms, immediate,
/// sometimes STACK_DEPTH_SLICES. Retries until valid.
inline swz::Pattern random_pattern(std::mt19937_64& rng, const RandomPatternOptions& o) {
  using namespace swz;
  const unsigned k = o.element_log2;
  for (;;) {
    Pattern p;
    std::uniform_int_distribution<unsigned> nd(k, std::max(k, o.max_block_bits));
    const unsigned n = nd(rng);
    const bool stack = o.allow_stack && (rng() % 5 == 0);
    const bool use_z = o.allow_z && !stack && (rng() % 2 == 0);
    // channel for each in-block bit beyond the element bytes
    std::vector<int> ch;
    for (unsigned i = k; i < n; ++i) ch.push_back(static_cast<int>(rng() % (use_z ? 3 : 2)));
    unsigned cnt[4] = {k, 0, 0, 0};
    for (unsigned i = 0; i < k; ++i) p.interleave[i] = BitEntry::make(Channel::X, i);
    // primaries: each channel's bits in increasing order most of the time, shuffled sometimes
    std::vector<unsigned> next[3];
    for (int c = 0; c < 3; ++c) {
      unsigned m = static_cast<unsigned>(std::count(ch.begin(), ch.end(), c));
      for (unsigned b = 0; b < m; ++b) next[c].push_back(c == 0 ? k + b : b);
      if (rng() % 3 == 0) std::shuffle(next[c].begin(), next[c].end(), rng);
    }
    unsigned used[3] = {0, 0, 0};
    for (unsigned i = k; i < n; ++i) {
      int c = ch[i - k];
      p.interleave[i] = BitEntry::make(static_cast<Channel>(c), next[c][used[c]++]);
      cnt[c]++;
    }
    auto random_term = [&](bool allow_in_block) -> BitEntry {
      for (;;) {
        int c = static_cast<int>(rng() % (use_z ? 3 : 2));
        unsigned lo = c == 0 ? std::max(k, allow_in_block ? k : cnt[0]) : (allow_in_block ? 0 : cnt[c]);
        unsigned hi = std::min(31u, lo + 10);
        if (lo > 31) continue;
        unsigned b = lo + static_cast<unsigned>(rng() % (hi - lo + 1));
        return BitEntry::make(static_cast<Channel>(c), b);
      }
    };
    for (unsigned i = k; i < n; ++i) {
      unsigned terms = static_cast<unsigned>(rng() % 5);
      for (unsigned j = 0; j < terms; ++j)
        if (rng() % 2) p.xors[j][i] = random_term(rng() % 4 == 0);
    }
    for (unsigned i = 8; i < 24; ++i) {
      if (i >= n && !o.allow_high_postamble) continue;
      if (rng() % 4 == 0) p.postamble[0][i] = random_term(rng() % 4 == 0);
      if (rng() % 8 == 0) p.postamble[1][i] = random_term(false);
    }
    if (n > k && rng() % 2)
      p.immediate = static_cast<uint32_t>((rng() % (uint64_t{1} << n)) & ~((uint64_t{1} << k) - 1));
    if (stack) p.flags |= kFlagStackDepthSlices;
    if (validate(p, 1u << k).ok()) return p;
  }
}

}  // namespace swz_test
