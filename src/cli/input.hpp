// swz CLI — reading IN: a file or standard input ("-"), from a byte offset
// (--offset), whole or only a prefix, optionally zero-padded when short
// (deswizzle --allow-short).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "big_buffer.hpp"

namespace swz::cli {

class Progress;

/// The bytes of IN from --offset on.
struct InputBytes {
  BigBuffer owner;     ///< the mapping or buffer holding them
  uint64_t skip = 0;   ///< where they start in `owner`
  uint64_t size = 0;   ///< bytes of IN read (at most the `want_B` asked for)
  bool more = false;   ///< IN holds bytes past offset + want_B
  uint64_t in_total = 0;  ///< bytes of IN after the offset (those read when IN is a stream and `more`)
  const uint8_t* data() const { return owner.data() + skip; }
};

/// Reads up to `want_B` bytes of IN starting `offset_B` bytes into it ("-" is
/// standard input; FIFOs and other non-regular files are read as streams).
/// `want_B` = UINT64_MAX reads to the end. A regular file is mapped
/// read-only (page-aligned, so any offset works; SWZ_TEST_NO_MMAP=1 reads it
/// with pread instead). With `pad_to_want`, a short IN is returned in a buffer
/// of `want_B` bytes whose tail (past `size`) reads as zero. Throws Error
/// naming --offset when the offset is past the end of IN. Counts the bytes
/// read on `progress` when given.
InputBytes read_input(const std::string& path, uint64_t offset_B, uint64_t want_B, bool pad_to_want,
                      Progress* progress = nullptr);

/// What standard input holds, from its first bytes: a DDS file ("DDS "), an
/// image (the PNG, JPEG or BMP signature), else raw texels. (TGA has no
/// signature: read TGA from a file.)
enum class InputKind { Raw, Image, Dds };
InputKind sniff_input(const uint8_t* data, uint64_t size);

/// True when IN is standard input ("-").
inline bool is_stdin(const std::string& path) { return path == "-"; }

/// "'PATH'" or "standard input" for messages.
std::string input_name(const std::string& path);

}  // namespace swz::cli
