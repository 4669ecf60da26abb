// swz — BC1-BC7 block decoders. Sources and the rounding rule: decode_bc.hpp.
#include "core/decode_bc.hpp"
#include "core/decode_etc.hpp"

#include <cstring>
#include <string_view>
#include <utility>

#include "core/format_convert.hpp"  // half_to_double

namespace swz::detail {
namespace {

// ---- a 128-bit block read from its least significant bit up ------------------------------------
class BitReader {
 public:
  explicit BitReader(const uint8_t* b) {
    for (int i = 7; i >= 0; --i) lo_ = (lo_ << 8) | b[i];
    for (int i = 15; i >= 8; --i) hi_ = (hi_ << 8) | b[i];
  }
  /// The next n bits (n <= 32), least significant first.
  uint32_t take(unsigned n) {
    if (n == 0) return 0;
    uint64_t v;
    if (pos_ >= 64)
      v = hi_ >> (pos_ - 64);
    else if (pos_ == 0)
      v = lo_;
    else
      v = (lo_ >> pos_) | (hi_ << (64 - pos_));
    pos_ += n;
    return static_cast<uint32_t>(v & ((uint64_t{1} << n) - 1));
  }

 private:
  uint64_t lo_ = 0, hi_ = 0;
  unsigned pos_ = 0;
};

void set_texel(float* t, float r, float g, float b, float a) {
  t[0] = r;
  t[1] = g;
  t[2] = b;
  t[3] = a;
}

// An 8-bit value as a fraction of 255.
float unit(int v) { return static_cast<float>(v) / 255.0f; }

// ---- BC1-BC3 ------------------------------------------------------------------------------------

// A 5:6:5 colour with each component expanded to 8 bits by replicating its top bits.
void expand565(uint32_t c, int* rgb) {
  const int r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  rgb[0] = (r << 3) | (r >> 2);
  rgb[1] = (g << 2) | (g >> 4);
  rgb[2] = (b << 3) | (b >> 2);
}

// The BC1 colour block at b (8 bytes), as 8-bit RGBA. BC2 and BC3 always use
// the four-colour palette; BC1 uses it when colour 0 > colour 1 as 16-bit
// numbers, else three colours and transparent black.
void color_block(const uint8_t* b, bool always_four, uint8_t out[16][4]) {
  const uint32_t c0 = b[0] | (b[1] << 8), c1 = b[2] | (b[3] << 8);
  const uint32_t idx = b[4] | (b[5] << 8) | (b[6] << 16) | (static_cast<uint32_t>(b[7]) << 24);
  int pal[4][4];
  expand565(c0, pal[0]);
  expand565(c1, pal[1]);
  pal[0][3] = pal[1][3] = pal[2][3] = pal[3][3] = 255;
  for (int k = 0; k < 3; ++k) {
    const int a = pal[0][k], c = pal[1][k];
    if (always_four || c0 > c1) {
      pal[2][k] = (2 * a + c + 1) / 3;
      pal[3][k] = (a + 2 * c + 1) / 3;
    } else {
      pal[2][k] = (a + c + 1) / 2;
      pal[3][k] = 0;
    }
  }
  if (!always_four && c0 <= c1) pal[3][3] = 0;
  for (int i = 0; i < 16; ++i) {
    const int* p = pal[(idx >> (2 * i)) & 3];
    for (int c = 0; c < 4; ++c) out[i][c] = static_cast<uint8_t>(p[c]);
  }
}

// BC3's alpha block, or an unsigned BC4 block, at b (8 bytes): the palette of
// two byte endpoints, each interpolated value rounded to the nearest byte.
void alpha_block(const uint8_t* b, uint8_t out[16]) {
  const int e0 = b[0], e1 = b[1];
  int pal[8] = {e0, e1, 0, 0, 0, 0, 0, 255};
  if (e0 > e1) {
    for (int k = 1; k <= 6; ++k) pal[k + 1] = ((7 - k) * e0 + k * e1 + 3) / 7;
  } else {
    for (int k = 1; k <= 4; ++k) pal[k + 1] = ((5 - k) * e0 + k * e1 + 2) / 5;
  }
  uint64_t idx = 0;
  for (int i = 7; i >= 2; --i) idx = (idx << 8) | b[i];
  for (int i = 0; i < 16; ++i) out[i] = static_cast<uint8_t>(pal[(idx >> (3 * i)) & 7]);
}

// An 8-byte BC4-style block (BC3 alpha, BC4, BC5 channels): two endpoints
// and sixteen 3-bit indices. Unsigned endpoints are bytes (values / 255);
// signed ones are two's-complement bytes with -128 read as -127 (values / 127).
void value_block(const uint8_t* b, bool is_signed, float out[16]) {
  int e0, e1, lo, hi;
  float scale;
  if (is_signed) {
    e0 = static_cast<int8_t>(b[0]);
    e1 = static_cast<int8_t>(b[1]);
    if (e0 == -128) e0 = -127;
    if (e1 == -128) e1 = -127;
    lo = -127;
    hi = 127;
    scale = 1.0f / 127.0f;
  } else {
    e0 = b[0];
    e1 = b[1];
    lo = 0;
    hi = 255;
    scale = 1.0f / 255.0f;
  }
  float pal[8];
  pal[0] = static_cast<float>(e0) * scale;
  pal[1] = static_cast<float>(e1) * scale;
  if (e0 > e1) {
    for (int k = 1; k <= 6; ++k) pal[k + 1] = static_cast<float>((7 - k) * e0 + k * e1) / 7.0f * scale;
  } else {
    for (int k = 1; k <= 4; ++k) pal[k + 1] = static_cast<float>((5 - k) * e0 + k * e1) / 5.0f * scale;
    pal[6] = static_cast<float>(lo) * scale;
    pal[7] = static_cast<float>(hi) * scale;
  }
  uint64_t idx = 0;
  for (int i = 7; i >= 2; --i) idx = (idx << 8) | b[i];
  for (int i = 0; i < 16; ++i) out[i] = pal[(idx >> (3 * i)) & 7];
}

// ---- BC7 (ARB_texture_compression_bptc) ----------------------------------------------------------

// Table.P2 and Table.P3: the subset of each texel (row-major) of each partition.
constexpr std::string_view kP2[64] = {
    "0011001100110011", "0001000100010001", "0111011101110111", "0001001100110111", "0000000100010011",
    "0011011101111111", "0001001101111111", "0000000100110111", "0000000000010011", "0011011111111111",
    "0000000101111111", "0000000000010111", "0001011111111111", "0000000011111111", "0000111111111111",
    "0000000000001111", "0000100011101111", "0111000100000000", "0000000010001110", "0111001100010000",
    "0011000100000000", "0000100011001110", "0000000010001100", "0111001100110001", "0011000100010000",
    "0000100010001100", "0110011001100110", "0011011001101100", "0001011111101000", "0000111111110000",
    "0111000110001110", "0011100110011100", "0101010101010101", "0000111100001111", "0101101001011010",
    "0011001111001100", "0011110000111100", "0101010110101010", "0110100101101001", "0101101010100101",
    "0111001111001110", "0001001111001000", "0011001001001100", "0011101111011100", "0110100110010110",
    "0011110011000011", "0110011010011001", "0000011001100000", "0100111001000000", "0010011100100000",
    "0000001001110010", "0000010011100100", "0110110010010011", "0011011011001001", "0110001110011100",
    "0011100111000110", "0110110011001001", "0110001100111001", "0111111010000001", "0001100011100111",
    "0000111100110011", "0011001111110000", "0010001011101110", "0100010001110111"};
constexpr std::string_view kP3[64] = {
    "0011001102212222", "0001001122112221", "0000200122112211", "0222002200110111", "0000000011221122",
    "0011001100220022", "0022002211111111", "0011001122112211", "0000000011112222", "0000111111112222",
    "0000111122222222", "0012001200120012", "0112011201120112", "0122012201220122", "0011011211221222",
    "0011200122002220", "0001001101121122", "0111001120012200", "0000112211221122", "0022002200221111",
    "0111011102220222", "0001000122212221", "0000001101220122", "0000110022102210", "0122012200110000",
    "0012001211222222", "0110122112210110", "0000011012211221", "0022110211020022", "0110011020022222",
    "0011012201220011", "0000200022112221", "0000000211221222", "0222002200120011", "0011001200220222",
    "0120012001200120", "0000111122220000", "0120120120120120", "0120201212010120", "0011220011220011",
    "0011112222000011", "0101010122222222", "0000000021212121", "0022112200221122", "0022001100220011",
    "0220122102201221", "0101222222220101", "0000212121212121", "0101010101012222", "0222011102220111",
    "0002111200021112", "0000211221122112", "0222011101110222", "0002111211120002", "0110011001102222",
    "0000000021122112", "0110011022222222", "0022001100110022", "0022112211220022", "0000000000002112",
    "0002000100020001", "0222122202221222", "0101222222222222", "0111201122012220"};
// Table.A2: the anchor texel of subset 1 of each two-subset partition;
// Table.A3a and Table.A3b: those of subsets 1 and 2 of three-subset ones.
constexpr uint8_t kA2[64] = {15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
                             15, 2,  8,  2,  2,  8,  8,  15, 2,  8,  2,  2,  8,  8,  2,  2,
                             15, 15, 6,  8,  2,  8,  15, 15, 2,  8,  2,  2,  2,  15, 15, 6,
                             6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2,  15};
constexpr uint8_t kA3a[64] = {3,  3, 15, 15, 8,  3,  15, 15, 8,  8,  6,  6,  6,  5,  3,  3,
                              3,  3, 8,  15, 3,  3,  6,  10, 5,  8,  8,  6,  8,  5,  15, 15,
                              8,  15, 3, 5,  6,  10, 8,  15, 15, 3,  15, 5,  15, 15, 15, 15,
                              3,  15, 5, 5,  5,  8,  5,  10, 5,  10, 8,  13, 15, 12, 3,  3};
constexpr uint8_t kA3b[64] = {15, 8,  8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,
                              15, 8,  15, 3,  15, 8,  15, 8,  3,  15, 6,  10, 15, 15, 10, 8,
                              15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15, 3,  6,  6,  8,
                              15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8};

// Interpolation weights (of 64) for 2-, 3- and 4-bit indices.
constexpr uint8_t kW2[4] = {0, 21, 43, 64};
constexpr uint8_t kW3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t kW4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

const uint8_t* weights(unsigned bits) { return bits == 2 ? kW2 : bits == 3 ? kW3 : kW4; }

int interpolate(int e0, int e1, unsigned w) { return ((64 - static_cast<int>(w)) * e0 + static_cast<int>(w) * e1 + 32) >> 6; }

// Table.M: subsets, partition bits, rotation bits, index selection bits,
// colour bits, alpha bits, per-endpoint P-bits, shared P-bits, index bits,
// secondary index bits.
struct Bc7Mode {
  uint8_t ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2;
};
constexpr Bc7Mode kBc7Modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0}};

