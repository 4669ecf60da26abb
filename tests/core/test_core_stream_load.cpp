// read_from_subresource with write_combined (streaming loads through a cached
// temporary) gives the same bytes as the plain read, over random layouts,
// boxes, misaligned resource pointers and thread counts; and the streaming-
// load copy itself equals memcpy at every length and alignment.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "core/kernel.hpp"
#include "swz/swz.hpp"
#include "test_scale.hpp"

namespace {
using namespace swz;

TEST(StreamLoad, CopyEqualsMemcpyAtEveryAlignment) {
  std::mt19937 g(5);
  std::vector<uint8_t> src(5000), dst(5000);
  for (auto& b : src) b = static_cast<uint8_t>(g());
  for (unsigned threads : {1u, 3u})
    for (size_t off = 0; off < 20; ++off)
      for (size_t n : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{63}, size_t{64}, size_t{65}, size_t{200},
                       size_t{4000}}) {
        std::fill(dst.begin(), dst.end(), 0xEE);
        detail::stream_load_copy(dst.data() + 3, src.data() + off, n, threads);
        ASSERT_EQ(std::memcmp(dst.data() + 3, src.data() + off, n), 0) << off << " " << n;
        ASSERT_EQ(dst[2], 0xEE);
        ASSERT_EQ(dst[3 + n], 0xEE) << "wrote past the end";
      }
}

TEST(StreamLoad, WriteCombinedReadEqualsPlainRead) {
  std::mt19937 g(11);
  const char* formats[] = {"R8_UNORM", "R8G8B8A8_UNORM", "R32G32B32A32_FLOAT", "BC1_UNORM"};
  const LayoutKind kinds[] = {LayoutKind::Std64K, LayoutKind::Std4K, LayoutKind::RowMajor};
  int ran = 0;
  for (int it = 0; it < swz_test::scaled(60); ++it) {
    TextureDesc d;
    ASSERT_TRUE(find_format(formats[g() % 4], &d.format).ok());
    d.width = 1 + g() % 700;
    d.height = 1 + g() % 300;
    d.mip_levels = 1 + g() % 3;
    LayoutSpec spec;
    spec.kind = kinds[g() % 3];
    Layout L;
    if (!make_layout(d, spec, &L).ok()) continue;
    const uint32_t sub = static_cast<uint32_t>(g() % L.subresource_count());
    const SubresourceLayout& s = L.sub(sub);
    if (s.packed) continue;
    std::vector<uint8_t> res_buf(L.size() + 7);
    for (auto& b : res_buf) b = static_cast<uint8_t>(g());
    const uint8_t* res = res_buf.data() + (g() % 8);  // any alignment
    const uint64_t rp = uint64_t{s.width_el} * s.element_bytes + (g() % 3) * 16, lin_size = rp * s.height_el;
    std::vector<uint8_t> a(lin_size, 0x11), b(lin_size, 0x11);
    CopyOptions plain, wc;
    plain.threads = wc.threads = 1 + g() % 3;
    wc.write_combined = true;
    ASSERT_TRUE(read_from_subresource(a.data(), lin_size, rp, 0, L, res, L.size(), sub, nullptr, plain).ok());
    Status st = read_from_subresource(b.data(), lin_size, rp, 0, L, res, L.size(), sub, nullptr, wc);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(a, b) << "iteration " << it;
    ++ran;
  }
  EXPECT_GE(ran, swz_test::scaled(60) / 2) << "subresources compared";
}
}  // namespace
