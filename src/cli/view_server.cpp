// swz CLI — `swz view` (view_server.hpp): HTTP through cpp-httplib, the
// token, Host checks and bounds. What each URL answers is view_routes.cpp's.
#include "view_server.hpp"

#include <httplib.h>
#include <CLI/CLI.hpp>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "common.hpp"
#include "number_option.hpp"
#include "view_routes.hpp"

extern char** environ;

namespace swz::cli {
namespace {

// Bounds of one server (README "Viewing a dump in the browser").
constexpr size_t kWorkerThreads = 4;       ///< connections handled at once
constexpr size_t kQueuedConnections = 16;  ///< accepted connections waiting for a worker; accept waits past it
constexpr int kHeavyAtOnce = 2;            ///< decodes, ranks, PNG and DDS encodes running at once (else 503)
constexpr int kRequestsPerSecond = 500;    ///< requests answered per second (else 429)
constexpr size_t kMaxPayload_B = 4096;     ///< request bodies (else 413)

// httplib's task queue with a bounded backlog: enqueue waits while it is full.
class BoundedPool : public httplib::TaskQueue {
 public:
  BoundedPool() {
    for (size_t i = 0; i < kWorkerThreads; ++i) threads_.emplace_back([this] { work(); });
  }
  void enqueue(std::function<void()> fn) override {
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [this] { return jobs_.size() < kQueuedConnections || stop_; });
    jobs_.push_back(std::move(fn));
    ready_.notify_one();
  }
  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    ready_.notify_all();
    room_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return !jobs_.empty() || stop_; });
        if (jobs_.empty()) return;
        fn = std::move(jobs_.front());
        jobs_.pop_front();
        room_.notify_one();
      }
      fn();
    }
  }
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  bool stop_ = false;
};

// 128 random bits as 32 hex digits.
std::string make_token() {
  std::random_device dev;  // /dev/urandom on Linux (libstdc++)
  std::string out;
  for (int i = 0; i < 4; ++i) {
    char part[9];
    std::snprintf(part, sizeof part, "%08x", static_cast<unsigned>(dev()));
    out += part;
  }
  return out;
}

bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string host_port(const std::string& host, int port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

// What every request must carry, and the bounds shared by the servers.
struct Gate {
  std::string token;
  std::set<std::string> hosts;  ///< Host header values accepted
  std::atomic<int> heavy{0};
  std::mutex rate_mutex;
  std::chrono::steady_clock::time_point window{};
  int in_window = 0;

  // An empty string when the request may go on, else why not.
  std::string refuse(const httplib::Request& req) {
    if (req.get_header_value_count("Host") != 1) return "forbidden: Host header not accepted";
    std::string host = req.get_header_value("Host");
    std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!hosts.count(host)) return "forbidden: Host header not accepted";
    std::string given = req.has_param("token") ? req.get_param_value("token") : req.get_header_value("X-Swz-Token");
    if (!same_secret(given, token)) return "forbidden: missing or wrong token";
    return {};
  }
  bool over_rate() {
    std::lock_guard<std::mutex> lock(rate_mutex);
    const auto now = std::chrono::steady_clock::now();
    if (now - window >= std::chrono::seconds(1)) window = now, in_window = 0;
    return ++in_window > kRequestsPerSecond;
  }
};

void send(httplib::Response& res, const ViewReply& r) {
  res.status = r.status;
  for (const auto& [k, v] : r.headers) res.set_header(k, v);
  res.set_content(r.body, r.content_type);
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  ViewReply r;
  r.status = status;
  r.body = "{\"error\":\"" + message + "\"}";  // fixed messages without quotes
  send(res, r);
}

