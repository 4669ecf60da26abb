// Test helpers for the decode tests: decode_rgba32f / decode_rgba8 of a
// tight image, failing the test on an error.
#pragma once
#include <cstdint>
#include <vector>

#include "swz/decode.hpp"
#include "test_util.hpp"  // fmt

namespace swz_test {

inline swz::LinearImage tight_image(const char* name, const std::vector<uint8_t>& data, uint32_t w, uint32_t h) {
  swz::LinearImage img;
  img.format = fmt(name);
  img.width_px = w;
  img.height_px = h;
  img.data = data.data();
  img.size_B = data.size();
  return img;
}

inline std::vector<float> decode_f(const char* name, const std::vector<uint8_t>& data, uint32_t w, uint32_t h,
                                   swz::DecodeOptions o = {}) {
  std::vector<float> out(size_t{w} * h * 4, -99.0f);
  const swz::Status s = swz::decode_rgba32f(tight_image(name, data, w, h), o, out.data(), out.size() * 4);
  EXPECT_TRUE(s.ok()) << name << ": " << s.message();
  return out;
}

inline std::vector<uint8_t> decode_8(const char* name, const std::vector<uint8_t>& data, uint32_t w, uint32_t h,
                                     swz::DecodeOptions o = {}) {
  std::vector<uint8_t> out(size_t{w} * h * 4, 0xEE);
  const swz::Status s = swz::decode_rgba8(tight_image(name, data, w, h), o, out.data(), out.size());
  EXPECT_TRUE(s.ok()) << name << ": " << s.message();
  return out;
}

}  // namespace swz_test
