// Checks an image file's header against the file's size before stb_image
// decodes it. stb reads zeros past the end of a TGA or BMP file without an
// error, so a truncated file decoded to garbage with exit status 0, and a
// 34-byte TGA header with no pixels became a 1.8 GiB image.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common.hpp"
#include "file_io.hpp"
#include "image_io.hpp"

namespace swz::cli {
namespace {

uint32_t le16(const unsigned char* p) { return p[0] | (uint32_t{p[1]} << 8); }
uint32_t le32(const unsigned char* p) { return le16(p) | (le16(p + 2) << 16); }
uint32_t be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

[[noreturn]] void truncated(const std::string& path, const std::string& kind, uint64_t w, uint64_t h, uint64_t need,
                            uint64_t have, const std::string& what) {
  fail("image '" + path + "' is truncated or corrupt: its " + kind + " header promises " + std::to_string(w) + "x" +
       std::to_string(h) + " pixels, " + what + " " + std::to_string(need) + " bytes, but the file has " +
       std::to_string(have));
}

}  // namespace

void check_image_file_size(const std::string& path) {
  const uint64_t have = file_size(path);
  unsigned char hd[64] = {};
  size_t got = 0;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    got = std::fread(hd, 1, sizeof hd, f);
    std::fclose(f);
  }
  check_image_bytes(hd, got, have, path);
}

void check_image_bytes(const uint8_t* head, size_t got, uint64_t have, const std::string& path) {
  // stb_image reads zeros past the end of the file, headers included (a
  // 17-byte TGA header can promise 44816x2560 pixels): read the header the
  // same way.
  uint8_t hd[64] = {};
  if (got) std::memcpy(hd, head, std::min<size_t>(got, sizeof hd));
  // The format as decode_rgba detects it (by content, TGA last).
  if (got >= 8 && hd[0] == 0x89 && hd[1] == 'P' && hd[2] == 'N' && hd[3] == 'G') {
    if (got < 29) return;  // libpng reports the short header
    // IHDR: width, height, bit depth, colour type. The filtered image data is
    // at least (ceil(width * bits / 8) + 1) * height bytes, and deflate
    // shrinks data at most 1032:1 (RFC 1951: a 258-byte match in 2 bits
    // at best), so the file must hold at least that / 1032.
    const uint64_t w = be32(hd + 16), h = be32(hd + 20), depth = hd[24], color = hd[25];
    const uint64_t chans = color == 2 ? 3 : color == 4 ? 2 : color == 6 ? 4 : 1;
    const uint64_t raw = ((w * chans * depth + 7) / 8 + 1) * h;
    const uint64_t need = raw / 1032;
    if (have < need) truncated(path, "PNG", w, h, need, have, "which deflate cannot store in fewer than");
    return;
  }
  if (got >= 2 && hd[0] == 0xFF && hd[1] == 0xD8) return;  // JPEG: libjpeg reports truncation (image_decode.cpp)
  if (got >= 2 && hd[0] == 'B' && hd[1] == 'M') {
    const uint64_t offset = le32(hd + 10), hsz = le32(hd + 14);
    uint64_t w = 0, h = 0, bpp = 0, comp = 0;
    if (hsz == 12) {  // BITMAPCOREHEADER
      w = le16(hd + 18);
      h = le16(hd + 20);
      bpp = le16(hd + 24);
    } else {
      const int32_t sw = static_cast<int32_t>(le32(hd + 18)), sh = static_cast<int32_t>(le32(hd + 22));
      w = static_cast<uint64_t>(std::llabs(sw));
      h = static_cast<uint64_t>(std::llabs(sh));  // negative: rows top-down
      bpp = le16(hd + 28);
      comp = le32(hd + 30);
    }
    // A zero width or height: stb decodes nothing but still walks every row
    // (a 36-byte file can claim a height of 2^24 rows). No BMP writer makes
    // such a file.
    if (w == 0 || h == 0)
      fail("image '" + path + "' is corrupt: its BMP header gives width = " + std::to_string(w) +
           ", height = " + std::to_string(h) + " (both must be at least 1)");
    // Bits per pixel other than 1, 4, 8, 16, 24 and 32 (0 included: JPEG or PNG inside a BMP): stb
    // refuses them, but only after allocating the whole RGBA output (a few bytes of header can
    // ask for gigabytes; the size check below needs the bit depth).
    if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
      fail("image '" + path + "' is corrupt or unsupported: its BMP header gives " + std::to_string(bpp) +
           " bits per pixel (swz reads 1, 4, 8, 16, 24 or 32)");
    // Rows of ceil(w * bpp / 32) * 4 bytes from the pixel data offset; the
    // last row's padding may be missing. stb refuses the RLE compressions
    // (1, 2) and reads every other value as uncompressed.
    if (comp != 1 && comp != 2) {
      const uint64_t row = (w * bpp + 31) / 32 * 4;
      const uint64_t need = offset + row * (h - 1) + (w * bpp + 7) / 8;
      if (have < need) truncated(path, "BMP", w, h, need, have, "pixel data ending at byte");
    }
    return;
  }
  // TGA (stb tries it last, for any file that no other test claimed).
  const uint64_t idlen = hd[0], cmtype = hd[1], type = hd[2], cmlen = le16(hd + 5), cmbits = hd[7];
  const uint64_t w = le16(hd + 12), h = le16(hd + 14), bpp = hd[16];
  const bool plain = type == 1 || type == 2 || type == 3, rle = type == 9 || type == 10 || type == 11;
  if ((!plain && !rle) || w == 0 || h == 0 || bpp == 0) return;  // not a TGA stb accepts
  const uint64_t px_bytes = (bpp + 7) / 8;
  const uint64_t header = 18 + idlen + (cmtype ? cmlen * ((cmbits + 7) / 8) : 0);
  const uint64_t pixels = w * h;
  // Uncompressed: every pixel. Run-length: each packet is a count byte and at
  // least one pixel, and covers at most 128 pixels.
  const uint64_t need = header + (plain ? pixels * px_bytes : (pixels + 127) / 128 * (1 + px_bytes));
  if (have < need)
    truncated(path, "TGA", w, h, need, have,
              plain ? "header and pixels taking" : "whose run-length packets take at least");
}

}  // namespace swz::cli
