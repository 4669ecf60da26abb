// AMD pipe/bank XOR as addrlib applies it (src/hw/families.cpp build_amd):
// Mesa src/amd/addrlib gfx10/gfx10addrlib.cpp (GetBankXorBits,
// ComputeSurfaceAddrFromCoordMacroTiled: "IsXor(swizzleMode) ?
// ((pipeBankXor & (pipeMask | bankMask)) << pipeInterleaveLog2) & blkMask : 0")
// and gfx9/gfx9addrlib.cpp (a pipe/bank XOR on a non-XOR mode is invalid).
// The vectors are addrlib's own answers (Addr2ComputeSurfaceAddrFromCoord
// run on them): RGBA8 600x400, element (17, 3).
#include <gtest/gtest.h>

#include "swz/swz.hpp"
#include "swz/vendor.hpp"

#include "hw_whole.hpp"
#include "test_util.hpp"

using namespace swz;
using swz_test::tex2d;

namespace {

uint64_t addr(const std::string& spec, uint32_t x, uint32_t y) {
  Layout L;
  Status st = make_named_layout(spec, tex2d("R8G8B8A8_UNORM", 600, 400), &L);
  EXPECT_TRUE(st.ok()) << spec << ": " << st.message();
  if (!st.ok()) return ~uint64_t{0};
  uint64_t off = 0;
  EXPECT_TRUE(element_offset(L, 0, x, y, 0, 0, &off).ok());
  return off;
}

}  // namespace

TEST(AmdPbxor, IgnoredOnNonXorModesFromGfx10) {
  EXPECT_EQ(addr("amd-gfx10-sw64k-s:pipes=16,pbxor=3", 17, 3), 2100u);
  EXPECT_EQ(addr("amd-gfx10-sw64k-s:pipes=16", 17, 3), 2100u);
  EXPECT_EQ(addr("amd-gfx10.3-sw4k-d:pipes=8,pbxor=5", 17, 3), addr("amd-gfx10.3-sw4k-d:pipes=8", 17, 3));
}

TEST(AmdPbxor, MaskedToThePipeAndBankBits) {
  // GFX10 SW_64KB_S_X, 16 pipes: mask 0xCF; 16 (bit 4) is dropped.
  EXPECT_EQ(addr("amd-gfx10-sw64k-s-x:pipes=16,pbxor=16", 17, 3), 2100u);
  EXPECT_EQ(addr("amd-gfx10-sw64k-s-x:pipes=16,pbxor=16", 17, 3), addr("amd-gfx10-sw64k-s-x:pipes=16", 17, 3));
  // Bits inside the mask still apply: 3 changes the address by 3 << 8.
  EXPECT_EQ(addr("amd-gfx10-sw64k-s-x:pipes=16,pbxor=3", 17, 3),
            addr("amd-gfx10-sw64k-s-x:pipes=16", 17, 3) ^ (3u << 8));
  EXPECT_EQ(addr("amd-gfx10-sw64k-s-x:pipes=16,pbxor=0x13", 17, 3),
            addr("amd-gfx10-sw64k-s-x:pipes=16,pbxor=3", 17, 3));
  // Bank bits (6, 7) count: 0x40 applies.
  EXPECT_EQ(addr("amd-gfx10-sw64k-s-x:pipes=16,pbxor=0x40", 17, 3),
            addr("amd-gfx10-sw64k-s-x:pipes=16", 17, 3) ^ (0x40u << 8));
  // A value past the block is cut to the block, as addrlib does, not refused.
  EXPECT_EQ(addr("amd-gfx10-sw4k-s-x:pipes=16,pbxor=0x1f", 17, 3),
            addr("amd-gfx10-sw4k-s-x:pipes=16,pbxor=0xf", 17, 3));
}

TEST(AmdPbxor, Gfx9RefusesItOnNonXorModes) {
  Layout L;
  Status st = make_named_layout("amd-gfx9-sw64k-s:pbxor=1", tex2d("R8G8B8A8_UNORM", 600, 400), &L);
  EXPECT_EQ(st.code(), Code::invalid_argument);
  EXPECT_NE(st.message().find("non-XOR"), std::string::npos) << st.message();
  EXPECT_TRUE(make_named_layout("amd-gfx9-sw64k-s:pbxor=0", tex2d("R8G8B8A8_UNORM", 600, 400), &L).ok());
  // XOR modes keep applying it.
  EXPECT_EQ(addr("amd-gfx9-sw64k-s-x:pbxor=1", 17, 3), addr("amd-gfx9-sw64k-s-x", 17, 3) ^ 256u);
}

// With offsets=, pitch= gives level 0's pitch (and, on GFX9, where addrlib
// shares level 0's pitch over the mip chain, every level's).
TEST(AmdPbxor, PitchWithOffsetsIsKept) {
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 100, 100, 2);
  Layout A, B;
  ASSERT_TRUE(make_named_layout("amd-gfx10-sw64k-s-x:pitch=256,offsets=0/0x40000", d, &A).ok());
  ASSERT_TRUE(make_named_layout("amd-gfx10-sw64k-s-x:offsets=0/0x40000", d, &B).ok());
  EXPECT_EQ(A.sub(0).row_pitch, 2 * B.sub(0).row_pitch);  // 256 elements = 2 blocks of 128
  EXPECT_EQ(A.sub(1).row_pitch, B.sub(1).row_pitch);
  Layout G;
  ASSERT_TRUE(make_named_layout("amd-gfx9-sw64k-s-x:pitch=256,offsets=0/0x40000", d, &G).ok());
  EXPECT_EQ(G.sub(1).row_pitch, G.sub(0).row_pitch);
  swz_test::round_trip_all(G);
}

// pipes=8 makes GFX10.3 SW_256KB_R_X a 128 KiB block.
TEST(AmdPbxor, Gfx103Sw256kWithEightPipesIs128KiB) {
  std::string eq;
  ASSERT_TRUE(describe_layout("amd-gfx10.3-sw256k-r-x:pipes=8", 4, &eq).ok());
  EXPECT_NE(eq.find("131072-byte block"), std::string::npos) << eq;
  EXPECT_NE(eq.find("128 KiB"), std::string::npos) << eq;
}

// pitches= gives every level's pitch (addrlib's per-level pitch, which can be
// a block wider than the tight one) together with offsets=.
TEST(AmdPbxor, PerLevelPitchesWithOffsets) {
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 100, 100, 2);
  Layout L;
  ASSERT_TRUE(make_named_layout("amd-gfx10-sw64k-s-x:offsets=0/0x40000,pitches=128/256", d, &L).ok());
  EXPECT_EQ(L.sub(0).row_pitch, 65536u);      // one 128-element block across
  EXPECT_EQ(L.sub(1).row_pitch, 2 * 65536u);  // padded to two blocks
  swz_test::round_trip_all(L);
  EXPECT_TRUE(swz_test::claim_bytes(L));
  Layout bad;
  EXPECT_EQ(make_named_layout("amd-gfx10-sw64k-s-x:offsets=0/0x40000,pitches=128", d, &bad).code(),
            Code::invalid_argument);
  EXPECT_EQ(make_named_layout("amd-gfx10-sw64k-s-x:offsets=0/0x40000,pitches=128/100", d, &bad).code(),
            Code::invalid_argument);  // not whole blocks
  EXPECT_EQ(make_named_layout("amd-gfx10-sw64k-s-x:offsets=0/0x40000,pitches=128/128,pitch=128", d, &bad).code(),
            Code::invalid_argument);
}
