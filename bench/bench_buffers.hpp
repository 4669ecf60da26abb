// Buffers for the CPU benchmarks that measure users' conditions
// (bench_matrix.cpp, bench_tegra.cpp): anonymous mappings pre-faulted with
// non-zero bytes, either page-aligned on huge pages or on 4 KiB pages with
// the pointer 16 bytes past a 64-byte boundary, as malloc and numpy hand out
// large arrays. And the median the tables report.
#pragma once
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

constexpr size_t kUserOffset_B = 16;  // 16 mod 64, as malloc's large blocks

/// One mapping, grown on demand; `base + kUserOffset_B` for user buffers.
struct Arena {
  uint8_t* base = nullptr;
  size_t cap = 0;
  bool huge = false;
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() { release(); }
  void release() {
    if (base) munmap(base, cap);
    base = nullptr;
    cap = 0;
  }
  /// At least n bytes past a page (plus room for the user offset); huge
  /// pages (MADV_HUGEPAGE) or 4 KiB pages (MADV_NOHUGEPAGE). False when the
  /// mapping fails.
  bool reserve(size_t n, bool want_huge) {
    n += 4096;
    if (base && n <= cap && huge == want_huge) return true;
    release();
    cap = (n + (2u << 20) - 1) & ~size_t{(2u << 20) - 1};
    void* m = mmap(nullptr, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      base = nullptr;
      cap = 0;
      return false;
    }
    base = static_cast<uint8_t*>(m);
    huge = want_huge;
    madvise(base, cap, want_huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    for (size_t i = 0; i < cap; ++i) base[i] = static_cast<uint8_t>(i * 131 + (i >> 12));  // pre-fault, non-zero
    return true;
  }
};

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace
