// The swz command's file layer (src/cli/file_io.cpp, input.cpp, progress.cpp)
// on the paths the end-to-end scripts cannot choose: the named temporary file
// (filesystems without O_TMPFILE) and its removal on every signal that ends
// the process, per output; descriptor paths written in place; the pread input
// path; the progress line.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "batch.hpp"
#include "common.hpp"
#include "file_io.hpp"
#include "input.hpp"
#include "progress.hpp"

namespace fs = std::filesystem;
using swz::cli::AtomicOutput;
using swz::cli::TempFile;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "swz-file-io-XXXXXX").string();
    EXPECT_NE(mkdtemp(t.data()), nullptr);
    path = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path)) out.push_back(e.path().filename().string());
    return out;
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + " ";
  return s;
}

TEST(CliFileIo, NamedTemporaryCommitsAndLeavesNothingElse) {
  TempDir d;
  {
    AtomicOutput out((d.path / "a.bin").string(), TempFile::named);
    EXPECT_FALSE(out.in_place());
    EXPECT_EQ(swz::cli::temp_files_in_flight(), 1u);
    out.write("hello", 5);
    out.commit();
  }
  EXPECT_EQ(swz::cli::temp_files_in_flight(), 0u);
  EXPECT_EQ(slurp(d.path / "a.bin"), "hello");
  EXPECT_EQ(d.names(), std::vector<std::string>{"a.bin"});
  {
    AtomicOutput out((d.path / "b.bin").string(), TempFile::named);
    out.write("x", 1);
  }  // no commit: discarded
  EXPECT_EQ(d.names(), std::vector<std::string>{"a.bin"});
  EXPECT_EQ(swz::cli::temp_files_in_flight(), 0u);
}

TEST(CliFileIo, NamedTemporaryIsMappable) {
  TempDir d;
  AtomicOutput out((d.path / "m.bin").string(), TempFile::named);
  uint8_t* p = out.map(8192);
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 8192; ++i) EXPECT_EQ(p[i], 0);
  std::memset(p, 7, 8192);
  out.commit();
  EXPECT_EQ(slurp(d.path / "m.bin"), std::string(8192, '\7'));
}

// Four outputs in flight on four threads (a batch with --jobs 4), then the
// signal: every temporary file must be gone, and the process ends by that
// signal. One global record (the old design) removed only the latest.
void expect_all_removed_on(int sig, TempFile kind) {
  TempDir d;
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    struct rlimit no_core {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    std::atomic<int> ready{0};
    std::vector<std::thread> jobs;
    for (int j = 0; j < 4; ++j)
      jobs.emplace_back([&, j] {
        AtomicOutput out((d.path / ("out" + std::to_string(j) + ".bin")).string(), kind);
        out.write("data", 4);
        ++ready;
        for (;;) pause();
      });
    while (ready.load() < 4) usleep(1000);
    if (kind == TempFile::unnamed_if_possible) {
      // An unnamed temporary file has no name to leave behind.
      _exit(swz::cli::temp_files_in_flight() == 0 ? 3 : 6);
    }
    if (swz::cli::temp_files_in_flight() != 4) _exit(5);
    kill(getpid(), sig);
    for (;;) pause();
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  if (kind == TempFile::unnamed_if_possible) {
    if (WIFEXITED(status) && WEXITSTATUS(status) == 6) GTEST_SKIP() << "no O_TMPFILE in " << d.path;
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3) << "status " << status;
  } else {
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "signal " << sig << ": status " << status;
  }
  EXPECT_TRUE(d.names().empty()) << "signal " << sig << " left: " << joined(d.names());
}

