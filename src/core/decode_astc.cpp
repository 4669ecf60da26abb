// swz — ASTC decoding through libastcenc (contract: decode_astc.hpp).
//
// UNORM formats decode in the LDR profile to 32-bit floats (the UNORM16
// values the ASTC specification's LDR decode gives, as libastcenc converts
// them); sRGB formats in the LDR sRGB profile to 8-bit values, the stored
// sRGB encoding a sampler converts (Khronos Data Format Specification, ASTC
// chapter, "sRGB": only the top 8 bits of the decoded value are kept).
#include "core/decode_astc.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(SWZ_HAVE_ASTCENC)
#include <astcenc.h>
#endif

namespace swz::detail {

#if defined(SWZ_HAVE_ASTCENC)

struct AstcRows::Impl {
  astcenc_context* ctx = nullptr;
  uint32_t bw = 0, bh = 0;
  bool srgb = false;
  std::vector<float> f32;    // one row of blocks, UNORM
  std::vector<uint8_t> u8;   // one row of blocks, sRGB
  ~Impl() {
    if (ctx) astcenc_context_free(ctx);
  }
};

bool astc_available() { return true; }

Status check_astc_built(const char*) { return Status::Ok(); }

Status AstcRows::create(const char* format_name, uint32_t block_w, uint32_t block_h, bool srgb,
                        std::unique_ptr<AstcRows>* out) {
  astcenc_config config;
  astcenc_error e = astcenc_config_init(srgb ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR, block_w, block_h, 1,
                                        ASTCENC_PRE_FASTEST, ASTCENC_FLG_DECOMPRESS_ONLY, &config);
  std::unique_ptr<AstcRows> r(new AstcRows());
  r->impl_ = std::make_unique<Impl>();
  if (e == ASTCENC_SUCCESS) e = astcenc_context_alloc(&config, 1, &r->impl_->ctx);
  if (e != ASTCENC_SUCCESS)
    return {Code::unsupported, std::string("format ") + format_name + " cannot be decoded: libastcenc: " +
                                   astcenc_get_error_string(e)};
  r->impl_->bw = block_w;
  r->impl_->bh = block_h;
  r->impl_->srgb = srgb;
  *out = std::move(r);
  return Status::Ok();
}

void AstcRows::decode_row(const uint8_t* blocks, uint32_t width_px, uint32_t rows, float* out) {
  Impl& m = *impl_;
  const uint32_t nb = (width_px + m.bw - 1) / m.bw, w = nb * m.bw;
  const size_t texels = size_t{w} * m.bh;
  void* slice;
  astcenc_image image{w, m.bh, 1, m.srgb ? ASTCENC_TYPE_U8 : ASTCENC_TYPE_F32, &slice};
  if (m.srgb) {
    m.u8.resize(texels * 4);
    slice = m.u8.data();
  } else {
    m.f32.resize(texels * 4);
    slice = m.f32.data();
  }
  const astcenc_swizzle identity{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
  // Any 16 bytes are a block (an invalid one decodes as the error colour), so
  // decompression of a whole row of blocks of the configured size succeeds.
  if (astcenc_decompress_image(m.ctx, blocks, size_t{nb} * 16, &image, &identity, 0) != ASTCENC_SUCCESS) {
    std::fill(m.u8.begin(), m.u8.end(), uint8_t{0});
    std::fill(m.f32.begin(), m.f32.end(), 0.0f);
  }
  astcenc_decompress_reset(m.ctx);
  for (uint32_t y = 0; y < rows; ++y) {
    float* d = out + size_t{y} * width_px * 4;
    if (m.srgb) {
      const uint8_t* s = m.u8.data() + size_t{y} * w * 4;
      for (size_t i = 0; i < size_t{width_px} * 4; ++i) d[i] = static_cast<float>(s[i]) / 255.0f;
    } else {
      std::memcpy(d, m.f32.data() + size_t{y} * w * 4, size_t{width_px} * 16);
      // libastcenc's float output marks an error block's texels NaN; the
      // LDR profile's error colour is opaque magenta.
      for (size_t i = 0; i < size_t{width_px} * 4; i += 4)
        if (d[i] != d[i] || d[i + 1] != d[i + 1] || d[i + 2] != d[i + 2] || d[i + 3] != d[i + 3]) {
          d[i] = 1.0f;
          d[i + 1] = 0.0f;
          d[i + 2] = 1.0f;
          d[i + 3] = 1.0f;
        }
    }
  }
}

#else  // built without libastcenc

struct AstcRows::Impl {};

bool astc_available() { return false; }

Status check_astc_built(const char* format_name) {
  return {Code::unsupported, std::string("format ") + format_name +
                                 " cannot be decoded: swz was built without libastcenc, which decodes ASTC "
                                 "(install libastcenc-dev and rebuild)"};
}

Status AstcRows::create(const char* format_name, uint32_t, uint32_t, bool, std::unique_ptr<AstcRows>*) {
  return check_astc_built(format_name);
}

void AstcRows::decode_row(const uint8_t*, uint32_t, uint32_t, float*) {}

#endif

AstcRows::~AstcRows() = default;

}  // namespace swz::detail
