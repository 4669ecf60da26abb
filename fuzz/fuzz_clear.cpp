// libFuzzer harness: clear_subresources, fill_buffers and resolve_subresource
// with random layouts (any kind, MSAA sometimes), descriptors that are often
// hostile (wild subresources, boxes off the block grid, other formats, short
// buffers), buffers fenced by guard pages. Properties: on error nothing
// changed and the message is not empty; on success every changed byte of a
// clear is a byte of an element of a subresource the clear names, holding the
// encoded value of that plane (located with swz::locate, the inverse map);
// fills equal a byte loop; a resolve changes only bytes of the destination
// subresource's elements inside the destination rectangle.
#include <algorithm>
#include <array>

#include "fuzz_common.hpp"
#include "swz/clear.hpp"

using namespace swz;
using namespace swz_fuzz;

namespace {

uint32_t pick_format_value(FuzzedDataProvider& f) {
  static const uint32_t kFormats[] = {0,  0,  0,  2,  10, 24, 26, 28, 29,  31,  42,  45, 54,
                                      61, 67, 71, 77, 81, 95, 96, 98, 103, 107, 115, 27};
  if (f.ConsumeIntegralInRange<int>(0, 15) == 0) return f.ConsumeIntegral<uint32_t>();
  return kFormats[f.ConsumeIntegralInRange<size_t>(0, sizeof(kFormats) / sizeof(kFormats[0]) - 1)];
}

ClearValue pick_value(FuzzedDataProvider& f) {
  ClearValue v;
  for (auto& b : v.bytes) b = f.ConsumeIntegral<uint8_t>();
  if (f.ConsumeBool()) {
    const float pick[] = {0.0f, 1.0f, 0.5f, -1.0f, 65520.0f, 1e30f, -0.0f, 0.25f};
    for (int i = 0; i < 4; ++i) {
      const float x = pick[f.ConsumeIntegralInRange<int>(0, 7)];
      std::memcpy(v.bytes + 4 * i, &x, 4);
    }
  }
  return v;
}

void fuzz_clear(FuzzedDataProvider& f) {
  TextureDesc d = pick_desc(f, Limits::copy());
  Layout L;
  if (!pick_layout(f, &d, &L).ok() || L.size() > kMaxCopyBuffer) return;
  std::vector<ClearDesc> descs(f.ConsumeIntegralInRange<size_t>(0, 3));
  for (auto& c : descs) {
    const int k = f.ConsumeIntegralInRange<int>(0, 9);
    c.subresource = k == 0   ? kAllSubresources
                    : k == 1 ? f.ConsumeIntegral<uint32_t>()
                             : f.ConsumeIntegralInRange<uint32_t>(0, L.subresource_count() - 1);
    SubresourceLayout s{};
    (void)L.subresource(c.subresource == kAllSubresources ? 0 : c.subresource, &s);
    c.whole = f.ConsumeIntegralInRange<int>(0, 3) == 0;
    const uint32_t bw = d.format.block_width, bh = d.format.block_height;
    c.box.left = pick_box_coord(f, s.width, bw);
    c.box.top = pick_box_coord(f, s.height, bh);
    c.box.front = pick_box_coord(f, s.depth, 1);
    c.box.right = std::max(c.box.left, pick_box_coord(f, s.width, bw));
    c.box.bottom = std::max(c.box.top, pick_box_coord(f, s.height, bh));
    c.box.back = std::max(c.box.front, pick_box_coord(f, s.depth, 1));
    if (f.ConsumeIntegralInRange<int>(0, 5) == 0) c.format_dxgi = pick_format_value(f);
    c.value = pick_value(f);
  }
  uint64_t size = L.size();
  if (f.ConsumeIntegralInRange<int>(0, 7) == 0) size = size ? size - 1 : 0;
  GuardedBuffer buf(size);
  buf.fill_pattern(7);
  std::vector<uint8_t>& b0 = scratch(0);
  buf.snapshot_into(&b0);
  if (verbose()) {
    std::fprintf(stderr, "clear: %s %ux%ux%u mips %u array %u samples %u kind %d size %llu\n", d.format.name, d.width,
                 d.height, d.depth, d.mip_levels, d.array_size, d.samples, static_cast<int>(L.kind()),
                 static_cast<unsigned long long>(size));
    for (const auto& c : descs)
      std::fprintf(stderr, "  sub %u whole %d box (%u,%u,%u)-(%u,%u,%u) fmt %u\n", c.subresource, c.whole, c.box.left,
                   c.box.top, c.box.front, c.box.right, c.box.bottom, c.box.back, c.format_dxgi);
  }
  const Status st = clear_subresources(L, buf.data(), size, descs.data(), descs.size());
  SWZ_FUZZ_CHECK(buf.canary_intact(), st.message());
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    SWZ_FUZZ_CHECK(buf.equals(b0), "changed on error: " + st.message());
    return;
  }
  // The locator (the inverse map over every subresource) is built at the first changed byte:
  // clears that change nothing (empty boxes, a value equal to the bytes there) need none, and
  // building it for every input would be a large part of this harness's time.
  Locator loc;
  bool have_loc = false;
  // Each clear's encoded element per plane, computed once: a BC6H/BC7 encode searches
  // modes and partitions, and one per changed byte made inputs take seconds.
  struct Encoded {
    bool tried = false, ok = false;
    uint8_t e[16] = {};
  };
  std::vector<std::array<Encoded, 4>> enc(descs.size());
  size_t checked = 0;
  for (uint64_t i = next_difference(buf.data(), b0.data(), 0, size); i < size && checked < 512;
       i = next_difference(buf.data(), b0.data(), i + 1, size)) {
    ++checked;
    if (!have_loc) {
      SWZ_FUZZ_CHECK(Locator::make(L, &loc).ok(), "Locator::make");
      have_loc = true;
    }
    Location where;
    SWZ_FUZZ_CHECK(loc.locate(i, &where).ok(), "locate");
    if (verbose())
      std::fprintf(stderr,
                   "  byte %llu: sub %u padding %d packed %d (sub offset %llu size %llu %ux%u el, pitch %llu, depth "
                   "pitch %llu, mip %u plane %u)\n",
                   static_cast<unsigned long long>(i), where.subresource, where.padding, where.packed,
                   static_cast<unsigned long long>(L.sub(where.subresource).offset),
                   static_cast<unsigned long long>(L.sub(where.subresource).size), L.sub(where.subresource).width_el,
                   L.sub(where.subresource).height_el,
                   static_cast<unsigned long long>(L.sub(where.subresource).row_pitch),
                   static_cast<unsigned long long>((L.sub(where.subresource).stack_depth
                                                        ? L.sub(where.subresource).stack_rows
                                                        : L.sub(where.subresource).depth_pitch_B)),
                   L.sub(where.subresource).mip, L.sub(where.subresource).plane);
    SWZ_FUZZ_CHECK(!where.padding && !where.packed,
                   "a clear wrote padding or a packed tail at byte " + std::to_string(i));
    bool explained = false;
    for (size_t ci = 0; ci < descs.size(); ++ci) {
      const ClearDesc& c = descs[ci];
      if (c.subresource != kAllSubresources && c.subresource != where.subresource) continue;
      const uint32_t plane = L.sub(where.subresource).plane;
      SWZ_FUZZ_CHECK(plane < 4, "plane " + std::to_string(plane));
      Encoded& en = enc[ci][plane];
      if (!en.tried) {
        en.tried = true;
        FormatInfo fmt = d.format;
        if (c.format_dxgi) (void)find_format(c.format_dxgi, &fmt);
        en.ok = encode_clear_value(fmt, plane, c.value, en.e, sizeof en.e).ok();
      }
      if (en.ok && en.e[where.byte] == buf.data()[i]) explained = true;
    }
    SWZ_FUZZ_CHECK(explained, "byte " + std::to_string(i) + " holds a value no clear of subresource " +
                                  std::to_string(where.subresource) + " writes");
  }
}

