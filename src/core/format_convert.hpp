// swz internal — numeric conversions of one format element (clears, fills,
// resolves). The one home of the Direct3D "Data Conversion Rules" in swz
// (learn.microsoft.com, direct3d10 "Data Conversion Rules"); see
// docs/ARCHITECTURE.md, "Clears, fills and resolves".
#pragma once
#include <cstdint>

#include "swz/clear.hpp"
#include "swz/format.hpp"
#include "swz/status.hpp"

namespace swz::detail {

/// Numeric type of one bit field of an element.
enum class Num : uint8_t { Unorm, Snorm, Uint, Sint, Float, Srgb, Zero };

/// One component stored in an element: `bits` bits from bit `offset`
/// (little-endian bit numbering over the element bytes), read from
/// D3D12_CLEAR_DATA component `src` (0 R/Y/depth, 1 G/U/stencil, 2 B/V, 3 A).
struct Field {
  int8_t src = 0;
  uint8_t offset = 0, bits = 0;
  Num num = Num::Zero;
};

enum class Special : uint8_t {
  None,
  Absent,
  R11G11B10,
  Rgbe,
  BC1,
  BC2,
  BC3,
  BC4U,
  BC4S,
  BC5U,
  BC5S,
  BC6HU,
  BC6HS,
  BC7
};

/// How plane `plane` of a format is encoded.
struct Codec {
  const char* name = "";
  uint32_t element_bytes = 0;
  Special special = Special::None;  ///< Absent: the format has no component in this plane (nothing to clear)
  bool srgb = false;                ///< BC1-3, BC7: endpoints are sRGB-encoded
  bool video = false;               ///< YUV formats (raw Uints; never resolved)
  ClearMember member = ClearMember::Floats;
  int nfields = 0;
  Field f[4];
};

/// The codec of one plane. Errors: unsupported naming the format when it has
/// no conversion rule; out_of_range for a missing plane.
Status codec_for(const FormatInfo& format, uint32_t plane, Codec* out);

/// One element for a clear value (codec.special != Absent).
void encode_clear(const Codec& c, const ClearValue& v, uint8_t* out);

// ---- per-field values (resolves) ------------------------------------------------------------
/// Decodes the fields of a None / R11G11B10 / Rgbe element: floats for
/// UNORM/SNORM/FLOAT (sRGB: linear light), integers for UINT/SINT.
void decode_fields(const Codec& c, const uint8_t* in, double* out);
/// Encodes field values (integers: their low bits; floats: the conversion rules).
void encode_fields(const Codec& c, const double* in, uint8_t* out);
/// Raw bits (at most 57) from bit `offset` of an element, and writing them back.
uint64_t get_bits(const uint8_t* e, unsigned offset, unsigned bits);
void put_bits(uint8_t* e, unsigned offset, unsigned bits, uint64_t v);

// ---- scalar rules (exposed for tests) -------------------------------------------------------
uint32_t float_to_unorm(float c, unsigned bits);
int32_t float_to_snorm(float c, unsigned bits);
double unorm_to_float(uint32_t v, unsigned bits);
double snorm_to_float(int32_t v, unsigned bits);
// The sRGB curve: swz::linear_to_srgb / swz::srgb_to_linear (swz/format.hpp).
using swz::linear_to_srgb;
using swz::srgb_to_linear;
uint32_t float_to_srgb8(float c, unsigned bits);
/// Float32 to a smaller float (exponent/mantissa bits, with or without a sign
/// bit), rounding toward zero; values beyond the range give the largest
/// finite value, INF gives INF, NaN a NaN, negatives of unsigned formats 0.
uint32_t float_to_small_float(float x, unsigned ebits, unsigned mbits, bool has_sign);
double small_float_to_double(uint32_t v, unsigned ebits, unsigned mbits, bool has_sign);
inline uint16_t float_to_half(float x) { return static_cast<uint16_t>(float_to_small_float(x, 5, 10, true)); }
inline double half_to_double(uint16_t h) { return small_float_to_double(h, 5, 10, true); }
/// R9G9B9E5_SHAREDEXP (EXT_texture_shared_exponent's algorithm, N = 9, B = 15).
uint32_t float3_to_rgbe(float r, float g, float b);
void rgbe_to_double3(uint32_t v, double* rgb);

}  // namespace swz::detail
