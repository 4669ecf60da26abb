// The C API of decoding (include/swz/swz.h): forwards to swz/decode.hpp
// through the guard of capi_internal.hpp.
#include "capi_internal.hpp"
#include <cstdint>
#include <string>

#include "swz/decode.hpp"
#include "swz/swz.h"

namespace {

using swz_capi::null_arg;

swz::Status to_image(const swz_linear_image* c, swz::LinearImage* out) {
  if (!c) return null_arg("image");
  SWZ_TRY(swz_capi::find_format(c->format, c->dxgi_format, &out->format));
  out->width_px = c->width_px;
  out->height_px = c->height_px;
  out->data = c->data;
  out->size_B = c->size_B;
  out->row_pitch_B = c->row_pitch_B;
  out->chroma_offset_B = c->chroma_offset_B;
  return swz::Status::Ok();
}

// An enum value for the 8-bit C++ enums. Values up to 255 travel as they are
// (decode refuses those out of range, naming the field); larger ones cannot,
// and are refused here with the value given.
template <class E>
swz::Status narrow(uint32_t v, const char* field, E* out) {
  if (v > 255)
    return {swz::Code::invalid_argument, std::string("options.") + field + " = " + std::to_string(v) + " is out of range"};
  *out = static_cast<E>(v);
  return swz::Status::Ok();
}

swz::Status to_options(const swz_decode_options* c, swz::LinearImage* palette, swz::DecodeOptions* out) {
  swz::DecodeOptions& o = *out;
  if (!c) return swz::Status::Ok();
  SWZ_TRY(narrow(c->channel, "channel", &o.channel));
  o.exposure_ev = c->exposure_ev;
  SWZ_TRY(narrow(c->tone_map, "tone_map", &o.tone_map));
  SWZ_TRY(narrow(c->yuv_matrix, "yuv_matrix", &o.yuv_matrix));  // SWZ_YUV_* are the C++ values
  o.yuv_full_range = c->yuv_full_range != 0;
  o.stencil = c->stencil != 0;
  SWZ_TRY(narrow(c->byte_order, "byte_order", &o.byte_order));
  if (c->palette) {
    SWZ_TRY(to_image(c->palette, palette));
    o.palette = palette;
  }
  return swz::Status::Ok();
}

// One decode call: the image and options converted, then `decode`.
template <class Out, class Decode>
swz_status decode_into(const swz_linear_image* image, const swz_decode_options* options, Out* out,
                       uint64_t out_size_B, uint64_t out_row_pitch_B, Decode decode) {
  return swz_capi::run([&]() -> swz::Status {
    swz::LinearImage img, palette;
    swz::DecodeOptions o;
    SWZ_TRY(to_image(image, &img));
    SWZ_TRY(to_options(options, &palette, &o));
    return decode(img, o, out, out_size_B, out_row_pitch_B);
  });
}

}  // namespace

extern "C" {

swz_decode_options swz_decode_options_default(void) {
  swz_decode_options o{};
  o.channel = SWZ_VIEW_RGBA;
  o.exposure_ev = 0.0;
  o.tone_map = SWZ_TONE_MAP_CLAMP;
  o.yuv_matrix = SWZ_YUV_BT709;
  return o;
}

swz_status swz_decoded_size(const swz_linear_image* image, uint32_t float32, uint64_t* out_B) {
  return swz_capi::run([&]() -> swz::Status {
    if (!image) return null_arg("image");
    if (!out_B) return null_arg("out_B");
    const uint64_t px = uint64_t{image->width_px} * image->height_px;  // < 2^64: two 32-bit factors
    const uint64_t per = float32 ? 16 : 4;
    if (px > UINT64_MAX / per) return {swz::Code::overflow, "decoded size does not fit in 64 bits"};
    *out_B = px * per;
    return swz::Status::Ok();
  });
}

swz_status swz_decode_rgba8(const swz_linear_image* image, const swz_decode_options* options, uint8_t* out,
                            uint64_t out_size_B, uint64_t out_row_pitch_B) {
  return decode_into(image, options, out, out_size_B, out_row_pitch_B, swz::decode_rgba8);
}

swz_status swz_decode_rgba32f(const swz_linear_image* image, const swz_decode_options* options, float* out,
                              uint64_t out_size_B, uint64_t out_row_pitch_B) {
  return decode_into(image, options, out, out_size_B, out_row_pitch_B, swz::decode_rgba32f);
}

}  // extern "C"
