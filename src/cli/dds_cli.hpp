// swz CLI — DDS files as whole-texture input (swizzle) and output (deswizzle).
#pragma once
#include <string>

#include "texture.hpp"

namespace swz::cli {

/// True for a path ending in ".dds" (any case).
bool is_dds_path(const std::string& path);

/// swz swizzle with a DDS input: --format, --size, --mips and --array come
/// from the file (given ones must agree); every subresource is written into
/// one resource blob OUT. Returns the summary line.
std::string swizzle_dds(CommonOptions o, const std::string& in, const std::string& out);

/// swz deswizzle with OUT.dds: every subresource of IN is read back and
/// written as a DDS file (DX10 header). `cube` marks a 2D array of 6*N
/// slices as cube maps; `have_sub` (--subresource) is refused. Also called
/// when --cube is given with another OUT, to refuse it. Returns the summary.
std::string deswizzle_dds(const CommonOptions& o, bool cube, bool have_sub, const std::string& in,
                          const std::string& out);

}  // namespace swz::cli
