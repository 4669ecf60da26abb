#include "batch.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

#include "common.hpp"
#include "file_io.hpp"

namespace swz::cli {

std::vector<BatchJob> plan_batch(const std::vector<std::string>& inputs, const std::string& dir, const std::string& ext,
                                 bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) fail("-o '" + dir + "' exists and is not a directory");
  fs::create_directories(dir, ec);
  if (ec) fail("-o '" + dir + "': cannot create the directory: " + ec.message());
  std::vector<BatchJob> jobs;
  std::map<std::string, std::string> taken;  // output -> input
  for (const std::string& in : inputs) {
    if (in == "-") fail("standard input ('-') cannot be one of several inputs; convert it on its own");
    const std::string out = (fs::path(dir) / (fs::path(in).stem().string() + ext)).string();
    auto [it, fresh] = taken.emplace(out, in);
    if (!fresh) fail("inputs '" + it->second + "' and '" + in + "' would both be written to '" + out + "'");
    jobs.push_back({in, out});
  }
  // Every existing output is named before anything is converted.
  std::vector<const BatchJob*> existing;
  for (const BatchJob& j : jobs) {
    for (const std::string& in : inputs)
      if (same_file(in, j.out)) fail("output '" + j.out + "' (for '" + j.in + "') is the input '" + in + "'");
    if (!overwrite && fs::exists(fs::symlink_status(j.out, ec))) existing.push_back(&j);
  }
  if (existing.size() == 1)
    fail("output '" + existing[0]->out + "' (for '" + existing[0]->in + "') exists; pass -y to overwrite it");
  if (!existing.empty()) {
    std::string names;
    for (const BatchJob* j : existing) names += (names.empty() ? "'" : ", '") + j->out + "' (for '" + j->in + "')";
    fail(std::to_string(existing.size()) + " of " + std::to_string(jobs.size()) + " outputs exist: " + names +
         "; pass -y to overwrite them");
  }
  return jobs;
}

unsigned batch_workers(unsigned requested, size_t jobs) {
  unsigned n = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  if (jobs < n) n = static_cast<unsigned>(std::max<size_t>(1, jobs));
  return std::min(n, kMaxBatchWorkers);
}

size_t run_batch(const std::vector<BatchJob>& jobs, unsigned workers,
                 const std::function<void(const BatchJob&)>& convert) {
  std::atomic<size_t> next{0}, failed{0};
  std::mutex err_lock;
  auto report = [&](const BatchJob& j, const char* what) {
    std::lock_guard<std::mutex> lock(err_lock);
    std::fflush(stdout);
    std::fprintf(stderr, "swz: error: %s: %s\n", j.in.c_str(), what);
    ++failed;
  };
  auto work = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      try {
        convert(jobs[i]);
      } catch (const std::bad_alloc&) {
        report(jobs[i], "out of memory");
      } catch (const std::exception& e) {
        report(jobs[i], e.what());
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < workers; ++t) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // the system refuses more threads: the ones running share the jobs
    }
  }
  work();
  for (auto& t : pool) t.join();
  return failed;
}

}  // namespace swz::cli
