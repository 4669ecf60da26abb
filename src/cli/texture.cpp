#include "texture.hpp"

#ifdef SWZ_HAVE_GPU
#include "swz/gpu.hpp"
#endif

#include <CLI/CLI.hpp>
#include <charconv>

#include "common.hpp"
#include "number_option.hpp"
#include "output.hpp"
#include "swz/pattern.hpp"
#include "swz/layout_names.hpp"

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

std::string plural(uint64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

}  // namespace

void add_common_options(CLI::App* app, CommonOptions* o, const CommonOptionUse& use) {
  auto* layout = app->add_option(
      "--layout,-l", o->layout,
      "Layout: a built-in name (row-major, std64k, std4k, a hardware family such as nv-block-linear:gob=tegra"
      "; see 'swz layouts'), 'pattern:TEXT', or the path of a JSON file (one pattern, "
      "or a resource layout as a driver reports it)");
  auto* pattern =
      app->add_option("--pattern,-p", o->pattern, "A pattern in text form: the same as --layout 'pattern:TEXT'");
  layout->excludes(pattern);
  pattern->excludes(layout);
  o->format_opt = app->add_option("--format,-f", o->format, std::string("DXGI format name (see 'swz formats'); ") +
                                                                use.format_help);
  o->size_opt = app->add_option("--size,-s", o->size, "WxH for a 2D texture, WxHxD (even x1) for a 3D one; texels");
  // texconv's habit: --mips 0 is the full chain.
  o->mips_opt =
      app->add_option("--mips,-m", o->mips, "Mip levels: N >= 1, or 0 or 'full' for the full chain (default 1)")
          ->transform(CLI::Validator(
              [](std::string& v) {
                if (v == "0") v = "full";
                return std::string();
              },
              "N|0|full"));
  o->array_opt = add_unsigned_option(app, "--array,-a", o->array, "Array slices of a 2D texture (default 1)");
  o->samples_opt = add_unsigned_option(app, "--samples", o->samples, "Samples per texel (default 1)");
  o->mip_tail_opt = app->add_option("--mip-tail", o->mip_tail,
                                    "Packed mips: none (default; every mip in its own tiles) or d3d12 (the adapter's "
                                    "packed mip tail; needs --packed-mips)");
  app->add_option("--packed-mips", o->packed_mips,
                  "For --mip-tail d3d12: NumStandardMips,NumPackedMips,NumTilesForPackedMips as "
                  "D3D12_PACKED_MIP_INFO reports them (e.g. 6,4,1)");
  // CLI11 reads "-1" or 2^64 into a uint64_t as 2^64 - 1: check the text.
  static const CLI::Validator kByteCount = unsigned_range(UINT64_MAX);
  o->row_pitch_opt = app->add_option("--row-pitch", o->row_pitch,
                                     "Bytes between rows of blocks (row-major: rows of elements); 0 = the default "
                                     "(docs/ARCHITECTURE.md rule 12)")
                         ->check(kByteCount);
  o->depth_pitch_opt =
      app->add_option("--depth-pitch", o->depth_pitch,
                      "One number: --stack-rows for a stacked-depth pattern, --depth-pitch-B otherwise")
          ->check(kByteCount);
  o->depth_pitch_B_opt = app->add_option("--depth-pitch-B", o->depth_pitch_B,
                                         "Bytes between slices of blocks; 0 = the default (not for stacked-depth "
                                         "patterns)")
                             ->check(kByteCount);
  o->stack_rows_opt = app->add_option("--stack-rows", o->stack_rows,
                                      "Stacked-depth patterns: rows between depth slices; 0 = the default")
                          ->check(kByteCount);
  if (use.copies) {
    app->add_option("--backend", o->backend, "Copy kernel: auto (default), scalar, highway, xsimd")
        ->check(CLI::IsMember({"auto", "scalar", "highway", "xsimd"}));
    add_unsigned_option(app, "--threads", o->threads, "Threads for large copies (0 = automatic)");
    app->add_option("--device", o->device,
                    "Where copies run: cpu (default), gpu (Vulkan compute shader on a hardware GPU; a software "
                    "rasterizer such as llvmpipe is refused) or gpu:any (any Vulkan device, software ones too)")
        ->check(CLI::IsMember({"cpu", "gpu", "gpu:any"}));
  }
  if (use.offset_help) app->add_option("--offset", o->offset, use.offset_help);
}

