#include "output.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>

namespace swz::cli {
namespace {
std::mutex g_print;  // batch mode converts in parallel: keep lines whole
}

OutputMode& output_mode() {
  static OutputMode m;
  return m;
}

void say(const std::string& line) {
  if (output_mode().quiet) return;
  std::lock_guard<std::mutex> lock(g_print);
  std::fprintf(output_mode().summary_to_stderr ? stderr : stdout, "%s\n", line.c_str());
}

void note(const std::string& text) {
  if (text.empty() || output_mode().quiet) return;
  std::lock_guard<std::mutex> lock(g_print);
  std::fprintf(stderr, "swz: note: %s\n", text.c_str());
}

void warn(const std::string& text) {
  if (text.empty() || output_mode().quiet) return;
  std::lock_guard<std::mutex> lock(g_print);
  std::fprintf(stderr, "swz: warning: %s\n", text.c_str());
}

bool verbose_on() { return output_mode().verbose && !output_mode().quiet; }

void verbose(const std::string& text) {
  if (!verbose_on()) return;
  std::lock_guard<std::mutex> lock(g_print);
  std::fprintf(stderr, "swz: %s\n", text.c_str());
}

namespace {
std::chrono::steady_clock::time_point g_last = std::chrono::steady_clock::now();
}

void verbose_phase(const std::string& name) {
  static std::mutex lock;  // batch mode: jobs in parallel (their phases interleave)
  const auto now = std::chrono::steady_clock::now();
  double s = 0;
  {
    std::lock_guard<std::mutex> hold(lock);
    s = std::chrono::duration<double>(now - g_last).count();
    g_last = now;
  }
  if (!verbose_on()) return;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  verbose("time: " + name + " " + buf);
}

}  // namespace swz::cli
