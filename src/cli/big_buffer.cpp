#include "big_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>
#include <mutex>
#include <utility>

#include "common.hpp"
#include "file_io.hpp"
#include "output.hpp"
#include "progress.hpp"

namespace swz::cli {
namespace {

std::string errno_text() { return std::strerror(errno); }

// The message the SIGBUS handler prints: a mapped input shrank (another
// process truncated it) and a page past its new end was touched.
char g_sigbus_message[4200];
size_t g_sigbus_length = 0;

extern "C" void on_sigbus(int) {
  if (g_sigbus_length > 0) {
    ssize_t ignored = ::write(STDERR_FILENO, g_sigbus_message, g_sigbus_length);
    (void)ignored;
    remove_temp_files_from_signal();
    _exit(1);
  }
  remove_temp_files_from_signal();
  std::signal(SIGBUS, SIG_DFL);
  std::raise(SIGBUS);
}

void arm_sigbus(const std::string& path) {
  static std::mutex lock;  // batch mode maps several inputs at once (the message names the latest)
  std::lock_guard<std::mutex> hold(lock);
  std::string m = "swz: error: cannot read '" + path + "': the file shrank while swz read it\n";
  if (m.size() > sizeof g_sigbus_message) m = "swz: error: an input file shrank while swz read it\n";
  std::memcpy(g_sigbus_message, m.data(), m.size());
  g_sigbus_length = m.size();
  std::signal(SIGBUS, on_sigbus);
}

}  // namespace

void arm_sigbus_for(const std::string& path) { arm_sigbus(path); }

BigBuffer::BigBuffer(uint64_t bytes, const std::string& what) {
  if (bytes == 0) return;
  check_allocation(bytes, what);
  void* p = mmap(nullptr, static_cast<size_t>(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) fail("out of memory: " + what + " needs " + bytes_text(bytes) + " (" + errno_text() + ")");
#ifdef MADV_HUGEPAGE
  // Fewer page faults on the first touch where transparent huge pages are on
  // "madvise"; harmless (ignored) elsewhere.
  if (bytes >= (uint64_t{4} << 20)) madvise(p, static_cast<size_t>(bytes), MADV_HUGEPAGE);
#endif
  data_ = static_cast<uint8_t*>(p);
  size_ = bytes;
}

BigBuffer BigBuffer::adopt(void* data, uint64_t bytes) {
  BigBuffer b;
  b.data_ = static_cast<uint8_t*>(data);
  b.size_ = bytes;
  return b;
}

BigBuffer::~BigBuffer() {
  if (data_) munmap(data_, static_cast<size_t>(size_));
}

BigBuffer::BigBuffer(BigBuffer&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

BigBuffer& BigBuffer::operator=(BigBuffer&& o) noexcept {
  if (this != &o) {
    if (data_) munmap(data_, static_cast<size_t>(size_));
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

OutputSpace::OutputSpace(AtomicOutput& file, uint64_t bytes, const std::string& what) : file_(file), size_(bytes) {
  data_ = file_.map(bytes);
  if (!data_) {
    buffer_ = BigBuffer(bytes, what);
    data_ = buffer_.data();
  }
  if (bytes > 0)
    verbose("output: " + what + " (" + bytes_text(bytes) + ") built " +
            (buffer_.size() > 0 ? "in a buffer, then written to '" + file_.path() + "'"
                                : "in place in the mapped output file '" + file_.path() + "'"));
}

void OutputSpace::finish(Progress* progress) {
  if (buffer_.size() > 0) {
    file_.write(buffer_.data(), buffer_.size(), progress);
  } else if (progress) {
    progress->add(size_);
  }
}

}  // namespace swz::cli
