// swz CLI — decoded PNG output (view_png.hpp).
#include "view_png.hpp"

#include <vector>

#include "common.hpp"
#include "image_io.hpp"
#include "input.hpp"
#include "texture.hpp"

namespace swz::cli {

namespace {
const std::vector<std::string> kChannels = {"rgba", "rgb", "r", "g", "b", "a"};
const std::vector<std::string> kToneMaps = {"clamp", "reinhard"};
const std::vector<std::string> kYuvMatrices = {"bt601", "bt709"};
const std::vector<std::string> kEndians = {"little", "big16", "big32"};

// "--channel 'x': expected one of rgba, rgb, ..." or "" when `value` is one of `choices`.
std::string choice_error(const std::string& option, const std::string& value, const std::vector<std::string>& choices) {
  std::string list;
  for (const std::string& c : choices) {
    if (c == value) return {};
    list += (list.empty() ? "" : ", ") + c;
  }
  return option + " '" + value + "': expected one of " + list;
}
}  // namespace

void check_view_choices(const ViewOptions& v) {
  for (const std::string& e : {choice_error("--channel", v.channel, kChannels),
                               choice_error("--tone-map", v.tone_map, kToneMaps),
                               choice_error("--yuv", v.yuv, kYuvMatrices), choice_error("--endian", v.endian, kEndians)})
    if (!e.empty()) fail(e);
}

void add_view_options(CLI::App* app, ViewOptions* v) {
  auto mark = [v](auto) { v->given = true; };
  app->add_option("--channel", v->channel,
                  "OUT.png: show one component as grey (r, g, b, a), the colour opaque (rgb), or all (rgba, default)")
      ->check(CLI::IsMember(kChannels))
      ->each(mark);
  app->add_option("--exposure", v->exposure_ev,
                  "OUT.png of float data (FLOAT, BC6H, R11G11B10, R9G9B9E5): scale by 2^EV before the tone map "
                  "(default 0)")
      ->check(CLI::Range(-64.0, 64.0))
      ->each(mark);
  app->add_option("--tone-map", v->tone_map, "OUT.png of float data: clamp to [0, 1] (default) or reinhard (v / (1 + v))")
      ->check(CLI::IsMember(kToneMaps))
      ->each(mark);
  app->add_option("--yuv", v->yuv, "OUT.png of YUV formats: the matrix, bt601 or bt709 (default)")
      ->check(CLI::IsMember(kYuvMatrices))
      ->each(mark);
  app->add_flag("--yuv-full-range", v->yuv_full_range,
                "OUT.png of YUV formats: code values span the full range (default: limited, 16-235)")
      ->each(mark);
  app->add_flag("--stencil", v->stencil, "OUT.png of D24_UNORM_S8_UINT: show the stencil instead of the depth")
      ->each(mark);
  app->add_option("--endian", v->endian,
                  "OUT.png of big-endian data (Xbox 360, GameCube/Wii, PS3): big16 or big32 swaps each 16- or 32-bit "
                  "word of an element before decoding (default little)")
      ->check(CLI::IsMember(kEndians))
      ->each(mark);
  app->add_option("--palette", v->palette,
                  "OUT.png of P8, A8P8, AI44, IA44: FILE[:FORMAT], the palette's entries (default format "
                  "R8G8B8A8_UNORM; e.g. pal.bin:B5G5R5A1_UNORM)")
      ->each(mark);
}

DecodeOptions ViewOptions::decode() const {
  DecodeOptions d;
  for (size_t i = 0; i < kChannels.size(); ++i)
    if (channel == kChannels[i]) d.channel = static_cast<ViewChannel>(i);
  d.exposure_ev = exposure_ev;
  d.tone_map = tone_map == "reinhard" ? ToneMap::reinhard : ToneMap::clamp;
  d.yuv_matrix = yuv == "bt601" ? YuvMatrix::bt601 : YuvMatrix::bt709;
  d.yuv_full_range = yuv_full_range;
  d.stencil = stencil;
  d.byte_order = endian == "big16" ? ByteOrder::swap16 : endian == "big32" ? ByteOrder::swap32 : ByteOrder::little;
  return d;
}

void require_png_for_view_options(const ViewOptions& v, const std::string& type) {
  if (v.given && type != "png")
    fail("--channel, --exposure, --tone-map, --yuv, --yuv-full-range, --stencil, --endian and --palette apply to "
         "PNG output; this OUT is written as " + type + " (texels as stored)");
}

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
