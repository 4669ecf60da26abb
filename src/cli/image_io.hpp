// swz CLI — image files (stb_image input, libpng output) for 8-bit UNORM formats.
//
// Pixels are kept in the FORMAT's byte order and channel count:
//   R8_UNORM             1 byte:  the image's luminance (stb's grey)
//   A8_UNORM             1 byte:  the image's alpha
//   R8G8_UNORM           2 bytes: red, green
//   R8G8B8A8_UNORM(_SRGB) 4 bytes: red, green, blue, alpha
//   B8G8R8A8 / B8G8R8X8  4 bytes: red and blue swapped (X = 255)
// PNG output converts back: R8 -> grey, A8 -> grey+alpha (grey 255),
// R8G8 -> RGB (blue 0), *X8 -> RGB, the others -> RGBA.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pixel_buffer.hpp"
#include "swz/format.hpp"

namespace swz::cli {

struct Image {
  uint32_t width = 0, height = 0;
  uint32_t channels = 0;   ///< bytes per pixel (the format's element size)
  PixelBuffer pixels;      ///< tightly packed rows (not zero-filled: every byte is written)
  bool srgb = false;       ///< an _SRGB format: colour channels are sRGB-encoded
  int alpha_channel = -1;  ///< the alpha channel's index (always linear), -1 if none
};

/// True for the extensions read as images: .png .jpg .jpeg .bmp .tga.
bool is_image_path(const std::string& path);

/// Throws Error unless `f` is an 8-bit UNORM format with 1-4 channels whose
/// channel order swz knows.
void require_image_format(const FormatInfo& f, const std::string& why);

/// Decodes an image file into the format's channels. Throws Error.
Image load_image(const std::string& path, const FormatInfo& f);

struct RgbaImage;
/// load_image on a whole image file held in memory; `name` names it in messages.
Image load_image_bytes(const uint8_t* data, size_t size, const std::string& name, const FormatInfo& f);
/// Decoded RGBA pixels in the format's channels (see the top of this file).
Image rgba_to_format(const RgbaImage& rgba, const FormatInfo& f, const std::string& name);

/// Next mip (mips.cpp): width and height halved (at least 1), each output
/// texel the area-weighted mean of the source texels its footprint covers: a
/// 2x2 box at even sizes; at odd sizes the footprint is 2.5 texels wide, so
/// the last row and column still count (a 2x2 box filter with edge clamping
/// at size 1). sRGB formats are filtered in linear light (IEC 61966-2-1
/// decode, mean, encode), alpha linearly. Rounded to nearest.
Image half_size(const Image& src);

/// Channel letters of an 8-bit format ("B8G8R8A8_UNORM" -> "BGRA"); "" when
/// the name is not a run of <letter>8 groups.
std::string image_channel_letters(const FormatInfo& f);

/// 8-bit RGBA pixels, rows top to bottom.
struct RgbaImage {
  uint32_t width = 0, height = 0;
  PixelBuffer pixels;  ///< width * height * 4 bytes (not zero-filled: the decoder writes every byte)
};

/// Decodes a whole image file held in memory (PNG through libpng, JPEG through
/// libjpeg-turbo, BMP and TGA through stb_image; the format from the content)
/// to RGBA. `name` names it in messages. Throws Error (image_decode.cpp).
RgbaImage decode_rgba(const uint8_t* data, size_t size, const std::string& name);

/// Reads and decodes an image file (decode_rgba). Throws Error.
RgbaImage read_rgba(const std::string& path);

/// check_image_file_size on bytes in memory: `head` holds the first `got`
/// bytes of a file of `total` bytes.
void check_image_bytes(const uint8_t* head, size_t got, uint64_t total, const std::string& name);

/// The most bytes an image file whose first `got` bytes are `head` can
/// usefully hold: for PNG and BMP, the pixel data its header describes (PNG:
/// the filtered rows, 1/8 more for deflate's stored blocks; BMP: twice, for
/// run-length files), for JPEG 16 bytes per sample of its frame header when
/// `head` reaches it, plus 64 MiB for everything else; UINT64_MAX when the
/// header does not say (TGA, a JPEG frame header past `head`).
/// Standard input is read no further than this.
uint64_t image_bytes_limit(const uint8_t* head, size_t got);

/// Refuses (Error) an image file too short for what its header promises:
/// a truncated TGA or BMP (stb_image reads zeros past the end of those without
/// an error), or a PNG whose dimensions no deflate stream of the file's size
/// can hold. Called by load_image before decoding (image_check.cpp).
void check_image_file_size(const std::string& path);

class AtomicOutput;
/// Writes tightly packed pixels (the format's byte order) to `out` as a PNG,
/// row by row through libpng (png_write.cpp). Throws Error.
void write_png(AtomicOutput& out, const uint8_t* pixels, uint32_t width, uint32_t height, const FormatInfo& f);
/// Receives encoded bytes in order; throws Error when it cannot take them.
using ByteSink = std::function<void(const uint8_t* data, size_t bytes)>;
/// write_png into `out`; `name` names the PNG in messages.
void write_png(const ByteSink& out, const std::string& name, const uint8_t* pixels, uint32_t width, uint32_t height,
               const FormatInfo& f);

/// `swz compare`: decodes both files as RGBA8 and compares them. Returns true
/// when equal; `report` gets "identical: N pixels" or the first difference.
bool compare_images(const std::string& a, const std::string& b, std::string* report);

}  // namespace swz::cli
