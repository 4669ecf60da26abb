// libFuzzer harness: copy_placed_footprint (swz/footprint.hpp) in both
// directions between a random layout's subresource and a footprint with
// random (usually valid) offset, format, size and row pitch, 0..3 regions with
// random boxes and destinations, buffers fenced by guard pages.
// Properties: on error nothing changed; on success only the destination
// changed, exactly as a per-byte simulation through reference_offset and the
// D3D12_PLACED_SUBRESOURCE_FOOTPRINT formula says.
#include <algorithm>

#include "fuzz_common.hpp"
#include "swz/footprint.hpp"

using namespace swz;
using namespace swz_fuzz;

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider f(data, size);
  TextureDesc d = pick_desc(f, Limits::copy());
  Layout L;
  if (!pick_layout(f, &d, &L).ok() || L.size() > kMaxCopyBuffer) return 0;
  const uint32_t sub = f.ConsumeIntegralInRange<int>(0, 15) == 0
                           ? f.ConsumeIntegral<uint32_t>()
                           : f.ConsumeIntegralInRange<uint32_t>(0, L.subresource_count() - 1);
  SubresourceLayout s{};
  (void)L.subresource(sub, &s);
  const uint32_t bw = d.format.block_width, bh = d.format.block_height;

  PlacedFootprint fp;
  fp.format = d.format;
  if (d.format.planes > 1 && sub < L.subresource_count()) {
    PlaneInfo pi;
    if (plane_info(d.format, s.plane, &pi).ok()) (void)find_format(pi.format_name, &fp.format);
  }
  if (f.ConsumeIntegralInRange<int>(0, 9) == 0) fp.format = pick_format(f);
  const uint32_t fbw = fp.format.block_width, fbh = fp.format.block_height;
  fp.width = f.ConsumeIntegralInRange<int>(0, 9) == 0 ? pick_extent(f, 64)
                                                      : (s.width_el + f.ConsumeIntegralInRange<uint32_t>(0, 2)) * fbw;
  fp.height = f.ConsumeIntegralInRange<int>(0, 9) == 0 ? pick_extent(f, 64)
                                                       : (s.height_el + f.ConsumeIntegralInRange<uint32_t>(0, 2)) * fbh;
  fp.depth =
      f.ConsumeIntegralInRange<int>(0, 9) == 0 ? pick_extent(f, 8) : s.depth + f.ConsumeIntegralInRange<uint32_t>(0, 1);
  fp.offset_B = f.ConsumeIntegralInRange<int>(0, 9) == 0 ? f.ConsumeIntegral<uint64_t>()
                                                         : 512 * f.ConsumeIntegralInRange<uint64_t>(0, 3);
  const uint64_t row = uint64_t{fp.width / std::max(1u, fbw)} * fp.format.element_bytes;
  fp.row_pitch_B = f.ConsumeIntegralInRange<int>(0, 9) == 0
                       ? f.ConsumeIntegral<uint32_t>()
                       : (row + 255) / 256 * 256 + 256 * f.ConsumeIntegralInRange<uint64_t>(0, 1);
  const FootprintCopyDirection dir =
      f.ConsumeBool() ? FootprintCopyDirection::BufferToTexture : FootprintCopyDirection::TextureToBuffer;
  const bool to_texture = dir == FootprintCopyDirection::BufferToTexture;

  std::vector<FootprintRegion> regs(f.ConsumeIntegralInRange<size_t>(0, 3));
  for (auto& r : regs) {
    const uint32_t sw = to_texture ? fp.width : s.width, sh = to_texture ? fp.height : s.height,
                   sd = to_texture ? fp.depth : s.depth;
    const uint32_t dw = to_texture ? s.width : fp.width, dh = to_texture ? s.height : fp.height,
                   ddp = to_texture ? s.depth : fp.depth;
    r.whole_source = f.ConsumeIntegralInRange<int>(0, 3) == 0;
    r.src_box.left = pick_box_coord(f, sw, bw);
    r.src_box.top = pick_box_coord(f, sh, bh);
    r.src_box.front = pick_box_coord(f, sd, 1);
    r.src_box.right = std::max(r.src_box.left, pick_box_coord(f, sw, bw));
    r.src_box.bottom = std::max(r.src_box.top, pick_box_coord(f, sh, bh));
    r.src_box.back = std::max(r.src_box.front, pick_box_coord(f, sd, 1));
    r.dst_x = pick_box_coord(f, dw, bw);
    r.dst_y = pick_box_coord(f, dh, bh);
    r.dst_z = pick_box_coord(f, ddp, 1);
  }
  uint64_t fp_bytes = 0;
  const bool fp_ok = footprint_bytes(fp, &fp_bytes).ok();
  uint64_t bsize =
      fp_ok && fp.offset_B <= kMaxCopyBuffer ? fp.offset_B + fp_bytes : f.ConsumeIntegralInRange<uint64_t>(0, 1 << 16);
  if (f.ConsumeIntegralInRange<int>(0, 5) == 0) bsize = bsize ? bsize - 1 : 0;
  uint64_t rsize = L.size();
  if (f.ConsumeIntegralInRange<int>(0, 7) == 0) rsize = rsize ? rsize - 1 : 0;
  if (bsize > kMaxCopyBuffer) return 0;
  GuardedBuffer buf(bsize), res(rsize);
  buf.fill_pattern(5);
  res.fill_pattern(6);
  std::vector<uint8_t>&b0 = scratch(0), &r0 = scratch(1);
  buf.snapshot_into(&b0);
  res.snapshot_into(&r0);

  Status st = copy_placed_footprint(L, res.data(), rsize, sub, buf.data(), bsize, fp, dir,
                                    regs.empty() ? nullptr : regs.data(), regs.size());
  SWZ_FUZZ_CHECK(buf.canary_intact() && res.canary_intact(), st.message());
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    SWZ_FUZZ_CHECK(st.code() != Code::internal, st.message());
    SWZ_FUZZ_CHECK(buf.equals(b0) && res.equals(r0), "changed on error: " + st.message());
    return 0;
  }
  SWZ_FUZZ_CHECK(to_texture ? buf.equals(b0) : res.equals(r0), "the source changed");
  // Simulate per byte. Regions of one call do not overlap in the destination.
  const SubresourceLayout& S = L.sub(sub);
  const Pattern& pat = L.patterns()[S.pattern_slot];
  const AddressParams a = address_params(S);
  const uint64_t eb = S.element_bytes, rows = fp.height / bh, slice = fp.row_pitch_B * rows;
  std::vector<uint8_t>&want_b = scratch(2), &want_r = scratch(3);
  want_b.assign(b0.begin(), b0.end());
  want_r.assign(r0.begin(), r0.end());
  const bool pow2_el = eb != 0 && eb <= 16 && (eb & (eb - 1)) == 0 && S.pre_swizzle[0] % eb == 0;
  const FootprintRegion whole{};
  const size_t n = regs.empty() ? 1 : regs.size();
  uint64_t work = 0;
  for (size_t i = 0; i < n; ++i) {
    const FootprintRegion& r = regs.empty() ? whole : regs[i];
    Box b = r.whole_source
                ? (to_texture ? Box{0, 0, 0, fp.width, fp.height, fp.depth} : Box{0, 0, 0, S.width, S.height, S.depth})
                : r.src_box;
    if (b.right <= b.left || b.bottom <= b.top || b.back <= b.front) continue;
    const uint64_t x0 = b.left / bw, y0 = b.top / bh, w = ceil_div(b.right, bw) - x0, h = ceil_div(b.bottom, bh) - y0,
                   dd = b.back - b.front;
    const uint64_t dx = r.dst_x / bw, dy = r.dst_y / bh, dz = r.dst_z;
    work += w * h * dd * eb;
    if (work > (uint64_t{1} << 13)) return 0;  // the per-byte simulation for small regions only
    for (uint64_t z = 0; z < dd; ++z)
      for (uint64_t y = 0; y < h; ++y)
        for (uint64_t x = 0, first = 0; x < w * eb; ++x) {
          // Texture side (tx, ty, tz) in elements; footprint side likewise.
          const uint64_t tx = to_texture ? dx : x0, ty = to_texture ? dy : y0, tz = to_texture ? dz : b.front;
          const uint64_t fx = to_texture ? x0 : dx, fy = to_texture ? y0 : dy, fz = to_texture ? b.front : dz;
          // The reference once per element when elements are a power of two bytes at an
          // element-aligned pre-swizzle origin (the element rule keeps an element's bytes
          // consecutive, as in fuzz_copy_subresource); per byte otherwise.
          if (!pow2_el || x % eb == 0) first = S.offset + reference_offset(pat, tx * eb + x, ty + y, tz + z, 0, a);
          const uint64_t ro = pow2_el ? first + x % eb : first;
          const uint64_t bo = fp.offset_B + (fz + z) * slice + (fy + y) * fp.row_pitch_B + fx * eb + x;
          SWZ_FUZZ_CHECK(ro < rsize && bo < bsize, "simulated offset outside the buffers");
          if (to_texture)
            want_r[ro] = b0[bo];
          else
            want_b[bo] = r0[ro];
        }
  }
  SWZ_FUZZ_CHECK(res.equals(want_r), "resource differs from the simulation (" + L.name() + ")");
  SWZ_FUZZ_CHECK(buf.equals(want_b), "buffer differs from the simulation (" + L.name() + ")");
  return 0;
}
