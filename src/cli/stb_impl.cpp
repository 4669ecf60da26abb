// The one translation unit that compiles stb_image (input only; PNG output
// goes through libpng, png_write.cpp)
// (header-only libraries; Debian ships the headers in libstb-dev).
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#include <stb/stb_image.h>
