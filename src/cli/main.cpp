// swz — the command-line front end. Contract: README.md "The swz command".
#include <CLI/CLI.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "big_buffer.hpp"
#include "common.hpp"
#include "dds_cli.hpp"
#include "file_io.hpp"
#include "identify_cli.hpp"
#include "image_io.hpp"
#include "progress.hpp"
#include "retile_cli.hpp"
#include "swz/layout_names.hpp"
#include "swz/address.hpp"
#include "swz/canonicalize.hpp"
#include "swz/copy.hpp"
#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/vendor.hpp"
#include "texture.hpp"

#ifndef SWZ_VERSION_STRING
#define SWZ_VERSION_STRING "unknown"
#endif

namespace swz::cli {
namespace {

bool g_quiet = false;
bool g_out_is_stdout = false;  // then the summary goes to stderr

void say(const std::string& line) {
  if (g_quiet) return;
  std::fprintf(g_out_is_stdout ? stderr : stdout, "%s\n", line.c_str());
}

/// True when OUT is "-" or the same file as standard output.
bool same_as_stdout(const std::string& path) {
  if (path == "-") return true;
  struct stat a {}, b {};
  return stat(path.c_str(), &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/// Packed (mip-tail) subresources are adapter-specific: copies refuse them.
std::string packed_note(const Layout& layout, const std::string& what) {
  std::string list;
  uint32_t n = 0;
  for (uint32_t i = 0; i < layout.subresource_count(); ++i)
    if (layout.sub(i).packed) {
      if (n++ < 8) list += (list.empty() ? "" : ", ") + std::to_string(i);
    }
  if (n == 0) return {};
  if (n > 8) list += ", ...";
  return std::to_string(n) + " subresource(s) (" + list + ") lie in the D3D12 packed mip tail, whose layout is " +
         "adapter-specific: " + what;
}

void note(const std::string& text) {
  if (!text.empty()) std::fprintf(stderr, "swz: note: %s\n", text.c_str());
}

uint64_t total_packed_bytes(const Layout& layout) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
    uint64_t b = packed_subresource_bytes(layout.sub(i));
    if (total + b < total) fail("the packed texture size overflows 64 bits");
    total += b;
  }
  return total;
}

// ---- swizzle ---------------------------------------------------------------

void swizzle_image(CommonOptions o, const std::string& in, const std::string& out) {
  std::optional<TextureDesc> fixed = fixed_texture(o);
  FormatInfo f = fixed ? fixed->format : lookup_format(o.format.empty() ? "R8G8B8A8_UNORM" : o.format);
  if (!fixed && o.format.empty()) o.format = f.name;
  Image img = load_image(in, f);
  SizeArg size = parse_size(o.size);
  if (!size.given) {
    size.given = true;
    size.width = img.width;
    size.height = img.height;
  } else if (size.width != img.width || size.height != img.height) {
    fail("image '" + in + "' is " + std::to_string(img.width) + "x" + std::to_string(img.height) + " but --size says " +
         o.size);
  }
  Texture t = make_texture(o, size);
  const Layout& layout = t.layout;
  if (img.width != t.desc.width || img.height != t.desc.height)
    fail("image '" + in + "' is " + std::to_string(img.width) + "x" + std::to_string(img.height) + " but the texture is " +
         t.describe());
  Copier copier(o);
  copier.check(layout, "a " + t.describe() + " texture");
  std::vector<uint8_t> resource = allocate(layout.size(), "the " + t.layout_arg + " resource");
  note(packed_note(layout, "not written (left zero)"));

  // The mip chain, each level a 2x2 box filter of the one above.
  std::vector<Image> chain;
  chain.push_back(std::move(img));
  for (uint32_t m = 1; m < t.desc.mip_levels; ++m) chain.push_back(half_size(chain.back()));

  std::vector<uint8_t> slab;  // a mip repeated over the depth of a 3D subresource
  for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
    const SubresourceLayout& s = layout.sub(i);
    if (s.packed) continue;
    const Image& mi = chain.at(s.mip);
    if (mi.width != s.width || mi.height != s.height || uint64_t(mi.width) * mi.channels != packed_of(s).row)
      fail("internal: mip " + std::to_string(s.mip) + " is " + std::to_string(mi.width) + "x" +
           std::to_string(mi.height) + " but the layout says " + std::to_string(s.width) + "x" +
           std::to_string(s.height));
    Packed p = packed_of(s);
    const uint8_t* src = mi.pixels.data();
    uint64_t src_size = mi.pixels.size();
    if (s.depth > 1) {
      slab = allocate(p.slice * s.depth, "a 3D mip level");
      for (uint32_t z = 0; z < s.depth; ++z) std::copy(mi.pixels.begin(), mi.pixels.end(), slab.begin() + z * p.slice);
      src = slab.data();
      src_size = slab.size();
    }
    check(copier.write(layout, resource.data(), resource.size(), i, src, src_size, p.row, p.slice),
          "cannot write " + sub_name(s, t.desc));
  }
  write_file_atomic(out, resource.data(), resource.size());
  say("swizzled " + in + " (" + t.describe() + ") into " + out + ": " + t.layout_arg + ", " +
      std::to_string(layout.subresource_count()) + " subresource(s), " + bytes_text(layout.size()));
}

void swizzle_raw(const CommonOptions& o, const std::string& in, const std::string& out) {
  SizeArg size = parse_size(o.size);
  if ((!size.given || o.format.empty()) && !fixed_texture(o))
    fail("raw input '" + in + "' needs --size and --format (images are read from .png, .jpg, .jpeg, .bmp, .tga)");
  Texture t = make_texture(o, size);
  const Layout& layout = t.layout;
  Copier copier(o);
  copier.check(layout, "a " + t.describe() + " texture");
  uint64_t expected = total_packed_bytes(layout);
  uint64_t have = file_size(in);
  if (have != expected)
    fail("raw input '" + in + "' has " + bytes_text(have) + " but a " + t.describe() + " texture needs exactly " +
         bytes_text(expected) + " (every subresource tightly packed, in subresource order)");
  // Work: read the input, convert it, write the resource.
  Progress progress("swizzle", expected + expected + layout.size(), !g_quiet);
  BigBuffer linear = read_file_big(in, expected, &progress);
  note(packed_note(layout, "their bytes in the input are skipped and the tail is left zero"));
  // The resource is built in place: in the mapped output file, else in a
  // buffer written out afterwards. Neither is pre-filled: both read as zero
  // until written, so the bytes no subresource covers (padding, the packed
  // mip tail) stay zero.
  check_allocation(layout.size(), "the " + t.layout_arg + " resource");
  AtomicOutput file(out);
  OutputSpace resource(file, layout.size(), "the " + t.layout_arg + " resource");
  uint64_t at = 0;
  for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
    const SubresourceLayout& s = layout.sub(i);
    Packed p = packed_of(s);
    if (!s.packed)
      check(copier.write(layout, resource.data(), resource.size(), i, linear.data() + at, p.bytes, p.row, p.slice),
            "cannot write " + sub_name(s, t.desc));
    at += p.bytes;
    progress.add(p.bytes);
  }
  linear = BigBuffer();  // give its memory back before the write
  resource.finish(&progress);
  file.commit();
  progress.finish();
  say("swizzled " + in + " (" + t.describe() + ") into " + out + ": " + t.layout_arg + ", " +
      std::to_string(layout.subresource_count()) + " subresource(s), " + bytes_text(layout.size()));
}

