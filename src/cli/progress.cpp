#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace swz::cli {
namespace {

// "12.3 MiB": binary units, one decimal.
std::string short_bytes(double n) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (n >= 1024.0 && u < 5) {
    n /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", n, units[u]);
  return buf;
}

// "1:05" or "1:02:03"; "--:--" when unknown.
std::string clock_text(double s) {
  if (!(s >= 0.0) || s > 359999.0) return "--:--";
  auto t = static_cast<unsigned long>(s + 0.5);
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%lu:%02lu", t / 60, t % 60);
  return buf;
}

}  // namespace

Progress::Progress(std::string label, uint64_t total_work, uint64_t job_B, bool enabled)
    : Progress(std::move(label), total_work, job_B, enabled && isatty(STDERR_FILENO) == 1, stderr, 0.5) {}

Progress::Progress(std::string label, uint64_t total_work, uint64_t job_B, bool draw, std::FILE* out, double delay_s)
    : label_(std::move(label)),
      total_B_(total_work),
      job_B_(job_B ? job_B : total_work),
      out_(out),
      delay_s_(delay_s),
      start_(Clock::now()) {
  active_ = draw && total_B_ > 0;
}

Progress::~Progress() { finish(); }

void Progress::add(uint64_t bytes) {
  done_B_ = std::min(total_B_, done_B_ + bytes);
  if (!active_) return;
  double elapsed_s = std::chrono::duration<double>(Clock::now() - start_).count();
  if (elapsed_s < delay_s_) return;
  if (shown_ && elapsed_s - last_draw_s_ < 0.1 && done_B_ < total_B_) return;
  draw(elapsed_s);
}

void Progress::draw(double elapsed_s) {
  constexpr int kBar = 24;
  double frac = total_B_ ? static_cast<double>(done_B_) / static_cast<double>(total_B_) : 1.0;
  int fill = static_cast<int>(frac * kBar);
  std::string bar(static_cast<size_t>(fill), '#');
  bar.resize(kBar, '.');
  const double job = static_cast<double>(job_B_), done = frac * job;
  double rate = elapsed_s > 0 ? done / elapsed_s : 0.0;
  double eta = rate > 0 ? (job - done) / rate : -1.0;
  std::fprintf(out_, "\r\033[Kswz %s [%s] %3d%% %s / %s  %s/s  ETA %s", label_.c_str(), bar.c_str(),
               static_cast<int>(frac * 100.0), short_bytes(done).c_str(), short_bytes(job).c_str(),
               short_bytes(rate).c_str(), clock_text(eta).c_str());
  std::fflush(out_);
  shown_ = true;
  last_draw_s_ = elapsed_s;
}

void Progress::finish() {
  if (shown_) {
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
    shown_ = false;
  }
  active_ = false;
}

}  // namespace swz::cli
