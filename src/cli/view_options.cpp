// swz CLI — the view options of PNG output (view_png.hpp): their choices,
// their command-line form and the DecodeOptions they map to. No I/O.
#include <string>
#include <vector>

#include "common.hpp"
#include "view_png.hpp"

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

}  // namespace swz::cli
