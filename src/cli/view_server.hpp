// swz CLI — `swz view DUMP`: a local HTTP server showing one dump in the
// browser (README "Viewing a dump in the browser"). An adapter: each request
// becomes a ViewRequest (view_request.hpp) answered by view_routes.hpp.
#pragma once
#include <cstdint>
#include <string>

#include "view_request.hpp"

namespace CLI {
class App;
}

namespace swz::cli {

struct ViewArgs {
  std::string dump;
  std::string listen;  ///< --listen ADDR; empty: 127.0.0.1 and ::1
  uint16_t port = 0;   ///< 0: a free port
  bool open = false;   ///< --open: xdg-open the URL
  ViewRequest defaults;
};

/// Adds `swz view` to `app`; returns it.
CLI::App* add_view_command(CLI::App& app, ViewArgs* args);

/// Serves until SIGINT or SIGTERM, then returns (exit status 0). Throws
/// Error when the dump cannot be read or no address can be bound.
void run_view(const ViewArgs& args);

}  // namespace swz::cli
