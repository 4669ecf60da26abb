// Layout names (swz/layout_names.hpp): the one parser of --layout / layout= strings.
#include "swz/layout_names.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/json_strict.hpp"
#include "core/no_coverage.hpp"
#include "core/parse_number.hpp"
#include "swz/device_layout.hpp"
#include "swz/pattern.hpp"
#include "swz/vendor.hpp"

namespace swz {
namespace {

struct Builtin {
  const char* name;
  const char* description;
};

// The layouts of the D3D12 specification itself, in listing order.
constexpr Builtin kBuiltins[] = {
    {"row-major",
     "linear rows; row pitch = row bytes aligned up to 256, subresources on 512-byte boundaries (D3D12 copyable "
     "footprints)"},
    {"std64k",
     "D3D12 64KB standard swizzle (D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE); 2D and 3D, 8-128 bpp and BC, "
     "64KB tiles in row-major order"},
    {"std4k",
     "4KB standard swizzle, NOT a D3D12 API layout (Intel TileYf, AMD SW_4KB_S); 2D = the low 12 bits of std64k, "
     "3D = 4KB bricks"},
};

// A layout name as an error message shows it: escaped and at most 64 bytes
// (json_strict.hpp), since a name holds whatever the caller passed (U+0000
// cut the message in the C API and Python, escape sequences reached the
// terminal, a 100 KB name made a 100 KB message).
std::string quoted_name(std::string_view text) { return detail::quoted_for_message(text, 64, '\''); }

Status read_text_file(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {Code::io_error, "cannot read layout file '" + path + "': " + std::strerror(errno)};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return {Code::io_error, "cannot read layout file '" + path + "'"};
  *out = ss.str();
  return Status::Ok();
}

std::string listing_names() {
  std::string out;
  for (const Builtin& b : kBuiltins) out += std::string(out.empty() ? "" : ", ") + b.name;
  return out;
}

Status unknown(std::string_view text) {
  std::string msg = "unknown layout " + quoted_name(text);
  std::vector<std::string> near = closest_layout_names(text);
  if (!near.empty()) {
    msg += "; did you mean ";
    for (size_t i = 0; i < near.size(); ++i)
      msg += (i ? (i + 1 == near.size() ? " or " : ", ") : "") + ("'" + near[i] + "'");
    msg += "?";
  }
  msg += (near.empty() ? ". Layouts: " : " Layouts: ") + listing_names() +
         ", a hardware family such as nv-block-linear:gob=tegra,bh=8 or intel-tile4 (all: 'swz layouts'), "
         "'pattern:TEXT' (e.g. 'pattern:X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2'), or the path of a pattern or resource-layout "
         "JSON file";
  return {Code::invalid_argument, msg};
}

// The edit distance of a and b when it is at most `limit`, else limit + 1: a row whose
// smallest entry exceeds the limit ends the computation (every later row's entries are at
// least that). Pure arithmetic, left out of the fuzzers' coverage instrumentation: a
// comparison callback per cell costs more than the cell; its branches guide nothing.
SWZ_NO_COVERAGE size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    size_t least = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      const size_t v = std::min(std::min(row[j], row[j - 1]) + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1));
      row[j] = v;
      least = std::min(least, v);
      diag = up;
    }
    if (least > limit) return limit + 1;
  }
  return std::min(row[b.size()], limit + 1);
}

}  // namespace