// ---- deswizzle -------------------------------------------------------------

void deswizzle(CommonOptions o, const std::string& in, const std::string& out, bool have_sub, uint32_t sub) {
  const bool png = extension_of(out) == ".png";
  const bool fixed = fixed_texture(o).has_value();
  if (o.format.empty() && !fixed) {
    if (!png) fail("--format is required (it defaults to R8G8B8A8_UNORM only for .png output)");
    o.format = "R8G8B8A8_UNORM";
  }
  if (o.size.empty() && !fixed) fail("deswizzle needs --size (WxH or WxHxD)");
  Texture t = make_texture(o, parse_size(o.size));
  const Layout& layout = t.layout;
  if (png) require_image_format(t.format, "PNG output");
  if ((have_sub || png) && sub >= layout.subresource_count())
    fail("--subresource " + std::to_string(sub) + ": a " + t.describe() + " texture has " +
         std::to_string(layout.subresource_count()) + " subresource(s) (0.." +
         std::to_string(layout.subresource_count() - 1) + ")");
  if (!png && is_image_path(out))
    std::fprintf(stderr, "swz: note: '%s' is written as raw bytes; only .png output is encoded as an image\n",
                 out.c_str());

  uint64_t have = file_size(in);
  if (have < layout.size())
    fail("'" + in + "' has " + bytes_text(have) + ", less than the " + bytes_text(layout.size()) + " that a " +
         t.describe() + " texture spans in layout " + t.layout_arg);
  Copier copier(o);
  copier.check(layout, "a " + t.describe() + " texture");
  std::vector<uint32_t> which;
  if (have_sub || png) which.push_back(sub);
  else
    for (uint32_t i = 0; i < layout.subresource_count(); ++i) which.push_back(i);
  uint64_t total = 0;
  for (uint32_t i : which) total += packed_subresource_bytes(layout.sub(i));
  // Work: read the resource, convert it, write the raw output (PNG encoding
  // is not counted).
  Progress progress("deswizzle", layout.size() + total + (png ? 0 : total), !g_quiet);
  BigBuffer resource = read_file_big(in, layout.size(), &progress);
  if ((have_sub || png) && layout.sub(sub).packed)
    fail(sub_name(layout.sub(sub), t.desc) + " lies in the D3D12 packed mip tail, whose layout is adapter-specific; "
         "swz cannot read it");
  if (!have_sub && !png) note(packed_note(layout, "written as zeros"));
  // Raw output is built in place (the mapped output file, else a buffer
  // written out afterwards); PNG output in a buffer. Not pre-filled: both
  // read as zero until written, so packed subresources come out as zeros.
  check_allocation(total, "the linear output");
  std::optional<AtomicOutput> raw_file;
  if (!png) raw_file.emplace(out);
  BigBuffer png_linear;
  std::optional<OutputSpace> raw_linear;
  if (png) png_linear = BigBuffer(total, "the linear output");
  else raw_linear.emplace(*raw_file, total, "the linear output");
  uint8_t* linear = png ? png_linear.data() : raw_linear->data();
  uint64_t at = 0;
  for (uint32_t i : which) {
    const SubresourceLayout& s = layout.sub(i);
    Packed p = packed_of(s);
    if (!s.packed)  // packed ones are left zero
      check(copier.read(linear + at, p.bytes, p.row, p.slice, layout, resource.data(), resource.size(), i),
            "cannot read " + sub_name(s, t.desc));
    at += p.bytes;
    progress.add(p.bytes);
  }
  resource = BigBuffer();  // give its memory back before the write
  if (png) {
    progress.finish();
    const SubresourceLayout& s = layout.sub(sub);
    // A 3D subresource's tight slices, one under the other, form one image.
    uint64_t rows = uint64_t(s.height_el) * s.depth;
    if (rows > UINT32_MAX) fail("the PNG would have more than 2^32 rows");
    AtomicOutput file(out);
    write_png(file, linear, s.width_el, static_cast<uint32_t>(rows), t.format);
    file.commit();
    say("deswizzled " + sub_name(s, t.desc) + " of " + in + " (" + t.describe() + ", " + t.layout_arg + ") into " + out +
        ": " + std::to_string(s.width) + "x" + std::to_string(rows) + " PNG" +
        (s.depth > 1 ? " (" + std::to_string(s.depth) + " depth slices stacked vertically)" : std::string()));
  } else {
    raw_linear->finish(&progress);
    raw_file->commit();
    progress.finish();
    say("deswizzled " + std::to_string(which.size()) + " subresource(s) of " + in + " (" + t.describe() + ", " +
        t.layout_arg + ") into " + out + ": " + bytes_text(total) + " raw, tightly packed");
  }
}

