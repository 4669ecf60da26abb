// swz CLI — files and big buffers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "pixel_buffer.hpp"

namespace swz::cli {

class Progress;

/// Size of a regular file; throws Error when it cannot be read.
uint64_t file_size(const std::string& path);

/// Reads the first `bytes` bytes of `path` into `out` (allocated with
/// allocate_pixels(): not zero-filled first); throws Error when the file is
/// shorter or unreadable.
void read_file_prefix(const std::string& path, uint64_t bytes, PixelBuffer* out);

/// Throws Error naming `what` when `bytes` cannot be addressed or exceeds the
/// memory available on this machine (MemAvailable + SwapFree).
void check_allocation(uint64_t bytes, const std::string& what);

/// A zero-filled buffer of `bytes` bytes. Throws Error (not bad_alloc) when the
/// size exceeds the memory available on this machine or the allocation fails;
/// `what` names the buffer in the message.
std::vector<uint8_t> allocate(uint64_t bytes, const std::string& what);

/// Which temporary file AtomicOutput writes a regular OUT through.
enum class TempFile {
  unnamed_if_possible,  ///< O_TMPFILE where the filesystem has it, else named
  named,                ///< always "OUT.tmp-XXXXXX" (the fallback; its tests)
};

/// Writes OUT atomically. The data goes to an unnamed file (O_TMPFILE) in
/// OUT's directory, which commit() links in and renames onto OUT; where the
/// filesystem has no O_TMPFILE, to "OUT.tmp-XXXXXX" (the name cut to fit
/// NAME_MAX). Without commit() (an error, an exception, any signal whose
/// default action ends the process; with O_TMPFILE any kill) nothing is left
/// and OUT is as it was: each AtomicOutput in flight has its own record for
/// the signal handler, so parallel batch jobs all clean up. A replaced OUT
/// keeps its permissions (and owner where allowed). OUT "-" is standard
/// output; an existing device, FIFO or socket (/dev/null) and a path that
/// names an open descriptor (/dev/stdout, /dev/fd/N, /proc/self/fd/N, bash's
/// >(cmd); one of this process's own descriptors through a duplicate, at its
/// offset and with its flags, as a shell redirection writes) are written in
/// place, with no temporary file.
/// A symbolic link is written through, as cp does: a live link's target is
/// replaced, a dangling link's target is created; the link stays.
class AtomicOutput {
 public:
  explicit AtomicOutput(std::string path, TempFile temp = TempFile::unnamed_if_possible);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  /// Writes in chunks of at most 16 MiB, counting them on `progress` if given.
  void write(const void* data, uint64_t bytes, Progress* progress = nullptr);
  /// Sizes the output file to `bytes` (fallocate, so a full disk is an error
  /// here, not a SIGBUS later) and maps it writable: the caller fills the
  /// returned memory, which starts as zeros, and commit() unmaps it. Returns
  /// nullptr, with nothing changed, where that is not possible (standard
  /// output, a device, FIFO or descriptor path, a filesystem without
  /// fallocate or shared mappings, zero bytes): then write() the data instead.
  /// Throws Error "cannot write 'OUT': ..." when the size cannot be reserved
  /// (no space, past RLIMIT_FSIZE). Call at most once, before any write().
  uint8_t* map(uint64_t bytes);
  void commit();
  const std::string& path() const { return path_; }
  /// True when OUT is written in place (standard output, a device, FIFO,
  /// socket or descriptor path), false when through a temporary file.
  bool in_place() const { return direct_; }

 private:
  static constexpr size_t kNoSlot = static_cast<size_t>(-1);
  void discard() noexcept;
  /// Creates the named temporary file (or, `for_link`, links the unnamed one
  /// in under a temporary name), registered for the signal handler first.
  void create_named_temp(bool for_link);
  std::string path_;    ///< OUT as the user named it (messages)
  std::string target_;  ///< OUT after following symbolic links
  std::string tmp_;     ///< named temporary file, once there is one
  size_t slot_ = kNoSlot;  ///< tmp_'s record for the signal handler
  int fd_ = -1;
  void* map_ = nullptr;  ///< the mapped output file, once map() succeeded
  uint64_t map_bytes_ = 0;
  bool committed_ = false;
  bool direct_ = false;   ///< written in place (see in_place())
  bool unnamed_ = false;  ///< fd_ is an O_TMPFILE file
  bool keep_mode_ = false;
  unsigned mode_ = 0;
  unsigned uid_ = 0, gid_ = 0;
};

/// Removes the named temporary files of every AtomicOutput in flight.
/// Async-signal-safe: for signal handlers that end the process.
void remove_temp_files_from_signal() noexcept;

/// Named temporary files of AtomicOutputs in flight (tests).
size_t temp_files_in_flight();

/// True when `a` and `b` name the same existing file (same st_dev and st_ino
/// after following symbolic links: the same path, a hard link or a link).
bool same_file(const std::string& a, const std::string& b);

/// Writes a whole buffer to `path` through AtomicOutput.
void write_file_atomic(const std::string& path, const void* data, uint64_t bytes, Progress* progress = nullptr);

}  // namespace swz::cli