int subset_of(unsigned ns, unsigned partition, int texel) {
  if (ns == 1) return 0;
  return (ns == 2 ? kP2 : kP3)[partition][static_cast<size_t>(texel)] - '0';
}

bool is_anchor(unsigned ns, unsigned partition, int texel) {
  if (texel == 0) return true;
  if (ns == 2) return texel == kA2[partition];
  if (ns == 3) return texel == kA3a[partition] || texel == kA3b[partition];
  return false;
}

// An n-bit endpoint component (n <= 8) with its top bits replicated below it.
int expand_bits(int v, unsigned n) { return n >= 8 ? v : (v << (8 - n)) | (v >> (2 * n - 8)); }

void decode_bc7(const uint8_t* b, uint8_t out[16][4]) {
  if (b[0] == 0) {  // reserved mode 8: an all-zero block (D3D11 "BC7 format")
    std::memset(out, 0, 64);
    return;
  }
  unsigned mode = 0;
  while (!(b[0] & (1u << mode))) ++mode;
  const Bc7Mode& m = kBc7Modes[mode];
  BitReader r(b);
  r.take(mode + 1);
  const unsigned partition = r.take(m.pb), rotation = r.take(m.rb), isb = r.take(m.isb);
  int ep[3][2][4] = {};  // [subset][endpoint][R, G, B, A]
  for (int c = 0; c < 3; ++c)
    for (int s = 0; s < m.ns; ++s)
      for (int e = 0; e < 2; ++e) ep[s][e][c] = static_cast<int>(r.take(m.cb));
  if (m.ab)
    for (int s = 0; s < m.ns; ++s)
      for (int e = 0; e < 2; ++e) ep[s][e][3] = static_cast<int>(r.take(m.ab));
  unsigned cbits = m.cb, abits = m.ab;
  if (m.epb || m.spb) {
    for (int s = 0; s < m.ns; ++s) {
      int shared = m.spb ? static_cast<int>(r.take(1)) : 0;
      for (int e = 0; e < 2; ++e) {
        const int p = m.epb ? static_cast<int>(r.take(1)) : shared;
        for (int c = 0; c < 4; ++c) ep[s][e][c] = (ep[s][e][c] << 1) | p;
      }
      (void)shared;
    }
    ++cbits;
    if (abits) ++abits;
  }
  for (int s = 0; s < m.ns; ++s)
    for (int e = 0; e < 2; ++e) {
      for (int c = 0; c < 3; ++c) ep[s][e][c] = expand_bits(ep[s][e][c], cbits);
      ep[s][e][3] = abits ? expand_bits(ep[s][e][3], abits) : 255;
    }
  unsigned idx1[16], idx2[16] = {};
  for (int i = 0; i < 16; ++i) idx1[i] = r.take(is_anchor(m.ns, partition, i) ? m.ib - 1u : m.ib);
  if (m.ib2)
    for (int i = 0; i < 16; ++i) idx2[i] = r.take(i == 0 ? m.ib2 - 1u : m.ib2);
  // The colour index comes from the secondary indices when the index
  // selection bit is 1; the alpha index from the secondary indices when there
  // are some and that bit is 0.
  const bool swap = m.isb && isb;
  const unsigned color_bits = swap ? m.ib2 : m.ib, alpha_bits = (m.ib2 && !swap) ? m.ib2 : m.ib;
  const uint8_t* wc = weights(color_bits);
  const uint8_t* wa = weights(alpha_bits);
  for (int i = 0; i < 16; ++i) {
    const int s = subset_of(m.ns, partition, i);
    const unsigned ci = swap ? idx2[i] : idx1[i];
    const unsigned ai = (m.ib2 && !swap) ? idx2[i] : idx1[i];
    int px[4];
    for (int c = 0; c < 3; ++c) px[c] = interpolate(ep[s][0][c], ep[s][1][c], wc[ci]);
    px[3] = interpolate(ep[s][0][3], ep[s][1][3], wa[ai]);
    if (rotation) std::swap(px[3], px[rotation - 1]);
    for (int c = 0; c < 4; ++c) out[i][c] = static_cast<uint8_t>(px[c]);
  }
}

