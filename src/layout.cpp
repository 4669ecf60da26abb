// Texture layouts: subresource placement, pitches, built-in patterns
// (DESIGN.md §2 rules 9 and 12, "Standard swizzle").
#include <bit>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "swz/layout.hpp"
#include "swz/plan.hpp"

namespace swz {
namespace detail {
const char* embedded_file(const char* name);
}

namespace {

bool mul_ok(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_mul_overflow(a, b, out); }
bool add_ok(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_add_overflow(a, b, out); }
uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }
bool align_up(uint64_t v, uint64_t a, uint64_t* out) {
  uint64_t t;
  if (!add_ok(v, a - 1, &t)) return false;
  *out = t / a * a;
  return true;
}
Status overflow(const std::string& what) { return {Code::overflow, what + " does not fit in 64 bits"}; }

struct BuiltinEntry {
  Dimension dim;
  uint32_t element_bytes;
  Pattern pattern;
};

// Parses patterns/std64k.json or std4k.json (embedded at build time).
Status load_family(const char* file, std::vector<BuiltinEntry>* out) {
  const char* text = detail::embedded_file(file);
  if (!text) return {Code::internal, std::string("built-in pattern file ") + file + " is not embedded"};
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.contains("patterns")) return {Code::internal, std::string("built-in pattern file ") + file + " is malformed"};
  for (const auto& e : j["patterns"]) {
    if (e.contains("confirmed") && !e["confirmed"].get<bool>()) continue;  // DESIGN.md: unconfirmed shapes not built in
    BuiltinEntry b;
    b.dim = e["dim"].get<std::string>() == "3D" ? Dimension::Texture3D : Dimension::Texture2D;
    b.element_bytes = e["element_bytes"].get<uint32_t>();
    SWZ_TRY(parse_pattern_json(e.dump(), &b.pattern));
    out->push_back(b);
  }
  return Status::Ok();
}

}  // namespace

Status standard_swizzle_pattern(LayoutKind kind, Dimension dim, uint32_t element_bytes, Pattern* out) {
  static std::once_flag once;
  static std::vector<BuiltinEntry> k64, k4;
  static Status load_status;
  std::call_once(once, [] {
    load_status = load_family("std64k.json", &k64);
    if (load_status.ok()) load_status = load_family("std4k.json", &k4);
  });
  SWZ_TRY(load_status);
  const std::vector<BuiltinEntry>* fam = nullptr;
  if (kind == LayoutKind::Std64K) fam = &k64;
  else if (kind == LayoutKind::Std4K) fam = &k4;
  else return {Code::invalid_argument, "standard_swizzle_pattern: layout kind is not std64k or std4k"};
  for (const auto& e : *fam)
    if (e.dim == dim && e.element_bytes == element_bytes) {
      *out = e.pattern;
      return Status::Ok();
    }
  return {Code::unsupported, std::string(kind == LayoutKind::Std64K ? "std64k" : "std4k") + " has no " +
                                 (dim == Dimension::Texture3D ? "3D" : "2D") + " pattern for " + std::to_string(element_bytes) +
                                 "-byte elements" + (kind == LayoutKind::Std4K && dim == Dimension::Texture3D ?
                                 " (the 4KB 3D bricks for 2-, 4- and 16-byte elements are unconfirmed: sources disagree)" : "")};
}

uint32_t full_mip_count(uint32_t w, uint32_t h, uint32_t d) {
  uint32_t m = std::max(w, std::max(h, d));
  return static_cast<uint32_t>(std::bit_width(m));
}

Status Layout::subresource(uint32_t i, SubresourceLayout* out) const {
  if (i >= subs_.size())
    return {Code::out_of_range, "subresource = " + std::to_string(i) + " (the resource has " + std::to_string(subs_.size()) + ")"};
  *out = subs_[i];
  return Status::Ok();
}

std::string Layout::name() const {
  switch (kind_) {
    case LayoutKind::RowMajor: return "row-major";
    case LayoutKind::Std64K: return "std64k";
    case LayoutKind::Std4K: return "std4k";
    case LayoutKind::Pattern: return "pattern";
  }
  return "?";
}