void fuzz_fill(FuzzedDataProvider& f) {
  const uint64_t size = f.ConsumeIntegralInRange<uint64_t>(0, 4096);
  std::vector<FillDesc> descs(f.ConsumeIntegralInRange<size_t>(0, 3));
  for (auto& d : descs) {
    d.offset_B = f.ConsumeIntegralInRange<int>(0, 9) == 0 ? f.ConsumeIntegral<uint64_t>()
                                                          : f.ConsumeIntegralInRange<uint64_t>(0, size + 8);
    d.value = pick_value(f);
    d.format_dxgi = f.ConsumeBool() ? 0 : pick_format_value(f);
    d.raw_pattern_bytes = f.ConsumeIntegralInRange<int>(0, 7) == 0 ? f.ConsumeIntegral<uint32_t>()
                                                                   : f.ConsumeIntegralInRange<uint32_t>(0, 17);
    d.repeat_count = f.ConsumeIntegralInRange<int>(0, 7) == 0 ? f.ConsumeIntegral<uint32_t>()
                                                              : f.ConsumeIntegralInRange<uint32_t>(0, 300);
  }
  GuardedBuffer buf(size);
  buf.fill_pattern(9);
  std::vector<uint8_t>& b0 = scratch(0);
  buf.snapshot_into(&b0);
  const Status st = fill_buffers(buf.data(), size, descs.data(), descs.size());
  SWZ_FUZZ_CHECK(buf.canary_intact(), st.message());
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    SWZ_FUZZ_CHECK(buf.equals(b0), "changed on error: " + st.message());
    return;
  }
  std::vector<uint8_t>& sim = scratch(1);
  sim.assign(b0.begin(), b0.end());
  for (const auto& d : descs) {
    uint8_t pat[16];
    uint32_t p = d.raw_pattern_bytes;
    if (d.format_dxgi) {
      FormatInfo fmt;
      SWZ_FUZZ_CHECK(find_format(d.format_dxgi, &fmt).ok(), "fill accepted an unknown format");
      SWZ_FUZZ_CHECK(encode_clear_value(fmt, 0, d.value, pat, sizeof pat).ok(),
                     "fill accepted a format without a value rule");
      p = fmt.element_bytes;
    } else {
      std::memcpy(pat, d.value.bytes, 16);
    }
    for (uint64_t r = 0; r < d.repeat_count; ++r) {
      const uint64_t at = d.offset_B + r * p;
      if (at + p > size) break;
      std::memcpy(&sim[at], pat, p);
    }
  }
  SWZ_FUZZ_CHECK(buf.equals(sim), "fill differs from the byte loop");
}

