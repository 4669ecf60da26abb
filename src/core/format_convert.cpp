// The Direct3D data conversion rules for one element, and the component map
// of each format that clears, fills and resolves accept.
//
// Sources (public): Direct3D "Data Conversion Rules" (learn.microsoft.com,
// direct3d10/d3d10-graphics-programming-guide-resources-data-conversion):
// FLOAT->UNORM/SNORM/SRGB round to nearest (c * (2^n-1) + 0.5, fraction
// dropped), NaN -> 0, clamping; conversions to a smaller float format round
// toward zero, values past the range give the largest finite value (not INF),
// INF stays INF, NaN stays NaN. The sRGB constants are D3D11's
// D3D11_FLOAT_TO_SRGB_* / D3D11_SRGB_TO_FLOAT_* (d3d11.h). R9G9B9E5: the
// shared-exponent algorithm of the EXT_texture_shared_exponent specification
// (Khronos), which D3D's FLOAT -> RGBE rule follows. Component order of each
// DXGI format: the DXGI_FORMAT documentation (names list components from the
// least significant bit; AYUV: V U Y A bytes; Y410/Y416: U Y V A; YUY2 and
// Y210/Y216: Y0 U Y1 V). Which D3D12_CLEAR_DATA member each format reads:
// the D3D12 ClearTextureSubresources specification's table.
#include "core/format_convert.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>

