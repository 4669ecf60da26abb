// libFuzzer harness: copy_regions between two random layouts (same format
// most of the time), 1..4 regions with random boxes and destinations, buffers
// fenced by guard pages, sometimes the same buffer and layout on both sides.
// Properties: on error nothing changed; on success the destination equals a
// per-byte simulation through reference_offset, applied region by region.
#include <algorithm>

#include "fuzz_common.hpp"

using namespace swz;
using namespace swz_fuzz;

namespace {}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider f(data, size);
  TextureDesc dd = pick_desc(f, Limits::copy());
  Layout DL;
  if (!pick_layout(f, &dd, &DL).ok()) return 0;
  const bool alias = f.ConsumeIntegralInRange<int>(0, 4) == 0;
  Layout SL_own;
  TextureDesc sd = dd;
  if (!alias) {
    sd = pick_desc(f, Limits::copy());
    if (f.ConsumeIntegralInRange<int>(0, 7) != 0) sd.format = dd.format;
    if (!pick_layout(f, &sd, &SL_own).ok()) return 0;
  }
  const Layout& SL = alias ? DL : SL_own;

  std::vector<RegionCopy> regs(f.ConsumeIntegralInRange<size_t>(0, 4));
  for (auto& r : regs) {
    const bool wild = f.ConsumeIntegralInRange<int>(0, 9) == 0;
    r.dst_subresource =
        wild ? f.ConsumeIntegral<uint32_t>() : f.ConsumeIntegralInRange<uint32_t>(0, DL.subresource_count() - 1);
    r.src_subresource =
        wild ? f.ConsumeIntegral<uint32_t>() : f.ConsumeIntegralInRange<uint32_t>(0, SL.subresource_count() - 1);
    SubresourceLayout ss{}, ds{};
    (void)SL.subresource(r.src_subresource, &ss);
    (void)DL.subresource(r.dst_subresource, &ds);
    const uint32_t bw = sd.format.block_width, bh = sd.format.block_height;
    r.whole_source = f.ConsumeIntegralInRange<int>(0, 3) == 0;
    r.src_box.left = pick_box_coord(f, ss.width, bw);
    r.src_box.top = pick_box_coord(f, ss.height, bh);
    r.src_box.front = pick_box_coord(f, ss.depth, 1);
    r.src_box.right = std::max(r.src_box.left, pick_box_coord(f, ss.width, bw));
    r.src_box.bottom = std::max(r.src_box.top, pick_box_coord(f, ss.height, bh));
    r.src_box.back = std::max(r.src_box.front, pick_box_coord(f, ss.depth, 1));
    if (f.ConsumeIntegralInRange<int>(0, 9) == 0) std::swap(r.src_box.left, r.src_box.right);
    r.dst_x = pick_box_coord(f, ds.width, bw);
    r.dst_y = pick_box_coord(f, ds.height, bh);
    r.dst_z = pick_box_coord(f, ds.depth, 1);
  }
  uint64_t dsize = DL.size(), ssize = SL.size();
  if (f.ConsumeIntegralInRange<int>(0, 5) == 0) dsize = dsize ? dsize - 1 : 0;
  if (f.ConsumeIntegralInRange<int>(0, 5) == 0) ssize = ssize ? ssize - 1 : 0;
  if (f.ConsumeIntegralInRange<int>(0, 9) == 0) dsize = f.ConsumeIntegral<uint64_t>();
  if (alias) ssize = dsize;
  const bool alloc = dsize <= kMaxCopyBuffer && ssize <= kMaxCopyBuffer;
  GuardedBuffer dst(alloc ? dsize : 0), src_own(alloc && !alias ? ssize : 0);
  GuardedBuffer& src = alias ? dst : src_own;
  dst.fill_pattern(3);
  if (!alias) src.fill_pattern(4);
  std::vector<uint8_t>&d0 = scratch(0), &s0 = scratch(1);
  dst.snapshot_into(&d0);
  src.snapshot_into(&s0);
  void* dptr = alloc ? dst.data() : nullptr;
  const void* sptr = alloc ? src.data() : nullptr;

  Status st = copy_regions(DL, dptr, dsize, SL, sptr, ssize, regs.data(), regs.size());
  SWZ_FUZZ_CHECK(dst.canary_intact() && src.canary_intact(), st.message());
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    SWZ_FUZZ_CHECK(dst.equals(d0) && src.equals(s0), "changed on error: " + st.message());
    return 0;
  }
  if (!alias) SWZ_FUZZ_CHECK(src.equals(s0), "source changed");
  if (!alloc) {
    SWZ_FUZZ_CHECK(regs.empty(), "success with null buffers");  // only possible when nothing is copied...
    return 0;
  }
  // Simulate, region by region, per byte.
  uint64_t work = 0;
  std::vector<uint8_t>& sim = scratch(2);
  sim.assign(d0.begin(), d0.end());
  for (const auto& r : regs) {
    const SubresourceLayout& ss = SL.sub(r.src_subresource);
    const SubresourceLayout& ds = DL.sub(r.dst_subresource);
    Box b = r.whole_source ? Box{0, 0, 0, ss.width, ss.height, ss.depth} : r.src_box;
    if (b.right <= b.left || b.bottom <= b.top || b.back <= b.front) continue;
    const uint32_t bw = sd.format.block_width, bh = sd.format.block_height;
    const uint64_t x0 = b.left / bw, y0 = b.top / bh, w = (b.right + bw - 1) / bw - x0,
                   h = (b.bottom + bh - 1) / bh - y0, d = b.back - b.front;
    const uint64_t eb = ss.element_bytes;
    work += w * h * d * eb;
    if (work > (uint64_t{1} << 13)) return 0;  // the per-byte simulation for small regions only
    const Pattern& sp = SL.patterns()[ss.pattern_slot];
    const Pattern& dp = DL.patterns()[ds.pattern_slot];
    const AddressParams sa = address_params(ss), da = address_params(ds);
    const uint64_t dx0 = r.dst_x / bw, dy0 = r.dst_y / bh;
    // With one buffer on both sides, subresources that share memory (mips in
    // one tail block) can make a region read bytes it writes; the result then
    // depends on the order of the copy, which is unspecified: skip the oracle.
    std::vector<uint8_t>& before = scratch(3);
    if (alias) before.assign(sim.begin(), sim.end());
    const uint8_t* from = alias ? before.data() : s0.data();
    static std::vector<std::pair<uint64_t, uint64_t>> moves;  // capacity kept between inputs (see scratch)
    moves.clear();
    moves.reserve(w * h * d * eb);
    // The reference once per element when both sides have power-of-two elements of this size at
    // element-aligned pre-swizzle origins (the element rule keeps an element's bytes consecutive,
    // as in fuzz_copy_subresource); per byte otherwise.
    const bool pow2_el = eb != 0 && eb <= 16 && (eb & (eb - 1)) == 0 && ds.element_bytes == eb &&
                         ss.pre_swizzle[0] % eb == 0 && ds.pre_swizzle[0] % eb == 0;
    std::vector<uint8_t>& written = scratch(4);
    written.assign(alias ? dsize : 0, 0);
    for (uint64_t z = 0; z < d; ++z)
      for (uint64_t y = 0; y < h; ++y)
        for (uint64_t x = 0, sfirst = 0, dfirst = 0; x < w * eb; ++x) {
          if (!pow2_el || x % eb == 0) {
            sfirst = ss.offset + reference_offset(sp, x0 * eb + x, y0 + y, b.front + z, 0, sa);
            dfirst = ds.offset + reference_offset(dp, dx0 * eb + x, dy0 + y, r.dst_z + z, 0, da);
          }
          const uint64_t so = pow2_el ? sfirst + x % eb : sfirst;
          const uint64_t dof = pow2_el ? dfirst + x % eb : dfirst;
          SWZ_FUZZ_CHECK(so < ssize && dof < dsize, "reference offset outside the buffers");
          moves.emplace_back(dof, so);
          if (alias) written[dof] = 1;
        }
    for (const auto& [dof, so] : moves) {
      if (alias && written[so]) return 0;
      sim[dof] = from[so];
    }
  }
  if (!dst.equals(sim)) {
    size_t i = 0;
    while (dst.data()[i] == sim[i]) ++i;
    fail("destination differs from the reference",
         "first at byte " + std::to_string(i) + " (" + DL.name() + " <- " + SL.name() + ")");
  }
  return 0;
}
