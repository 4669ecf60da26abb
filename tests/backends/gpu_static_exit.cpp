// A Context held in a function-local static and in a namespace-scope static,
// both constructed BEFORE Context::create loads the Vulkan driver (so their
// destructors' atexit entries come before the driver's), used for a host
// conversion (the pinned ring with its copy threads; memory registered for
// import), and then left to exit(). The process must end with status 0:
// without swz's exit handler the destructor would call into a driver whose
// own exit handlers had already run (SIGSEGV on the NVIDIA driver). Run by ctest as
// swz_gpu_static_exit; with no Vulkan device it exits 0 after saying so
// (77 = skipped when SWZ_REQUIRE_VULKAN is unset; a failure when it is 1).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "swz/gpu.hpp"
#include "swz/swz.hpp"

namespace {
swz::gpu::Context g_global_context;  // namespace-scope static: constructed before main()

swz::gpu::Context& local_static_context() {
  static swz::gpu::Context ctx;  // constructed empty on the first call, before create()
  return ctx;
}

// The linear image, never freed: it stays registered with the global
// context until exit.
std::vector<uint8_t>& linear_buffer() {
  static std::vector<uint8_t>* v = new std::vector<uint8_t>(uint64_t{1024} * 4 * 512);
  return *v;
}

int convert_once(swz::gpu::Context& ctx, const char* what) {
  swz::TextureDesc d;
  if (!swz::find_format("R8G8B8A8_UNORM", &d.format).ok()) return 2;
  d.width = 1024;
  d.height = 512;
  swz::LayoutSpec spec;
  spec.kind = swz::LayoutKind::Std64K;
  swz::Layout L;
  if (!swz::make_layout(d, spec, &L).ok()) return 2;
  const uint64_t rp = 1024 * 4;
  std::vector<uint8_t>& lin = linear_buffer();
  std::vector<uint8_t> gpu_res(L.size(), 0), cpu_res(L.size(), 0);
  for (size_t i = 0; i < lin.size(); ++i) lin[i] = static_cast<uint8_t>(i * 7 + (i >> 9));
  swz::Status s =
      ctx.write_to_subresource(L, gpu_res.data(), gpu_res.size(), 0, nullptr, lin.data(), lin.size(), rp, 0);
  if (!s.ok()) {
    std::fprintf(stderr, "%s: GPU write_to_subresource: %s\n", what, s.message().c_str());
    return 1;
  }
  s = swz::write_to_subresource(L, cpu_res.data(), cpu_res.size(), 0, nullptr, lin.data(), lin.size(), rp, 0);
  if (!s.ok() || gpu_res != cpu_res) {
    std::fprintf(stderr, "%s: GPU bytes differ from the CPU path\n", what);
    return 1;
  }
  return 0;
}
}  // namespace

int main() {
  const char* req = std::getenv("SWZ_REQUIRE_VULKAN");
  const bool require = req && std::strcmp(req, "1") == 0;
  swz::gpu::Context& local = local_static_context();
  swz::Status s = swz::gpu::Context::create(&local);
  if (!s.ok()) {
    std::printf("no Vulkan device (%s): %s\n", swz::code_name(s.code()), s.message().c_str());
    return require ? 1 : 77;
  }
  s = swz::gpu::Context::create(&g_global_context);
  if (!s.ok()) {
    std::fprintf(stderr, "second context: %s\n", s.message().c_str());
    return 1;
  }
  std::printf("device: %s\n", local.device_name().c_str());
  // The local context converts through the pinned ring in 1 MiB chunks with
  // copy threads (alive at exit); the global one with its linear buffer
  // registered (imported memory left registered at exit) where the device
  // can import.
  swz::gpu::DispatchTuning t;
  t.host_path = swz::gpu::HostPath::ring;
  t.ring_chunk_B = 1 << 20;
  t.copy_threads = 4;
  local.set_tuning(t);
  s = g_global_context.register_host_memory(linear_buffer().data(), linear_buffer().size());
  if (!s.ok() && s.code() != swz::Code::unsupported) {
    std::fprintf(stderr, "register_host_memory: %s\n", s.message().c_str());
    return 1;
  }
  if (int rc = convert_once(local, "function-local static")) return rc;
  if (int rc = convert_once(g_global_context, "namespace-scope static")) return rc;
  if (local.last_host_stats().path != swz::gpu::HostPath::ring || local.last_host_stats().chunks < 2) {
    std::fprintf(stderr, "function-local static: expected the ring in several chunks\n");
    return 1;
  }
  std::printf("converted; returning from main with both contexts alive\n");
  std::fflush(stdout);
  return 0;  // the contexts are destroyed from exit()
}
