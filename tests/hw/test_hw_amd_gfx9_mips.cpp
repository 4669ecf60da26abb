// AMD GFX9 mip chains (src/hw/amd_gfx9_mips.cpp) and GFX10+ 256-byte-mode
// chains (src/hw/amd_mips.cpp). The vectors are derived by hand from Mesa's
// addrlib source (steps written out next to each); the random tests check
// every element against a literal transcription, kept here in the test, of
// addrlib's GFX9 surface and address functions (Gfx9Lib::GetMipChainInfo,
// HwlComputeSurfaceInfoTiled, GetMipStartPos, HwlComputeSurfaceAddrFromCoordTiled),
// with the in-block equation read from the single-level layout of the same
// mode; then byte claims and round trips.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::named;
using swz_test::tex2d;

namespace {

uint64_t at(const Layout& L, uint32_t sub, uint32_t x = 0, uint32_t y = 0) {
  uint64_t o = ~uint64_t{0};
  EXPECT_TRUE(element_offset(L, sub, x, y, 0, 0, &o).ok());
  return o;
}

// ---- literal transcription of addrlib's GFX9 thin mip chain (test oracle) ----
struct Gfx9Chain {
  uint32_t pitch, height;              // pOut->pitch/height (level 0, or the tail size)
  uint32_t chain_pitch, chain_height;  // mipChainPitch/Height (elements)
  uint64_t slice_size;
};

uint32_t pow2_align(uint32_t v, uint32_t a) { return (v + a - 1) & ~(a - 1); }
uint32_t round_half(uint32_t x) { return (x >> 1) + (x & 1); }

// HwlComputeSurfaceInfoTiled + GetMipChainInfo for a 2D thin surface.
Gfx9Chain gfx9_surface(uint32_t w, uint32_t h, uint32_t mips, uint32_t bw, uint32_t bh, uint32_t bpe) {
  Gfx9Chain c{};
  c.pitch = pow2_align(w, bw);
  c.height = pow2_align(h, bh);
  c.chain_pitch = c.pitch;
  c.chain_height = c.height;
  const uint32_t tw = bw >> 1, th = bh;  // GetMipTailDim (thin, even block)
  uint32_t first = mips, mp = w, mh = h;
  for (uint32_t id = 0; id < mips; ++id) {
    if (mp <= tw && mh <= th) {
      first = id;
      break;
    }
    mp = std::max(pow2_align(mp, bw) >> 1, 1u);
    mh = std::max(pow2_align(mh, bh) >> 1, 1u);
  }
  if (mips > 1) {
    const uint32_t ending = std::min(first, mips - 1);
    if (ending == 0) {
      c.pitch = tw;
      c.height = th;
    } else {
      const uint32_t wb = c.pitch / bw, hb = c.height / bh;
      if (wb < hb) {
        uint32_t m1 = round_half(wb);
        if (m1 == 1 && ending > 2) m1++;
        c.chain_pitch += m1 * bw;
      } else {
        uint32_t m1 = round_half(hb);
        if (m1 == 1 && ending > 2) m1++;
        c.chain_height += m1 * bh;
      }
    }
  }
  c.slice_size = uint64_t{c.chain_pitch} * c.chain_height * bpe;
  return c;
}

// GetMipStartPos (thin, even log2 block): block position and tail offset.
void gfx9_start(const Gfx9Chain& c, uint32_t bw, uint32_t bh, uint32_t mip, uint32_t log2blk, uint32_t* pw,
                uint32_t* ph, uint32_t* tail) {
  static const uint32_t kOff[] = {2048, 1024, 512, 256, 128, 64, 32, 16, 8, 6, 5, 4, 3, 2, 1, 0};
  *pw = *ph = *tail = 0;
  bool in_tail = c.pitch <= (bw >> 1) && c.height <= bh;
  uint32_t idx = mip;
  if (!in_tail) {
    uint32_t wb = c.pitch / bw, hb = c.height / bh;
    const bool ymajor = wb < hb;
    uint32_t ending = mip + 1;
    for (uint32_t i = 1; i <= mip; ++i) {
      if (i == 1 || i == 3) {
        if (ymajor)
          *pw += wb;
        else
          *ph += hb;
      } else {
        if (!ymajor)
          *pw += wb;
        else
          *ph += hb;
      }
      if (wb == 1 && hb <= 2) {
        ending = i;
        break;
      }
      wb = round_half(wb);
      hb = round_half(hb);
    }
    if (mip >= ending) {
      in_tail = true;
      idx = mip - ending;
    }
  }
  if (in_tail) *tail = kOff[idx + 20 - log2blk] << 8;
}

}  // namespace

