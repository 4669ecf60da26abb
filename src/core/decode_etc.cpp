// swz — ETC2 and EAC block decoders. Source: decode_etc.hpp (the Khronos Data
// Format Specification's ETC2 chapter); the section each rule comes from is
// named where it is used.
#include "core/decode_etc.hpp"

#include <algorithm>

namespace swz::detail {
namespace {

// A block's 64-bit word: byte q0 is the most significant ("int64bit").
uint64_t word64(const uint8_t* q) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | q[i];
  return v;
}

// Bits hi..lo of w.
int bits(uint64_t w, int hi, int lo) { return static_cast<int>((w >> lo) & ((uint64_t{1} << (hi - lo + 1)) - 1)); }

int clamp255(int v) { return std::clamp(v, 0, 255); }
int extend4(int v) { return v * 17; }
int extend5(int v) { return (v << 3) | (v >> 2); }
int extend6(int v) { return (v << 2) | (v >> 4); }
int extend7(int v) { return (v << 1) | (v >> 6); }

// Table "ETC2 intensity modifier sets for individual and differential modes":
// the two magnitudes (a, b) of each table codeword.
constexpr int kModifiers[8][2] = {{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}};
// Table "Distance table for ETC2 T and H modes".
constexpr int kDistances[8] = {3, 6, 11, 16, 23, 32, 41, 64};
// Table "Intensity modifier sets for RGBA ETC2 alpha component" (shared by R11 EAC).
constexpr int kEacModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

// The 2-bit pixel index of the texel at (x, y): pixels a..p run down the
// columns, MSB in bit 16 + i, LSB in bit i (layout "f").
int pixel_index(uint64_t w, int x, int y) {
  const int i = x * 4 + y;
  return static_cast<int>(((w >> (16 + i)) & 1) << 1 | ((w >> i) & 1));
}

struct Rgb {
  int c[3];
};

void put(float* t, const Rgb& v, int alpha) {
  for (int k = 0; k < 3; ++k) t[k] = static_cast<float>(clamp255(v.c[k])) / 255.0f;
  t[3] = static_cast<float>(alpha) / 255.0f;
}

Rgb plus(const Rgb& v, int d) { return Rgb{{v.c[0] + d, v.c[1] + d, v.c[2] + d}}; }

// Individual and differential modes: two subblocks, each a base colour and a
// modifier table. With punch-through alpha and the opaque bit clear, the
// small modifiers are 0 and index 2 (MSB 1, LSB 0) is transparent black.
void decode_subblocks(uint64_t w, bool differential, bool punch, bool opaque, float out[16][4]) {
  Rgb base[2];
  for (int k = 0; k < 3; ++k) {
    const int hi = 63 - 8 * k;
    if (differential) {
      const int c = bits(w, hi, hi - 4), d = bits(w, hi - 5, hi - 7);
      base[0].c[k] = extend5(c);
      base[1].c[k] = extend5(c + (d >= 4 ? d - 8 : d));
    } else {
      base[0].c[k] = extend4(bits(w, hi, hi - 3));
      base[1].c[k] = extend4(bits(w, hi - 4, hi - 7));
    }
  }
  const int table[2] = {bits(w, 39, 37), bits(w, 36, 34)};
  const bool flip = (w >> 32) & 1;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int sub = flip ? (y >= 2) : (x >= 2);
      const int idx = pixel_index(w, x, y);
      float* t = out[y * 4 + x];
      if (punch && !opaque && idx == 2) {
        t[0] = t[1] = t[2] = t[3] = 0.0f;
        continue;
      }
      int m = kModifiers[table[sub]][idx & 1];
      if (punch && !opaque && (idx & 1) == 0) m = 0;
      put(t, plus(base[sub], idx & 2 ? -m : m), 255);
    }
}

// T and H modes: four paint colours chosen by the pixel index.
void decode_t_or_h(uint64_t w, bool t_mode, bool punch, bool opaque, float out[16][4]) {
  Rgb c1, c2, paint[4];
  if (t_mode) {
    c1 = Rgb{{extend4(bits(w, 60, 59) << 2 | bits(w, 57, 56)), extend4(bits(w, 55, 52)), extend4(bits(w, 51, 48))}};
    c2 = Rgb{{extend4(bits(w, 47, 44)), extend4(bits(w, 43, 40)), extend4(bits(w, 39, 36))}};
    const int d = kDistances[bits(w, 35, 34) << 1 | bits(w, 32, 32)];
    paint[0] = c1;
    paint[1] = plus(c2, d);
    paint[2] = c2;
    paint[3] = plus(c2, -d);
  } else {
    c1 = Rgb{{extend4(bits(w, 62, 59)), extend4(bits(w, 58, 56) << 1 | bits(w, 52, 52)),
              extend4(bits(w, 51, 51) << 3 | bits(w, 49, 47))}};
    c2 = Rgb{{extend4(bits(w, 46, 43)), extend4(bits(w, 42, 39)), extend4(bits(w, 38, 35))}};
    const int v1 = c1.c[0] << 16 | c1.c[1] << 8 | c1.c[2], v2 = c2.c[0] << 16 | c2.c[1] << 8 | c2.c[2];
    const int d = kDistances[bits(w, 34, 34) << 2 | bits(w, 32, 32) << 1 | (v1 >= v2 ? 1 : 0)];
    paint[0] = plus(c1, d);
    paint[1] = plus(c1, -d);
    paint[2] = plus(c2, d);
    paint[3] = plus(c2, -d);
  }
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int idx = pixel_index(w, x, y);
      float* t = out[y * 4 + x];
      if (punch && !opaque && idx == 2)
        t[0] = t[1] = t[2] = t[3] = 0.0f;
      else
        put(t, paint[idx], 255);
    }
}

