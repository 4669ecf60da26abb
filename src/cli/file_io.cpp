#include "file_io.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <mutex>
#include <new>
#include <random>
#include <sstream>
#include <vector>

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

// The named temporary files of the AtomicOutputs in flight (one slot each, so
// that parallel batch jobs never share one), for the handler of the signals
// that end the process. A slot's state is a lock-free atomic: the handler
// claims a live slot (kLive -> kDying) before reading its path, and a slot
// being claimed is never freed or refilled.
enum : int { kFree = 0, kFilling = 1, kLive = 2, kDying = 3 };
struct TempSlot {
  std::atomic<int> state{kFree};
  char path[4096];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots");
constexpr size_t kTempSlots = 1024;
TempSlot g_temp_slots[kTempSlots];

// Claims a slot for `path`; returns its index. Throws Error when every slot is taken.
size_t register_temp(const std::string& path) {
  if (path.size() >= sizeof g_temp_slots[0].path) fail("output path '" + path + "' is too long");
  for (size_t i = 0; i < kTempSlots; ++i) {
    int expect = kFree;
    if (!g_temp_slots[i].state.compare_exchange_strong(expect, kFilling)) continue;
    std::memcpy(g_temp_slots[i].path, path.c_str(), path.size() + 1);
    g_temp_slots[i].state.store(kLive);
    return i;
  }
  fail("more than " + std::to_string(kTempSlots) + " outputs are being written at once");
}

// Frees slot `i` (the file it names is gone or committed). A slot the signal
// handler has claimed stays claimed: the process is ending.
void unregister_temp(size_t i) noexcept {
  int expect = kLive;
  g_temp_slots[i].state.compare_exchange_strong(expect, kFree);
}

extern "C" void on_fatal_signal(int sig) {
  remove_temp_files_from_signal();
  std::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  std::raise(sig);
}

// Every signal whose default action ends the process (terminate or core
// dump), except SIGXFSZ (ignored: a write past RLIMIT_FSIZE is an error) and
// SIGKILL / SIGSTOP (cannot be caught). Only signals still at their default
// action get the handler: one inherited as ignored (nohup's SIGHUP) stays
// ignored, and one with a handler already (a sanitizer's SIGSEGV report)
// keeps it. big_buffer.cpp's SIGBUS handler for mapped inputs, installed
// later, removes the temporary files too.
void install_fatal_signal_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<int> sigs = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGTRAP, SIGABRT,   SIGFPE,  SIGSEGV,
                             SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGXCPU,   SIGVTALRM, SIGPROF,
                             SIGSYS,  SIGIO};
#ifdef SIGSTKFLT
    sigs.push_back(SIGSTKFLT);
#endif
#ifdef SIGPWR
    sigs.push_back(SIGPWR);
#endif
    for (int s = SIGRTMIN; s <= SIGRTMAX; ++s) sigs.push_back(s);
    sigs.push_back(SIGBUS);
    for (int s : sigs) {
      struct sigaction old {};
      if (sigaction(s, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa {};
      sa.sa_handler = on_fatal_signal;
      sigemptyset(&sa.sa_mask);
      sigaction(s, &sa, nullptr);
    }
  });
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

// True when `dir` is a folder of open descriptors (/proc/self/fd,
// /proc/PID/fd, /proc/PID/task/TID/fd; /dev/fd leads there).
bool is_descriptor_dir(const std::string& dir) {
  char real[PATH_MAX];
  if (!realpath(dir.c_str(), real)) return false;
  const std::string r(real);
  return r.rfind("/proc/", 0) == 0 && r.size() > 9 && r.compare(r.size() - 3, 3, "/fd") == 0;
}

// The descriptor number N when `link` (a link in a descriptor folder) is
// /proc/PID/fd/N or /proc/PID/task/TID/fd/N of this process, else -1.
int own_descriptor(const std::string& link) {
  char real[PATH_MAX];
  if (!realpath(dir_of(link).c_str(), real)) return -1;
  const std::string dir(real), own = "/proc/" + std::to_string(getpid());
  if (!(dir == own + "/fd" || dir.rfind(own + "/task/", 0) == 0)) return -1;
  const std::string name = base_of(link);
  if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoi(name);
}