// RGBA8 300x200, 9 levels, 2 slices, GFX9 SW_64KB_S: 128x128-element blocks,
// tail levels at most 64x128 (GetMipTailDim).
// GetMipChainInfo: 300x200 -> padded 384x256 -> 192x128 -> padded 256x128 ->
// 128x64 -> padded 128x128 -> 64x64: level 3 is the first in the tail.
// HwlComputeSurfaceInfoTiled: level 0 is 3x2 blocks, X-major; level 1 is
// RoundHalf(2) = 1 block tall, +1 because the chain goes past level 2: chain
// 384 x 512 elements, slice 786432 bytes.
// GetMipStartPos: level 1 below level 0 at block (0,2), level 2 right of it at
// (2,2), level 3 below level 2 at (2,3) where level 2 (1x1 blocks) sends it to
// the tail; blocks 0, 6, 8, 11 (pitch 3 blocks).
// Tail slots MipTailOffset256B[k + 20 - 16] << 8 for k = 0..5: 32768, 16384,
// 8192, 4096, 2048, 1536.
TEST(AmdGfx9Mips, Chain64kDerivedFromAddrlib) {
  Layout L = named("amd-gfx9-sw64k-s", tex2d("R8G8B8A8_UNORM", 300, 200, 9, 2));
  const uint64_t off[9] = {0, 393216, 524288, 720896, 720896, 720896, 720896, 720896, 720896};
  const uint64_t tail[9] = {0, 0, 0, 32768, 16384, 8192, 4096, 2048, 1536};
  for (uint32_t m = 0; m < 9; ++m) {
    EXPECT_EQ(L.sub(m).offset, off[m]) << m;
    EXPECT_EQ(L.sub(m).row_pitch, 3 * 65536u) << m;  // one pitch for the whole chain
    EXPECT_EQ(at(L, m), off[m] + tail[m]) << m;
    EXPECT_EQ(L.sub(m + 9).depth_pitch_B, 786432u) << m;
    EXPECT_EQ(at(L, m + 9), 786432 + off[m] + tail[m]) << m;
  }
  EXPECT_EQ(L.size(), 2 * 786432u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// Same texture, SW_4KB_S: 32x32-element blocks, tail levels at most 16x32.
// GetMipChainInfo: 300x200 (pad 320x224) -> 160x112 (160x128) -> 80x64
// (96x64) -> 48x32 (64x32) -> 32x16 (32x32) -> 16x16: level 5 starts the tail.
// Level 0 is 10x7 blocks, X-major; chain height 7 + RoundHalf(7) = 11 blocks:
// 320 x 352 elements, slice 450560 bytes.
// GetMipStartPos (pitch 10 blocks): L1 (0,7) = 70, L2 (5,7) = 75, L3 (5,9) =
// 95, L4 (7,9) = 97, tail (8,9) = 98 (level 4 is 1x1 blocks).
// Tail slots MipTailOffset256B[k + 8]: 2048, 1536, 1280, 1024.
TEST(AmdGfx9Mips, Chain4kDerivedFromAddrlib) {
  Layout L = named("amd-gfx9-sw4k-s", tex2d("R8G8B8A8_UNORM", 300, 200, 9));
  const uint64_t blk[9] = {0, 70, 75, 95, 97, 98, 98, 98, 98};
  const uint64_t tail[9] = {0, 0, 0, 0, 0, 2048, 1536, 1280, 1024};
  for (uint32_t m = 0; m < 9; ++m) {
    EXPECT_EQ(L.sub(m).offset, blk[m] * 4096) << m;
    EXPECT_EQ(L.sub(m).row_pitch, 10 * 4096u) << m;
    EXPECT_EQ(at(L, m), blk[m] * 4096 + tail[m]) << m;
  }
  EXPECT_EQ(L.size(), 450560u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// A tall texture: RGBA8 64x300, 9 levels, SW_64KB_S. Level 0 is 1x3 blocks:
// Y-major. GetMipChainInfo: 64x300 -> padded 128x384 -> 64x192 -> padded
// 128x256 -> 64x128: level 2 starts the tail (ending level 2: no extra
// block). Chain 256 x 384 elements (2 x 3 blocks), slice 393216.
// GetMipStartPos: level 1 right of level 0 at (1,0); level 2 below it at (1,2)
// = block 5, where level 1 (1x2 blocks) sends it to the tail.
TEST(AmdGfx9Mips, YMajorChainDerivedFromAddrlib) {
  Layout L = named("amd-gfx9-sw64k-s", tex2d("R8G8B8A8_UNORM", 64, 300, 9));
  EXPECT_EQ(L.sub(0).offset, 0u);
  EXPECT_EQ(L.sub(1).offset, 65536u);
  const uint64_t tail[7] = {32768, 16384, 8192, 4096, 2048, 1536, 1280};
  for (uint32_t m = 2; m < 9; ++m) {
    EXPECT_EQ(L.sub(m).offset, 5 * 65536u) << m;
    EXPECT_EQ(at(L, m), 5 * 65536 + tail[m - 2]) << m;
  }
  EXPECT_EQ(L.sub(0).row_pitch, 2 * 65536u);
  EXPECT_EQ(L.size(), 393216u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
}

// The whole chain in the tail (mipChainInTail): RGBA8 64x64, 7 levels, one
// 64 KiB block; level k at slot k + 4.
TEST(AmdGfx9Mips, ChainInTail) {
  Layout L = named("amd-gfx9-sw64k-d", tex2d("R8G8B8A8_UNORM", 64, 64, 7, 3));
  const uint64_t tail[7] = {32768, 16384, 8192, 4096, 2048, 1536, 1280};
  for (uint32_t m = 0; m < 7; ++m) EXPECT_EQ(at(L, m), tail[m]) << m;
  EXPECT_EQ(L.size(), 3 * 65536u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// XOR modes: addrlib ORs the tail offset into the in-block offset and then
// XORs the slice and the pipe/bank XOR over it (HwlComputeSurfaceAddrFromCoordTiled).
// SW_64KB_S_X, pbxor = 128 (address bit 15, the tail's first slot bit): level 3
// (slot 32768) element (0,0) lands at 32768 ^ 32768 = 0 inside the tail
// block, level 4 (slot 16384) at 16384 ^ 32768 = 49152. Adding the XOR
// instead would leave the block.
// Slice 1 adds the slice XOR: ReverseBitVector(1, 4 pipe bits) << 8 = 2048.
TEST(AmdGfx9Mips, XorModeTailIsXored) {
  Layout L = named("amd-gfx9-sw64k-s-x:pbxor=128", tex2d("R8G8B8A8_UNORM", 300, 200, 9, 2));
  EXPECT_EQ(at(L, 3), 720896u);
  EXPECT_EQ(at(L, 4), 720896u + 49152);
  EXPECT_EQ(at(L, 3 + 9), 786432u + 720896 + 2048);  // 2048 ^ 32768 ^ 32768
  EXPECT_EQ(at(L, 0), 32768u);                       // level 0 (0,0): the pbxor alone
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L, 3);
}

// Every element against the literal transcription above, over random sizes,
// element sizes, modes, arrays and pbxor; byte claims; round trips.
TEST(AmdGfx9Mips, AddressRuleAndRoundTrips) {
  std::mt19937 rng(9);
  struct Case {
    const char* spec;
    const char* format;
  };
  const Case cases[] = {{"amd-gfx9-sw64k-s", "R8G8B8A8_UNORM"},
                        {"amd-gfx9-sw4k-s", "R8_UNORM"},
                        {"amd-gfx9-sw64k-s", "R16_UNORM"},
                        {"amd-gfx9-sw4k-s", "R32G32_UINT"},
                        {"amd-gfx9-sw64k-s", "R32G32B32A32_UINT"},
                        {"amd-gfx9-sw64k-s-x:pbxor=77", "R8G8B8A8_UNORM"},
                        {"amd-gfx9-sw4k-d-x:pbxor=9", "R8G8B8A8_UNORM"},
                        {"amd-gfx9-sw64k-r-x", "R8G8B8A8_UNORM"},
                        {"amd-gfx9-sw64k-z-x:pbxor=200", "R8G8B8A8_UNORM"},
                        {"amd-gfx9-sw64k-d-t:pbxor=3", "R8G8B8A8_UNORM"},
                        {"amd-gfx9-sw64k-s", "BC1_UNORM"},
                        {"amd-gfx9-sw4k-s", "BC7_UNORM"},
                        {"amd-gfx9-sw4k-d", "R8G8B8A8_UNORM"},
                        {"amd-gfx9-sw64k-s-t", "R8G8B8A8_UNORM"}};
  const size_t nc = sizeof(cases) / sizeof(cases[0]);
  int ran = 0;
  for (int it = 0; it < 42; ++it) {
    const Case& c = cases[it % nc];
    const std::string spec = c.spec;
    uint32_t w = 1 + rng() % 600, h = 1 + rng() % 300;
    if (it % 5 == 0) std::swap(w, h);
    if (it % 7 == 0) w = 1 + rng() % 40;  // narrow: chains that start in or near the tail
    const uint32_t arr = 1 + rng() % 3;
    const uint32_t mips = 2 + rng() % (full_mip_count(w, h, 1) > 1 ? full_mip_count(w, h, 1) - 1 : 1);
    if (mips > full_mip_count(w, h, 1)) continue;
    TextureDesc d = tex2d(c.format, w, h, mips, arr);
    const std::string what = spec + " " + c.format + " " + std::to_string(w) + "x" + std::to_string(h) + " mips " +
                             std::to_string(mips) + " array " + std::to_string(arr);
    Layout L = named(spec, d);
    ASSERT_GT(L.subresource_count(), 0u) << what;
    const Pattern& p = L.patterns()[0];
    const uint32_t eb = d.format.element_bytes;
    const uint32_t bw = p.block_extent()[0] / eb, bh = p.block_extent()[1];
    const uint32_t log2blk = p.block_bits(), bb = 1u << log2blk;
    const uint32_t w0 = L.sub(0).width_el, h0 = L.sub(0).height_el;
    const Gfx9Chain chain = gfx9_surface(w0, h0, mips, bw, bh, eb);
    // Single-level surface of the same mode and pbxor: its address minus the
    // slice and block index is the in-block equation (slice XOR and pbxor
    // included) of the level's own coordinates.
    const uint32_t ow = (w0 + 2 * bw - 1) / bw * bw, oh = (h0 + 2 * bh - 1) / bh * bh;
    Layout one = named(spec, tex2d(c.format, ow * d.format.block_width, oh * d.format.block_height, 1, 4));
    auto equation = [&](uint64_t x, uint64_t y, uint32_t z) {
      uint64_t o = 0;
      EXPECT_TRUE(element_offset(one, z, static_cast<uint32_t>(x), static_cast<uint32_t>(y), 0, 0, &o).ok());
      return o - z * one.sub(z).depth_pitch_B - ((y / bh) * (ow / bw) + x / bw) * bb;
    };
    EXPECT_EQ(L.size(), chain.slice_size * arr) << what;
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const SubresourceLayout& s = L.sub(i);
      const uint32_t mip = i % mips, slice = i / mips;
      uint32_t pw, ph, tail;
      gfx9_start(chain, bw, bh, mip, log2blk, &pw, &ph, &tail);
      const uint64_t pitch_b = chain.chain_pitch / bw;
      for (uint32_t y = 0; y < s.height_el; y += 1 + s.height_el / 6)
        for (uint32_t x = 0; x < s.width_el; x += 1 + s.width_el / 6) {
          uint64_t got;
          ASSERT_TRUE(element_offset(L, i, x, y, 0, 0, &got).ok());
          const uint64_t blk = slice * (chain.slice_size / bb) + (y / bh + ph) * pitch_b + (x / bw + pw);
          const uint64_t want = blk * bb + (equation(x, y, slice) ^ tail);
          ASSERT_EQ(got, want) << what << " sub " << i << " at " << x << "," << y;
        }
    }
    ASSERT_TRUE(swz_test::claim_bytes(L)) << what;
    swz_test::round_trip_all(L, static_cast<uint32_t>(it));
    ++ran;
  }
  EXPECT_GE(ran, 40) << "surfaces checked";
}

// 256-byte modes. GFX10+ (Gfx10Lib::ComputeSurfaceInfoMicroTiled): no tail;
// each level (ShiftCeil sizes) padded to the 8x8-element block, the smallest
// first. RGBA8 300x200, 9 levels: padded 304x200, 152x104, 80x56, 40x32,
// 24x16, 16x8, 8x8, 8x8, 8x8 -> 243200, 63232, 17920, 5120, 1536, 512, 256,
// 256, 256 bytes; offsets from level 8 up: 0, 256, 512, 768, 1280, 2816, 7936,
// 25856, 89088; slice 332288.
TEST(AmdGfx9Mips, Gfx10Block256ChainDerivedFromAddrlib) {
  Layout L = named("amd-gfx10-sw256b-s", tex2d("R8G8B8A8_UNORM", 300, 200, 9, 2));
  const uint64_t off[9] = {89088, 25856, 7936, 2816, 1280, 768, 512, 256, 0};
  const uint64_t pitch_el[9] = {304, 152, 80, 40, 24, 16, 8, 8, 8};
  for (uint32_t m = 0; m < 9; ++m) {
    EXPECT_EQ(L.sub(m).offset, off[m]) << m;
    EXPECT_EQ(L.sub(m).row_pitch, pitch_el[m] / 8 * 256) << m;
    EXPECT_EQ(L.sub(m + 9).depth_pitch_B, 332288u) << m;
  }
  EXPECT_EQ(L.size(), 2 * 332288u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
  std::mt19937 rng(256);
  for (const char* spec : {"amd-gfx10.3-sw256b-d:pipes=8", "amd-gfx11-sw256b-d", "amd-gfx10-sw256b-d"}) {
    const uint32_t w = 1 + rng() % 300, h = 1 + rng() % 200;
    Layout R = named(spec, tex2d("R8G8B8A8_UNORM", w, h, full_mip_count(w, h, 1), 2));
    EXPECT_TRUE(swz_test::claim_bytes(R)) << spec << " " << w << "x" << h;
    swz_test::round_trip_all(R);
  }
}

TEST(AmdGfx9Mips, RefusalsAndOverrides) {
  Layout bad;
  // Gfx9Lib::ValidateSwModeParams: no mips in 256-byte modes.
  Status st = make_named_layout("amd-gfx9-sw256b-s", tex2d("R8G8B8A8_UNORM", 64, 64, 2), &bad);
  EXPECT_EQ(st.code(), Code::unsupported);
  EXPECT_NE(st.message().find("256-byte"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("offsets="), std::string::npos) << st.message();
  // pitch= is for single-level surfaces (addrlib ignores it on chains).
  EXPECT_EQ(make_named_layout("amd-gfx9-sw64k-s:pitch=512", tex2d("R8G8B8A8_UNORM", 300, 200, 3), &bad).code(),
            Code::invalid_argument);
  // offsets= still places the levels (with the GFX9 shared pitch).
  Layout O = named("amd-gfx9-sw64k-s:offsets=0/0x100000,pitch=512", tex2d("R8G8B8A8_UNORM", 300, 200, 2));
  EXPECT_EQ(O.sub(1).offset, 0x100000u);
  EXPECT_EQ(O.sub(1).row_pitch, O.sub(0).row_pitch);
  // slice_size= pads the chain's slice.
  Layout S = named("amd-gfx9-sw64k-s:slice_size=0x100000", tex2d("R8G8B8A8_UNORM", 300, 200, 9, 2));
  EXPECT_EQ(S.sub(9).depth_pitch_B, 0x100000u);
  EXPECT_EQ(make_named_layout("amd-gfx9-sw64k-s:slice_size=65536", tex2d("R8G8B8A8_UNORM", 300, 200, 9), &bad).code(),
            Code::invalid_argument);
}

// An independent oracle for the tail: GFX9 SW_64KB_S / SW_4KB_S are Intel
// TileYs / TileYf bit for bit (patterns/vendor data, checked against addrlib
// and gmmlib), and addrlib's MipTailOffset256B slots land where gmmlib's
// Gen9 Ys/Yf mip-tail slot table (GEN9_MIPTAIL_SLOT_OFFSET_2D_SURFACE, Yf
// from slot 4) puts the levels. swz's Intel family models gmmlib's table on
// its own (src/hw/families.cpp build_intel), so every tail element, taken
// relative to the first tail level's origin, must agree between the two
// families. Power-of-two sizes: there the chain's padded halves (addrlib)
// and the true level sizes (gmmlib) pick the same first tail level.
TEST(AmdGfx9Mips, TailMatchesIntelGen9YsYfSlots) {
  std::mt19937 rng(99);
  const char* formats[] = {"R8_UNORM", "R16_UNORM", "R8G8B8A8_UNORM", "R32G32_UINT", "R32G32B32A32_UINT"};
  const std::pair<const char*, const char*> pairs[] = {{"amd-gfx9-sw64k-s", "intel-tileys:gen=9"},
                                                       {"amd-gfx9-sw4k-s", "intel-tileyf:gen=9"}};
  int compared = 0;
  for (int it = 0; it < 40; ++it) {
    const auto& pr = pairs[it % 2];
    const char* fmt = formats[(it / 2) % 5];
    const uint32_t w = 1u << (rng() % 10), h = 1u << (rng() % 10);
    TextureDesc d = tex2d(fmt, w, h, full_mip_count(w, h, 1));
    Layout A = named(pr.first, d), I = named(pr.second, d);
    const uint32_t mips = d.mip_levels;
    uint32_t first = mips - 1;
    while (first > 0 && A.sub(first - 1).offset == A.sub(mips - 1).offset) --first;
    if (mips < 2 || A.sub(first).offset != A.sub(mips - 1).offset) continue;
    const uint64_t a0 = at(A, first), i0 = at(I, first);
    for (uint32_t m = first; m < mips; ++m) {
      const SubresourceLayout& s = A.sub(m);
      for (uint32_t y = 0; y < s.height_el; ++y)
        for (uint32_t x = 0; x < s.width_el; ++x)
          ASSERT_EQ(at(A, m, x, y) - a0, at(I, m, x, y) - i0)
              << pr.first << " " << fmt << " " << w << "x" << h << " level " << m << " (tail from " << first << ") at "
              << x << "," << y;
      ++compared;
    }
  }
  EXPECT_GT(compared, 60);
}

namespace {

// ---- literal transcription of addrlib's GFX9 thick (3D) chain (test oracle) ----
// HwlComputeSurfaceInfoTiled with GetMipChainInfo and GetMajorMode for a 3D
// surface in a thick mode; the block slices of the chain are chain_pitch x
// chain_height elements each.
struct Gfx9Thick {
  uint32_t pitch, height, slices;  // pOut->pitch/height/numSlices
  uint32_t chain_pitch, chain_height, chain_slices;
};

Gfx9Thick gfx9_thick_surface(uint32_t w, uint32_t h, uint32_t d, uint32_t mips, const uint32_t blk[3],
                             uint32_t log2blk) {
  Gfx9Thick c{};
  c.pitch = pow2_align(w, blk[0]);
  c.height = pow2_align(h, blk[1]);
  c.slices = pow2_align(d, blk[2]);
  c.chain_pitch = c.pitch;
  c.chain_height = c.height;
  c.chain_slices = c.slices;
  uint32_t tail[3] = {blk[0], blk[1], blk[2]};
  if (log2blk % 3 == 0) tail[1] >>= 1;
  if (log2blk % 3 == 1) tail[0] >>= 1;
  if (log2blk % 3 == 2) tail[2] >>= 1;
  uint32_t first = mips, mp = w, mh = h, md = d;
  for (uint32_t id = 0; id < mips; ++id) {
    if (mp <= tail[0] && mh <= tail[1] && md <= tail[2]) {
      first = id;
      break;
    }
    mp = std::max(pow2_align(mp, blk[0]) >> 1, 1u);
    mh = std::max(pow2_align(mh, blk[1]) >> 1, 1u);
    md = std::max(pow2_align(md, blk[2]) >> 1, 1u);
  }
  const uint32_t ending = std::min(first, mips - 1);
  if (ending == 0) {
    c.pitch = tail[0];
    c.height = tail[1];
    c.slices = tail[2];
  } else {
    const uint32_t wb = c.pitch / blk[0], hb = c.height / blk[1], db = c.slices / blk[2];
    const bool ymajor = (wb < hb) && (hb >= db);
    if (ymajor) {
      uint32_t m1 = round_half(wb);
      if (m1 == 1 && ending > 2) m1++;
      c.chain_pitch += m1 * blk[0];
    } else {
      uint32_t m1 = round_half(hb);
      if (m1 == 1 && ending > 2) m1++;
      c.chain_height += m1 * blk[1];
    }
  }
  return c;
}

// GetMipStartPos for a thick surface.
void gfx9_thick_start(const Gfx9Thick& c, const uint32_t blk[3], uint32_t mip, uint32_t log2blk, uint32_t pos[3],
                      uint32_t* tail) {
  static const uint32_t kOff[] = {2048, 1024, 512, 256, 128, 64, 32, 16, 8, 6, 5, 4, 3, 2, 1, 0};
  pos[0] = pos[1] = pos[2] = 0;
  *tail = 0;
  uint32_t t[3] = {blk[0], blk[1], blk[2]};
  if (log2blk % 3 == 0) t[1] >>= 1;
  if (log2blk % 3 == 1) t[0] >>= 1;
  if (log2blk % 3 == 2) t[2] >>= 1;
  bool in_tail = c.pitch <= t[0] && c.height <= t[1] && c.slices <= t[2];
  uint32_t idx = mip;
  if (!in_tail) {
    uint32_t wb = c.pitch / blk[0], hb = c.height / blk[1], db = c.slices / blk[2];
    const bool y = (wb < hb) && (hb >= db), x = !(wb < hb) && (wb >= db);
    uint32_t ending = mip + 1;
    for (uint32_t i = 1; i <= mip; ++i) {
      if (i == 1 || i == 3) {
        if (y)
          pos[0] += wb;
        else
          pos[1] += hb;
      } else {
        if (x)
          pos[0] += wb;
        else if (y)
          pos[1] += hb;
        else
          pos[2] += db;
      }
      bool small;
      if (log2blk % 3 == 0)
        small = wb <= 2 && hb == 1 && db <= 2;
      else if (log2blk % 3 == 1)
        small = wb == 1 && hb <= 2 && db <= 2;
      else
        small = wb <= 2 && hb <= 2 && db == 1;
      if (small) {
        ending = i;
        break;
      }
      wb = round_half(wb);
      hb = round_half(hb);
      db = round_half(db);
    }
    if (mip >= ending) {
      in_tail = true;
      idx = mip - ending;
    }
  }
  if (in_tail) *tail = kOff[idx + 20 - log2blk] << 8;
}

}  // namespace

// 3D, SW_64KB_S (thick: HwlComputeThickEquation's standard swizzle = the
// D3D12 64KB standard swizzle 3D): RGBA8 64x64x64, 7 levels. Blocks are
// 32x32x16 elements; log2(64 KiB) mod 3 = 1 halves the width: tail levels at
// most 16x32x16 (GetMipTailDim).
// GetMipChainInfo: 64^3 -> 32^3 (32 > 16) -> 16^3: level 2 starts the tail.
// Level 0 is 2x2x4 blocks: Z-major (GetMajorMode: neither width nor height
// reaches the depth); the chain grows in height by RoundHalf(2) = 1 block
// (ending level 2: no extra): 2x3 blocks a block slice (393216 bytes), 4 deep.
// GetMipStartPos: level 1 below level 0 at (0,2,0) = 262144; level 2 along Z
// at (0,2,2) = (2 * 3 + 2) * 2 blocks = 1048576, where level 1 (1x1x2 blocks)
// sends it to the tail; slots 32768, 16384, 8192, 4096, 2048.
TEST(AmdGfx9Mips, Thick3dChainDerivedFromAddrlib) {
  Layout L = named("amd-gfx9-sw64k-s", swz_test::tex3d("R8G8B8A8_UNORM", 64, 64, 64, 7));
  const uint64_t off[7] = {0, 262144, 1048576, 1048576, 1048576, 1048576, 1048576};
  const uint64_t tail[7] = {0, 0, 32768, 16384, 8192, 4096, 2048};
  for (uint32_t m = 0; m < 7; ++m) {
    EXPECT_EQ(L.sub(m).offset, off[m]) << m;
    EXPECT_EQ(L.sub(m).row_pitch, 2 * 65536u) << m;
    EXPECT_EQ(L.sub(m).depth_pitch_B, 393216u) << m;
    EXPECT_EQ(at(L, m), off[m] + tail[m]) << m;
  }
  // Level 0 element (0,0,16) is one block slice further.
  uint64_t o = 0;
  ASSERT_TRUE(element_offset(L, 0, 0, 0, 16, 0, &o).ok());
  EXPECT_EQ(o, 393216u);
  EXPECT_EQ(L.size(), 4 * 393216u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// Every element of random 3D chains (both standard modes, 1-16 byte
// elements) against the thick transcription above, with the in-block
// equation read from a single-level 3D surface; byte claims; round trips.
TEST(AmdGfx9Mips, Thick3dAddressRuleAndRoundTrips) {
  std::mt19937 rng(33);
  const char* specs[] = {"amd-gfx9-sw64k-s", "amd-gfx9-sw4k-s"};
  const char* formats[] = {"R8_UNORM", "R16_UNORM", "R8G8B8A8_UNORM", "R32G32_UINT", "R32G32B32A32_UINT", "BC1_UNORM"};
  int ran = 0;
  for (int it = 0; it < 30; ++it) {
    const std::string spec = specs[it % 2];
    const char* fmt = formats[(it / 2) % 6];
    const uint32_t w = 1 + rng() % 130, h = 1 + rng() % 100, dd = 1 + rng() % 70;
    const uint32_t full = full_mip_count(w, h, dd);
    if (full < 2) continue;
    const uint32_t mips = 2 + rng() % (full - 1);
    TextureDesc d = swz_test::tex3d(fmt, w, h, dd, mips);
    const std::string what = spec + " " + fmt + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                             std::to_string(dd) + " mips " + std::to_string(mips);
    Layout L = named(spec, d);
    ASSERT_GT(L.subresource_count(), 0u) << what;
    const Pattern& p = L.patterns()[0];
    const uint32_t eb = d.format.element_bytes;
    const uint32_t blk[3] = {static_cast<uint32_t>(p.block_extent()[0] / eb),
                             static_cast<uint32_t>(p.block_extent()[1]), static_cast<uint32_t>(p.block_extent()[2])};
    const uint32_t log2blk = p.block_bits(), bb = 1u << log2blk;
    const Gfx9Thick c = gfx9_thick_surface(L.sub(0).width_el, L.sub(0).height_el, dd, mips, blk, log2blk);
    const uint64_t pitch_b = c.chain_pitch / blk[0], slice_blocks = pitch_b * (c.chain_height / blk[1]);
    EXPECT_EQ(L.size(), slice_blocks * (c.chain_slices / blk[2]) * bb) << what;
    // Single-level 3D surface of the same mode: the in-block equation.
    const uint32_t ow = (L.sub(0).width_el + blk[0] - 1) / blk[0] * blk[0];
    const uint32_t oh = (L.sub(0).height_el + blk[1] - 1) / blk[1] * blk[1];
    const uint32_t od = (dd + blk[2] - 1) / blk[2] * blk[2];
    Layout one = named(spec, swz_test::tex3d(fmt, ow * d.format.block_width, oh * d.format.block_height, od, 1));
    auto equation = [&](uint32_t x, uint32_t y, uint32_t z) {
      uint64_t o = 0;
      EXPECT_TRUE(element_offset(one, 0, x, y, z, 0, &o).ok());
      return o - (((z / blk[2]) * (oh / blk[1]) + y / blk[1]) * (ow / blk[0]) + x / blk[0]) * bb;
    };
    for (uint32_t m = 0; m < mips; ++m) {
      const SubresourceLayout& s = L.sub(m);
      uint32_t pos[3], tail;
      gfx9_thick_start(c, blk, m, log2blk, pos, &tail);
      for (uint32_t z = 0; z < s.depth; z += 1 + s.depth / 4)
        for (uint32_t y = 0; y < s.height_el; y += 1 + s.height_el / 4)
          for (uint32_t x = 0; x < s.width_el; x += 1 + s.width_el / 4) {
            uint64_t got;
            ASSERT_TRUE(element_offset(L, m, x, y, z, 0, &got).ok());
            const uint64_t idx =
                (z / blk[2] + pos[2]) * slice_blocks + (y / blk[1] + pos[1]) * pitch_b + (x / blk[0] + pos[0]);
            ASSERT_EQ(got, idx * bb + (equation(x, y, z) ^ tail))
                << what << " level " << m << " at " << x << "," << y << "," << z;
          }
    }
    ASSERT_TRUE(swz_test::claim_bytes(L)) << what;
    swz_test::round_trip_all(L, static_cast<uint32_t>(it));
    ++ran;
  }
  EXPECT_GE(ran, 20) << "surfaces checked";
}

// GFX10 3D in SW_64KB_S (thick, the S3 pattern of gfx10SwizzlePattern.h):
// RGBA8 64x64x64, 7 levels. Blocks 32x32x16 (Block64K_Log2_3d {5,5,4});
// tail levels at most 16x32 (GetMipTailDim thick, log2 mod 3 = 1), at most
// 16 - (16 - 8) / 3 - 4 = 10 levels (GetMaxNumMipsInTail thick).
// ComputeSurfaceInfoMacroTiled: level 0 (2x2 blocks), level 1 (1 block),
// level 2 (16x16) starts the tail. Per slice of blocks: tail block at 0,
// level 1 at 65536, level 0 at 131072; 393216 bytes, 4 slices of blocks.
// Tail slots m = 9, 8, 7, 6, 5: offsets 8192, 4096, 2048, 1536, 1280 ->
// (odd bits from 9, even bits from 8) micro-block (x, y) = (4,0) (0,4) (2,0)
// (1,2) (0,3), in Block256_3d units of 4x4 elements: (16,0) (0,16) (8,0)
// (4,8) (0,12).
TEST(AmdGfx9Mips, Gfx10Thick3dChainDerivedFromAddrlib) {
  Layout L = named("amd-gfx10-sw64k-s", swz_test::tex3d("R8G8B8A8_UNORM", 64, 64, 64, 7));
  const uint64_t off[7] = {131072, 65536, 0, 0, 0, 0, 0};
  const uint64_t ox[7] = {0, 0, 16, 0, 8, 4, 0}, oy[7] = {0, 0, 0, 16, 0, 8, 12};
  for (uint32_t m = 0; m < 7; ++m) {
    EXPECT_EQ(L.sub(m).offset, off[m]) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[0], ox[m] * 4) << m;
    EXPECT_EQ(L.sub(m).pre_swizzle[1], oy[m]) << m;
    EXPECT_EQ(L.sub(m).depth_pitch_B, 393216u) << m;
  }
  EXPECT_EQ(L.sub(0).row_pitch, 2 * 65536u);
  EXPECT_EQ(L.size(), 4 * 393216u);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  swz_test::round_trip_all(L);
}

// GFX10 3D chains over random sizes and element sizes: every element at
// level offset + z-block * chain + block index + S3 equation(x + tail x,
// y + tail y, z) (ComputeSurfaceAddrFromCoordMacroTiled), the equation read
// from a single-level 3D surface; byte claims; round trips.
TEST(AmdGfx9Mips, Gfx10Thick3dAddressRuleAndRoundTrips) {
  std::mt19937 rng(310);
  const char* specs[] = {"amd-gfx10-sw64k-s", "amd-gfx10-sw4k-s"};
  const char* formats[] = {"R8_UNORM", "R16_UNORM", "R8G8B8A8_UNORM", "R32G32_UINT", "R32G32B32A32_UINT"};
  int ran = 0;
  for (int it = 0; it < 24; ++it) {
    const std::string spec = specs[it % 2];
    const char* fmt = formats[(it / 2) % 5];
    const uint32_t w = 1 + rng() % 120, h = 1 + rng() % 90, dd = 1 + rng() % 60;
    const uint32_t full = full_mip_count(w, h, dd);
    if (full < 2) continue;
    const uint32_t mips = 2 + rng() % (full - 1);
    TextureDesc d = swz_test::tex3d(fmt, w, h, dd, mips);
    const std::string what = spec + " " + fmt + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                             std::to_string(dd) + " mips " + std::to_string(mips);
    Layout L = named(spec, d);
    ASSERT_GT(L.subresource_count(), 0u) << what;
    const Pattern& p = L.patterns()[0];
    const uint32_t eb = d.format.element_bytes;
    const uint32_t bw = p.block_extent()[0] / eb, bh = p.block_extent()[1], bd = p.block_extent()[2];
    const uint64_t bb = uint64_t{1} << p.block_bits();
    const uint32_t ow = (w + 2 * bw - 1) / bw * bw, oh = (h + 2 * bh - 1) / bh * bh, od = (dd + bd - 1) / bd * bd;
    Layout one = named(spec, swz_test::tex3d(fmt, ow, oh, od, 1));
    auto equation = [&](uint64_t x, uint64_t y, uint32_t z) {
      uint64_t o = 0;
      EXPECT_TRUE(element_offset(one, 0, static_cast<uint32_t>(x), static_cast<uint32_t>(y), z, 0, &o).ok());
      return o - (((z / bd) * (oh / bh) + y / bh) * (ow / bw) + x / bw) * bb;
    };
    for (uint32_t m = 0; m < mips; ++m) {
      const SubresourceLayout& s = L.sub(m);
      const uint64_t pb = s.row_pitch / bb, ox = s.pre_swizzle[0] / eb, oy = s.pre_swizzle[1];
      for (uint32_t z = 0; z < s.depth; z += 1 + s.depth / 4)
        for (uint32_t y = 0; y < s.height_el; y += 1 + s.height_el / 4)
          for (uint32_t x = 0; x < s.width_el; x += 1 + s.width_el / 4) {
            uint64_t got;
            ASSERT_TRUE(element_offset(L, m, x, y, z, 0, &got).ok());
            const uint64_t want = s.offset + (z / bd) * s.depth_pitch_B + ((y + oy) / bh * pb + (x + ox) / bw) * bb +
                                  equation(x + ox, y + oy, z);
            ASSERT_EQ(got, want) << what << " level " << m << " at " << x << "," << y << "," << z;
          }
    }
    ASSERT_TRUE(swz_test::claim_bytes(L)) << what;
    swz_test::round_trip_all(L, static_cast<uint32_t>(it));
    ++ran;
  }
  EXPECT_GE(ran, 16) << "surfaces checked";
}
