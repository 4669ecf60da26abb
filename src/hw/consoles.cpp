// Console families of patterns/vendor/consoles.json whose levels are one
// block each: Morton swizzles over a level's power-of-two extent (PS3 / Xbox
// "morton", PS Vita "vita", Dreamcast "dreamcast") and the 3DS's bottom-up
// Morton tiles ("3ds"). The bit orders are the data rows; the rules here are
// which of a row's bits a level keeps, where each level sits, and which sizes
// a platform lays out, each with its public source.
#include <bit>

#include "hw/hw_internal.hpp"

namespace swz::vendor {
namespace {

// Refuses (unsupported: a valid texture the platform does not lay out) a size
// the family cannot place: width / height (and depth for 3D) must be powers of
// two of at least `min` texels.
Status need_pow2_sizes(const DataFamily& f, const TextureDesc& desc, uint32_t min, const char* why) {
  const std::pair<uint32_t, const char*> fields[] = {
      {desc.width, "width"}, {desc.height, "height"}, {desc.dimension == Dimension::Texture3D ? desc.depth : 1u, "depth"}};
  for (const auto& [v, name] : fields)
    if (!is_pow2(v) || (v < min && std::string(name) != "depth"))
      return {Code::unsupported, "layout '" + f.name + "': " + name + " = " + std::to_string(v) +
                                          (is_pow2(v) ? " is below " + std::to_string(min) : " is not a power of two") +
                                          " (" + why + ")"};
  return Status::Ok();
}

// The pattern of one level of 2^lx x 2^ly x 2^lz elements: the row's element
// byte bits, then its X / Y / Z bits in the row's order, keeping only the bits
// inside the extent. With the row's Morton order this is the platforms' rule
// for rectangles: both axes interleave until the shorter one runs out, then
// the longer axis's bits follow (Vita3K encode_morton, Flycast twiddle_slow,
// RPCS3 convert_linear_swizzle, xemu generate_swizzle_masks).
Status morton_level(const DataFamily& f, const Pattern& row, unsigned k, unsigned lx, unsigned ly, unsigned lz,
                    Pattern* out) {
  Pattern p;
  unsigned n = 0, kept[3] = {0, 0, 0};
  const unsigned limit[3] = {k + lx, ly, lz};
  for (unsigned i = 0; i < row.block_bits(); ++i) {
    const BitEntry& e = row.interleave[i];
    if (e.channel > 2 || e.bit >= limit[e.channel]) continue;
    p.interleave[n++] = e;
    ++kept[e.channel];
  }
  if (kept[0] != k + lx || kept[1] != ly || kept[2] != lz)
    return {Code::invalid_argument, "layout '" + f.name + "': a level of " + std::to_string(uint64_t{1} << lx) + "x" +
                                        std::to_string(uint64_t{1} << ly) + "x" + std::to_string(uint64_t{1} << lz) +
                                        " elements is larger than the family's pattern covers"};
  *out = p;
  return Status::Ok();
}

int slot_for(FamilyPlan* plan, const Pattern& p) {
  for (size_t i = 0; i < plan->patterns.size(); ++i)
    if (plan->patterns[i] == p) return static_cast<int>(i);
  plan->patterns.push_back(p);
  return static_cast<int>(plan->patterns.size() - 1);
}

// One level as one block of ex x ey x ez elements (powers of two) at `offset`.
Status morton_block_level(const DataFamily& f, const DataPattern& dp, const TextureDesc& desc, uint64_t ex,
                          uint64_t ey, uint64_t ez, uint64_t offset, FamilyPlan* plan) {
  const unsigned k = log2u(desc.format.element_bytes);
  Pattern p;
  SWZ_TRY(morton_level(f, dp.pattern, k, log2u(ex), log2u(ey), log2u(ez), &p));
  LevelPlan lp;
  lp.slot = slot_for(plan, p);
  lp.size = ex * ey * ez * desc.format.element_bytes;
  lp.row_pitch = lp.size;
  lp.depth_pitch_B = lp.size;
  lp.offset = offset;
  plan->levels.push_back(lp);
  return Status::Ok();
}

// Array layers one whole chain apart (layer_stride= gives a platform's face alignment).
void stack_layers(const TextureDesc& desc, uint64_t chain_end, FamilyPlan* plan) {
  plan->arrays = Arrays::Stacked;
  plan->layer_stride_B = chain_end;
  plan->total_size = chain_end * desc.array_size;
}

}  // namespace

// PS3 (RPCS3 convert_linear_swizzle, calculate_z_index) and original Xbox
// (xemu swizzle.c): power-of-two textures, each level one Morton block, levels
// largest first and packed (RPCS3 get_subresources_layout; xemu's level
// offsets add each level's size).
Status build_morton(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  SWZ_TRY(need_pow2_sizes(f, desc, 1, "swizzled textures have power-of-two sizes"));
  const DataPattern* dp = nullptr;
  SWZ_TRY(select_pattern(f, desc, "", "", &dp));
  FamilyPlan plan;
  uint64_t offset = 0;
  for (uint32_t m = 0; m < desc.mip_levels; ++m) {
    const LevelDims L = level_dims(desc, m);
    SWZ_TRY(morton_block_level(f, *dp, desc, L.w_el, L.h_el, L.d, offset, &plan));
    offset += plan.levels.back().size;
  }
  stack_layers(desc, offset, &plan);
  *out = std::move(plan);
  return Status::Ok();
}

// PS Vita (Vita3K): swizzled textures are Morton blocks over the level's
// power-of-two extent (SWIZZLED_ARBITRARY pads); tiled textures are 32x32
// tiles row-major over ceil(width / 32) tiles (tiled_texture_to_linear_texture).
// Levels follow each other largest first, level m taking
// align(next_pow2(size) >> m, a) texels per axis (a = 32 tiled, the block
// otherwise), for at most bit_width(min(width, height)) levels
// (TextureCache::upload_texture, get_upload_mip).
Status build_vita(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  const DataPattern* dp = nullptr;
  SWZ_TRY(select_pattern(f, desc, "", "", &dp));
  const bool tiled = dp->tile_w != 0;
  const uint32_t max_levels = static_cast<uint32_t>(std::bit_width(std::min(desc.width, desc.height)));
  if (desc.mip_levels > max_levels)
    return {Code::unsupported, "layout '" + f.name + "': mip_levels = " + std::to_string(desc.mip_levels) +
                                        ": GXM keeps at most bit_width(min(width, height)) = " +
                                        std::to_string(max_levels) + " levels"};
  if (!tiled && desc.mip_levels > 1 && (!is_pow2(desc.width) || !is_pow2(desc.height)))
    return {Code::unsupported, "layout '" + f.name + "': mip_levels = " + std::to_string(desc.mip_levels) +
                                   " on a " + std::to_string(desc.width) + "x" + std::to_string(desc.height) +
                                   " texture: the level extents of padded (non-power-of-two) swizzled chains are not "
                                   "modelled"};
  FamilyPlan plan;
  uint64_t offset = 0;
  const uint64_t pw = next_pow2(desc.width), ph = next_pow2(desc.height);
  for (uint32_t m = 0; m < desc.mip_levels; ++m) {
    const LevelDims L = level_dims(desc, m);
    if (!tiled) {
      SWZ_TRY(morton_block_level(f, *dp, desc, next_pow2(L.w_el), next_pow2(L.h_el), 1, offset, &plan));
      offset += plan.levels.back().size;
      continue;
    }
    LevelPlan lp;
    lp.slot = slot_for(&plan, dp->pattern);
    SWZ_TRY(tiled_level(dp->pattern, desc, m, 0, f.name, &lp));
    lp.size = align_up(std::max<uint64_t>(1, pw >> m), 32) * align_up(std::max<uint64_t>(1, ph >> m), 32) *
              desc.format.element_bytes;
    lp.offset = offset;
    offset += lp.size;
    plan.levels.push_back(lp);
  }
  stack_layers(desc, offset, &plan);
  *out = std::move(plan);
  return Status::Ok();
}

// Dreamcast (Flycast core/rend/TexCache.cpp): power-of-two twiddled textures;
// a mipmapped texture is square and stored smallest level first, the level of
// 2^i x 2^i texels at texel 3 + (4^i - 1) / 3 (OtherMipPoint: 3 texels of
// padding, then 1x1, 2x2, ...), in bytes times the element size.
Status build_dreamcast(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  SWZ_TRY(need_pow2_sizes(f, desc, 1, "twiddled textures have power-of-two sizes"));
  if (desc.mip_levels > 1 && desc.width != desc.height)
    return {Code::unsupported, "layout '" + f.name + "': mip_levels = " + std::to_string(desc.mip_levels) +
                                        " needs a square texture (width = " + std::to_string(desc.width) +
                                        ", height = " + std::to_string(desc.height) + ")"};
  const DataPattern* dp = nullptr;
  SWZ_TRY(select_pattern(f, desc, "", "", &dp));
  FamilyPlan plan;
  const uint64_t eb = desc.format.element_bytes;
  uint64_t end = 0;
  for (uint32_t m = 0; m < desc.mip_levels; ++m) {
    const LevelDims L = level_dims(desc, m);
    const unsigned i = log2u(L.w_el);
    const uint64_t offset = desc.mip_levels > 1 ? (3 + ((uint64_t{1} << (2 * i)) - 1) / 3) * eb : 0;
    SWZ_TRY(morton_block_level(f, *dp, desc, L.w_el, L.h_el, 1, offset, &plan));
    end = std::max(end, offset + plan.levels.back().size);
  }
  stack_layers(desc, end, &plan);
  *out = std::move(plan);
  return Status::Ok();
}

// Nintendo 3DS (Citra MortonCopy, MortonCopyTile; Azahar inherits them): 8x8 Morton tiles row-major with
// the rows stored bottom-up, memory row = height - 1 - y. For power-of-two
// heights that is y XOR (height - 1): each level is one block (tile bits, the
// tile-column X bits, the tile-row Y bits) whose immediate flips every Y bit.
// Levels follow each other (each width x height x element bytes), down to 8x8.
Status build_3ds(BuildContext& c, const DataFamily& f, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  SWZ_TRY(need_pow2_sizes(f, desc, 8, "PICA200 textures are powers of two from 8 to 1024 texels"));
  const DataPattern* dp = nullptr;
  SWZ_TRY(select_pattern(f, desc, "", "", &dp));
  const unsigned k = log2u(desc.format.element_bytes);
  FamilyPlan plan;
  uint64_t offset = 0;
  for (uint32_t m = 0; m < desc.mip_levels; ++m) {
    const LevelDims L = level_dims(desc, m);
    if (L.w < 8 || L.h < 8)
      return {Code::unsupported, "layout '" + f.name + "': mip_levels = " + std::to_string(desc.mip_levels) +
                                          ": level " + std::to_string(m) + " would be " + std::to_string(L.w) + "x" +
                                          std::to_string(L.h) + " (3DS levels stop at 8x8)"};
    Pattern p = dp->pattern;
    unsigned n = p.block_bits();
    for (unsigned b = 3; b < log2u(L.w); ++b) p.interleave[n++] = BitEntry::make(Channel::X, k + b);
    for (unsigned b = 3; b < log2u(L.h); ++b) p.interleave[n++] = BitEntry::make(Channel::Y, b);
    for (unsigned i = 0; i < n; ++i)
      if (p.interleave[i].channel == static_cast<uint8_t>(Channel::Y)) p.immediate |= 1u << i;
    LevelPlan lp;
    lp.slot = slot_for(&plan, p);
    lp.size = uint64_t{L.w} * L.h * desc.format.element_bytes;
    lp.row_pitch = lp.size;
    lp.depth_pitch_B = lp.size;
    lp.offset = offset;
    offset += lp.size;
    plan.levels.push_back(lp);
  }
  stack_layers(desc, offset, &plan);
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace swz::vendor
