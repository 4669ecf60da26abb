// NVIDIA block-linear layouts (Tegra X1 / Switch, desktop Turing+, Blackwell).
//
// Rules (patterns/vendor/README.md has the sources):
//  * GOB = 64 bytes x 8 rows (9 address bits, order from patterns/vendor/nvidia.json);
//    a block is 1 GOB wide, bh GOBs tall, bd GOBs deep: address bits 9.. are
//    Y3..Y(2+log2 bh) then Z0..Z(log2 bd - 1). Blocks are row-major.
//  * per level: width padded to whole GOBs (64 bytes), height to 8*bh rows,
//    depth to bd slices; bh and bd shrink while the level fits in half a block
//    (tegra_swizzle mip_block_height / mip_block_depth, Ryujinx SizeCalculator,
//    NIL Tiling::clamp), at every level including level 0.
//  * levels packed back to back inside a layer; layers at the layer size
//    aligned up to the level-0 block (512*bh*bd; tegra_swizzle align_layer_size,
//    Ryujinx AlignLayerSize).
//  * omitted bh/bd: gob=tegra follows tegra_swizzle (block_height_mip0: h + h/2
//    >= 128/64/32/16 -> 16/8/4/2, else 1; 3D: bh = 1 and block_depth(depth) by
//    the same thresholds on depth); gob=turing/blackwell follow NIL
//    Tiling::choose (bh = min(32, next power of two of the height in GOBs),
//    bd likewise from the depth for 3D).
#include <algorithm>

#include "core/json_strict.hpp"
#include "hw/hw_internal.hpp"
#include "swz/layout_names.hpp"