Status LayoutName::parse(std::string_view text, LayoutName* out) {
  LayoutName n;
  n.text_ = std::string(text);
  if (text.empty()) return unknown(text);

  constexpr std::string_view kPattern = "pattern:";
  if (text.substr(0, kPattern.size()) == kPattern) {
    const std::string_view body = text.substr(kPattern.size());
    if (body.find_first_not_of(" \t\r\n") == std::string_view::npos)
      return {Code::invalid_argument,
              "layout " + quoted_name(text) +
                  ": the pattern has no bits (give them after 'pattern:', e.g. 'pattern:X0 X1 Y0 Y1', or use "
                  "row-major)"};
    Status st = parse_pattern_text(body, &n.pattern_);
    if (!st.ok()) return {st.code(), "layout " + quoted_name(text) + ": " + st.message()};
    n.kind_ = Kind::Pattern;
    *out = std::move(n);
    return Status::Ok();
  }

  std::string_view head = text.substr(0, text.find(':'));
  const bool has_params = head.size() != text.size();
  const struct {
    std::string_view name;
    Kind kind;
  } builtin_kinds[] = {
      {"row-major", Kind::RowMajor}, {"row_major", Kind::RowMajor}, {"std64k", Kind::Std64K}, {"std4k", Kind::Std4K}};
  for (const auto& b : builtin_kinds) {
    if (head != b.name) continue;
    if (has_params && b.kind == Kind::RowMajor) {
      // row-major:pitch=N — the row pitch in bytes, so that one string names the layout.
      std::string_view v = text.substr(head.size() + 1);
      constexpr std::string_view kPitch = "pitch=";
      uint64_t pitch = 0;
      bool ok = v.substr(0, kPitch.size()) == kPitch && v.size() > kPitch.size();
      ok = ok && detail::parse_unsigned(v.substr(kPitch.size()), &pitch) && pitch > 0;
      if (!ok)
        return {Code::invalid_argument,
                "layout " + quoted_name(text) + ": row-major takes one parameter, pitch=N (bytes between rows, N > 0)"};
      n.kind_ = Kind::RowMajor;
      n.row_pitch_B_ = pitch;
      *out = std::move(n);
      return Status::Ok();
    }
    if (has_params)
      return {Code::invalid_argument,
              "layout '" + std::string(b.name) + "' takes no parameters (got " + quoted_name(text) + ")"};
    n.kind_ = b.kind;
    *out = std::move(n);
    return Status::Ok();
  }

  if (is_named_layout(text)) {
    n.kind_ = Kind::Family;
    *out = std::move(n);
    return Status::Ok();
  }

  const std::string path(text);
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    std::string json;
    SWZ_TRY(read_text_file(path, &json));
    Status ps = parse_pattern_json(json, &n.pattern_);
    if (ps.ok()) {
      n.kind_ = Kind::Pattern;
      *out = std::move(n);
      return Status::Ok();
    }
    auto dev = std::make_shared<DeviceLayoutDesc>();
    Status ds = parse_resource_layout_json(json, dev.get());
    if (ds.ok()) {
      n.kind_ = Kind::Resource;
      n.resource_ = std::move(dev);
      *out = std::move(n);
      return Status::Ok();
    }
    // Report the error of the form the file has, judged by its top-level
    // keys: "bits" makes a pattern; else "format" or "subresources" (keys no
    // pattern has) a resource layout; anything else (a family file such as
    // patterns/std64k.json too) a pattern. The keys are read from the parsed
    // object, not searched for in the text, so a resource layout with
    // "subresources" misspelt is still reported as a resource layout.
    nlohmann::json top;
    const bool resource_form = detail::parse_json_strict(json, 64, "layout file", &top).ok() && top.is_object() &&
                               !top.contains("bits") && (top.contains("format") || top.contains("subresources"));
    if (resource_form) return {ds.code(), "layout file '" + path + "': " + ds.message()};
    return {ps.code(), "pattern file '" + path + "': " + ps.message()};
  }
  if (std::filesystem::exists(path, ec))
    return {Code::io_error, "layout file '" + path + "' is not a regular file (a directory or a device)"};
  if (path.find('/') != std::string::npos || (path.size() > 5 && path.substr(path.size() - 5) == ".json"))
    return {Code::io_error, "layout file '" + path + "' does not exist (built-in layouts: " + listing_names() + ")"};
  return unknown(text);
}

const TextureDesc* LayoutName::fixed_texture() const { return resource_ ? &resource_->texture : nullptr; }

