// swz CLI — what a command prints besides its answer: the summary line,
// notes, warnings and --verbose detail, under --quiet / --verbose.
#pragma once
#include <string>

namespace swz::cli {

struct OutputMode {
  bool quiet = false;              ///< --quiet: nothing but errors (and a query's answers)
  bool verbose = false;            ///< --verbose: geometry, timings, the GPU used
  bool summary_to_stderr = false;  ///< OUT is standard output: keep stdout for the data
  bool batch = false;              ///< several inputs (-o DIR): no progress line
  int trouble_status = 1;          ///< exit status of an error (compare: 2, as cmp)
};
OutputMode& output_mode();

/// The one-line summary of a conversion: stdout (stderr when OUT is stdout).
void say(const std::string& line);
/// "swz: note: TEXT" on stderr; "" prints nothing.
void note(const std::string& text);
/// "swz: warning: TEXT" on stderr.
void warn(const std::string& text);
/// "swz: TEXT" on stderr, only with --verbose.
void verbose(const std::string& text);
bool verbose_on();

/// --verbose timings: "swz: time: NAME 0.012 s" for the time since the
/// previous mark (or the start of the process).
void verbose_phase(const std::string& name);

}  // namespace swz::cli
