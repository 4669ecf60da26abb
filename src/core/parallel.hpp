// swz internal — run independent parts of one copy on threads, never failing.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>

namespace swz::detail {

/// Runs work(i) for every i in [0, n). Part 0 runs on the calling thread and
/// parts 1..n-1 on new threads as far as the system grants them; a part whose
/// thread cannot start (std::system_error, std::bad_alloc) runs on the calling
/// thread instead. Every part has run when this returns; it never throws
/// (work must not throw).
void run_parts(std::size_t n, const std::function<void(std::size_t)>& work) noexcept;

/// std::thread::hardware_concurrency(), at least 1, read once per process.
/// glibc answers that query by opening and reading /sys/devices/system/cpu/online
/// (three system calls, 2-20 us), which automatic threading must not pay on
/// every copy (on 256 KiB-1 MiB copies it would make threads = 0 slower than
/// threads = 1).
unsigned hardware_threads() noexcept;

/// Test hook: how many more thread starts succeed before starting a thread
/// fails as if the system refused it; negative = no limit (the default).
extern std::atomic<long> g_thread_start_budget_for_testing;

}  // namespace swz::detail