// ---- offset / locate / info ------------------------------------------------

void offset(const CommonOptions& o, uint32_t sub, const std::vector<uint32_t>& coords) {
  Texture t = make_texture(o, parse_size(o.size));
  uint32_t x = coords.at(0), y = coords.at(1);
  uint32_t z = coords.size() > 2 ? coords[2] : 0;
  uint32_t s = coords.size() > 3 ? coords[3] : 0;
  uint64_t off = 0;
  check(element_offset(t.layout, sub, x, y, z, s, &off),
        "element (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ") sample " +
            std::to_string(s) + " of subresource " + std::to_string(sub));
  std::printf("%llu\n", static_cast<unsigned long long>(off));
}

void locate_cmd(const CommonOptions& o, const std::string& offset_text) {
  Texture t = make_texture(o, parse_size(o.size));
  uint64_t off = parse_u64(offset_text, "OFFSET");
  if (off >= t.layout.size())
    fail("offset " + std::to_string(off) + " is at or past the end of the resource (" + bytes_text(t.layout.size()) +
         ", a " + t.describe() + " texture in layout " + t.layout_arg + ")");
  Location loc;
  check(locate(t.layout, off, &loc), "offset " + std::to_string(off));
  if (loc.packed)
    std::printf("packed subresource=%u\n", loc.subresource);
  else if (loc.padding)
    std::printf("padding subresource=%u\n", loc.subresource);
  else
    std::printf("subresource=%u x=%u y=%u z=%u sample=%u byte=%u\n", loc.subresource, loc.x, loc.y, loc.z, loc.sample,
                loc.byte);
}

