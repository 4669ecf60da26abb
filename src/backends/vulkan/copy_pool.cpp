// swz internal — CopyPool (see copy_pool.hpp).
#include "backends/vulkan/copy_pool.hpp"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define SWZ_POOL_STREAM 1
#endif

namespace swz::gpu::detail {

namespace {
// memcpy, or with non-temporal stores (then fenced: the stores are weakly
// ordered, and another thread or the GPU reads them next).
void copy_bytes(uint8_t* dst, const uint8_t* src, uint64_t n, bool stream) {
#ifdef SWZ_POOL_STREAM
  if (stream && n >= 256) {
    const uint64_t head = (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15;
    std::memcpy(dst, src, head);
    uint64_t i = head;
    for (; i + 64 <= n; i += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
      const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
    }
    std::memcpy(dst + i, src + i, n - i);
    _mm_sfence();
    return;
  }
#else
  (void)stream;
#endif
  std::memcpy(dst, src, n);
}
}  // namespace

void CopyPool::ensure_helpers(unsigned helpers) {
  while (helpers_.size() < helpers) {
    try {
      helpers_.emplace_back([this] { helper_main(); });
    } catch (...) {
      return;  // fewer helpers: the caller copies more
    }
  }
}

// Takes one part (mu_ held on entry and exit), copies it without the lock.
bool CopyPool::run_one(std::unique_lock<std::mutex>& lk) {
  if (next_ >= parts_.size()) return false;
  const Part p = parts_[next_++];
  const bool stream = stream_;
  lk.unlock();
  copy_bytes(p.dst, p.src, p.bytes, stream);
  lk.lock();
  if (--pending_ == 0) done_cv_.notify_all();
  return true;
}

void CopyPool::helper_main() {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    work_cv_.wait(lk, [this] { return stopping_ || next_ < parts_.size(); });
    if (stopping_) return;
    run_one(lk);
  }
}

void CopyPool::copy(const CopySpan* spans, size_t n, unsigned threads, bool stream, uint64_t min_part_B) {
  uint64_t total = 0;
  for (size_t i = 0; i < n; ++i) total += spans[i].bytes;
  if (total == 0) return;
  threads = std::max(1u, threads);
  if (threads == 1 || total < 2 * min_part_B) {
    for (size_t i = 0; i < n; ++i)
      copy_bytes(static_cast<uint8_t*>(spans[i].dst), static_cast<const uint8_t*>(spans[i].src), spans[i].bytes,
                 stream);
    return;
  }
  // Parts of about total / threads bytes, 4 KiB multiples, at least min_part_B.
  uint64_t part = std::max<uint64_t>(min_part_B, (total / threads + 4095) / 4096 * 4096);
  std::unique_lock<std::mutex> lk(mu_);
  ensure_helpers(threads - 1);
  parts_.clear();
  next_ = 0;
  try {
    for (size_t i = 0; i < n; ++i)
      for (uint64_t at = 0; at < spans[i].bytes; at += part)
        parts_.push_back({static_cast<uint8_t*>(spans[i].dst) + at, static_cast<const uint8_t*>(spans[i].src) + at,
                          std::min(part, spans[i].bytes - at)});
  } catch (...) {
    parts_.clear();
    lk.unlock();
    for (size_t i = 0; i < n; ++i)
      copy_bytes(static_cast<uint8_t*>(spans[i].dst), static_cast<const uint8_t*>(spans[i].src), spans[i].bytes,
                 stream);
    return;
  }
  pending_ = parts_.size();
  stream_ = stream;
  work_cv_.notify_all();
  while (run_one(lk)) {
  }
  done_cv_.wait(lk, [this] { return pending_ == 0; });
  parts_.clear();
  next_ = 0;
}

void CopyPool::stop() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : helpers_)
    if (t.joinable()) t.join();
  helpers_.clear();
  std::lock_guard<std::mutex> g(mu_);
  stopping_ = false;
}

}  // namespace swz::gpu::detail