Status LayoutName::make(const TextureDesc& desc, const LayoutOptions& o, Layout* out) const {
  if (!takes_options()) {
    const char* what = kind_ == Kind::Family ? "hardware layout" : "resource layout";
    auto refuse = [&](const char* field, uint64_t v) -> Status {
      return {Code::invalid_argument, std::string(field) + " = " + std::to_string(v) + " does not apply to " + what +
                                          " " + quoted_name(text_) + ": it places its own subresources"};
    };
    if (o.row_pitch_B) return refuse("row_pitch_B", o.row_pitch_B);
    if (o.depth_pitch_B) return refuse("depth_pitch_B", o.depth_pitch_B);
    if (o.stack_rows) return refuse("stack_rows", o.stack_rows);
    if (o.mip_tail != MipTail::None)
      return {Code::invalid_argument,
              std::string("mip_tail = d3d12 does not apply to ") + what + " " + quoted_name(text_)};
    if (kind_ == Kind::Family) return make_named_layout(text_, desc, out);
    return make_device_layout(*resource_, out);
  }
  LayoutSpec spec;
  switch (kind_) {
    case Kind::RowMajor:
      spec.kind = LayoutKind::RowMajor;
      break;
    case Kind::Std64K:
      spec.kind = LayoutKind::Std64K;
      break;
    case Kind::Std4K:
      spec.kind = LayoutKind::Std4K;
      break;
    default:
      spec.kind = LayoutKind::Pattern;
      spec.pattern = pattern_;
      break;
  }
  const bool stacked = spec.kind == LayoutKind::Pattern && pattern_.stack_depth_slices();
  if (stacked && o.depth_pitch_B)
    return {Code::invalid_argument, "depth_pitch_B = " + std::to_string(o.depth_pitch_B) + ": layout " +
                                        quoted_name(text_) +
                                        " stacks depth slices as rows; give stack_rows (rows between slices) instead"};
  if (!stacked && o.stack_rows)
    return {Code::invalid_argument, "stack_rows = " + std::to_string(o.stack_rows) + ": layout " + quoted_name(text_) +
                                        " does not stack depth slices; give depth_pitch_B instead"};
  spec.row_pitch_B = o.row_pitch_B;
  if (row_pitch_B_) {
    if (o.row_pitch_B && o.row_pitch_B != row_pitch_B_)
      return {Code::invalid_argument,
              "row_pitch_B = " + std::to_string(o.row_pitch_B) + " contradicts layout " + quoted_name(text_)};
    spec.row_pitch_B = row_pitch_B_;
  }
  spec.depth_pitch_B = o.depth_pitch_B;
  spec.stack_rows = o.stack_rows;
  spec.mip_tail = o.mip_tail;
  spec.packed = o.packed;
  return make_layout(desc, spec, out);
}

Status make_layout_from_name(std::string_view name, const TextureDesc& desc, const LayoutOptions& options,
                             Layout* out) {
  LayoutName n;
  SWZ_TRY(LayoutName::parse(name, &n));
  return n.make(desc, options, out);
}

std::vector<LayoutListing> layout_listing() {
  std::vector<LayoutListing> out;
  for (const Builtin& b : kBuiltins)
    out.push_back(
        {b.name,
         std::string(b.name) == "row-major" ? "pitch=N (bytes between rows; default: row bytes aligned up to 256)" : "",
         b.description, "D3D12 specification"});
  for (const LayoutFamily& f : layout_families()) out.push_back({f.name, f.parameters, f.description, f.source});
  out.push_back({"pattern:TEXT", "",
                 "one parameterized swizzle pattern in text form, address bit 0 first, e.g. "
                 "'pattern:X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2' (X in bytes; ^ adds an XOR term; post8=, imm=, stack)",
                 "D3D12 parameterized swizzle"});
  out.push_back({"FILE.json", "",
                 "one parameterized swizzle pattern as JSON: {\"bits\": [\"X0\", \"X1\", ...], \"postamble\": {...}, "
                 "\"immediate\": \"0x0\", \"flags\": [...]}; or a whole resource layout as a driver reports it "
                 "(\"format\", \"width\", ..., \"patterns\", \"subresources\"; patterns/README.md), which also fixes "
                 "the texture",
                 "D3D12 parameterized swizzle"});
  return out;
}

std::vector<std::string> closest_layout_names(std::string_view name, size_t max_count) {
  const std::string_view head = name.substr(0, name.find(':'));
  // The names of layout_listing() less its two forms (pattern:TEXT, FILE.json), without building
  // the listing's descriptions for every unknown name.
  std::vector<std::string_view> names;
  for (const Builtin& b : kBuiltins) names.push_back(b.name);
  for (const LayoutFamily& f : layout_families()) names.push_back(f.name);
  std::vector<std::pair<size_t, std::string_view>> scored;
  for (const std::string_view cand : names) {
    // The distance is at least the difference in length: past the limit
    // there is nothing to compute (a 4 KiB name is not compared cell by cell).
    const size_t limit = std::max<size_t>(2, cand.size() / 3);
    const size_t diff = head.size() > cand.size() ? head.size() - cand.size() : cand.size() - head.size();
    size_t d = diff > limit ? limit + 1 : edit_distance(head, cand, limit);
    // A name that contains what was typed is close whatever its length.
    if (!head.empty() && cand.find(head) != std::string_view::npos) d = std::min<size_t>(d, 1);
    if (d <= limit) scored.emplace_back(d, cand);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && out.size() < max_count; ++i) out.emplace_back(scored[i].second);
  return out;
}

std::string block_extent_text(const Pattern& p, uint32_t element_bytes) {
  const std::array<uint64_t, 4> e = p.block_extent();
  std::string s = std::to_string(uint64_t{1} << p.block_bits()) + "-byte block: " + std::to_string(e[0]) + " bytes";
  if (element_bytes && e[0] % element_bytes == 0) s += " (" + std::to_string(e[0] / element_bytes) + " elements)";
  s += " x " + std::to_string(e[1]) + " rows";
  if (e[2] > 1) s += " x " + std::to_string(e[2]) + " slices";
  if (e[3] > 1) s += " x " + std::to_string(e[3]) + " samples";
  return s;
}