namespace swz::detail {

namespace {

constexpr Field F(int src, unsigned off, unsigned bits, Num n) {
  return Field{static_cast<int8_t>(src), static_cast<uint8_t>(off), static_cast<uint8_t>(bits), n};
}

// The n fields fs; the clear value's member follows from them (all integers: Uints).
void set(Codec* c, const Field* fs, int n) {
  c->nfields = 0;
  for (int i = 0; i < n; ++i) c->f[c->nfields++] = fs[i];
  bool ints = true;
  for (int i = 0; i < c->nfields; ++i)
    if (c->f[i].num != Num::Uint && c->f[i].num != Num::Sint && c->f[i].num != Num::Zero) ints = false;
  c->member = ints ? ClearMember::Uints : ClearMember::Floats;
}

// The component map of one format: the fields of plane 0 and of plane 1
// (n = 0: the plane has no component), or a special encoding.
struct FormatMap {
  uint32_t dxgi = 0;
  Special special = Special::None;
  bool srgb = false, video = false;
  uint8_t n[2] = {0, 0};
  Field f[2][4] = {};
};

constexpr FormatMap planes(uint32_t dxgi, std::initializer_list<Field> p0, std::initializer_list<Field> p1,
                           bool video = false) {
  FormatMap m;
  m.dxgi = dxgi;
  m.video = video;
  for (const Field& f : p0) m.f[0][m.n[0]++] = f;
  for (const Field& f : p1) m.f[1][m.n[1]++] = f;
  return m;
}
constexpr FormatMap fields(uint32_t dxgi, std::initializer_list<Field> fs) { return planes(dxgi, fs, {}); }
constexpr FormatMap video(uint32_t dxgi, std::initializer_list<Field> p0, std::initializer_list<Field> p1 = {}) {
  return planes(dxgi, p0, p1, true);
}
// n components of `bits` bits each, R G B A order.
constexpr FormatMap rgba(uint32_t dxgi, int n, unsigned bits, Num num) {
  FormatMap m;
  m.dxgi = dxgi;
  for (int i = 0; i < n; ++i) m.f[0][m.n[0]++] = F(i, i * bits, bits, num);
  return m;
}
constexpr FormatMap special(uint32_t dxgi, Special s, bool srgb = false) {
  FormatMap m;
  m.dxgi = dxgi;
  m.special = s;
  m.srgb = srgb;
  return m;
}

// The map of DXGI_FORMAT value dxgi; null for a format without a rule.
const FormatMap* format_map(uint32_t dxgi) {
  constexpr Num U = Num::Unorm, S = Num::Snorm, UI = Num::Uint, SI = Num::Sint, FL = Num::Float, SR = Num::Srgb,
                Z = Num::Zero;
  // One format a line:
  // clang-format off
  static constexpr FormatMap kMaps[] = {
    rgba(2, 4, 32, FL),
    rgba(3, 4, 32, UI),
    rgba(4, 4, 32, SI),
    rgba(6, 3, 32, FL),
    rgba(7, 3, 32, UI),
    rgba(8, 3, 32, SI),
    rgba(10, 4, 16, FL),
    rgba(11, 4, 16, U),
    rgba(12, 4, 16, UI),
    rgba(13, 4, 16, S),
    rgba(14, 4, 16, SI),
    rgba(16, 2, 32, FL),
    rgba(17, 2, 32, UI),
    rgba(18, 2, 32, SI),
    // Planar depth-stencil: plane 0 the depth (R32 element), plane 1 the stencil
    // byte; {}: the plane has no component.
    planes(20, {F(0, 0, 32, FL)}, {F(1, 0, 8, UI)}),  // D32_FLOAT_S8X24_UINT
    planes(21, {F(0, 0, 32, FL)}, {}),  // R32_FLOAT_X8X24_TYPELESS: depth only
    planes(22, {}, {F(1, 0, 8, UI)}),  // X32_TYPELESS_G8X24_UINT: stencil only
    fields(24, {F(0, 0, 10, U), F(1, 10, 10, U), F(2, 20, 10, U), F(3, 30, 2, U)}),
    fields(25, {F(0, 0, 10, UI), F(1, 10, 10, UI), F(2, 20, 10, UI), F(3, 30, 2, UI)}),
    special(26, Special::R11G11B10),
    rgba(28, 4, 8, U),
    fields(29, {F(0, 0, 8, SR), F(1, 8, 8, SR), F(2, 16, 8, SR), F(3, 24, 8, U)}),
    rgba(30, 4, 8, UI),
    rgba(31, 4, 8, S),
    rgba(32, 4, 8, SI),
    rgba(34, 2, 16, FL),
    rgba(35, 2, 16, U),
    rgba(36, 2, 16, UI),
    rgba(37, 2, 16, S),
    rgba(38, 2, 16, SI),
    rgba(40, 1, 32, FL),  // D32_FLOAT
    rgba(41, 1, 32, FL),
    rgba(42, 1, 32, UI),
    rgba(43, 1, 32, SI),
    planes(45, {F(0, 0, 24, U), F(0, 24, 8, Z)}, {F(1, 0, 8, UI)}),  // D24_UNORM_S8_UINT (depth: top byte written 0)
    planes(46, {F(0, 0, 24, U), F(0, 24, 8, Z)}, {}),  // R24_UNORM_X8_TYPELESS: depth only
    planes(47, {}, {F(1, 0, 8, UI)}),  // X24_TYPELESS_G8_UINT: stencil only
    rgba(49, 2, 8, U),
    rgba(50, 2, 8, UI),
    rgba(51, 2, 8, S),
    rgba(52, 2, 8, SI),
    rgba(54, 1, 16, FL),
    rgba(55, 1, 16, U),  // D16_UNORM
    rgba(56, 1, 16, U),
    rgba(57, 1, 16, UI),
    rgba(58, 1, 16, S),
    rgba(59, 1, 16, SI),
    rgba(61, 1, 8, U),
    rgba(62, 1, 8, UI),
    rgba(63, 1, 8, S),
    rgba(64, 1, 8, SI),
    fields(65, {F(3, 0, 8, U)}),  // A8_UNORM
    special(67, Special::Rgbe),
    fields(68, {F(0, 0, 8, U), F(1, 8, 8, U), F(2, 16, 8, U), F(1, 24, 8, U)}),  // R8G8_B8G8: R G0 B G1
    fields(69, {F(1, 0, 8, U), F(0, 8, 8, U), F(1, 16, 8, U), F(2, 24, 8, U)}),  // G8R8_G8B8: G0 R G1 B
    special(71, Special::BC1),
    special(72, Special::BC1, true),
    special(74, Special::BC2),
    special(75, Special::BC2, true),
    special(77, Special::BC3),
    special(78, Special::BC3, true),
    special(80, Special::BC4U),
    special(81, Special::BC4S),
    special(83, Special::BC5U),
    special(84, Special::BC5S),
    fields(85, {F(2, 0, 5, U), F(1, 5, 6, U), F(0, 11, 5, U)}),  // B5G6R5
    fields(86, {F(2, 0, 5, U), F(1, 5, 5, U), F(0, 10, 5, U), F(3, 15, 1, U)}),  // B5G5R5A1
    fields(87, {F(2, 0, 8, U), F(1, 8, 8, U), F(0, 16, 8, U), F(3, 24, 8, U)}),
    fields(88, {F(2, 0, 8, U), F(1, 8, 8, U), F(0, 16, 8, U), F(3, 24, 8, Z)}),
    fields(91, {F(2, 0, 8, SR), F(1, 8, 8, SR), F(0, 16, 8, SR), F(3, 24, 8, U)}),
    fields(93, {F(2, 0, 8, SR), F(1, 8, 8, SR), F(0, 16, 8, SR), F(3, 24, 8, Z)}),
    special(95, Special::BC6HU),
    special(96, Special::BC6HS),
    special(98, Special::BC7),
    special(99, Special::BC7, true),
    // YUV (Uints, raw stored bits).
    video(100, {F(2, 0, 8, UI), F(1, 8, 8, UI), F(0, 16, 8, UI), F(3, 24, 8, UI)}),  // AYUV: V U Y A
    video(101, {F(1, 0, 10, UI), F(0, 10, 10, UI), F(2, 20, 10, UI), F(3, 30, 2, UI)}),  // Y410: U Y V A
    video(102, {F(1, 0, 16, UI), F(0, 16, 16, UI), F(2, 32, 16, UI), F(3, 48, 16, UI)}),  // Y416: U Y V A
    video(103, {F(0, 0, 8, UI)}, {F(1, 0, 8, UI), F(2, 8, 8, UI)}),  // NV12
    video(104, {F(0, 0, 16, UI)}, {F(1, 0, 16, UI), F(2, 16, 16, UI)}),  // P010, P016: 16-bit stored words
    video(105, {F(0, 0, 16, UI)}, {F(1, 0, 16, UI), F(2, 16, 16, UI)}),  // P010, P016: 16-bit stored words
    video(107, {F(0, 0, 8, UI), F(1, 8, 8, UI), F(0, 16, 8, UI), F(2, 24, 8, UI)}),  // YUY2: Y0 U Y1 V
    video(108, {F(0, 0, 16, UI), F(1, 16, 16, UI), F(0, 32, 16, UI), F(2, 48, 16, UI)}),  // Y210/Y216
    video(109, {F(0, 0, 16, UI), F(1, 16, 16, UI), F(0, 32, 16, UI), F(2, 48, 16, UI)}),  // Y210/Y216
    fields(115, {F(2, 0, 4, U), F(1, 4, 4, U), F(0, 8, 4, U), F(3, 12, 4, U)}),  // B4G4R4A4
    fields(191, {F(3, 0, 4, U), F(2, 4, 4, U), F(1, 8, 4, U), F(0, 12, 4, U)}),  // A4B4G4R4
  };
  // clang-format on
  for (const FormatMap& m : kMaps)
    if (m.dxgi == dxgi) return &m;
  return nullptr;
}

Status no_rule(const FormatInfo& f, const char* why) {
  return {Code::unsupported, std::string("format ") + f.name + ": " + why};
}

}  // namespace

Status codec_for(const FormatInfo& fmt, uint32_t plane, Codec* out) {
  if (plane >= fmt.planes)
    return {Code::out_of_range, "plane = " + std::to_string(plane) + " (format " + fmt.name + " has " +
                                    std::to_string(fmt.planes) + " plane" + (fmt.planes == 1 ? ")" : "s)")};
  Codec c;
  c.name = fmt.name;
  PlaneInfo pi;
  SWZ_TRY(plane_info(fmt, plane, &pi));
  c.element_bytes = pi.element_bytes;
  const std::string n = fmt.name;
  if (n.find("TYPELESS") != std::string::npos && n != "R32_FLOAT_X8X24_TYPELESS" && n != "X32_TYPELESS_G8X24_UINT" &&
      n != "R24_UNORM_X8_TYPELESS" && n != "X24_TYPELESS_G8_UINT")
    return no_rule(fmt, "TYPELESS formats have no conversion rule; give a typed format of the same size");
  const FormatMap* m = format_map(fmt.dxgi);
  if (!m)
    return no_rule(fmt,
                   "no D3D12 clear/conversion rule for this format in swz (R10G10B10_XR_BIAS_A2, palette and opaque "
                   "video formats, NV11, P208, V208, V408 are not covered)");
  const unsigned p = plane == 0 ? 0 : 1;
  if (m->special != Special::None) {
    c.special = m->special;
    c.srgb = m->srgb;
  } else if (m->n[p] == 0) {
    c.special = Special::Absent;
  } else {
    set(&c, m->f[p], m->n[p]);
  }
  c.video = m->video;
  *out = c;
  return Status::Ok();
}

// ---- scalar rules ------------------------------------------------------------------------------

uint32_t float_to_unorm(float c, unsigned bits) {
  if (std::isnan(c)) return 0;
  const double m = static_cast<double>((uint64_t{1} << bits) - 1);
  double x = std::min(1.0, std::max(0.0, static_cast<double>(c)));
  return static_cast<uint32_t>(std::floor(x * m + 0.5));
}

int32_t float_to_snorm(float c, unsigned bits) {
  if (std::isnan(c)) return 0;
  const double m = static_cast<double>((uint64_t{1} << (bits - 1)) - 1);
  double x = std::min(1.0, std::max(-1.0, static_cast<double>(c))) * m;
  return static_cast<int32_t>(x >= 0 ? std::floor(x + 0.5) : std::ceil(x - 0.5));
}

double unorm_to_float(uint32_t v, unsigned bits) { return v / static_cast<double>((uint64_t{1} << bits) - 1); }

double snorm_to_float(int32_t v, unsigned bits) {
  const double m = static_cast<double>((uint64_t{1} << (bits - 1)) - 1);
  return std::max(-1.0, v / m);
}

uint32_t float_to_srgb8(float c, unsigned bits) {
  if (std::isnan(c)) return 0;
  double x = std::min(1.0, std::max(0.0, static_cast<double>(c)));
  x = linear_to_srgb(x);
  const double m = std::ldexp(1.0, static_cast<int>(bits)) - 1.0;
  return static_cast<uint32_t>(std::min(m, std::floor(x * m + 0.5)));
}

uint32_t float_to_small_float(float xf, unsigned ebits, unsigned mbits, bool has_sign) {
  const uint32_t emax = (1u << ebits) - 1, sign_bit = has_sign ? 1u << (ebits + mbits) : 0u;
  const uint32_t inf = emax << mbits;
  if (std::isnan(xf)) return inf | (1u << (mbits - 1)) | (has_sign && std::signbit(xf) ? sign_bit : 0u);
  const bool neg = std::signbit(xf);
  if (neg && !has_sign) return 0;  // no sign: negatives (and -INF) clamp to 0
  const uint32_t s = neg ? sign_bit : 0u;
  double x = std::fabs(static_cast<double>(xf));
  if (std::isinf(x)) return s | inf;
  const int bias = static_cast<int>((1u << (ebits - 1)) - 1);
  const uint32_t max_finite = ((emax - 1) << mbits) | ((1u << mbits) - 1);
  const double max_val = std::ldexp(2.0 - std::ldexp(1.0, -static_cast<int>(mbits)), static_cast<int>(emax - 1) - bias);
  if (x >= max_val) return s | max_finite;  // round toward zero: the largest finite value, never INF
  if (x == 0) return s;
  int e;
  (void)std::frexp(x, &e);
  e -= 1;  // x = 1.m * 2^e
  if (e >= 1 - bias) {
    const uint32_t mant =
        static_cast<uint32_t>(std::floor((std::ldexp(x, -e) - 1.0) * std::ldexp(1.0, static_cast<int>(mbits))));
    return s | (static_cast<uint32_t>(e + bias) << mbits) | mant;
  }
  const uint32_t mant = static_cast<uint32_t>(std::floor(std::ldexp(x, static_cast<int>(mbits) - (1 - bias))));
  return s | mant;
}

double small_float_to_double(uint32_t v, unsigned ebits, unsigned mbits, bool has_sign) {
  const uint32_t emax = (1u << ebits) - 1;
  const bool neg = has_sign && ((v >> (ebits + mbits)) & 1);
  const uint32_t e = (v >> mbits) & emax, m = v & ((1u << mbits) - 1);
  const int bias = static_cast<int>((1u << (ebits - 1)) - 1);
  double r;
  if (e == emax)
    r = m ? std::nan("") : INFINITY;
  else if (e == 0)
    r = std::ldexp(static_cast<double>(m), 1 - bias - static_cast<int>(mbits));
  else
    r = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -static_cast<int>(mbits)), static_cast<int>(e) - bias);
  return neg ? -r : r;
}

