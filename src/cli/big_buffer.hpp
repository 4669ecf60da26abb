// swz CLI — large buffers without a zero-fill pass.
#pragma once
#include <cstdint>
#include <string>

namespace swz::cli {

class Progress;
class AtomicOutput;

/// A large byte buffer: an anonymous private mapping, or a file mapped
/// read-only (read_input). Its pages read as
/// zero until written (the kernel supplies zero pages on first touch), so the
/// bytes a layout does not cover (padding, the packed mip tail) are zero
/// without a separate fill pass, and bytes about to be overwritten are never
/// zeroed twice. Move-only; unmapped on destruction.
class BigBuffer {
 public:
  BigBuffer() = default;
  /// Throws Error naming `what` when `bytes` exceeds the memory available on
  /// this machine or the mapping fails. Zero bytes gives an empty buffer.
  BigBuffer(uint64_t bytes, const std::string& what);
  ~BigBuffer();
  BigBuffer(BigBuffer&& o) noexcept;
  BigBuffer& operator=(BigBuffer&& o) noexcept;
  BigBuffer(const BigBuffer&) = delete;
  /// Takes ownership of a mapping of `bytes` bytes at `data`.
  static BigBuffer adopt(void* data, uint64_t bytes);
  BigBuffer& operator=(const BigBuffer&) = delete;

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

 private:
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

/// Space for an output of `bytes` bytes that starts as zeros: the mapped
/// output file (AtomicOutput::map) where possible, else a BigBuffer that
/// finish() writes to the file in chunks. finish() counts the bytes on
/// `progress`; then commit the AtomicOutput.
class OutputSpace {
 public:
  OutputSpace(AtomicOutput& file, uint64_t bytes, const std::string& what);
  uint8_t* data() { return data_; }
  uint64_t size() const { return size_; }
  void finish(Progress* progress);

 private:
  AtomicOutput& file_;
  BigBuffer buffer_;
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

/// Installs the SIGBUS handler for a read-only mapping of the input `path`:
/// if the file shrinks while it is mapped, it prints "cannot read 'PATH': the
/// file shrank while swz read it", removes the temporary output files and
/// exits 1 (no output is committed then).
void arm_sigbus_for(const std::string& path);

}  // namespace swz::cli
