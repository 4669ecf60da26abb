#include "file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>

#include "common.hpp"

namespace swz::cli {
namespace {

std::string errno_text() { return std::strerror(errno); }

/// Bytes of memory this process can expect to get: MemAvailable + SwapFree
/// from /proc/meminfo, else the physical memory size.
uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  uint64_t avail = 0, swap = 0;
  bool have = false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string key;
    uint64_t kb = 0;
    ss >> key >> kb;
    if (key == "MemAvailable:") {
      avail = kb * 1024;
      have = true;
    } else if (key == "SwapFree:") {
      swap = kb * 1024;
    }
  }
  if (have) return avail + swap;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  return std::numeric_limits<uint64_t>::max();
}

// The temporary file to remove if a signal ends the process.
char g_tmp_path[4096];
volatile std::sig_atomic_t g_tmp_live = 0;

extern "C" void on_fatal_signal(int sig) {
  if (g_tmp_live) unlink(g_tmp_path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) fail("cannot read '" + path + "': " + errno_text());
  if (S_ISDIR(st.st_mode)) fail("'" + path + "' is a directory, not a file");
  if (!S_ISREG(st.st_mode)) fail("'" + path + "' is not a regular file");
  return static_cast<uint64_t>(st.st_size);
}

std::vector<uint8_t> allocate(uint64_t bytes, const std::string& what) {
  if (bytes > std::numeric_limits<size_t>::max() / 2)
    fail(what + " needs " + bytes_text(bytes) + ", which this machine cannot address");
  uint64_t avail = available_memory();
  if (bytes > avail)
    fail(what + " needs " + bytes_text(bytes) + ", more than the memory available on this machine (" +
         bytes_text(avail) + ")");
  try {
    return std::vector<uint8_t>(static_cast<size_t>(bytes));
  } catch (const std::bad_alloc&) {
    fail("out of memory: " + what + " needs " + bytes_text(bytes));
  } catch (const std::length_error&) {
    fail(what + " needs " + bytes_text(bytes) + ", which this machine cannot allocate");
  }
}

void read_file_prefix(const std::string& path, uint64_t bytes, std::vector<uint8_t>* out) {
  uint64_t have = file_size(path);
  if (have < bytes) fail("'" + path + "' has " + bytes_text(have) + "; " + bytes_text(bytes) + " are needed");
  *out = allocate(bytes, "reading '" + path + "'");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) fail("cannot open '" + path + "': " + errno_text());
  uint64_t done = 0;
  while (done < bytes) {
    size_t chunk = static_cast<size_t>(std::min<uint64_t>(bytes - done, uint64_t{1} << 30));
    size_t got = std::fread(out->data() + done, 1, chunk, f);
    if (got == 0) {
      bool err = std::ferror(f) != 0;
      std::fclose(f);
      fail("cannot read '" + path + "': " + (err ? errno_text() : std::string("file ended early")));
    }
    done += got;
  }
  std::fclose(f);
}

AtomicOutput::AtomicOutput(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {  // standard output
    fd_ = STDOUT_FILENO;
    direct_ = true;
    return;
  }
  struct stat st {};
  if (stat(path_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail("output '" + path_ + "' is a directory");
    if (!S_ISREG(st.st_mode)) {
      // A device, FIFO or socket (/dev/null, /dev/stdout, a pipe): write to it
      // in place; renaming over it would replace the special file.
      fd_ = open(path_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) fail("cannot open '" + path_ + "': " + errno_text());
      direct_ = true;
      return;
    }
    struct stat lst {};
    if (lstat(path_.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      // Keep the symbolic link: replace the file it points to.
      char* real = realpath(path_.c_str(), nullptr);
      if (!real) fail("cannot resolve '" + path_ + "': " + errno_text());
      path_ = real;
      std::free(real);
    }
  }
  tmp_ = path_ + ".tmp-XXXXXX";
  if (tmp_.size() >= sizeof g_tmp_path) fail("output path '" + path_ + "' is too long");
  fd_ = mkstemp(tmp_.data());
  if (fd_ < 0) fail("cannot create '" + tmp_ + "' (next to the output): " + errno_text());
  std::memcpy(g_tmp_path, tmp_.c_str(), tmp_.size() + 1);
  g_tmp_live = 1;
  std::signal(SIGINT, on_fatal_signal);
  std::signal(SIGTERM, on_fatal_signal);
  std::signal(SIGHUP, on_fatal_signal);
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) discard();
}

void AtomicOutput::discard() noexcept {
  if (direct_) {
    if (fd_ > STDERR_FILENO) close(fd_);
    fd_ = -1;
    return;
  }
  g_tmp_live = 0;
  if (fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
  if (!tmp_.empty()) unlink(tmp_.c_str());
}

void AtomicOutput::write(const void* data, uint64_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (bytes > 0) {
    size_t chunk = static_cast<size_t>(std::min<uint64_t>(bytes, uint64_t{1} << 30));
    ssize_t n = ::write(fd_, p, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write '" + tmp_ + "': " + errno_text());
    }
    p += n;
    bytes -= static_cast<uint64_t>(n);
  }
}

void AtomicOutput::commit() {
  if (direct_) {
    int fd = fd_;
    fd_ = -1;
    committed_ = true;
    if (fd > STDERR_FILENO && close(fd) != 0) fail("cannot write '" + path_ + "': " + errno_text());
    return;
  }
  // mkstemp makes the file 0600; give it the permissions a plain create would.
  mode_t mask = umask(0);
  umask(mask);
  if (fchmod(fd_, 0666 & ~mask) != 0) fail("cannot set permissions of '" + tmp_ + "': " + errno_text());
  if (close(fd_) != 0) {
    fd_ = -1;
    fail("cannot write '" + tmp_ + "': " + errno_text());
  }
  fd_ = -1;
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) fail("cannot rename '" + tmp_ + "' to '" + path_ + "': " + errno_text());
  committed_ = true;
  g_tmp_live = 0;
}

void write_file_atomic(const std::string& path, const void* data, uint64_t bytes) {
  AtomicOutput out(path);
  out.write(data, bytes);
  out.commit();
}

}  // namespace swz::cli
