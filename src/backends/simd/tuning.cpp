// swz internal — the one tuning record shared by the Highway and xsimd
// kernels (strip heights, chunk width, streaming threshold; geometry.hpp).
// Built whenever either SIMD backend is.
#include "backends/simd/geometry.hpp"

namespace swz::detail::simd {

Tuning& tuning() {
  static Tuning t;
  return t;
}

bool auto_streaming(const Region& r) {
  if (r.streaming) return true;
  const uint64_t total = r.copy_bytes ? r.copy_bytes : region_bytes(r);
  return total >= tuning().stream_min_bytes;
}

}  // namespace swz::detail::simd
