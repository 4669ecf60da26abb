#include "file_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
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
#include <random>
#include <sstream>

#include "common.hpp"
#include "pixel_buffer.hpp"
#include "progress.hpp"

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

void check_allocation(uint64_t bytes, const std::string& what) {
  if (bytes > std::numeric_limits<size_t>::max() / 2)
    fail(what + " needs " + bytes_text(bytes) + ", which this machine cannot address");
  // Below 16 MiB the allocation itself reports a shortage (bad_alloc): /proc/meminfo is read only
  // for sizes that could exhaust the machine, not for every image.
  if (bytes < (uint64_t{16} << 20)) return;
  uint64_t avail = available_memory();
  if (bytes > avail)
    fail(what + " needs " + bytes_text(bytes) + ", more than the memory available on this machine (" +
         bytes_text(avail) + ")");
}

namespace {

template <class Vector>
Vector allocate_vector(uint64_t bytes, const std::string& what) {
  check_allocation(bytes, what);
  try {
    return Vector(static_cast<size_t>(bytes));
  } catch (const std::bad_alloc&) {
    fail("out of memory: " + what + " needs " + bytes_text(bytes));
  } catch (const std::length_error&) {
    fail(what + " needs " + bytes_text(bytes) + ", which this machine cannot allocate");
  }
}

}  // namespace

std::vector<uint8_t> allocate(uint64_t bytes, const std::string& what) {
  return allocate_vector<std::vector<uint8_t>>(bytes, what);
}

PixelBuffer allocate_pixels(uint64_t bytes, const std::string& what) {
  return allocate_vector<PixelBuffer>(bytes, what);
}