// Whether this environment delivers SIG at all: a child with the default
// disposition raises it and must die by it within 10 s. Linux always does;
// qemu-user keeps the highest real-time signals for itself and never delivers
// them to the emulated program.
bool signal_is_deliverable(int sig) {
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    struct rlimit no_core {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    kill(getpid(), sig);
    usleep(10'000'000);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

TEST(CliFileIo, EveryTerminatingSignalRemovesEveryNamedTemporary) {
  int tested = 0;
  std::string undeliverable;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGQUIT, SIGVTALRM, SIGPROF, SIGXCPU,
                  SIGABRT, SIGRTMIN, SIGRTMAX}) {
    if (!signal_is_deliverable(sig)) {
      undeliverable.append(" ").append(std::to_string(sig));
      continue;
    }
    expect_all_removed_on(sig, TempFile::named);
    ++tested;
  }
  // Only the real-time signals may be missing, and only under an emulator.
  EXPECT_GE(tested, 12) << "signals this environment does not deliver:" << undeliverable;
  if (!undeliverable.empty()) std::printf("signals not delivered here, not tested:%s\n", undeliverable.c_str());
}

TEST(CliFileIo, UnnamedTemporariesHaveNoName) { expect_all_removed_on(SIGTERM, TempFile::unnamed_if_possible); }

TEST(CliFileIo, DescriptorPathsAreWrittenInPlace) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  for (const std::string& path : {"/dev/fd/" + std::to_string(fds[1]), "/proc/self/fd/" + std::to_string(fds[1])}) {
    {
      AtomicOutput out(path);
      EXPECT_TRUE(out.in_place()) << path;
      out.write("abc", 3);
      out.commit();
    }
    char buf[8] = {};
    ASSERT_EQ(read(fds[0], buf, sizeof buf), 3) << path;
    EXPECT_EQ(std::string(buf, 3), "abc");
  }
  close(fds[0]);
  close(fds[1]);
  // A regular file behind one of this process's descriptors: written through a
  // duplicate, as a shell redirection would be: at the descriptor's offset,
  // with its flags (O_APPEND), nothing truncated; the descriptor still names
  // the file; no temporary file.
  TempDir d;
  const fs::path f = d.path / "r.bin";
  std::ofstream(f) << "old contents, longer";
  const int fd = open(f.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  {
    AtomicOutput out("/dev/fd/" + std::to_string(fd));
    EXPECT_TRUE(out.in_place());
    out.write("new", 3);
    out.commit();
  }
  struct stat a {}, b{};
  ASSERT_EQ(fstat(fd, &a), 0);
  ASSERT_EQ(stat(f.c_str(), &b), 0);
  EXPECT_EQ(a.st_ino, b.st_ino);
  EXPECT_EQ(slurp(f), "new contents, longer");
  EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 3) << "the descriptor's offset moved with the write";
  close(fd);
  const fs::path log = d.path / "log.txt";
  std::ofstream(log) << "head\n";
  const int app = open(log.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(app, 0);
  {
    AtomicOutput out("/proc/self/fd/" + std::to_string(app));
    out.write("tail\n", 5);
    out.commit();
  }
  close(app);
  EXPECT_EQ(slurp(log), "head\ntail\n") << ">> appends";
  EXPECT_EQ(d.names().size(), 2u) << joined(d.names());
}

TEST(CliFileIo, PreadInputPathMatchesTheMapping) {
  TempDir d;
  std::string bytes;
  for (int i = 0; i < 10000; ++i) bytes.push_back(static_cast<char>(i * 7));
  std::ofstream(d.path / "in.bin", std::ios::binary) << bytes;
  const std::string in = (d.path / "in.bin").string();
  for (auto how : {swz::cli::FileRead::map_if_possible, swz::cli::FileRead::read}) {
    swz::cli::InputBytes got = swz::cli::read_input(in, 4099, 5000, false, nullptr, how);
    ASSERT_EQ(got.size, 5000u);
    EXPECT_TRUE(got.more);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(got.data()), 5000), bytes.substr(4099, 5000));
    swz::cli::InputBytes pad = swz::cli::read_input(in, 9000, 3000, true, nullptr, how);
    ASSERT_EQ(pad.size, 1000u);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(pad.data()), 1000), bytes.substr(9000));
    for (int i = 1000; i < 3000; ++i) EXPECT_EQ(pad.data()[i], 0);
  }
}

