// swz CLI — `swz view` request parameters (view_request.hpp).
#include "view_request.hpp"

#include <charconv>
#include <exception>
#include <limits>
#include <new>
#include <set>

#include "common.hpp"
#include "number_option.hpp"
#include "swz/layout_names.hpp"
#include "swz/quote.hpp"

namespace swz::cli {
namespace {

// `value` of parameter `name` as an unsigned number in 0..max (decimal or 0x hex).
uint64_t number(const std::string& name, const std::string& value, uint64_t max) {
  const std::string e = unsigned_text_error(value, max);
  if (!e.empty()) fail(name + ": " + e);
  uint64_t v = 0;
  (void)read_unsigned(value, &v);
  return v;
}

uint32_t number32(const std::string& name, const std::string& value, uint32_t min = 0,
                  uint32_t max = std::numeric_limits<uint32_t>::max()) {
  const uint64_t v = number(name, value, max);
  if (v < min) fail(name + ": '" + value + "' is below " + std::to_string(min));
  return static_cast<uint32_t>(v);
}

bool flag(const std::string& name, const std::string& value) {
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false" || value.empty()) return false;
  fail(name + ": '" + value + "' is not 0, 1, true or false");
}

// A layout a request may name: the command line's, pattern text, or a listed
// built-in name (with parameters); never a file path.
void check_layout(const std::string& value, const std::string& command_line_layout) {
  if (value == command_line_layout || value.rfind("pattern:", 0) == 0) return;
  const std::string head = value.substr(0, value.find(':'));
  for (const LayoutListing& l : layout_listing())
    if (l.name.find('.') == std::string::npos && l.name.substr(0, l.name.find(':')) == head) return;
  fail("layout " + quoted_for_message(value) +
       ": not a built-in layout name or 'pattern:TEXT' (see 'swz layouts'; a request cannot name a file)");
}

void set_field(ViewRequest* r, const std::string& name, const std::string& value, const ViewRequest& defaults) {
  CommonOptions& t = r->texture;
  if (name == "layout") {
    check_layout(value, defaults.texture.layout);
    t.layout = value;
  } else if (name == "format") {
    t.format = value;
  } else if (name == "size") {
    t.size = value;
  } else if (name == "mips") {
    t.mips = value;
  } else if (name == "array") {
    t.array = number32(name, value, 1);
  } else if (name == "offset") {
    (void)number(name, value, std::numeric_limits<uint64_t>::max());
    t.offset = value;
  } else if (name == "mip") {
    r->mip = number32(name, value);
  } else if (name == "slice") {
    r->slice = number32(name, value);
  } else if (name == "z") {
    r->z = number32(name, value);
  } else if (name == "sample") {
    r->sample = number32(name, value);
  } else if (name == "x") {
    r->x = number32(name, value);
  } else if (name == "y") {
    r->y = number32(name, value);
  } else if (name == "at") {
    r->at_B = number(name, value, std::numeric_limits<uint64_t>::max());
  } else if (name == "count") {
    r->count_B = number32(name, value, 1, kMaxCount_B);
  } else if (name == "top") {
    r->top = number32(name, value, 1, kMaxTop);
  } else if (name == "offset-step") {
    r->offset_step_B = number(name, value, std::numeric_limits<uint64_t>::max());
  } else if (name == "channel") {
    r->view.channel = value;
  } else if (name == "tone-map") {
    r->view.tone_map = value;
  } else if (name == "yuv") {
    r->view.yuv = value;
  } else if (name == "endian") {
    r->view.endian = value;
  } else if (name == "yuv-full-range") {
    r->view.yuv_full_range = flag(name, value);
  } else if (name == "stencil") {
    r->view.stencil = flag(name, value);
  } else if (name == "exposure") {
    double ev = 0;
    const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), ev);
    if (value.empty() || ec != std::errc() || p != value.data() + value.size())
      fail("exposure: " + quoted_for_message(value) + " is not a number (EV, e.g. -2.5)");
    if (!(ev >= -64.0 && ev <= 64.0))  // the command line's range; NaN fails too
      fail("exposure: " + quoted_for_message(value) + " is not in [-64, 64]");
    r->view.exposure_ev = ev;
  } else if (name == "palette") {
    // On: the command line's --palette FILE[:FORMAT]; a request never names a file.
    if (!flag(name, value))
      r->view.palette.clear();
    else if (defaults.view.palette.empty())
      fail("palette: '" + value + "': swz view was started without --palette FILE[:FORMAT]");
    else
      r->view.palette = defaults.view.palette;
  } else {
    fail("unknown parameter " + quoted_for_message(name));
  }
}