void bind_common_options(CLI::App* parsed, CommonOptions* o) {
  auto opt = [parsed](const char* name) { return parsed->get_option_no_throw(name); };
  o->format_opt = opt("--format");
  o->size_opt = opt("--size");
  o->mips_opt = opt("--mips");
  o->array_opt = opt("--array");
  o->samples_opt = opt("--samples");
  o->mip_tail_opt = opt("--mip-tail");
  o->row_pitch_opt = opt("--row-pitch");
  o->depth_pitch_opt = opt("--depth-pitch");
  o->depth_pitch_B_opt = opt("--depth-pitch-B");
  o->stack_rows_opt = opt("--stack-rows");
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
  if (desc.dimension == Dimension::Texture2D && desc.array_size != 1)
    s += ", " + plural(desc.array_size, "array slice");
  if (desc.samples != 1) s += ", " + plural(desc.samples, "sample");
  return s;
}

namespace {

bool given(const CLI::Option* opt) { return opt != nullptr && opt->count() > 0; }

std::string dims_text(const TextureDesc& d) {
  std::string s = std::to_string(d.width) + "x" + std::to_string(d.height);
  if (d.dimension == Dimension::Texture3D) s += "x" + std::to_string(d.depth);
  return s;
}

PackedMipInfo parse_packed_mips(const std::string& text) {
  PackedMipInfo p;
  std::vector<uint64_t> v;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ',') {
      std::string part = text.substr(start, i - start);
      try {
        v.push_back(parse_u64(part, "--packed-mips"));
      } catch (const Error&) {
        v.clear();
        break;
      }
      start = i + 1;
    }
  }
  if (v.size() != 3 || v[0] > UINT32_MAX || v[1] > UINT32_MAX || v[2] > UINT32_MAX)
    fail("--packed-mips '" + text + "' is not NumStandardMips,NumPackedMips,NumTilesForPackedMips (e.g. 6,4,1)");
  p.num_standard_mips = static_cast<uint32_t>(v[0]);
  p.num_packed_mips = static_cast<uint32_t>(v[1]);
  p.num_tiles_for_packed_mips = static_cast<uint32_t>(v[2]);
  return p;
}

/// A file fixed the texture (a resource-layout JSON, a DDS input): the
/// options may only repeat it. `placement`: the file also fixes pitches and
/// the mip tail (resource layouts).
void check_against_fixed(const CommonOptions& o, const TextureDesc& d, const std::string& what, bool placement) {
  auto clash = [&](const std::string& opt, const std::string& value, const std::string& theirs) {
    fail(opt + " " + value + " disagrees with " + what + ", which says " + theirs);
  };
  if (given(o.size_opt)) {
    SizeArg s = parse_size(o.size);
    bool same =
        s.width == d.width && s.height == d.height &&
        (s.three_d ? d.dimension == Dimension::Texture3D && s.depth == d.depth : d.dimension == Dimension::Texture2D);
    if (!same) clash("--size", o.size, dims_text(d));
  }
  if (!o.format.empty()) {
    FormatInfo f = lookup_format(o.format);
    if (f.dxgi != d.format.dxgi) clash("--format", o.format, d.format.name);
  }
  if (given(o.mips_opt)) {
    uint32_t full = full_mip_count(d.width, d.height, d.depth);
    uint64_t m = o.mips == "full" ? full : 0;
    if (o.mips != "full") {
      try {
        m = parse_u64(o.mips, "--mips");
        if (m == 0) m = full;  // --mips 0: the full chain
      } catch (const Error&) {
        m = UINT64_MAX;
      }
    }
    if (m != d.mip_levels) clash("--mips", o.mips, std::to_string(d.mip_levels));
  }
  if (given(o.array_opt) && o.array != d.array_size)
    clash("--array", std::to_string(o.array), std::to_string(d.array_size));
  if (given(o.samples_opt) && o.samples != d.samples)
    clash("--samples", std::to_string(o.samples), std::to_string(d.samples));
  if (placement && (given(o.row_pitch_opt) || given(o.depth_pitch_opt) || given(o.depth_pitch_B_opt) ||
                    given(o.stack_rows_opt) || given(o.mip_tail_opt) || !o.packed_mips.empty()))
    fail("--row-pitch, --depth-pitch(-B), --stack-rows, --mip-tail and --packed-mips do not apply to " + what +
         ": it gives every subresource's placement itself");
}

