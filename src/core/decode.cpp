// swz — decoding texels into RGBA8 / RGBA32F pixels. The view mapping and
// the formats covered: swz/decode.hpp. Component maps come from the one
// format table of conversions (core/format_convert.cpp); block formats from
// core/decode_bc.cpp (BC), core/decode_etc.cpp (ETC2, EAC) and
// core/decode_astc.cpp (ASTC, through libastcenc); the linear buffers' sizes
// and pitches from the one linear rule (core/request.cpp, resolve_linear).
//
// YUV: the Y'CbCr equations of ITU-R BT.601 (Kr = 0.299, Kb = 0.114) and
// BT.709 (Kr = 0.2126, Kb = 0.0722); limited range puts black at 16 and
// white at 235 (chroma 16-240) times 2^(bits-8). XR_BIAS: (v - 384) / 510
// for the 10-bit colour fields (DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM).
#include "swz/decode.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/checked_math.hpp"
#include "core/decode_astc.hpp"
#include "core/decode_bc.hpp"
#include "core/format_convert.hpp"
#include "core/kernel.hpp"
#include "core/request.hpp"

namespace swz {
namespace {

using detail::BlockKind;
using detail::Codec;
using detail::Field;
using detail::Num;
using detail::Special;

// How each of R, G, B, A of a decoded texel maps to 8 bits.
enum class Domain : uint8_t { Absent, Unorm, Srgb, Snorm, Uint, Sint, Float, Depth, Stencil };

// How one format's texels are read.
enum class Reading : uint8_t { Fields, Block, Astc, TwoTexel, Yuv422, Yuv444, XrBias, Yuv420, Palette };

struct Reader {
  FormatInfo format;
  Reading reading = Reading::Fields;
  Codec codec;
  BlockKind block = BlockKind::BC1;
  Domain domain[4] = {Domain::Absent, Domain::Absent, Domain::Absent, Domain::Absent};
  unsigned bits[4] = {0, 0, 0, 0};  // integer and normalized widths (UINT/SINT views)
  unsigned yuv_bits = 8;            // code value width of a YUV format
  unsigned yuv_shift = 0;           // Y210: the 10 bits sit at the top of 16-bit words
  detail::AstcRows* astc = nullptr;  // ASTC: the decoder of the decode in progress (Job::astc)
};

Status refuse(const FormatInfo& f, const std::string& why) {
  return {Code::unsupported, std::string("format ") + f.name + " cannot be decoded: " + why};
}

Domain domain_of(Num n) {
  switch (n) {
    case Num::Unorm: return Domain::Unorm;
    case Num::Srgb: return Domain::Srgb;
    case Num::Snorm: return Domain::Snorm;
    case Num::Uint: return Domain::Uint;
    case Num::Sint: return Domain::Sint;
    case Num::Float: return Domain::Float;
    case Num::Zero: return Domain::Absent;
  }
  return Domain::Absent;
}

// The caller's FormatInfo must be the table's entry for its DXGI value: the
// readers take element sizes from the format, and its fields size the buffers.
Status check_format_info(const FormatInfo& f) {
  FormatInfo t;
  if (find_format(f.dxgi, &t).ok() && f.name && std::strcmp(f.name, t.name) == 0 &&
      f.element_bytes == t.element_bytes && f.block_width == t.block_width && f.block_height == t.block_height &&
      f.planes == t.planes && f.depth_stencil == t.depth_stencil)
    return Status::Ok();
  return {Code::invalid_argument, std::string("format = ") + (f.name ? f.name : "(null name)") + " (DXGI_FORMAT " +
                                      std::to_string(f.dxgi) + ", " + std::to_string(f.element_bytes) +
                                      "-byte elements of " + std::to_string(f.block_width) + "x" +
                                      std::to_string(f.block_height) +
                                      " texels) is not swz's entry for that DXGI_FORMAT; take it from find_format"};
}

Status make_reader(const FormatInfo& f, bool stencil, Reader* out) {
  SWZ_TRY(check_format_info(f));
  Reader r;
  r.format = f;
  const FormatFacts facts = format_facts(f);
  if (detail::block_kind_of(f.dxgi, &r.block)) {
    r.reading = Reading::Block;
    const bool srgb = facts.srgb;
    switch (r.block) {
      case BlockKind::BC1: case BlockKind::BC2: case BlockKind::BC3: case BlockKind::BC7:
      case BlockKind::EtcRgbA1: case BlockKind::EtcRgba:
        for (int c = 0; c < 4; ++c) r.domain[c] = (srgb && c < 3) ? Domain::Srgb : Domain::Unorm;
        break;
      case BlockKind::EtcRgb:
        for (int c = 0; c < 3; ++c) r.domain[c] = srgb ? Domain::Srgb : Domain::Unorm;
        break;
      case BlockKind::BC4U: case BlockKind::EacR11U: r.domain[0] = Domain::Unorm; break;
      case BlockKind::BC4S: case BlockKind::EacR11S: r.domain[0] = Domain::Snorm; break;
      case BlockKind::BC5U: case BlockKind::EacRg11U: r.domain[0] = r.domain[1] = Domain::Unorm; break;
      case BlockKind::BC5S: case BlockKind::EacRg11S: r.domain[0] = r.domain[1] = Domain::Snorm; break;
      case BlockKind::BC6HU: case BlockKind::BC6HS:
        r.domain[0] = r.domain[1] = r.domain[2] = Domain::Float;
        break;
    }
    *out = r;
    return Status::Ok();
  }
  if ((f.dxgi >= 0x93B0 && f.dxgi <= 0x93BD) || (f.dxgi >= 0x93D0 && f.dxgi <= 0x93DD)) {  // ASTC, 2D LDR
    SWZ_TRY(detail::check_astc_built(f.name));
    r.reading = Reading::Astc;
    for (int c = 0; c < 4; ++c) r.domain[c] = (facts.srgb && c < 3) ? Domain::Srgb : Domain::Unorm;
    *out = r;
    return Status::Ok();
  }
  if (f.dxgi == 89) {  // R10G10B10_XR_BIAS_A2_UNORM
    r.reading = Reading::XrBias;
    r.domain[0] = r.domain[1] = r.domain[2] = Domain::Float;
    r.domain[3] = Domain::Unorm;
    *out = r;
    return Status::Ok();
  }
  if (f.depth_stencil) {
    // Depth in plane 0's element; D24_UNORM_S8_UINT's stencil in its top byte.
    const std::string n = f.name;
    const bool d24 = n.rfind("R24", 0) == 0 || n.rfind("D24", 0) == 0 || n.rfind("X24", 0) == 0;
    const bool stencil_only = n.rfind("X24", 0) == 0 || n.rfind("X32", 0) == 0;
    if (stencil || stencil_only) {
      if (!d24)
        return refuse(f, "its stencil is in plane 1, not in the depth elements; decode plane 1's bytes as R8_UINT");
      r.codec.nfields = 1;
      r.codec.f[0] = Field{0, 24, 8, Num::Uint};
      r.domain[0] = Domain::Stencil;
    } else if (d24) {
      r.codec.nfields = 1;
      r.codec.f[0] = Field{0, 0, 24, Num::Unorm};
      r.domain[0] = Domain::Depth;
    } else {
      r.codec.nfields = 1;
      r.codec.f[0] = n == "D16_UNORM" ? Field{0, 0, 16, Num::Unorm} : Field{0, 0, 32, Num::Float};
      r.domain[0] = Domain::Depth;
    }
    *out = r;
    return Status::Ok();
  }
  const std::string n = f.name;
  if (n == "NV12" || n == "P010" || n == "P016") {
    r.reading = Reading::Yuv420;
    r.yuv_bits = n == "NV12" ? 8 : n == "P010" ? 10 : 16;
    r.yuv_shift = n == "P010" ? 6 : 0;
    r.domain[0] = r.domain[1] = r.domain[2] = Domain::Unorm;
    *out = r;
    return Status::Ok();
  }
  if (n == "NV11" || n == "P208" || n == "V208" || n == "V408" || n == "420_OPAQUE")
    return refuse(f, "this planar video format is not decoded; decode its luma plane as R8_UNORM");
  if (n == "P8" || n == "A8P8" || n == "AI44" || n == "IA44") {
    r.reading = Reading::Palette;
    for (auto& d : r.domain) d = Domain::Unorm;
    *out = r;
    return Status::Ok();
  }
  if (facts.numeric == NumericKind::Typeless) {
    std::string members;
    size_t n_all = 0;
    const FormatInfo* all = all_formats(&n_all);
    for (size_t i = 0; i < n_all; ++i) {
      const FormatFacts g = format_facts(all[i]);
      if (g.cast_family == facts.cast_family && g.numeric != NumericKind::Typeless)
        members += (members.empty() ? "" : ", ") + std::string(all[i].name);
    }
    return refuse(f, "TYPELESS formats have no meaning of their own; give a typed member of the " +
                         facts.cast_family + " family" + (members.empty() ? std::string() : " (" + members + ")"));
  }
  SWZ_TRY(detail::codec_for(f, 0, &r.codec));
  if (r.codec.video) {
    r.reading = (n == "YUY2" || n == "Y210" || n == "Y216") ? Reading::Yuv422 : Reading::Yuv444;
    r.yuv_bits = n == "AYUV" || n == "YUY2" ? 8 : (n == "Y410" || n == "Y210") ? 10 : 16;
    r.yuv_shift = n == "Y210" ? 6 : 0;
    r.domain[0] = r.domain[1] = r.domain[2] = Domain::Unorm;
    if (n == "AYUV" || n == "Y410" || n == "Y416") r.domain[3] = Domain::Unorm;
    *out = r;
    return Status::Ok();
  }
  if (f.block_width == 2) r.reading = Reading::TwoTexel;  // R8G8_B8G8, G8R8_G8B8
  if (r.codec.special == Special::R11G11B10 || r.codec.special == Special::Rgbe) {
    r.domain[0] = r.domain[1] = r.domain[2] = Domain::Float;
  } else {
    for (int i = 0; i < r.codec.nfields; ++i) {
      const Field& fl = r.codec.f[i];
      if (fl.num == Num::Zero) continue;
      r.domain[fl.src] = domain_of(fl.num);
      r.bits[fl.src] = fl.bits;
    }
  }
  *out = r;
  return Status::Ok();
}

// ---- reading texels -------------------------------------------------------------------------------

// The raw value of a field: UNORM / sRGB in [0, 1] (sRGB still encoded),
// SNORM in [-1, 1], integers as numbers, floats as stored.
float field_value(const Field& f, const uint8_t* e) {
  const uint64_t b = detail::get_bits(e, f.offset, f.bits);
  const int64_t sb = ((b >> (f.bits - 1)) & 1) ? static_cast<int64_t>(b) - (int64_t{1} << f.bits)
                                               : static_cast<int64_t>(b);
  switch (f.num) {
    case Num::Unorm:
    case Num::Srgb: return static_cast<float>(detail::unorm_to_float(static_cast<uint32_t>(b), f.bits));
    case Num::Snorm: return static_cast<float>(detail::snorm_to_float(static_cast<int32_t>(sb), f.bits));
    case Num::Uint: return static_cast<float>(b);
    case Num::Sint: return static_cast<float>(sb);
    case Num::Float:
      if (f.bits == 32) {
        const uint32_t u = static_cast<uint32_t>(b);
        float x;
        std::memcpy(&x, &u, 4);
        return x;
      }
      return static_cast<float>(detail::half_to_double(static_cast<uint16_t>(b)));
    case Num::Zero: return 0.0f;
  }
  return 0.0f;
}

struct Yuv {
  double kr, kb;
  bool full;
  unsigned bits;
};

void yuv_to_rgb(const Yuv& m, double y, double u, double v, float* rgb) {
  const double max = std::ldexp(1.0, static_cast<int>(m.bits)) - 1, s = std::ldexp(1.0, static_cast<int>(m.bits) - 8);
  double yn, cb, cr;
  if (m.full) {
    yn = y / max;
    cb = (u - std::ldexp(1.0, static_cast<int>(m.bits) - 1)) / max;
    cr = (v - std::ldexp(1.0, static_cast<int>(m.bits) - 1)) / max;
  } else {
    yn = (y - 16 * s) / (219 * s);
    cb = (u - 128 * s) / (224 * s);
    cr = (v - 128 * s) / (224 * s);
  }
  const double kg = 1 - m.kr - m.kb;
  rgb[0] = static_cast<float>(yn + 2 * (1 - m.kr) * cr);
  rgb[1] = static_cast<float>(yn - 2 * m.kb * (1 - m.kb) / kg * cb - 2 * m.kr * (1 - m.kr) / kg * cr);
  rgb[2] = static_cast<float>(yn + 2 * (1 - m.kb) * cb);
  for (int c = 0; c < 3; ++c) rgb[c] = std::clamp(rgb[c], 0.0f, 1.0f);
}

// One row of a 4:2:0 image: luma bytes or 16-bit words at `luma`, the U, V
// pairs of its chroma row at `chroma`.
void read_yuv420_row(const Reader& r, const Yuv& yuv, const uint8_t* luma, const uint8_t* chroma, uint32_t width_px,
                     float* out) {
  const unsigned wb = r.yuv_bits == 8 ? 1 : 2;
  auto word = [&](const uint8_t* p) {
    return static_cast<double>((wb == 1 ? p[0] : static_cast<unsigned>(p[0] | (p[1] << 8))) >> r.yuv_shift);
  };
  for (uint32_t x = 0; x < width_px; ++x) {
    const uint8_t* c = chroma + size_t{x / 2} * 2 * wb;
    yuv_to_rgb(yuv, word(luma + size_t{x} * wb), word(c), word(c + wb), out + size_t{x} * 4);
    out[size_t{x} * 4 + 3] = 1.0f;
  }
}

// One row of palette indices: P8 (index), A8P8 (alpha, index), AI44 (alpha
// low nibble), IA44 (index low nibble); colours from `palette` (RGBA8 view
// values, `entries` of them).
void read_palette_row(const Reader& r, const uint8_t* src, uint32_t width_px, const std::vector<uint8_t>& palette,
                      float* out) {
  const std::string n = r.format.name;
  const size_t entries = palette.size() / 4;
  for (uint32_t x = 0; x < width_px; ++x) {
    unsigned index, alpha = 256;  // 256: the palette's own alpha
    if (n == "P8") {
      index = src[x];
    } else if (n == "A8P8") {
      alpha = src[size_t{x} * 2];
      index = src[size_t{x} * 2 + 1];
    } else if (n == "AI44") {
      alpha = (src[x] & 15u) * 17u;
      index = src[x] >> 4;
    } else {
      index = src[x] & 15u;
      alpha = (src[x] >> 4) * 17u;
    }
    float* p = out + size_t{x} * 4;
    if (index >= entries) {
      p[0] = p[1] = p[2] = p[3] = 0.0f;
      continue;
    }
    for (int c = 0; c < 4; ++c) p[c] = static_cast<float>(palette[size_t{index} * 4 + c]) / 255.0f;
    if (alpha < 256) p[3] = static_cast<float>(alpha) / 255.0f;
  }
}

// Decodes one row of elements (for block formats: one row of blocks, a
// block's height of texel rows) into `rows` rows of width_px texels of four
// floats, rows width_px * 4 floats apart.
void read_row(const Reader& r, const Yuv& yuv, const uint8_t* src, uint32_t width_px, uint32_t rows, float* out) {
  const uint32_t eb = r.reading == Reading::Block ? detail::block_bytes(r.block) : r.format.element_bytes;
  const size_t stride = size_t{width_px} * 4;
  auto px = [&](uint32_t row, uint32_t x) { return out + row * stride + size_t{x} * 4; };
  switch (r.reading) {
    case Reading::Astc:
      r.astc->decode_row(src, width_px, rows, out);
      return;
    case Reading::Block: {
      float t[16][4];
      for (uint32_t bx = 0; bx * 4 < width_px; ++bx) {
        detail::decode_block(r.block, src + size_t{bx} * eb, t);
        for (uint32_t j = 0; j < rows; ++j)
          for (uint32_t i = 0; i < 4 && bx * 4 + i < width_px; ++i) std::memcpy(px(j, bx * 4 + i), t[j * 4 + i], 16);
      }
      return;
    }
    case Reading::XrBias:
      for (uint32_t x = 0; x < width_px; ++x) {
        const uint8_t* e = src + size_t{x} * 4;
        float* p = px(0, x);
        for (int c = 0; c < 3; ++c)
          p[c] = (static_cast<float>(detail::get_bits(e, 10 * c, 10)) - 384.0f) / 510.0f;
        p[3] = static_cast<float>(detail::get_bits(e, 30, 2)) / 3.0f;
      }
      return;
    case Reading::Yuv444:
    case Reading::Yuv422: {
      // Fields hold Y (src 0), U (1), V (2) and A (3); a 4:2:2 element holds
      // Y0, U, Y1, V for two texels.
      for (uint32_t x = 0; x < width_px; ++x) {
        const uint8_t* e = src + size_t{r.reading == Reading::Yuv422 ? x / 2 : x} * eb;
        double c[4] = {0, 0, 0, -1};
        int ys = 0;
        for (int i = 0; i < r.codec.nfields; ++i) {
          const Field& f = r.codec.f[i];
          const double v = static_cast<double>(detail::get_bits(e, f.offset, f.bits) >> r.yuv_shift);
          if (f.src == 0) {
            if (ys++ == static_cast<int>(r.reading == Reading::Yuv422 ? x % 2 : 0)) c[0] = v;
          } else {
            c[f.src] = f.src == 3 ? v / (std::ldexp(1.0, f.bits) - 1) : v;
          }
        }
        float* p = px(0, x);
        yuv_to_rgb(yuv, c[0], c[1], c[2], p);
        p[3] = c[3] < 0 ? 1.0f : static_cast<float>(c[3]);
      }
      return;
    }
    case Reading::Yuv420:
    case Reading::Palette:
      return;  // read by read_yuv420_row and read_palette_row
    case Reading::TwoTexel:
    case Reading::Fields:
      for (uint32_t x = 0; x < width_px; ++x) {
        const bool pair = r.reading == Reading::TwoTexel;
        const uint8_t* e = src + size_t{pair ? x / 2 : x} * eb;
        float* p = px(0, x);
        p[0] = p[1] = p[2] = 0.0f;
        p[3] = 1.0f;
        if (r.codec.special == Special::R11G11B10 || r.codec.special == Special::Rgbe) {
          double v[4];
          detail::decode_fields(r.codec, e, v);
          for (int c = 0; c < 3; ++c) p[c] = static_cast<float>(v[c]);
          continue;
        }
        int greens = 0;
        for (int i = 0; i < r.codec.nfields; ++i) {
          const Field& f = r.codec.f[i];
          if (f.num == Num::Zero) continue;
          // A two-texel element holds two greens: texel x takes green number x % 2.
          if (pair && f.src == 1 && greens++ != static_cast<int>(x % 2)) continue;
          p[f.src] = field_value(f, e);
        }
      }
      return;
  }
}

// ---- the view mapping ----------------------------------------------------------------------------

struct View {
  const Reader* r;
  DecodeOptions o;
  double depth_lo = 0, depth_hi = 1;
  bool depth_constant = false;
  float exposure = 1.0f;
};

float tone(const View& v, float x) {
  if (std::isnan(x)) return 0.0f;
  x *= v.exposure;
  if (v.o.tone_map == ToneMap::reinhard) x = std::isinf(x) ? (x > 0 ? 1.0f : 0.0f) : x > 0 ? x / (1.0f + x) : 0.0f;
  return std::clamp(x, 0.0f, 1.0f);
}

// A component in [0, 1] for display.
float view_value(const View& v, int c, float x) {
  const Reader& r = *v.r;
  switch (r.domain[c]) {
    case Domain::Absent: return c == 3 ? 1.0f : 0.0f;
    case Domain::Unorm:
    case Domain::Srgb: return std::isnan(x) ? 0.0f : std::clamp(x, 0.0f, 1.0f);
    case Domain::Snorm: return std::clamp((x + 1.0f) * 0.5f, 0.0f, 1.0f);
    case Domain::Uint: {
      const double max = std::ldexp(1.0, static_cast<int>(r.bits[c])) - 1;
      return static_cast<float>(std::clamp(x / max, 0.0, 1.0));
    }
    case Domain::Sint: {
      const double max = std::ldexp(1.0, static_cast<int>(r.bits[c]) - 1) - 1;
      return static_cast<float>(std::clamp((x / max + 1) * 0.5, 0.0, 1.0));
    }
    case Domain::Float:
      if (c != 3) return tone(v, x);
      return std::isnan(x) ? 0.0f : std::clamp(x, 0.0f, 1.0f);
    case Domain::Depth:
      if (!std::isfinite(x)) return x > 0 ? 1.0f : 0.0f;
      if (v.depth_constant) return std::clamp(x, 0.0f, 1.0f);
      return static_cast<float>(std::clamp((x - v.depth_lo) / (v.depth_hi - v.depth_lo), 0.0, 1.0));
    case Domain::Stencil: return x / 255.0f;
  }
  return 0.0f;
}

// A component as a shader reads it (RGBA32F).
float shader_value(const Reader& r, int c, float x) {
  switch (r.domain[c]) {
    case Domain::Absent: return c == 3 ? 1.0f : 0.0f;
    case Domain::Srgb: return static_cast<float>(srgb_to_linear(x));
    default: return x;
  }
}

// Channel views: one component as opaque grey, or the colour opaque. For
// viewing (grey_single), a format with only red is shown grey.
void arrange(const Reader& r, ViewChannel ch, bool grey_single, float* p) {
  const bool only_red = r.domain[0] != Domain::Absent && r.domain[1] == Domain::Absent &&
                        r.domain[2] == Domain::Absent && r.domain[3] == Domain::Absent;
  if (grey_single && only_red && ch == ViewChannel::rgba) ch = ViewChannel::r;
  switch (ch) {
    case ViewChannel::rgba: return;
    case ViewChannel::rgb: p[3] = 1.0f; return;
    default: {
      const float g = p[static_cast<int>(ch) - static_cast<int>(ViewChannel::r)];
      p[0] = p[1] = p[2] = g;
      p[3] = 1.0f;
    }
  }
}

// Whether every component of a one-texel format is an 8-bit UNORM or sRGB
// byte; if so, src_byte[c] is the byte of R, G, B, A (-1: absent), with a
// red-only format's red shown grey as arrange() shows it.
bool byte_view(const Reader& r, int src_byte[4]) {
  if (r.reading != Reading::Fields || r.codec.special != Special::None) return false;
  for (int c = 0; c < 4; ++c) src_byte[c] = -1;
  for (int i = 0; i < r.codec.nfields; ++i) {
    const Field& f = r.codec.f[i];
    if (f.num == Num::Zero) continue;
    if ((f.num != Num::Unorm && f.num != Num::Srgb) || f.bits != 8 || f.offset % 8) return false;
    src_byte[f.src] = f.offset / 8;
  }
  const bool only_red = src_byte[0] >= 0 && src_byte[1] < 0 && src_byte[2] < 0 && src_byte[3] < 0;
  if (only_red) src_byte[1] = src_byte[2] = src_byte[0];
  return true;
}

// An enum option past its last value: invalid_argument naming the field and
// the values it takes.
template <class E>
Status check_enum(E v, E last, const char* field, const char* values) {
  if (static_cast<unsigned>(v) <= static_cast<unsigned>(last)) return Status::Ok();
  return {Code::invalid_argument,
          std::string("options.") + field + " = " + std::to_string(static_cast<unsigned>(v)) + " is not " + values};
}

Status check_options(const DecodeOptions& o) {
  SWZ_TRY(check_enum(o.channel, ViewChannel::a, "channel", "a channel view (rgba, rgb, r, g, b, a)"));
  SWZ_TRY(check_enum(o.tone_map, ToneMap::reinhard, "tone_map", "a tone map (clamp, reinhard)"));
  SWZ_TRY(check_enum(o.byte_order, ByteOrder::swap32, "byte_order", "a byte order (little, swap16, swap32)"));
  SWZ_TRY(check_enum(o.yuv_matrix, YuvMatrix::bt709, "yuv_matrix", "a YUV matrix (bt601, bt709)"));
  if (!std::isfinite(o.exposure_ev) || std::fabs(o.exposure_ev) > 64)
    return {Code::invalid_argument, "options.exposure_ev = " + std::to_string(o.exposure_ev) +
                                        " must be a finite number of stops in [-64, 64]"};
  return Status::Ok();
}

// Everything decode checks before it writes: the options, the format, the
// input's and the output's extents (the one linear rule) and their overlap.
struct Job {
  Reader reader;
  detail::LinearExtent in, out;
  uint32_t block_rows = 1;        // texel rows per element row
  unsigned word_B = 0;            // byte swap: the word size (2 or 4), 0 for none
  std::vector<uint8_t> palette;   // palette formats: RGBA8 entries
  uint64_t chroma_at_B = 0;       // 4:2:0: where the chroma rows start
  detail::LinearExtent chroma;    // 4:2:0: the chroma rows
  std::unique_ptr<detail::AstcRows> astc;  // ASTC: the decoder (made by prepare, not prepare_input)
};

// The palette of a palette format, decoded to RGBA8 view values.
Status load_palette(const DecodeOptions& o, const FormatInfo& f, std::vector<uint8_t>* out) {
  if (!o.palette)
    return {Code::invalid_argument, std::string("format ") + f.name +
                                        " needs options.palette, its colours (the command: --palette FILE[:FORMAT]; "
                                        "Python: palette=)"};
  const LinearImage& p = *o.palette;
  Reader pr;
  SWZ_TRY(make_reader(p.format, false, &pr));
  if (pr.reading == Reading::Palette)
    return {Code::invalid_argument, std::string("palette format ") + p.format.name + " is itself a palette format"};
  // One entry a texel and a texel an element: the entries of palette bytes
  // are their elements (as the command and Python count them).
  if (pr.reading == Reading::Block || pr.reading == Reading::Yuv420 || p.format.block_width != 1 ||
      p.format.block_height != 1)
    return {Code::invalid_argument, std::string("palette format ") + p.format.name +
                                        " does not hold one texel an element; give the palette as e.g. "
                                        "R8G8B8A8_UNORM or B5G6R5_UNORM entries"};
  const uint64_t entries = uint64_t{p.width_px} * p.height_px;
  if (entries == 0 || entries > 65536)
    return {Code::invalid_argument,
            "palette = " + std::to_string(p.width_px) + "x" + std::to_string(p.height_px) + " entries; 1..65536 allowed"};
  out->assign(entries * 4, 0);
  // Errors of the palette's own image name it, not the indices' input.
  const Status st = decode_rgba8(p, DecodeOptions{}, out->data(), out->size());
  if (!st.ok()) return {st.code(), "options.palette: " + st.message()};
  return Status::Ok();
}

// The input's extent for a 4:2:0 format: the luma rows, then the chroma rows.
Status resolve_yuv420(const LinearImage& in, const Reader& r, Job* job) {
  const uint64_t wb = r.yuv_bits == 8 ? 1 : 2;
  SWZ_TRY(detail::resolve_linear(in.width_px, in.height_px, 1, wb, in.size_B, in.row_pitch_B, 0, "input luma",
                                 &job->in, "image"));
  uint64_t at = in.chroma_offset_B;
  if (at == 0) {
    // Right after height_px luma rows at the row pitch, which the chroma rows
    // follow: an explicit pitch is used, and checked, even for one luma row.
    const uint64_t pitch = in.row_pitch_B ? in.row_pitch_B : job->in.row_pitch_B;
    if (pitch < job->in.row_B)
      return {Code::invalid_argument, "input row pitch = " + std::to_string(pitch) + " is smaller than a luma row (" +
                                          std::to_string(job->in.row_B) + " bytes)"};
    if (!detail::mul_ok(pitch, in.height_px, &at))
      return {Code::overflow, "input chroma offset does not fit in 64 bits"};
  }
  if (at > in.size_B)
    return {Code::buffer_too_small, "input buffer is " + std::to_string(in.size_B) +
                                        " bytes; its chroma rows start at byte " + std::to_string(at)};
  const uint64_t cw = (uint64_t{in.width_px} + 1) / 2, ch = (uint64_t{in.height_px} + 1) / 2;
  SWZ_TRY(detail::resolve_linear(cw, ch, 1, 2 * wb, in.size_B - at, in.row_pitch_B, 0, "input chroma",
                                 &job->chroma, "image"));
  job->chroma_at_B = at;
  job->in.used_B = std::max(job->in.used_B, at + job->chroma.used_B);
  return Status::Ok();
}

// The input side of prepare: the options, the format, the palette, the
// input's extent.
Status prepare_input(const LinearImage& in, const DecodeOptions& o, Job* job) {
  SWZ_TRY(check_options(o));
  if (in.width_px == 0 || in.height_px == 0)
    return {Code::invalid_argument, "image size = " + std::to_string(in.width_px) + "x" + std::to_string(in.height_px) +
                                        " texels; both must be at least 1"};
  if (!in.data) return {Code::invalid_argument, "input data is null"};
  SWZ_TRY(make_reader(in.format, o.stencil, &job->reader));
  const Reader& r = job->reader;
  const bool blocks = r.reading == Reading::Block || r.reading == Reading::Astc;
  const uint32_t bw = in.format.block_width;
  job->block_rows = blocks ? in.format.block_height : 1;
  const uint64_t eb = r.reading == Reading::Block ? detail::block_bytes(r.block) : in.format.element_bytes;
  job->word_B = o.byte_order == ByteOrder::swap16 ? 2 : o.byte_order == ByteOrder::swap32 ? 4 : 0;
  if (job->word_B && (r.reading == Reading::Yuv420 || eb % job->word_B))
    return {Code::invalid_argument, std::string("options.byte_order swaps ") + std::to_string(job->word_B) +
                                        "-byte words; " + in.format.name + " elements are not made of them"};
  if (r.reading == Reading::Palette) SWZ_TRY(load_palette(o, in.format, &job->palette));
  if (r.reading == Reading::Yuv420) {
    SWZ_TRY(resolve_yuv420(in, r, job));
  } else {
    const uint64_t w_el = (uint64_t{in.width_px} + bw - 1) / bw;
    const uint64_t h_el = (uint64_t{in.height_px} + job->block_rows - 1) / job->block_rows;
    SWZ_TRY(detail::resolve_linear(w_el, h_el, 1, eb, in.size_B, in.row_pitch_B, 0, "input", &job->in, "image"));
  }
  return Status::Ok();
}

Status prepare(const LinearImage& in, const DecodeOptions& o, const void* out, uint64_t out_size_B,
               uint64_t out_row_pitch_B, uint64_t out_pixel_B, Job* job) {
  SWZ_TRY(prepare_input(in, o, job));
  if (!out) return {Code::invalid_argument, "output buffer is null"};
  SWZ_TRY(detail::resolve_linear(in.width_px, in.height_px, 1, out_pixel_B, out_size_B, out_row_pitch_B, 0, "output",
                                 &job->out, "image"));
  SWZ_TRY(detail::check_memory_disjoint(detail::MemoryRange(in.data, job->in.used_B, "input"),
                                        detail::MemoryRange(out, job->out.used_B, "output")));
  if (job->reader.reading == Reading::Astc) {
    const FormatInfo& f = in.format;
    SWZ_TRY(detail::AstcRows::create(f.name, f.block_width, f.block_height, format_facts(f).srgb, &job->astc));
    job->reader.astc = job->astc.get();
  }
  return Status::Ok();
}

// Runs the decode row by row, handing each texel row (width x 4 floats, view
// or shader values) to put(y, row).
template <class Put>
void run(const LinearImage& in, const DecodeOptions& o, const Job& job, bool for_view, Put put) {
  const Reader& r = job.reader;
  const Yuv yuv{o.yuv_matrix == YuvMatrix::bt601 ? 0.299 : 0.2126, o.yuv_matrix == YuvMatrix::bt601 ? 0.114 : 0.0722,
                o.yuv_full_range, r.yuv_bits};
  const size_t stride = size_t{in.width_px} * 4;
  std::vector<float> rows(stride * job.block_rows);
  const auto* base = static_cast<const uint8_t*>(in.data);
  const uint64_t h_el = (uint64_t{in.height_px} + job.block_rows - 1) / job.block_rows;
  std::vector<uint8_t> swapped(job.word_B ? job.in.row_B : 0);
  // Element row ye into `rows` (four texel rows for block formats).
  auto load = [&](uint64_t ye) {
    const uint8_t* src = base + ye * job.in.row_pitch_B;
    if (r.reading == Reading::Yuv420) {
      read_yuv420_row(r, yuv, src, base + job.chroma_at_B + (ye / 2) * job.chroma.row_pitch_B, in.width_px,
                      rows.data());
      return;
    }
    if (job.word_B) {  // big-endian words: swap each into a copy of the row
      for (uint64_t i = 0; i < job.in.row_B; i += job.word_B)
        for (unsigned k = 0; k < job.word_B; ++k) swapped[i + k] = src[i + job.word_B - 1 - k];
      src = swapped.data();
    }
    if (r.reading == Reading::Palette)
      read_palette_row(r, src, in.width_px, job.palette, rows.data());
    else
      read_row(r, yuv, src, in.width_px, job.block_rows, rows.data());
  };
  View v{&r, o};
  v.exposure = static_cast<float>(std::exp2(o.exposure_ev));
  if (for_view && r.domain[0] == Domain::Depth) {
    // The image's own depth range (finite values).
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (uint64_t ye = 0; ye < h_el; ++ye) {
      load(ye);
      for (uint32_t x = 0; x < in.width_px; ++x)
        if (std::isfinite(rows[size_t{x} * 4])) {
          lo = std::min(lo, static_cast<double>(rows[size_t{x} * 4]));
          hi = std::max(hi, static_cast<double>(rows[size_t{x} * 4]));
        }
    }
    v.depth_lo = lo;
    v.depth_hi = hi;
    v.depth_constant = !(hi > lo);
  }
  for (uint64_t ye = 0; ye < h_el; ++ye) {
    const uint32_t y0 = static_cast<uint32_t>(ye * job.block_rows);
    const uint32_t n = std::min(job.block_rows, in.height_px - y0);
    load(ye);
    for (uint32_t j = 0; j < n; ++j) {
      float* row = rows.data() + j * stride;
      for (uint32_t x = 0; x < in.width_px; ++x) {
        float* p = row + size_t{x} * 4;
        for (int c = 0; c < 4; ++c) p[c] = for_view ? view_value(v, c, p[c]) : shader_value(r, c, p[c]);
        arrange(r, o.channel, for_view, p);
      }
      put(y0 + j, row);
    }
  }
}

}  // namespace

Status check_decodable(const FormatInfo& format) {
  Reader r;
  return make_reader(format, false, &r);
}

bool decode_supports(const FormatInfo& format) { return check_decodable(format).ok(); }

Status decode_rgba8(const LinearImage& in, const DecodeOptions& options, uint8_t* out, uint64_t out_size_B,
                    uint64_t out_row_pitch_B) {
  Job job;
  SWZ_TRY(prepare(in, options, out, out_size_B, out_row_pitch_B, 4, &job));
  uint8_t t8[16][4];
  const auto* base = static_cast<const uint8_t*>(in.data);
  if (job.reader.reading == Reading::Block && options.channel == ViewChannel::rgba && !job.word_B &&
      detail::decodes_to_bytes(job.reader.block)) {
    // BC1-BC5 (unsigned) and BC7 in full colour: their bytes are the view values.
    const uint32_t bb = detail::block_bytes(job.reader.block);
    for (uint32_t by = 0; by * 4 < in.height_px; ++by) {
      const uint8_t* row = base + by * job.in.row_pitch_B;
      const uint32_t rows = std::min(4u, in.height_px - by * 4);
      for (uint32_t bx = 0; bx * 4 < in.width_px; ++bx) {
        detail::decode_block_rgba8(job.reader.block, row + size_t{bx} * bb, t8);
        if (job.reader.block == detail::BlockKind::BC4U)  // single-channel: shown grey
          for (auto& t : t8) t[1] = t[2] = t[0];
        const uint32_t cols = std::min(4u, in.width_px - bx * 4);
        for (uint32_t j = 0; j < rows; ++j)
          std::memcpy(out + (uint64_t{by} * 4 + j) * job.out.row_pitch_B + uint64_t{bx} * 16, t8[j * 4], cols * 4);
      }
    }
    return Status::Ok();
  }
  int src_byte[4];
  if (options.channel == ViewChannel::rgba && !job.word_B && byte_view(job.reader, src_byte)) {
    // 8-bit UNORM / sRGB components on byte boundaries: their bytes are the view values.
    const uint32_t eb = in.format.element_bytes;
    for (uint32_t y = 0; y < in.height_px; ++y) {
      const uint8_t* s = base + y * job.in.row_pitch_B;
      uint8_t* d = out + y * job.out.row_pitch_B;
      for (uint32_t x = 0; x < in.width_px; ++x, s += eb, d += 4)
        for (int c = 0; c < 4; ++c) d[c] = src_byte[c] >= 0 ? s[src_byte[c]] : (c == 3 ? 255 : 0);
    }
    return Status::Ok();
  }
  run(in, options, job, true, [&](uint32_t y, const float* row) {
    uint8_t* d = out + y * job.out.row_pitch_B;
    for (size_t i = 0; i < size_t{in.width_px} * 4; ++i) d[i] = static_cast<uint8_t>(row[i] * 255.0f + 0.5f);
  });
  return Status::Ok();
}

Status decode_rgba32f(const LinearImage& in, const DecodeOptions& options, float* out, uint64_t out_size_B,
                      uint64_t out_row_pitch_B) {
  Job job;
  SWZ_TRY(prepare(in, options, out, out_size_B, out_row_pitch_B, 16, &job));
  run(in, options, job, false, [&](uint32_t y, const float* row) {
    std::memcpy(reinterpret_cast<uint8_t*>(out) + y * job.out.row_pitch_B, row, size_t{in.width_px} * 16);
  });
  return Status::Ok();
}

Status check_decode_input(const LinearImage& in, const DecodeOptions& options) {
  Job job;
  return prepare_input(in, options, &job);
}

Status check_decodable(const Layout& layout, uint32_t subresource) {
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(subresource, &s));
  const FormatInfo& f = layout.desc().format;
  Reader r;
  SWZ_TRY(make_reader(f, false, &r));
  if (r.reading == Reading::Yuv420)
    return refuse(f, "subresource " + std::to_string(subresource) + " is plane " + std::to_string(s.plane) +
                         " alone; its luma and chroma are planes 0 and 1: read both and decode them with "
                         "decode_rgba8 (chroma_offset_B)");
  if (f.depth_stencil && s.plane > 0)
    return refuse(f, "subresource " + std::to_string(subresource) + " is plane " + std::to_string(s.plane) +
                         ", the stencil: decode its bytes as R8_UINT");
  return Status::Ok();
}

