// Reliability cases of issue 18 (docs/RELIABILITY.md): failures of the
// system under the library (threads refused) and inputs sized to exhaust time
// or memory. Each case asserts a clean Status and a correct or untouched
// output, never an abort.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/parallel.hpp"
#include "swz/swz.hpp"

using namespace swz;

namespace {

TextureDesc desc_of(const char* format, uint32_t w, uint32_t h, uint32_t depth = 1) {
  TextureDesc d;
  EXPECT_TRUE(find_format(format, &d.format).ok()) << format;
  d.width = w;
  d.height = h;
  if (depth > 1) {
    d.dimension = Dimension::Texture3D;
    d.depth = depth;
  }
  return d;
}

Layout std64k(const TextureDesc& d) {
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  const Status st = make_layout(d, spec, &L);
  EXPECT_TRUE(st.ok()) << st.message();
  return L;
}

// Restores the thread-start budget when a test ends, pass or fail.
struct ThreadBudget {
  explicit ThreadBudget(long n) { detail::g_thread_start_budget_for_testing = n; }
  ~ThreadBudget() { detail::g_thread_start_budget_for_testing = -1; }
};

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // sanitizers abort on a refused mapping by design
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Bytes of address space this process maps now (/proc/self/statm, first field in pages).
uint64_t mapped_bytes() {
  unsigned long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%lu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return uint64_t{pages} * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

// The real failure, not the hook: in a child process whose address space is
// capped 64 MiB above what it maps, std::thread cannot map an 8 MiB stack
// after a few threads. The copy must still finish correctly (exit 0), not
// abort with "terminate called without an active exception" (issue 18).
TEST(Reliability, ThreadsRefusedByAddressSpaceLimit) {
  if (kSanitized) GTEST_SKIP() << "sanitizer runtimes abort on refused mappings";
  const Layout L = std64k(desc_of("R8_UNORM", 2048, 2048));
  const uint64_t rp = 2048, dp = rp * 2048;
  std::vector<uint8_t> lin(dp), res(L.size()), want(L.size()), back(dp);
  for (size_t i = 0; i < lin.size(); ++i) lin[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  CopyOptions one;
  one.threads = 1;
  ASSERT_TRUE(write_to_subresource(L, want.data(), want.size(), 0, nullptr, lin.data(), lin.size(), rp, dp, one).ok());
  std::fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const rlimit lim{mapped_bytes() + (uint64_t{64} << 20), RLIM_INFINITY};
    if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(3);
    CopyOptions o;
    o.threads = 1000;
    if (!write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), rp, dp, o).ok()) _exit(4);
    if (res != want) _exit(5);
    if (!read_from_subresource(back.data(), back.size(), rp, dp, L, res.data(), res.size(), 0, nullptr, o).ok()) _exit(6);
    _exit(back == lin ? 0 : 7);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// std::thread throws std::system_error when the system refuses a thread
// (EAGAIN: thread limit, address space). The copy used to destroy a vector of
// joinable threads and std::terminate the process, a Python interpreter
// included. Now the parts whose thread did not start run on the calling thread
// and the result equals the one-thread copy.
TEST(Reliability, RefusedThreadsStillCopyEverything) {
  for (const TextureDesc& d : {desc_of("R8_UNORM", 1024, 1024), desc_of("R8G8B8A8_UNORM", 64, 64, 64)}) {
    const Layout L = std64k(d);
    const SubresourceLayout& s = L.sub(0);
    const uint64_t rp = uint64_t{s.width_el} * s.element_bytes, dp = rp * s.height_el;
    std::vector<uint8_t> lin(dp * s.depth);
    for (size_t i = 0; i < lin.size(); ++i) lin[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    std::vector<uint8_t> want(L.size(), 0), back(lin.size());
    CopyOptions one;
    one.threads = 1;
    ASSERT_TRUE(write_to_subresource(L, want.data(), want.size(), 0, nullptr, lin.data(), lin.size(), rp, dp, one).ok());
    for (long budget : {0L, 1L, 3L})
      for (unsigned threads : {8u, 200000u}) {
        SCOPED_TRACE("budget " + std::to_string(budget) + ", threads " + std::to_string(threads));
        ThreadBudget guard(budget);
        CopyOptions o;
        o.threads = threads;
        std::vector<uint8_t> res(L.size(), 0);
        ASSERT_TRUE(write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), rp, dp, o).ok());
        EXPECT_TRUE(res == want);
        std::fill(back.begin(), back.end(), 0);
        ASSERT_TRUE(read_from_subresource(back.data(), back.size(), rp, dp, L, res.data(), res.size(), 0, nullptr, o).ok());
        EXPECT_TRUE(back == lin);
      }
  }
}
