// Explicit layouts refuse subresources placed on the same bytes
// (src/core/shared_bytes.cpp): the verdict against a brute-force oracle (every
// byte of every subresource through reference_offset), and the work of the
// check counted, not timed, on two large inputs (fuzz/regressions/fuzz_copy_tiles).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/layout_work.hpp"
#include "swz/device_layout.hpp"
#include "swz/swz.hpp"
#include "swz/vendor.hpp"

using namespace swz;

namespace {

TextureDesc tex(const char* format, uint32_t w, uint32_t h, uint32_t array_size, uint32_t mips) {
  TextureDesc d;
  EXPECT_TRUE(find_format(format, &d.format).ok()) << format;
  d.width = w;
  d.height = h;
  d.array_size = array_size;
  d.mip_levels = mips;
  return d;
}

}  // namespace

// fuzz/regressions/fuzz_copy_tiles/shared-bytes-xbox360-bc4-tail: a 47 x
// 33554432 BC4 array of 8 slices, 17 mips, xbox360-tiled. Mips 2..16 of each
// slice share one tail (one offset, pre-swizzle origins) over 536 MB: about
// 6 M byte runs per slice to mark. One frame: the check compares boxes and
// marks no run.
TEST(SharedBytes, MipTailOfOneFrameComparesBoxes) {
  Layout L;
  const Status st = make_named_layout("xbox360-tiled", tex("BC4_UNORM", 47, 33554432, 8, 17), &L);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(L.subresource_count(), 136u);
  EXPECT_EQ(detail::last_shared_bytes_work().marked_runs, 0u);
  EXPECT_EQ(detail::last_shared_bytes_work().box_groups, 8u);  // one tail per slice
}

// fuzz/regressions/fuzz_copy_tiles/shared-bytes-intel-tile64-mip-chain: R8
// 4 x 1048576, 6 mips in one intel-tile64 surface (offset 0, origins down and
// right), spans up to 805 MB: one frame, so boxes are compared, not a 100 MB
// bitmap of runs.
TEST(SharedBytes, MipChainInOneSurfaceComparesBoxes) {
  Layout L;
  const Status st = make_named_layout("intel-tile64", tex("R8_UNORM", 4, 1048576, 1, 6), &L);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(detail::last_shared_bytes_work().marked_runs, 0u);
  EXPECT_EQ(detail::last_shared_bytes_work().box_groups, 1u);
}

// Random device layouts: one pattern, 2-4 mips placed at a few offsets with
// random pre-swizzle origins and row strides (one frame or not). Accepted
// exactly when no byte belongs to two subresources, by brute force.
TEST(SharedBytes, VerdictMatchesBruteForce) {
  const char* patterns[] = {
      "X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6", "X0 X1 X2 X3 Y0 X4 X6 X7^Y3 X5 Y1 Y2 Y4 Y3",
      "X0 X1 Y0 X2 Y1 X3 Y2 X4^Y5 Y3 X5",
      "X0 X1 X2 X3 X4 X5 X6 X7",  // row-major-like
  };
  std::mt19937 rng(18);
  int accepted = 0, refused = 0, boxes = 0, bitmap = 0, boxes_refused = 0;
  for (int it = 0; it < 400; ++it) {
    DeviceLayoutDesc d;
    ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.texture.format).ok());
    d.texture.width = 1 + rng() % 24;
    d.texture.height = 1 + rng() % 24;
    d.texture.mip_levels = 2 + rng() % 3;
    d.texture.mip_levels = std::min(d.texture.mip_levels, full_mip_count(d.texture.width, d.texture.height, 1));
    if (d.texture.mip_levels < 2) continue;
    const char* text = patterns[rng() % 4];
    Pattern p;
    ASSERT_TRUE(parse_pattern_text(text, &p).ok()) << text;
    d.patterns[0] = p;
    const uint64_t BB = uint64_t{1} << p.block_bits();
    const uint64_t stride = BB * (8 + rng() % 3);
    for (uint32_t m = 0; m < d.texture.mip_levels; ++m) {
      DeviceSubresource s;
      s.offset = rng() % 4 == 0 ? BB * (rng() % 3) : 0;
      s.row_stride = rng() % 5 == 0 ? 0 : stride;
      s.row_byte_pre_swizzle = 4 * (rng() % 48);
      s.column_pre_swizzle = rng() % 48;
      d.subresources.push_back(s);
    }
    Layout L;
    const Status st = make_device_layout(d, &L);
    const std::string what = std::string(text) + ", " + std::to_string(d.texture.width) + "x" +
                             std::to_string(d.texture.height) + ", iteration " + std::to_string(it);
    if (!st.ok() && st.message().find("shares byte") == std::string::npos) continue;  // another error
    // The oracle: every byte of every mip, with the placement's frame.
    std::vector<bool> owned;
    bool shared = false;
    const uint32_t eb = 4;
    for (uint32_t m = 0; m < d.texture.mip_levels && !shared; ++m) {
      const DeviceSubresource& ds = d.subresources[m];
      const uint32_t w = std::max(1u, d.texture.width >> m), h = std::max(1u, d.texture.height >> m);
      uint64_t rp = ds.row_stride;
      if (rp == 0) {  // the tightest row of blocks for this origin
        const uint64_t ext_x = p.block_extent()[0];
        rp = ((ds.row_byte_pre_swizzle + uint64_t{w} * eb + ext_x - 1) / ext_x) * BB;
      }
      AddressParams a;
      a.row_pitch = rp;
      a.pre_swizzle[0] = ds.row_byte_pre_swizzle;
      a.pre_swizzle[1] = ds.column_pre_swizzle;
      for (uint64_t y = 0; y < h && !shared; ++y)
        for (uint64_t x = 0; x < uint64_t{w} * eb; ++x) {
          const uint64_t off = ds.offset + reference_offset(p, x, y, 0, 0, a);
          if (off >= owned.size()) owned.resize(off + 4096);
          if (owned[off]) {
            shared = true;
            break;
          }
          owned[off] = true;
        }
    }
    EXPECT_EQ(st.ok(), !shared) << what << ": " << st.message();
    (st.ok() ? accepted : refused)++;
    const detail::SharedBytesWork w = detail::last_shared_bytes_work();
    boxes += w.box_groups > 0;
    boxes_refused += w.box_groups > 0 && !st.ok();
    bitmap += w.marked_runs > 0;
  }
  std::printf("accepted %d refused %d; one frame %d (%d refused), bitmap %d\n", accepted, refused, boxes, boxes_refused,
              bitmap);
  EXPECT_GT(accepted, 40);
  EXPECT_GT(refused, 40);
  EXPECT_GT(boxes, 40);  // groups of one frame
  EXPECT_GT(boxes_refused, 10);
  EXPECT_GT(bitmap, 20);  // and the others
}

