// swz — the command-line front end. Contract: README.md "The swz command".
#include <CLI/CLI.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "batch.hpp"
#include "big_buffer.hpp"
#include "common.hpp"
#include "number_option.hpp"
#include "dds_cli.hpp"
#include "file_io.hpp"
#include "help_examples.hpp"
#include "identify_cli.hpp"
#include "image_io.hpp"
#include "input.hpp"
#include "output.hpp"
#include "plot.hpp"
#include "progress.hpp"
#include "retile_cli.hpp"
#include "view_png.hpp"
#include "view_server.hpp"
#include "query.hpp"
#include "swz/layout_names.hpp"
#include "swz/address.hpp"
#include "swz/canonicalize.hpp"
#include "swz/copy.hpp"
#include "swz/dds.hpp"
#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/vendor.hpp"
#include "texture.hpp"

#ifndef SWZ_VERSION_STRING
#define SWZ_VERSION_STRING "unknown"
#endif

namespace swz::cli {
namespace {

/// True when OUT is "-" or the same file as standard output.
bool same_as_stdout(const std::string& path) {
  if (path == "-") return true;
  struct stat a {
  }, b{};
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

void swizzle_image(CommonOptions o, const std::string& in, const std::string& out, std::optional<InputBytes> bytes) {
  std::optional<TextureDesc> fixed = fixed_texture(o);
  FormatInfo f = fixed ? fixed->format : lookup_format(o.format.empty() ? "R8G8B8A8_UNORM" : o.format);
  if (!fixed && o.format.empty()) o.format = f.name;
  require_image_format(f, "image input " + input_name(in));
  if (!bytes) bytes = read_input(in, input_offset(o), UINT64_MAX, false);
  Image img = load_image_bytes(bytes->data(), static_cast<size_t>(bytes->size),
                               is_stdin(in) ? std::string("standard input") : in, f);
  bytes.reset();
  verbose_phase("read and decode the image");
  SizeArg size = parse_size(o.size);
  if (!size.given) {
    size.given = true;
    size.width = img.width;
    size.height = img.height;
  } else if (size.width != img.width || size.height != img.height) {
    fail("image " + input_name(in) + " is " + std::to_string(img.width) + "x" + std::to_string(img.height) +
         " but --size says " + o.size);
  }
  Texture t = make_texture(o, size);
  const Layout& layout = t.layout;
  if (img.width != t.desc.width || img.height != t.desc.height)
    fail("image " + input_name(in) + " is " + std::to_string(img.width) + "x" + std::to_string(img.height) +
         " but the texture is " + t.describe());
  Copier copier(o);
  copier.check(layout, "a " + t.describe() + " texture");
  check_allocation(layout.size(), "the " + t.layout_arg + " resource");  // before the mips are made
  note(packed_note(layout, "not written (left zero)"));

  // The mip chain, each level a box filter of the one above (half_size, mips.cpp).
  std::vector<Image> chain;
  chain.push_back(std::move(img));
  for (uint32_t m = 1; m < t.desc.mip_levels; ++m) chain.push_back(half_size(chain.back()));
  if (t.desc.mip_levels > 1) verbose_phase("make the mips");

  // The resource is built in place (the mapped output file, else a buffer
  // written out afterwards), not zero-filled first: padding and the packed
  // mip tail read as zero.
  check_allocation(layout.size(), "the " + t.layout_arg + " resource");
  AtomicOutput file(out);
  OutputSpace resource(file, layout.size(), "the " + t.layout_arg + " resource");
  BigBuffer slab;  // a mip repeated over the depth of a 3D subresource
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
      slab = BigBuffer(p.slice * s.depth, "a 3D mip level");
      for (uint32_t z = 0; z < s.depth; ++z) std::copy(mi.pixels.begin(), mi.pixels.end(), slab.data() + z * p.slice);
      src = slab.data();
      src_size = slab.size();
    }
    check(copier.write(layout, resource.data(), resource.size(), i, src, src_size, p.row, p.slice),
          "cannot write " + sub_name(s, t.desc));
  }
  verbose_phase("convert");
  chain.clear();
  slab = BigBuffer();
  resource.finish(nullptr);
  file.commit();
  verbose_phase("write");
  say("swizzled " + in + " (" + t.describe() + ") into " + out + ": " + t.layout_arg + ", " +
      std::to_string(layout.subresource_count()) + " subresource(s), " + bytes_text(layout.size()));
}

void swizzle_raw(const CommonOptions& o, const std::string& in, const std::string& out, std::optional<InputBytes> pre) {
  SizeArg size = parse_size(o.size);
  if ((!size.given || o.format.empty()) && !fixed_texture(o))
    fail("raw input " + input_name(in) +
         " needs --size and --format (images are read from .png, .jpg, .jpeg, .bmp, "
         ".tga; standard input is an image when it starts with a PNG, JPEG or BMP signature)");
  Texture t = make_texture(o, size);
  const Layout& layout = t.layout;
  Copier copier(o);
  copier.check(layout, "a " + t.describe() + " texture");
  uint64_t expected = total_packed_bytes(layout);
  check_allocation(layout.size(), "the " + t.layout_arg + " resource");  // before IN is read
  const uint64_t skip = input_offset(o);
  // Work: read the input, convert it, write the resource.
  Progress progress("swizzle", expected + expected + layout.size(), expected,
                    !output_mode().quiet && !output_mode().batch);
  InputBytes linear = pre ? std::move(*pre) : read_input(in, skip, expected, false, &progress);
  if (pre) progress.add(expected);
  verbose_phase("read");
  // Without --offset IN is exactly the texels; with it, bytes after them are ignored.
  const uint64_t have = linear.in_total;
  if (o.offset.empty() ? have != expected : have < expected)
    fail("raw input " + input_name(in) + " has " +
         (linear.total_known ? bytes_text(have) : "more than " + bytes_text(expected) + " (read no further)") +
         (o.offset.empty() ? std::string() : " after --offset " + o.offset) + " but a " + t.describe() +
         " texture needs " + (o.offset.empty() ? "exactly " : "") + bytes_text(expected) +
         " (every subresource tightly packed, in subresource order)");
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
  verbose_phase("convert");
  linear = InputBytes();  // give its memory back before the write
  resource.finish(&progress);
  file.commit();
  progress.finish();
  verbose_phase("write");
  say("swizzled " + in + " (" + t.describe() + ") into " + out + ": " + t.layout_arg + ", " +
      std::to_string(layout.subresource_count()) + " subresource(s), " + bytes_text(layout.size()));
}

// ---- deswizzle -------------------------------------------------------------

void deswizzle(CommonOptions o, const std::string& in, const std::string& out, bool have_sub, uint32_t sub, bool png,
               const ViewOptions& view) {
  const bool fixed = fixed_texture(o).has_value();
  if (o.format.empty() && !fixed) {
    if (!png) fail("--format is required (it defaults to R8G8B8A8_UNORM only for .png output)");
    o.format = "R8G8B8A8_UNORM";
  }
  if (o.size.empty() && !fixed) fail("deswizzle needs --size (WxH or WxHxD)");
  Texture t = make_texture(o, parse_size(o.size));
  const Layout& layout = t.layout;
  const bool decoded_png = png && png_needs_decode(t.format, view);
  if (decoded_png)
    check(sub < layout.subresource_count() ? check_decodable(layout, sub) : check_decodable(t.format), "PNG output");
  else if (png)
    require_image_format(t.format, "PNG output");
  if ((have_sub || png) && sub >= layout.subresource_count())
    fail("--subresource " + std::to_string(sub) + ": a " + t.describe() + " texture has " +
         std::to_string(layout.subresource_count()) + " subresource(s) (0.." +
         std::to_string(layout.subresource_count() - 1) + ")");
  if (!png && is_image_path(out))
    note("'" + out + "' is written as raw bytes; only .png output (or --out-type png) is encoded as an image");

  Copier copier(o);
  copier.check(layout, "a " + t.describe() + " texture");
  std::vector<uint32_t> which;
  if (have_sub || png)
    which.push_back(sub);
  else
    for (uint32_t i = 0; i < layout.subresource_count(); ++i) which.push_back(i);
  uint64_t total = 0;
  for (uint32_t i : which) total += packed_subresource_bytes(layout.sub(i));
  check_allocation(total, "the linear output");  // before IN is read
  // Work: read the resource, convert it, write the raw output (PNG encoding
  // is not counted).
  Progress progress("deswizzle", layout.size() + total + (png ? 0 : total), layout.size(),
                    !output_mode().quiet && !output_mode().batch);
  InputBytes resource = read_input(in, input_offset(o), layout.size(), o.allow_short, &progress);
  const uint64_t missing = check_input_size(in, resource.size, layout.size(), o.allow_short, o.offset,
                                            "a " + t.describe() + " texture spans in layout " + t.layout_arg);
  if (missing) progress.add(missing);
  verbose_phase("read");
  if ((have_sub || png) && layout.sub(sub).packed)
    fail(sub_name(layout.sub(sub), t.desc) +
         " lies in the D3D12 packed mip tail, whose layout is adapter-specific; "
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
  if (png)
    png_linear = BigBuffer(total, "the linear output");
  else
    raw_linear.emplace(*raw_file, total, "the linear output");
  uint8_t* linear = png ? png_linear.data() : raw_linear->data();
  uint64_t at = 0;
  for (uint32_t i : which) {
    const SubresourceLayout& s = layout.sub(i);
    Packed p = packed_of(s);
    if (!s.packed)  // packed ones are left zero
      check(copier.read(linear + at, p.bytes, p.row, p.slice, layout, resource.data(), layout.size(), i),
            "cannot read " + sub_name(s, t.desc));
    at += p.bytes;
    progress.add(p.bytes);
  }
  verbose_phase("convert");
  resource = InputBytes();  // give its memory back before the write
  if (png) {
    progress.finish();
    const SubresourceLayout& s = layout.sub(sub);
    // A 3D subresource's tight slices, one under the other, form one image.
    uint64_t rows = uint64_t(s.height_el) * s.depth;
    if (rows > UINT32_MAX) fail("the PNG would have more than 2^32 rows");
    AtomicOutput file(out);
    write_subresource_png([&file](const uint8_t* data, size_t n) { file.write(data, n); }, out, linear, s, t.format,
                          view);
    file.commit();
    verbose_phase("encode and write the PNG");
    say("deswizzled " + sub_name(s, t.desc) + " of " + in + " (" + t.describe() + ", " + t.layout_arg + ") into " +
        out + ": " + std::to_string(s.width) + "x" + std::to_string(decoded_png ? uint64_t{s.height} * s.depth : rows) +
        " PNG" +
        (s.depth > 1 ? " (" + std::to_string(s.depth) + " depth slices stacked vertically)" : std::string()));
  } else {
    raw_linear->finish(&progress);
    raw_file->commit();
    progress.finish();
    verbose_phase("write");
    say("deswizzled " + std::to_string(which.size()) + " subresource(s) of " + in + " (" + t.describe() + ", " +
        t.layout_arg + ") into " + out + ": " + bytes_text(total) + " raw, tightly packed");
  }
}

// ---- offset / locate / info ------------------------------------------------

void info(const CommonOptions& o) {
  Texture t = make_texture(o, parse_size(o.size));
  const Layout& l = t.layout;
  std::printf("texture    %s\n", t.describe().c_str());
  std::printf("layout     %s (%s)\n", t.layout_arg.c_str(), l.name().c_str());
  std::printf("size       %s\n", bytes_text(l.size()).c_str());
  std::printf("alignment  %llu (allocation %s)\n", static_cast<unsigned long long>(l.alignment()),
              bytes_text(l.allocation_size()).c_str());
  std::printf("linear     %s (every subresource tightly packed)\n", bytes_text(total_packed_bytes(l)).c_str());
  // AMD GFX9-GFX11: what addrlib's Addr2ComputeSurfaceInfo reports, in its
  // own field names (pitch and height in elements, sizes in bytes).
  if (t.layout_arg.rfind("amd-gfx", 0) == 0) {
    AmdSurfaceInfo ai;
    if (amd_surface_info(t.layout_arg, l.desc(), &ai).ok()) {
      std::printf("addrlib    pitch %llu, height %llu", static_cast<unsigned long long>(ai.pitch_el),
                  static_cast<unsigned long long>(ai.height_el));
      if (ai.chain_pitch_el)
        std::printf(", mipChainPitch %llu, mipChainHeight %llu", static_cast<unsigned long long>(ai.chain_pitch_el),
                    static_cast<unsigned long long>(ai.chain_height_el));
      std::printf(", numSlices %llu, sliceSize %llu, surfSize %llu, baseAlign %llu\n",
                  static_cast<unsigned long long>(ai.num_slices), static_cast<unsigned long long>(ai.slice_size_B),
                  static_cast<unsigned long long>(ai.surf_size_B), static_cast<unsigned long long>(ai.base_align_B));
      std::printf("addrlib    block %ux%ux%u elements (%s), firstMipIdInTail %u\n", ai.block_w_el, ai.block_h_el,
                  ai.block_d, ai.thick ? "thick" : "thin", ai.first_mip_in_tail);
    }
  }
  const uint64_t base = resource_base(o, l.size());
  if (base)
    std::printf("file offset %llu (--offset: the offsets below count from the start of the file)\n",
                static_cast<unsigned long long>(base));
  // row_pitch: bytes between rows of blocks (swz's unit); row_B: bytes between
  // rows of elements, the pitch drivers report: row_pitch over the block's rows,
  // slices and samples (a row of blocks holds that many rows of elements).
  std::printf("%5s %4s %5s %5s %16s %11s %14s %14s %14s %14s %4s %10s\n", "sub", "mip", "slice", "plane",
              "size (texels)", "elems", "offset", "bytes", "row_pitch", "depth_pitch", "slot", "row_B");
  for (uint32_t i = 0; i < l.subresource_count(); ++i) {
    const SubresourceLayout& s = l.sub(i);
    std::string dims = std::to_string(s.width) + "x" + std::to_string(s.height) + "x" + std::to_string(s.depth);
    std::string els = std::to_string(s.width_el) + "x" + std::to_string(s.height_el);
    uint64_t block_rows = 1;
    if (static_cast<size_t>(s.pattern_slot) < l.patterns().size()) {
      const std::array<uint64_t, 4> ext = l.patterns()[static_cast<size_t>(s.pattern_slot)].block_extent();
      block_rows = ext[1] * ext[2] * ext[3];
    }
    std::string origin;
    if (s.pre_swizzle[0] || s.pre_swizzle[1] || s.pre_swizzle[2])
      origin = "  origin " + std::to_string(s.pre_swizzle[0]) + "." + std::to_string(s.pre_swizzle[1]) + "." +
               std::to_string(s.pre_swizzle[2]);
    std::printf("%5u %4u %5u %5u %16s %11s %14llu %14llu %14llu %14llu%s %4d %10llu%s%s\n", s.index, s.mip,
                s.array_slice, s.plane, dims.c_str(), els.c_str(), static_cast<unsigned long long>(s.offset + base),
                static_cast<unsigned long long>(s.size), static_cast<unsigned long long>(s.row_pitch),
                static_cast<unsigned long long>(s.stack_depth ? s.stack_rows : s.depth_pitch_B),
                s.stack_depth ? "r" : " ", s.pattern_slot,
                static_cast<unsigned long long>(s.row_pitch / std::max<uint64_t>(1, block_rows)), origin.c_str(),
                s.packed ? "  packed mip tail" : "");
  }
  for (size_t k = 0; k < l.patterns().size(); ++k) {
    std::string text = to_text(l.patterns()[k]);
    if (!text.empty()) std::printf("pattern %zu  %s\n", k, text.c_str());
  }
}

/// The first clause of a listing's description (up to "; "), at most about
/// 64 characters (cut at a word), keeping a trailing "[N-byte elements]" tag.
std::string short_description(const std::string& d) {
  std::string tag;
  std::string body = d;
  if (!body.empty() && body.back() == ']') {
    size_t open = body.rfind(" [");
    if (open != std::string::npos) {
      tag = body.substr(open);
      body.resize(open);
    }
  }
  size_t semi = body.find("; ");
  if (semi != std::string::npos) body.resize(semi);
  constexpr size_t kMax = 64;
  if (body.size() > kMax) {
    size_t cut = body.rfind(' ', kMax);
    body = body.substr(0, cut == std::string::npos ? kMax : cut) + " ...";
  }
  return body + tag;
}

void layouts() {
  std::vector<LayoutListing> list = layout_listing();
  size_t w = 0;
  for (const auto& e : list) w = std::max(w, e.name.size());
  const bool full = output_mode().verbose;
  for (const auto& e : list) {
    std::printf("%-*s  %s\n", static_cast<int>(w), e.name.c_str(),
                (full ? e.description : short_description(e.description)).c_str());
    if (!full) continue;
    if (!e.parameters.empty()) std::printf("%-*s  parameters: %s\n", static_cast<int>(w), "", e.parameters.c_str());
    if (!e.source.empty()) std::printf("%-*s  source: %s\n", static_cast<int>(w), "", e.source.c_str());
  }
}

// swz layouts --show NAME: what a listed name means (bit equations, blocks).
// Element size 0: 4 bytes, or the first of 1, 2, 8, 16 the layout has.
void show_layout(const std::string& name, uint32_t element_bytes) {
  std::string text;
  Status st = describe_layout_name(name, element_bytes ? element_bytes : 4, &text);
  for (uint32_t eb : {1u, 2u, 8u, 16u})
    if (!element_bytes && !st.ok() && describe_layout_name(name, eb, &text).ok()) st = Status::Ok();
  check(st, "layouts --show " + name);
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
    std::string block = f.block_compressed()
                            ? std::to_string(f.block_width) + "x" + std::to_string(f.block_height) + " block"
                            : std::string("texel");
    std::printf("%-32s %3u bytes/%s%s%s\n", f.name, f.element_bytes, block.c_str(),
                f.planes > 1 ? (", " + std::to_string(f.planes) + " planes").c_str() : "",
                f.unorm8 ? ", image I/O" : "");
  }
}

}  // namespace
}  // namespace swz::cli

