// Named vendor layouts: registry, spec parsing, common placement parameters
// (include/swz/vendor.hpp).
#include "swz/vendor.hpp"

#include <algorithm>
#include <bit>

#include "core/plan.hpp"
#include "core/request.hpp"
#include "swz/format.hpp"
#include "hw/hw_internal.hpp"

namespace swz {
namespace vendor {
namespace {

const char* kCommonParams =
    "offsets=A/B@X.Y/.. (level offsets in a layer, optional origin inside a mip-tail block: X bytes.Y rows.Z slices), "
    "mip_align=N, layer_stride=N, base=N";

std::string params_for(const DataFamily& f) {
  std::string s;
  if (f.placement == "amd") {
    std::string cfgs;
    std::vector<std::string> seen;
    for (const DataPattern& p : f.patterns)
      if (!p.config.empty() && std::find(seen.begin(), seen.end(), p.config) == seen.end()) {
        seen.push_back(p.config);
        if (!cfgs.empty()) cfgs += "|";
        cfgs += p.config.substr(6);
      }
    if (!cfgs.empty()) s += "pipes=" + cfgs + " (default " + f.patterns.front().config.substr(6) + "), ";
    s += "pbxor=N (pipe/bank XOR of the _X/_T modes; immediate = N << 8; GFX10+: cut to the mode's pipe and bank bits, "
         "ignored on "
         "non-XOR modes; GFX9: refused on non-XOR modes), pitch=N elements (with offsets=: level 0's, every level's on "
         "GFX9), "
         "pitches=A/B/C (with offsets=: every level's pitch in elements, as addrlib reports it), slice_size=N bytes; "
         "GFX9-GFX11 2D and 3D mip chains and tails are placed as addrlib does (GFX10+ 256-byte modes too; GFX9 "
         "256-byte modes take no mips; 3D in the modes addrlib allows for 3D); GFX12 chains need offsets=";
  } else if (f.placement == "intel") {
    bool bit6 = false, v2 = false;
    for (const DataPattern& p : f.patterns) {
      bit6 |= p.variant == "bit6";
      v2 |= p.variant == "v2";
    }
    s += "halign=N, valign=N (elements; default as isl picks them from the format, aux= and gen=: the tile for "
         "Yf/Ys/Tile64), qpitch=N (rows), "
         "pitch=N (bytes), aux=0|1 (0: the surface never has CCS, isl's DISABLE_AUX: smaller HALIGN; default 1), "
         "gen=9..12 (default 9)";
    if (f.name == "intel-tileyf" || f.name == "intel-tileys") s += " (also picks the mip-tail slot table: 9, or 10+)";
    if (bit6) s += ", bit6 (legacy bit-6 address swizzle)";
    if (v2) s += ", v2 (newer-part Tile64 tables)";
  } else if (f.placement == "adreno") {
    s += "mode=4ch|8ch (macrotile mode, default 4ch), hbb=13..16 (highest bank bit: enables the bank swizzle), "
         "bank_levels=mask (default 6), stride=N macrotiles or pitch=N bytes (level 0; later levels follow freedreno's "
         "fdl_pitch), linear (freedreno's TILE6_LINEAR layout)";
  } else if (f.placement == "tiles") {
    s += "pitch=N (elements, level 0)";
  } else if (f.placement == "mali") {
    s += "pitch=N (elements, level 0), crc (Panfrost's checksum buffer after each level)";
  } else if (f.placement == "morton" || f.placement == "vita" || f.placement == "dreamcast" || f.placement == "3ds") {
    s += "no family parameters";
  } else if (f.placement == "xbox360") {
    s += "pitch=N (elements, level 0: the fetch constant's pitch), packed=0|1 (packed mip tail, default 1), "
         "mip_offset=N (bytes from the base "
         "level to the mip chain: mip_address - base_address; default the base level's size)";
  }
  if (!s.empty()) s += "; ";
  return s + kCommonParams;
}

// The element sizes of the rows of one dimension (all rows: `dim` null).
std::string sizes_of(const DataFamily& f, const Dimension* dim) {
  std::vector<uint32_t> v;
  bool any = false;
  for (const DataPattern& p : f.patterns) {
    if (dim && p.dim != *dim) continue;
    if (p.element_bytes.empty()) any = true;
    for (uint32_t e : p.element_bytes)
      if (std::find(v.begin(), v.end(), e) == v.end()) v.push_back(e);
  }
  if (any) return "any element size";
  std::sort(v.begin(), v.end());
  std::string s;
  for (uint32_t e : v) {
    if (!s.empty()) s += "/";
    s += std::to_string(e);
  }
  return s + "-byte elements";
}

std::string sizes_for(const DataFamily& f) {
  // 2D and 3D rows with different element sizes (AMD: addrlib's 3D equations
  // cover more sizes than the 2D research rows) are listed apart.
  const Dimension d2 = Dimension::Texture2D, d3 = Dimension::Texture3D;
  const bool has2 = std::any_of(f.patterns.begin(), f.patterns.end(), [](const DataPattern& p) {
    return p.dim == Dimension::Texture2D;
  });
  const bool has3 = std::any_of(f.patterns.begin(), f.patterns.end(), [](const DataPattern& p) {
    return p.dim == Dimension::Texture3D;
  });
  if (has2 && has3 && sizes_of(f, &d2) != sizes_of(f, &d3)) {
    // Short ("1/2/4/8/16-byte elements" -> "1-16-byte"): the listing keeps
    // lines within 120 columns.
    auto brief = [](std::string t) {
      t = t.substr(0, t.find("-byte"));
      const size_t first = t.find('/'), last = t.rfind('/');
      if (first != std::string::npos) t = t.substr(0, first) + "-" + t.substr(last + 1);
      return t + "-byte";
    };
    return "2D " + brief(sizes_of(f, &d2)) + "; 3D " + brief(sizes_of(f, &d3));
  }
  return sizes_of(f, nullptr);
}

std::vector<LayoutFamily> make_families() {
  std::vector<LayoutFamily> out;
  Status st;
  const VendorData& d = data(&st);
  LayoutFamily nv;
  nv.name = "nv-block-linear";
  nv.parameters =
      std::string(
          "gob=tegra|turing|blackwell (default tegra), bh=1..32 GOBs, bd=1..32 GOBs (omitted: inferred from the "
          "surface as the public Tegra tools / NVK do); ") +
      kCommonParams;
  nv.description =
      "NVIDIA block linear: 64 B x 8-row GOBs in blocks of bh x bd GOBs, any element size (byte-granular for 12-byte "
      "elements); per-level block shrink, packed levels, aligned layers";
  nv.source = d.nv_sources;
  out.push_back(nv);
  for (const DataFamily& f : d.families) {
    LayoutFamily lf;
    lf.name = f.name;
    lf.parameters = params_for(f);
    lf.description = f.description + " [" + sizes_for(f) + "]";
    lf.source = f.source;
    out.push_back(lf);
  }
  return out;
}

void split_spec(std::string_view spec, std::string_view* head, std::string_view* params) {
  *head = spec;
  *params = {};
  if (auto colon = spec.find(':'); colon != std::string_view::npos) {
    *head = spec.substr(0, colon);
    *params = spec.substr(colon + 1);
  }
}

// The embedded family data, and `spec` split into its family name and parsed
// parameters ("nv-block-linear:bh=4,gob=tegra").
// A layout spec opened: the family data, the family name (head) and its parameters.
struct OpenSpec {
  const VendorData* data = nullptr;
  std::string_view head;
  Params params;
};

Status open_spec(std::string_view spec, OpenSpec* out) {
  Status st;
  out->data = &data(&st);
  SWZ_TRY(st);
  std::string_view ptext;
  split_spec(spec, &out->head, &ptext);
  return Params::parse(out->head, ptext, &out->params);
}

Status unknown_family(std::string_view head) {
  std::string names;
  for (const LayoutFamily& f : layout_families()) {
    if (!names.empty()) names += ", ";
    names += f.name;
  }
  return {Code::invalid_argument, "unknown layout family '" + std::string(head) + "' (known: " + names + ")"};
}

// Turns a family plan plus the common parameters into placements.
Status assemble(const FamilyPlan& plan_in, Params& p, const NamedLayoutOptions& opt, const TextureDesc& desc,
                const std::string& name, Layout* out) {
  FamilyPlan plan = plan_in;
  std::vector<LevelPlacement> offsets;
  bool has_offsets, has_align, has_stride, has_base;
  uint64_t mip_align = 0, layer_stride = 0, base = 0;
  SWZ_TRY(p.levels_list("offsets", &offsets, &has_offsets));
  SWZ_TRY(p.u64("mip_align", &mip_align, &has_align));
  SWZ_TRY(p.u64("layer_stride", &layer_stride, &has_stride));
  SWZ_TRY(p.u64("base", &base, &has_base));
  SWZ_TRY(p.check_all_used());
  const uint32_t mips = desc.mip_levels;
  if (has_offsets && !opt.levels.empty())
    return {Code::invalid_argument, "layout '" + name + "': offsets= and NamedLayoutOptions::levels both given"};
  if (has_offsets && offsets.size() != mips)
    return {Code::invalid_argument, "layout '" + name + "': offsets= has " + std::to_string(offsets.size()) +
                                        " entries for " + std::to_string(mips) + " mip levels"};
  if (!opt.levels.empty() && opt.levels.size() != mips)
    return {Code::invalid_argument, "layout '" + name + "': NamedLayoutOptions::levels has " +
                                        std::to_string(opt.levels.size()) + " entries for " + std::to_string(mips) +
                                        " mip levels"};
  if (has_align && (mip_align == 0 || has_offsets || !opt.levels.empty()))
    return {Code::invalid_argument, "layout '" + name + "': mip_align = " + std::to_string(mip_align) +
                                        " (at least 1, and not together with explicit offsets)"};
  bool overridden = false;
  // The family computes level 0 only when levels are given from outside.
  if (plan.levels.size() < mips && !(has_offsets || !opt.levels.empty()))
    return {Code::internal, "layout '" + name + "': the family placed " + std::to_string(plan.levels.size()) + " of " +
                                std::to_string(mips) + " levels"};
  while (plan.levels.size() < mips) plan.levels.push_back(plan.levels.back());
  if (has_offsets || !opt.levels.empty()) {
    // Each level sits at the given offset, at the given origin (0 for offsets=).
    for (uint32_t m = 0; m < mips; ++m) {
      LevelPlan& lp = plan.levels[m];
      const LevelPlacement& given = has_offsets ? offsets[m] : opt.levels[m];
      lp.offset = given.offset;
      for (int i = 0; i < 3; ++i) lp.origin[i] = given.origin[i];
    }
    overridden = true;
  } else if (has_align) {
    if (!plan.levels_are_separate)
      return {Code::invalid_argument,
              "layout '" + name + "': mip_align does not apply: this family keeps every level inside one surface"};
    uint64_t off = 0;
    for (uint32_t m = 0; m < mips; ++m) {
      plan.levels[m].offset = align_up(off, mip_align);
      off = plan.levels[m].offset + plan.levels[m].size;
    }
    overridden = true;
  }
  if (overridden && plan.arrays == Arrays::Stacked && !has_stride) {
    uint64_t end = 0;
    for (const LevelPlan& lp : plan.levels) end = std::max(end, lp.offset + lp.size);
    plan.layer_stride_B = desc.array_size > 1 ? align_up(end, plan.layer_align) : end;
    plan.total_size = plan.layer_stride_B * desc.array_size;
  }
  if (has_stride) {
    if (plan.arrays == Arrays::YRows)
      return {Code::invalid_argument,
              "layout '" + name + "': layer_stride does not apply (array slices are qpitch= rows apart)"};
    if (plan.arrays == Arrays::PerLevel)
      return {Code::invalid_argument,
              "layout '" + name + "': layer_stride does not apply (each mip level has its own array-slice stride)"};
    plan.layer_stride_B = layer_stride;
    plan.total_size = layer_stride * desc.array_size;
  }
  std::vector<SubresourcePlacement> placements(static_cast<size_t>(mips) * desc.array_size);
  for (uint32_t s = 0; s < desc.array_size; ++s)
    for (uint32_t m = 0; m < mips; ++m) {
      const LevelPlan& lp = plan.levels[m];
      SubresourcePlacement& pl = placements[calc_subresource(m, s, 0, mips, desc.array_size)];
      pl.pattern_slot = lp.slot;
      pl.row_pitch = lp.row_pitch;
      pl.depth_pitch_B = lp.depth_pitch_B;
      for (int i = 0; i < 3; ++i) pl.pre_swizzle[i] = lp.origin[i];
      pl.offset = base + lp.offset;
      switch (plan.arrays) {
        case Arrays::Stacked:
          pl.offset += s * plan.layer_stride_B;
          break;
        case Arrays::ZSlice:
          pl.pre_swizzle[2] += s;
          pl.depth_pitch_B = plan.layer_stride_B;
          break;
        case Arrays::YRows:
          pl.pre_swizzle[1] += s * plan.layer_rows;
          break;
        case Arrays::PerLevel:
          pl.offset += s * lp.layer_stride_B;
          break;
      }
    }
  Layout L;
  Status st = make_explicit_layout(desc, plan.patterns, placements, name, 0, &L);
  if (!st.ok()) return {st.code(), "layout '" + name + "': " + st.message()};
  const uint64_t want = plan.total_size ? base + plan.total_size : 0;
  if (want > L.size()) {
    st = make_explicit_layout(desc, plan.patterns, placements, name, want, &L);
    if (!st.ok()) return {st.code(), "layout '" + name + "': " + st.message()};
  }
  *out = std::move(L);
  return Status::Ok();
}

}  // namespace
}  // namespace vendor

const std::vector<LayoutFamily>& layout_families() {
  static const std::vector<LayoutFamily> fams = vendor::make_families();
  return fams;
}

bool is_named_layout(std::string_view spec) {
  std::string_view head, params;
  vendor::split_spec(spec, &head, &params);
  for (const LayoutFamily& f : layout_families())
    if (f.name == head) return true;
  return false;
}

Status make_named_layout(std::string_view spec, const TextureDesc& desc, Layout* out) {
  return make_named_layout(spec, desc, NamedLayoutOptions{}, out);
}

Status make_named_layout(std::string_view spec, const TextureDesc& desc_in, const NamedLayoutOptions& options,
                         Layout* out) {
  const TextureDesc desc = detail::with_mip_chain(desc_in);
  using namespace vendor;
  OpenSpec os;
  SWZ_TRY(open_spec(spec, &os));
  const VendorData& d = *os.data;
  const std::string_view head = os.head;
  Params& params = os.params;
  Status st;
  if (desc.format.element_bytes == 0) return {Code::invalid_argument, "format: not set (element size 0)"};
  if (desc.format.planes > 1)
    return {Code::unsupported, std::string("format ") + desc.format.name + " has " +
                                   std::to_string(desc.format.planes) + " planes; planar formats are not supported"};
  {
    // The builders compute padded sizes in 64 bits: refuse surfaces whose
    // padded size could come near 2^62 (generous bound on every family's
    // padding: tiles up to 1 MiB wide and 64 Ki rows, power-of-two rounding).
    __extension__ typedef unsigned __int128 u128;
    const uint64_t depth = desc.dimension == Dimension::Texture3D ? desc.depth : 1;
    u128 est = u128{4} * (u128{desc.width} * desc.format.element_bytes + (u128{1} << 20)) * 4 *
               (u128{desc.height} + (1u << 16)) * (u128{depth} + 64) * (u128{desc.array_size} + 1) * 2;
    if (est >> 62)
      return {Code::overflow,
              "layout '" + std::string(head) + "': the texture is too large: width = " + std::to_string(desc.width) +
                  ", height = " + std::to_string(desc.height) + ", depth = " + std::to_string(depth) +
                  ", array_size = " + std::to_string(desc.array_size) + " of " +
                  std::to_string(desc.format.element_bytes) +
                  "-byte elements exceed swz's bound for hardware layouts (padded by up to 1 MiB-wide tiles, 64 Ki "
                  "rows and 64 slices per dimension, the product must stay below 2^62 bytes)"};
  }
  {
    // The builders index per-level tables and shift sizes by the level: check
    // the sizes and the mip count before them (make_explicit_layout checks the
    // whole description again): mip_levels = 0 would read an empty vector,
    // mip_levels past the chain would shift by 32 or more.
    const std::pair<uint32_t, const char*> fields[] = {{desc.width, "width"},           {desc.height, "height"},
                                                       {desc.depth, "depth"},           {desc.array_size, "array_size"},
                                                       {desc.mip_levels, "mip_levels"}, {desc.samples, "samples"}};
    for (const auto& [v, name] : fields)
      if (v == 0) return {Code::invalid_argument, "layout '" + std::string(head) + "': " + name + " = 0"};
    const uint32_t full =
        full_mip_count(desc.width, desc.height, desc.dimension == Dimension::Texture3D ? desc.depth : 1);
    if (desc.mip_levels > full)
      return {Code::invalid_argument, "layout '" + std::string(head) +
                                          "': mip_levels = " + std::to_string(desc.mip_levels) +
                                          " exceeds the full chain of " + std::to_string(full)};
  }
  BuildContext ctx{d, params, desc};
  FamilyPlan plan;
  const uint32_t eb = desc.format.element_bytes;
  const bool pot = is_pow2(eb) && eb <= 16;
  if (head == "nv-block-linear") {
    SWZ_TRY(build_nvidia(ctx, &plan));
  } else {
    const DataFamily* f = find_family(d, head);
    if (!f) return unknown_family(head);
    if (!pot)
      return {Code::unsupported,
              "layout '" + f->name + "': format " + desc.format.name + " has " + std::to_string(eb) +
                  "-byte elements; this family's bit equations address power-of-two elements (1-16 bytes)"};
    // The builder of each placement named in patterns/vendor/*.json.
    static const struct {
      const char* placement;
      Status (*build)(BuildContext&, const DataFamily&, FamilyPlan*);
    } kBuilders[] = {{"amd", build_amd},       {"intel", build_intel}, {"tiles", build_tiles},
                     {"adreno", build_adreno}, {"apple", build_apple}, {"xbox360", build_xbox360},
                     {"mali", build_mali},     {"morton", build_morton}, {"vita", build_vita},
                     {"dreamcast", build_dreamcast}, {"3ds", build_3ds}};
    st = {Code::internal, "layout '" + f->name + "': unknown placement '" + f->placement + "'"};
    for (const auto& b : kBuilders)
      if (f->placement == b.placement) st = b.build(ctx, *f, &plan);
    if (!st.ok()) {
      // Offsets given from outside replace the level placement an AMD or
      // Intel family lacks.
      bool outside = !options.levels.empty() || params.has("offsets");
      const bool amd_or_intel = f->placement == "amd" || f->placement == "intel";
      if (!(outside && amd_or_intel && st.code() == Code::unsupported &&
            st.message().find("mip_levels") != std::string::npos))
        return st;
      TextureDesc one = desc;
      one.mip_levels = 1;
      BuildContext c1{d, params, one};
      if (f->placement == "amd")
        st = build_amd(c1, *f, &plan);
      else
        st = build_intel(c1, *f, &plan);
      SWZ_TRY(st);
      // Each level then uses level 0's pattern with its own tight pitch;
      // level 0 keeps a given pitch=, and on AMD GFX9, where addrlib gives
      // the whole mip chain level 0's pitch, every level does.
      const Pattern pat0 = plan.patterns[static_cast<size_t>(plan.levels[0].slot)];
      const uint64_t row0 = plan.levels[0].row_pitch;
      const bool shared_pitch = params.has("pitch") && f->name.rfind("amd-gfx9-", 0) == 0;
      // pitches=A/B/C: every level's pitch in elements, as the driver reports
      // it (addrlib's per-level pitch, which may be padded past the tight one).
      std::vector<LevelPlacement> pitches;
      bool has_pitches;
      SWZ_TRY(params.levels_list("pitches", &pitches, &has_pitches));
      if (has_pitches && params.has("pitch"))
        return {Code::invalid_argument,
                "layout '" + f->name + "': give pitch= (level 0) or pitches= (every level), not both"};
      if (has_pitches && pitches.size() != desc.mip_levels)
        return {Code::invalid_argument, "layout '" + f->name + "': pitches= has " + std::to_string(pitches.size()) +
                                            " entries for " + std::to_string(desc.mip_levels) + " mip levels"};
      for (const LevelPlacement& lp : pitches)
        if (lp.origin[0] || lp.origin[1] || lp.origin[2] || (lp.offset >> 40))
          return {
              Code::invalid_argument,
              "layout '" + f->name + "': pitches= takes one number of elements per level (at most 2^40), no origins"};
      std::vector<LevelPlan> lv;
      for (uint32_t m = 0; m < desc.mip_levels; ++m) {
        LevelPlan lp = plan.levels[0];
        SWZ_TRY(tiled_level(pat0, desc, m, has_pitches ? pitches[m].offset : 0, f->name, &lp));
        if ((m == 0 && params.has("pitch")) || shared_pitch) {
          lp.depth_pitch_B = lp.depth_pitch_B / lp.row_pitch * row0;
          lp.size = lp.size / lp.row_pitch * row0;
          lp.row_pitch = row0;
        }
        if (plan.arrays == Arrays::ZSlice) lp.depth_pitch_B = plan.layer_stride_B;
        lv.push_back(lp);
      }
      plan.levels_are_separate = true;
      plan.levels = lv;
    }
  }
  return assemble(plan, params, options, desc, std::string(spec), out);
}

Status amd_surface_info(std::string_view spec, const TextureDesc& desc_in, AmdSurfaceInfo* out) {
  const TextureDesc desc = detail::with_mip_chain(desc_in);
  using namespace vendor;
  // The layout itself first: every check make_named_layout makes (sizes, mip
  // count, parameters) applies.
  Layout whole;
  SWZ_TRY(make_named_layout(spec, desc, &whole));
  OpenSpec os;
  SWZ_TRY(open_spec(spec, &os));
  const DataFamily* f = find_family(*os.data, os.head);
  const std::string head(os.head);
  const bool amd_gfx9_11 = f && f->placement == "amd" && head.rfind("amd-gfx12-", 0) != 0;
  if (!amd_gfx9_11)
    return {Code::unsupported, "layout '" + head +
                                   "': addrlib's surface info is modelled for the amd-gfx9-* .. amd-gfx11-* families"};
  if (os.params.has("offsets") || os.params.has("pitches"))
    return {Code::unsupported,
            "layout '" + head + "': offsets= / pitches= place the levels from outside; addrlib's surface info "
            "describes its own chain"};
  BuildContext ctx{*os.data, os.params, desc};
  FamilyPlan plan;
  SWZ_TRY(build_amd(ctx, *f, &plan));
  if (!plan.has_amd_info) return {Code::internal, "layout '" + head + "': no surface info computed"};
  *out = plan.amd_info;
  return Status::Ok();
}

Status describe_layout(std::string_view spec, uint32_t element_bytes, std::string* bit_equation) {
  using namespace vendor;
  OpenSpec os;
  SWZ_TRY(open_spec(spec, &os));
  Params& params = os.params;
  std::string s;
  if (os.head == "nv-block-linear") {
    SWZ_TRY(describe_nvidia(*os.data, params, element_bytes, &s));
  } else {
    const DataFamily* f = find_family(*os.data, os.head);
    if (!f) return unknown_family(os.head);
    SWZ_TRY(describe_data(*os.data, *f, params, element_bytes, &s));
    s = f->name + ": " + f->description + "\n" + s + "source: " + f->source + "\n";
  }
  // Parameters get the check a texture's layout gets (make_named_layout: the
  // family's own and the common ones, else "unknown parameter" listing what
  // this family takes), on a probe texture of element_bytes elements when the
  // family lays one out.
  if (std::has_single_bit(element_bytes)) {
    static constexpr const char* kProbeFormats[] = {"R8_UINT", "R16_UINT", "R32_UINT", "R32G32_UINT",
                                                    "R32G32B32A32_UINT"};
    TextureDesc probe;
    probe.width = 256;
    probe.height = 256;
    if (find_format(kProbeFormats[std::countr_zero(element_bytes)], &probe.format).ok()) {
      Layout L;
      Status st = make_named_layout(spec, probe, &L);
      if (!st.ok() && st.message().find("unknown parameter") != std::string::npos) return st;
    }
  }
  // Parameters that only place levels, slices or pitches are accepted (they do
  // not change the equation).
  std::vector<LevelPlacement> ignore_list;
  uint64_t ignore;
  bool present;
  SWZ_TRY(params.levels_list("offsets", &ignore_list, &present));
  SWZ_TRY(params.u64("mip_align", &ignore, &present));
  SWZ_TRY(params.u64("layer_stride", &ignore, &present));
  SWZ_TRY(params.u64("base", &ignore, &present));
  for (const char* k : {"pitch", "slice_size", "halign", "valign", "qpitch", "hbb", "bank_levels", "stride", "bh", "bd",
                        "aux", "gen", "packed", "mip_offset", "linear", "crc", "pitches"})
    (void)params.str(k);
  SWZ_TRY(params.check_all_used());
  *bit_equation = s;
  return Status::Ok();
}

}  // namespace swz
