// SWZ_TEST_SCALE: one factor for the iteration counts of the randomized tests.
//
// Under an emulator (qemu-aarch64 in .ci/arm64.sh, 10-50x slower than native)
// the property tests run fewer random cases: SWZ_TEST_SCALE=0.1 runs a tenth
// of each loop (at least one case). Unset, empty or 1: the full counts. A
// value that is not a number in (0, 100] fails every test that asks for it,
// so a typo cannot silently turn the tests off.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace swz_test {

/// The factor from SWZ_TEST_SCALE (1 when unset or empty); 0 when the
/// value is not a number in (0, 100].
inline double test_scale() {
  static const double scale = [] {
    const char* s = std::getenv("SWZ_TEST_SCALE");
    if (s == nullptr || *s == '\0') return 1.0;
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end == s || *end != '\0' || !(v > 0.0) || v > 100.0) return 0.0;
    return v;
  }();
  return scale;
}

/// `n` iterations scaled by SWZ_TEST_SCALE, at least 1 (n > 0). Adds a test
/// failure naming the variable when its value is invalid.
inline int scaled(int n) {
  const double s = test_scale();
  if (s == 0.0) {
    ADD_FAILURE() << "SWZ_TEST_SCALE='" << std::getenv("SWZ_TEST_SCALE")
                  << "' is not a number in (0, 100] (e.g. 0.1 for a tenth of the random cases)";
    return n;
  }
  if (n <= 0) return n;
  const double v = std::ceil(n * s);
  return v < 1.0 ? 1 : v > 1e9 ? 1000000000 : static_cast<int>(v);
}

/// For tests that walk a fixed list (every candidate layout, every reference
/// row): the step between the items run, `stride` / SWZ_TEST_SCALE rounded
/// up (so SWZ_TEST_SCALE=0.1 runs every 10th item of a stride-1 walk).
inline size_t scaled_stride(size_t stride) {
  const double s = test_scale();
  if (s == 0.0 || s >= 1.0) return stride;
  return static_cast<size_t>(std::ceil(static_cast<double>(stride) / s));
}

}  // namespace swz_test