namespace swz::cli {
namespace {

/// swz swizzle of one input (by kind: DDS, image or raw; standard input by its signature).
void swizzle_one(const CommonOptions& o, const std::string& in, const std::string& out) {
  std::optional<InputBytes> pre;
  InputKind kind = is_dds_path(in) ? InputKind::Dds : is_image_path(in) ? InputKind::Image : InputKind::Raw;
  struct stat st {};
  if (is_stdin(in) || (kind != InputKind::Raw && stat(in.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) {
    // A stream is read only as far as its kind can use: a raw texture's bytes
    // (swizzle_raw), an image's or a DDS file's by its header. Standard
    // input's kind comes from its first bytes.
    const uint64_t off = input_offset(o);
    const std::vector<uint8_t> head = peek_input(in, off, 64 << 10);  // a JPEG's frame header follows its metadata
    if (is_stdin(in)) kind = sniff_input(head.data(), head.size());
    if (kind == InputKind::Image) {
      const uint64_t limit = image_bytes_limit(head.data(), head.size());
      pre = read_input(in, off, limit, false);
      if (pre->more)
        fail(input_name(in) + " holds more than " + bytes_text(limit) +
             ", more than the image its header describes can use; stopped reading there");
    } else if (kind == InputKind::Dds) {
      // Its headers say how many bytes of texels follow; bytes after them are ignored, as in a file.
      DdsInfo info;
      check(parse_dds_header(std::span<const uint8_t>(head.data(), head.size()), &info), input_name(in));
      const uint64_t size = info.data_size > UINT64_MAX - info.data_offset ? UINT64_MAX : info.data_offset + info.data_size;
      pre = read_input(in, off, size, false);
    }
  }
  if (kind == InputKind::Dds) {
    if (!pre) pre = read_input(in, input_offset(o), UINT64_MAX, false);
    say(swizzle_dds(o, in, pre->data(), pre->size, out));
  } else if (kind == InputKind::Image) {
    swizzle_image(o, in, out, std::move(pre));
  } else {
    swizzle_raw(o, in, out, std::move(pre));
  }
}

/// raw, png or dds: --out-type, else OUT's extension (.png, .dds), else raw.
std::string output_type(const std::string& out, const std::string& given) {
  if (!given.empty()) return given;
  const std::string e = extension_of(out);
  if (e == ".png") return "png";
  if (e == ".dds") return "dds";
  return "raw";
}

}  // namespace
}  // namespace swz::cli

namespace swz::cli {
namespace {

int run_main(int argc, char** argv) {
  CLI::App app{
      "swz: convert textures between linear memory and GPU swizzled layouts\n"
      "(D3D12 standard swizzle, parameterized swizzle patterns, row-major)."};
  app.set_version_flag("--version", SWZ_VERSION_STRING);
  app.require_subcommand(1);
  set_examples(&app, "", "", "'swz COMMAND --help' describes one command, with examples.");

  CommonOptions o;
  std::string in, out, cmp_a, cmp_b, out_type;
  uint32_t sub = 0;
  bool cube = false, hex = false;
  ViewOptions view;
  std::vector<std::string> query_args, files;
  std::string out_dir;
  bool overwrite = false;
  unsigned jobs = 0;
  // Batch mode (texconv's habits): several inputs, -o DIR, -y, --jobs.
  auto add_batch_options = [&](CLI::App* c, const char* ext_rule) {
    c->add_option("-o,--output-dir", out_dir,
                  std::string("Batch mode: every FILE is an input; each output goes to DIR, named after its input (") +
                      ext_rule + "); inputs are converted in parallel");
    c->add_flag("-y,--overwrite", overwrite,
                "Batch mode (-o DIR): overwrite outputs that exist (else an error naming the file, as texconv "
                "does). One IN OUT pair replaces an existing OUT without -y, as cp does");
    add_unsigned_option(c, "--jobs,-j", jobs, "Batch mode: conversions at a time (default: one per hardware thread)");
  };
  // A command: its name, summary and help examples (help_examples.cpp, by the
  // same name), and, for the commands that describe a texture and layout,
  // the common options.
  auto command = [&](const char* name, const char* what, const CommonOptionUse* texture_options,
                     const char* intro = "") {
    CLI::App* c = app.add_subcommand(name, what);
    if (texture_options) add_common_options(c, &o, *texture_options);
    set_examples(c, name, intro);
    return c;
  };

  const CommonOptionUse sw_use{"required for raw IN; image IN defaults to R8G8B8A8_UNORM, a .dds IN gives its own",
                               true,
                               "Bytes before the linear data in IN (decimal or 0x hex): it starts N bytes into IN"};
  const CommonOptionUse de_use{"required, except for .png OUT (default R8G8B8A8_UNORM)", true,
                               "Bytes before the resource in IN (decimal or 0x hex): it starts N bytes into IN"};
  const CommonOptionUse query_use{
      "required (unless --layout is a resource-layout JSON file, which fixes it)", false,
      "Bytes before the resource in the file the offsets are about (decimal or 0x hex): answers count from the "
      "start of that file"};
  const CommonOptionUse info_use{"required (unless --layout is a resource-layout JSON file, which fixes it)", false,
                                 "Bytes before the resource in its file (decimal or 0x hex): printed offsets count "
                                 "from the start of that file"};
  const CommonOptionUse plot_use{"default R8_UNORM for pattern: layouts, R8G8B8A8_UNORM for the others", false,
                                 nullptr};
  auto* sw = command("swizzle", "Linear -> swizzled: write IN into the resource memory OUT", &sw_use);
  sw->add_option("FILES", files,
                 "IN OUT, or several IN with -o DIR. IN: an image (.png .jpg .jpeg .bmp .tga; 8-bit UNORM formats, 1-4 "
                 "channels), a .dds file (format, size, "
                 "mips and arrays from the file), or a raw file with every "
                 "subresource tightly packed in subresource order (needs --size and --format). With an image, "
                 "--mips N makes the lower mips with a box filter (sRGB formats in linear light; odd sizes keep their "
                 "last row and column), array slices and 3D depth slices repeat it. "
                 "'-' reads standard input: a PNG, JPEG, BMP or DDS by its signature, else raw. "
                 "OUT: the swizzled resource memory (layout size bytes); '-' for standard output")
      ->required();
  add_batch_options(sw, "NAME.bin");
  bool in_place = false;
  sw->add_flag("--in-place", in_place, "Allow OUT to be IN (the same path or a hard link): IN is replaced");

  auto* de = command("deswizzle", "Swizzled -> linear: read the resource memory IN into OUT", &de_use);
  auto* de_sub =
      add_unsigned_option(de, "--subresource", sub, "Subresource index (mip + slice * mips); .png default 0");
  de->add_option("FILES", files,
                 "IN OUT, or several IN with -o DIR. IN: the swizzled resource memory (at least the layout's size from "
                 "--offset on); '-' reads standard input. OUT.png: one subresource as an image (every format swz "
                 "decodes: BC1-BC7, float, packed, depth, YUV; see --channel and --exposure; "
                 "--format defaults to R8G8B8A8_UNORM; "
                 "a 3D subresource's depth slices are stacked vertically). OUT.dds: every subresource as a DDS file "
                 "(DX10 header; --cube marks cube maps). Anything else: raw, every subresource "
                 "tightly packed in subresource order, or only --subresource. '-' is standard output (raw unless "
                 "--out-type says png or dds)")
      ->required();
  add_batch_options(de, "NAME.raw, or .png / .dds with --out-type");
  de->add_option("--out-type", out_type, "What to write: raw, png or dds (default: from OUT's extension, else raw)")
      ->check(CLI::IsMember({"raw", "png", "dds"}));
  de->add_flag("--allow-short", o.allow_short,
               "Decode a truncated dump: elements past the end of IN come out as zeros, and the missing byte count "
               "is reported (default: IN must hold the whole layout)");
  de->add_flag("--in-place", in_place, "Allow OUT to be IN (the same path or a hard link): IN is replaced");
  add_view_options(de, &view);
  de->add_flag("--cube", cube,
               "OUT.dds (every subresource, DX10 header): mark the 2D array (--array 6*N) as cube maps");

  auto* of = command("offset", "Print the byte offset of elements in the resource memory, one per line", &query_use);
  add_unsigned_option(of, "--subresource", sub, "Subresource index (default 0)");
  of->add_flag("--hex", hex, "Print offsets in 0x hex");
  of->add_option("COORDS", query_args,
                 "X Y [Z] [SAMPLE] for one element, or X,Y[,Z[,SAMPLE]] for each of many, or '-': one element per line "
                 "of standard input (element coordinates: texels; 4x4 blocks for BC). Each is answered in order; a bad one "
                 "prints 'error: ...' in its place (exit status 1)")
      ->required();

  auto* lo = command("locate", "Print which element each byte of the resource memory belongs to", &query_use);
  lo->add_option("OFFSETS", query_args,
                 "Byte offsets (decimal or 0x hex), or '-': one per line of standard input. With --offset, they count "
                 "from the start of the file. Each is answered in order; a bad one prints 'error: ...' in its place "
                 "(exit status 1)")
      ->required();

  auto* in_cmd = command("info", "Print the layout: size, alignment, every subresource's placement", &info_use);

  auto* ly = command("layouts", "List the built-in layouts", nullptr);
  std::string show_name, canon_block, canon_text;
  uint32_t show_bytes = 0;
  ly->add_option("--show", show_name,
                 "Print the bit equation of a layout family, e.g. 'nv-block-linear:gob=tegra,bh=16'");
  add_unsigned_option(ly, "--element-bytes", show_bytes, "Element size for --show (default 4, or the smallest the layout has)");
  auto* cz = command("canonicalize",
                     "Reorder a pattern's XOR terms so the primaries are the in-block bits (addrlib equations)", nullptr);
  cz->add_option("--block", canon_block, "Block extents WxH[xD[xS]], W in bytes (e.g. 512x128)")->required();
  cz->add_option("TEXT", canon_text, "Pattern text, address bit 0 first, e.g. 'X0 X1 X2 X3 Y0 Y1 X4 Y2 X9^Y4^Y7 ...'")
      ->required();
  auto* fm = command("formats", "List the DXGI formats swz knows", nullptr);

  IdentifyArgs ida;
  CLI::App *id_cmd = nullptr, *inf_cmd = nullptr;
  add_identify_commands(app, &ida, &id_cmd, &inf_cmd);
  set_examples(id_cmd, "identify");
  set_examples(inf_cmd, "infer");

  ViewArgs vwa;
  CLI::App* vw_cmd = add_view_command(app, &vwa);
  set_examples(vw_cmd, "view");

  RetileArgs rta;
  CLI::App* rt_cmd = add_retile_command(app, &rta);

  auto* cm = command("compare", "Compare two images as RGBA8 pixels (exit 0 identical, 1 different, 2 trouble)", nullptr);
  cm->add_option("A", cmp_a, "First image ('-' reads standard input)")->required();
  cm->add_option("B", cmp_b, "Second image ('-' reads standard input)")->required();

  PlotArgs pla;
  auto* pl =
      command("plot", "Draw the address order inside one block as a PNG (as Python's swz.plot_pattern)", &plot_use,
              "Without --size the texture is one block; --format defaults to R8_UNORM for pattern: layouts (X counts\n"
              "bytes, as Python's plot_pattern for a bare pattern) and R8G8B8A8_UNORM for the others.\n");
  add_unsigned_option(pl, "--subresource", pla.subresource, "Subresource whose pattern to draw (default 0)");
  pl->add_option("--origin", pla.origin,
                 "X,Y[,Z] in elements: draw the block holding this element (default the first)");
  pl->add_option("--annotate", pla.annotate, "Write the order numbers in the cells: auto (at most 256 cells), yes, no")
      ->check(CLI::IsMember({"auto", "yes", "no"}));
  pl->add_flag("--print", pla.print, "Also print the order grid as text (one row of the block per line)");
  pl->add_option("OUT", pla.out, "The PNG to write ('-' for standard output)")->required();

  // Every command: --quiet and --verbose.
  for (CLI::App* c : app.get_subcommands([](CLI::App*) { return true; })) {
    c->add_flag("--quiet,-q", output_mode().quiet, "Print nothing but errors (a query's answers still print)");
    c->add_flag("--verbose,-v", output_mode().verbose,
                c->get_option_no_throw("--device")
                    ? "Also print the layout's geometry, timings and (--device gpu) the Vulkan device used, on stderr"
                    : "Also print the layout's geometry and timings, on stderr");
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // compare follows cmp: trouble is exit status 2.
    int rc = app.exit(e);
    if (cm->parsed() && rc != 0) return 2;
    return rc;
  }

  for (CLI::App* c : {sw, de, of, lo, in_cmd, pl})
    if (c->parsed()) bind_common_options(c, &o);
  try {
    if (*rt_cmd) output_mode().summary_to_stderr = same_as_stdout(rta.out);
    if ((*sw || *de) && out_dir.empty()) {
      if (files.size() != 2)
        fail(std::string(*sw ? "swizzle" : "deswizzle") + " takes IN OUT (got " + std::to_string(files.size()) +
             " file(s)); for several inputs give -o DIR");
      in = files[0];
      out = files[1];
    } else if (!*sw && !*de && (!out_dir.empty() || overwrite || jobs)) {
      fail("-o, -y and --jobs apply to swizzle and deswizzle");
    }
    if ((*sw || *de) && !out_dir.empty()) {
      // Batch mode.
      output_mode().batch = true;
      std::string type = output_type("", out_type);
      if (*de && cube && type == "raw") type = "dds";
      if (*de) require_png_for_view_options(view, type);
      const std::string ext = *sw ? ".bin" : "." + type;
      std::vector<BatchJob> list = plan_batch(files, out_dir, ext, overwrite);
      const unsigned workers =
          o.device == "cpu" ? batch_workers(jobs, list.size()) : 1;  // one Vulkan context at a time
      CommonOptions each = o;
      if (each.threads == 0 && workers > 1) each.threads = std::max(1u, std::thread::hardware_concurrency() / workers);
      const bool have_sub = de_sub->count() > 0;
      size_t failed = run_batch(list, workers, [&](const BatchJob& j) {
        if (*sw)
          swizzle_one(each, j.in, j.out);
        else if (type == "dds")
          say(deswizzle_dds(each, cube, have_sub, j.in, j.out, true));
        else
          deswizzle(each, j.in, j.out, have_sub, sub, type == "png", view);
      });
      if (failed) {
        std::fprintf(stderr, "swz: error: %zu of %zu conversion(s) failed\n", failed, list.size());
        return 1;
      }
      return 0;
    }
    if (*sw || *de) {
      output_mode().summary_to_stderr = same_as_stdout(out);
      // IN is read whole before OUT is written, so --in-place is safe; without
      // it, OUT = IN is almost always a mistaken argument that would destroy IN.
      if (!in_place && out != "-" && in != "-" && same_file(in, out))
        fail("OUT '" + out + "' is the same file as IN '" + in + "'; pass --in-place to replace IN");
    }
    if (*sw) {
      swizzle_one(o, in, out);
    } else if (*de) {
      const std::string type = output_type(out, out_type);
      require_png_for_view_options(view, cube && type == "raw" ? "dds" : type);
      if (type == "dds" || cube)
        say(deswizzle_dds(o, cube, de_sub->count() > 0, in, out, type == "dds"));
      else
        deswizzle(o, in, out, de_sub->count() > 0, sub, type == "png", view);
    } else if (*pl) {
      output_mode().summary_to_stderr = same_as_stdout(pla.out);
      run_plot(o, pla);
    } else if (*of) {
      run_offset(o, sub, query_args, hex);
    } else if (*lo) {
      run_locate(o, query_args);
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
    } else if (*vw_cmd) {
      run_view(vwa);
    } else if (*rt_cmd) {
      say(run_retile(rta, !output_mode().quiet));
    } else if (*cm) {
      output_mode().trouble_status = 2;
      std::string report;
      bool same = false;
      try {
        same = compare_images(cmp_a, cmp_b, &report);
      } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "swz: error: %s\n", e.what());
        return 2;
      }
      if (!output_mode().quiet) std::printf("%s\n", report.c_str());
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

}  // namespace
}  // namespace swz::cli

int main(int argc, char** argv) {
  swz::cli::guard_standard_descriptors();
  int rc = swz::cli::run_main(argc, argv);
  // Answers and summaries that could not be written are an error, not a
  // silent exit 0 (a closed or full standard output).
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "swz: error: cannot write standard output%s\n",
                 swz::cli::closed_at_start(STDOUT_FILENO) ? " (it is closed)" : "");
    const int trouble = swz::cli::output_mode().trouble_status;
    if (rc == 0 || trouble != 1) rc = trouble;
  }
  return rc;
}