// ---- BC6H (ARB_texture_compression_bptc, the float formats) ---------------------------------------

// Table.MF and Table.F, one row per mode: the mode number, transformed
// endpoints, partition bits, endpoint bits, delta bits, and the bit fields in
// stream order, as the specification writes them.
struct Bc6Mode {
  uint8_t number, transformed, pb, epb, delta[3];
  const char* fields;
};
constexpr Bc6Mode kBc6Modes[14] = {
    {0, 1, 5, 10, {5, 5, 5},
     "m[1:0],g2[4],b2[4],b3[4],r0[9:0],g0[9:0],b0[9:0],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],"
     "b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"},
    {1, 1, 5, 7, {6, 6, 6},
     "m[1:0],g2[5],g3[4],g3[5],r0[6:0],b3[0],b3[1],b2[4],g0[6:0],b2[5],b3[2],g2[4],b0[6:0],b3[3],b3[5],b3[4],"
     "r1[5:0],g2[3:0],g1[5:0],g3[3:0],b1[5:0],b2[3:0],r2[5:0],r3[5:0]"},
    {2, 1, 5, 11, {5, 4, 4},
     "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[4:0],r0[10],g2[3:0],g1[3:0],g0[10],b3[0],g3[3:0],b1[3:0],b0[10],b3[1],"
     "b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"},
    {6, 1, 5, 11, {4, 5, 4},
     "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10],g3[4],g2[3:0],g1[4:0],g0[10],g3[3:0],b1[3:0],b0[10],b3[1],"
     "b2[3:0],r2[3:0],b3[0],b3[2],r3[3:0],g2[4],b3[3]"},
    {10, 1, 5, 11, {4, 4, 5},
     "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10],b2[4],g2[3:0],g1[3:0],g0[10],b3[0],g3[3:0],b1[4:0],b0[10],"
     "b2[3:0],r2[3:0],b3[1],b3[2],r3[3:0],b3[4],b3[3]"},
    {14, 1, 5, 9, {5, 5, 5},
     "m[4:0],r0[8:0],b2[4],g0[8:0],g2[4],b0[8:0],b3[4],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],"
     "b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"},
    {18, 1, 5, 8, {6, 5, 5},
     "m[4:0],r0[7:0],g3[4],b2[4],g0[7:0],b3[2],g2[4],b0[7:0],b3[3],b3[4],r1[5:0],g2[3:0],g1[4:0],b3[0],g3[3:0],"
     "b1[4:0],b3[1],b2[3:0],r2[5:0],r3[5:0]"},
    {22, 1, 5, 8, {5, 6, 5},
     "m[4:0],r0[7:0],b3[0],b2[4],g0[7:0],g2[5],g2[4],b0[7:0],g3[5],b3[4],r1[4:0],g3[4],g2[3:0],g1[5:0],g3[3:0],"
     "b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"},
    {26, 1, 5, 8, {5, 5, 6},
     "m[4:0],r0[7:0],b3[1],b2[4],g0[7:0],b2[5],g2[4],b0[7:0],b3[5],b3[4],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],"
     "g3[3:0],b1[5:0],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"},
    {30, 0, 5, 6, {6, 6, 6},
     "m[4:0],r0[5:0],g3[4],b3[0],b3[1],b2[4],g0[5:0],g2[5],b2[5],b3[2],g2[4],b0[5:0],g3[5],b3[3],b3[5],b3[4],"
     "r1[5:0],g2[3:0],g1[5:0],g3[3:0],b1[5:0],b2[3:0],r2[5:0],r3[5:0]"},
    {3, 0, 0, 10, {10, 10, 10}, "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[9:0],g1[9:0],b1[9:0]"},
    {7, 1, 0, 11, {9, 9, 9}, "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[8:0],r0[10],g1[8:0],g0[10],b1[8:0],b0[10]"},
    {11, 1, 0, 12, {8, 8, 8}, "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[7:0],r0[10:11],g1[7:0],g0[10:11],b1[7:0],b0[10:11]"},
    {15, 1, 0, 16, {4, 4, 4}, "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10:15],g1[3:0],g0[10:15],b1[3:0],b0[10:15]"},
};

