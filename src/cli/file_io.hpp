// swz CLI — files and big buffers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace swz::cli {

/// Size of a regular file; throws Error when it cannot be read.
uint64_t file_size(const std::string& path);

/// Reads the first `bytes` bytes of `path` into `out` (allocated with
/// allocate()); throws Error when the file is shorter or unreadable.
void read_file_prefix(const std::string& path, uint64_t bytes, std::vector<uint8_t>* out);

/// A zero-filled buffer of `bytes` bytes. Throws Error (not bad_alloc) when the
/// size exceeds the memory available on this machine or the allocation fails;
/// `what` names the buffer in the message.
std::vector<uint8_t> allocate(uint64_t bytes, const std::string& what);

/// Writes OUT atomically: everything goes to "OUT.tmp-XXXXXX" in the same
/// directory, which commit() renames to OUT. Without commit() (an error, an
/// exception, SIGINT/SIGTERM) the temporary file is removed and OUT is left
/// as it was. OUT "-" is standard output; an existing device or FIFO (e.g.
/// /dev/null) is written in place; a symbolic link keeps pointing at the new
/// file.
class AtomicOutput {
 public:
  explicit AtomicOutput(std::string path);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  void write(const void* data, uint64_t bytes);
  void commit();
  const std::string& path() const { return path_; }

 private:
  void discard() noexcept;
  std::string path_;
  std::string tmp_;
  int fd_ = -1;
  bool committed_ = false;
  bool direct_ = false;  ///< "-", a device or a FIFO: written in place
};

/// Writes a whole buffer to `path` through AtomicOutput.
void write_file_atomic(const std::string& path, const void* data, uint64_t bytes);

}  // namespace swz::cli