uint32_t float3_to_rgbe(float r, float g, float b) {
  constexpr int N = 9, B = 15, Emax = 31;
  const double max_v = (511.0 / 512.0) * std::ldexp(1.0, Emax - B);
  auto clampc = [&](float c) { return std::isnan(c) ? 0.0 : std::min(max_v, std::max(0.0, static_cast<double>(c))); };
  const double rc = clampc(r), gc = clampc(g), bc = clampc(b);
  const double mx = std::max(rc, std::max(gc, bc));
  if (mx == 0) return 0;
  int fl;
  (void)std::frexp(mx, &fl);
  fl -= 1;  // floor(log2(mx))
  int exp_p = std::max(-B - 1, fl) + 1 + B;
  double denom = std::ldexp(1.0, exp_p - B - N);
  const double maxm = std::floor(mx / denom + 0.5);
  if (maxm == 512.0) {
    denom *= 2;
    exp_p += 1;
  }
  auto q = [&](double c) { return static_cast<uint32_t>(std::floor(c / denom + 0.5)); };
  return q(rc) | (q(gc) << 9) | (q(bc) << 18) | (static_cast<uint32_t>(exp_p) << 27);
}

void rgbe_to_double3(uint32_t v, double* rgb) {
  const int e = static_cast<int>(v >> 27);
  for (int i = 0; i < 3; ++i) rgb[i] = std::ldexp(static_cast<double>((v >> (9 * i)) & 511u), e - 15 - 9);
}