// Whether any view option differs from its default (then PNG output decodes, as deswizzle's does).
bool any_view_option(const ViewOptions& v) {
  const ViewOptions d;
  return v.channel != d.channel || v.exposure_ev != d.exposure_ev || v.tone_map != d.tone_map || v.yuv != d.yuv ||
         v.endian != d.endian || v.yuv_full_range || v.stencil || !v.palette.empty();
}

}  // namespace

ViewRequest parse_view_request(const QueryParams& params, const ViewRequest& defaults) {
  if (params.size() > kMaxParams)
    fail("the request has " + std::to_string(params.size()) + " parameters (at most " + std::to_string(kMaxParams) +
         ")");
  ViewRequest r = defaults;
  std::set<std::string> seen;
  for (const auto& [name, value] : params) {
    if (name.size() > 32) fail("unknown parameter " + quoted_for_message(name.substr(0, 32) + "..."));
    if (name == "token") continue;
    if (!seen.insert(name).second) fail(name + ": given more than once");
    if (value.size() > kMaxParamValue)
      fail(name + ": the value has " + std::to_string(value.size()) + " characters (at most " +
           std::to_string(kMaxParamValue) + ")");
    set_field(&r, name, value, defaults);
  }
  check_view_choices(r.view);
  r.view.given = any_view_option(r.view);
  return r;
}

std::string try_parse_view_request(const QueryParams& params, const ViewRequest& defaults, ViewRequest* out) noexcept {
  try {
    *out = parse_view_request(params, defaults);
    return {};
  } catch (const std::bad_alloc&) {
    return "out of memory";
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string deswizzle_command(const ViewRequest& r, const std::string& dump_path, uint32_t subresource) {
  const CommonOptions& t = r.texture;
  std::string cmd = "swz deswizzle";
  auto add = [&cmd](const std::string& option, const std::string& value) {
    cmd += " " + option + " " + shell_word(value);
  };
  add("--layout", t.layout);
  if (!t.format.empty()) add("--format", t.format);
  if (!t.size.empty()) add("--size", t.size);
  if (!t.mips.empty()) add("--mips", t.mips);
  if (t.array != 1) add("--array", std::to_string(t.array));
  if (!t.offset.empty() && t.offset != "0") add("--offset", t.offset);
  if (subresource != 0) add("--subresource", std::to_string(subresource));
  const ViewOptions d;
  const ViewOptions& v = r.view;
  if (v.channel != d.channel) add("--channel", v.channel);
  if (v.exposure_ev != d.exposure_ev) {
    char ev[32];
    std::snprintf(ev, sizeof ev, "%.17g", v.exposure_ev);
    add("--exposure", ev);
  }
  if (v.tone_map != d.tone_map) add("--tone-map", v.tone_map);
  if (v.yuv != d.yuv) add("--yuv", v.yuv);
  if (v.yuv_full_range) cmd += " --yuv-full-range";
  if (v.stencil) cmd += " --stencil";
  if (v.endian != d.endian) add("--endian", v.endian);
  if (!v.palette.empty()) add("--palette", v.palette);
  return cmd + " " + shell_word(dump_path) + " OUT.png";
}

}  // namespace swz::cli
