// The one translation unit that compiles stb_image (Debian: libstb-dev,
// header-only), for BMP and TGA input only: PNG input and output go through
// libpng, JPEG input through libjpeg-turbo (image_decode.cpp, png_write.cpp).
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#include <stb/stb_image.h>
