// swz CLI — decoded PNG output (view_png.hpp).
#include "view_png.hpp"

#include <vector>

#include "common.hpp"
#include "image_io.hpp"
#include "input.hpp"
#include "texture.hpp"

namespace swz::cli {

bool png_needs_decode(const FormatInfo& f, const ViewOptions& v) {
  const std::string letters = image_channel_letters(f);
  const bool image_format = f.unorm8 && !letters.empty() && letters.size() == f.element_bytes && letters.size() <= 4;
  return v.given || !image_format;
}

void load_palette(const std::string& spec, Palette* out) {
  // FILE[:FORMAT]: a format name never holds ':', a path may.
  std::string path = spec, format = "R8G8B8A8_UNORM";
  const size_t colon = path.rfind(':');
  if (colon != std::string::npos && colon + 1 < path.size()) {
    FormatInfo probe;
    if (find_format(path.substr(colon + 1), &probe).ok()) {
      format = path.substr(colon + 1);
      path.resize(colon);
    }
  }
  out->image.format = lookup_format(format);
  out->bytes = read_input(path, 0, uint64_t{65536} * 16 + 1, false);
  const uint64_t eb = out->image.format.element_bytes;
  if (eb == 0 || out->bytes.size == 0 || out->bytes.size % eb || out->bytes.size / eb > 65536)
    fail("--palette '" + path + "' has " + std::to_string(out->bytes.size) + " bytes: not 1..65536 whole " +
         out->image.format.name + " entries (" + std::to_string(eb) + " bytes each)");
  out->image.width_px = static_cast<uint32_t>(out->bytes.size / eb);
  out->image.height_px = 1;
  out->image.data = out->bytes.data();
  out->image.size_B = out->bytes.size;
}

void write_decoded_png(const ByteSink& out, const std::string& name, const uint8_t* linear,
                       const SubresourceLayout& s, const FormatInfo& f, const ViewOptions& v) {
  check(check_decodable(f), "cannot write " + std::string(f.name) + " as a PNG");
  const uint64_t slice_B = uint64_t{s.width_el} * s.height_el * s.element_bytes;
  const uint64_t rows = uint64_t{s.height} * s.depth;
  if (rows > UINT32_MAX) fail("the PNG would have more than 2^32 rows");
  const uint64_t slice_px = uint64_t{s.width} * s.height * 4;
  std::vector<uint8_t> rgba = allocate(slice_px * s.depth, "the decoded PNG pixels");
  DecodeOptions opts = v.decode();
  Palette palette;
  if (!v.palette.empty()) {
    load_palette(v.palette, &palette);
    opts.palette = &palette.image;
  }
  FormatInfo rgba8;
  check(find_format("R8G8B8A8_UNORM", &rgba8), "R8G8B8A8_UNORM");
  for (uint32_t z = 0; z < s.depth; ++z) {
    LinearImage img;
    img.format = f;
    img.width_px = s.width;
    img.height_px = s.height;
    img.data = linear + z * slice_B;
    img.size_B = slice_B;
    check(decode_rgba8(img, opts, rgba.data() + z * slice_px, slice_px), "cannot decode " + std::string(f.name));
  }
  write_png(out, name, rgba.data(), s.width, static_cast<uint32_t>(rows), rgba8);
}

void write_subresource_png(const ByteSink& out, const std::string& name, const uint8_t* linear,
                           const SubresourceLayout& s, const FormatInfo& f, const ViewOptions& v) {
  // A 3D subresource's tight slices, one under the other, form one image.
  const uint64_t rows = uint64_t(s.height_el) * s.depth;
  if (rows > UINT32_MAX) fail("the PNG would have more than 2^32 rows");
  if (png_needs_decode(f, v))
    write_decoded_png(out, name, linear, s, f, v);
  else
    write_png(out, name, linear, s.width_el, static_cast<uint32_t>(rows), f);
}

}  // namespace swz::cli
