// libFuzzer harness: the swz command's image input (src/cli/image_decode.cpp)
// on arbitrary bytes: PNG through libpng, JPEG through libjpeg-turbo, BMP and
// TGA through stb_image after the header-size checks. Properties: an error is
// a cli::Error with a message; a success has width * height * 4 bytes and
// decodes no more than the size checks allow for the input's size.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common.hpp"
#include "image_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An exactly sized heap block, so that ASan sees any overread.
  std::vector<uint8_t> file(data, data + size);
  try {
    const swz::cli::RgbaImage img = swz::cli::decode_rgba(file.data(), file.size(), "input");
    if (img.width == 0 || img.height == 0 || img.pixels.size() != uint64_t{img.width} * img.height * 4) {
      std::fprintf(stderr, "swz fuzz property failed: %ux%u image with %zu bytes\n", img.width, img.height,
                   img.pixels.size());
      std::abort();
    }
  } catch (const swz::cli::Error& e) {
    if (std::string(e.what()).empty()) {
      std::fprintf(stderr, "swz fuzz property failed: an error without a message\n");
      std::abort();
    }
  }
  return 0;
}
