#include "retile_cli.hpp"

#include <CLI/CLI.hpp>

#include <optional>

#include "big_buffer.hpp"
#include "common.hpp"
#include "number_option.hpp"
#include "file_io.hpp"
#include "input.hpp"
#include "help_examples.hpp"
#include "progress.hpp"
#include "swz/footprint.hpp"

namespace swz::cli {

CLI::App* add_retile_command(CLI::App& app, RetileArgs* a) {
  auto* rt =
      app.add_subcommand("retile",
                         "Re-tile the resource memory IN from one layout into another layout of the same texture "
                         "(CopyResources): every subresource, without a linear staging copy");
  rt->add_option("--from", a->from,
                 "Layout of IN (a built-in name, a hardware family, 'pattern:TEXT' or a JSON file; see 'swz layouts')")
      ->required();
  rt->add_option("--to", a->to, "Layout of OUT (the same forms as --from)")->required();
  CommonOptions* o = &a->texture;
  o->format_opt = rt->add_option("--format,-f", o->format, "DXGI format name (see 'swz formats')");
  o->size_opt = rt->add_option("--size,-s", o->size, "WxH for a 2D texture, WxHxD (even x1) for a 3D one; texels");
  o->mips_opt = rt->add_option("--mips,-m", o->mips, "Mip levels: N >= 1, or 0 or 'full' for the full chain (default 1)");
  o->array_opt = add_unsigned_option(rt, "--array,-a", o->array, "Array slices of a 2D texture (default 1)");
  rt->add_option("IN", a->in,
                 "The resource memory in layout --from (at least that layout's size); '-' reads standard input")
      ->required();
  rt->add_option("OUT", a->out,
                 "The resource memory in layout --to (that layout's size; bytes no subresource covers are zero)")
      ->required();
  rt->add_option("--offset", o->offset,
                 "Bytes before the resource in IN (decimal or 0x hex): it starts N bytes into IN, as for the other "
                 "texture commands");
  rt->add_flag("--in-place", a->in_place, "Allow OUT to be IN (the same path or a hard link): IN is replaced");
  set_examples(rt, "retile");
  return rt;
}

std::string run_retile(const RetileArgs& a, bool show_progress) {
  if (!a.in_place && a.out != "-" && same_file(a.in, a.out))
    fail("OUT '" + a.out + "' is the same file as IN '" + a.in + "'; pass --in-place to replace IN");
  // OUT holds only the resource: replacing IN would drop the bytes before it.
  if (a.in_place && !a.texture.offset.empty() && input_offset(a.texture) != 0 && a.out != "-" && same_file(a.in, a.out))
    fail("--in-place with --offset " + a.texture.offset + ": OUT holds only the resource, so replacing IN '" + a.in +
         "' would drop the " + a.texture.offset + " bytes before it; write OUT to another file");
  CommonOptions from = a.texture, to = a.texture;
  from.layout = a.from;
  to.layout = a.to;
  from.layout_option = "--from";
  to.layout_option = "--to";
  const SizeArg size = parse_size(a.texture.size);
  Texture src = make_texture(from, size);
  // A resource-layout file on one side fixes the texture for both.
  std::optional<TextureDesc> fixed;
  if (fixed_texture(from)) fixed = src.desc;
  Texture dst = make_texture(to, size, fixed, "the --from layout '" + a.from + "'");
  // Checked before anything is read or written: the same description, no
  // MSAA, no packed mip tails (copy_resources repeats these checks).
  {
    Status st = copy_resources(dst.layout, nullptr, dst.layout.size(), src.layout, nullptr, src.layout.size());
    if (st.code() != Code::invalid_argument || st.message().find("= null") == std::string::npos)
      check(st, "cannot retile");
  }
  check_allocation(dst.layout.size(), "the " + a.to + " resource");  // before IN is read
  Progress progress("retile", src.layout.size() + dst.layout.size() * 2, src.layout.size(), show_progress);
  // IN is a file or standard input ("-"), as for the other commands.
  InputBytes in = read_input(a.in, input_offset(a.texture), src.layout.size(), false, &progress);
  if (in.size < src.layout.size())
    fail(input_name(a.in) + " has " + bytes_text(in.size) +
         (a.texture.offset.empty() ? std::string() : " after --offset " + a.texture.offset) + ", less than the " +
         bytes_text(src.layout.size()) + " that a " + src.describe() + " texture spans in layout " + a.from);
  check_allocation(dst.layout.size(), "the " + a.to + " resource");
  AtomicOutput file(a.out);
  OutputSpace out(file, dst.layout.size(), "the " + a.to + " resource");
  check(copy_resources(dst.layout, out.data(), out.size(), src.layout, in.data(), in.size),
        "cannot retile " + a.in + " from " + a.from + " to " + a.to);
  progress.add(dst.layout.size());
  in = InputBytes();
  out.finish(&progress);
  file.commit();
  progress.finish();
  return "retiled " + a.in + " (" + src.describe() + ") from " + a.from + " to " + a.to + " into " + a.out + ": " +
         std::to_string(src.layout.subresource_count()) + " subresource(s), " + bytes_text(dst.layout.size());
}

}  // namespace swz::cli
