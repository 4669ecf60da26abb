#include "dds_cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

#include "common.hpp"
#include "big_buffer.hpp"
#include "file_io.hpp"
#include "input.hpp"
#include "output.hpp"
#include "swz/copy.hpp"
#include "swz/dds.hpp"

namespace swz::cli {
namespace {

std::string dims(const TextureDesc& d) {
  std::string s = std::to_string(d.width) + "x" + std::to_string(d.height);
  if (d.dimension == Dimension::Texture3D) s += "x" + std::to_string(d.depth);
  return s;
}

std::string describe(const TextureDesc& d, bool cube) {
  std::string s =
      dims(d) + " " + d.format.name + ", " + std::to_string(d.mip_levels) + (d.mip_levels == 1 ? " mip" : " mips");
  if (cube)
    s += ", " + std::to_string(d.array_size / 6) + (d.array_size == 6 ? " cube map" : " cube maps");
  else if (d.dimension == Dimension::Texture2D && d.array_size != 1)
    s += ", " + std::to_string(d.array_size) + " array slices";
  return s;
}

/// The DDS fixes the texture: options may only repeat what it says.
void take_texture_from(const DdsInfo& info, const std::string& in, CommonOptions* o) {
  const TextureDesc& d = info.desc;
  auto clash = [&](const std::string& opt, const std::string& value, const std::string& theirs) {
    fail(opt + " " + value + " disagrees with '" + in + "', which is " + describe(d, info.cube) + " (" + opt + " " +
         theirs + "); leave it out for DDS input");
  };
  if (!o->format.empty()) {
    FormatInfo f = lookup_format(o->format);
    if (f.dxgi != d.format.dxgi) clash("--format", o->format, d.format.name);
  }
  if (!o->size.empty()) {
    SizeArg s = parse_size(o->size);
    bool same =
        s.width == d.width && s.height == d.height &&
        (s.three_d ? d.dimension == Dimension::Texture3D && s.depth == d.depth : d.dimension == Dimension::Texture2D);
    if (!same) clash("--size", o->size, dims(d));
  }
  if (!o->mips.empty()) {
    const uint32_t full = full_mip_count(d.width, d.height, d.dimension == Dimension::Texture3D ? d.depth : 1);
    uint64_t m = 0;
    if (o->mips == "full") {
      m = full;
    } else {
      try {
        m = parse_u64(o->mips, "--mips");
        if (m == 0) m = full;  // --mips 0: the full chain
      } catch (const Error&) {
        m = UINT64_MAX;
      }
    }
    if (m != d.mip_levels) clash("--mips", o->mips, std::to_string(d.mip_levels));
  }
  // --array defaults to 1: a 1 counts as given only when CLI11 saw it.
  const bool array_given = o->array != 1 || (o->array_opt && o->array_opt->count() > 0);
  if (array_given && o->array != d.array_size) clash("--array", std::to_string(o->array), std::to_string(d.array_size));
  if (o->samples != 1) clash("--samples", std::to_string(o->samples), "1");
  o->format = d.format.name;
  o->size = dims(d);
  o->mips = std::to_string(d.mip_levels);
  o->array = d.array_size;
}

bool same_texture(const TextureDesc& a, const TextureDesc& b) {
  return a.dimension == b.dimension && a.width == b.width && a.height == b.height && a.depth == b.depth &&
         a.array_size == b.array_size && a.mip_levels == b.mip_levels && a.samples == b.samples &&
         a.format.dxgi == b.format.dxgi;
}

void note_packed(uint32_t n, const char* what) {
  if (n)
    note(std::to_string(n) +
         " subresource(s) lie in the D3D12 packed mip tail, whose layout is adapter-specific: " + what);
}

}  // namespace

bool is_dds_path(const std::string& path) { return extension_of(path) == ".dds"; }

std::string swizzle_dds(CommonOptions o, const std::string& in_path, const uint8_t* file, uint64_t file_size,
                        const std::string& out) {
  const std::string in = is_stdin(in_path) ? std::string("standard input") : in_path;
  DdsInfo info;
  check(parse_dds(std::span<const uint8_t>(file, static_cast<size_t>(file_size)), &info), "'" + in + "'");
  take_texture_from(info, in, &o);
  Texture t = make_texture(o, parse_size(o.size));
  if (!same_texture(t.desc, info.desc))
    fail("layout " + t.layout_arg + " describes a " + t.describe() + " texture but '" + in + "' is " +
         describe(info.desc, info.cube));
  const Layout& layout = t.layout;
  Copier copier(o);
  copier.check(layout, "a " + t.describe() + " texture");
  // The resource is built in place (the mapped output file, else a buffer
  // written out afterwards), never zero-filled first: both read as zero
  // until written, so padding and the packed mip tail stay zero.
  check_allocation(layout.size(), "the " + t.layout_arg + " resource");
  AtomicOutput out_file(out);
  OutputSpace resource(out_file, layout.size(), "the " + t.layout_arg + " resource");
  const uint8_t* texels = file + info.data_offset;
  uint64_t at = 0;
  uint32_t packed = 0;
  for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
    const SubresourceLayout& s = layout.sub(i);
    Packed p = packed_of(s);
    if (at + p.bytes > info.data_size) fail("internal: '" + in + "' is shorter than its subresources");
    if (s.packed) {
      ++packed;
    } else {
      check(copier.write(layout, resource.data(), resource.size(), i, texels + at, p.bytes, p.row, p.slice),
            "cannot write " + sub_name(s, t.desc));
    }
    at += p.bytes;
  }
  if (at != info.data_size) fail("internal: the subresources of '" + in + "' do not add up to its texel bytes");
  note_packed(packed, "their texels in the DDS file are skipped and the tail is left zero");
  verbose_phase("convert");
  resource.finish(nullptr);
  out_file.commit();
  verbose_phase("write");
  return "swizzled " + in + " (" + describe(info.desc, info.cube) + ") into " + out + ": " + t.layout_arg + ", " +
         std::to_string(layout.subresource_count()) + " subresource(s), " + bytes_text(layout.size());
}

