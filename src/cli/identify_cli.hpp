// swz CLI — `swz identify` (rank layouts for a dump of an image) and
// `swz infer` (solve a probe dump for its layout); include/swz/identify.hpp.
#pragma once
#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace swz::cli {

struct IdentifyArgs {
  std::string format, size, dump, thumbnails, offset = "0", offset_step;
  bool scan = false;
  uint32_t top = 5;
};

/// Adds both subcommands to `app`; returns them through `identify` / `infer`.
void add_identify_commands(CLI::App& app, IdentifyArgs* args, CLI::App** identify, CLI::App** infer);

/// Runs a command; throws Error (main prints it and exits 1).
void run_identify(const IdentifyArgs& args);
void run_infer(const IdentifyArgs& args);

}  // namespace swz::cli
