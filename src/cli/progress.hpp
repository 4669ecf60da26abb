// swz CLI — a progress line on stderr for long jobs.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace swz::cli {

/// A one-line progress bar on standard error: label, bar, bytes done / total,
/// rate and ETA, redrawn in place with '\r'. It shows only when `enabled`,
/// stderr is a terminal and the job has run for more than 0.5 s; at most 10
/// redraws a second. The destructor (or finish()) erases
/// the line, so a finished job leaves stderr as it would be without it.
/// add() counts units of work (a job that reads, converts and writes N bytes
/// counts 3N); the line shows the job's own bytes, `job_B` (the input's size),
/// done in proportion: "512.0 MiB / 512.0 MiB" for a 512 MiB job.
class Progress {
 public:
  /// `total_work`: the units add() will count in all; `job_B`: the bytes shown
  /// as the total (0: total_work).
  Progress(std::string label, uint64_t total_work, uint64_t job_B, bool enabled);
  /// Draws on `out` when `draw` (whatever `out` is), from `delay_s` seconds
  /// after construction on (tests).
  Progress(std::string label, uint64_t total_work, uint64_t job_B, bool draw, std::FILE* out, double delay_s);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Counts `bytes` more bytes done and redraws when due.
  void add(uint64_t bytes);
  /// Erases the line if it was shown; later add() calls draw nothing.
  void finish();

 private:
  void draw(double elapsed_s);
  using Clock = std::chrono::steady_clock;
  std::string label_;
  uint64_t total_B_ = 0;  // units of work
  uint64_t done_B_ = 0;
  uint64_t job_B_ = 0;
  bool active_ = false;
  bool shown_ = false;
  std::FILE* out_ = stderr;
  double delay_s_ = 0.5;
  Clock::time_point start_;
  double last_draw_s_ = -1.0;
};

}  // namespace swz::cli
