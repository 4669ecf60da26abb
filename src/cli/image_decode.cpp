// Image input: PNG through libpng, JPEG through libjpeg-turbo, BMP and TGA
// through stb_image. stb's PNG and JPEG decoders had undefined behaviour on
// hostile files (an index past a 257-entry table in its Huffman builder,
// memcpy from a null pointer), and stb reads zeros past the end of a file
// instead of failing; the maintained Debian libraries are used for those
// formats, and check_image_bytes refuses truncated TGA and BMP files first.
#include <jerror.h>
#include <png.h>
#include <stb/stb_image.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>

#include "common.hpp"
#include "file_io.hpp"
#include "image_io.hpp"
#include "png_errors.hpp"

namespace swz::cli {
namespace {

// Larger than any image swz can write (PNG output is limited by PNG's
// 2^31-1) and small enough that width * height * 4 never overflows.
constexpr uint32_t kMaxSide = 0x7fffffffu;

// ---- PNG (libpng) -------------------------------------------------------------

struct PngSource : PngErrors {
  const uint8_t* data;
  size_t size;
  size_t at;
};

void png_read_mem(png_structp png, png_bytep out, size_t n) {
  auto* s = static_cast<PngSource*>(png_get_io_ptr(png));
  if (n > s->size - s->at) png_error(png, "the file ends inside the image data (truncated)");
  std::memcpy(out, s->data + s->at, n);
  s->at += n;
}

// Everything the setjmp frame below changes lives in the caller's frame:
// automatic objects of a function that calls setjmp and are changed after it
// have indeterminate values after longjmp.
struct PngState {
  PngSource src;
  RgbaImage img;
  std::vector<png_bytep> rows;
};

void decode_png_into(PngState& st, const std::string& name) {
  PngSource& src = st.src;
  RgbaImage& img = st.img;
  std::vector<png_bytep>& rows = st.rows;
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, static_cast<PngErrors*>(&src), png_keep_error, png_drop_warning);
  if (!png) fail("out of memory starting the PNG decoder");
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    fail("out of memory starting the PNG decoder");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    fail("cannot decode image '" + name + "': " + src.error);
  }
  png_set_read_fn(png, &src, png_read_mem);
  png_set_user_limits(png, kMaxSide, kMaxSide);
  // Ancillary chunks swz does not use are skipped unread (their CRC only),
  // so compressed text and ICC profiles cost no decompression; at most 1000
  // such chunks and 8 MB for any one chunk kept.
  static const png_byte kSkip[] = {'z', 'T', 'X', 't', '\0', 'i', 'T', 'X', 't', '\0', 'i', 'C', 'C', 'P', '\0',
                                   't', 'E', 'X', 't', '\0', 's', 'P', 'L', 'T', '\0', 'e', 'X', 'I', 'f', '\0'};
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, nullptr, 0);
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, kSkip, static_cast<int>(sizeof kSkip / 5));
  png_set_chunk_cache_max(png, 1000);
  png_set_chunk_malloc_max(png, 8000000);
  png_read_info(png, info);
  const png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  const int depth = png_get_bit_depth(png, info), color = png_get_color_type(png, info);
  // Everything to 8-bit RGBA, as stb_image gave it: palettes and low bit
  // depths expanded, 16-bit samples keep their high byte, no gamma change.
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (depth == 16) png_set_strip_16(png);
  if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != uint64_t{w} * 4) {
    src.error = "unexpected row size after conversion to RGBA";
    png_longjmp(png, 1);
  }
  try {
    img.pixels = allocate_pixels(uint64_t{w} * h * 4, "image '" + name + "'");
    rows.resize(h);
  } catch (...) {
    png_destroy_read_struct(&png, &info, nullptr);
    throw;
  }
  for (png_uint_32 y = 0; y < h; ++y) rows[y] = img.pixels.data() + uint64_t{y} * w * 4;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  img.width = w;
  img.height = h;
}

RgbaImage decode_png(const uint8_t* data, size_t size, const std::string& name) {
  PngState st{{{}, data, size, 0}, {}, {}};
  decode_png_into(st, name);
  return std::move(st.img);
}

// ---- JPEG (libjpeg-turbo) -------------------------------------------------------

