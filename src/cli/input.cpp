#include "input.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <vector>

#include "common.hpp"
#include "file_io.hpp"
#include "output.hpp"
#include "progress.hpp"

namespace swz::cli {
namespace {

constexpr uint64_t kChunk_B = uint64_t{16} << 20;
constexpr uint64_t kAll = std::numeric_limits<uint64_t>::max();

std::string errno_text() { return std::strerror(errno); }

struct Fd {
  int fd = -1;
  bool owned = false;
  ~Fd() {
    if (owned && fd >= 0) close(fd);
  }
};

/// Reads up to `n` bytes into `dst` (fewer at end of input); pread when
/// `at` >= 0.
uint64_t read_some(int fd, uint8_t* dst, uint64_t n, int64_t at, const std::string& name, Progress* progress) {
  uint64_t done = 0;
  while (done < n) {
    size_t chunk = static_cast<size_t>(std::min(n - done, kChunk_B));
    ssize_t got = at >= 0 ? ::pread(fd, dst + done, chunk, static_cast<off_t>(at + static_cast<int64_t>(done)))
                          : ::read(fd, dst + done, chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail("cannot read " + name + ": " + errno_text());
    if (got == 0) break;
    done += static_cast<uint64_t>(got);
    if (progress) progress->add(static_cast<uint64_t>(got));
  }
  return done;
}

/// Discards `n` bytes of a stream; returns how many there were.
uint64_t skip_stream(int fd, uint64_t n, const std::string& name) {
  static uint8_t scratch[1 << 16];
  uint64_t done = 0;
  while (done < n) {
    uint64_t got = read_some(fd, scratch, std::min<uint64_t>(n - done, sizeof scratch), -1, name, nullptr);
    if (got == 0) break;
    done += got;
  }
  return done;
}

[[noreturn]] void offset_past_end(const std::string& path, uint64_t offset_B, uint64_t have) {
  fail("--offset " + std::to_string(offset_B) + " is past the end of " + input_name(path) + ", which has " +
       bytes_text(have));
}

/// The first bytes of a stream (standard input, a FIFO) already read by
/// peek_input, from `offset_B` on, and the descriptor to read the rest from
/// (one stream at a time per thread: the conversion being set up).
struct StreamPeek {
  bool active = false;
  std::string path;
  int fd = -1;
  bool owned = false;  ///< fd was opened by peek_input
  uint64_t offset_B = 0;
  std::vector<uint8_t> bytes;
};
/// Opens IN ('-': standard input, which must not have been closed at start)
/// into *fd and stats it into *st; errors name IN.
void open_input(const std::string& path, Fd* fd, struct stat* st) {
  if (is_stdin(path)) {
    if (closed_at_start(STDIN_FILENO)) fail("cannot read standard input: it is closed");
    fd->fd = STDIN_FILENO;
  } else {
    fd->fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd->fd < 0) fail("cannot read '" + path + "': " + errno_text());
    fd->owned = true;
  }
  if (fstat(fd->fd, st) != 0) fail("cannot read " + input_name(path) + ": " + errno_text());
}

StreamPeek& stream_peek() {
  thread_local StreamPeek p;  // batch jobs set up their inputs in parallel
  return p;
}

/// A stream (stdin, a FIFO): read it in order. Reads at most `want_B` bytes
/// and one more to learn whether there are more; never more than that.
InputBytes read_stream(int fd, const std::string& path, uint64_t offset_B, uint64_t want_B, bool pad,
                       Progress* progress) {
  const std::string name = input_name(path);
  InputBytes in;
  in.total_known = false;
  std::vector<uint8_t> head;
  StreamPeek& peek = stream_peek();
  if (peek.active && peek.fd == fd) {
    if (peek.offset_B != offset_B) fail("internal: " + name + " was peeked at another offset");
    head = std::move(peek.bytes);
    peek = StreamPeek();
  } else {
    uint64_t skipped = skip_stream(fd, offset_B, name);
    if (skipped < offset_B) offset_past_end(path, offset_B, skipped);
  }
  if (want_B != kAll) {
    in.owner = BigBuffer(want_B, "reading " + name);
    const uint64_t h = std::min<uint64_t>(head.size(), want_B);
    if (h) std::memcpy(in.owner.data(), head.data(), static_cast<size_t>(h));
    if (progress && h) progress->add(h);
    in.size = h + read_some(fd, in.owner.data() + h, want_B - h, -1, name, progress);
    uint8_t extra = 0;
    in.more = head.size() > want_B || (in.size == want_B && read_some(fd, &extra, 1, -1, name, nullptr) == 1);
    in.in_total = in.size + (in.more ? 1 : 0);
    (void)pad;  // the buffer has want_B bytes already, zero past what was read
    return in;
  }
  // To the end: grow by doubling (the pages not yet read stay untouched).
  uint64_t cap = uint64_t{1} << 20;
  while (cap < head.size()) cap *= 2;
  BigBuffer buf(cap, "reading " + name);
  uint64_t size = head.size();
  if (size) std::memcpy(buf.data(), head.data(), head.size());
  if (progress && size) progress->add(size);
  for (;;) {
    if (size == cap) {
      BigBuffer bigger(cap * 2, "reading " + name);
      std::memcpy(bigger.data(), buf.data(), size);
      buf = std::move(bigger);
      cap *= 2;
    }
    uint64_t got = read_some(fd, buf.data() + size, cap - size, -1, name, progress);
    size += got;
    if (size < cap) break;
  }
  in.owner = std::move(buf);
  in.size = in.in_total = size;
  in.total_known = true;
  return in;
}

}  // namespace

std::string input_name(const std::string& path) { return is_stdin(path) ? "standard input" : "'" + path + "'"; }

std::vector<uint8_t> peek_input(const std::string& path, uint64_t offset_B, size_t n) {
  StreamPeek& peek = stream_peek();
  if (peek.active && peek.path == path) {
    if (peek.offset_B != offset_B) fail("internal: " + input_name(path) + " was peeked at another offset");
    return std::vector<uint8_t>(peek.bytes.begin(), peek.bytes.begin() + std::min(n, peek.bytes.size()));
  }
  Fd fd;
  struct stat st {};
  open_input(path, &fd, &st);
  if (S_ISDIR(st.st_mode)) fail(is_stdin(path) ? "cannot read standard input: it is a directory"
                                               : "'" + path + "' is a directory, not a file");
  if (S_ISREG(st.st_mode)) {  // read in place later: nothing to keep
    if (offset_B >= static_cast<uint64_t>(st.st_size)) return {};
    std::vector<uint8_t> buf(static_cast<size_t>(std::min<uint64_t>(n, static_cast<uint64_t>(st.st_size) - offset_B)));
    buf.resize(static_cast<size_t>(read_some(fd.fd, buf.data(), buf.size(), static_cast<int64_t>(offset_B),
                                             input_name(path), nullptr)));
    return buf;
  }
  const std::string name = input_name(path);
  uint64_t skipped = skip_stream(fd.fd, offset_B, name);
  if (skipped < offset_B) offset_past_end(path, offset_B, skipped);
  StreamPeek p;
  p.bytes.resize(n);
  p.bytes.resize(static_cast<size_t>(read_some(fd.fd, p.bytes.data(), n, -1, name, nullptr)));
  p.path = path;
  p.fd = fd.fd;
  p.owned = fd.owned;
  fd.owned = false;  // kept open for the read_input that follows
  p.offset_B = offset_B;
  p.active = true;
  if (peek.owned && peek.fd >= 0) close(peek.fd);
  peek = std::move(p);
  return peek.bytes;
}

InputBytes read_input(const std::string& path, uint64_t offset_B, uint64_t want_B, bool pad_to_want,
                      Progress* progress, FileRead how) {
  Fd fd;
  if (StreamPeek& sp = stream_peek(); sp.active && sp.path == path) {
    // The stream peek_input began: the rest from its descriptor.
    fd.fd = sp.fd;
    fd.owned = sp.owned;
    sp.owned = false;
    return read_stream(fd.fd, path, offset_B, want_B, pad_to_want, progress);
  }
  struct stat st {};
  open_input(path, &fd, &st);
  if (S_ISDIR(st.st_mode)) fail("'" + path + "' is a directory, not a file");
  if (!S_ISREG(st.st_mode)) return read_stream(fd.fd, path, offset_B, want_B, pad_to_want, progress);

  // A regular file (standard input redirected from one included): read it in place.
  const uint64_t have = static_cast<uint64_t>(st.st_size);
  if (offset_B > have) offset_past_end(path, offset_B, have);
  InputBytes in;
  in.in_total = have - offset_B;
  in.size = std::min(want_B, in.in_total);
  in.more = in.in_total > in.size;
  const std::string name = input_name(path);
  if (in.size == 0 && !(pad_to_want && want_B > 0)) return in;
  if (in.size < want_B && pad_to_want) {
    // Short and zero-padded: a fresh buffer of want_B bytes, the file read into its start.
    in.owner = BigBuffer(want_B, "reading " + name);
    uint64_t got = read_some(fd.fd, in.owner.data(), in.size, static_cast<int64_t>(offset_B), name, progress);
    if (got != in.size) fail("cannot read " + name + ": the file shrank while swz read it");
    return in;
  }
  check_allocation(in.size, "reading " + name);
  if (how == FileRead::map_if_possible) {
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    const uint64_t start = offset_B / page * page;
    const uint64_t len = offset_B - start + in.size;
    void* p = mmap(nullptr, static_cast<size_t>(len), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd.fd,
                   static_cast<off_t>(start));
    if (p != MAP_FAILED) {
      arm_sigbus_for(path);
      madvise(p, static_cast<size_t>(len), MADV_SEQUENTIAL);
      in.owner = BigBuffer::adopt(p, len);
      in.skip = offset_B - start;
      if (progress) progress->add(in.size);
      return in;
    }
  }
  in.owner = BigBuffer(in.size, "reading " + name);
#ifdef POSIX_FADV_SEQUENTIAL
  posix_fadvise(fd.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  uint64_t got = read_some(fd.fd, in.owner.data(), in.size, static_cast<int64_t>(offset_B), name, progress);
  if (got != in.size) fail("cannot read " + name + ": file ended early");
  return in;
}

InputKind sniff_input(const uint8_t* data, uint64_t size) {
  auto starts = [&](const char* magic, size_t n) { return size >= n && std::memcmp(data, magic, n) == 0; };
  if (starts("DDS ", 4)) return InputKind::Dds;
  if (starts("\x89PNG\r\n\x1a\n", 8) || starts("\xFF\xD8\xFF", 3) || starts("BM", 2)) return InputKind::Image;
  return InputKind::Raw;
}

uint64_t check_input_size(const std::string& path, uint64_t have_B, uint64_t need_B, bool allow_short,
                          const std::string& offset_text, const std::string& what) {
  const uint64_t missing = need_B > have_B ? need_B - have_B : 0;
  if (missing && !allow_short)
    fail(input_name(path) + " has " + bytes_text(have_B) +
         (offset_text.empty() ? std::string() : " after --offset " + offset_text) + ", less than the " +
         bytes_text(need_B) + " that " + what + " (--allow-short decodes a truncated dump)");
  if (missing)
    warn(input_name(path) + " is " + bytes_text(missing) + " short of the " + bytes_text(need_B) +
         " the layout spans (--allow-short): elements past its end come out as zeros; missing bytes: " +
         std::to_string(missing));
  return missing;
}

}  // namespace swz::cli