namespace swz::vendor {
namespace {

uint32_t tegra_block_height_mip0(uint32_t h) {
  uint32_t hh = h + h / 2;
  return hh >= 128 ? 16 : hh >= 64 ? 8 : hh >= 32 ? 4 : hh >= 16 ? 2 : 1;
}

uint32_t tegra_block_depth(uint32_t d) {
  uint32_t dd = d + d / 2;
  return dd >= 16 ? 16 : dd >= 8 ? 8 : dd >= 4 ? 4 : dd >= 2 ? 2 : 1;
}

uint32_t clamp_bh(uint32_t bh, uint32_t h_el) {
  while (bh > 1 && h_el <= (bh / 2) * 8) bh /= 2;
  return bh;
}

uint32_t clamp_bd(uint32_t bd, uint32_t d) {
  while (bd > 1 && d <= bd / 2) bd /= 2;
  return bd;
}

struct NvParams {
  const NvGob* gob = nullptr;
  std::string gob_name;
  uint64_t bh = 0, bd = 0;  // 0 = infer
  bool bh_given = false, bd_given = false;
};

Status parse_nv(const VendorData& d, Params& p, uint32_t element_bytes, NvParams* out) {
  NvParams n;
  n.gob_name = p.str("gob", "tegra");
  std::string g = n.gob_name;
  if (g == "switch" || g == "tx1") g = "tegra";
  if (g == "desktop" || g == "xavier" || g == "orin") g = "turing";
  if (g == "fermi") return {Code::unsupported, "nv-block-linear: gob=fermi is not expressible: " + d.fermi_note};
  if (g == "blackwell" || g == "gb20x")
    g = element_bytes == 1 ? "blackwell8" : element_bytes == 2 ? "blackwell16" : "turing";
  for (const NvGob& x : d.gobs)
    if (x.gob == g) n.gob = &x;
  if (!n.gob)
    return {Code::invalid_argument,
            "nv-block-linear: gob = " + detail::quoted_for_message(n.gob_name, 64, '\'') +
                " (known: tegra (alias switch), turing (alias desktop, xavier, orin), blackwell, "
                "blackwell8, blackwell16; fermi is not expressible)"};
  if (!n.gob->element_bytes.empty() &&
      std::find(n.gob->element_bytes.begin(), n.gob->element_bytes.end(), element_bytes) == n.gob->element_bytes.end())
    return {Code::invalid_argument, "nv-block-linear: gob = " + g + " is only used for " +
                                        std::to_string(n.gob->element_bytes.front()) + "-byte formats (this one has " +
                                        std::to_string(element_bytes) + ")"};
  SWZ_TRY(p.u64("bh", &n.bh, &n.bh_given));
  SWZ_TRY(p.u64("bd", &n.bd, &n.bd_given));
  if (n.bh_given && (!is_pow2(n.bh) || n.bh > 32))
    return {Code::invalid_argument,
            "nv-block-linear: bh = " + std::to_string(n.bh) + " (block height in GOBs: 1, 2, 4, 8, 16 or 32)"};
  if (n.bd_given && (!is_pow2(n.bd) || n.bd > 32))
    return {Code::invalid_argument,
            "nv-block-linear: bd = " + std::to_string(n.bd) + " (block depth in GOBs: 1, 2, 4, 8, 16 or 32)"};
  *out = n;
  return Status::Ok();
}

Pattern make_pattern(const NvGob& g, uint32_t bh, uint32_t bd) {
  Pattern p;
  unsigned i = 0;
  for (const BitEntry& e : g.bits) p.interleave[i++] = e;
  for (unsigned b = 0; (1u << b) < bh; ++b) p.interleave[i++] = BitEntry::make(Channel::Y, 3 + b);
  for (unsigned b = 0; (1u << b) < bd; ++b) p.interleave[i++] = BitEntry::make(Channel::Z, b);
  return p;
}

}  // namespace

Status build_nvidia(BuildContext& c, FamilyPlan* out) {
  const TextureDesc& desc = c.desc;
  const uint32_t eb = desc.format.element_bytes;
  NvParams n;
  SWZ_TRY(parse_nv(c.data, c.params, eb, &n));
  if (desc.samples > 1)
    return {Code::unsupported, "nv-block-linear: samples = " + std::to_string(desc.samples) +
                                   " (MSAA sample placement in block-linear surfaces is not in the public sources)"};
  const bool is3d = desc.dimension == Dimension::Texture3D;
  const LevelDims l0 = level_dims(desc, 0);
  const bool tegra = n.gob->gob == "tegra";
  uint32_t bh0, bd0;
  if (n.bh_given)
    bh0 = static_cast<uint32_t>(n.bh);
  else if (tegra)
    bh0 = is3d && l0.d > 1 ? 1 : tegra_block_height_mip0(l0.h_el);
  else
    bh0 = static_cast<uint32_t>(std::min<uint64_t>(32, next_pow2(ceil_div(l0.h_el, 8))));
  if (n.bd_given)
    bd0 = static_cast<uint32_t>(n.bd);
  else if (!is3d)
    bd0 = 1;
  else if (tegra)
    bd0 = tegra_block_depth(l0.d);
  else
    bd0 = static_cast<uint32_t>(std::min<uint64_t>(32, next_pow2(l0.d)));

  FamilyPlan plan;
  plan.arrays = Arrays::Stacked;
  uint64_t offset = 0;
  std::vector<std::pair<uint32_t, uint32_t>> shapes;
  for (uint32_t m = 0; m < desc.mip_levels; ++m) {
    const LevelDims L = level_dims(desc, m);
    const uint32_t bh = clamp_bh(bh0, L.h_el);
    const uint32_t bd = clamp_bd(bd0, L.d);
    int slot = -1;
    for (size_t i = 0; i < shapes.size(); ++i)
      if (shapes[i] == std::make_pair(bh, bd)) slot = static_cast<int>(i);
    if (slot < 0) {
      slot = static_cast<int>(shapes.size());
      shapes.push_back({bh, bd});
      plan.patterns.push_back(make_pattern(*n.gob, bh, bd));
    }
    const uint64_t block_bytes = uint64_t{512} * bh * bd;
    const uint64_t gobs_x = ceil_div(uint64_t{L.w_el} * eb, 64);
    const uint64_t rows = ceil_div(L.h_el, uint64_t{8} * bh);
    const uint64_t slabs = ceil_div(L.d, bd);
    LevelPlan lp;
    lp.slot = slot;
    lp.row_pitch = gobs_x * block_bytes;
    lp.depth_pitch_B = rows * lp.row_pitch;
    lp.offset = offset;
    lp.size = slabs * lp.depth_pitch_B;
    offset += lp.size;
    plan.levels.push_back(lp);
    if (m == 0) plan.layer_align = block_bytes;
  }
  plan.layer_stride_B = desc.array_size > 1 ? align_up(offset, plan.layer_align) : offset;
  plan.total_size = plan.layer_stride_B * desc.array_size;
  plan.notes.push_back("gob=" + n.gob->gob + ", level-0 bh=" + std::to_string(bh0) + " bd=" + std::to_string(bd0) +
                       (n.bh_given ? "" : " (bh inferred)"));
  *out = std::move(plan);
  return Status::Ok();
}

Status describe_nvidia(const VendorData& d, Params& p, uint32_t element_bytes, std::string* out) {
  NvParams n;
  SWZ_TRY(parse_nv(d, p, element_bytes, &n));
  const uint32_t bh = n.bh_given ? static_cast<uint32_t>(n.bh) : 16;
  const uint32_t bd = n.bd_given ? static_cast<uint32_t>(n.bd) : 1;
  Pattern pat = make_pattern(*n.gob, bh, bd);
  std::string s = to_text(pat) + "\n";
  s += block_extent_text(pat, element_bytes) + ", gob=" + n.gob->gob + " (" + n.gob->note +
       "), bh=" + std::to_string(bh) +
       (n.bh_given ? "" : " (default shown; omitted bh is inferred from the surface height)") +
       ", bd=" + std::to_string(bd) + "\n";
  s += "placement: blocks row-major, row pitch = ceil(width bytes / 64) x block bytes; per level bh/bd shrink while "
       "the level fits in "
       "half a block; levels packed; layers aligned to the level-0 block\n";
  *out = s;
  return Status::Ok();
}

}  // namespace swz::vendor