void configure(httplib::Server& server, Gate& gate, const ViewSession& session) {
  server.new_task_queue = [] { return new BoundedPool(); };
  server.set_payload_max_length(kMaxPayload_B);
  server.set_read_timeout(5, 0);
  server.set_write_timeout(30, 0);
  server.set_keep_alive_timeout(2);
  server.set_keep_alive_max_count(100);
  server.set_default_headers({{"Cache-Control", "no-store"},
                              {"X-Content-Type-Options", "nosniff"},
                              {"Referrer-Policy", "no-referrer"},
                              {"X-Frame-Options", "DENY"},
                              {"Content-Security-Policy",
                               "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                               "img-src blob: data:; connect-src 'self'; frame-ancestors 'none'"}});
  server.set_pre_routing_handler([&gate](const httplib::Request& req, httplib::Response& res) {
    const std::string why = gate.refuse(req);
    if (!why.empty()) {
      send_error(res, 403, why);
      return httplib::Server::HandlerResponse::Handled;
    }
    if (gate.over_rate()) {
      send_error(res, 429, "too many requests");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.Get(".*", [&gate, &session](const httplib::Request& req, httplib::Response& res) {
    const bool heavy = view_route_is_heavy(req.path);
    if (heavy && gate.heavy.fetch_add(1) >= kHeavyAtOnce) {
      gate.heavy.fetch_sub(1);
      send_error(res, 503, "busy: other decodes are running; try again");
      return;
    }
    QueryParams params(req.params.begin(), req.params.end());
    send(res, view_route(session, req.path, params));
    if (heavy) gate.heavy.fetch_sub(1);
  });
}

void open_in_browser(const std::string& url) {
  pid_t pid = 0;
  const char* argv[] = {"xdg-open", url.c_str(), nullptr};
  if (posix_spawnp(&pid, "xdg-open", nullptr, nullptr, const_cast<char* const*>(argv), environ) != 0) {
    std::fprintf(stderr, "swz view: warning: cannot run xdg-open; open the URL yourself\n");
    return;
  }
  std::thread([pid] { waitpid(pid, nullptr, 0); }).detach();
}

}  // namespace

CLI::App* add_view_command(CLI::App& app, ViewArgs* a) {
  auto* c = app.add_subcommand("view", "Show a dump in the browser: ranked layouts, zoom, texel <-> byte offset");
  c->description(
      "Show a dump in the browser. Starts a small HTTP server on 127.0.0.1 and ::1 (a free port unless --port)\n"
      "and prints its URL with a random 128-bit token: http://127.0.0.1:PORT/?token=T. Open it in a browser (or\n"
      "pass --open to run xdg-open). Every request must carry the token (the page sends it in an X-Swz-Token\n"
      "header) and a Host header naming the address it listens on; anything else is refused (403). The page\n"
      "ranks the layouts (swz identify) when no --layout is given, shows the chosen decode with zoom and pan,\n"
      "maps a hovered texel to its byte offset and a typed byte offset to its texel, shows the bytes around it,\n"
      "saves the decode as PNG (the bytes 'swz deswizzle ... OUT.png' writes) or DDS, and prints the equivalent\n"
      "swz deswizzle command. The server serves only DUMP, read once, read-only. Bounds: decodes of more than\n"
      "64 Mpx are refused, request bodies over 4 KiB (413), 2 decodes at a time (503), 500 requests a second\n"
      "(429), 4 connections at a time. Ctrl-C (SIGINT) or SIGTERM stops it (exit status 0).");
  CommonOptions& t = a->defaults.texture;
  c->add_option("--format", t.format, "DXGI format of the texels (default R8G8B8A8_UNORM; the page can change it)");
  c->add_option("--size", t.size, "WxH (or WxHxD) in texels (the page can change it)");
  c->add_option("--offset", t.offset, "Byte offset of the texture in DUMP (decimal or 0x hex, default 0)")
      ->check(unsigned_range(UINT64_MAX));
  c->add_option("--layout", t.layout,
                "The layout to show first (default: the best that identify ranks; a JSON file is read here, once)");
  c->add_option("--mips", t.mips, "Mip levels (default 1; 0 or full: the full chain)");
  add_unsigned_option(c, "--array", t.array, "Array slices (default 1)");
  c->add_option("--palette", a->defaults.view.palette,
                "P8, A8P8, AI44, IA44: FILE[:FORMAT], the palette (checked at start; the page turns it on)");
  c->add_option("--listen", a->listen,
                "Listen on ADDR instead of 127.0.0.1 and ::1 (prints a warning: anyone who can reach ADDR and has "
                "the token can read DUMP); the Host header must then be ADDR:PORT");
  add_unsigned_option(c, "--port", a->port, "TCP port (default: a free one)");
  c->add_flag("--open", a->open, "Open the URL with xdg-open");
  c->add_option("DUMP", a->dump, "The dump (a file; it is not changed)")->required();
  return c;
}

void run_view(const ViewArgs& a) {
  ViewSession session;
  session.dump_path = a.dump;
  session.defaults = a.defaults;
  if (session.defaults.texture.format.empty()) session.defaults.texture.format = "R8G8B8A8_UNORM";
  if (is_stdin(a.dump)) fail("swz view reads DUMP from a file, not standard input");
  session.dump = read_input(a.dump, 0, UINT64_MAX, false);
  if (session.dump.size == 0) fail("DUMP " + a.dump + " is empty");
  if (!session.defaults.view.palette.empty()) {
    Palette check_now;  // refused here rather than at the first request
    load_palette(session.defaults.view.palette, &check_now);
  }

  // SIGINT and SIGTERM are taken by one thread (sigwait), so every thread
  // the servers start inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  Gate gate;
  gate.token = make_token();
  std::vector<std::unique_ptr<httplib::Server>> servers;
  const std::string host = a.listen.empty() ? "127.0.0.1" : a.listen;
  servers.push_back(std::make_unique<httplib::Server>());
  configure(*servers[0], gate, session);
  const int port = a.port ? (servers[0]->bind_to_port(host.c_str(), a.port) ? a.port : -1)
                          : servers[0]->bind_to_any_port(host.c_str());
  if (port <= 0)
    fail("cannot listen on " + host_port(host, a.port) + (a.port ? " (in use, or not an address here)" : ""));
  if (a.listen.empty()) {  // also ::1 where the system has it
    auto v6 = std::make_unique<httplib::Server>();
    configure(*v6, gate, session);
    if (v6->bind_to_port("::1", port)) servers.push_back(std::move(v6));
  }
  gate.hosts = {host_port("127.0.0.1", port), host_port("localhost", port), host_port("::1", port)};
  gate.hosts.insert(host_port(host, port));
  if (!a.listen.empty())
    std::fprintf(stderr,
                 "swz view: warning: listening on %s: anyone who can reach it and has the token can read %s\n",
                 host_port(host, port).c_str(), a.dump.c_str());

  const std::string url = "http://" + host_port(host, port) + "/?token=" + gate.token;
  std::printf("%s\n", url.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "swz view: serving %s; Ctrl-C stops\n", a.dump.c_str());

  std::vector<std::thread> listeners;
  for (auto& s : servers) listeners.emplace_back([&s] { s->listen_after_bind(); });
  if (a.open) open_in_browser(url);
  int sig = 0;
  sigwait(&stop_signals, &sig);
  // A client that keeps a connection alive (a request trickled byte by byte)
  // holds its worker, and the joins below, as long as it likes: the process
  // exits after a grace period whatever the connections do.
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    std::fprintf(stderr, "swz view: stopped (open connections dropped)\n");
    std::_Exit(0);
  }).detach();
  for (auto& s : servers) s->stop();
  for (std::thread& t : listeners) t.join();
  std::fprintf(stderr, "swz view: stopped\n");
}

}  // namespace swz::cli