bool same_texture(const TextureDesc& a, const TextureDesc& b) {
  return a.dimension == b.dimension && a.width == b.width && a.height == b.height && a.depth == b.depth &&
         a.array_size == b.array_size && a.mip_levels == b.mip_levels && a.samples == b.samples &&
         a.format.dxgi == b.format.dxgi;
}

std::string texture_text(const TextureDesc& d) {
  Texture t;
  t.desc = d;
  t.format = d.format;
  return t.describe();
}

}  // namespace

namespace {
std::string layout_arg_of(const CommonOptions& o) {
  if (!o.pattern.empty()) return "pattern:" + o.pattern;
  if (o.layout.empty())
    fail("--layout is required (a built-in name, 'pattern:TEXT' or a JSON file; see 'swz layouts')");
  return o.layout;
}
}  // namespace

LayoutName parse_layout_name(const CommonOptions& o) {
  LayoutName name;
  check(LayoutName::parse(layout_arg_of(o), &name), o.layout_option);
  return name;
}

std::optional<TextureDesc> fixed_texture(const CommonOptions& o) {
  LayoutName name = parse_layout_name(o);
  if (const TextureDesc* d = name.fixed_texture()) return *d;
  return std::nullopt;
}

std::string sub_name(const SubresourceLayout& s, const TextureDesc& d) {
  std::string out = "subresource " + std::to_string(s.index) + " (mip " + std::to_string(s.mip);
  if (d.dimension == Dimension::Texture2D) out += ", slice " + std::to_string(s.array_slice);
  if (d.format.planes > 1) out += ", plane " + std::to_string(s.plane);
  out += ")";
  return out;
}

Texture make_texture(const CommonOptions& o, const SizeArg& size, const std::optional<TextureDesc>& file_desc,
                     const std::string& file_what) {
  Texture t;
  t.layout_arg = layout_arg_of(o);
  const LayoutName name = parse_layout_name(o);

  if (const TextureDesc* fixed = name.fixed_texture()) {
    const std::string what = "the resource layout '" + t.layout_arg + "'";
    check_against_fixed(o, *fixed, what, true);
    if (file_desc && !same_texture(*file_desc, *fixed))
      fail(file_what + " holds a " + texture_text(*file_desc) + " texture but " + what + " describes a " +
           texture_text(*fixed) + " one");
    t.desc = *fixed;
    t.format = t.desc.format;
    check(name.make(t.desc, LayoutOptions{}, &t.layout), "cannot lay out " + what);
    return t;
  }

  if (file_desc) {
    check_against_fixed(o, *file_desc, file_what, false);
    t.desc = *file_desc;
    t.format = t.desc.format;
  } else {
    t.desc = desc_from_options(o, size);
    t.format = t.desc.format;
  }
  t.options = options_from(o, name);
  check(name.make(t.desc, t.options, &t.layout), "cannot lay out a " + t.describe() + " texture as " + t.layout_arg);
  return t;
}

TextureDesc desc_from_options(const CommonOptions& o, const SizeArg& size) {
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
      fail("--mips '" + o.mips + "' is not a number (0 = the full chain) or 'full'");
    }
    if (m == 0) m = full;  // --mips 0: the full chain
    if (m > full)
      fail("--mips " + o.mips + ": a " + dims_text(t.desc) + " texture has at most " + std::to_string(full) +
           " mip levels");
    t.desc.mip_levels = static_cast<uint32_t>(m);
  }

  return t.desc;
}

