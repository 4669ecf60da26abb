// PNG output through libpng, one row at a time: no size limit below PNG's own
// (stb_image_write computes sizes in int and overruns the heap at 2 GiB), and
// no whole-image copy.
#include <png.h>

#include <csetjmp>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "file_io.hpp"
#include "image_io.hpp"
#include "png_errors.hpp"

namespace swz::cli {
namespace {

struct PngSink : PngErrors {
  const ByteSink* out = nullptr;
};

void on_png_write(png_structp png, png_bytep data, size_t n) {
  auto* s = static_cast<PngSink*>(png_get_io_ptr(png));
  bool ok = true;
  try {
    (*s->out)(data, n);
  } catch (const std::exception& e) {
    s->error = e.what();
    ok = false;
  }
  if (!ok) png_error(png, "write failed");  // outside the catch block: it longjmps
}

void on_png_flush(png_structp) {}

}  // namespace

void write_png(AtomicOutput& out, const uint8_t* pixels, uint32_t width, uint32_t height, const FormatInfo& f) {
  const ByteSink sink = [&out](const uint8_t* data, size_t n) { out.write(data, n); };
  write_png(sink, out.path(), pixels, width, height, f);
}

void write_png(const ByteSink& out, const std::string& name, const uint8_t* pixels, uint32_t width, uint32_t height,
               const FormatInfo& f) {
  require_image_format(f, "PNG output");
  const std::string letters = image_channel_letters(f);
  const uint32_t in_c = static_cast<uint32_t>(letters.size());
  // Where each input channel goes in R, G, B, A; -1 for padding (X).
  int slot[4] = {-1, -1, -1, -1};
  const uint32_t mapped = in_c < 4 ? in_c : 4;  // image formats have 1..4 channels
  for (uint32_t k = 0; k < mapped; ++k) {
    const size_t at = std::string_view("RGBA").find(letters[k]);
    if (at != std::string_view::npos) slot[k] = static_cast<int>(at);
  }
  int color = PNG_COLOR_TYPE_RGB_ALPHA;
  uint32_t out_c = 4;
  if (letters == "R")
    color = PNG_COLOR_TYPE_GRAY, out_c = 1;
  else if (letters == "A")
    color = PNG_COLOR_TYPE_GRAY_ALPHA, out_c = 2;
  else if (letters.size() == 2 || letters.find('X') != std::string::npos)
    color = PNG_COLOR_TYPE_RGB, out_c = 3;
  // PNG stores width and height in 31 bits (PNG specification, IHDR).
  if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu)
    fail("a PNG of " + std::to_string(width) + "x" + std::to_string(height) +
         " pixels is outside PNG's 1..2^31-1 limits");
  std::vector<uint8_t> row = allocate(uint64_t{width} * out_c, "a PNG row");
  const uint64_t in_row = uint64_t{width} * in_c;

  PngSink sink;
  sink.out = &out;
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, static_cast<PngErrors*>(&sink), png_keep_error, png_drop_warning);
  if (!png) fail("out of memory starting the PNG encoder");
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    fail("out of memory starting the PNG encoder");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    fail("cannot write the PNG '" + name + "': " + sink.error);
  }
  png_set_write_fn(png, &sink, on_png_write, on_png_flush);
  png_set_user_limits(png, 0x7fffffffu, 0x7fffffffu);  // libpng's default cap is 10^6 pixels a side
  png_set_IHDR(png, info, width, height, 8, color, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  // zlib level 1: the 600x400 example photo encodes in a quarter of the time
  // of the default level 6 for a file 10 % larger (558 KB vs 508 KB; stb's
  // level 8 wrote 712 KB).
  png_set_compression_level(png, 1);
  png_write_info(png, info);
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t* src = pixels + y * in_row;
    uint8_t* dst = row.data();
    for (uint32_t x = 0; x < width; ++x, src += in_c) {
      uint8_t rgba[4] = {0, 0, 0, 255};
      for (uint32_t k = 0; k < mapped; ++k)
        if (slot[k] >= 0) rgba[slot[k]] = src[k];
      if (out_c == 1) {
        *dst++ = rgba[0];
      } else if (out_c == 2) {
        *dst++ = 255;
        *dst++ = rgba[3];
      } else {
        for (uint32_t k = 0; k < out_c; ++k) *dst++ = rgba[k];
      }
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
}

}  // namespace swz::cli