int parse_int(const char*& p) {
  int v = 0;
  while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
  return v;
}

// Reads the endpoint fields of `fields` from r into e[endpoint][channel].
// v[a:b] with a >= b puts the next a-b+1 bits into bits b..a of v, lowest
// first; with a < b the bits are reversed (the first read goes to bit b).
void read_bc6_fields(const char* p, BitReader& r, int e[4][3]) {
  while (*p) {
    const char var = *p++;
    int idx = -1;
    if (var != 'm') idx = *p++ - '0';
    ++p;  // '['
    const int a = parse_int(p);
    int b = a;
    if (*p == ':') {
      ++p;
      b = parse_int(p);
    }
    ++p;  // ']'
    if (*p == ',') ++p;
    const int count = a >= b ? a - b + 1 : b - a + 1;
    for (int k = 0; k < count; ++k) {
      const int bit = static_cast<int>(r.take(1));
      const int pos = a >= b ? b + k : b - k;
      if (var == 'm') continue;
      const int c = var == 'r' ? 0 : var == 'g' ? 1 : 2;
      e[idx][c] |= bit << pos;
    }
  }
}

int sign_extend(int v, unsigned bits) {
  const int m = 1 << (bits - 1);
  v &= (1 << bits) - 1;
  return (v ^ m) - m;
}