struct JpegErrors {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jpeg_fail(j_common_ptr c) {
  auto* e = reinterpret_cast<JpegErrors*>(c->err);
  c->err->format_message(c, e->message);
  std::longjmp(e->jump, 1);
}

// Warnings are ignored (extraneous bytes before a marker are common in real
// files) except a premature end: libjpeg pads the rest of the image with
// grey, a silent wrong result, so it fails like the other formats.
void jpeg_note(j_common_ptr c, int level) {
  if (level < 0 && c->err->msg_code == JWRN_JPEG_EOF) jpeg_fail(c);
}

// The most scans a JPEG may have: 128, plus what 2^22 block visits allow
// beyond them for small images. libjpeg walks every block of a component on
// each scan of it, so a progressive file that repeats scans costs scans x
// blocks of work from a small file (10,000 repeats of one 16-byte scan: 168
// KB, 7 s). Real encoders write at most a few dozen scans.
uint64_t jpeg_scan_limit(uint64_t blocks) { return 128 + (uint64_t{1} << 22) / std::max<uint64_t>(1, blocks); }

struct JpegProgress {
  jpeg_progress_mgr pub;
  uint64_t scan_limit = 0;
  uint64_t blocks = 0;  ///< 8x8 blocks over all components
};

struct JpegState {
  jpeg_decompress_struct cinfo;
  JpegErrors err;
  JpegProgress progress;
  RgbaImage img;
};

// Called by libjpeg between pieces of work (per MCU row while reading scans):
// refuses a file past its scan limit, as a decoding error.
void jpeg_check_scans(j_common_ptr c) {
  if (!c->is_decompressor) return;
  auto* d = reinterpret_cast<j_decompress_ptr>(c);
  auto* p = reinterpret_cast<JpegProgress*>(c->progress);
  if (d->input_scan_number >= 0 && static_cast<uint64_t>(d->input_scan_number) > p->scan_limit) {
    auto* e = reinterpret_cast<JpegErrors*>(c->err);
    std::snprintf(e->message, sizeof e->message,
                  "decode bomb: the JPEG has more than %llu scans (swz reads at most %llu for a %ux%u image: 128, plus "
                  "2^22 block visits over its %llu blocks)",
                  static_cast<unsigned long long>(p->scan_limit), static_cast<unsigned long long>(p->scan_limit),
                  d->image_width, d->image_height,
                  static_cast<unsigned long long>(p->blocks));
    std::longjmp(e->jump, 1);
  }
}

void decode_jpeg_into(JpegState& st, const uint8_t* data, size_t size, const std::string& name) {
  jpeg_decompress_struct& cinfo = st.cinfo;
  JpegErrors& err = st.err;
  RgbaImage& img = st.img;
  std::memset(&cinfo, 0, sizeof cinfo);
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jpeg_fail;
  err.pub.emit_message = jpeg_note;
  err.message[0] = 0;
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    fail("cannot decode image '" + name + "': " + err.message);
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(size));
  jpeg_read_header(&cinfo, TRUE);
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    std::snprintf(err.message, sizeof err.message, "CMYK JPEG files are not supported");
    std::longjmp(err.jump, 1);
  }
  // JPEG has no useful lower bound on the bytes per pixel (arithmetic coding
  // can code a flat image in almost nothing): refuse decoded sizes absurd
  // for the file, past 4096 bytes per file byte once above 16 MiB, before
  // anything large is allocated.
  {
    const uint64_t decoded = uint64_t{cinfo.image_width} * cinfo.image_height * 4;
    if (decoded > (uint64_t{16} << 20) && decoded / 4096 > size) {
      std::snprintf(
          err.message, sizeof err.message,
          "its header promises %ux%u pixels (%llu bytes decoded) from a file of %zu bytes; swz refuses more than 4096 "
          "decoded bytes per file byte",
          cinfo.image_width, cinfo.image_height, static_cast<unsigned long long>(decoded), size);
      std::longjmp(err.jump, 1);
    }
  }
  {
    uint64_t blocks = 0;
    for (int i = 0; i < cinfo.num_components; ++i)
      blocks += uint64_t{cinfo.comp_info[i].width_in_blocks} * cinfo.comp_info[i].height_in_blocks;
    st.progress.scan_limit = jpeg_scan_limit(blocks);
    st.progress.blocks = blocks;
    st.progress.pub.progress_monitor = jpeg_check_scans;
    cinfo.progress = &st.progress.pub;
  }
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&cinfo);
  const uint32_t w = cinfo.output_width, h = cinfo.output_height;
  if (cinfo.output_components != 4) {
    std::snprintf(err.message, sizeof err.message, "unexpected %d components after conversion to RGBA",
                  cinfo.output_components);
    std::longjmp(err.jump, 1);
  }
  try {
    img.pixels = allocate_pixels(uint64_t{w} * h * 4, "image '" + name + "'");
  } catch (...) {
    jpeg_destroy_decompress(&cinfo);
    throw;
  }
  while (cinfo.output_scanline < h) {
    JSAMPROW row = img.pixels.data() + uint64_t{cinfo.output_scanline} * w * 4;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  img.width = w;
  img.height = h;
}

RgbaImage decode_jpeg(const uint8_t* data, size_t size, const std::string& name) {
  auto st = std::make_unique<JpegState>();
  decode_jpeg_into(*st, data, size, name);
  return std::move(st->img);
}

// ---- BMP, TGA (stb_image) ---------------------------------------------------------

struct StbFree {
  void operator()(unsigned char* p) const { stbi_image_free(p); }
};

RgbaImage decode_stb(const uint8_t* data, size_t size, const std::string& name) {
  if (size > 0x7fffffff) fail("image '" + name + "' is larger than 2 GiB, too large for the BMP/TGA decoder");
  int w = 0, h = 0, n = 0;
  std::unique_ptr<unsigned char, StbFree> px(stbi_load_from_memory(data, static_cast<int>(size), &w, &h, &n, 4));
  if (!px) fail("cannot decode image '" + name + "': " + std::string(stbi_failure_reason()));
  if (w <= 0 || h <= 0) fail("'" + name + "' has no pixels");
  RgbaImage img;
  img.width = static_cast<uint32_t>(w);
  img.height = static_cast<uint32_t>(h);
  img.pixels = allocate_pixels(uint64_t(img.width) * img.height * 4, "image '" + name + "'");
  std::memcpy(img.pixels.data(), px.get(), img.pixels.size());
  return img;
}

}  // namespace

RgbaImage decode_rgba(const uint8_t* data, size_t size, const std::string& name) {
  check_image_bytes(data, size, size, name);
  if (size >= 8 && std::memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0) return decode_png(data, size, name);
  if (size >= 2 && data[0] == 0xFF && data[1] == 0xD8) return decode_jpeg(data, size, name);
  return decode_stb(data, size, name);
}

RgbaImage read_rgba(const std::string& path) {
  check_image_file_size(path);  // before reading the whole file
  PixelBuffer bytes;
  read_file_prefix(path, file_size(path), &bytes);
  return decode_rgba(bytes.data(), bytes.size(), path);
}

}  // namespace swz::cli
