// Texture layouts: subresource placement, pitches, built-in patterns
// (docs/ARCHITECTURE.md rules 9 and 12, "Standard swizzle").
#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "swz/layout.hpp"
#include "core/addresser.hpp"
#include "core/no_coverage.hpp"
#include "core/plan.hpp"
#include "core/request.hpp"
#include "core/checked_math.hpp"
#include "core/enum_names.hpp"
#include "core/layout_work.hpp"
#include "core/pattern_json.hpp"

namespace swz {
namespace detail {
const char* embedded_file(const char* name);
}

namespace {
using swz::detail::add_ok;
using swz::detail::align_up;
using swz::detail::ceil_div;
using swz::detail::mul_ok;

Status overflow(const std::string& what) { return {Code::overflow, what + " does not fit in 64 bits"}; }

/// Layout::allocation_size() (the size rounded up to the alignment) must fit in 64 bits.
Status check_allocation_size(uint64_t size_B, uint64_t alignment_B) {
  uint64_t alloc;
  if (align_up(size_B, alignment_B, &alloc)) return Status::Ok();
  return {Code::overflow, "resource size = " + std::to_string(size_B) + " rounded up to its alignment (" +
                              std::to_string(alignment_B) + " bytes) does not fit in 64 bits"};
}

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
  if (j.is_discarded() || !j.contains("patterns"))
    return {Code::internal, std::string("built-in pattern file ") + file + " is malformed"};
  size_t i = 0;
  for (const auto& e : j["patterns"]) {
    const std::string where = std::string("built-in pattern file ") + file + ": patterns[" + std::to_string(i++) + "]";
    BuiltinEntry b;
    // A family row is a pattern object plus the keys that select it
    // (patterns/README.md §3); only here are those keys allowed. Every row is
    // read, unconfirmed ones too, so that none carries a key nothing reads.
    const Status st = detail::parse_pattern_object(e, {"dim", "element_bytes", "tile_texels", "confirmed"}, &b.pattern);
    if (!st.ok()) return {Code::internal, where + ": " + st.message()};
    if (e.contains("confirmed") && !e["confirmed"].get<bool>())
      continue;  // docs/ARCHITECTURE.md "Standard swizzle": unconfirmed shapes not built in
    b.dim = e["dim"].get<std::string>() == "3D" ? Dimension::Texture3D : Dimension::Texture2D;
    b.element_bytes = e["element_bytes"].get<uint32_t>();
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
  if (kind == LayoutKind::Std64K)
    fam = &k64;
  else if (kind == LayoutKind::Std4K)
    fam = &k4;
  else
    return {Code::invalid_argument, "standard_swizzle_pattern: layout kind is not std64k or std4k"};
  for (const auto& e : *fam)
    if (e.dim == dim && e.element_bytes == element_bytes) {
      *out = e.pattern;
      return Status::Ok();
    }
  return {Code::unsupported,
          std::string(kind == LayoutKind::Std64K ? "std64k" : "std4k") + " has no " +
              (dim == Dimension::Texture3D ? "3D" : "2D") + " pattern for " + std::to_string(element_bytes) +
              "-byte elements" +
              (kind == LayoutKind::Std4K && dim == Dimension::Texture3D
                   ? " (the 4KB 3D bricks for 2-, 4- and 16-byte elements are unconfirmed: sources disagree)"
                   : "")};
}

uint32_t full_mip_count(uint32_t w, uint32_t h, uint32_t d) {
  uint32_t m = std::max(w, std::max(h, d));
  return static_cast<uint32_t>(std::bit_width(m));
}

TextureDesc detail::with_mip_chain(const TextureDesc& desc) {
  TextureDesc d = desc;
  if (d.mip_levels == 0 && d.width != 0 && d.height != 0 && d.depth != 0)
    d.mip_levels = full_mip_count(d.width, d.height, d.dimension == Dimension::Texture3D ? d.depth : 1);
  return d;
}

Status Layout::subresource(uint32_t i, SubresourceLayout* out) const {
  if (i >= subs_.size())
    return {Code::out_of_range,
            "subresource = " + std::to_string(i) + " (the resource has " + std::to_string(subs_.size()) + ")"};
  *out = subs_[i];
  return Status::Ok();
}

namespace {
constexpr detail::EnumName<LayoutKind> kLayoutKindNames[] = {{LayoutKind::RowMajor, "row-major"},
                                                             {LayoutKind::Std64K, "std64k"},
                                                             {LayoutKind::Std4K, "std4k"},
                                                             {LayoutKind::Pattern, "pattern"}};
}  // namespace

std::string Layout::name() const {
  if (kind_ == LayoutKind::Explicit) return name_;
  return detail::name_of(kLayoutKindNames, kind_, "?");
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
    return {Code::invalid_argument,
            "depth = " + std::to_string(d.depth) + " for a 2D texture (use array_size, or a 3D texture)"};
  if (d.dimension == Dimension::Texture3D && d.array_size != 1)
    return {Code::invalid_argument,
            "array_size = " + std::to_string(d.array_size) + " for a 3D texture (3D textures have no arrays)"};
  if (d.dimension == Dimension::Texture3D && d.samples != 1)
    return {Code::invalid_argument, "samples = " + std::to_string(d.samples) + " for a 3D texture"};
  uint32_t full = full_mip_count(d.width, d.height, d.dimension == Dimension::Texture3D ? d.depth : 1);
  if (d.mip_levels > full)
    return {Code::invalid_argument,
            "mip_levels = " + std::to_string(d.mip_levels) + " exceeds the full chain of " + std::to_string(full) +
                " for " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                (d.dimension == Dimension::Texture3D ? "x" + std::to_string(d.depth) : std::string())};
  if (d.samples > 1 && d.mip_levels > 1)
    return {Code::invalid_argument, "mip_levels = " + std::to_string(d.mip_levels) + " with MSAA (must be 1)"};
  uint64_t subs;
  if (!mul_ok(d.mip_levels, d.array_size, &subs) || !mul_ok(subs, d.format.planes, &subs) || subs > 0xffffffffu)
    return overflow("subresource count");
  // A layout keeps a record per subresource: a hostile array size must not
  // make it allocate gigabytes (array_size = 2^32 - 1 would take 2 GB before
  // failing). D3D12 allows at most 15 mips x 2048
  // slices x 3 planes = 92160; Vulkan devices up to a few times that.
  constexpr uint64_t kMaxSubresources = uint64_t{1} << 20;
  if (subs > kMaxSubresources)
    return {Code::unsupported, "subresource count = " + std::to_string(subs) + " (mip_levels " +
                                   std::to_string(d.mip_levels) + " x array_size " + std::to_string(d.array_size) +
                                   " x planes " + std::to_string(d.format.planes) + ") is too large (swz's limit is " +
                                   std::to_string(kMaxSubresources) + ")"};
  return Status::Ok();
}

// Largest offset + 1 (relative to the subresource) that a plan whose
// postamble moves whole blocks can produce over blocks [first..last] of each
// axis: per block, base ^ (the block's high G bits ^ any combination of the
// high G bits of in-block coordinates), maximised greedily over a reduced
// basis. Conservative for partially covered edge blocks.
// The block-by-block check costs time in proportion to the blocks; one
// make_layout call walks at most kReachBudgetBlocks blocks in all (about a
// second), and subresources of the same geometry (every array slice of a mip)
// share one walk. Without both, a tiny pattern (post8=X20 on R8 65536x65536)
// would take about a second per array slice, for up to 2^20 slices.
constexpr uint64_t kReachBudgetBlocks = uint64_t{1} << 24;

static thread_local detail::LayoutWork t_layout_work;
detail::LayoutWork detail::last_layout_work() { return t_layout_work; }

struct ReachKey {
  const Plan* plan;
  uint64_t v[9];
  bool operator<(const ReachKey& o) const {
    if (plan != o.plan) return std::less<const Plan*>()(plan, o.plan);
    return std::lexicographical_compare(v, v + 9, o.v, o.v + 9);
  }
};

struct ReachCache {
  std::map<ReachKey, uint64_t> done;  // key -> reach (only successful walks)
  uint64_t blocks_left = kReachBudgetBlocks;
};

// The block walk of postamble_reach: pure arithmetic over up to 2^24
// blocks, left out of the fuzzers' coverage instrumentation (a comparison
// callback per block makes it several times slower; its branches guide
// nothing).
SWZ_NO_COVERAGE static void walk_blocks(const Plan& plan, uint64_t bx0, uint64_t by0, uint64_t bz0, uint64_t bx_last,
                                        uint64_t by_last, uint64_t bz_last, uint64_t row_pitch, uint64_t dp,
                                        const std::vector<uint32_t>& gx, const uint32_t (&reduce_tab)[4][256],
                                        uint64_t all_piv, bool small, std::vector<uint64_t>& seen, bool* collide_out,
                                        uint64_t* best_out) {
  const uint64_t nx = bx_last - bx0 + 1;
  bool collide = false;
  uint64_t best = 0;
  for (uint64_t bz = bz0; bz <= bz_last && !collide; ++bz)
    for (uint64_t by = by0; by <= by_last && !collide; ++by) {
      const uint32_t gyz = plan.immediate ^ plan.g(1, static_cast<uint32_t>(by << plan.ext_log2[1])) ^
                           plan.g(2, static_cast<uint32_t>(bz << plan.ext_log2[2]));
      uint64_t base = bx0 * plan.block_bytes + by * row_pitch + bz * dp;
      for (uint64_t i = 0; i < nx; ++i, base += plan.block_bytes) {
        const uint32_t gxi = gx.empty() ? plan.g(0, static_cast<uint32_t>((bx0 + i) << plan.ext_log2[0])) : gx[i];
        const uint64_t v0 = base ^ ((gyz ^ gxi) & plan.high_mask);
        const uint32_t w = static_cast<uint32_t>(v0);
        const uint64_t lo = v0 ^ reduce_tab[0][w & 255] ^ reduce_tab[1][(w >> 8) & 255] ^
                            reduce_tab[2][(w >> 16) & 255] ^ reduce_tab[3][w >> 24];
        best = std::max(best, lo ^ all_piv);
        if (small) {
          const uint64_t k = lo / plan.block_bytes;
          const uint64_t bitv = uint64_t{1} << (k % 64);
          if (seen[k / 64] & bitv) {
            collide = true;
            break;
          }
          seen[k / 64] |= bitv;
        } else {
          seen.push_back(lo);
        }
      }
    }
  *collide_out = collide;
  *best_out = best;
}

static Status postamble_reach(const Plan& plan, uint64_t bx_last, uint64_t by_last, uint64_t bz_last,
                              const uint64_t pre[3], const SubresourceLayout& s, ReachCache& cache, uint64_t* out) {
  const ReachKey key{&plan,
                     {bx_last, by_last, bz_last, pre[0], pre[1], pre[2], s.row_pitch, s.depth_pitch_B, s.stack_rows}};
  if (auto it = cache.done.find(key); it != cache.done.end()) {
    *out = it->second;
    return Status::Ok();
  }
  uint32_t basis[32] = {};
  for (int c = 0; c < 4; ++c)
    for (unsigned b = 0; b < plan.ext_log2[c] && b < 32; ++b) {
      uint32_t v = plan.lin[c][b] & plan.high_mask;
      for (int t = 31; t >= 0 && v; --t)
        if (v & (1u << t)) {
          if (!basis[t]) {
            basis[t] = v;
            v = 0;
          } else {
            v ^= basis[t];
          }
        }
    }
  const uint64_t bx0 = pre[0] >> plan.ext_log2[0], by0 = pre[1] >> plan.ext_log2[1],
                 bz0 = s.stack_depth ? 0 : pre[2] >> plan.ext_log2[2];
  const uint64_t blocks = (bx_last - bx0 + 1) * (by_last - by0 + 1) * (bz_last - bz0 + 1);
  const uint64_t dp = s.depth_pitch_B;
  const unsigned top = 31 - static_cast<unsigned>(std::countl_zero(plan.high_mask));
  if (blocks > (uint64_t{1} << 24))
    return {Code::unsupported, "postamble terms on address bits up to " + std::to_string(top) +
                                   " move whole blocks; swz verifies such"
                                   " surfaces block by block and this one has " +
                                   std::to_string(blocks) + " blocks (limit 2^24)"};
  if (blocks > cache.blocks_left)
    return {Code::unsupported,
            "postamble terms on address bits up to " + std::to_string(top) +
                " move whole blocks; swz verifies such"
                " surfaces block by block, at most 2^24 blocks per layout (subresources of one geometry checked"
                " once), and the subresources of this layout need more (mip " +
                std::to_string(s.mip) + " alone has " + std::to_string(blocks) + ")"};
  cache.blocks_left -= blocks;
  t_layout_work.walked_blocks += blocks;
  // Each source block lands on the target blocks (base ^ h) ^ span(basis);
  // distinct canonical representatives prove no two blocks collide. With the
  // basis in reduced row-echelon form (each pivot bit in one vector only),
  // the representative lo (every pivot bit cleared) is linear in the offset,
  // so four byte tables give it, and the coset's largest member is lo with
  // every pivot bit set (lo ^ all_piv): no per-pivot loop per block.
  for (unsigned t = 0; t < 32; ++t)
    if (basis[t])
      for (unsigned u = t + 1; u < 32; ++u)
        if (basis[u] >> t & 1) basis[u] ^= basis[t];
  uint32_t reduce_tab[4][256] = {};
  uint64_t all_piv = 0;
  for (unsigned t = 0; t < 32; ++t)
    if (basis[t]) {
      all_piv ^= basis[t];
      const unsigned byte = t / 8, bit = t % 8;
      for (unsigned v = 0; v < 256; ++v)
        if (v >> bit & 1) reduce_tab[byte][v] ^= basis[t];
    }
  // Representatives are multiples of the block size (bases are; the G bits
  // and the basis lie above the block), below max base | bits 0..top: mark
  // them in a bitmap when it is small, else sort them.
  uint64_t bound = 0, t;
  bool small = mul_ok(bx_last, plan.block_bytes, &bound) && mul_ok(by_last, s.row_pitch, &t) &&
               add_ok(bound, t, &bound) && mul_ok(bz_last, dp, &t) && add_ok(bound, t, &bound);
  bound = (bound | ((uint64_t{2} << top) - 1)) / plan.block_bytes + 1;
  // A bitmap far larger than the blocks it marks (a few blocks spread over a wide pitch) costs
  // more to clear than sorting the blocks does.
  small = small && bound <= (uint64_t{1} << 28) && (bound + 63) / 64 <= 4 * blocks + 4096;  // 32 MB of bits
  std::vector<uint64_t> seen;  // bitmap words, or the representatives to sort
  seen.reserve(small ? (bound + 63) / 64 : blocks);
  if (small) seen.assign((bound + 63) / 64, 0);
  // G of each block column, once (G is linear: the walk XORs row and column parts).
  const uint64_t nx = bx_last - bx0 + 1;
  std::vector<uint32_t> gx(nx <= (uint64_t{1} << 22) ? nx : 0);
  for (uint64_t i = 0; i < gx.size(); ++i) gx[i] = plan.g(0, static_cast<uint32_t>((bx0 + i) << plan.ext_log2[0]));
  bool collide = false;
  uint64_t best = 0;
  walk_blocks(plan, bx0, by0, bz0, bx_last, by_last, bz_last, s.row_pitch, dp, gx, reduce_tab, all_piv, small, seen,
              &collide, &best);
  if (!small) {
    std::sort(seen.begin(), seen.end());
    collide = std::adjacent_find(seen.begin(), seen.end()) != seen.end();
  }
  if (collide)
    return {Code::invalid_argument, "postamble terms on address bits up to " + std::to_string(top) +
                                        " make two blocks of mip " + std::to_string(s.mip) +
                                        " land on the same memory (the pattern is not a bijection on this surface;"
                                        " try a power-of-two row pitch)"};
  *out = (best | (plan.block_bytes - 1)) + 1;
  cache.done.emplace(key, *out);
  return Status::Ok();
}

// Geometry, pitches and span of one subresource for a plan. rp_B (row pitch,
// bytes), dp_B (depth pitch, bytes; unstacked plans) and stack_rows (stacked
// plans) of 0 mean the tightest; pre = pre-swizzle offsets (X bytes, Y, Z). The span (size)
// covers every block the subresource's coordinates touch, relative to its
// offset; for a plan whose postamble moves whole blocks it is a conservative
// bound, and a pattern that could leave it is refused.
static Status place_subresource(const TextureDesc& desc, const Plan& plan, uint32_t m, uint32_t slice, uint32_t plane,
                                uint64_t rp_B, uint64_t dp_B, uint64_t stack_rows, const uint64_t pre[3],
                                ReachCache& reach, SubresourceLayout* out) {
  SubresourceLayout s;
  PlaneInfo pi;
  SWZ_TRY(plane_info(desc.format, plane, &pi));
  const uint32_t eb = pi.element_bytes;
  s.index = calc_subresource(m, slice, plane, desc.mip_levels, desc.array_size);
  s.mip = m;
  s.array_slice = slice;
  s.plane = plane;
  s.width = static_cast<uint32_t>(ceil_div(std::max(1u, desc.width >> m), pi.width_divisor));
  s.height = static_cast<uint32_t>(ceil_div(std::max(1u, desc.height >> m), pi.height_divisor));
  s.depth = desc.dimension == Dimension::Texture3D ? std::max(1u, desc.depth >> m) : 1u;
  s.width_el = static_cast<uint32_t>(ceil_div(s.width, desc.format.block_width));
  s.height_el = static_cast<uint32_t>(ceil_div(s.height, desc.format.block_height));
  s.element_bytes = eb;
  for (int i = 0; i < 3; ++i) s.pre_swizzle[i] = pre[i];
  if (desc.samples > (uint64_t{1} << plan.ext_log2[3]))
    return {Code::invalid_argument, "samples = " + std::to_string(desc.samples) + " but the pattern addresses only " +
                                        std::to_string(uint64_t{1} << plan.ext_log2[3]) + " (its S bits)"};
  const uint64_t BB = plan.block_bytes;
  const unsigned ex = plan.ext_log2[0], ey = plan.ext_log2[1], ez = plan.ext_log2[2];
  uint64_t row_bytes, t;
  if (!mul_ok(s.width_el, eb, &row_bytes)) return overflow("row size");
  uint64_t x_end;
  if (!add_ok(pre[0], row_bytes, &x_end)) return overflow("row size");
  const uint64_t bx_last = (x_end - 1) >> ex;
  uint64_t min_rp;
  if (!mul_ok(bx_last + 1, BB, &min_rp)) return overflow("row pitch");
  s.row_pitch = rp_B ? rp_B : min_rp;
  if (s.row_pitch < min_rp)
    return {Code::invalid_argument, "row_pitch = " + std::to_string(s.row_pitch) + " is smaller than a row of " +
                                        (plan.block_bits ? "blocks" : "elements") + " of mip " + std::to_string(m) +
                                        " (" + std::to_string(min_rp) + " bytes)"};
  if (s.row_pitch % BB)
    return {Code::invalid_argument, "row_pitch = " + std::to_string(s.row_pitch) +
                                        " is not a multiple of the block size (" + std::to_string(BB) + " bytes)"};
  uint64_t by_last, bz_last = 0;
  if (plan.stack_depth) {
    if (pre[2])
      return {Code::invalid_argument,
              "pre-swizzle Z = " + std::to_string(pre[2]) + " with STACK_DEPTH_SLICES (must be 0)"};
    const uint64_t ext_y = uint64_t{1} << ey;
    uint64_t rows_per_slice = stack_rows ? stack_rows : ceil_div(s.height_el, ext_y) * ext_y;
    if (rows_per_slice < s.height_el)
      return {Code::invalid_argument, "stack_rows = " + std::to_string(rows_per_slice) +
                                          " is smaller than the height of mip " + std::to_string(m) + " (" +
                                          std::to_string(s.height_el) + " rows)"};
    uint64_t y_end;
    if (!mul_ok(rows_per_slice, s.depth - 1, &t) || !add_ok(t, s.height_el, &y_end) || !add_ok(y_end, pre[1], &y_end))
      return overflow("stacked rows");
    by_last = (y_end - 1) >> ey;
    s.stack_depth = true;
    s.stack_rows = rows_per_slice;
  } else {
    uint64_t y_end, z_end;
    if (!add_ok(pre[1], s.height_el, &y_end) || !add_ok(pre[2], s.depth, &z_end)) return overflow("coordinates");
    by_last = (y_end - 1) >> ey;
    bz_last = (z_end - 1) >> ez;
    uint64_t min_dp;
    if (!mul_ok(by_last + 1, s.row_pitch, &min_dp))
      return overflow("the slice size (depth pitch: row pitch = " + std::to_string(s.row_pitch) + " bytes x " +
                      std::to_string(by_last + 1) + " rows of blocks)");
    s.depth_pitch_B = dp_B ? dp_B : min_dp;
    if (bz_last > 0 && s.depth_pitch_B < min_dp)
      return {Code::invalid_argument, "depth_pitch_B = " + std::to_string(s.depth_pitch_B) +
                                          " is smaller than a slice of mip " + std::to_string(m) + " (" +
                                          std::to_string(min_dp) + " bytes)"};
    if (s.depth_pitch_B % BB)
      return {Code::invalid_argument, "depth_pitch_B = " + std::to_string(s.depth_pitch_B) +
                                          " is not a multiple of the block size (" + std::to_string(BB) + " bytes)"};
  }
  // max base = bz*DP + by*RP + bx*BB; span = max base + BB.
  uint64_t max_base = 0;
  if (!mul_ok(bz_last, s.depth_pitch_B, &t) || !add_ok(max_base, t, &max_base)) return overflow("subresource size");
  if (!mul_ok(by_last, s.row_pitch, &t) || !add_ok(max_base, t, &max_base)) return overflow("subresource size");
  if (!mul_ok(bx_last, BB, &t) || !add_ok(max_base, t, &max_base)) return overflow("subresource size");
  if (!add_ok(max_base, BB, &s.size)) return overflow("subresource size");
  if (plan.high_mask) {
    // Postamble terms above the block move whole blocks: find the largest
    // offset any block can reach and let the span cover it.
    uint64_t need = 0;
    SWZ_TRY(postamble_reach(plan, bx_last, by_last, bz_last, pre, s, reach, &need));
    s.size = std::max(s.size, need);
  }
  *out = s;
  return Status::Ok();
}

namespace {

// Compiles (or reuses) the plan of pattern slot `slot` for `eb`-byte elements.
// Plans compiled in this process, shared by the layouts built after them: the
// same patterns (standard swizzles, vendor families, an application's few
// patterns) recur, and Plan::compile (validation, 16 KiB of tables, a GF(2)
// inverse) would otherwise be a large part of the cost of building a layout.
// Plans are immutable; successful compiles only; at most 64, the
// oldest replaced first.
class SharedPlans {
 public:
  static uint64_t key_of(const Pattern& p, uint32_t eb) {
    uint64_t h = 1469598103934665603ull ^ eb;  // FNV-1a over every field
    auto mix = [&h](uint32_t v) { h = (h ^ v) * 1099511628211ull; };
    auto mix_array = [&](const BitArray& a) {
      for (const BitEntry& e : a) mix(uint32_t{e.valid} | uint32_t{e.channel} << 8 | uint32_t{e.bit} << 16);
    };
    mix_array(p.interleave);
    for (const auto& x : p.xors) mix_array(x);
    for (const auto& x : p.postamble) mix_array(x);
    mix(p.immediate);
    mix(p.flags);
    return h;
  }
  std::shared_ptr<const Plan> find(uint64_t key, const Pattern& p, uint32_t eb) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Entry& e : entries_)
      if (e.key == key && e.plan->element_bytes == eb && e.plan->pattern() == p) return e.plan;
    return nullptr;
  }
  void add(uint64_t key, std::shared_ptr<const Plan> plan) {
    std::lock_guard<std::mutex> lock(mu_);
    if (entries_.size() < kMax)
      entries_.push_back({key, std::move(plan)});
    else
      entries_[next_++ % kMax] = {key, std::move(plan)};
  }
  static SharedPlans& instance() {
    static SharedPlans* s = new SharedPlans;  // never destroyed: layouts may outlive static destruction
    return *s;
  }