int unquantize(int x, unsigned epb, bool is_signed) {
  if (!is_signed) {
    if (epb >= 15) return x;
    if (x == 0) return 0;
    if (x == (1 << epb) - 1) return 0xFFFF;
    return ((x << 15) + 0x4000) >> (epb - 1);
  }
  if (epb >= 16) return x;
  const bool negative = x < 0;
  if (negative) x = -x;
  int unq;
  if (x == 0)
    unq = 0;
  else if (x >= (1 << (epb - 1)) - 1)
    unq = 0x7FFF;
  else
    unq = ((x << 15) + 0x4000) >> (epb - 1);
  return negative ? -unq : unq;
}

// The interpolated value's half-float bits: times 31/64 (unsigned), or
// magnitude times 31/32 with the sign in bit 15 (signed).
uint16_t finish_half(int v, bool is_signed) {
  if (!is_signed) return static_cast<uint16_t>((v * 31) >> 6);
  if (v < 0) return static_cast<uint16_t>((((-v) * 31) >> 5) | 0x8000);
  return static_cast<uint16_t>((v * 31) >> 5);
}

void decode_bc6h(const uint8_t* b, bool is_signed, float out[16][4]) {
  const unsigned low2 = b[0] & 3u;
  const unsigned number = low2 < 2 ? low2 : (b[0] & 31u);
  const Bc6Mode* m = nullptr;
  for (const Bc6Mode& c : kBc6Modes)
    if (c.number == number) m = &c;
  if (!m) {  // reserved modes 19, 23, 27, 31
    for (int i = 0; i < 16; ++i) set_texel(out[i], 0, 0, 0, 1);
    return;
  }
  BitReader r(b);
  int e[4][3] = {};
  read_bc6_fields(m->fields, r, e);
  const unsigned regions = m->pb ? 2 : 1;
  const unsigned partition = r.take(m->pb);
  for (int c = 0; c < 3; ++c) {
    if (is_signed) e[0][c] = sign_extend(e[0][c], m->epb);
    for (unsigned i = 1; i < 2 * regions; ++i) {
      if (m->transformed || is_signed) e[i][c] = sign_extend(e[i][c], m->delta[c]);
      if (m->transformed) {
        e[i][c] = (e[0][c] + e[i][c]) & ((1 << m->epb) - 1);
        if (is_signed) e[i][c] = sign_extend(e[i][c], m->epb);
      }
    }
    for (unsigned i = 0; i < 2 * regions; ++i) e[i][c] = unquantize(e[i][c], m->epb, is_signed);
  }
  const unsigned ib = regions == 2 ? 3 : 4;
  const uint8_t* w = weights(ib);
  for (int i = 0; i < 16; ++i) {
    const unsigned index = r.take(is_anchor(regions, partition, i) ? ib - 1 : ib);
    const int s = subset_of(regions, partition, i);
    float px[3];
    for (int c = 0; c < 3; ++c) {
      const int v = interpolate(e[2 * s][c], e[2 * s + 1][c], w[index]);
      px[c] = static_cast<float>(half_to_double(finish_half(v, is_signed)));
    }
    set_texel(out[i], px[0], px[1], px[2], 1.0f);
  }
}

}  // namespace

