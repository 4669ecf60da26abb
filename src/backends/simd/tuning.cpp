// swz internal — the one tuning record shared by the Highway and xsimd
// kernels (strip heights, chunk width, streaming threshold; geometry.hpp).
// Built whenever either SIMD backend is.
#include "backends/simd/geometry.hpp"

namespace swz::detail::simd {

Tuning& tuning() {
  static Tuning t;
  return t;
}

}  // namespace swz::detail::simd