TEST(CliProgress, DrawsAfterItsDelayOnly) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    swz::cli::Progress p("swizzle", 100, 0, true, f, 0.0);
    p.add(50);
    p.add(50);
  }
  std::fflush(f);
  std::rewind(f);
  char buf[512] = {};
  size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  const std::string s(buf, n);
  EXPECT_NE(s.find("swz swizzle ["), std::string::npos) << s;
  EXPECT_NE(s.find("100%"), std::string::npos) << s;
  EXPECT_NE(s.find("ETA"), std::string::npos) << s;
  std::fclose(f);

  f = std::tmpfile();
  {
    swz::cli::Progress p("swizzle", 100, 0, true, f, 60.0);
    p.add(100);
  }
  EXPECT_EQ(std::ftell(f), 0) << "drawn before its delay";
  std::fclose(f);
}

}  // namespace

namespace {

TEST(CliFileIo, NamedTemporaryFitsNameMaxAndKeepsTheMode) {
  TempDir d;
  const fs::path out = d.path / (std::string(250, 'n') + ".bin");  // OUT.tmp-XXXXXX would pass NAME_MAX
  std::ofstream(out) << "old";
  ASSERT_EQ(chmod(out.c_str(), 0640), 0);
  {
    AtomicOutput o(out.string(), TempFile::named);
    o.write("new", 3);
    o.commit();
  }
  EXPECT_EQ(slurp(out), "new");
  struct stat st {};
  ASSERT_EQ(stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_EQ(d.names().size(), 1u);
}

TEST(CliFileIo, NamedTemporaryPastFileSizeLimitIsAnErrorAndLeavesNothing) {
  TempDir d;
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    struct rlimit lim {16384, 16384};
    setrlimit(RLIMIT_FSIZE, &lim);
    std::vector<char> big(65536, 'x');
    try {
      AtomicOutput o((d.path / "big.bin").string(), TempFile::named);
      o.write(big.data(), big.size());
      o.commit();
    } catch (const swz::cli::Error& e) {
      _exit(std::string(e.what()).find("cannot write") != std::string::npos ? 0 : 2);
    }
    _exit(1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_TRUE(d.names().empty()) << joined(d.names());
}

}  // namespace

namespace {

// A batch whose worker threads the system refuses (address space for their
// stacks) runs every job on the threads it got, instead of terminating.
TEST(CliBatch, RefusedWorkerThreadsStillRunEveryJob) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "address-space limits and sanitizers do not mix";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "address-space limits and sanitizers do not mix";
#endif
#endif
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<swz::cli::BatchJob> jobs(200, swz::cli::BatchJob{"in", "out"});
    long pages = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    if (pages <= 0) _exit(4);
    const rlim_t vm = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE));
    struct rlimit lim {vm + (rlim_t{48} << 20), vm + (rlim_t{48} << 20)};
    if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(5);
    std::atomic<size_t> done{0};
    size_t failed = swz::cli::run_batch(jobs, 200, [&](const swz::cli::BatchJob&) { ++done; });
    _exit(failed == 0 && done.load() == jobs.size() ? 0 : 3);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}

}  // namespace

namespace {

// A stream's first bytes, peeked to learn its kind, come first in the read
// that follows; the read takes at most what it asks for plus one byte.
TEST(CliInput, PeekedStreamBytesAreKeptAndReadsAreBounded) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const std::string text = "0123456789abcdefghij";
  ASSERT_EQ(write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fds[1]);
  const std::string path = "/dev/fd/" + std::to_string(fds[0]);
  std::vector<uint8_t> head = swz::cli::peek_input(path, 2, 4);
  EXPECT_EQ(std::string(head.begin(), head.end()), "2345");
  swz::cli::InputBytes in = swz::cli::read_input(path, 2, 10, false);
  ASSERT_EQ(in.size, 10u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(in.data()), 10), "23456789ab");
  EXPECT_TRUE(in.more);
  EXPECT_FALSE(in.total_known);
  char rest[32] = {};
  // What the bounded read left: everything after the one extra byte it took.
  EXPECT_EQ(read(fds[0], rest, sizeof rest), 7);
  EXPECT_EQ(std::string(rest, 7), "defghij");
  close(fds[0]);
}

}  // namespace
