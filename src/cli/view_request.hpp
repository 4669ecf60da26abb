// swz CLI — `swz view`: one HTTP request's query parameters as a typed
// request (no socket needed, so a fuzzer can drive it). Parameter names are
// the command line's option names without the dashes; values are checked as
// the command line checks them (number_option.hpp, view_png.hpp), and
// everything about textures, layouts and formats is left to make_texture and
// the library.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "texture.hpp"
#include "view_png.hpp"

namespace swz::cli {

/// What one request asks about.
struct ViewRequest {
  CommonOptions texture;  ///< layout, format, size, mips, array, offset (the texture's start in the dump, bytes)
  ViewOptions view;       ///< channel, exposure, tone-map, yuv, yuv-full-range, stencil, endian
  uint32_t mip = 0, slice = 0, z = 0, sample = 0;  ///< which subresource, depth slice and sample
  uint32_t x = 0, y = 0;                           ///< an element (texels; 4x4 blocks for BC)
  uint64_t at_B = 0;                               ///< a byte offset in the dump file
  uint32_t count_B = 256;                          ///< bytes of the dump to show from at_B (1..kMaxCount_B)
  uint32_t top = 5;                                ///< identify candidates (1..kMaxTop)
  uint64_t offset_step_B = 0;                      ///< identify: search the start every this many bytes (0: no search)
};

/// Bounds on single values (a request names at most this much work).
constexpr size_t kMaxParamValue = 512;    ///< characters of one value
constexpr size_t kMaxParams = 32;         ///< parameters of one request
constexpr uint32_t kMaxCount_B = 4096;    ///< count
constexpr uint32_t kMaxTop = 20;          ///< top

using QueryParams = std::vector<std::pair<std::string, std::string>>;

/// `params` over `defaults` (what the command line gave). `token` is skipped
/// (the server checks it before). A layout must be the command line's own,
/// `pattern:TEXT`, or a built-in name with parameters (swz layouts): a
/// request never names a file. Throws Error naming the parameter and value:
/// an unknown or repeated name, a value over kMaxParamValue characters, a
/// number that is malformed or out of its range, a choice that is not one of
/// the command line's.
ViewRequest parse_view_request(const QueryParams& params, const ViewRequest& defaults);

/// parse_view_request without exceptions: "" and *out set, or the message.
std::string try_parse_view_request(const QueryParams& params, const ViewRequest& defaults, ViewRequest* out) noexcept;

/// The `swz deswizzle` command line that writes the PNG of `r` (its
/// view options and texture options, `subresource` as the layout numbers
/// it) from `dump_path` to OUT.png.
std::string deswizzle_command(const ViewRequest& r, const std::string& dump_path, uint32_t subresource);

}  // namespace swz::cli