namespace {

std::string pattern_lines(const Pattern& p, uint32_t element_bytes, const std::string& label) {
  std::string out = label + to_text(p) + "\n";
  out += std::string(label.size(), ' ') + block_extent_text(p, element_bytes) + "\n";
  return out;
}

}  // namespace

Status describe_layout_name(std::string_view name, uint32_t element_bytes, std::string* text) {
  if (element_bytes == 0 || element_bytes > 16)
    return {Code::invalid_argument, "element_bytes = " + std::to_string(element_bytes) + ": expected 1..16"};
  const std::string eb = std::to_string(element_bytes) + "-byte elements";
  if (name == "pattern:TEXT") {
    *text =
        "pattern:TEXT: one parameterized swizzle pattern in text form, one token per address bit from bit 0:\n"
        "  X<n> (X in bytes), Y<n>, Z<n>, S<n> (sample), each with up to four XOR terms (Y3^X9^Z1);\n"
        "  then optional post8=Y4^X9 (postamble terms of address bits 8..23), imm=0x300, stack, cond-post.\n"
        "  example: 'pattern:X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2' (swz layouts --show 'pattern:...' explains one)\n";
    return Status::Ok();
  }
  if (name == "FILE.json") {
    *text =
        "FILE.json: the path of a JSON file holding one pattern ({\"bits\": [\"X0\", ...], \"postamble\": {...}, "
        "\"immediate\": \"0x0\", \"flags\": [...]})\n  or a whole resource layout as a driver reports it (format, "
        "size, "
        "patterns, mip transitions, per-subresource offsets and strides; patterns/README.md)\n";
    return Status::Ok();
  }
  LayoutName n;
  SWZ_TRY(LayoutName::parse(name, &n));
  std::string out;
  if (n.fixed_texture()) {
    const TextureDesc& d = *n.fixed_texture();
    Layout L;
    SWZ_TRY(n.make(d, LayoutOptions{}, &L));
    out = std::string(name) + ": a resource layout for a " + std::to_string(d.width) + "x" + std::to_string(d.height) +
          " " + d.format.name + " texture, " + std::to_string(d.mip_levels) + " mip(s), " +
          std::to_string(L.subresource_count()) + " subresource(s), " + std::to_string(L.size()) + " bytes\n";
    for (size_t k = 0; k < L.patterns().size(); ++k)
      out += pattern_lines(L.patterns()[k], d.format.element_bytes, "  slot " + std::to_string(k) + ": ");
    *text = out;
    return Status::Ok();
  }
  if (const Pattern* p = n.pattern()) {
    SWZ_TRY(validate(*p, element_bytes));
    *text = "pattern (" + eb + ")\n" + pattern_lines(*p, element_bytes, "  ") +
            "  blocks row-major: row pitch and depth pitch default to the tightest multiples of the block\n";
    return Status::Ok();
  }
  std::string_view head = name.substr(0, name.find(':'));
  if (head == "row-major" || head == "row_major") {
    *text = std::string(name) + ": linear rows, no swizzle. Row pitch: " +
            (head.size() == name.size() ? std::string("the row's bytes aligned up to 256 (D3D12 copyable footprint)")
                                        : std::string("as given")) +
            "; subresources on 512-byte boundaries in subresource order. Byte (x, y, z) of a subresource is at "
            "offset + x + y * row_pitch + z * depth_pitch.\n";
    return Status::Ok();
  }
  if (head == "std64k" || head == "std4k") {
    const LayoutKind kind = head == "std64k" ? LayoutKind::Std64K : LayoutKind::Std4K;
    out =
        std::string(head) + " (" + eb + "): " +
        (kind == LayoutKind::Std64K ? "D3D12 64KB standard swizzle" : "4KB standard swizzle (not a D3D12 API layout)") +
        "; tiles row-major with no gaps\n";
    for (Dimension dim : {Dimension::Texture2D, Dimension::Texture3D}) {
      Pattern p;
      const std::string label = dim == Dimension::Texture2D ? "  2D: " : "  3D: ";
      Status st = standard_swizzle_pattern(kind, dim, element_bytes, &p);
      if (st.ok())
        out += pattern_lines(p, element_bytes, label);
      else
        out += label + "none (" + st.message() + ")\n";
    }
    *text = out;
    return Status::Ok();
  }
  return describe_layout(name, element_bytes, text);
}

}  // namespace swz
