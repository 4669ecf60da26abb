#include "image_io.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>

#include "common.hpp"
#include "file_io.hpp"
#include "input.hpp"

namespace swz::cli {
namespace {

/// Channel letters of an 8-bit format in memory order ("BGRA" for
/// B8G8R8A8_UNORM); empty for any other format.
std::string channel_letters(const FormatInfo& f) {
  if (f.channel_bits != 8 && !(f.unorm8)) return {};
  return format_facts(f).components;
}

}  // namespace

std::string image_channel_letters(const FormatInfo& f) { return channel_letters(f); }

bool is_image_path(const std::string& path) {
  std::string e = extension_of(path);
  return e == ".png" || e == ".jpg" || e == ".jpeg" || e == ".bmp" || e == ".tga";
}

void require_image_format(const FormatInfo& f, const std::string& why) {
  std::string letters = channel_letters(f);
  if (!f.unorm8 || letters.empty() || letters.size() != f.element_bytes || letters.size() > 4)
    fail(why +
         " needs an 8-bit UNORM format with 1-4 channels (R8_UNORM, A8_UNORM, R8G8_UNORM, R8G8B8A8_UNORM, "
         "B8G8R8A8_UNORM, ...), not " +
         std::string(f.name) + "; use a raw .raw/.bin file for other formats");
}

Image load_image(const std::string& path, const FormatInfo& f) {
  require_image_format(f, "image input '" + path + "'");
  return rgba_to_format(read_rgba(path), f, path);
}

Image load_image_bytes(const uint8_t* data, size_t size, const std::string& name, const FormatInfo& f) {
  require_image_format(f, "image input '" + name + "'");
  return rgba_to_format(decode_rgba(data, size, name), f, name);
}

Image rgba_to_format(const RgbaImage& rgba, const FormatInfo& f, const std::string& path) {
  std::string letters = channel_letters(f);
  Image img;
  img.width = rgba.width;
  img.height = rgba.height;
  img.channels = static_cast<uint32_t>(letters.size());
  img.srgb = format_facts(f).srgb;
  const size_t a = letters.find('A');
  img.alpha_channel = a == std::string::npos ? -1 : static_cast<int>(a);
  uint64_t count = uint64_t(img.width) * img.height;
  img.pixels = allocate_pixels(count * img.channels, "image '" + path + "'");
  const uint8_t* src = rgba.pixels.data();
  uint8_t* dst = img.pixels.data();
  if (letters == "R") {
    // Luminance with stb_image's weights (77, 150, 29)/256, as before:
    // a grey image keeps its values.
    for (uint64_t i = 0; i < count; ++i, src += 4)
      *dst++ = static_cast<uint8_t>((src[0] * 77 + src[1] * 150 + src[2] * 29) >> 8);
    return img;
  }
  for (uint64_t i = 0; i < count; ++i, src += 4) {
    for (char c : letters) {
      switch (c) {
        case 'R':
          *dst++ = src[0];
          break;
        case 'G':
          *dst++ = src[1];
          break;
        case 'B':
          *dst++ = src[2];
          break;
        case 'A':
          *dst++ = src[3];
          break;
        default:
          *dst++ = 255;
          break;  // X
      }
    }
  }
  return img;
}

bool compare_images(const std::string& a, const std::string& b, std::string* report) {
  if (is_stdin(a) && is_stdin(b)) fail("compare: A and B are both standard input ('-'); give at most one as '-'");
  // '-' is standard input (an image by its signature), as for the other commands.
  auto read = [](const std::string& path) {
    if (!is_stdin(path)) return read_rgba(path);
    const InputBytes in = read_input(path, 0, UINT64_MAX, false);
    return decode_rgba(in.data(), static_cast<size_t>(in.size), input_name(path));
  };
  const RgbaImage ia = read(a), ib = read(b);
  const uint64_t wa = ia.width, ha = ia.height, wb = ib.width, hb = ib.height;
  const unsigned char *pa = ia.pixels.data(), *pb = ib.pixels.data();
  if (wa != wb || ha != hb) {
    *report = "different: '" + a + "' is " + std::to_string(wa) + "x" + std::to_string(ha) + ", '" + b + "' is " +
              std::to_string(wb) + "x" + std::to_string(hb);
    return false;
  }
  uint64_t count = wa * ha;
  const unsigned char *p = pa, *q = pb;
  for (uint64_t i = 0; i < count; ++i) {
    if (std::memcmp(p + 4 * i, q + 4 * i, 4) != 0) {
      auto px = [](const unsigned char* v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "(%u,%u,%u,%u)", v[0], v[1], v[2], v[3]);
        return std::string(buf);
      };
      uint64_t diff = 0;
      for (uint64_t j = i; j < count; ++j) diff += std::memcmp(p + 4 * j, q + 4 * j, 4) != 0;
      *report = "different: " + std::to_string(diff) + " of " + std::to_string(count) +
                " pixels differ; first at x=" + std::to_string(i % uint64_t(wa)) +
                " y=" + std::to_string(i / uint64_t(wa)) + ": RGBA " + px(p + 4 * i) + " vs " + px(q + 4 * i);
      return false;
    }
  }
  *report = "identical: " + std::to_string(count) + " pixels (" + std::to_string(wa) + "x" + std::to_string(ha) +
            ", compared as RGBA8)";
  return true;
}

}  // namespace swz::cli
