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
  BigBuffer owner;        ///< the mapping or buffer holding them
  uint64_t skip = 0;      ///< where they start in `owner`
  uint64_t size = 0;      ///< bytes of IN read (at most the `want_B` asked for)
  bool more = false;      ///< IN holds bytes past offset + want_B
  uint64_t in_total = 0;  ///< bytes of IN after the offset (those read when IN is a stream and `more`)
  bool total_known = true;  ///< in_total is IN's whole size (false: a stream read only in part)
  const uint8_t* data() const { return owner.data() + skip; }
};

/// How read_input reads a regular file.
enum class FileRead {
  map_if_possible,  ///< mapped read-only, else pread
  read,             ///< pread into a buffer (the fallback; its tests)
};

/// Reads up to `want_B` bytes of IN starting `offset_B` bytes into it ("-" is
/// standard input; FIFOs and other non-regular files are read as streams, of
/// which at most `want_B` + 1 bytes are read: the extra byte sets `more`).
/// `want_B` = UINT64_MAX reads to the end. A regular file is mapped
/// read-only (page-aligned, so any offset works), else read with pread. With
/// `pad_to_want`, a short IN is returned in a buffer of `want_B` bytes whose
/// tail (past `size`) reads as zero. Throws Error naming --offset when the
/// offset is past the end of IN. Counts the bytes read on `progress` when
/// given. A stream's bytes taken by peek_input come first.
InputBytes read_input(const std::string& path, uint64_t offset_B, uint64_t want_B, bool pad_to_want,
                      Progress* progress = nullptr, FileRead how = FileRead::map_if_possible);

/// The first (at most) `n` bytes of IN from `offset_B`, for sniff_input or
/// a header, without consuming them: a stream's (standard input, a FIFO) are
/// kept, with its descriptor, for the read_input of the same IN and offset
/// that follows.
std::vector<uint8_t> peek_input(const std::string& path, uint64_t offset_B, size_t n);

/// What standard input holds, from its first bytes: a DDS file ("DDS "), an
/// image (the PNG, JPEG or BMP signature), else raw texels. (TGA has no
/// signature: read TGA from a file.)
enum class InputKind { Raw, Image, Dds };
InputKind sniff_input(const uint8_t* data, uint64_t size);

/// True when IN is standard input ("-").
inline bool is_stdin(const std::string& path) { return path == "-"; }

/// "'PATH'" or "standard input" for messages.
std::string input_name(const std::string& path);

/// The resource IN holds `have_B` of the `need_B` bytes that `what` ("a
/// 64x64 R8 texture spans in layout std64k") needs. Short and not
/// `allow_short`: throws Error naming both sizes (and `offset_text`, the
/// --offset given, when not empty). Short with `allow_short`: warns, naming
/// the missing bytes. Returns the missing bytes.
uint64_t check_input_size(const std::string& path, uint64_t have_B, uint64_t need_B, bool allow_short,
                          const std::string& offset_text, const std::string& what);

}  // namespace swz::cli
