// libFuzzer harness: parse_resource_layout_json + make_device_layout on
// arbitrary text. Properties: errors carry a message; a parsed description
// prints (to_json) to text that parses to a description printing the same
// text; a built layout keeps every subresource inside the resource, every
// element inside its subresource's span, and locate inverts element_offset.
#include "fuzz_common.hpp"

using namespace swz;
using namespace swz_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  DeviceLayoutDesc d;
  Status st = parse_resource_layout_json(text, &d);
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    return 0;
  }
  const std::string printed = to_json(d);
  DeviceLayoutDesc d2;
  st = parse_resource_layout_json(printed, &d2);
  SWZ_FUZZ_CHECK(st.ok(), printed + ": " + st.message());
  SWZ_FUZZ_CHECK(to_json(d2) == printed, printed);

  // Surfaces of a few hundred megabytes whose subresources overlap take
  // seconds to check for shared bytes (a known cost, see fuzz_common.hpp).
  if (swz_fuzz::slow_middle(d.texture) && d.subresources.size() > 1) return 0;
  Layout L;
  st = make_device_layout(d, &L);
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    return 0;
  }
  SWZ_FUZZ_CHECK(L.subresource_count() == d.subresources.size(), "subresource count");
  uint32_t seed = static_cast<uint32_t>(size) * 2654435761u + 7;
  for (uint32_t i = 0; i < L.subresource_count() && i < 64; ++i) {
    const SubresourceLayout& s = L.sub(i);
    SWZ_FUZZ_CHECK(s.offset + s.size <= L.size() && s.offset + s.size >= s.offset,
                   "subresource " + std::to_string(i) + " leaves the resource");
    if (s.packed) continue;
    for (int k = 0; k < 8; ++k) {
      seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
      const uint32_t x = k == 0 ? 0 : k == 1 ? s.width_el - 1 : seed % s.width_el;
      const uint32_t y = k == 0 ? 0 : k == 1 ? s.height_el - 1 : (seed >> 7) % s.height_el;
      const uint32_t z = k == 0 ? 0 : k == 1 ? s.depth - 1 : (seed >> 14) % s.depth;
      const uint32_t smp = (seed >> 20) % L.desc().samples;
      uint64_t off = 0;
      st = element_offset(L, i, x, y, z, smp, &off);
      if (!st.ok()) {
        SWZ_FUZZ_CHECK(st.code() == Code::unsupported, st.message());
        break;
      }
      SWZ_FUZZ_CHECK(off >= s.offset && off + (s.element_bytes ? 1 : 0) <= s.offset + s.size,
                     "element (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) +
                         ") of subresource " + std::to_string(i) + " at " + std::to_string(off) + " outside [" +
                         std::to_string(s.offset) + ", +" + std::to_string(s.size) + ")");
      Location loc;
      st = locate(L, off, &loc);
      SWZ_FUZZ_CHECK(st.ok(), st.message());
      // Subresources may share bytes (mip tails): locate may name another one.
      if (loc.subresource == i)
        SWZ_FUZZ_CHECK(!loc.padding && loc.x == x && loc.y == y && loc.z == z && loc.sample == smp, "locate");
    }
  }
  return 0;
}
