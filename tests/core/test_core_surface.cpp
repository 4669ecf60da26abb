// Whole-surface calls and box sizes (swz/surface.hpp) against the spec
// reference routine (reference_offset), per byte, with guard bytes; refusals
// leave every buffer untouched.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "swz/swz.hpp"
#include "placement_oracle.hpp"
#include "test_util.hpp"

using namespace swz;

namespace {

constexpr uint8_t kGuard = 0xCD;
constexpr uint64_t kSlack = 64;

Layout make(const char* format, uint32_t w, uint32_t h, uint32_t mips, uint32_t array, LayoutKind kind,
            uint32_t depth = 1) {
  TextureDesc d;
  EXPECT_TRUE(find_format(format, &d.format).ok());
  d.width = w;
  d.height = h;
  d.depth = depth;
  d.dimension = depth > 1 ? Dimension::Texture3D : Dimension::Texture2D;
  d.array_size = array;
  d.mip_levels = mips;
  LayoutSpec spec;
  spec.kind = kind;
  Layout L;
  Status s = make_layout(d, spec, &L);
  EXPECT_TRUE(s.ok()) << s.message();
  return L;
}

// The placement oracle's description of a layout made by make() (row-major,
// std64k, std4k), written from the D3D12 rules, never from the Layout.
swz_oracle::Resource oracle_of(const Layout& L) {
  const TextureDesc& d = L.desc();
  switch (L.kind()) {
    case LayoutKind::RowMajor:
      return swz_oracle::row_major(d);
    case LayoutKind::Std64K:
      return swz_oracle::standard_swizzle(d, true);
    case LayoutKind::Std4K:
      return swz_oracle::standard_swizzle(d, false);
    default:
      ADD_FAILURE() << "no oracle for " << L.name();
      return {};
  }
}

// The resource bytes swizzle_surface must produce, per byte from
// reference_offset at the oracle's places; the Layout's own placement must
// equal the oracle's.
std::vector<uint8_t> reference_surface(const Layout& L, const std::vector<uint8_t>& lin,
                                       const std::vector<uint64_t>& offs, uint8_t fill) {
  const swz_oracle::Resource o = oracle_of(L);
  EXPECT_EQ(o.subs.size(), L.subresource_count()) << L.name();
  EXPECT_EQ(o.size, L.size()) << L.name();
  std::vector<uint8_t> res(o.size, fill);
  for (uint32_t i = 0; i < L.subresource_count() && i < o.subs.size(); ++i) {
    const swz_oracle::Place& s = o.subs[i];
    EXPECT_EQ(L.sub(i).offset, s.offset) << L.name() << " sub " << i;
    EXPECT_EQ(L.sub(i).row_pitch, s.row_pitch) << L.name() << " sub " << i;
    EXPECT_EQ(L.sub(i).size, s.size) << L.name() << " sub " << i;
    const Pattern& p = L.patterns()[L.sub(i).pattern_slot];
    AddressParams a;
    a.row_pitch = s.row_pitch;
    a.depth_pitch_B = s.depth_pitch;
    a.stack_rows = s.stack_rows;
    const uint64_t eb = s.element_bytes;
    uint64_t k = offs[i];
    for (uint32_t z = 0; z < s.depth; ++z)
      for (uint32_t y = 0; y < s.height_el; ++y)
        for (uint32_t x = 0; x < s.width_el; ++x)
          for (uint64_t j = 0; j < eb; ++j)
            res.at(s.offset + reference_offset(p, x * eb + j, y, z, 0, a)) = lin.at(k++);
  }
  return res;
}

void check_surface_case(const Layout& L, std::mt19937_64& rng) {
  uint64_t n = 0;
  ASSERT_TRUE(surface_linear_bytes(L, &n).ok());
  std::vector<uint64_t> offs;
  ASSERT_TRUE(surface_linear_offsets(L, &offs).ok());
  ASSERT_EQ(offs.size(), L.subresource_count());
  uint64_t sum = 0;
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    EXPECT_EQ(offs[i], sum);
    sum += packed_subresource_bytes(L.sub(i));
  }
  EXPECT_EQ(n, sum);

