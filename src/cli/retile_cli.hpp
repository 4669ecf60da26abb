// swz CLI — `swz retile`: every subresource of a resource in one layout
// re-tiled into another layout of the same texture (CopyResources,
// include/swz/footprint.hpp), without a linear staging copy.
#pragma once
#include <string>

#include "texture.hpp"

namespace CLI {
class App;
}

namespace swz::cli {

struct RetileArgs {
  std::string from, to;   ///< layout names (the grammar of --layout)
  CommonOptions texture;  ///< --format, --size, --mips, --array (its layout field is unused)
  std::string in, out;
  bool in_place = false;
};

/// Adds `swz retile` to `app`.
CLI::App* add_retile_command(CLI::App& app, RetileArgs* args);

/// Runs it; throws Error (main prints it and exits 1). Returns the summary line.
std::string run_retile(const RetileArgs& args, bool show_progress);

}  // namespace swz::cli
