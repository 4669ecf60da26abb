// Layouts shared between threads (run under ThreadSanitizer by .ci/tsan.sh).
// Eight threads use the same const Layouts at once: whole-subresource writes
// and reads (each with threads = 1..4 inside), element_offset and locate.
// Oracles: the bytes a single-threaded scalar copy produced before the
// threads started, the linear input (round trip), and locate(element_offset)
// giving back the element.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "swz/address.hpp"
#include "swz/copy.hpp"
#include "swz/format.hpp"
#include "swz/layout.hpp"

namespace {

using namespace swz;

struct Case {
  Layout layout;
  std::vector<std::vector<uint8_t>> linear;  // per subresource, tightly packed
  std::vector<uint8_t> resource;             // the single-threaded result
};

Case make_case(const char* format, Dimension dim, uint32_t w, uint32_t h, uint32_t d, uint32_t mips, LayoutKind kind) {
  Case c;
  TextureDesc t;
  EXPECT_TRUE(find_format(format, &t.format).ok()) << format;
  t.dimension = dim;
  t.width = w;
  t.height = h;
  if (dim == Dimension::Texture3D)
    t.depth = d;
  else
    t.array_size = d;
  t.mip_levels = mips;
  LayoutSpec spec;
  spec.kind = kind;
  Status st = make_layout(t, spec, &c.layout);
  EXPECT_TRUE(st.ok()) << st.message();
  c.resource.assign(c.layout.size(), 0);
  CopyOptions one;
  one.backend = Backend::Scalar;
  one.threads = 1;
  uint32_t seed = 12345;
  for (uint32_t i = 0; i < c.layout.subresource_count(); ++i) {
    SubresourceLayout s;
    EXPECT_TRUE(c.layout.subresource(i, &s).ok());
    const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
    std::vector<uint8_t> lin(slice * s.depth);
    for (auto& b : lin) b = static_cast<uint8_t>((seed = seed * 1103515245u + 12345u) >> 16);
    st = write_to_subresource(c.layout, c.resource.data(), c.resource.size(), i, nullptr, lin.data(), lin.size(), row,
                              slice, one);
    EXPECT_TRUE(st.ok()) << st.message();
    c.linear.push_back(std::move(lin));
  }
  return c;
}

TEST(CoreThreads, SharedLayoutsCopyOffsetLocate) {
  std::vector<Case> cases;
  cases.push_back(make_case("R8G8B8A8_UNORM", Dimension::Texture2D, 300, 200, 2, 3, LayoutKind::Std64K));
  cases.push_back(make_case("BC1_UNORM", Dimension::Texture2D, 256, 128, 1, 2, LayoutKind::Std4K));
  cases.push_back(make_case("R16G16B16A16_FLOAT", Dimension::Texture3D, 40, 24, 8, 2, LayoutKind::Std64K));
  std::atomic<int> failures{0};
  auto worker = [&](unsigned id) {
    for (unsigned round = 0; round < 2; ++round) {
      for (const Case& c : cases) {
        const Layout& L = c.layout;  // shared, const
        CopyOptions o;
        o.threads = 1 + (id + round) % 4;
        o.backend = (id % 3 == 0) ? Backend::Scalar : Backend::Auto;
        std::vector<uint8_t> res(L.size(), 0);
        for (uint32_t i = 0; i < L.subresource_count(); ++i) {
          SubresourceLayout s;
          if (!L.subresource(i, &s).ok()) {
            ++failures;
            continue;
          }
          const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
          const auto& lin = c.linear[i];
          if (!write_to_subresource(L, res.data(), res.size(), i, nullptr, lin.data(), lin.size(), row, slice, o).ok())
            ++failures;
          std::vector<uint8_t> back(lin.size(), 0);
          if (!read_from_subresource(back.data(), back.size(), row, slice, L, c.resource.data(), c.resource.size(), i,
                                     nullptr, o)
                   .ok() ||
              back != lin)
            ++failures;
          // element_offset then locate: the same element back.
          for (uint32_t k = 0; k < 64; ++k) {
            const uint32_t x = (k * 37 + id) % s.width_el, y = (k * 11 + id) % s.height_el, z = k % s.depth;
            uint64_t off = 0;
            Location loc;
            if (!element_offset(L, i, x, y, z, 0, &off).ok() || !locate(L, off, &loc).ok() || loc.subresource != i ||
                loc.x != x || loc.y != y || loc.z != z || loc.byte != 0 || loc.padding)
              ++failures;
          }
        }
        if (res != c.resource) ++failures;
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 8; ++t) threads.emplace_back(worker, t);
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