 private:
  static constexpr size_t kMax = 64;
  struct Entry {
    uint64_t key;
    std::shared_ptr<const Plan> plan;
  };
  std::mutex mu_;
  std::vector<Entry> entries_;
  size_t next_ = 0;
};

struct PlanCache {
  std::vector<std::pair<std::pair<int, uint32_t>, std::shared_ptr<const Plan>>> items;
  Status get(const Pattern& p, int slot, uint32_t eb, std::shared_ptr<const Plan>* out) {
    for (auto& [key, plan] : items)
      if (key.first == slot && key.second == eb) {
        *out = plan;
        return Status::Ok();
      }
    SharedPlans& shared = SharedPlans::instance();
    const uint64_t key = SharedPlans::key_of(p, eb);
    if (std::shared_ptr<const Plan> hit = shared.find(key, p, eb)) {
      *out = std::move(hit);
    } else {
      SWZ_TRY(Plan::compile(p, eb, out));
      shared.add(key, *out);
    }
    items.push_back({{slot, eb}, *out});
    return Status::Ok();
  }
};

uint32_t element_bytes_of_plane(const FormatInfo& f, uint32_t plane) {
  PlaneInfo pi;
  return plane_info(f, plane, &pi).ok() ? pi.element_bytes : 0;
}

// The pattern's sample bits (S primaries) must address exactly the texture's
// samples: fewer would make samples share memory, more would address sample
// bits a texture without them does not have (channel 3 without samples).
Status check_samples(const Plan& plan, uint32_t samples) {
  const uint64_t ext_s = uint64_t{1} << plan.ext_log2[3];
  if (samples > ext_s)
    return {Code::invalid_argument, "samples = " + std::to_string(samples) + " but the pattern addresses only " +
                                        std::to_string(ext_s) + " (its S bits)"};
  if (samples < ext_s)
    return {Code::invalid_argument,
            "the pattern addresses " + std::to_string(ext_s) + " samples (S0" +
                (plan.ext_log2[3] > 1 ? "..S" + std::to_string(plan.ext_log2[3] - 1) : std::string()) +
                ") but the texture has " + std::to_string(samples)};
  return Status::Ok();
}

}  // namespace

