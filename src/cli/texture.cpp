#include "texture.hpp"

#include <CLI/CLI.hpp>
#include <charconv>

#include "common.hpp"
#include "layout_names.hpp"

namespace swz::cli {
namespace {

uint32_t parse_dim(std::string_view part, const std::string& whole) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v, 10);
  if (part.empty() || ec != std::errc() || p != part.data() + part.size())
    fail("--size '" + whole + "' is not WxH or WxHxD (for example 600x400, or 64x64x8 for a 3D texture)");
  if (v == 0) fail("--size '" + whole + "': sizes must be at least 1");
  if (v > UINT32_MAX) fail("--size '" + whole + "': " + std::string(part) + " does not fit in 32 bits");
  return static_cast<uint32_t>(v);
}

std::string plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

void add_common_options(CLI::App* app, CommonOptions* o) {
  app->add_option("--layout,-l", o->layout,
                  "Layout: a built-in name (" + builtin_layout_names() +
                      "; see 'swz layouts'), the path of a pattern JSON file, or 'pattern:TEXT'")
      ->required();
  app->add_option("--format,-f", o->format,
                  "DXGI format name (see 'swz formats'); image input defaults to R8G8B8A8_UNORM");
  app->add_option("--size,-s", o->size, "WxH for a 2D texture, WxHxD (even x1) for a 3D one; texels");
  app->add_option("--mips,-m", o->mips, "Mip levels: N >= 1 or 'full' (default 1)");
  app->add_option("--array,-a", o->array, "Array slices of a 2D texture (default 1)");
  app->add_option("--samples", o->samples, "Samples per texel (default 1)");
  app->add_option("--mip-tail", o->mip_tail, "Packed-mip policy: none (default) or d3d12 (not implemented yet)");
  app->add_option("--row-pitch", o->row_pitch,
                  "Bytes between rows of blocks (row-major: rows of elements); 0 = the default (DESIGN.md §2 rule 12)");
  app->add_option("--depth-pitch", o->depth_pitch,
                  "Bytes between slices of blocks; ROWS for stacked-depth patterns; 0 = the default");
  app->add_option("--backend", o->backend, "Copy kernel: auto (default), scalar, highway, xsimd")
      ->check(CLI::IsMember({"auto", "scalar", "highway", "xsimd"}));
  app->add_option("--threads", o->threads, "Threads for large copies (0 = automatic)");
}

SizeArg parse_size(const std::string& text) {
  SizeArg s;
  if (text.empty()) return s;
  std::vector<std::string_view> parts;
  std::string_view t = text;
  size_t start = 0;
  for (size_t i = 0; i <= t.size(); ++i) {
    if (i == t.size() || t[i] == 'x' || t[i] == 'X') {
      parts.push_back(t.substr(start, i - start));
      start = i + 1;
    }
  }
  if (parts.size() != 2 && parts.size() != 3)
    fail("--size '" + text + "' is not WxH or WxHxD (for example 600x400, or 64x64x8 for a 3D texture)");
  s.given = true;
  s.width = parse_dim(parts[0], text);
  s.height = parse_dim(parts[1], text);
  if (parts.size() == 3) {
    s.three_d = true;
    s.depth = parse_dim(parts[2], text);
  }
  return s;
}

FormatInfo lookup_format(const std::string& name) {
  FormatInfo f;
  Status st = find_format(name, &f);
  if (!st.ok()) fail("--format '" + name + "': " + st.message() + " (see 'swz formats')");
  return f;
}

std::string Texture::describe() const {
  std::string s = std::to_string(desc.width) + "x" + std::to_string(desc.height);
  if (desc.dimension == Dimension::Texture3D) s += "x" + std::to_string(desc.depth);
  s += std::string(" ") + format.name + ", " + plural(desc.mip_levels, "mip");
  if (desc.dimension == Dimension::Texture2D && desc.array_size != 1) s += ", " + plural(desc.array_size, "array slice");
  if (desc.samples != 1) s += ", " + plural(desc.samples, "sample");
  return s;
}

Texture make_texture(const CommonOptions& o, const SizeArg& size) {
  Texture t;
  if (!size.given) fail("--size is required (WxH or WxHxD)");
  if (o.format.empty()) fail("--format is required");
  t.format = lookup_format(o.format);
  t.desc.format = t.format;
  t.desc.width = size.width;
  t.desc.height = size.height;
  if (size.three_d) {
    t.desc.dimension = Dimension::Texture3D;
    t.desc.depth = size.depth;
    if (o.array != 1) fail("--array " + std::to_string(o.array) + ": a 3D texture (--size WxHxD) has no array slices");
    t.desc.array_size = 1;
  } else {
    t.desc.dimension = Dimension::Texture2D;
    t.desc.depth = 1;
    if (o.array == 0) fail("--array must be at least 1");
    t.desc.array_size = o.array;
  }
  if (o.samples == 0) fail("--samples must be at least 1");
  t.desc.samples = o.samples;

  uint32_t full = full_mip_count(t.desc.width, t.desc.height, t.desc.depth);
  if (o.mips.empty()) {
    t.desc.mip_levels = 1;
  } else if (o.mips == "full") {
    t.desc.mip_levels = full;
  } else {
    uint64_t m = 0;
    try {
      m = parse_u64(o.mips, "--mips");
    } catch (const Error&) {
      fail("--mips '" + o.mips + "' is not a number >= 1 or 'full'");
    }
    if (m == 0) fail("--mips must be at least 1 (or 'full')");
    if (m > full)
      fail("--mips " + o.mips + ": a " + std::to_string(t.desc.width) + "x" + std::to_string(t.desc.height) +
           (size.three_d ? "x" + std::to_string(t.desc.depth) : std::string()) + " texture has at most " +
           std::to_string(full) + " mip levels");
    t.desc.mip_levels = static_cast<uint32_t>(m);
  }

  if (o.mip_tail == "d3d12")
    fail("--mip-tail d3d12 is not implemented yet; use --mip-tail none (every mip in its own tiles)");
  if (o.mip_tail != "none") fail("--mip-tail '" + o.mip_tail + "': expected none or d3d12");

  t.layout_arg = o.layout;
  LayoutChoice choice;
  choice.spec.mip_tail = MipTail::None;
  parse_layout_arg(o.layout, &choice);
  t.spec = choice.spec;
  t.spec.row_pitch = o.row_pitch;
  t.spec.depth_pitch = o.depth_pitch;
  Status st = choice.build ? choice.build(t.desc, t.spec, &t.layout) : make_layout(t.desc, t.spec, &t.layout);
  check(st, "cannot lay out a " + t.describe() + " texture as " + o.layout);
  return t;
}

CopyOptions copy_options(const CommonOptions& o) {
  CopyOptions c;
  if (o.backend == "scalar") c.backend = Backend::Scalar;
  else if (o.backend == "highway") c.backend = Backend::Highway;
  else if (o.backend == "xsimd") c.backend = Backend::Xsimd;
  else c.backend = Backend::Auto;
  c.threads = o.threads;
  return c;
}

Packed packed_of(const SubresourceLayout& s) {
  Packed p;
  p.row = uint64_t(s.width_el) * s.element_bytes;
  p.slice = p.row * s.height_el;
  p.bytes = packed_subresource_bytes(s);
  return p;
}

}  // namespace swz::cli
