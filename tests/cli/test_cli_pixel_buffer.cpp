// The swz command's pixel buffers are not zero-filled before the image
// decoders and the mip filter overwrite them (src/cli/pixel_buffer.hpp).
#include <gtest/gtest.h>

#include <cstring>
#include <type_traits>
#include <vector>

#include "image_io.hpp"
#include "pixel_buffer.hpp"

namespace {

// Hands out memory that holds 0xAB, so a construct() that zeroes shows.
template <class T>
struct PoisonAllocator {
  using value_type = T;
  PoisonAllocator() = default;
  template <class U>
  PoisonAllocator(const PoisonAllocator<U>&) noexcept {}
  T* allocate(size_t n) {
    T* p = std::allocator<T>().allocate(n);
    std::memset(static_cast<void*>(p), 0xAB, n * sizeof(T));
    return p;
  }
  void deallocate(T* p, size_t n) { std::allocator<T>().deallocate(p, n); }
  template <class U>
  bool operator==(const PoisonAllocator<U>&) const {
    return true;
  }
};

size_t count_ab(const uint8_t* p, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; ++i) c += p[i] == 0xAB;
  return c;
}

TEST(CliPixelBuffer, SizedConstructionAndResizeLeaveTheBytesAlone) {
  constexpr size_t kBytes = 1 << 16;
  // The control: a plain vector on the same memory zeroes it.
  std::vector<uint8_t, PoisonAllocator<uint8_t>> plain(kBytes);
  EXPECT_EQ(count_ab(plain.data(), kBytes), 0u);
  std::vector<uint8_t, swz::cli::DefaultInitAllocator<uint8_t, PoisonAllocator<uint8_t>>> v(kBytes);
  EXPECT_EQ(count_ab(v.data(), kBytes), kBytes);
  v.resize(2 * kBytes);
  EXPECT_EQ(count_ab(v.data(), 2 * kBytes), 2 * kBytes);
  // Values given explicitly are still stored.
  v.assign(8, uint8_t{7});
  v.push_back(9);
  EXPECT_EQ(v.size(), 9u);
  EXPECT_EQ(v[0], 7);
  EXPECT_EQ(v[8], 9);
}

TEST(CliPixelBuffer, DecodedImagesUseIt) {
  EXPECT_TRUE((std::is_same_v<decltype(swz::cli::Image::pixels), swz::cli::PixelBuffer>));
  EXPECT_TRUE((std::is_same_v<decltype(swz::cli::RgbaImage::pixels), swz::cli::PixelBuffer>));
}

}  // namespace