  std::vector<uint8_t> lin(n + 2 * kSlack, kGuard), res(L.size() + 2 * kSlack, kGuard), back(n + 2 * kSlack, kGuard);
  for (uint64_t k = 0; k < n; ++k) lin[kSlack + k] = static_cast<uint8_t>(rng());
  std::memset(res.data() + kSlack, 0x11, L.size());
  Status s = swizzle_surface(L, res.data() + kSlack, L.size(), lin.data() + kSlack, n);
  ASSERT_TRUE(s.ok()) << s.message();
  const std::vector<uint8_t> want =
      reference_surface(L, std::vector<uint8_t>(lin.begin() + kSlack, lin.end() - kSlack), offs, 0x11);
  ASSERT_TRUE(std::equal(want.begin(), want.end(), res.begin() + kSlack)) << L.name();
  s = deswizzle_surface(L, back.data() + kSlack, n, res.data() + kSlack, L.size());
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(back, lin);  // guards included
  for (uint64_t k = 0; k < kSlack; ++k) {
    ASSERT_EQ(res[k], kGuard);
    ASSERT_EQ(res[kSlack + L.size() + k], kGuard);
  }

  // One byte short on either side: refused, nothing written.
  const std::vector<uint8_t> res_before = res, back_before = back;
  EXPECT_EQ(swizzle_surface(L, res.data() + kSlack, L.size(), lin.data() + kSlack, n - 1).code(),
            Code::buffer_too_small);
  EXPECT_EQ(swizzle_surface(L, res.data() + kSlack, L.size() - 1, lin.data() + kSlack, n).code(),
            Code::buffer_too_small);
  EXPECT_EQ(deswizzle_surface(L, back.data() + kSlack, n - 1, res.data() + kSlack, L.size()).code(),
            Code::buffer_too_small);
  EXPECT_EQ(res, res_before);
  EXPECT_EQ(back, back_before);
}

}  // namespace

TEST(Surface, MipsArraysAnd3DMatchReference) {
  std::mt19937_64 rng(20261201);
  check_surface_case(make("R8G8B8A8_UNORM", 70, 33, 7, 3, LayoutKind::Std64K), rng);
  check_surface_case(make("R8G8B8A8_UNORM", 70, 33, 7, 2, LayoutKind::Std4K), rng);
  check_surface_case(make("R8_UNORM", 130, 9, 8, 2, LayoutKind::RowMajor), rng);
  check_surface_case(make("BC1_UNORM", 50, 22, 4, 1, LayoutKind::Std64K), rng);
  check_surface_case(make("R16_UNORM", 40, 24, 6, 1, LayoutKind::Std64K, 9), rng);
  check_surface_case(make("R32G32B32A32_FLOAT", 17, 5, 5, 2, LayoutKind::Std4K), rng);
}

TEST(Surface, OffsetTable) {
  std::mt19937_64 rng(7);
  Layout L = make("R8G8B8A8_UNORM", 37, 21, 6, 2, LayoutKind::Std64K);
  const uint32_t n = L.subresource_count();
  // Each subresource 16-byte aligned, in reverse order (any order is allowed).
  std::vector<uint64_t> offs(n);
  uint64_t pos = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = n - 1 - k;
    offs[i] = pos;
    pos = (pos + packed_subresource_bytes(L.sub(i)) + 15) / 16 * 16;
  }
  std::vector<uint8_t> lin(pos), res(L.size(), 0x22);
  for (auto& b : lin) b = static_cast<uint8_t>(rng());
  ASSERT_TRUE(swizzle_surface(L, res.data(), res.size(), lin.data(), lin.size(), offs.data()).ok());
  EXPECT_EQ(res, reference_surface(L, lin, offs, 0x22));
  std::vector<uint8_t> back(pos, 0);
  ASSERT_TRUE(deswizzle_surface(L, back.data(), back.size(), res.data(), res.size(), offs.data()).ok());
  for (uint32_t i = 0; i < n; ++i)
    EXPECT_EQ(0, std::memcmp(back.data() + offs[i], lin.data() + offs[i], packed_subresource_bytes(L.sub(i)))) << i;

  const std::vector<uint8_t> before = res;
  std::vector<uint64_t> bad = offs;
  bad[3] = bad[2] + 4;  // overlaps subresource 2
  Status s = swizzle_surface(L, res.data(), res.size(), lin.data(), lin.size(), bad.data());
  EXPECT_EQ(s.code(), Code::invalid_argument);
  EXPECT_NE(s.message().find("overlaps"), std::string::npos) << s.message();
  bad = offs;
  bad[n - 1] = pos - 1;  // runs past the end
  s = swizzle_surface(L, res.data(), res.size(), lin.data(), lin.size(), bad.data());
  EXPECT_EQ(s.code(), Code::buffer_too_small);
  EXPECT_NE(s.message().find("subresource " + std::to_string(n - 1)), std::string::npos) << s.message();
  EXPECT_EQ(res, before);
}