bool block_kind_of(uint32_t format_value, BlockKind* out) {
  switch (format_value) {
    case 70: case 71: case 72: *out = BlockKind::BC1; return true;
    case 73: case 74: case 75: *out = BlockKind::BC2; return true;
    case 76: case 77: case 78: *out = BlockKind::BC3; return true;
    case 79: case 80: *out = BlockKind::BC4U; return true;
    case 81: *out = BlockKind::BC4S; return true;
    case 82: case 83: *out = BlockKind::BC5U; return true;
    case 84: *out = BlockKind::BC5S; return true;
    case 94: case 95: *out = BlockKind::BC6HU; return true;
    case 96: *out = BlockKind::BC6HS; return true;
    case 97: case 98: case 99: *out = BlockKind::BC7; return true;
    case 0x8D64: case 0x9274: case 0x9275: *out = BlockKind::EtcRgb; return true;  // ETC1 is RGB ETC2's subset
    case 0x9276: case 0x9277: *out = BlockKind::EtcRgbA1; return true;
    case 0x9278: case 0x9279: *out = BlockKind::EtcRgba; return true;
    case 0x9270: *out = BlockKind::EacR11U; return true;
    case 0x9271: *out = BlockKind::EacR11S; return true;
    case 0x9272: *out = BlockKind::EacRg11U; return true;
    case 0x9273: *out = BlockKind::EacRg11S; return true;
    default: return false;
  }
}