Status make_layout(const TextureDesc& desc_in, const LayoutSpec& spec, Layout* out) {
  t_layout_work = {};
  const TextureDesc desc = detail::with_mip_chain(desc_in);
  SWZ_TRY(check_desc(desc));
  const FormatInfo& fmt = desc.format;
  const uint32_t planes = fmt.planes;
  Layout L;
  L.desc_ = desc;
  L.kind_ = spec.kind;
  uint64_t placement = 1;
  std::vector<Pattern> slot_pattern(planes);  // one pattern per plane
  const char* nm = spec.kind == LayoutKind::Std64K ? "std64k" : "std4k";
  for (uint32_t plane = 0; plane < planes; ++plane) {
    const uint32_t eb = element_bytes_of_plane(fmt, plane);
    const bool pot = eb != 0 && (eb & (eb - 1)) == 0;
    Pattern& pat = slot_pattern[plane];
    switch (spec.kind) {
      case LayoutKind::RowMajor:
        if (desc.samples > 1)
          return {Code::unsupported, "row-major layout with samples = " + std::to_string(desc.samples) +
                                         " (D3D12 row-major textures cannot be MSAA)"};
        if (pot && eb <= 16)
          for (unsigned i = 0; (1u << i) < eb; ++i) pat.interleave[i] = BitEntry::make(Channel::X, i);
        // else: the empty pattern, byte-granular (rule 11)
        placement = 512;
        break;
      case LayoutKind::Std64K:
      case LayoutKind::Std4K:
        if (planes > 1 && !fmt.depth_stencil)
          return {Code::unsupported,
                  std::string(nm) + ": D3D12 standard swizzle does not support planar format " + fmt.name};
        if (fmt.depth_stencil)
          return {Code::unsupported,
                  std::string(nm) + ": D3D12 standard swizzle does not support depth-stencil format " + fmt.name};
        if (!pot || eb > 16)
          return {Code::unsupported, std::string(nm) + ": format " + fmt.name + " has " + std::to_string(eb) +
                                         "-byte elements; standard swizzle needs 1, 2, 4, 8 or 16"};
        if (desc.samples > 1)
          return {Code::unsupported, std::string(nm) + " with samples = " + std::to_string(desc.samples) +
                                         ": D3D12 standard swizzle does not support MSAA"};
        SWZ_TRY(standard_swizzle_pattern(spec.kind, desc.dimension, eb, &pat));
        placement = spec.kind == LayoutKind::Std64K ? 65536 : 4096;
        break;
      case LayoutKind::Explicit:
        return {Code::invalid_argument, "layout kind Explicit: use make_explicit_layout"};
      case LayoutKind::Pattern:
        if (!pot || eb > 16)
          return {Code::unsupported, std::string("pattern layout: format ") + fmt.name + " has " + std::to_string(eb) +
                                         "-byte elements; swizzled layouts need 1, 2, 4, 8 or 16"};
        pat = spec.pattern;
        break;
    }
  }
  if (spec.mip_tail == MipTail::D3D12) {
    if (spec.kind != LayoutKind::Std64K && spec.kind != LayoutKind::Std4K)
      return {Code::invalid_argument, "mip_tail = d3d12 applies to std64k and std4k only"};
    const auto& pk = spec.packed;
    if (uint64_t{pk.num_standard_mips} + pk.num_packed_mips != desc.mip_levels)
      return {Code::invalid_argument, "packed mips: num_standard_mips (" + std::to_string(pk.num_standard_mips) +
                                          ") + num_packed_mips (" + std::to_string(pk.num_packed_mips) +
                                          ") != mip_levels (" + std::to_string(desc.mip_levels) + ")"};
    if (pk.num_packed_mips > 0 && pk.num_tiles_for_packed_mips == 0)
      return {Code::invalid_argument,
              "packed mips: num_tiles_for_packed_mips = 0 with " + std::to_string(pk.num_packed_mips) + " packed mips"};
  }
  {
    const bool stacked = spec.kind == LayoutKind::Pattern && spec.pattern.stack_depth_slices();
    if (stacked && spec.depth_pitch_B)
      return {Code::invalid_argument, "depth_pitch_B = " + std::to_string(spec.depth_pitch_B) +
                                          ": the pattern stacks depth slices as rows; give stack_rows instead"};
    if (!stacked && spec.stack_rows)
      return {Code::invalid_argument, "stack_rows = " + std::to_string(spec.stack_rows) +
                                          ": the layout does not stack depth slices; give depth_pitch_B instead"};
  }
  PlanCache cache;
  ReachCache reach;
  L.patterns_ = slot_pattern;
  uint64_t cursor = 0;
  L.subs_.reserve(uint64_t{desc.mip_levels} * desc.array_size * planes);  // at most 2^20 (check_desc)
  L.sub_plans_.reserve(L.subs_.capacity());
  for (uint32_t plane = 0; plane < planes; ++plane) {
    const uint32_t eb = element_bytes_of_plane(fmt, plane);
    std::shared_ptr<const Plan> plan;
    Status st = cache.get(slot_pattern[plane], static_cast<int>(plane), eb, &plan);
    if (!st.ok())
      return {st.code(), planes > 1 ? "plane " + std::to_string(plane) + ": " + st.message() : st.message()};
    if (spec.kind == LayoutKind::Pattern) placement = std::max(placement, plan->block_bytes);
    st = check_samples(*plan, desc.samples);
    if (!st.ok())
      return {st.code(), planes > 1 ? "plane " + std::to_string(plane) + ": " + st.message() : st.message()};
    // Every array slice of a mip has the same geometry: it is computed for
    // slice 0 and copied (with its index) for the others, so that the cost
    // grows with the mips, not with mips x slices.
    std::vector<SubresourceLayout> first(desc.mip_levels);
    for (uint32_t slice = 0; slice < desc.array_size; ++slice) {
      uint64_t packed_start = 0;
      for (uint32_t m = 0; m < desc.mip_levels; ++m) {
        SubresourceLayout s;
        const bool packed = spec.mip_tail == MipTail::D3D12 && m >= spec.packed.num_standard_mips;
        if (slice == 0) {
          uint64_t rp = spec.row_pitch_B;
          if (spec.kind == LayoutKind::RowMajor && rp == 0) {
            PlaneInfo pi;
            SWZ_TRY(plane_info(fmt, plane, &pi));
            uint64_t w = ceil_div(ceil_div(std::max(1u, desc.width >> m), pi.width_divisor), fmt.block_width);
            if (!align_up(w * eb, planes > 1 ? 512 : 256, &rp)) return overflow("row pitch");
          }
          const uint64_t pre[3] = {0, 0, 0};
          SWZ_TRY(
              place_subresource(desc, *plan, m, slice, plane, rp, spec.depth_pitch_B, spec.stack_rows, pre, reach, &s));
          ++t_layout_work.placed;
          first[m] = s;
        } else {
          s = first[m];
          s.index = calc_subresource(m, slice, plane, desc.mip_levels, desc.array_size);
          s.array_slice = slice;
        }
        if (packed) {
          // The tail: NumTilesForPackedMips tiles right after this slice's standard mips.
          if (m == spec.packed.num_standard_mips) {
            if (!align_up(cursor, placement, &packed_start)) return overflow("resource size");
            uint64_t bytes;
            if (!mul_ok(spec.packed.num_tiles_for_packed_mips, placement, &bytes) ||
                !add_ok(packed_start, bytes, &cursor))
              return overflow("resource size");
          }
          s.packed = true;
          s.offset = packed_start;
          s.size = uint64_t{spec.packed.num_tiles_for_packed_mips} * placement;
        } else {
          if (!align_up(cursor, placement, &s.offset)) return overflow("resource size");
          if (!add_ok(s.offset, s.size, &cursor)) return overflow("resource size");
        }
        s.pattern_slot = static_cast<int>(plane);
        L.subs_.push_back(s);
        L.sub_plans_.push_back(plan);
      }
    }
  }
  // Pushed in subresource-index order: mip + slice*mips + plane*mips*array.
  L.alignment_ = placement;
  L.size_ = cursor;
  SWZ_TRY(check_allocation_size(L.size_, L.alignment_));
  L.locator_cache_ = detail::new_locator_cache();
  *out = std::move(L);
  return Status::Ok();
}

