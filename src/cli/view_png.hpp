// swz CLI — PNG output of any decodable format through swz::decode_rgba8,
// with the view options (--channel, --exposure, --tone-map, --yuv,
// --yuv-full-range, --stencil, --endian, --palette) that deswizzle takes.
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "file_io.hpp"
#include "image_io.hpp"
#include "input.hpp"
#include "swz/decode.hpp"
#include "swz/layout.hpp"

namespace swz::cli {

struct ViewOptions {
  std::string channel = "rgba", tone_map = "clamp", yuv = "bt709", endian = "little";
  std::string palette;  ///< FILE[:FORMAT] for palette formats (default format R8G8B8A8_UNORM)
  double exposure_ev = 0.0;
  bool yuv_full_range = false, stencil = false;
  bool given = false;  ///< any view option was given
  /// The options as the library takes them.
  DecodeOptions decode() const;
};

/// Adds the view options to a command.
void add_view_options(CLI::App* app, ViewOptions* v);

/// Throws Error when a view option was given but OUT is not a PNG (`type`
/// raw or dds), where it would be ignored.
void require_png_for_view_options(const ViewOptions& v, const std::string& type);

/// Whether PNG output of `f` goes through the decoder: every format but the
/// 8-bit UNORM image formats, which are written channel for channel (R8 as a
/// grey PNG, R8G8 as RGB, ...) unless a view option is given.
bool png_needs_decode(const FormatInfo& f, const ViewOptions& v);

/// Throws Error naming the option and value when a choice (--channel,
/// --tone-map, --yuv, --endian) is not one add_view_options accepts.
void check_view_choices(const ViewOptions& v);

/// A --palette FILE[:FORMAT] read into memory: `image` points into `bytes`.
struct Palette {
  InputBytes bytes;
  LinearImage image;
};
/// Reads --palette FILE[:FORMAT] (default format R8G8B8A8_UNORM). Throws
/// Error naming the file when it is not 1..65536 whole entries.
void load_palette(const std::string& spec, Palette* out);

/// Writes subresource `s` (tight element rows, depth slices one after the
/// other, as deswizzle reads it) decoded to an RGBA8 PNG; depth slices are
/// stacked vertically. `name` names the PNG in messages. Throws Error, naming
/// the format, when it cannot be decoded.
void write_decoded_png(const ByteSink& out, const std::string& name, const uint8_t* linear,
                       const SubresourceLayout& s, const FormatInfo& f, const ViewOptions& v);

/// The PNG `swz deswizzle ... OUT.png` writes for subresource `s`: decoded
/// (write_decoded_png) when png_needs_decode, else channel for channel
/// (write_png). Throws Error.
void write_subresource_png(const ByteSink& out, const std::string& name, const uint8_t* linear,
                           const SubresourceLayout& s, const FormatInfo& f, const ViewOptions& v);

}  // namespace swz::cli
