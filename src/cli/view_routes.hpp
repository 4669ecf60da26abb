// swz CLI — `swz view`: what each URL of the server answers, without the
// socket (view_server.cpp owns HTTP, the token, Host checks and bounds).
// Every answer comes from the library or the CLI code the other commands use:
// make_texture for the texture and layout, identify, decode_subresource_rgba8,
// element_offset / locate (query.hpp), and deswizzle's PNG writer.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "input.hpp"
#include "view_request.hpp"

namespace swz::cli {

/// Decoded images are refused past this many pixels (64 Mpx), before any work.
constexpr uint64_t kMaxDecoded_px = uint64_t{64} << 20;

/// The one dump a server serves, read once, and the command line's request.
struct ViewSession {
  std::string dump_path;  ///< as given on the command line (for the equivalent command)
  InputBytes dump;        ///< the whole file, read-only
  ViewRequest defaults;   ///< the command line's texture and view options
};

/// One answer: status 200 with a body, 400 with {"error": "..."} (the
/// library's or the CLI's message, naming the field and value), 404.
struct ViewReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

/// Whether `path` names work that decodes or ranks (the server bounds how
/// many run at once).
bool view_route_is_heavy(const std::string& path);

/// Answers GET `path` with `params`. Never throws: errors become 400 replies.
/// Paths: / (the page), /api/info, /api/identify, /api/decode (RGBA8 bytes,
/// X-Swz-Width / X-Swz-Height headers), /api/texel, /api/locate, /api/bytes,
/// /api/png, /api/dds, /api/command; anything else 404.
ViewReply view_route(const ViewSession& session, const std::string& path, const QueryParams& params) noexcept;

}  // namespace swz::cli
