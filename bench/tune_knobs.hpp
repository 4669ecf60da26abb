// The SIMD kernels' tuning knobs from a string, for A/B runs of one
// benchmark binary (swz_bench_matrix's and swz_bench_cell's SWZ_MATRIX_TUNE).
#pragma once
#include <cstdlib>
#include <string>

#ifdef SWZ_HAVE_SIMD
#include "backends/simd/geometry.hpp"
#endif

namespace {

// SWZ_MATRIX_TUNE="knob=value,...": the SIMD kernels' tuning knobs
// (backends/simd/geometry.hpp), for A/B runs of one binary; unknown knobs
// are an error.
inline bool apply_tuning(const char* spec) {
#ifdef SWZ_HAVE_SIMD
  swz::detail::simd::Tuning& t = swz::detail::simd::tuning();
  std::string s = spec;
  size_t at = 0;
  while (at < s.size()) {
    size_t end = s.find(',', at);
    if (end == std::string::npos) end = s.size();
    const std::string item = s.substr(at, end - at);
    at = end + 1;
    const size_t eq = item.find('=');
    if (eq == std::string::npos) return false;
    const std::string k = item.substr(0, eq);
    const unsigned long long v = std::strtoull(item.c_str() + eq + 1, nullptr, 0);
    if (k == "stretch_swizzle")
      t.stretch_swizzle = v != 0;
    else if (k == "stretch_aligned")
      t.stretch_aligned = v != 0;
    else if (k == "stretch_rows_log2")
      t.stretch_rows_log2 = static_cast<unsigned>(v);
    else if (k == "stretch_cache_max_log2")
      t.stretch_cache_max_log2 = static_cast<unsigned>(v);
    else if (k == "stretch_prefetch_stream")
      t.stretch_prefetch_stream = static_cast<unsigned>(v);
    else if (k == "stretch_prefetch")
      t.stretch_prefetch = static_cast<unsigned>(v);
    else if (k == "stretch_line_order")
      t.stretch_line_order = v != 0;
    else if (k == "tile_walk")
      t.tile_walk = v != 0;
    else if (k == "tile_walk_max_span_bytes")
      t.tile_walk_max_span_bytes = v;
    else if (k == "tile_walk_min_bytes")
      t.tile_walk_min_bytes = v;
    else if (k == "tile_band_rows_big_log2")
      t.tile_band_rows_big_log2 = static_cast<unsigned>(v);
    else if (k == "tile_band_big_min_bytes")
      t.tile_band_big_min_bytes = v;
    else if (k == "tile_band_rows_log2")
      t.tile_band_rows_log2 = static_cast<unsigned>(v);
    else if (k == "tile_walk_xor_misaligned")
      t.tile_walk_xor_misaligned = v != 0;
    else if (k == "tile_walk_q4_cache")
      t.tile_walk_q4_cache = v != 0;
    else if (k == "line_kernels")
      t.line_kernels = v != 0;
    else if (k == "stream_min_bytes")
      t.stream_min_bytes = v;
    else
      return false;
  }
  return true;
#else
  return spec[0] == 0;
#endif
}

}  // namespace
