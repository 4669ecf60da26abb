// stb_image_write's implementation, for `swz plot` only (small images; the
// conversions write PNG through libpng, png_write.cpp). Compiled without our
// warnings: third-party code.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