void info(const CommonOptions& o) {
  Texture t = make_texture(o, parse_size(o.size));
  const Layout& l = t.layout;
  std::printf("texture    %s\n", t.describe().c_str());
  std::printf("layout     %s (%s)\n", t.layout_arg.c_str(), l.name().c_str());
  std::printf("size       %s\n", bytes_text(l.size()).c_str());
  std::printf("alignment  %llu (allocation %s)\n", static_cast<unsigned long long>(l.alignment()),
              bytes_text(l.allocation_size()).c_str());
  std::printf("linear     %s (every subresource tightly packed)\n", bytes_text(total_packed_bytes(l)).c_str());
  // row_pitch: bytes between rows of blocks (swz's unit); row_B: bytes between
  // rows of elements (row_pitch / the block's rows), the pitch drivers report.
  std::printf("%5s %4s %5s %5s %16s %11s %14s %14s %14s %14s %4s %10s\n", "sub", "mip", "slice", "plane", "size (texels)",
              "elems", "offset", "bytes", "row_pitch", "depth_pitch", "slot", "row_B");
  for (uint32_t i = 0; i < l.subresource_count(); ++i) {
    const SubresourceLayout& s = l.sub(i);
    std::string dims = std::to_string(s.width) + "x" + std::to_string(s.height) + "x" + std::to_string(s.depth);
    std::string els = std::to_string(s.width_el) + "x" + std::to_string(s.height_el);
    const uint64_t block_rows = static_cast<size_t>(s.pattern_slot) < l.patterns().size()
                                    ? l.patterns()[static_cast<size_t>(s.pattern_slot)].block_extent()[1] : 1;
    std::string origin;
    if (s.pre_swizzle[0] || s.pre_swizzle[1] || s.pre_swizzle[2])
      origin = "  origin " + std::to_string(s.pre_swizzle[0]) + "." + std::to_string(s.pre_swizzle[1]) + "." + std::to_string(s.pre_swizzle[2]);
    std::printf("%5u %4u %5u %5u %16s %11s %14llu %14llu %14llu %14llu%s %4d %10llu%s%s\n", s.index, s.mip, s.array_slice,
                s.plane, dims.c_str(), els.c_str(), static_cast<unsigned long long>(s.offset),
                static_cast<unsigned long long>(s.size), static_cast<unsigned long long>(s.row_pitch),
                static_cast<unsigned long long>(s.stack_depth ? s.stack_rows : s.depth_pitch_B), s.stack_depth ? "r" : " ", s.pattern_slot,
                static_cast<unsigned long long>(s.row_pitch / std::max<uint64_t>(1, block_rows)), origin.c_str(),
                s.packed ? "  packed mip tail" : "");
  }
  for (size_t k = 0; k < l.patterns().size(); ++k) {
    std::string text = to_text(l.patterns()[k]);
    if (!text.empty()) std::printf("pattern %zu  %s\n", k, text.c_str());
  }
}

void layouts() {
  std::vector<LayoutListing> list = layout_listing();
  size_t w = 0;
  for (const auto& e : list) w = std::max(w, e.name.size());
  for (const auto& e : list) std::printf("%-*s  %s\n", static_cast<int>(w), e.name.c_str(), e.description.c_str());
}

// swz layouts --show NAME: the bit equation(s) of a vendor layout family.
void show_layout(const std::string& name, uint32_t element_bytes) {
  std::string text;
  check(describe_layout(name, element_bytes, &text), "layouts --show " + name);
  std::printf("%s", text.c_str());
}

