// swz CLI — `swz offset` and `swz locate` for one or many queries.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "texture.hpp"

namespace swz::cli {

/// swz offset: `args` is X Y [Z] [SAMPLE] (one element), or one "X,Y[,Z[,S]]"
/// per element, or "-": one element per line of standard input (numbers
/// separated by spaces or commas; blank lines and lines starting with '#' are
/// skipped). Prints one offset per line, decimal or (`hex`) 0x hex, plus
/// --offset. Throws Error naming the bad query (and its line for stdin).
void run_offset(const CommonOptions& o, uint32_t subresource, const std::vector<std::string>& args, bool hex);

/// swz locate: `args` is one or more byte offsets (decimal or 0x hex), or "-":
/// one per line of standard input. Offsets count from the start of the file
/// (--offset is subtracted). Prints one answer per line.
void run_locate(const CommonOptions& o, const std::vector<std::string>& args);

/// A file offset as an offset into the resource that starts `base` bytes
/// into the file (resource_base). Throws Error naming `what` when it lies
/// before the resource or at or past its end.
uint64_t resource_offset(const Texture& t, uint64_t base, uint64_t file_offset,
                         const std::function<std::string()>& what);

/// The file offset of element (x, y, z) and sample of subresource `sub`
/// (element_offset plus `base`). Throws Error naming the element.
uint64_t element_file_offset(const Texture& t, uint64_t base, uint32_t sub, uint32_t x, uint32_t y, uint32_t z,
                             uint32_t sample);

}  // namespace swz::cli