// Layout::check_no_shared_bytes: src/core/shared_bytes.cpp.

Status make_explicit_layout(const TextureDesc& desc_in, const std::vector<Pattern>& patterns,
                            const std::vector<SubresourcePlacement>& placements, const std::string& name,
                            uint64_t resource_size, Layout* out) {
  const TextureDesc desc = detail::with_mip_chain(desc_in);
  SWZ_TRY(check_desc(desc));
  Layout L;
  L.desc_ = desc;
  L.kind_ = LayoutKind::Explicit;
  L.name_ = name;
  L.patterns_ = patterns;
  if (patterns.empty()) return {Code::invalid_argument, "patterns: the table is empty"};
  const uint64_t count = uint64_t{desc.mip_levels} * desc.array_size * desc.format.planes;
  if (placements.size() != count)
    return {Code::invalid_argument, "placements: " + std::to_string(placements.size()) + " entries for " +
                                        std::to_string(count) + " subresources (mip_levels x array_size x planes)"};
  PlanCache cache;
  ReachCache reach;
  uint64_t end_max = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t m = i % desc.mip_levels;
    const uint32_t slice = (i / desc.mip_levels) % desc.array_size;
    const uint32_t plane = i / (desc.mip_levels * desc.array_size);
    const SubresourcePlacement& pl = placements[i];
    if (pl.pattern_slot < 0 || static_cast<size_t>(pl.pattern_slot) >= patterns.size())
      return {Code::invalid_argument, "subresource " + std::to_string(i) +
                                          ": pattern_slot = " + std::to_string(pl.pattern_slot) + " (the table has " +
                                          std::to_string(patterns.size()) + ")"};
    std::shared_ptr<const Plan> plan;
    Status st =
        cache.get(patterns[pl.pattern_slot], pl.pattern_slot, element_bytes_of_plane(desc.format, plane), &plan);
    if (!st.ok())
      return {st.code(), "pattern " + std::to_string(pl.pattern_slot) + " (subresource " + std::to_string(i) +
                             "): " + st.message()};
    st = check_samples(*plan, desc.samples);
    if (!st.ok())
      return {st.code(), "pattern " + std::to_string(pl.pattern_slot) + " (subresource " + std::to_string(i) +
                             "): " + st.message()};
    if (plan->stack_depth && pl.depth_pitch_B)
      return {Code::invalid_argument, "subresource " + std::to_string(i) +
                                          ": depth_pitch_B = " + std::to_string(pl.depth_pitch_B) +
                                          ": the pattern stacks depth slices as rows; give stack_rows instead"};
    if (!plan->stack_depth && pl.stack_rows)
      return {Code::invalid_argument, "subresource " + std::to_string(i) +
                                          ": stack_rows = " + std::to_string(pl.stack_rows) +
                                          ": the pattern does not stack depth slices; give depth_pitch_B instead"};
    SubresourceLayout s;
    st = place_subresource(desc, *plan, m, slice, plane, pl.row_pitch, pl.depth_pitch_B, pl.stack_rows, pl.pre_swizzle,
                           reach, &s);
    if (!st.ok()) return {st.code(), "subresource " + std::to_string(i) + ": " + st.message()};
    s.offset = pl.offset;
    s.pattern_slot = pl.pattern_slot;
    uint64_t end;
    if (!add_ok(s.offset, s.size, &end)) return overflow("subresource " + std::to_string(i) + " end");
    end_max = std::max(end_max, end);
    L.subs_.push_back(s);
    L.sub_plans_.push_back(plan);
    L.alignment_ = std::max(L.alignment_, plan->block_bytes);
  }
  if (resource_size && resource_size < end_max) {
    std::string why;
    for (uint32_t i = 0; i < L.subs_.size(); ++i)
      if (L.sub_plans_[i]->high_mask && L.subs_[i].offset + L.subs_[i].size > resource_size)
        why = " (postamble terms on address bit " + std::to_string(31 - std::countl_zero(L.sub_plans_[i]->high_mask)) +
              " move blocks of subresource " + std::to_string(i) + " that far)";
    return {Code::invalid_argument, "resource_size = " + std::to_string(resource_size) +
                                        " but subresources reach byte " + std::to_string(end_max) + why};
  }
  L.size_ = resource_size ? resource_size : end_max;
  SWZ_TRY(check_allocation_size(L.size_, L.alignment_));
  SWZ_TRY(Layout::check_no_shared_bytes(L));
  L.locator_cache_ = detail::new_locator_cache();
  *out = std::move(L);
  return Status::Ok();
}

