// Streaming-load copy out of write-combined memory (core/kernel.hpp).
// On WC memory an ordinary load is uncached and serialised; movntdqa fills a
// streaming-load buffer with a whole 64-byte line per request, so reading the
// four 16-byte quarters of a line back to back costs about one bus round
// trip instead of four (Intel's "Increasing Memory Throughput With Intel
// Streaming SIMD Extensions 4 (Intel SSE4) Streaming Load" white paper).
#include "core/kernel.hpp"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SWZ_STREAM_LOAD_X86 1
#endif

namespace swz::detail {
namespace {

#ifdef SWZ_STREAM_LOAD_X86
__attribute__((target("sse4.1"))) void stream_part(uint8_t* dst, const uint8_t* src, uint64_t n) {
  // Head up to a 16-byte boundary of the source with plain loads.
  const uint64_t head = std::min<uint64_t>(n, (16 - (reinterpret_cast<uintptr_t>(src) & 15)) & 15);
  std::memcpy(dst, src, head);
  dst += head;
  src += head;
  n -= head;
  // Whole 64-byte groups: four streaming loads, then four stores.
  uint64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m128i a = _mm_stream_load_si128(reinterpret_cast<__m128i*>(const_cast<uint8_t*>(src + i)));
    __m128i b = _mm_stream_load_si128(reinterpret_cast<__m128i*>(const_cast<uint8_t*>(src + i + 16)));
    __m128i c = _mm_stream_load_si128(reinterpret_cast<__m128i*>(const_cast<uint8_t*>(src + i + 32)));
    __m128i d = _mm_stream_load_si128(reinterpret_cast<__m128i*>(const_cast<uint8_t*>(src + i + 48)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
  for (; i + 16 <= n; i += 16)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                     _mm_stream_load_si128(reinterpret_cast<__m128i*>(const_cast<uint8_t*>(src + i))));
  std::memcpy(dst + i, src + i, n - i);
}
bool have_sse41() {
  static const bool has = __builtin_cpu_supports("sse4.1");
  return has;
}
#endif

void copy_part(uint8_t* dst, const uint8_t* src, uint64_t n) {
#ifdef SWZ_STREAM_LOAD_X86
  if (have_sse41()) {
    stream_part(dst, src, n);
    return;
  }
#endif
  std::memcpy(dst, src, n);
}

}  // namespace

void stream_load_copy(void* dst, const void* src, uint64_t n, unsigned threads) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(n >> 20) + 1));
  if (threads == 1) {
    copy_part(d, s, n);
    return;
  }
  const uint64_t part = (n / threads + 63) / 64 * 64;
  std::vector<std::thread> th;
  uint64_t done_by_threads = 0;
  try {
    for (unsigned t = 1; t < threads; ++t) {
      const uint64_t lo = std::min<uint64_t>(n, t * part), hi = std::min<uint64_t>(n, lo + part);
      if (lo >= hi) break;
      th.emplace_back([=] { copy_part(d + lo, s + lo, hi - lo); });
      done_by_threads = hi;
    }
  } catch (...) {
    // A thread that does not start: this thread copies its part below.
  }
  copy_part(d, s, std::min(n, part));
  if (done_by_threads < n && std::min(n, part) < n) {
    const uint64_t from = std::max(done_by_threads, std::min(n, part));
    copy_part(d + from, s + from, n - from);
  }
  for (auto& x : th) x.join();
}

}  // namespace swz::detail