// ---- bit fields --------------------------------------------------------------------------------

// Fields are at most 32 bits wide (and 57 at most for these two): the bytes
// they touch fit in one 64-bit window.
uint64_t get_bits(const uint8_t* e, unsigned offset, unsigned bits) {
  if (bits == 0) return 0;
  const unsigned first = offset >> 3, shift = offset & 7, nbytes = (shift + bits + 7) >> 3;
  uint64_t w = 0;
  for (unsigned k = 0; k < nbytes; ++k) w |= static_cast<uint64_t>(e[first + k]) << (8 * k);
  return (w >> shift) & ((uint64_t{1} << bits) - 1);
}

void put_bits(uint8_t* e, unsigned offset, unsigned bits, uint64_t v) {
  if (bits == 0) return;
  const unsigned first = offset >> 3, shift = offset & 7, nbytes = (shift + bits + 7) >> 3;
  const uint64_t mask = ((uint64_t{1} << bits) - 1) << shift;
  const uint64_t val = (v << shift) & mask;
  for (unsigned k = 0; k < nbytes; ++k) {
    const uint8_t m = static_cast<uint8_t>(mask >> (8 * k));
    e[first + k] = static_cast<uint8_t>((e[first + k] & ~m) | (static_cast<uint8_t>(val >> (8 * k)) & m));
  }
}

