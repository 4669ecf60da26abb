// swz CLI — batch mode: several inputs in one command, outputs named after
// them in a folder (-o DIR), converted in parallel (texconv's habits).
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace swz::cli {

struct BatchJob {
  std::string in;   ///< the input path
  std::string out;  ///< DIR/<input's name without its extension><ext>
};

/// One job per input, the output named after it in `dir` (created when
/// missing) with extension `ext` (".bin", ".png", ...). Throws Error, before
/// anything is converted, naming the file: an input "-"; two inputs that map
/// to the same output; an output that is one of the inputs; an output that
/// exists when `overwrite` (-y) is false.
std::vector<BatchJob> plan_batch(const std::vector<std::string>& inputs, const std::string& dir, const std::string& ext,
                                 bool overwrite);

/// Runs `convert` for every job on up to `workers` threads (fewer when the
/// system refuses to start more: the running ones share the jobs). A job that
/// throws is reported as "swz: error: IN: message" and the others go on.
/// Returns the number of jobs that failed.
size_t run_batch(const std::vector<BatchJob>& jobs, unsigned workers,
                 const std::function<void(const BatchJob&)>& convert);

/// The most batch workers: each holds at most one output in flight, and the
/// signal handler's records of temporary files (file_io.cpp) hold 1024.
constexpr unsigned kMaxBatchWorkers = 256;

/// Worker threads for `jobs` conversions: --jobs when given (> 0), else the
/// machine's hardware threads; at most one per job and kMaxBatchWorkers.
unsigned batch_workers(unsigned requested, size_t jobs);

}  // namespace swz::cli
