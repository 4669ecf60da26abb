// libFuzzer harness: write_to_subresource / read_from_subresource with random
// textures, layouts (row-major, standard swizzle, random patterns, device and
// vendor layouts), subresources, boxes, pitches, buffer sizes and backends.
// Both buffers are fenced by guard pages. Properties:
//  - on error: neither buffer changed, the message is not empty;
//  - on success: the source side is unchanged, and the destination equals
//    what the spec's reference address function (reference_offset, per byte)
//    says, byte for byte, including every byte the copy must not touch.
#include <algorithm>

#include "fuzz_common.hpp"

using namespace swz;
using namespace swz_fuzz;

namespace {

struct BoxEl {
  uint64_t x0, y0, z0, w, h, d;
};

// The box in elements, as D3D12 defines it for a valid box.
BoxEl elements(const SubresourceLayout& s, const FormatInfo& fmt, const Box& b) {
  auto cdiv = [](uint64_t a, uint64_t q) { return a / q + (a % q != 0); };
  BoxEl e;
  e.x0 = b.left / fmt.block_width;
  e.y0 = b.top / fmt.block_height;
  e.z0 = b.front;
  e.w = cdiv(b.right, fmt.block_width) - e.x0;
  e.h = cdiv(b.bottom, fmt.block_height) - e.y0;
  e.d = b.back - b.front;
  (void)s;
  return e;
}

uint32_t pick_coord(FuzzedDataProvider& f, uint32_t extent, uint32_t align) {
  switch (f.ConsumeIntegralInRange<int>(0, 9)) {
    case 0:
      return f.ConsumeIntegral<uint32_t>();
    case 1:
      return extent;
    case 2:
      return extent + 1;
    case 3:
      return f.ConsumeIntegralInRange<uint32_t>(0, extent);  // maybe unaligned
    default: {
      uint32_t v = f.ConsumeIntegralInRange<uint32_t>(0, extent);
      return std::min(extent, v / align * align);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider f(data, size);
  TextureDesc desc = pick_desc(f, Limits::copy());
  Layout L;
  if (!pick_layout(f, &desc, &L).ok()) return 0;
  SWZ_FUZZ_CHECK(L.subresource_count() > 0, L.name());
  const uint32_t sub = f.ConsumeIntegralInRange<int>(0, 15) == 0
                           ? f.ConsumeIntegral<uint32_t>()
                           : f.ConsumeIntegralInRange<uint32_t>(0, L.subresource_count() - 1);
  SubresourceLayout s;
  const bool valid_sub = L.subresource(sub, &s).ok();
  const FormatInfo& fmt = desc.format;

  Box box{};
  const Box* pbox = nullptr;
  if (valid_sub && f.ConsumeBool()) {
    pbox = &box;
    box.left = pick_coord(f, s.width, fmt.block_width);
    box.top = pick_coord(f, s.height, fmt.block_height);
    box.front = pick_coord(f, s.depth, 1);
    box.right = pick_coord(f, s.width, fmt.block_width);
    box.bottom = pick_coord(f, s.height, fmt.block_height);
    box.back = pick_coord(f, s.depth, 1);
    if (f.ConsumeBool()) {  // mostly well ordered
      if (box.left > box.right) std::swap(box.left, box.right);
      if (box.top > box.bottom) std::swap(box.top, box.bottom);
      if (box.front > box.back) std::swap(box.front, box.back);
    }
  }
  const Box whole{0, 0, 0, s.width, s.height, s.depth};
  const Box& b = pbox ? box : whole;
  const bool box_ok = valid_sub && b.right > b.left && b.bottom > b.top && b.back > b.front && b.right <= s.width &&
                      b.bottom <= s.height && b.back <= s.depth;
  BoxEl e{0, 0, 0, 1, 1, 1};
  if (box_ok) e = elements(s, fmt, b);
  const uint64_t eb = valid_sub ? s.element_bytes : 1;

  // Linear side: pitches and size around the tight values.
  const uint64_t row = e.w * eb;
  uint64_t rp = row, dp = row * e.h;
  switch (f.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      rp = f.ConsumeIntegral<uint64_t>();
      dp = f.ConsumeIntegral<uint64_t>();
      break;
    case 1:
      rp = row + f.ConsumeIntegralInRange<uint64_t>(0, 300);
      dp = rp * e.h + f.ConsumeIntegralInRange<uint64_t>(0, 300);
      break;
    case 2:
      rp = row ? row - 1 : 0;
      break;
    case 3:
      dp = dp ? dp - 1 : 0;
      break;
    default:
      break;
  }
  // The pitches the copy uses: 0 is the tight pitch (rp: a row; dp: the rows
  // at the pitch in use, one row for a one-row box).
  const uint64_t rp_used = rp ? rp : row;
  uint64_t dp_used = dp;
  if (!dp && __builtin_mul_overflow(e.h > 1 ? rp_used : row, e.h, &dp_used)) dp_used = UINT64_MAX;
  uint64_t need = 0;
  bool need_ok = !__builtin_mul_overflow(e.d - 1, dp_used, &need);
  uint64_t t = 0;
  need_ok = need_ok && !__builtin_mul_overflow(e.h - 1, rp_used, &t) && !__builtin_add_overflow(need, t, &need) &&
            !__builtin_add_overflow(need, row, &need);
  uint64_t lin_size = need_ok ? need : f.ConsumeIntegralInRange<uint64_t>(0, 4096);
  switch (f.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      lin_size = lin_size ? lin_size - 1 : 0;
      break;
    case 1:
      lin_size += f.ConsumeIntegralInRange<uint64_t>(1, 100);
      break;
    case 2:
      lin_size = f.ConsumeIntegral<uint64_t>();
      break;
    default:
      break;
  }
  uint64_t res_size = L.size();
  switch (f.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      res_size = res_size ? res_size - 1 : 0;
      break;
    case 1:
      res_size += f.ConsumeIntegralInRange<uint64_t>(1, 100);
      break;
    case 2:
      res_size = f.ConsumeIntegral<uint64_t>();
      break;
    default:
      break;
  }
  CopyOptions o;
  const int be = f.ConsumeIntegralInRange<int>(0, 3);
  o.backend = be == 0 ? Backend::Scalar : be == 1 ? Backend::Highway : be == 2 ? Backend::Xsimd : Backend::Auto;
  o.threads = f.ConsumeIntegralInRange<unsigned>(0, 3);
  o.write_combined = f.ConsumeBool();
  const bool to_swizzled = f.ConsumeBool();

  // Buffers too large to allocate are passed as null with their claimed
  // size: the call must then fail (after or before its checks), never touch them.
  const bool alloc_res = res_size <= kMaxCopyBuffer, alloc_lin = lin_size <= kMaxCopyBuffer;
  GuardedBuffer res(alloc_res ? res_size : 0), lin(alloc_lin ? lin_size : 0);
  res.fill_pattern(1);
  lin.fill_pattern(2);
  std::vector<uint8_t>&res0 = scratch(0), &lin0 = scratch(1);
  res.snapshot_into(&res0);
  lin.snapshot_into(&lin0);
  void* rptr = alloc_res ? res.data() : nullptr;
  void* lptr = alloc_lin ? lin.data() : nullptr;

  if (verbose()) {
    std::fprintf(stderr, "%s %ux%ux%u array %u mips %u samples %u, layout %s (%u subresources, %llu bytes), sub %u",
                 fmt.name, desc.width, desc.height, desc.depth, desc.array_size, desc.mip_levels, desc.samples,
                 L.name().c_str(), L.subresource_count(), static_cast<unsigned long long>(L.size()), sub);
    if (pbox)
      std::fprintf(stderr, " box (%u,%u,%u)-(%u,%u,%u)", box.left, box.top, box.front, box.right, box.bottom, box.back);
    std::fprintf(stderr,
                 "\n  %s, linear %llu bytes rp %llu dp %llu, resource %llu bytes, backend %s, threads %u, wc %d\n",
                 to_swizzled ? "write" : "read", static_cast<unsigned long long>(lin_size),
                 static_cast<unsigned long long>(rp), static_cast<unsigned long long>(dp),
                 static_cast<unsigned long long>(res_size), backend_name(o.backend), o.threads, o.write_combined);
    if (valid_sub)
      std::fprintf(stderr, "  pattern %s, row pitch %llu, depth pitch %llu, pre (%llu,%llu,%llu)\n",
                   to_text(L.patterns()[s.pattern_slot]).c_str(), static_cast<unsigned long long>(s.row_pitch),
                   static_cast<unsigned long long>(s.stack_depth ? s.stack_rows : s.depth_pitch_B),
                   static_cast<unsigned long long>(s.pre_swizzle[0]), static_cast<unsigned long long>(s.pre_swizzle[1]),
                   static_cast<unsigned long long>(s.pre_swizzle[2]));
  }
  Status st = to_swizzled ? write_to_subresource(L, rptr, res_size, sub, pbox, lptr, lin_size, rp, dp, o)
                          : read_from_subresource(lptr, lin_size, rp, dp, L, rptr, res_size, sub, pbox, o);
  SWZ_FUZZ_CHECK(res.canary_intact() && lin.canary_intact(), st.message());
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), std::string(code_name(st.code())));
    SWZ_FUZZ_CHECK(res.equals(res0) && lin.equals(lin0), "changed on error: " + st.message());
    return 0;
  }
  // Success implies a valid, non-empty request (or an empty box, a no-op).
  if (to_swizzled)
    SWZ_FUZZ_CHECK(lin.equals(lin0), "source changed");
  else
    SWZ_FUZZ_CHECK(res.equals(res0), "source changed");
  if (!box_ok) {
    SWZ_FUZZ_CHECK(res.equals(res0) && lin.equals(lin0), "empty box wrote");
    return 0;
  }
  SWZ_FUZZ_CHECK(alloc_res && alloc_lin, "success with a null buffer");
  SWZ_FUZZ_CHECK(!s.packed && desc.samples == 1, "copied a packed or MSAA subresource");
  SWZ_FUZZ_CHECK(s.offset + s.size <= res_size && need <= lin_size, "success with buffers too small");
  // The oracle, per byte, when the box is small enough (4 KiB: the same
  // kernels as larger boxes; reference_offset per byte costs more than the copy).
  if (e.w * e.h * e.d * eb > (uint64_t{1} << 12)) return 0;
  const Pattern& pat = L.patterns()[s.pattern_slot];
  AddressParams ap;
  ap.row_pitch = s.row_pitch;
  ap.depth_pitch_B = s.depth_pitch_B;
  ap.stack_rows = s.stack_rows;
  for (int i = 0; i < 3; ++i) ap.pre_swizzle[i] = s.pre_swizzle[i];
  std::vector<uint8_t>&sim_res = scratch(2), &sim_lin = scratch(3), &seen = scratch(4);
  sim_res.assign(res0.begin(), res0.end());
  sim_lin.assign(lin0.begin(), lin0.end());
  seen.assign(s.size, 0);  // the subresource's span: every box byte must land in it
  const bool pow2_el = eb <= 16 && (eb & (eb - 1)) == 0 && s.pre_swizzle[0] % eb == 0;
  for (uint64_t z = 0; z < e.d; ++z)
    for (uint64_t y = 0; y < e.h; ++y)
      for (uint64_t x = 0, first = 0; x < e.w * eb; ++x) {
        // The reference once per element: with power-of-two elements (at an
        // element-aligned pre-swizzle origin) the pattern's element rule
        // (validate: X0..X(k-1) in place, no terms on or from them) keeps an
        // element's bytes consecutive, so byte b is first + b.
        // (Once per byte would be a large part of this harness's time.)
        if (!pow2_el || x % eb == 0) first = s.offset + reference_offset(pat, e.x0 * eb + x, e.y0 + y, e.z0 + z, 0, ap);
        const uint64_t off = pow2_el ? first + x % eb : first;
        SWZ_FUZZ_CHECK(off >= s.offset && off < s.offset + s.size, "reference offset outside the subresource span");
        SWZ_FUZZ_CHECK(!seen[off - s.offset], "two bytes of the box map to one resource byte");
        seen[off - s.offset] = 1;
        const uint64_t l = z * dp_used + y * rp_used + x;
        if (to_swizzled)
          sim_res[off] = lin0[l];
        else
          sim_lin[l] = res0[off];
      }
  if (to_swizzled) {
    if (!res.equals(sim_res)) {
      size_t i = 0;
      while (res.data()[i] == sim_res[i]) ++i;
      fail("resource differs from the reference",
           "first at byte " + std::to_string(i) + " of " + L.name() + " sub " + std::to_string(sub));
    }
  } else {
    if (!lin.equals(sim_lin)) {
      size_t i = 0;
      while (lin.data()[i] == sim_lin[i]) ++i;
      fail("linear buffer differs from the reference",
           "first at byte " + std::to_string(i) + " of " + L.name() + " sub " + std::to_string(sub));
    }
  }
  return 0;
}