// Groups without one frame are checked byte run by byte run, up to a bound:
// past it the layout is refused with a message, in no time.
TEST(SharedBytes, BitmapCheckIsBounded) {
  DeviceLayoutDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.texture.format).ok());
  d.texture.width = 32;  // mip 0: 128 bytes a row, one block wide, two blocks high
  d.texture.height = 64;
  d.texture.mip_levels = 2;
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6", &p).ok());
  d.patterns[0] = p;
  // Mip 1 in the free block between mip 0's two: spans overlap, offsets differ, no shared byte.
  d.subresources = {{0, 8192, 0, 0, 0, 0}, {4096, 8192, 0, 0, 0, 0}};
  Layout L;
  Status st = make_device_layout(d, &L);
  ASSERT_TRUE(st.ok()) << st.message();
  const uint64_t runs = detail::last_shared_bytes_work().marked_runs;
  EXPECT_GT(runs, 100u);
  const uint64_t old = detail::shared_byte_run_limit();
  detail::set_shared_byte_run_limit(runs / 2);
  st = make_device_layout(d, &L);
  detail::set_shared_byte_run_limit(old);
  EXPECT_EQ(st.code(), Code::unsupported) << st.message();
  EXPECT_NE(st.message().find("swz cannot verify"), std::string::npos) << st.message();
  EXPECT_EQ(detail::last_shared_bytes_work().marked_runs, 0u);  // refused before marking
}

// Many subresources of one frame: 8192 slices stacked down one surface (one
// offset, pre-swizzle rows 16 apart) are compared in one sweep, each with its
// neighbours only; one slice moved onto the next one's rows is refused.
TEST(SharedBytes, ManySlicesInOneSurfaceSweep) {
  DeviceLayoutDesc d;
  ASSERT_TRUE(find_format("R8G8B8A8_UNORM", &d.texture.format).ok());
  d.texture.width = 16;
  d.texture.height = 16;
  d.texture.array_size = 8192;
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6", &p).ok());
  d.patterns[0] = p;
  for (uint32_t i = 0; i < 8192; ++i) d.subresources.push_back({0, 4096, 0, 0, 16 * i, 0});
  Layout L;
  Status st = make_device_layout(d, &L);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(detail::last_shared_bytes_work().box_groups, 1u);
  EXPECT_EQ(detail::last_shared_bytes_work().marked_runs, 0u);
  d.subresources[5000].column_pre_swizzle = 16 * 5001 + 8;
  st = make_device_layout(d, &L);
  EXPECT_EQ(st.code(), Code::invalid_argument) << st.message();
  EXPECT_NE(st.message().find("subresource 5001 shares byte"), std::string::npos) << st.message();
}