std::string deswizzle_dds(const CommonOptions& o, bool cube, bool have_sub, const std::string& in,
                          const std::string& out, bool dds_output) {
  if (!dds_output) fail("--cube marks the texture of a .dds output as cube maps; '" + out + "' is not .dds");
  if (have_sub) fail("--subresource: a .dds output holds every subresource; leave --subresource out");
  Texture t = make_texture(o, parse_size(o.size));
  if (cube && (t.desc.dimension != Dimension::Texture2D || t.desc.array_size % 6 != 0))
    fail("--cube needs a 2D texture with --array a multiple of 6 (six faces per cube map), not a " + t.describe() +
         " texture");
  const Layout& layout = t.layout;
  Copier copier(o);
  copier.check(layout, "a " + t.describe() + " texture");
  // Sizes first, then the work: the DDS texels and the output's space are
  // checked before IN is read.
  uint64_t total = 0;
  check(dds_data_size(t.desc, &total), "cannot write a " + t.describe() + " texture as DDS");
  std::vector<uint8_t> header;
  check(write_dds_header(t.desc, cube, &header), "cannot write '" + out + "'");
  check_allocation(header.size() + total, "the DDS file");
  InputBytes resource = read_input(in, input_offset(o), layout.size(), o.allow_short);
  verbose_phase("read");
  check_input_size(in, resource.size, layout.size(), o.allow_short, o.offset,
                   "a " + t.describe() + " texture spans in layout " + t.layout_arg);

  // The DDS file is built in place: its header, then the texels read
  // straight into the mapped output (else a buffer written out afterwards);
  // no zero-filled copy. Packed subresources stay zero.
  AtomicOutput file(out);
  OutputSpace space(file, header.size() + total, "the DDS file");
  std::memcpy(space.data(), header.data(), header.size());
  uint8_t* texels = space.data() + header.size();
  uint64_t at = 0;
  uint32_t packed = 0;
  for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
    const SubresourceLayout& s = layout.sub(i);
    Packed p = packed_of(s);
    if (at + p.bytes > total) fail("internal: the subresources do not fit the DDS texels");
    if (s.packed) {
      ++packed;  // left zero
    } else {
      check(copier.read(texels + at, p.bytes, p.row, p.slice, layout, resource.data(), layout.size(), i),
            "cannot read " + sub_name(s, t.desc));
    }
    at += p.bytes;
  }
  note_packed(packed, "written as zeros");
  resource = InputBytes();  // give its memory back before the write
  verbose_phase("convert");
  space.finish(nullptr);
  file.commit();
  verbose_phase("write");
  return "deswizzled " + std::to_string(layout.subresource_count()) + " subresource(s) of " + in + " (" +
         describe(t.desc, cube) + ", " + t.layout_arg + ") into " + out + ": DDS, " + bytes_text(header.size() + total);
}

}  // namespace swz::cli