void fuzz_resolve(FuzzedDataProvider& f) {
  TextureDesc sd = pick_desc(f, Limits::copy());
  if (f.ConsumeIntegralInRange<int>(0, 3) != 0) {
    sd.samples = 2u << f.ConsumeIntegralInRange<int>(0, 2);
    sd.mip_levels = 1;
    sd.dimension = Dimension::Texture2D;
    sd.depth = 1;
  }
  LayoutSpec spec;
  spec.kind = LayoutKind::Pattern;
  Layout SL;
  {
    // A pattern that addresses the samples: element bytes, the S bits, then X and Y.
    std::string text;
    const unsigned el = log2_floor(std::max(1u, sd.format.element_bytes));
    for (unsigned i = 0; i < el; ++i) text += "X" + std::to_string(i) + " ";
    for (unsigned i = 0; (1u << i) < sd.samples; ++i) text += "S" + std::to_string(i) + " ";
    text += "X" + std::to_string(el) + " Y0 X" + std::to_string(el + 1) + " Y1";
    if (!parse_pattern_text(text, &spec.pattern).ok()) return;
    if (f.ConsumeBool()) {
      if (!pick_layout(f, &sd, &SL).ok()) return;
    } else if (!make_layout(sd, spec, &SL).ok()) {
      return;
    }
  }
  TextureDesc dd = pick_desc(f, Limits::copy());
  if (f.ConsumeIntegralInRange<int>(0, 3) != 0) dd.format = sd.format;
  Layout DL;
  if (!pick_layout(f, &dd, &DL).ok()) return;
  if (SL.size() > kMaxCopyBuffer || DL.size() > kMaxCopyBuffer) return;
  ResolveDesc r;
  r.mode = static_cast<ResolveMode>(f.ConsumeIntegralInRange<int>(0, 3));
  r.src_subresource = f.ConsumeIntegralInRange<int>(0, 9) == 0
                          ? f.ConsumeIntegral<uint32_t>()
                          : f.ConsumeIntegralInRange<uint32_t>(0, SL.subresource_count() - 1);
  r.dst_subresource = f.ConsumeIntegralInRange<int>(0, 9) == 0
                          ? f.ConsumeIntegral<uint32_t>()
                          : f.ConsumeIntegralInRange<uint32_t>(0, DL.subresource_count() - 1);
  SubresourceLayout ss{}, ds{};
  (void)SL.subresource(r.src_subresource, &ss);
  (void)DL.subresource(r.dst_subresource, &ds);
  r.whole = f.ConsumeIntegralInRange<int>(0, 3) == 0;
  r.rect.left = pick_box_coord(f, ss.width, 1);
  r.rect.top = pick_box_coord(f, ss.height, 1);
  r.rect.right = std::max(r.rect.left, pick_box_coord(f, ss.width, 1));
  r.rect.bottom = std::max(r.rect.top, pick_box_coord(f, ss.height, 1));
  r.dst_x = pick_box_coord(f, ds.width, 1);
  r.dst_y = pick_box_coord(f, ds.height, 1);
  if (f.ConsumeIntegralInRange<int>(0, 7) == 0) r.format_dxgi = pick_format_value(f);
  GuardedBuffer src(SL.size()), dst(DL.size());
  src.fill_pattern(1);
  dst.fill_pattern(2);
  std::vector<uint8_t>&s0 = scratch(0), &d0 = scratch(1);
  src.snapshot_into(&s0);
  dst.snapshot_into(&d0);
  if (verbose())
    std::fprintf(stderr,
                 "resolve: src %s samples %u dst %s sub %u->%u whole %d rect (%u,%u)-(%u,%u) at (%u,%u) fmt %u\n",
                 sd.format.name, sd.samples, dd.format.name, r.src_subresource, r.dst_subresource, r.whole, r.rect.left,
                 r.rect.top, r.rect.right, r.rect.bottom, r.dst_x, r.dst_y, r.format_dxgi);
  const Status st = resolve_subresource(DL, dst.data(), dst.size(), SL, src.data(), src.size(), r);
  SWZ_FUZZ_CHECK(src.canary_intact() && dst.canary_intact(), st.message());
  SWZ_FUZZ_CHECK(src.equals(s0), "resolve changed its source");
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    SWZ_FUZZ_CHECK(dst.equals(d0), "changed on error: " + st.message());
    return;
  }
  const Rect rc = r.whole ? Rect{0, 0, ss.width, ss.height} : r.rect;
  Locator loc;  // built at the first changed byte, as in fuzz_clear
  bool have_loc = false;
  size_t checked = 0;
  for (uint64_t i = next_difference(dst.data(), d0.data(), 0, dst.size()); i < dst.size() && checked < 4096;
       i = next_difference(dst.data(), d0.data(), i + 1, dst.size())) {
    ++checked;
    if (!have_loc) {
      SWZ_FUZZ_CHECK(Locator::make(DL, &loc).ok(), "Locator::make");
      have_loc = true;
    }
    Location where;
    SWZ_FUZZ_CHECK(loc.locate(i, &where).ok(), "locate");
    SWZ_FUZZ_CHECK(!where.padding && where.subresource == r.dst_subresource && where.x >= r.dst_x &&
                       where.y >= r.dst_y && where.x < r.dst_x + (rc.right - rc.left) &&
                       where.y < r.dst_y + (rc.bottom - rc.top),
                   "resolve wrote outside the destination rectangle at byte " + std::to_string(i));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider f(data, size);
  switch (f.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      fuzz_clear(f);
      break;
    case 1:
      fuzz_fill(f);
      break;
    default:
      fuzz_resolve(f);
      break;
  }
  return 0;
}
