// Properties shared by the pattern parser harnesses: every form a parsed
// pattern can be printed in parses back to the same pattern, and a valid
// pattern compiles and addresses like the reference.
#pragma once
#include <unordered_set>

#include "fuzz_common.hpp"
#include "core/plan.hpp"  // internal: the compiled tables

namespace swz_fuzz {

/// True when every invalid entry carries no payload (text cannot keep one).
inline bool payload_free(const swz::Pattern& p) {
  auto clean = [](const swz::BitArray& a) {
    for (const auto& e : a)
      if (!e.valid && (e.channel || e.bit)) return false;
    return true;
  };
  if (!clean(p.interleave)) return false;
  for (const auto& x : p.xors)
    if (!clean(x)) return false;
  for (const auto& x : p.postamble)
    if (!clean(x)) return false;
  return true;
}

inline void check_pattern_forms(const swz::Pattern& p) {
  using namespace swz;
  // DDI 0022 bytes hold everything.
  const std::vector<uint8_t> ddi = to_ddi_bytes_0022(p);
  SWZ_FUZZ_CHECK(ddi.size() == kDdiBytes0022, std::to_string(ddi.size()));
  Pattern q;
  Status st = from_ddi_bytes(ddi, &q);
  SWZ_FUZZ_CHECK(st.ok(), st.message());
  SWZ_FUZZ_CHECK(q == p, "0022 bytes round trip");
  // The legacy struct, when it can hold the pattern.
  std::vector<uint8_t> legacy;
  if (to_ddi_bytes_legacy(p, &legacy).ok()) {
    SWZ_FUZZ_CHECK(legacy.size() == kDdiBytesLegacy, std::to_string(legacy.size()));
    st = from_ddi_bytes(legacy, &q);
    SWZ_FUZZ_CHECK(st.ok(), st.message());
    SWZ_FUZZ_CHECK(to_ddi_bytes_0022(q) == ddi, "legacy bytes round trip");
  }
  if (!payload_free(p)) return;
  // Text and JSON.
  const std::string text = to_text(p);
  st = parse_pattern_text(text, &q);
  SWZ_FUZZ_CHECK(st.ok(), text + ": " + st.message());
  SWZ_FUZZ_CHECK(q == p, "text round trip: " + text);
  SWZ_FUZZ_CHECK(to_text(q) == text, text);
  const std::string json = to_json(p);
  st = parse_pattern_json(json, &q);
  SWZ_FUZZ_CHECK(st.ok(), json + ": " + st.message());
  SWZ_FUZZ_CHECK(q == p, "json round trip: " + json);
}

/// The checks below depend only on the pattern (and a seed derived from it):
/// each distinct pattern is checked once per process. Many inputs parse to a
/// pattern already checked (text and JSON that differ in spacing, order or
/// number spelling; DDI inputs whose mutations fall past the 232 bytes read),
/// and the round trips and the layout built for the check would otherwise be
/// most of these harnesses' time. Returns false for a pattern seen before; *seed
/// receives a seed made from the pattern.
inline bool first_check_of(const swz::Pattern& p, uint32_t* seed) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over every field
  auto mix = [&h](uint64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ (v & 0xff)) * 1099511628211ull;
  };
  auto mix_array = [&](const swz::BitArray& a) {
    for (const auto& e : a) mix(uint64_t{e.valid} | uint64_t{e.channel} << 8 | uint64_t{e.bit} << 16);
  };
  mix_array(p.interleave);
  for (const auto& x : p.xors) mix_array(x);
  for (const auto& x : p.postamble) mix_array(x);
  mix(p.immediate);
  mix(p.flags);
  *seed = static_cast<uint32_t>(h ^ (h >> 32));
  static std::unordered_set<uint64_t> seen;
  if (seen.size() >= (size_t{1} << 20)) seen.clear();  // bounded memory
  return seen.insert(h).second;
}

/// A valid pattern: compile it for its smallest element size, lay out a small
/// texture and compare element offsets with the reference at a few points.
inline void check_pattern_use(const swz::Pattern& p, uint32_t seed) {
  using namespace swz;
  for (uint32_t eb = 1; eb <= 16; eb *= 2) {
    std::shared_ptr<const Plan> plan;
    Status st = Plan::compile(p, eb, &plan);
    SWZ_FUZZ_CHECK(st.ok() == validate(p, eb).ok(), "compile and validate disagree: " + st.message());
    if (!st.ok()) {
      SWZ_FUZZ_CHECK(!st.message().empty(), "empty message");
      continue;
    }
    if (p.flags & kFlagConditionalPostamble) return;
    TextureDesc d;
    const char* name = eb == 1   ? "R8_UNORM"
                       : eb == 2 ? "R8G8_UNORM"
                       : eb == 4 ? "R8G8B8A8_UNORM"
                       : eb == 8 ? "R16G16B16A16_FLOAT"
                                 : "R32G32B32A32_FLOAT";
    (void)find_format(name, &d.format);
    d.width = 1 + seed % 70;
    d.height = 1 + (seed / 70) % 40;
    if (plan->ext_log2[2] || plan->stack_depth) {
      d.dimension = Dimension::Texture3D;
      d.depth = 1 + (seed / 2800) % 5;
    }
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    Layout L;
    st = make_layout(d, spec, &L);
    if (!st.ok()) {
      SWZ_FUZZ_CHECK(!st.message().empty(), "empty message");
      return;
    }
    const SubresourceLayout& s = L.sub(0);
    AddressParams a;
    a.row_pitch = s.row_pitch;
    a.depth_pitch_B = s.depth_pitch_B;
    a.stack_rows = s.stack_rows;
    uint32_t x = seed;
    for (int i = 0; i < 16; ++i) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      const uint32_t ex = x % s.width_el, ey = (x >> 8) % s.height_el, ez = (x >> 16) % s.depth;
      uint64_t off = 0;
      st = element_offset(L, 0, ex, ey, ez, 0, &off);
      SWZ_FUZZ_CHECK(st.ok(), st.message());
      const uint64_t ref = s.offset + reference_offset(p, uint64_t{ex} * eb, ey, ez, 0, a);
      SWZ_FUZZ_CHECK(off == ref, "element_offset " + std::to_string(off) + " != reference " + std::to_string(ref) +
                                     " for " + to_text(p));
      SWZ_FUZZ_CHECK(off + eb <= L.size(), "element outside the resource");
      Location loc;
      st = locate(L, off, &loc);
      SWZ_FUZZ_CHECK(st.ok() && !loc.padding && loc.x == ex && loc.y == ey && loc.z == ez && loc.byte == 0,
                     "locate does not invert element_offset for " + to_text(p));
    }
    return;
  }
}

}  // namespace swz_fuzz