// cp's rule for a symbolic link at OUT: write through it. A live link's target
// is replaced; a dangling link's target is created (as POSIX cp does; GNU cp
// refuses a dangling link unless POSIXLY_CORRECT is set). The link itself is
// never replaced. Returns the path of the regular file (or special file, or
// nothing yet) at the end of the chain. A link in a descriptor folder (its
// text is not a path: "pipe:[N]", "/x (deleted)") ends the walk with
// *descriptor set: OUT names an open descriptor.
std::string follow_links(const std::string& path, bool* descriptor) {
  std::string p = path;
  *descriptor = false;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat lst {};
    if (lstat(p.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) return p;
    if (is_descriptor_dir(dir_of(p))) {
      *descriptor = true;
      return p;
    }
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

AtomicOutput::AtomicOutput(std::string path, TempFile temp) : path_(std::move(path)) {
  if (path_ == "-") {  // standard output
    fd_ = STDOUT_FILENO;
    direct_ = true;
    return;
  }
  bool descriptor = false;
  target_ = follow_links(path_, &descriptor);
  struct stat st {};
  if (descriptor) {
    // /dev/stdout, /dev/fd/N, /proc/self/fd/N, bash's >(cmd): an open
    // descriptor, written in place (a pipe has no folder to put a temporary
    // file in, and renaming onto a regular file would leave the descriptor on
    // the old one). One of this process's own descriptors is written through
    // a duplicate, as a shell redirection would be: at its offset, with its
    // flags (O_APPEND after >>), nothing truncated. Another process's is
    // opened for writing (a regular file truncated, as cp does).
    if (stat(path_.c_str(), &st) != 0) fail("cannot open '" + path_ + "': " + errno_text());
    if (S_ISDIR(st.st_mode)) fail("output '" + path_ + "' is a directory");
    const int own = own_descriptor(target_);
    fd_ = own >= 0 ? fcntl(own, F_DUPFD_CLOEXEC, 3)
                   : open(path_.c_str(), O_WRONLY | O_CLOEXEC | (S_ISREG(st.st_mode) ? O_TRUNC : 0));
    if (fd_ < 0) fail("cannot open '" + path_ + "': " + errno_text());
    direct_ = true;
    return;
  }
  if (stat(target_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail("output '" + path_ + "' is a directory");
    if (!S_ISREG(st.st_mode)) {
      // A device, FIFO or socket (/dev/null, a named pipe): write to it in
      // place; renaming over it would replace the special file.
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
  install_fatal_signal_handlers();
#ifdef O_TMPFILE
  // An unnamed file in OUT's directory: a process killed in any way (SIGKILL
  // included) leaves nothing behind. It gets a name only at commit(). Needs
  // /proc to link it (linkat of /proc/self/fd/N works without privileges).
  // O_RDWR, not O_WRONLY: map() needs a readable descriptor for a shared
  // writable mapping (mmap refuses an O_WRONLY one with EACCES).
  if (temp == TempFile::unnamed_if_possible)
    fd_ = open(dir_of(target_).c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ >= 0) {
    if (access(("/proc/self/fd/" + std::to_string(fd_)).c_str(), F_OK) == 0) {
      unnamed_ = true;
      return;
    }
    close(fd_);
    fd_ = -1;
  }
#else
  (void)temp;
#endif
  // Fallback (filesystems without O_TMPFILE): a named temporary file, in a
  // slot of its own for the signal handler before it exists.
  create_named_temp(false);
}

void AtomicOutput::create_named_temp(bool for_link) {
  const std::string proc = for_link ? "/proc/self/fd/" + std::to_string(fd_) : std::string();
  for (int attempt = 0;; ++attempt) {
    std::string name = temp_name(target_, true);
    const size_t slot = register_temp(name);
    int rc = for_link ? linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW)
                      : open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (rc >= 0) {
      if (!for_link) fd_ = rc;
      tmp_ = name;
      slot_ = slot;
      return;
    }
    const int e = errno;
    unregister_temp(slot);
    if (e != EEXIST || attempt >= 100) {
      errno = e;
      fail("cannot create '" + name + "' (next to the output '" + path_ + "'): " + errno_text());
    }
  }
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) discard();
}

uint8_t* AtomicOutput::map(uint64_t bytes) {
  if (direct_ || fd_ < 0 || map_ || bytes == 0 || bytes > std::numeric_limits<size_t>::max() / 2) return nullptr;
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
  if (fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
  if (!tmp_.empty()) unlink(tmp_.c_str());
  if (slot_ != kNoSlot) unregister_temp(slot_);
  slot_ = kNoSlot;
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
  // Name the finished unnamed file (linkat cannot replace OUT), then rename it
  // onto OUT. Only between these two calls does a named temporary file exist.
  if (unnamed_) create_named_temp(true);
  if (close(fd_) != 0) {
    fd_ = -1;
    fail("cannot write '" + path_ + "': " + errno_text());
  }
  fd_ = -1;
  if (std::rename(tmp_.c_str(), target_.c_str()) != 0)
    fail("cannot rename '" + tmp_ + "' to '" + target_ + "': " + errno_text());
  committed_ = true;
  unregister_temp(slot_);
  slot_ = kNoSlot;
}

void remove_temp_files_from_signal() noexcept {
  for (TempSlot& s : g_temp_slots) {
    int expect = kLive;
    if (s.state.compare_exchange_strong(expect, kDying)) unlink(s.path);
  }
}

size_t temp_files_in_flight() {
  size_t n = 0;
  for (const TempSlot& s : g_temp_slots) n += s.state.load() == kLive;
  return n;
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
