// swz internal — a small pool of threads that copies lists of byte ranges
// (the GPU host path's copies into and out of pinned staging memory). Threads
// start on first use and live until the pool is stopped or destroyed; the
// calling thread copies too, so a pool of n threads has n - 1 helpers.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace swz::gpu::detail {

struct CopySpan {
  void* dst;
  const void* src;
  uint64_t bytes;
};

class CopyPool {
 public:
  CopyPool() = default;
  ~CopyPool() { stop(); }
  CopyPool(const CopyPool&) = delete;
  CopyPool& operator=(const CopyPool&) = delete;

  /// Copies every span (they must not overlap one another), split into parts
  /// of at least `min_part_B` over up to `threads` threads (the caller's
  /// included); returns when all bytes are copied. Never throws: when a
  /// helper cannot be started the caller copies its share.
  /// With `stream`, the destination is written with non-temporal stores
  /// (x86; elsewhere plain memcpy), fenced before copy() returns.
  void copy(const CopySpan* spans, size_t n, unsigned threads, bool stream = false,
            uint64_t min_part_B = uint64_t{256} << 10);
  /// Joins the helpers (idle ones; call only when no copy() is running).
  void stop();

 private:
  struct Part {
    uint8_t* dst;
    const uint8_t* src;
    uint64_t bytes;
  };
  void ensure_helpers(unsigned helpers);
  void helper_main();
  bool run_one(std::unique_lock<std::mutex>& lk);

  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::vector<std::thread> helpers_;
  std::vector<Part> parts_;
  bool stream_ = false;  // the current copy's store kind
  size_t next_ = 0;      // first part not yet taken
  size_t pending_ = 0;   // parts not yet finished
  bool stopping_ = false;
};

}  // namespace swz::gpu::detail