// Planar mode: three RGB 6:7:6 colours (origin, horizontal, vertical), the
// texels on their plane, rounded half up (layout "g"). Always opaque.
void decode_planar(uint64_t w, float out[16][4]) {
  const Rgb o{{extend6(bits(w, 62, 57)), extend7(bits(w, 56, 56) << 6 | bits(w, 54, 49)),
               extend6(bits(w, 48, 48) << 5 | bits(w, 44, 43) << 3 | bits(w, 41, 39))}};
  const Rgb h{{extend6(bits(w, 38, 34) << 1 | bits(w, 32, 32)), extend7(bits(w, 31, 25)), extend6(bits(w, 24, 19))}};
  const Rgb v{{extend6(bits(w, 18, 13)), extend7(bits(w, 12, 6)), extend6(bits(w, 5, 0))}};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      Rgb p;
      for (int k = 0; k < 3; ++k) p.c[k] = (x * (h.c[k] - o.c[k]) + y * (v.c[k] - o.c[k]) + 4 * o.c[k] + 2) >> 2;
      put(out[y * 4 + x], p, 255);
    }
}

// "Format RGB ETC2" and "Format RGB ETC2 with punchthrough alpha": the mode
// from the differential (or opaque) bit and the overflow of R + Rd, G + Gd,
// B + Bd; without punch-through alpha, differential bit 0 is the individual mode.
void decode_rgb(uint64_t w, bool punch, float out[16][4]) {
  const bool bit33 = (w >> 33) & 1;
  if (!punch && !bit33) {
    decode_subblocks(w, false, false, true, out);
    return;
  }
  auto overflows = [&](int hi) {
    const int c = bits(w, hi, hi - 4), d = bits(w, hi - 5, hi - 7);
    const int sum = c + (d >= 4 ? d - 8 : d);
    return sum < 0 || sum > 31;
  };
  const bool opaque = !punch || bit33;
  if (overflows(63))
    decode_t_or_h(w, true, punch, opaque, out);
  else if (overflows(55))
    decode_t_or_h(w, false, punch, opaque, out);
  else if (overflows(47))
    decode_planar(w, out);
  else
    decode_subblocks(w, true, punch, opaque, out);
}

// One EAC word's 16 values (row-major): "Format RGBA ETC2" alpha (8 bits,
// multiplier 0 gives the base), "Format Unsigned R11 EAC" (base x 8 + 4,
// multiplier 0 counts as 1/8, clamped to [0, 2047]) and "Format Signed R11
// EAC" (base -128 read as -127, no + 4, clamped to [-1023, 1023]). The 3-bit
// index of pixel i (a..p down the columns) is bits 47 - 3i .. 45 - 3i.
enum class Eac : uint8_t { Alpha8, Unsigned11, Signed11 };
void decode_eac(const uint8_t* q, Eac kind, int out[16]) {
  const uint64_t w = word64(q);
  int base = bits(w, 63, 56);
  const int mult = bits(w, 55, 52);
  const int* table = kEacModifiers[bits(w, 51, 48)];
  if (kind == Eac::Signed11) base = std::max(base >= 128 ? base - 256 : base, -127);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const int i = x * 4 + y;
      const int m = table[bits(w, 47 - 3 * i, 45 - 3 * i)];
      int v;
      switch (kind) {
        case Eac::Alpha8: v = clamp255(base + m * mult); break;
        case Eac::Unsigned11: v = std::clamp(base * 8 + 4 + (mult ? m * mult * 8 : m), 0, 2047); break;
        case Eac::Signed11: v = std::clamp(base * 8 + (mult ? m * mult * 8 : m), -1023, 1023); break;
      }
      out[y * 4 + x] = v;
    }
}

}  // namespace

bool is_etc_kind(BlockKind kind) { return kind >= BlockKind::EtcRgb && kind <= BlockKind::EacRg11S; }

void decode_etc_block(BlockKind kind, const uint8_t* b, float out[16][4]) {
  int v[16], g[16];
  switch (kind) {
    case BlockKind::EtcRgb:
    case BlockKind::EtcRgbA1:
      decode_rgb(word64(b), kind == BlockKind::EtcRgbA1, out);
      return;
    case BlockKind::EtcRgba:
      decode_rgb(word64(b + 8), false, out);
      decode_eac(b, Eac::Alpha8, v);
      for (int i = 0; i < 16; ++i) out[i][3] = static_cast<float>(v[i]) / 255.0f;
      return;
    case BlockKind::EacR11U:
    case BlockKind::EacRg11U:
    case BlockKind::EacR11S:
    case BlockKind::EacRg11S: {
      const bool sign = kind == BlockKind::EacR11S || kind == BlockKind::EacRg11S;
      const bool two = kind == BlockKind::EacRg11U || kind == BlockKind::EacRg11S;
      const float scale = sign ? 1023.0f : 2047.0f;
      decode_eac(b, sign ? Eac::Signed11 : Eac::Unsigned11, v);
      if (two) decode_eac(b + 8, sign ? Eac::Signed11 : Eac::Unsigned11, g);
      for (int i = 0; i < 16; ++i) {
        out[i][0] = static_cast<float>(v[i]) / scale;
        out[i][1] = two ? static_cast<float>(g[i]) / scale : 0.0f;
        out[i][2] = 0.0f;
        out[i][3] = 1.0f;
      }
      return;
    }
    default:
      return;
  }
}

}  // namespace swz::detail