static Status check_desc(const TextureDesc& d) {
  if (d.format.element_bytes == 0) return {Code::invalid_argument, "format: not set (element size 0)"};
  if (d.width == 0) return {Code::invalid_argument, "width = 0"};
  if (d.height == 0) return {Code::invalid_argument, "height = 0"};
  if (d.depth == 0) return {Code::invalid_argument, "depth = 0"};
  if (d.array_size == 0) return {Code::invalid_argument, "array_size = 0"};
  if (d.samples == 0 || (d.samples & (d.samples - 1)) != 0 || d.samples > 32)
    return {Code::invalid_argument, "samples = " + std::to_string(d.samples) + " (a power of two, 1..32)"};
  if (d.dimension == Dimension::Texture2D && d.depth != 1)
    return {Code::invalid_argument, "depth = " + std::to_string(d.depth) + " for a 2D texture (use array_size, or a 3D texture)"};
  if (d.dimension == Dimension::Texture3D && d.array_size != 1)
    return {Code::invalid_argument, "array_size = " + std::to_string(d.array_size) + " for a 3D texture (3D textures have no arrays)"};
  if (d.dimension == Dimension::Texture3D && d.samples != 1)
    return {Code::invalid_argument, "samples = " + std::to_string(d.samples) + " for a 3D texture"};
  if (d.mip_levels == 0) return {Code::invalid_argument, "mip_levels = 0"};
  uint32_t full = full_mip_count(d.width, d.height, d.dimension == Dimension::Texture3D ? d.depth : 1);
  if (d.mip_levels > full)
    return {Code::invalid_argument, "mip_levels = " + std::to_string(d.mip_levels) + " exceeds the full chain of " + std::to_string(full) +
                                        " for " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                                        (d.dimension == Dimension::Texture3D ? "x" + std::to_string(d.depth) : std::string())};
  if (d.samples > 1 && d.mip_levels > 1) return {Code::invalid_argument, "mip_levels = " + std::to_string(d.mip_levels) + " with MSAA (must be 1)"};
  if (d.format.planes > 1)
    return {Code::unsupported, std::string("format ") + d.format.name + " has " + std::to_string(d.format.planes) +
                                   " planes; planar formats are not supported yet"};
  uint64_t subs;
  if (!mul_ok(d.mip_levels, d.array_size, &subs) || subs > 0xffffffffu) return overflow("subresource count");
  return Status::Ok();
}

