// swz internal — the one tuning record shared by the Highway and xsimd
// kernels (strip heights, chunk width, streaming threshold; geometry.hpp).
// Built whenever either SIMD backend is.
#include "backends/simd/geometry.hpp"

#include <cstdio>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace swz::detail::simd {

namespace {

uint64_t query_l3_bytes() {
#if defined(_SC_LEVEL3_CACHE_SIZE)
  const long v = sysconf(_SC_LEVEL3_CACHE_SIZE);  // glibc reads CPUID on x86; 0 on most ARM
  if (v > 0) return static_cast<uint64_t>(v);
#endif
#if defined(__linux__)
  // sysfs: "32768K" (index3 is the unified level-3 cache where there is one).
  if (FILE* f = std::fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r")) {
    unsigned long long n = 0;
    char unit = 0;
    const int got = std::fscanf(f, "%llu%c", &n, &unit);
    std::fclose(f);
    if (got >= 1) {
      if (unit == 'K') n <<= 10;
      else if (unit == 'M') n <<= 20;
      else if (unit == 'G') n <<= 30;
      return n;
    }
  }
#endif
  return 0;
}

}  // namespace

uint64_t last_level_cache_bytes() {
  static const uint64_t bytes = query_l3_bytes();
  return bytes;
}

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
