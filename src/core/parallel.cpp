#include "core/parallel.hpp"

#include <algorithm>
#include <cerrno>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace swz::detail {

std::atomic<long> g_thread_start_budget_for_testing{-1};

unsigned hardware_threads() noexcept {
  static const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  return n;
}

namespace {

std::thread start_thread(const std::function<void(std::size_t)>& work, std::size_t i) {
  long b = g_thread_start_budget_for_testing.load();
  while (b >= 0) {
    if (b == 0) throw std::system_error(EAGAIN, std::generic_category(), "thread start refused (test hook)");
    if (g_thread_start_budget_for_testing.compare_exchange_weak(b, b - 1)) break;
  }
  return std::thread([&work, i] { work(i); });
}

}  // namespace

void run_parts(std::size_t n, const std::function<void(std::size_t)>& work) noexcept {
  if (n == 0) return;
  std::vector<std::thread> pool;
  std::size_t started = 1;  // parts [1, started) run on pool threads
  try {
    pool.reserve(n - 1);
    for (; started < n; ++started) pool.push_back(start_thread(work, started));
  } catch (...) {
    // The system refused a thread (or the memory for the list of threads):
    // this thread runs the parts that did not start.
  }
  work(0);
  for (std::size_t i = started; i < n; ++i) work(i);
  for (auto& t : pool) t.join();
}

}  // namespace swz::detail