Status make_layout(const TextureDesc& desc, const LayoutSpec& spec, Layout* out) {
  SWZ_TRY(check_desc(desc));
  const uint32_t eb = desc.format.element_bytes;
  const bool pot = (eb & (eb - 1)) == 0;
  Layout L;
  L.desc_ = desc;
  L.kind_ = spec.kind;
  Pattern pat;
  uint64_t placement = 1;
  switch (spec.kind) {
    case LayoutKind::RowMajor: {
      if (desc.samples > 1) return {Code::unsupported, "row-major layout with samples = " + std::to_string(desc.samples) + " (D3D12 row-major textures cannot be MSAA)"};
      if (pot && eb <= 16) {
        for (unsigned i = 0; (1u << i) < eb; ++i) pat.interleave[i] = BitEntry::make(Channel::X, i);
      }  // else: the empty pattern, byte-granular (rule 11)
      placement = 512;
      break;
    }
    case LayoutKind::Std64K:
    case LayoutKind::Std4K: {
      const char* nm = spec.kind == LayoutKind::Std64K ? "std64k" : "std4k";
      if (!pot || eb > 16)
        return {Code::unsupported, std::string(nm) + ": format " + desc.format.name + " has " + std::to_string(eb) +
                                       "-byte elements; standard swizzle needs 1, 2, 4, 8 or 16"};
      if (desc.samples > 1)
        return {Code::unsupported, std::string(nm) + " with samples = " + std::to_string(desc.samples) +
                                       ": D3D12 standard swizzle does not support MSAA"};
      if (desc.format.depth_stencil)
        return {Code::unsupported, std::string(nm) + ": D3D12 standard swizzle does not support depth-stencil format " + desc.format.name};
      SWZ_TRY(standard_swizzle_pattern(spec.kind, desc.dimension, eb, &pat));
      placement = spec.kind == LayoutKind::Std64K ? 65536 : 4096;
      break;
    }
    case LayoutKind::Pattern: {
      if (!pot || eb > 16)
        return {Code::unsupported, std::string("pattern layout: format ") + desc.format.name + " has " + std::to_string(eb) +
                                       "-byte elements; swizzled layouts need 1, 2, 4, 8 or 16"};
      pat = spec.pattern;
      break;
    }
  }
  std::shared_ptr<const Plan> plan;
  SWZ_TRY(Plan::compile(pat, eb, &plan));
  if (spec.kind == LayoutKind::Pattern) placement = plan->block_bytes;
  const uint64_t BB = plan->block_bytes;
  const uint64_t ext_s = uint64_t{1} << plan->ext_log2[3];
  if (desc.samples > ext_s)
    return {Code::invalid_argument, "samples = " + std::to_string(desc.samples) + " but the pattern addresses only " +
                                        std::to_string(ext_s) + " (its S bits)"};
  L.patterns_.push_back(pat);
  L.plans_.push_back(plan);
  L.alignment_ = placement;
  const uint32_t mips = desc.mip_levels;
  uint64_t cursor = 0;
  for (uint32_t slice = 0; slice < desc.array_size; ++slice) {
    for (uint32_t m = 0; m < mips; ++m) {
      SubresourceLayout s;
      s.index = calc_subresource(m, slice, 0, mips, desc.array_size);
      s.mip = m;
      s.array_slice = slice;
      s.width = std::max(1u, desc.width >> m);
      s.height = std::max(1u, desc.height >> m);
      s.depth = desc.dimension == Dimension::Texture3D ? std::max(1u, desc.depth >> m) : 1u;
      s.width_el = static_cast<uint32_t>(ceil_div(s.width, desc.format.block_width));
      s.height_el = static_cast<uint32_t>(ceil_div(s.height, desc.format.block_height));
      s.element_bytes = eb;
      uint64_t row_bytes;
      if (!mul_ok(s.width_el, eb, &row_bytes)) return overflow("row size");
      uint64_t blocks_x, blocks_y, blocks_z = 1;
      if (spec.kind == LayoutKind::RowMajor) {
        blocks_x = row_bytes / BB;  // BB = element bytes (or 1)
        uint64_t tight;
        if (!align_up(row_bytes, 256, &tight)) return overflow("row pitch");
        s.row_pitch = spec.row_pitch ? spec.row_pitch : tight;
        if (s.row_pitch < row_bytes)
          return {Code::invalid_argument, "row_pitch = " + std::to_string(s.row_pitch) + " is smaller than a row of mip " +
                                              std::to_string(m) + " (" + std::to_string(row_bytes) + " bytes)"};
        blocks_y = s.height_el;
        blocks_z = s.depth;
      } else {
        blocks_x = ceil_div(row_bytes, uint64_t{1} << plan->ext_log2[0]);
        uint64_t min_pitch;
        if (!mul_ok(blocks_x, BB, &min_pitch)) return overflow("row pitch");
        s.row_pitch = spec.row_pitch ? spec.row_pitch : min_pitch;
        if (s.row_pitch < min_pitch)
          return {Code::invalid_argument, "row_pitch = " + std::to_string(s.row_pitch) + " is smaller than a row of blocks of mip " +
                                              std::to_string(m) + " (" + std::to_string(min_pitch) + " bytes)"};
        const uint64_t ext_y = uint64_t{1} << plan->ext_log2[1];
        if (plan->stack_depth) {
          uint64_t rows_per_slice = spec.depth_pitch ? spec.depth_pitch : ceil_div(s.height_el, ext_y) * ext_y;
          if (rows_per_slice < s.height_el)
            return {Code::invalid_argument, "depth_pitch = " + std::to_string(rows_per_slice) +
                                                " rows is smaller than the height of mip " + std::to_string(m) + " (" +
                                                std::to_string(s.height_el) + " rows; stacked-depth patterns count depth pitch in rows)"};
          uint64_t rows;
          if (!mul_ok(rows_per_slice, s.depth - 1, &rows) || !add_ok(rows, s.height_el, &rows)) return overflow("stacked rows");
          blocks_y = ceil_div(rows, ext_y);
          s.stack_depth = true;
        } else {
          blocks_y = ceil_div(s.height_el, ext_y);
          blocks_z = ceil_div(s.depth, uint64_t{1} << plan->ext_log2[2]);
        }
      }
      if (s.row_pitch % BB)
        return {Code::invalid_argument, "row_pitch = " + std::to_string(s.row_pitch) + " is not a multiple of the block size (" +
                                            std::to_string(BB) + " bytes)"};
      uint64_t slice_bytes;
      if (!mul_ok(blocks_y, s.row_pitch, &slice_bytes)) return overflow("slice size");
      if (s.stack_depth) {
        s.depth_pitch = spec.depth_pitch ? spec.depth_pitch : ceil_div(s.height_el, uint64_t{1} << plan->ext_log2[1]) << plan->ext_log2[1];
      } else {
        s.depth_pitch = spec.depth_pitch ? spec.depth_pitch : slice_bytes;
        if (s.depth_pitch < slice_bytes)
          return {Code::invalid_argument, "depth_pitch = " + std::to_string(s.depth_pitch) + " is smaller than a slice of mip " +
                                              std::to_string(m) + " (" + std::to_string(slice_bytes) + " bytes)"};
        if (s.depth_pitch % BB)
          return {Code::invalid_argument, "depth_pitch = " + std::to_string(s.depth_pitch) + " is not a multiple of the block size (" +
                                              std::to_string(BB) + " bytes)"};
      }
      // size = (bz-1)*DP + (by-1)*RP + bx*BB
      uint64_t size = 0, t;
      if (!mul_ok(blocks_z - 1, s.stack_depth ? 0 : s.depth_pitch, &t) || !add_ok(size, t, &size)) return overflow("subresource size");
      if (!mul_ok(blocks_y - 1, s.row_pitch, &t) || !add_ok(size, t, &size)) return overflow("subresource size");
      if (!mul_ok(blocks_x, BB, &t) || !add_ok(size, t, &size)) return overflow("subresource size");
      if (plan->high_mask) {
        // Postamble terms above the block move whole blocks: make sure every
        // offset stays inside the subresource (a conservative bound).
        uint64_t max_base = size - BB;
        uint64_t fill = max_base ? (~uint64_t{0} >> std::countl_zero(max_base)) : 0;
        uint64_t bound = fill | plan->high_mask | (BB - 1);
        if (bound >= size) {
          unsigned bit = 31 - static_cast<unsigned>(std::countl_zero(plan->high_mask));
          return {Code::invalid_argument, "postamble term on address bit " + std::to_string(bit) + " can move blocks of mip " +
                                              std::to_string(m) + " past the end of the subresource (" + std::to_string(size) + " bytes)"};
        }
      }
      if (!align_up(cursor, placement, &s.offset)) return overflow("resource size");
      s.size = size;
      if (!add_ok(s.offset, size, &cursor)) return overflow("resource size");
      s.pattern_slot = 0;
      L.subs_.push_back(s);
    }
  }
  // Subresource order is mip-major within a slice: index = mip + slice*mips,
  // which is the order we pushed in.
  L.size_ = cursor;
  *out = std::move(L);
  return Status::Ok();
}

Status copyable_footprints(const TextureDesc& desc, std::vector<Footprint>* out, uint64_t* total_bytes) {
  SWZ_TRY(check_desc(desc));
  std::vector<Footprint> v;
  uint64_t cursor = 0;
  for (uint32_t slice = 0; slice < desc.array_size; ++slice)
    for (uint32_t m = 0; m < desc.mip_levels; ++m) {
      Footprint f;
      f.width = std::max(1u, desc.width >> m);
      f.height = std::max(1u, desc.height >> m);
      f.depth = desc.dimension == Dimension::Texture3D ? std::max(1u, desc.depth >> m) : 1u;
      uint64_t wel = ceil_div(f.width, desc.format.block_width);
      f.rows = static_cast<uint32_t>(ceil_div(f.height, desc.format.block_height));
      if (!mul_ok(wel, desc.format.element_bytes, &f.row_size)) return overflow("row size");
      if (!align_up(f.row_size, 256, &f.row_pitch)) return overflow("row pitch");
      if (!align_up(cursor, 512, &f.offset)) return overflow("footprint offset");
      uint64_t t;
      if (!mul_ok(f.row_pitch, uint64_t{f.rows} * f.depth - 1, &t) || !add_ok(t, f.row_size, &f.total_bytes))
        return overflow("footprint size");
      if (!add_ok(f.offset, f.total_bytes, &cursor)) return overflow("footprint size");
      v.push_back(f);
    }
  *out = std::move(v);
  if (total_bytes) *total_bytes = cursor;
  return Status::Ok();
}

}  // namespace swz