Status copyable_footprints(const TextureDesc& desc_in, std::vector<Footprint>* out, uint64_t* total_bytes,
                           uint64_t base_offset) {
  const TextureDesc desc = detail::with_mip_chain(desc_in);
  SWZ_TRY(check_desc(desc));
  std::vector<Footprint> v;
  uint64_t running = 0;
  const uint32_t planes = desc.format.planes;
  const uint64_t pitch_align = planes > 1 ? 512 : 256;
  for (uint32_t plane = 0; plane < planes; ++plane) {
    PlaneInfo pi;
    SWZ_TRY(plane_info(desc.format, plane, &pi));
    for (uint32_t slice = 0; slice < desc.array_size; ++slice)
      for (uint32_t m = 0; m < desc.mip_levels; ++m) {
        Footprint f;
        f.element_bytes = pi.element_bytes;
        f.format_name = pi.format_name;
        const uint64_t bw = desc.format.block_width, bh = desc.format.block_height;
        const uint64_t wel = ceil_div(ceil_div(std::max(1u, desc.width >> m), pi.width_divisor), bw);
        const uint64_t hel = ceil_div(ceil_div(std::max(1u, desc.height >> m), pi.height_divisor), bh);
        f.width = static_cast<uint32_t>(wel * bw);
        f.height = static_cast<uint32_t>(hel * bh);
        f.depth = desc.dimension == Dimension::Texture3D ? std::max(1u, desc.depth >> m) : 1u;
        f.rows = static_cast<uint32_t>(hel);
        if (!mul_ok(wel, pi.element_bytes, &f.row_size)) return overflow("row size");
        if (!align_up(f.row_size, pitch_align, &f.row_pitch)) return overflow("row pitch");
        uint64_t rel;
        if (!align_up(running, 512, &rel) || !add_ok(base_offset, rel, &f.offset)) return overflow("footprint offset");
        uint64_t t;
        if (!mul_ok(f.row_pitch, uint64_t{f.rows} * f.depth - 1, &t) || !add_ok(t, f.row_size, &f.total_bytes))
          return overflow("footprint size");
        if (!add_ok(rel, f.total_bytes, &running)) return overflow("footprint size");
        v.push_back(f);
      }
  }
  *out = std::move(v);
  if (total_bytes) *total_bytes = running;
  return Status::Ok();
}

}  // namespace swz
