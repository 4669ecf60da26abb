// swz CLI — DDS files as whole-texture input (swizzle) and output (deswizzle).
#pragma once
#include <cstdint>
#include <string>

#include "texture.hpp"

namespace swz::cli {

/// True for a path ending in ".dds" (any case).
bool is_dds_path(const std::string& path);

/// swz swizzle with a DDS input: --format, --size, --mips and --array come
/// from the file (given ones must agree); every subresource is written into
/// one resource blob OUT. `file` holds the DDS file's bytes (from --offset
/// on); `in` names it ("-" = standard input). Returns the summary line.
std::string swizzle_dds(CommonOptions o, const std::string& in, const uint8_t* file, uint64_t file_size,
                        const std::string& out);

/// swz deswizzle with OUT.dds: every subresource of IN is read back and
/// written as a DDS file (DX10 header). `cube` marks a 2D array of 6*N
/// slices as cube maps; `have_sub` (--subresource) is refused. Also called
/// when --cube is given with another OUT, to refuse it (`dds_output` false).
/// IN ("-" = standard input) is read from --offset on; --allow-short applies.
/// Returns the summary.
std::string deswizzle_dds(const CommonOptions& o, bool cube, bool have_sub, const std::string& in,
                          const std::string& out, bool dds_output);

}  // namespace swz::cli
