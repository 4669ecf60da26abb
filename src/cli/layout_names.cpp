#include "layout_names.hpp"

#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>
#include <filesystem>

#include "common.hpp"
#include "swz/device_layout.hpp"
#include "swz/pattern.hpp"
#include "swz/vendor.hpp"

namespace swz::cli {
namespace {

struct Builtin {
  const char* name;
  const char* description;
  /// Sets up the choice. `params` is the text after "name:" ("" when absent).
  void (*apply)(std::string_view params, LayoutChoice* choice);
  bool takes_params;
};

void no_params(const char* name, std::string_view params) {
  if (!params.empty()) fail("layout '" + std::string(name) + "' takes no parameters (got ':" + std::string(params) + "')");
}

const Builtin kBuiltins[] = {
    {"row-major",
     "linear rows; row pitch = row bytes aligned up to 256, subresources on 512-byte boundaries (D3D12 copyable "
     "footprints)",
     [](std::string_view p, LayoutChoice* c) {
       no_params("row-major", p);
       c->spec.kind = LayoutKind::RowMajor;
     },
     false},
    {"std64k",
     "D3D12 64KB standard swizzle (D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE): 2D and 3D, 8-128 bpp and BC; "
     "64KB tiles in row-major order",
     [](std::string_view p, LayoutChoice* c) {
       no_params("std64k", p);
       c->spec.kind = LayoutKind::Std64K;
     },
     false},
    {"std4k",
     "4KB standard swizzle (Intel TileYf, AMD SW_4KB_S): 2D = the low 12 bits of std64k, 3D = 4KB bricks; "
     "NOT a D3D12 API layout",
     [](std::string_view p, LayoutChoice* c) {
       no_params("std4k", p);
       c->spec.kind = LayoutKind::Std4K;
     },
     false},
};

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read pattern file '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

[[noreturn]] void unknown(std::string_view arg) {
  fail("unknown layout '" + std::string(arg) + "'; built-in layouts: " + builtin_layout_names() +
       "; vendor families such as nv-block-linear:gob=tegra,bh=8, intel-tile4, amd-gfx10-sw64k-s-x (all of them:"
       " 'swz layouts'); or 'pattern:TEXT' (e.g. 'pattern:X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2'), or the path of a pattern or"
       " resource-layout JSON file");
}

}  // namespace

std::string builtin_layout_names() {
  std::string out;
  for (const Builtin& b : kBuiltins) {
    if (!out.empty()) out += ", ";
    out += b.name;
  }
  return out;
}

void parse_layout_arg(std::string_view arg, LayoutChoice* choice) {
  LayoutSpec* spec = &choice->spec;
  if (arg.empty()) unknown(arg);

  // 1. pattern:TEXT
  constexpr std::string_view kPattern = "pattern:";
  if (arg.substr(0, kPattern.size()) == kPattern) {
    Pattern p;
    check(parse_pattern_text(arg.substr(kPattern.size()), &p), "--layout pattern");
    spec->kind = LayoutKind::Pattern;
    spec->pattern = p;
    return;
  }

  // 2. built-in names, "name" or "name:params"
  std::string_view head = arg, params;
  if (auto colon = arg.find(':'); colon != std::string_view::npos) {
    head = arg.substr(0, colon);
    params = arg.substr(colon + 1);
  }
  for (const Builtin& b : kBuiltins) {
    if (head == b.name) {
      if (!b.takes_params && arg.size() != head.size() && params.empty())
        fail("layout '" + std::string(b.name) + "' takes no parameters");
      b.apply(params, choice);
      return;
    }
  }

  // 2b. vendor layout families (swz/vendor.hpp): "nv-block-linear:gob=tegra,bh=8", ...
  if (is_named_layout(arg)) {
    std::string named(arg);
    spec->kind = LayoutKind::Explicit;
    choice->build = [named](const TextureDesc& d, const LayoutSpec&, Layout* out) { return make_named_layout(named, d, out); };
    return;
  }

  // 3. a pattern JSON file
  std::string path(arg);
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    std::string json = read_text_file(path);
    Pattern p;
    Status ps = parse_pattern_json(json, &p);
    if (ps.ok()) {
      spec->kind = LayoutKind::Pattern;
      spec->pattern = p;
      return;
    }
    // A resource layout as a driver reports it (patterns/README.md).
    auto dev = std::make_shared<DeviceLayoutDesc>();
    Status ds = parse_resource_layout_json(json, dev.get());
    if (ds.ok()) {
      spec->kind = LayoutKind::Explicit;
      choice->texture = dev->texture;
      choice->build = [dev](const TextureDesc&, const LayoutSpec&, Layout* out) { return make_device_layout(*dev, out); };
      return;
    }
    if (json.find("\"subresources\"") != std::string::npos) check(ds, "layout file '" + path + "'");
    check(ps, "pattern file '" + path + "'");
    return;
  }
  if (extension_of(path) == ".json" || path.find('/') != std::string::npos)
    fail("layout file '" + path + "' does not exist (built-in layouts: " + builtin_layout_names() + ")");
  unknown(arg);
}

std::vector<LayoutListing> layout_listing() {
  std::vector<LayoutListing> out;
  for (const Builtin& b : kBuiltins) out.push_back({b.name, b.description});
  for (const LayoutFamily& f : layout_families())
    out.push_back({f.name, f.description + (f.parameters.empty() ? "" : "; parameters: " + f.parameters) + "; source: " + f.source});
  out.push_back({"pattern:TEXT",
                 "one parameterized swizzle pattern in text form, address bit 0 first, e.g. "
                 "'pattern:X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2' (X in bytes; ^ adds an XOR term; post8=, imm=, stack)"});
  out.push_back({"FILE.json",
                 "one parameterized swizzle pattern as JSON: {\"bits\": [\"X0\", \"X1\", ...], \"postamble\": {...}, "
                 "\"immediate\": \"0x0\", \"flags\": [...]}; or a whole resource layout as a driver reports it "
                 "(\"format\", \"width\", ..., \"patterns\", \"subresources\"; patterns/README.md), which also fixes "
                 "the texture"});
  return out;
}

}  // namespace swz::cli