LayoutOptions options_from(const CommonOptions& o, const LayoutName& name) {
  LayoutOptions opt;
  if (o.mip_tail == "d3d12") {
    if (o.packed_mips.empty())
      fail(
          "--mip-tail d3d12 needs --packed-mips NumStandardMips,NumPackedMips,NumTilesForPackedMips (what "
          "D3D12_PACKED_MIP_INFO reports for this resource on the target adapter)");
    opt.mip_tail = MipTail::D3D12;
    opt.packed = parse_packed_mips(o.packed_mips);
  } else if (o.mip_tail == "none") {
    if (!o.packed_mips.empty()) fail("--packed-mips applies only with --mip-tail d3d12");
  } else {
    fail("--mip-tail '" + o.mip_tail + "': expected none or d3d12");
  }
  opt.row_pitch_B = o.row_pitch;
  opt.depth_pitch_B = o.depth_pitch_B;
  opt.stack_rows = o.stack_rows;
  if (o.depth_pitch) {
    if (o.depth_pitch_B || o.stack_rows)
      fail("--depth-pitch " + std::to_string(o.depth_pitch) +
           " with --depth-pitch-B or --stack-rows: give the explicit forms, or the one number, not both");
    // The one-number --depth-pitch counts rows for a stacked-depth pattern (its depth slices are rows).
    const Pattern* p = name.pattern();
    (p && p->stack_depth_slices() ? opt.stack_rows : opt.depth_pitch_B) = o.depth_pitch;
  }
  return opt;
}

uint64_t input_offset(const CommonOptions& o) { return o.offset.empty() ? 0 : parse_u64(o.offset, "--offset"); }

uint64_t resource_base(const CommonOptions& o, uint64_t resource_size_B) {
  const uint64_t base = input_offset(o);
  if (base > UINT64_MAX - resource_size_B)
    fail("--offset " + o.offset + ": the resource (" + std::to_string(resource_size_B) +
         " bytes) would end past 2^64 - 1; file offsets are 64-bit");
  return base;
}

CopyOptions copy_options(const CommonOptions& o) {
  CopyOptions c;
  if (!parse_backend(o.backend, &c.backend)) c.backend = Backend::Auto;
  c.threads = o.threads;
  return c;
}

void verbose_geometry(const Layout& l, const std::string& what) {
  if (!verbose_on()) return;
  verbose("layout " + l.name() + " for " + what + ": " + bytes_text(l.size()) + ", alignment " +
          std::to_string(l.alignment()) + ", " + std::to_string(l.subresource_count()) + " subresource(s)");
  for (size_t k = 0; k < l.patterns().size(); ++k) {
    const Pattern& p = l.patterns()[k];
    std::string text = to_text(p);
    if (text.empty()) continue;
    verbose("  pattern " + std::to_string(k) + ": " + text + " (" +
            block_extent_text(p, l.desc().format.planes > 1 ? 0 : l.desc().format.element_bytes) + ")");
  }
  const uint32_t n = l.subresource_count();
  for (uint32_t i = 0; i < n && i < 16; ++i) {
    const SubresourceLayout& s = l.sub(i);
    verbose("  subresource " + std::to_string(i) + ": mip " + std::to_string(s.mip) + " slice " +
            std::to_string(s.array_slice) + ", " + std::to_string(s.width) + "x" + std::to_string(s.height) + "x" +
            std::to_string(s.depth) + " at " + std::to_string(s.offset) + ", " + std::to_string(s.size) +
            " bytes, row pitch " + std::to_string(s.row_pitch) +
            (s.stack_rows ? ", stacked every " + std::to_string(s.stack_rows) + " rows"
                          : ", depth pitch " + std::to_string(s.depth_pitch_B)) +
            ", pattern " + std::to_string(s.pattern_slot) + (s.packed ? " (packed mip tail)" : ""));
  }
  if (n > 16) verbose("  ... " + std::to_string(n - 16) + " more (swz info lists them all)");
}

