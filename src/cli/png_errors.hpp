// libpng's error callbacks, shared by the CLI's PNG decoder (image_decode.cpp)
// and encoder (png_write.cpp). libpng's error handler must not return: it
// keeps the first message and jumps back to the caller's setjmp (no C++
// object lives in the frames in between). Warnings are dropped.
#pragma once
#include <png.h>

#include <string>

namespace swz::cli {

/// What png_create_*_struct gets as its error pointer (pass it as this type).
struct PngErrors {
  std::string error;
};

[[noreturn]] inline void png_keep_error(png_structp png, png_const_charp msg) {
  auto* s = static_cast<PngErrors*>(png_get_error_ptr(png));
  if (s->error.empty()) s->error = msg ? msg : "libpng error";
  png_longjmp(png, 1);
}

inline void png_drop_warning(png_structp, png_const_charp) {}

}  // namespace swz::cli
