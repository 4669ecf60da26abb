// swz identify / swz infer (README "Finding an unknown layout").
#include "identify_cli.hpp"

#include <CLI/CLI.hpp>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "common.hpp"
#include "number_option.hpp"
#include "file_io.hpp"
#include "image_io.hpp"
#include "input.hpp"
#include "swz/dds.hpp"
#include "swz/decode.hpp"
#include "swz/identify.hpp"
#include "swz/layout_names.hpp"
#include "texture.hpp"

namespace swz::cli {
namespace {

// The whole dump: a file, or standard input ("-") or another stream read at
// most to `stream_limit_B` bytes (more is an error, not a cut dump).
std::vector<uint8_t> read_all(const std::string& path, uint64_t stream_limit_B) {
  struct stat st {};
  const bool regular = !is_stdin(path) && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  InputBytes in = read_input(path, 0, regular ? UINT64_MAX : stream_limit_B, false);
  if (in.more && !in.total_known)
    fail(input_name(path) + " holds more than " + bytes_text(stream_limit_B) +
         ", more than any candidate layout of the texture spans (--offset, then 16 times the texture, then 64 MiB); "
         "save the dump to a file to rank it whole");
  std::vector<uint8_t> data = allocate(in.size, "reading " + input_name(path));
  if (in.size) std::memcpy(data.data(), in.data(), in.size);
  return data;
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
  const uint64_t texels = uint64_t{in.w} * in.h, eb = std::max<uint64_t>(1, in.f.element_bytes);
  const uint64_t tight = texels > UINT64_MAX / eb ? UINT64_MAX : texels * eb;
  uint64_t offset = 0;
  if (!a.offset.empty() && a.offset != "auto") offset = parse_u64(a.offset, "--offset");
  const uint64_t limit = offset > UINT64_MAX / 2
                             ? UINT64_MAX
                             : offset + 16 * std::min<uint64_t>(tight, UINT64_MAX / 64) + (uint64_t{64} << 20);
  in.dump = read_all(a.dump, limit);
  return in;
}

// A best score below this is no better than noise (1 = smooth, about 0 = noise);
// with an offset search, the best of thousands of noise decodes scores up to
// about 0.25.
constexpr double kNoiseScore = 0.1;
constexpr double kSearchNoiseScore = 0.3;

// A thumbnail (at most 256 pixels on a side, nearest texel) of a decode.
void write_thumbnail(const std::string& path, const std::vector<uint8_t>& lin, uint32_t w, uint32_t h,
                     const FormatInfo& f) {
  const uint32_t step = std::max(1u, (std::max(w, h) + 255) / 256);
  const uint32_t tw = (w + step - 1) / step, th = (h + step - 1) / step;
  // Palette formats have no palette here: their bytes are shown as grey below.
  const std::string n = f.name;
  const bool palette = n == "P8" || n == "A8P8" || n == "AI44" || n == "IA44";
  if (!palette && check_decodable(f).ok()) {  // every other format swz decodes: its view pixels
    std::vector<uint8_t> rgba = allocate(uint64_t{w} * h * 4, "the decoded thumbnail");
    LinearImage img;
    img.format = f;
    img.width_px = w;
    img.height_px = h;
    img.data = lin.data();
    img.size_B = lin.size();
    check(decode_rgba8(img, {}, rgba.data(), rgba.size()), "cannot decode a thumbnail");
    std::vector<uint8_t> px(size_t{tw} * th * 4);
    for (uint32_t y = 0; y < th; ++y)
      for (uint32_t x = 0; x < tw; ++x)
        std::memcpy(&px[(size_t{y} * tw + x) * 4], &rgba[(size_t{y} * step * w + size_t{x} * step) * 4], 4);
    FormatInfo rgba8;
    (void)find_format("R8G8B8A8_UNORM", &rgba8);
    AtomicOutput file(path);
    write_png(file, px.data(), tw, th, rgba8);
    file.commit();
    return;
  }
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
      "texels are (1 = smooth, 0 = noise), block seams weighing as much as the interior. Prints one line per\n"
      "candidate: '<score> <layout>[ offset=<bytes>][ short=<bytes>]'. <layout> is accepted verbatim by --layout\n"
      "(row-major with another pitch: row-major:pitch=N); offset= (when not 0) is where that candidate's texture\n"
      "starts in DUMP, for --offset; short= says how many bytes of the layout lie past the end of DUMP (a dump that\n"
      "ends early is ranked on the bytes it has, when at least half of a layout is present). Layouts that give the\n"
      "same bytes for this size are printed once, under the simplest name.\n"
      "Unknown offset: --offset auto searches every 4 KiB from the start of DUMP; --offset-step B searches every B\n"
      "bytes from --offset; --scan searches every element.\n"
      "Exit status 1 when the dump cannot tell layouts apart: every element the same (nothing printed), or after\n"
      "the ranking when 99% of the elements hold one value, the best candidates tie, or the best score is below 0.1\n"
      "(0.3 with an offset search: the best of many offsets lifts noise).");
  id->add_option("--format", a->format, "DXGI format of the texels (1-16 bytes per element, or BC1-BC7)")->required();
  id->add_option("--size", a->size, "WxH in texels")->required();
  add_unsigned_option(id, "--top", a->top, "Candidates to print (default 5)");
  id->add_option("--offset", a->offset,
                 "Byte offset of the texture in DUMP (decimal or 0x hex, default 0), or 'auto': search for it every "
                 "4 KiB");
  id->add_option("--offset-step", a->offset_step,
                 "Search for the texture's start every B bytes from --offset (a multiple of the element size; 256 "
                 "to 65536 covers the alignments drivers use)");
  id->add_flag("--scan", a->scan, "Search for the texture's start at every element from --offset");
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
  const bool auto_offset = a.offset == "auto";
  o.offset_B = auto_offset ? 0 : parse_u64(a.offset, "--offset");
  if (!a.offset_step.empty()) {
    o.offset_step_B = parse_u64(a.offset_step, "--offset-step");
    if (o.offset_step_B == 0) fail("--offset-step 0: give a step of at least one element (" + std::to_string(f.element_bytes) + " bytes)");
  }
  if (a.scan) {
    if (!a.offset_step.empty()) fail("--scan and --offset-step " + a.offset_step + ": give one of them");
    o.offset_step_B = f.element_bytes;
  }
  if (auto_offset && o.offset_step_B == 0) o.offset_step_B = 4096;
  // A dump whose elements are all the same decodes to the same flat image in
  // every layout: every score is 1 and the ranking means nothing.
  const uint64_t eb = f.element_bytes;
  uint64_t elements = 0, same_as_first = 0;
  if (o.offset_B < dump.size() && eb > 0) {
    const uint8_t* first = dump.data() + o.offset_B;
    // The texture's neighbourhood: twice its tight size (layouts pad), not a long dump's other data.
    elements = std::min<uint64_t>((dump.size() - o.offset_B) / eb, uint64_t{2} * w * h);
    for (uint64_t i = 0; i < elements; ++i) same_as_first += std::memcmp(first, first + i * eb, eb) == 0;
  }
  // The most common element among 64 spread over the dump, and how many
  // elements equal it: a dump almost all one value ranks on its few others.
  uint64_t common = 0;
  if (elements > 0) {
    const uint8_t* first = dump.data() + o.offset_B;
    uint64_t best_at = 0, best_hits = 0;
    for (uint64_t k = 0; k < 64; ++k) {
      const uint64_t at = k * (elements - 1) / 63;
      uint64_t hits = 0;
      for (uint64_t j = 0; j < 64; ++j) hits += std::memcmp(first + at * eb, first + j * (elements - 1) / 63 * eb, eb) == 0;
      if (hits > best_hits) best_hits = hits, best_at = at;
    }
    for (uint64_t i = 0; i < elements; ++i) common += std::memcmp(first + best_at * eb, first + i * eb, eb) == 0;
  }
  if (elements > 1 && same_as_first == elements)
    fail("identify " + a.dump + ": every element of the dump (the " + std::to_string(elements) +
         " from --offset on) holds the same bytes, which decode to the same flat image in every layout: the dump "
         "cannot tell layouts apart (dump a texture with detail)");
  std::vector<IdentifyCandidate> got;
  check(identify(dump, f, w, h, o, &got), "identify " + a.dump);
  if (got.empty()) fail("identify " + a.dump + ": no layout can hold the dump");
  // Fewer bytes than the texture's elements packed tight: every layout is
  // short, and those needing more than twice the dump were not tried.
  TextureDesc one;
  one.width = w;
  one.height = h;
  one.format = f;
  uint64_t tight_B = 0;
  if (o.offset_step_B == 0 && dds_data_size(one, &tight_B).ok() && dump.size() - o.offset_B < tight_B)
    std::fprintf(stderr,
                 "swz: warning: identify %s: the dump holds %llu bytes from --offset on, less than the texture's "
                 "%llu bytes packed tight; layouts needing more than twice that were not tried, so the right one "
                 "may be missing\n",
                 a.dump.c_str(), static_cast<unsigned long long>(dump.size() - o.offset_B),
                 static_cast<unsigned long long>(tight_B));
  // The candidates whose printed score equals the best one's.
  char best_text[32], text[32];
  std::snprintf(best_text, sizeof best_text, "%.4f", got[0].score);
  size_t tied = 1;
  while (tied < got.size() && (std::snprintf(text, sizeof text, "%.4f", got[tied].score), std::strcmp(text, best_text) == 0))
    ++tied;
  if (!a.thumbnails.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.thumbnails, ec);
    if (ec) fail("--thumbnails " + a.thumbnails + ": " + ec.message());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const IdentifyCandidate& c = got[i];
    std::printf("%.4f %s", c.score, c.layout.c_str());
    if (c.offset_B) std::printf(" offset=%llu", static_cast<unsigned long long>(c.offset_B));
    if (c.short_B) std::printf(" short=%llu", static_cast<unsigned long long>(c.short_B));
    std::printf("\n");
    if (a.thumbnails.empty()) continue;
    TextureDesc d;
    d.width = w;
    d.height = h;
    d.format = f;
    Layout L;
    check(make_layout_from_name(c.layout, d, {}, &L), "layout " + c.layout);
    std::vector<uint8_t> lin;
    uint64_t missing_el = 0;  // a short dump's missing elements decode as zero bytes
    check(decode_linear(dump, L, c.offset_B, &lin, &missing_el), "thumbnail");
    // RANK-LAYOUT.png: the rank keeps them in order, the layout says which is which.
    std::string name = std::to_string(i + 1) + "-" + c.layout;
    for (char& ch : name)
      if (ch == ':' || ch == '/' || ch == ' ' || ch == '\t' || ch == '\'') ch = '_';
    write_thumbnail((std::filesystem::path(a.thumbnails) / (name + ".png")).string(), lin, w, h, f);
  }
  if (elements > 0 && (elements - common) * 100 < elements) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.2f", 100.0 * static_cast<double>(common) / static_cast<double>(elements));
    fail("identify " + a.dump + ": the dump is nearly uniform (" + pct + "% of its " + std::to_string(elements) +
         " elements hold the same bytes): the ranking rests on " + std::to_string(elements - common) +
         " elements and cannot tell layouts apart (dump a texture with detail)");
  }
  // The best of many offsets lifts noise: a search asks for more.
  const double noise_bar = o.offset_step_B ? kSearchNoiseScore : kNoiseScore;
  if (got[0].score < noise_bar)
    fail("identify " + a.dump + ": no candidate decodes to a smooth image (best score " + best_text +
         ", noise scores about 0, up to 0.25 with an offset search): the ranking means nothing; check --format, --size and --offset, or the dump is "
         "compressed or not an image");
  if (tied > 1)
    fail("identify " + a.dump + ": the best " + std::to_string(tied) + " candidates score the same (" + best_text +
         "): the dump cannot tell them apart (their decodes are the same picture flipped or transposed, as 3DS "
         "and PS4 tiles or X-first and Y-first Morton orders are, or the data is nearly uniform)");
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