void read_file_prefix(const std::string& path, uint64_t bytes, PixelBuffer* out) {
  uint64_t have = file_size(path);
  if (have < bytes) fail("'" + path + "' has " + bytes_text(have) + "; " + bytes_text(bytes) + " are needed");
  *out = allocate_pixels(bytes, "reading '" + path + "'");
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

namespace {

std::string dir_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// cp's rule for a symbolic link at OUT: write through it. A live link's target
// is replaced; a dangling link's target is created (as POSIX cp does; GNU cp
// refuses a dangling link unless POSIXLY_CORRECT is set). The link itself is
// never replaced. Returns the path of the regular file (or special file, or
// nothing yet) at the end of the chain.
std::string follow_links(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat lst {};
    if (lstat(p.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) return p;
    std::string target(static_cast<size_t>(lst.st_size > 0 ? lst.st_size : 255) + 1, '\0');
    ssize_t n = readlink(p.c_str(), target.data(), target.size());
    if (n < 0) fail("cannot read the symbolic link '" + p + "': " + errno_text());
    if (static_cast<size_t>(n) >= target.size()) fail("the symbolic link '" + p + "' changed while swz read it");
    target.resize(static_cast<size_t>(n));
    if (target.empty()) fail("the symbolic link '" + p + "' is empty");
    p = target[0] == '/' ? target : dir_of(p) + "/" + target;
  }
  fail("output '" + path + "': too many levels of symbolic links");
}

// A temporary name next to `target` that fits in NAME_MAX: the target's name,
// cut to fit, then ".tmp-" and six random characters.
std::string temp_name(const std::string& target, bool with_random) {
  constexpr size_t kSuffix = 11;  // ".tmp-XXXXXX"
  long name_max = pathconf(dir_of(target).c_str(), _PC_NAME_MAX);
  if (name_max <= 0 || name_max > 255) name_max = 255;
  std::string base = base_of(target);
  if (base.size() + kSuffix > static_cast<size_t>(name_max)) base.resize(static_cast<size_t>(name_max) - kSuffix);
  std::string suffix = ".tmp-XXXXXX";
  if (with_random) {
    static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static std::random_device rd;
    for (size_t i = 5; i < suffix.size(); ++i) suffix[i] = kChars[rd() % (sizeof kChars - 1)];
  }
  const std::string dir = dir_of(target);
  return (target.find('/') == std::string::npos ? std::string() : (dir == "/" ? dir : dir + "/")) + base + suffix;
}

}  // namespace

AtomicOutput::AtomicOutput(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {  // standard output
    fd_ = STDOUT_FILENO;
    direct_ = true;
    return;
  }
  target_ = follow_links(path_);
  struct stat st {};
  if (stat(target_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail("output '" + path_ + "' is a directory");
    if (!S_ISREG(st.st_mode)) {
      // A device, FIFO or socket (/dev/null, /dev/stdout, a pipe): write to it
      // in place; renaming over it would replace the special file.
      fd_ = open(target_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) fail("cannot open '" + path_ + "': " + errno_text());
      direct_ = true;
      return;
    }
    // The replaced file keeps its permissions and, where allowed, its owner.
    keep_mode_ = true;
    mode_ = st.st_mode & 07777;
    uid_ = st.st_uid;
    gid_ = st.st_gid;
  }
  // A file past RLIMIT_FSIZE: let write() fail with EFBIG (reported, the
  // temporary removed) instead of SIGXFSZ killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
#ifdef O_TMPFILE
  // An unnamed file in OUT's directory: a process killed in any way (SIGKILL
  // included) leaves nothing behind. It gets a name only at commit(). Needs
  // /proc to link it (linkat of /proc/self/fd/N works without privileges).
  // SWZ_TEST_NAMED_TEMP=1 takes the fallback below (its tests).
  const char* named = std::getenv("SWZ_TEST_NAMED_TEMP");
  // O_RDWR, not O_WRONLY: map() needs a readable descriptor for a shared
  // writable mapping (mmap refuses an O_WRONLY one with EACCES).
  if (!(named && *named == '1')) fd_ = open(dir_of(target_).c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ >= 0) {
    if (access(("/proc/self/fd/" + std::to_string(fd_)).c_str(), F_OK) == 0) {
      unnamed_ = true;
      install_signal_handlers();
      return;
    }
    close(fd_);
    fd_ = -1;
  }
#endif
  // Fallback (filesystems without O_TMPFILE): a named temporary file, removed
  // on errors and on SIGINT/SIGTERM/SIGHUP.
  tmp_ = temp_name(target_, false);
  if (tmp_.size() >= sizeof g_tmp_path) fail("output path '" + path_ + "' is too long");
  fd_ = mkstemp(tmp_.data());
  if (fd_ < 0) fail("cannot create '" + tmp_ + "' (next to the output '" + path_ + "'): " + errno_text());
  std::memcpy(g_tmp_path, tmp_.c_str(), tmp_.size() + 1);
  g_tmp_live = 1;
  install_signal_handlers();
}

void AtomicOutput::install_signal_handlers() {
  std::signal(SIGINT, on_fatal_signal);
  std::signal(SIGTERM, on_fatal_signal);
  std::signal(SIGHUP, on_fatal_signal);
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) discard();
}

uint8_t* AtomicOutput::map(uint64_t bytes) {
  if (direct_ || fd_ < 0 || map_ || bytes == 0 || bytes > std::numeric_limits<size_t>::max() / 2) return nullptr;
  const char* no_map = std::getenv("SWZ_TEST_NO_MMAP");
  if (no_map && *no_map == '1') return nullptr;
  if (::fallocate(fd_, 0, 0, static_cast<off_t>(bytes)) != 0) {
    if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) return nullptr;
    fail("cannot write '" + path_ + "': " + errno_text());
  }
  void* p = mmap(nullptr, static_cast<size_t>(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (p == MAP_FAILED) {
    if (ftruncate(fd_, 0) != 0) fail("cannot write '" + path_ + "': " + errno_text());
    return nullptr;
  }
  madvise(p, static_cast<size_t>(bytes), MADV_SEQUENTIAL);
#ifdef MADV_POPULATE_WRITE
  // Fault the pages in writable in one call (Linux 5.14+; an error, e.g.
  // EINVAL on an older kernel, just leaves them to fault one by one): a
  // swizzle writes in tile order, where one fault per page costs ~15%.
  madvise(p, static_cast<size_t>(bytes), MADV_POPULATE_WRITE);
#endif
  map_ = p;
  map_bytes_ = bytes;
  return static_cast<uint8_t*>(p);
}

void AtomicOutput::discard() noexcept {
  if (map_) {
    munmap(map_, static_cast<size_t>(map_bytes_));
    map_ = nullptr;
  }
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

void AtomicOutput::write(const void* data, uint64_t bytes, Progress* progress) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (bytes > 0) {
    size_t chunk = static_cast<size_t>(std::min<uint64_t>(bytes, uint64_t{16} << 20));
    ssize_t n = ::write(fd_, p, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write '" + path_ + "': " + errno_text());
    }
    p += n;
    bytes -= static_cast<uint64_t>(n);
    if (progress) progress->add(static_cast<uint64_t>(n));
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
  if (map_) {
    // The written pages are in the page cache, like write()'s; no msync
    // needed for the renamed file to show them.
    int rc = munmap(map_, static_cast<size_t>(map_bytes_));
    map_ = nullptr;
    if (rc != 0) fail("cannot write '" + path_ + "': " + errno_text());
  }
  mode_t mode = mode_;
  if (!keep_mode_) {
    // A new file gets the permissions a plain create would.
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  } else if (fchown(fd_, uid_, gid_) != 0) {
    mode &= ~mode_t{S_ISUID | S_ISGID};  // another owner: never carry set-id bits over
  }
  if (fchmod(fd_, mode) != 0) fail("cannot set permissions of '" + path_ + "': " + errno_text());
  if (unnamed_) {
    // Name the finished file (linkat cannot replace OUT), then rename it onto
    // OUT. Only between these two calls does a named temporary file exist.
    const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
    for (int attempt = 0;; ++attempt) {
      std::string name = temp_name(target_, true);
      if (name.size() >= sizeof g_tmp_path) fail("output path '" + path_ + "' is too long");
      std::memcpy(g_tmp_path, name.c_str(), name.size() + 1);
      g_tmp_live = 1;
      if (linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        tmp_ = name;
        break;
      }
      g_tmp_live = 0;
      if (errno != EEXIST || attempt >= 100) fail("cannot create '" + path_ + "': " + errno_text());
    }
  }
  if (close(fd_) != 0) {
    fd_ = -1;
    fail("cannot write '" + path_ + "': " + errno_text());
  }
  fd_ = -1;
  if (std::rename(tmp_.c_str(), target_.c_str()) != 0)
    fail("cannot rename '" + tmp_ + "' to '" + target_ + "': " + errno_text());
  committed_ = true;
  g_tmp_live = 0;
}

void remove_temp_file_from_signal() noexcept {
  if (g_tmp_live) unlink(g_tmp_path);
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void write_file_atomic(const std::string& path, const void* data, uint64_t bytes, Progress* progress) {
  AtomicOutput out(path);
  out.write(data, bytes, progress);
  out.commit();
}

}  // namespace swz::cli