TEST(Surface, PackedMipTailRefusedBeforeAnyWrite) {
  TextureDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.format).ok());
  d.width = d.height = 256;
  d.mip_levels = 9;
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  spec.mip_tail = MipTail::D3D12;
  spec.packed = {2, 7, 1};
  Layout L;
  Status s = make_layout(d, spec, &L);
  ASSERT_TRUE(s.ok()) << s.message();
  uint64_t n = 0;
  ASSERT_TRUE(surface_linear_bytes(L, &n).ok());
  std::vector<uint8_t> lin(n, 1), res(L.size(), 0x33);
  s = swizzle_surface(L, res.data(), res.size(), lin.data(), lin.size());
  EXPECT_EQ(s.code(), Code::unsupported);
  EXPECT_NE(s.message().find("packed mip tail"), std::string::npos) << s.message();
  EXPECT_EQ(res, std::vector<uint8_t>(L.size(), 0x33));  // mips 0 and 1 were valid, yet nothing was written
}

TEST(Surface, BoxLinearBytes) {
  Layout L = make("BC7_UNORM", 50, 22, 1, 1, LayoutKind::Std64K);
  Box b{4, 4, 0, 50, 22, 1};  // 12 x 5 blocks of 16 bytes (right/bottom on the edge)
  BoxExtent e;
  ASSERT_TRUE(box_extent(L, 0, &b, &e).ok());
  EXPECT_EQ(e.width_el, 12u);
  EXPECT_EQ(e.height_el, 5u);
  EXPECT_EQ(e.depth, 1u);
  EXPECT_EQ(e.row_B, 192u);
  EXPECT_EQ(e.slice_B, 960u);
  uint64_t n = 0;
  ASSERT_TRUE(box_linear_bytes(L, 0, &b, 0, 0, &n).ok());
  EXPECT_EQ(n, 960u);
  ASSERT_TRUE(box_linear_bytes(L, 0, &b, 256, 0, &n).ok());
  EXPECT_EQ(n, 4 * 256 + 192u);
  ASSERT_TRUE(box_linear_bytes(L, 0, nullptr, 0, 0, &n).ok());
  EXPECT_EQ(n, 13u * 6 * 16);
  Box empty{8, 8, 0, 8, 12, 1};
  ASSERT_TRUE(box_linear_bytes(L, 0, &empty, 0, 0, &n).ok());
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(box_linear_bytes(L, 0, &b, 100, 0, &n).code(), Code::invalid_argument);  // row pitch < 192
  Box off{2, 0, 0, 8, 4, 1};
  EXPECT_EQ(box_linear_bytes(L, 0, &off, 0, 0, &n).code(), Code::invalid_argument);  // left not on a block edge
  Box out{0, 0, 0, 52, 4, 1};
  EXPECT_EQ(box_linear_bytes(L, 0, &out, 0, 0, &n).code(), Code::out_of_range);
  EXPECT_EQ(box_linear_bytes(L, 1, nullptr, 0, 0, &n).code(), Code::out_of_range);

  Layout V = make("R16_UNORM", 40, 24, 1, 1, LayoutKind::Std64K, 9);
  Box vb{3, 2, 1, 13, 7, 6};  // 10 x 5 x 5 elements of 2 bytes
  ASSERT_TRUE(box_linear_bytes(V, 0, &vb, 0, 0, &n).ok());
  EXPECT_EQ(n, 10u * 2 * 5 * 5);
  ASSERT_TRUE(box_linear_bytes(V, 0, &vb, 64, 1000, &n).ok());
  EXPECT_EQ(n, 4 * 1000 + 4 * 64 + 20u);
}