Packed packed_of(const SubresourceLayout& s) {
  Packed p;
  p.row = uint64_t(s.width_el) * s.element_bytes;
  p.slice = p.row * s.height_el;
  p.bytes = packed_subresource_bytes(s);
  return p;
}

struct Copier::Gpu {
#ifdef SWZ_HAVE_GPU
  gpu::Context ctx;
#endif
};

Copier::Copier(const CommonOptions& o) : cpu_(copy_options(o)), backend_(o.backend), threads_(o.threads) {
  if (o.device != "gpu" && o.device != "gpu:any") return;
#ifdef SWZ_HAVE_GPU
  gpu_ = std::make_unique<Gpu>();
  Status st = gpu::Context::create(&gpu_->ctx);
  if (!st.ok()) fail("--device " + o.device + ": " + st.message());
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(gpu_->ctx.physical_device(), &props);
  if (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && o.device != "gpu:any")
    fail("--device gpu: the Vulkan device found is a software rasterizer (" + std::string(props.deviceName) +
         "), slower than --device cpu; pass --device gpu:any to use it anyway");
  const char* kind = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU     ? "discrete GPU"
                     : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? "integrated GPU"
                     : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU    ? "virtual GPU"
                     : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU            ? "software rasterizer"
                                                                                  : "other";
  verbose("--device " + o.device + ": Vulkan device '" + std::string(props.deviceName) + "' (" + kind + ", Vulkan " +
          std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." +
          std::to_string(VK_API_VERSION_MINOR(props.apiVersion)) + ")");
#else
  fail(
      "--device gpu: this swz was built without the Vulkan compute path (SWZ_GPU=OFF or no Vulkan/glslc at build "
      "time)");
#endif
}

Copier::~Copier() = default;

void Copier::check(const Layout& layout, const std::string& what) {
  verbose_geometry(layout, what);
  if (!gpu_)
    verbose("copies on the CPU (--backend " + backend_ + ", --threads " +
            (threads_ ? std::to_string(threads_) : std::string("auto")) + ")");
#ifdef SWZ_HAVE_GPU
  if (!gpu_) return;
  for (uint32_t i = 0; i < layout.subresource_count(); ++i) {
    const SubresourceLayout& s = layout.sub(i);
    if (s.packed) continue;
    const Packed p = packed_of(s);
    Status st = gpu_->ctx.check_subresource(layout, i, nullptr, p.row, p.slice);
    if (!st.ok())
      fail("--device gpu cannot convert " + what + ": subresource " + std::to_string(i) + ": " + st.message());
  }
#else
  (void)layout;
  (void)what;
#endif
}

// The CPU kernels with the copy options, called as gpu::Context is.
struct CpuCopies {
  const CopyOptions& options;
  template <class... A>
  Status write_to_subresource(A&&... a) const {
    return swz::write_to_subresource(std::forward<A>(a)..., options);
  }
  template <class... A>
  Status read_from_subresource(A&&... a) const {
    return swz::read_from_subresource(std::forward<A>(a)..., options);
  }
};

// Where a copy runs: the GPU context with --device gpu, else the CPU kernels.
template <class F>
Status Copier::route(F&& copy) {
#ifdef SWZ_HAVE_GPU
  if (gpu_) return copy(gpu_->ctx);
#endif
  return copy(CpuCopies{cpu_});
}

Status Copier::write(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource,
                     const void* src, uint64_t src_size, uint64_t row_pitch, uint64_t depth_pitch) {
  return route([&](auto&& on) {
    return on.write_to_subresource(layout, resource, resource_size, subresource, nullptr, src, src_size, row_pitch,
                                   depth_pitch);
  });
}

Status Copier::read(void* dst, uint64_t dst_size, uint64_t row_pitch, uint64_t depth_pitch, const Layout& layout,
                    const void* resource, uint64_t resource_size, uint32_t subresource) {
  return route([&](auto&& on) {
    return on.read_from_subresource(dst, dst_size, row_pitch, depth_pitch, layout, resource, resource_size, subresource,
                                    nullptr);
  });
}

}  // namespace swz::cli