// swz canonicalize --block WxH[xD] 'TEXT': reorder addrlib-style terms.
void canonicalize_cmd(const std::string& block, const std::string& text) {
  BlockExtents ext;
  check(parse_block_extents(block, &ext), "--block");
  Pattern p, c;
  check(parse_pattern_text(text, &p), "pattern");
  check(canonicalize(p, ext, &c), "canonicalize");
  std::printf("%s\n", to_text(c).c_str());
}

void formats() {
  size_t n = 0;
  const FormatInfo* all = all_formats(&n);
  for (size_t i = 0; i < n; ++i) {
    const FormatInfo& f = all[i];
    std::string block = f.block_compressed() ? std::to_string(f.block_width) + "x" + std::to_string(f.block_height) +
                                                   " block"
                                             : std::string("texel");
    std::printf("%-32s %3u bytes/%s%s%s\n", f.name, f.element_bytes, block.c_str(),
                f.planes > 1 ? (", " + std::to_string(f.planes) + " planes").c_str() : "",
                f.unorm8 ? ", image I/O" : "");
  }
}

}  // namespace
}  // namespace swz::cli

int main(int argc, char** argv) {
  using namespace swz::cli;
  CLI::App app{"swz: convert textures between linear memory and GPU swizzled layouts\n"
               "(D3D12 standard swizzle, parameterized swizzle patterns, row-major)."};
  app.set_version_flag("--version", SWZ_VERSION_STRING);
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  swz swizzle --layout std64k photo.png photo.std64k.bin\n"
      "  swz deswizzle --layout std64k --size 600x400 photo.std64k.bin photo.png\n"
      "  swz offset --layout std64k --format R8G8B8A8_UNORM --size 600x400 17 3\n"
      "  swz locate --layout std64k --format R8G8B8A8_UNORM --size 600x400 0x1234\n"
      "  swz layouts\n"
      "  swz identify --format R8G8B8A8_UNORM --size 600x400 dump.bin\n"
      "  swz infer --format R32_UINT --size 256x256 probe.bin\n"
      "  swz retile --from std64k --to nv-block-linear --format BC7_UNORM --size 1024x1024 --mips full a.bin b.bin");

  CommonOptions o;
  std::string in, out, offset_text, cmp_a, cmp_b;
  uint32_t sub = 0;
  bool cube = false;
  std::vector<uint32_t> coords;

  auto* sw = app.add_subcommand("swizzle", "Linear -> swizzled: write IN into the resource memory OUT");
  add_common_options(sw, &o);
  sw->add_option("IN", in,
                 "An image (.png .jpg .jpeg .bmp .tga; 8-bit UNORM formats, 1-4 channels), a .dds file (format, size, "
                 "mips and arrays from the file), or a raw file with every "
                 "subresource tightly packed in subresource order (needs --size and --format). With an image, "
                 "--mips N makes the lower mips with a 2x2 box filter, array slices and 3D depth slices repeat it.")
      ->required();
  sw->add_option("OUT", out, "The swizzled resource memory (layout size bytes); '-' for standard output")->required();
  sw->add_flag("--quiet,-q", g_quiet, "Print nothing on success");
  bool in_place = false;
  sw->add_flag("--in-place", in_place, "Allow OUT to be IN (the same path or a hard link): IN is replaced");

  auto* de = app.add_subcommand("deswizzle", "Swizzled -> linear: read the resource memory IN into OUT");
  add_common_options(de, &o);
  auto* de_sub = de->add_option("--subresource", sub, "Subresource index (mip + slice * mips); .png default 0");
  de->add_option("IN", in, "The swizzled resource memory (at least the layout's size)")->required();
  de->add_option("OUT", out,
                 "OUT.png: one subresource as an image (8-bit UNORM formats; --format defaults to R8G8B8A8_UNORM; "
                 "a 3D subresource's depth slices are stacked vertically). OUT.dds: every subresource as a DDS file "
                 "(DX10 header; --cube marks cube maps). Anything else: raw, every subresource "
                 "tightly packed in subresource order, or only --subresource. '-' is standard output")
      ->required();
  de->add_flag("--quiet,-q", g_quiet, "Print nothing on success");
  de->add_flag("--in-place", in_place, "Allow OUT to be IN (the same path or a hard link): IN is replaced");
  de->add_flag("--cube", cube, "OUT.dds (every subresource, DX10 header): mark the 2D array (--array 6*N) as cube maps");

  auto* of = app.add_subcommand("offset", "Print the byte offset of an element in the resource memory");
  add_common_options(of, &o);
  of->add_option("--subresource", sub, "Subresource index (default 0)");
  of->add_option("coords", coords, "X Y [Z] [SAMPLE]: element coordinates (texels; 4x4 blocks for BC)")
      ->expected(2, 4)
      ->required();

  auto* lo = app.add_subcommand("locate", "Print which element a byte of the resource memory belongs to");
  add_common_options(lo, &o);
  lo->add_option("OFFSET", offset_text, "Byte offset, decimal or 0x hex")->required();

  auto* in_cmd = app.add_subcommand("info", "Print the layout: size, alignment, every subresource's placement");
  add_common_options(in_cmd, &o);

  auto* ly = app.add_subcommand("layouts", "List the built-in layouts");
  std::string show_name, canon_block, canon_text;
  uint32_t show_bytes = 4;
  ly->add_option("--show", show_name, "Print the bit equation of a layout family, e.g. 'nv-block-linear:gob=tegra,bh=16'");
  ly->add_option("--element-bytes", show_bytes, "Element size for --show (default 4)");
  auto* cz = app.add_subcommand("canonicalize",
                                "Reorder a pattern's XOR terms so the primaries are the in-block bits (addrlib equations)");
  cz->add_option("--block", canon_block, "Block extents WxH[xD[xS]], W in bytes (e.g. 512x128)")->required();
  cz->add_option("TEXT", canon_text, "Pattern text, address bit 0 first, e.g. 'X0 X1 X2 X3 Y0 Y1 X4 Y2 X9^Y4^Y7 ...'")->required();
  auto* fm = app.add_subcommand("formats", "List the DXGI formats swz knows");

  IdentifyArgs ida;
  CLI::App *id_cmd = nullptr, *inf_cmd = nullptr;
  add_identify_commands(app, &ida, &id_cmd, &inf_cmd);

  RetileArgs rta;
  CLI::App* rt_cmd = add_retile_command(app, &rta, &g_quiet);

  auto* cm = app.add_subcommand("compare", "Compare two images as RGBA8 pixels (exit 1 when they differ)");
  cm->add_option("A", cmp_a, "First image")->required();
  cm->add_option("B", cmp_b, "Second image")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  try {
    if (*rt_cmd) g_out_is_stdout = same_as_stdout(rta.out);
    if (*sw || *de) {
      g_out_is_stdout = same_as_stdout(out);
      // IN is read whole before OUT is written, so --in-place is safe; without
      // it, OUT = IN is almost always a mistaken argument that would destroy IN.
      if (!in_place && out != "-" && same_file(in, out))
        fail("OUT '" + out + "' is the same file as IN '" + in + "'; pass --in-place to replace IN");
    }
    if (*sw) {
      if (is_dds_path(in)) say(swizzle_dds(o, in, out));
      else if (is_image_path(in)) swizzle_image(o, in, out);
      else swizzle_raw(o, in, out);
    } else if (*de && (is_dds_path(out) || cube)) {
      say(deswizzle_dds(o, cube, de_sub->count() > 0, in, out));
    } else if (*de) {
      deswizzle(o, in, out, de_sub->count() > 0, sub);
    } else if (*of) {
      offset(o, sub, coords);
    } else if (*lo) {
      locate_cmd(o, offset_text);
    } else if (*in_cmd) {
      info(o);
    } else if (*ly && !show_name.empty()) {
      show_layout(show_name, show_bytes);
    } else if (*cz) {
      canonicalize_cmd(canon_block, canon_text);
    } else if (*ly) {
      layouts();
    } else if (*fm) {
      formats();
    } else if (*id_cmd) {
      run_identify(ida);
    } else if (*inf_cmd) {
      run_infer(ida);
    } else if (*rt_cmd) {
      say(run_retile(rta, !g_quiet));
    } else if (*cm) {
      std::string report;
      bool same = compare_images(cmp_a, cmp_b, &report);
      std::printf("%s\n", report.c_str());
      return same ? 0 : 1;
    }
  } catch (const Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "swz: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fprintf(stderr, "swz: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "swz: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