Status decode_subresource_rgba8(const Layout& layout, const void* resource, uint64_t resource_size_B,
                                uint32_t subresource, const Box* box, const DecodeOptions& options, uint8_t* out,
                                uint64_t out_size_B) {
  SubresourceLayout s;
  SWZ_TRY(layout.subresource(subresource, &s));
  SWZ_TRY(check_decodable(layout, subresource));
  const Box b = box ? *box : Box{0, 0, 0, s.width, s.height, 1};
  ElementBox e;
  SWZ_TRY(to_element_box(layout, subresource, &b, &e));  // the box lies inside the subresource
  if (e.empty || e.depth != 1)
    return {Code::invalid_argument, "box must hold at least one texel of exactly one depth slice to decode"};
  const FormatInfo& f = layout.desc().format;
  const uint64_t bytes = uint64_t{e.width_el} * e.height_el * s.element_bytes;  // within the subresource
  // The resource and the output are checked before the texels' temporary is
  // allocated: its size follows the layout, not the buffers given.
  if (!resource) return {Code::invalid_argument, "resource = null"};
  if (!out) return {Code::invalid_argument, "output buffer is null"};
  detail::LinearExtent out_extent;
  SWZ_TRY(detail::resolve_linear(b.right - b.left, b.bottom - b.top, 1, 4, out_size_B, 0, 0, "output", &out_extent, "image"));
  detail::Resolved region;
  SWZ_TRY(detail::resolve_region(layout, resource_size_B, subresource, &b, bytes, 0, 0, "destination", &region));
  std::vector<uint8_t> linear(bytes);
  SWZ_TRY(read_from_subresource(linear.data(), bytes, 0, 0, layout, resource, resource_size_B, subresource, &b));
  LinearImage img;
  img.format = f;
  img.width_px = b.right - b.left;
  img.height_px = b.bottom - b.top;
  img.data = linear.data();
  img.size_B = bytes;
  return decode_rgba8(img, options, out, out_size_B);
}

}  // namespace swz