namespace {

uint64_t encode_field_float(const Field& f, double x) {
  const float xf = static_cast<float>(x);
  switch (f.num) {
    case Num::Unorm:
      return float_to_unorm(xf, f.bits);
    case Num::Snorm:
      return static_cast<uint64_t>(static_cast<uint32_t>(float_to_snorm(xf, f.bits))) & ((uint64_t{1} << f.bits) - 1);
    case Num::Srgb:
      return float_to_srgb8(xf, f.bits);
    case Num::Float: {
      if (f.bits == 32) {
        uint32_t u;
        std::memcpy(&u, &xf, 4);
        return u;
      }
      return float_to_small_float(xf, 5, 10, true);  // FLOAT16
    }
    default:
      return 0;
  }
}

// ---- BC constant blocks ------------------------------------------------------------------------

uint16_t rgb565(const double* rgb, bool srgb) {
  auto q = [&](double c, unsigned bits) {
    const float cf = static_cast<float>(c);
    return srgb ? float_to_srgb8(cf, bits) : float_to_unorm(cf, bits);
  };
  return static_cast<uint16_t>((q(rgb[0], 5) << 11) | (q(rgb[1], 6) << 5) | q(rgb[2], 5));
}

// Colour half of BC1/BC2/BC3: color0 = color1 = the value, every index 0.
void bc_color(uint8_t* out, const double* rgb, bool srgb) {
  const uint16_t c = rgb565(rgb, srgb);
  out[0] = out[2] = static_cast<uint8_t>(c);
  out[1] = out[3] = static_cast<uint8_t>(c >> 8);
  std::memset(out + 4, 0, 4);
}

// BC4 (or BC3 alpha) block: red0 = red1 = v, every index 0 (decodes to red0).
void bc4(uint8_t* out, uint8_t v) {
  out[0] = out[1] = v;
  std::memset(out + 2, 0, 6);
}

// One channel's search for BC7 endpoints: keeps in e[0], e[1] the pair
// (a, b) whose interpolation lands closest (d) to the target so far.
struct EndpointPick {
  int* e;
  int err = 1000;  // larger than any 8-bit error; sums of four stay small
  void offer(int d, int a, int b) {
    if (d < err) {
      err = d;
      e[0] = a;
      e[1] = b;
    }
  }
};

// BC7 mode 6 (one subset, RGBA endpoints of 7 bits + a p-bit each, 4-bit
// indices) for a constant colour c[4] (8-bit values): find endpoints e0, e1
// and one index whose interpolation ((64-w)*e0 + w*e1 + 32) >> 6 gives every
// channel exactly (BC7 specification, "BC7 Format", learn.microsoft.com).
int bc7_mode6(uint8_t* out, const uint32_t* c) {
  static const int kW[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
  int best_p0 = 0, best_p1 = 0, best_i = 0, best_err = 1 << 20;
  int best_e[4][2] = {};
  for (int p0 = 0; p0 < 2 && best_err; ++p0)
    for (int p1 = 0; p1 < 2 && best_err; ++p1)
      for (int i = 0; i < 16 && best_err; ++i) {
        const int w = kW[i];
        int err = 0, e[4][2] = {};
        for (int ch = 0; ch < 4; ++ch) {
          EndpointPick pick{e[ch]};
          const int t = static_cast<int>(c[ch]);
          for (int a = p0; a < 256 && pick.err; a += 2) {
            // The b that hit t lie within 32/w of (64t - (64-w)a) / w: try those of parity p1 there.
            const int centre = w ? (64 * t - (64 - w) * a) / w : p1;
            const int reach = w ? 32 / w + 2 : 2;
            int lo = std::max(0, centre - reach);
            const int hi = std::min(255, centre + reach);
            if ((lo & 1) != p1) ++lo;
            for (int b = lo; b <= hi && pick.err; b += 2)
              pick.offer(std::abs((((64 - w) * a + w * b + 32) >> 6) - t), a, b);
          }
          err += pick.err;
        }
        if (err < best_err) {
          best_err = err;
          best_p0 = p0;
          best_p1 = p1;
          best_i = i;
          std::memcpy(best_e, e, sizeof e);
        }
      }
  // The anchor index (texel 0) has an implied 0 top bit: for i >= 8 swap the
  // endpoints and use 15 - i, which gives weight 64 - w (the table is symmetric).
  int i = best_i;
  int p[2] = {best_p0, best_p1};
  if (i >= 8) {
    i = 15 - i;
    for (auto& ch : best_e) std::swap(ch[0], ch[1]);
    std::swap(p[0], p[1]);
  }
  std::memset(out, 0, 16);
  unsigned pos = 0;
  put_bits(out, pos, 7, 1u << 6);  // mode 6: six 0 bits, then a 1
  pos = 7;
  for (int ch = 0; ch < 4; ++ch)
    for (int k = 0; k < 2; ++k) {
      put_bits(out, pos, 7, static_cast<uint64_t>(best_e[ch][k] >> 1));
      pos += 7;
    }
  put_bits(out, pos++, 1, static_cast<uint64_t>(p[0]));
  put_bits(out, pos++, 1, static_cast<uint64_t>(p[1]));
  put_bits(out, pos, 3, static_cast<uint64_t>(i));
  pos += 3;
  for (int t = 1; t < 16; ++t, pos += 4) put_bits(out, pos, 4, static_cast<uint64_t>(i));
  return best_err;
}

// BC7 mode 5 (one subset, RGB endpoints of 7 bits expanded as (v << 1) | (v >> 6),
// alpha endpoints of 8 bits with their own 2-bit indices, rotation 0): RGB from
// one shared colour index (weights 0, 21, 43, 64), alpha exact (a0 = a1 = A,
// alpha indices 0). For colours mode 6 cannot hit, such as (255, 0, 0, 0).
int bc7_mode5(uint8_t* out, const uint32_t* c) {
  static const int kW2[4] = {0, 21, 43, 64};
  auto expand = [](int v) { return (v << 1) | (v >> 6); };
  int best_err = 1 << 20, best_i = 0, best_e[3][2] = {};
  for (int i = 0; i < 4 && best_err; ++i) {
    const int w = kW2[i];
    int err = 0, e[3][2] = {};
    for (int ch = 0; ch < 3; ++ch) {
      EndpointPick pick{e[ch]};
      for (int a = 0; a < 128 && pick.err; ++a)
        for (int b = 0; b < 128 && pick.err; ++b)
          pick.offer(std::abs((((64 - w) * expand(a) + w * expand(b) + 32) >> 6) - static_cast<int>(c[ch])), a, b);
      err += pick.err;
    }
    if (err < best_err) {
      best_err = err;
      best_i = i;
      std::memcpy(best_e, e, sizeof e);
    }
  }
  int i = best_i;
  if (i >= 2) {  // the anchor's top index bit is implied 0: swap the endpoints
    i = 3 - i;
    for (auto& ch : best_e) std::swap(ch[0], ch[1]);
  }
  std::memset(out, 0, 16);
  put_bits(out, 0, 6, 1u << 5);  // mode 5: five 0 bits, then a 1
  unsigned pos = 8;              // rotation (2 bits) = 0
  for (int ch = 0; ch < 3; ++ch)
    for (int k = 0; k < 2; ++k, pos += 7) put_bits(out, pos, 7, static_cast<uint64_t>(best_e[ch][k]));
  put_bits(out, pos, 8, c[3]);
  put_bits(out, pos + 8, 8, c[3]);
  pos += 16;
  put_bits(out, pos, 1, static_cast<uint64_t>(i));  // colour indices: anchor 1 bit, then 15 x 2 bits
  pos += 1;
  for (int t = 1; t < 16; ++t, pos += 2) put_bits(out, pos, 2, static_cast<uint64_t>(i));
  // alpha indices (31 bits) stay 0: every texel takes a0 = A
  return best_err;
}

void bc7_constant(uint8_t* out, const uint32_t* c) {
  if (bc7_mode6(out, c) == 0) return;
  uint8_t m5[16];
  if (bc7_mode5(m5, c) == 0) std::memcpy(out, m5, 16);
}

// BC6H mode 14 (one region, 16-bit endpoint A, 4-bit deltas; mode bits 01111) with
// every index 0: each texel decodes to finish_unquantize(A) ("BC6H Format",
// learn.microsoft.com: unquantize keeps 16-bit endpoints, finish_unquantize
// scales by 31/64 unsigned or 31/32 signed). Field order of the [16 4]
// encoding: m[4:0] rw[9:0] gw[9:0] bw[9:0] rx[3:0] rw[10:15] gx[3:0] gw[10:15]
// bx[3:0] bw[10:15], where [10:15] stores bit 15 first.
void bc6h_constant(uint8_t* out, const double* rgb, bool is_signed) {
  uint32_t a[3];
  for (int ch = 0; ch < 3; ++ch) {
    const float x = static_cast<float>(rgb[ch]);
    bool neg = false;
    uint32_t m = 0;  // target half magnitude, <= 0x7BFF (BC6H has no INF or NaN: NaN -> 0, INF -> the largest value)
    if (!std::isnan(x)) {
      neg = is_signed && x < 0;
      if (!is_signed && x < 0)
        m = 0;
      else if (std::isinf(x))
        m = 0x7BFF;
      else
        m = std::min<uint32_t>(float_to_half(std::fabs(x)) & 0x7FFF, 0x7BFF);
    }
    // The smallest endpoint whose finish_unquantize is m (each step adds 31/64 or 31/32 < 1, so one exists).
    const uint32_t scale = is_signed ? 32 : 64;
    uint32_t e = (m * scale + 30) / 31;
    while (e > 0 && ((e - 1) * 31) / scale >= m) --e;
    while ((e * 31) / scale < m) ++e;
    a[ch] = neg ? (0x10000u - e) & 0xFFFFu : e;
  }
  std::memset(out, 0, 16);
  put_bits(out, 0, 5, 0x0F);
  for (int ch = 0; ch < 3; ++ch) {
    put_bits(out, 5 + 10 * static_cast<unsigned>(ch), 10, a[ch] & 0x3FF);
    const unsigned hi = 35 + 10 * static_cast<unsigned>(ch) + 4;  // after the channel's 4 delta bits (0)
    for (unsigned k = 0; k < 6; ++k) put_bits(out, hi + k, 1, (a[ch] >> (15 - k)) & 1u);
  }
}

void encode_bc(const Codec& c, const ClearValue& v, uint8_t* out) {
  double rgba[4];
  for (int i = 0; i < 4; ++i) rgba[i] = v.f(i);
  switch (c.special) {
    case Special::BC1: {
      bc_color(out, rgba, c.srgb);  // color0 == color1: the 3-colour mode, index 0 = color0
      if (float_to_unorm(static_cast<float>(rgba[3]), 1) == 0)
        std::memset(out + 4, 0xFF, 4);  // index 3: transparent black
      break;
    }
    case Special::BC2: {
      const uint64_t a = float_to_unorm(static_cast<float>(rgba[3]), 4);
      for (int t = 0; t < 16; ++t) put_bits(out, static_cast<unsigned>(4 * t), 4, a);
      bc_color(out + 8, rgba, c.srgb);
      break;
    }
    case Special::BC3:
      bc4(out, static_cast<uint8_t>(float_to_unorm(static_cast<float>(rgba[3]), 8)));
      bc_color(out + 8, rgba, c.srgb);
      break;
    case Special::BC4U:
      bc4(out, static_cast<uint8_t>(float_to_unorm(static_cast<float>(rgba[0]), 8)));
      break;
    case Special::BC4S:
      bc4(out, static_cast<uint8_t>(float_to_snorm(static_cast<float>(rgba[0]), 8)));
      break;
    case Special::BC5U:
      bc4(out, static_cast<uint8_t>(float_to_unorm(static_cast<float>(rgba[0]), 8)));
      bc4(out + 8, static_cast<uint8_t>(float_to_unorm(static_cast<float>(rgba[1]), 8)));
      break;
    case Special::BC5S:
      bc4(out, static_cast<uint8_t>(float_to_snorm(static_cast<float>(rgba[0]), 8)));
      bc4(out + 8, static_cast<uint8_t>(float_to_snorm(static_cast<float>(rgba[1]), 8)));
      break;
    case Special::BC6HU:
      bc6h_constant(out, rgba, false);
      break;
    case Special::BC6HS:
      bc6h_constant(out, rgba, true);
      break;
    case Special::BC7: {
      uint32_t q[4];
      for (int i = 0; i < 3; ++i)
        q[i] = c.srgb ? float_to_srgb8(static_cast<float>(rgba[i]), 8) : float_to_unorm(static_cast<float>(rgba[i]), 8);
      q[3] = float_to_unorm(static_cast<float>(rgba[3]), 8);
      bc7_constant(out, q);
      break;
    }
    default:
      break;
  }
}

}  // namespace

void encode_fields(const Codec& c, const double* in, uint8_t* out) {
  if (c.special == Special::R11G11B10) {
    const uint32_t v = float_to_small_float(static_cast<float>(in[0]), 5, 6, false) |
                       (float_to_small_float(static_cast<float>(in[1]), 5, 6, false) << 11) |
                       (float_to_small_float(static_cast<float>(in[2]), 5, 5, false) << 22);
    std::memcpy(out, &v, 4);
    return;
  }
  if (c.special == Special::Rgbe) {
    const uint32_t v = float3_to_rgbe(static_cast<float>(in[0]), static_cast<float>(in[1]), static_cast<float>(in[2]));
    std::memcpy(out, &v, 4);
    return;
  }
  for (int i = 0; i < c.nfields; ++i) {
    const Field& f = c.f[i];
    uint64_t bits;
    if (f.num == Num::Zero)
      bits = 0;
    else if (f.num == Num::Uint || f.num == Num::Sint)
      bits = static_cast<uint64_t>(static_cast<int64_t>(in[i]));
    else
      bits = encode_field_float(f, in[i]);
    if (f.bits < 64) bits &= (uint64_t{1} << f.bits) - 1;
    put_bits(out, f.offset, f.bits, bits);
  }
}

void decode_fields(const Codec& c, const uint8_t* in, double* out) {
  if (c.special == Special::R11G11B10) {
    uint32_t v;
    std::memcpy(&v, in, 4);
    out[0] = small_float_to_double(v & 0x7FF, 5, 6, false);
    out[1] = small_float_to_double((v >> 11) & 0x7FF, 5, 6, false);
    out[2] = small_float_to_double(v >> 22, 5, 5, false);
    return;
  }
  if (c.special == Special::Rgbe) {
    uint32_t v;
    std::memcpy(&v, in, 4);
    rgbe_to_double3(v, out);
    return;
  }
  for (int i = 0; i < c.nfields; ++i) {
    const Field& f = c.f[i];
    const uint64_t b = get_bits(in, f.offset, f.bits);
    const int64_t sb = f.bits < 64 && ((b >> (f.bits - 1)) & 1) ? static_cast<int64_t>(b) - (int64_t{1} << f.bits)
                                                                : static_cast<int64_t>(b);
    switch (f.num) {
      case Num::Unorm:
        out[i] = unorm_to_float(static_cast<uint32_t>(b), f.bits);
        break;
      case Num::Snorm:
        out[i] = snorm_to_float(static_cast<int32_t>(sb), f.bits);
        break;
      case Num::Srgb:
        out[i] = srgb_to_linear(unorm_to_float(static_cast<uint32_t>(b), f.bits));
        break;
      case Num::Uint:
        out[i] = static_cast<double>(b);
        break;
      case Num::Sint:
        out[i] = static_cast<double>(sb);
        break;
      case Num::Float:
        if (f.bits == 32) {
          const uint32_t u = static_cast<uint32_t>(b);
          float x;
          std::memcpy(&x, &u, 4);
          out[i] = x;
        } else {
          out[i] = half_to_double(static_cast<uint16_t>(b));
        }
        break;
      case Num::Zero:
        out[i] = 0;
        break;
    }
  }
}

void encode_clear(const Codec& c, const ClearValue& v, uint8_t* out) {
  std::memset(out, 0, c.element_bytes);
  switch (c.special) {
    case Special::Absent:
      return;
    case Special::R11G11B10:
    case Special::Rgbe: {
      const double in[3] = {v.f(0), v.f(1), v.f(2)};
      encode_fields(c, in, out);
      return;
    }
    case Special::None: {
      double in[4] = {};
      for (int i = 0; i < c.nfields; ++i) {
        const Field& f = c.f[i];
        // Integers: the low n bits of Uints[src], bit for bit (D3D12_CLEAR_DATA "Uints").
        if (f.num == Num::Uint || f.num == Num::Sint)
          in[i] = static_cast<double>(v.u(f.src));
        else
          in[i] = v.f(f.src);
      }
      // FLOAT32 components keep the caller's bits exactly (no conversion: same representation).
      encode_fields(c, in, out);
      for (int i = 0; i < c.nfields; ++i)
        if (c.f[i].num == Num::Float && c.f[i].bits == 32) put_bits(out, c.f[i].offset, 32, v.u(c.f[i].src));
      return;
    }
    default:
      encode_bc(c, v, out);
      return;
  }
}

}  // namespace swz::detail
