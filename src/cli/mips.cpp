// Mip generation for image input (swz swizzle --mips): see half_size in image_io.hpp.
#include <algorithm>
#include <cmath>
#include <vector>

#include "file_io.hpp"
#include "image_io.hpp"

namespace swz::cli {
namespace {

struct Tap {
  uint32_t index;
  double weight;
};

/// For each output index of an axis shrunk from `src` to `dst` texels: the
/// source texels under its footprint [i*src/dst, (i+1)*src/dst) and their
/// overlap as weights (summing to 1).
std::vector<std::vector<Tap>> axis_taps(uint32_t src, uint32_t dst) {
  std::vector<std::vector<Tap>> taps(dst);
  const double scale = static_cast<double>(src) / dst;
  for (uint32_t i = 0; i < dst; ++i) {
    const double a = i * scale, b = (i + 1) * scale;
    for (uint32_t j = static_cast<uint32_t>(std::floor(a)); j < src && j < b; ++j) {
      const double w = std::min<double>(b, j + 1) - std::max<double>(a, j);
      if (w > 0) taps[i].push_back({j, w / scale});
    }
  }
  return taps;
}


uint8_t to_byte(double v255) { return static_cast<uint8_t>(std::clamp(std::floor(v255 + 0.5), 0.0, 255.0)); }

}  // namespace

Image half_size(const Image& src) {
  Image out;
  out.width = src.width > 1 ? src.width / 2 : 1;
  out.height = src.height > 1 ? src.height / 2 : 1;
  out.channels = src.channels;
  out.srgb = src.srgb;
  out.alpha_channel = src.alpha_channel;
  out.pixels = allocate_pixels(uint64_t(out.width) * out.height * out.channels, "a mip level");
  const uint32_t c = src.channels;
  const uint64_t pitch = uint64_t(src.width) * c;
  const auto tx = axis_taps(src.width, out.width), ty = axis_taps(src.height, out.height);
  double decode[256];
  for (int v = 0; v < 256; ++v) decode[v] = src.srgb ? srgb_to_linear(v / 255.0) : v;
  std::vector<double> sum(c);
  for (uint32_t y = 0; y < out.height; ++y) {
    for (uint32_t x = 0; x < out.width; ++x) {
      std::fill(sum.begin(), sum.end(), 0.0);
      for (const Tap& a : ty[y])
        for (const Tap& b : tx[x]) {
          const uint8_t* p = &src.pixels[a.index * pitch + uint64_t(b.index) * c];
          const double w = a.weight * b.weight;
          for (uint32_t k = 0; k < c; ++k)
            sum[k] += w * (src.srgb && static_cast<int>(k) != src.alpha_channel ? decode[p[k]] : p[k]);
        }
      uint8_t* o = &out.pixels[(uint64_t(y) * out.width + x) * c];
      for (uint32_t k = 0; k < c; ++k)
        o[k] = src.srgb && static_cast<int>(k) != src.alpha_channel ? to_byte(255.0 * linear_to_srgb(sum[k]))
                                                                    : to_byte(sum[k]);
    }
  }
  return out;
}

}  // namespace swz::cli
