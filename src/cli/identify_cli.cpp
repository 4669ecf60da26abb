// swz identify / swz infer (README "Finding an unknown layout").
#include "identify_cli.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "common.hpp"
#include "number_option.hpp"
#include "file_io.hpp"
#include "image_io.hpp"
#include "input.hpp"
#include "swz/identify.hpp"
#include "swz/layout_names.hpp"
#include "texture.hpp"

namespace swz::cli {
namespace {

// The whole dump: a file or standard input ("-").
std::vector<uint8_t> read_all(const std::string& path) {
  InputBytes in = read_input(path, 0, UINT64_MAX, false);
  std::vector<uint8_t> data = allocate(in.size, "reading " + input_name(path));
  if (in.size) std::memcpy(data.data(), in.data(), in.size);
  return data;
}

// Single-quoted for a POSIX shell when it holds anything but safe characters.
std::string shell_word(const std::string& s) {
  bool safe = !s.empty();
  for (char c : s)
    safe &=
        std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_.,:=/+@%").find(c) != std::string_view::npos;
  if (safe) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// What identify and infer both read: --size (one 2D texture), --format and the dump.
struct Input {
  uint32_t w = 0, h = 0;
  FormatInfo f;
  std::vector<uint8_t> dump;
};

Input read_args(const IdentifyArgs& a) {
  Input in;
  SizeArg s = parse_size(a.size);
  if (s.three_d) fail("--size " + a.size + ": identify and infer take one 2D texture (WxH)");
  in.w = s.width;
  in.h = s.height;
  in.f = lookup_format(a.format);
  in.dump = read_all(a.dump);
  return in;
}

// A thumbnail (at most 256 pixels on a side, nearest texel) of a decode.
void write_thumbnail(const std::string& path, const std::vector<uint8_t>& lin, uint32_t w, uint32_t h,
                     const FormatInfo& f) {
  const uint32_t step = std::max(1u, (std::max(w, h) + 255) / 256);
  const uint32_t tw = (w + step - 1) / step, th = (h + step - 1) / step;
  FormatInfo out_f = f;
  uint32_t ch = f.element_bytes;
  uint32_t pick = 0;  // non-8-bit formats: the most significant byte of the first channel, as grey
  if (!f.unorm8) {
    (void)find_format("R8_UNORM", &out_f);
    ch = 1;
    pick = f.channel_bits >= 16 ? f.channel_bits / 8 - 1 : 0;
  }
  std::vector<uint8_t> px(size_t{tw} * th * ch);
  for (uint32_t y = 0; y < th; ++y)
    for (uint32_t x = 0; x < tw; ++x) {
      const uint8_t* s = &lin[(size_t{y} * step * w + size_t{x} * step) * f.element_bytes];
      if (f.unorm8)
        std::copy(s, s + ch, &px[(size_t{y} * tw + x) * ch]);
      else
        px[size_t{y} * tw + x] = s[pick];
    }
  AtomicOutput file(path);
  write_png(file, px.data(), tw, th, out_f);
  file.commit();
}

}  // namespace

void add_identify_commands(CLI::App& app, IdentifyArgs* a, CLI::App** identify, CLI::App** infer) {
  auto* id = app.add_subcommand("identify", "Rank the built-in layouts for a dump of an ordinary image (best first)");
  id->description(
      "Rank the built-in layouts for a dump of an ordinary image (best first).\n"
      "Every layout family is tried, with parameter sweeps (NVIDIA block heights and GOB kinds, AMD pipes, Intel\n"
      "pitches, Adreno and Xbox 360 variants, row-major pitches); each decode is scored by how smooth neighbouring\n"
      "texels are (1 = smooth, 0 = noise), block seams weighing as much as the interior. Prints '<score> <layout>'\n"
      "per line; <layout> is accepted verbatim by --layout (row-major with another pitch: row-major:pitch=N). Layouts\n"
      "that give the same bytes for this size are printed once, under the simplest name.");
  id->add_option("--format", a->format, "DXGI format of the texels (uncompressed, 1-16 bytes)")->required();
  id->add_option("--size", a->size, "WxH in texels")->required();
  add_unsigned_option(id, "--top", a->top, "Candidates to print (default 5)");
  id->add_option("--offset", a->offset, "Byte offset of the texture in DUMP (decimal or 0x hex, default 0)");
  id->add_option("--thumbnails", a->thumbnails,
                 "Write a small PNG of each printed candidate's decode into DIR, named RANK-LAYOUT.png after its "
                 "rank and layout (1-nv-block-linear_gob=tegra,bh=8.png = best; ':' '/' and blanks in the name "
                 "become '_')");
  id->add_option("DUMP", a->dump, "The dump: one 2D texture (mip 0) in an unknown layout")->required();
  auto* in =
      app.add_subcommand("infer", "Solve a probe dump for its layout (prints the --layout options that reproduce it)");
  in->description(
      "Solve a probe dump for its layout.\n"
      "A probe is a texture whose element (x, y) holds its index y*W+x as a little-endian 32-bit integer in its\n"
      "first 4 bytes, uploaded to the GPU and read back raw. The block, the interleave of the coordinate bits, XOR\n"
      "chains, postamble XORs above the block, the immediate and the row pitch are read off the probe and checked\n"
      "by re-swizzling every texel. Line 1: the options that reproduce the layout, as shell words (a built-in name\n"
      "when one matches byte for byte, else 'pattern:...'); line 2: which bytes were verified.\n"
      "Formats: elements of 4, 8 or 16 bytes. To probe a 1- or 2-byte format, probe the same tiling with a 4-byte\n"
      "format (R32_UINT, same width in BYTES: W/4 texels of R8, W/2 of R16) and name the result for the small format\n"
      "(hardware families: the same name with --format of the small format; patterns: the same X bits are bytes).");
  in->add_option("--format", a->format, "DXGI format of the probe (4, 8 or 16-byte elements, e.g. R32_UINT)")
      ->required();
  in->add_option("--size", a->size, "WxH in texels")->required();
  in->add_option("--offset", a->offset, "Byte offset of the texture in PROBE (decimal or 0x hex, default 0)");
  in->add_option("PROBE", a->dump, "The probe dump")->required();
  *identify = id;
  *infer = in;
}

void run_identify(const IdentifyArgs& a) {
  const Input in = read_args(a);
  const uint32_t w = in.w, h = in.h;
  const FormatInfo& f = in.f;
  const std::vector<uint8_t>& dump = in.dump;
  IdentifyOptions o;
  o.top = a.top;
  o.offset_B = parse_u64(a.offset, "--offset");
  std::vector<IdentifyCandidate> got;
  check(identify(dump, f, w, h, o, &got), "identify " + a.dump);
  if (got.empty()) fail("identify " + a.dump + ": no layout can hold the dump");
  if (!a.thumbnails.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.thumbnails, ec);
    if (ec) fail("--thumbnails " + a.thumbnails + ": " + ec.message());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const IdentifyCandidate& c = got[i];
    std::printf("%.4f %s\n", c.score, c.layout.c_str());
    if (a.thumbnails.empty()) continue;
    TextureDesc d;
    d.width = w;
    d.height = h;
    d.format = f;
    Layout L;
    check(make_layout_from_name(c.layout, d, {}, &L), "layout " + c.layout);
    std::vector<uint8_t> lin;
    check(decode_linear(dump, L, o.offset_B, &lin), "thumbnail");
    // RANK-LAYOUT.png: the rank keeps them in order, the layout says which is which.
    std::string name = std::to_string(i + 1) + "-" + c.layout;
    for (char& ch : name)
      if (ch == ':' || ch == '/' || ch == ' ' || ch == '\t' || ch == '\'') ch = '_';
    write_thumbnail((std::filesystem::path(a.thumbnails) / (name + ".png")).string(), lin, w, h, f);
  }
}

void run_infer(const IdentifyArgs& a) {
  const Input in = read_args(a);
  const FormatInfo& f = in.f;
  InferResult r;
  check(infer(in.dump, f, in.w, in.h, parse_u64(a.offset, "--offset"), &r), "infer " + a.dump);
  std::string line = "--layout " + shell_word(r.layout);
  if (r.row_pitch_B) line += " --row-pitch " + std::to_string(r.row_pitch_B);
  std::printf("%s\n", line.c_str());
  const uint32_t eb = f.element_bytes;
  std::printf(
      "verified: bytes 0-3 (the index) of all %llu elements, each at the address the layout gives%s; the layout spans "
      "%llu bytes of the "
      "probe after the offset\n",
      static_cast<unsigned long long>(r.elements_verified),
      eb > 4 ? (" (bytes 4-" + std::to_string(eb - 1) + " of each element are not pinned by a probe)").c_str() : "",
      static_cast<unsigned long long>(r.made.size()));
}

}  // namespace swz::cli
