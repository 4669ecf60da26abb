// swz internal — ASTC (LDR, 2D footprints 4x4 to 12x12) decoding through
// libastcenc (Arm's reference codec: astcenc_config_init with
// ASTCENC_FLG_DECOMPRESS_ONLY, astcenc_context_alloc,
// astcenc_decompress_image). Built only when CMake finds the astcenc package
// (SWZ_HAVE_ASTCENC); otherwise astc_available() is false and AstcRows::create
// refuses.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "swz/status.hpp"

namespace swz::detail {

/// Whether this build decodes ASTC (was built with libastcenc).
bool astc_available();
/// Ok when astc_available(); otherwise unsupported: "format NAME cannot be
/// decoded: swz was built without libastcenc ...".
Status check_astc_built(const char* format_name);

/// A decoder of rows of ASTC blocks of one footprint: one libastcenc context.
/// Not thread-safe: one decode at a time.
class AstcRows {
 public:
  /// A decoder for `block_w` x `block_h` blocks; `srgb`: the sRGB profile.
  /// Errors: unsupported (built without libastcenc, naming `format_name`, or
  /// libastcenc refusing the footprint).
  static Status create(const char* format_name, uint32_t block_w, uint32_t block_h, bool srgb,
                       std::unique_ptr<AstcRows>* out);
  ~AstcRows();
  AstcRows(const AstcRows&) = delete;
  AstcRows& operator=(const AstcRows&) = delete;

  /// Decodes one row of ceil(width_px / block_w) blocks (16 bytes each, at
  /// `blocks`) into `rows` (<= block_h) texel rows of width_px texels, four
  /// floats a texel, rows width_px * 4 floats apart: the values a shader
  /// reads before any sRGB conversion, in [0, 1] (sRGB formats keep their
  /// stored 8-bit encoding, value / 255). A block libastcenc finds invalid
  /// decodes as its error colour (magenta).
  void decode_row(const uint8_t* blocks, uint32_t width_px, uint32_t rows, float* out);

 private:
  AstcRows() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace swz::detail