unsigned block_bytes(BlockKind kind) {
  switch (kind) {
    case BlockKind::BC1: case BlockKind::BC4U: case BlockKind::BC4S:
    case BlockKind::EtcRgb: case BlockKind::EtcRgbA1: case BlockKind::EacR11U: case BlockKind::EacR11S:
      return 8;
    default: return 16;
  }
}

bool decode_block_rgba8(BlockKind kind, const uint8_t* b, uint8_t out[16][4]) {
  uint8_t a[16], g[16];
  switch (kind) {
    case BlockKind::BC4U:
      alpha_block(b, a);
      for (int i = 0; i < 16; ++i) out[i][0] = a[i], out[i][1] = out[i][2] = 0, out[i][3] = 255;
      return true;
    case BlockKind::BC5U:
      alpha_block(b, a);
      alpha_block(b + 8, g);
      for (int i = 0; i < 16; ++i) out[i][0] = a[i], out[i][1] = g[i], out[i][2] = 0, out[i][3] = 255;
      return true;
    case BlockKind::BC1:
      color_block(b, false, out);
      return true;
    case BlockKind::BC2:
      color_block(b + 8, true, out);
      for (int i = 0; i < 16; ++i) out[i][3] = static_cast<uint8_t>(((b[i / 2] >> (4 * (i % 2))) & 15) * 17);
      return true;
    case BlockKind::BC3:
      color_block(b + 8, true, out);
      alpha_block(b, a);
      for (int i = 0; i < 16; ++i) out[i][3] = a[i];
      return true;
    case BlockKind::BC7:
      decode_bc7(b, out);
      return true;
    default:
      return false;
  }
}

bool decodes_to_bytes(BlockKind kind) {
  return kind == BlockKind::BC1 || kind == BlockKind::BC2 || kind == BlockKind::BC3 || kind == BlockKind::BC7 ||
         kind == BlockKind::BC4U || kind == BlockKind::BC5U;
}

void decode_block(BlockKind kind, const uint8_t* b, float out[16][4]) {
  if (is_etc_kind(kind)) {
    decode_etc_block(kind, b, out);
    return;
  }
  uint8_t t8[16][4];
  const bool bytes = kind == BlockKind::BC1 || kind == BlockKind::BC2 || kind == BlockKind::BC3 || kind == BlockKind::BC7;
  if (bytes && decode_block_rgba8(kind, b, t8)) {
    for (int i = 0; i < 16; ++i)
      for (int c = 0; c < 4; ++c) out[i][c] = unit(t8[i][c]);
    return;
  }
  float v[16], g[16];
  switch (kind) {
    case BlockKind::BC4U:
    case BlockKind::BC4S:
      value_block(b, kind == BlockKind::BC4S, v);
      for (int i = 0; i < 16; ++i) set_texel(out[i], v[i], 0, 0, 1);
      return;
    case BlockKind::BC5U:
    case BlockKind::BC5S:
      value_block(b, kind == BlockKind::BC5S, v);
      value_block(b + 8, kind == BlockKind::BC5S, g);
      for (int i = 0; i < 16; ++i) set_texel(out[i], v[i], g[i], 0, 1);
      return;
    case BlockKind::BC6HU:
    case BlockKind::BC6HS:
      decode_bc6h(b, kind == BlockKind::BC6HS, out);
      return;
    default:
      return;
  }
}

}  // namespace swz::detail
