// The examples that `swz --help` and `swz COMMAND --help` print under the
// options: one table (help_examples.cpp), set as each command's footer.
#pragma once
#include <CLI/CLI.hpp>

namespace swz::cli {

/// Sets the footer of `app` to `intro`, then "Example:" (one) or "Examples:"
/// and each example line of `command` in the table indented by two spaces,
/// then `outro` on its own line when given. The top-level app's command is "".
void set_examples(CLI::App* app, const char* command, const char* intro = "", const char* outro = "");

}  // namespace swz::cli
