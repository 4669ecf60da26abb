// One cell of the user-case matrix (bench_matrix.cpp), repeated, without a
// timer: the driver for instruction counts under callgrind, which are
// deterministic on a loaded machine where wall time is not.
//
//   swz_bench_cell MODE LAYOUT FORMAT SIZE DIRECTION BUFFERS REPS
//     MODE       kernel: write_to_subresource / read_from_subresource, one thread
//                memcpy: memcpy of the same linear bytes in the same direction
//                floor:  the ideal gather: the cell's 16-byte runs copied at
//                        precomputed offsets (the destination in order: the
//                        swizzled side when swizzling, the linear rows when
//                        deswizzling); needs a layout whose runs are >= 16 bytes
//     LAYOUT     a swz layout name (std64k, nv-block-linear:gob=tegra, ...)
//     FORMAT     a DXGI format name (R8G8B8A8_UNORM, BC7_UNORM, ...)
//     SIZE       width = height in texels
//     DIRECTION  swizzle | deswizzle
//     BUFFERS    user (both pointers 16 mod 64, as malloc) | page (page-aligned)
//     REPS       calls after one warm-up call
//   SWZ_MATRIX_TUNE="knob=value,..." sets the kernels' tuning knobs (tune_knobs.hpp)
//
// Work per byte (bench/cell_ir.sh): run under callgrind collecting only inside
// the timed function (swz::write_to_subresource / swz::read_from_subresource,
// cell_memcpy, floor_gather) and divide by (REPS + 1) x the linear bytes
// (printed on stdout). Valgrind runs the AVX2
// form of the Highway kernels (it has no AVX-512), so these counts are those
// of the AVX2 kernels.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <time.h>
#include <utility>
#include <vector>

#include "swz/swz.hpp"
#include "floor_gather.hpp"
#include "tune_knobs.hpp"

namespace {

uint8_t* alloc_at(size_t n, size_t phase) {
  void* p = nullptr;
  if (posix_memalign(&p, 4096, n + 4096) != 0) return nullptr;
  std::memset(p, 0x5a, n + 4096);
  return static_cast<uint8_t*>(p) + phase;
}

// The timed parts, one function each, for callgrind's --toggle-collect.
__attribute__((noinline)) void cell_memcpy(uint8_t* dst, const uint8_t* src, uint64_t n) {
  std::memcpy(dst, src, n);
  __asm__ volatile("" ::: "memory");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: %s kernel|memcpy|floor LAYOUT FORMAT SIZE swizzle|deswizzle user|page REPS\n",
                 argv[0]);
    return 2;
  }
  if (const char* tune = std::getenv("SWZ_MATRIX_TUNE"); tune && !apply_tuning(tune)) {
    std::fprintf(stderr, "SWZ_MATRIX_TUNE: unknown knob or bad value in '%s'\n", tune);
    return 2;
  }
  const std::string mode = argv[1];
  const bool to_swz = std::strcmp(argv[5], "swizzle") == 0;
  const bool user = std::strcmp(argv[6], "user") == 0;
  const int reps = std::atoi(argv[7]);
  swz::TextureDesc desc;
  if (!swz::find_format(argv[3], &desc.format).ok()) {
    std::fprintf(stderr, "unknown format %s\n", argv[3]);
    return 2;
  }
  desc.width = desc.height = static_cast<uint32_t>(std::atoi(argv[4]));
  swz::Layout layout;
  swz::Status s = swz::make_layout_from_name(argv[2], desc, swz::LayoutOptions{}, &layout);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 2;
  }
  const swz::SubresourceLayout& sl = layout.sub(0);
  const uint64_t row_pitch = uint64_t{sl.width_el} * sl.element_bytes;
  const uint64_t lin_bytes = row_pitch * sl.height_el;
  const uint64_t res_bytes = layout.size();
  const size_t phase = user ? 16 : 0;
  uint8_t* res = alloc_at(res_bytes, phase);
  // SWZ_CELL_LIN_PHASE: the linear pointer's offset from a page (default: as BUFFERS)
  const char* lp = std::getenv("SWZ_CELL_LIN_PHASE");
  uint8_t* lin = alloc_at(lin_bytes, lp ? static_cast<size_t>(std::atoi(lp)) : phase);
  if (!res || !lin) return 1;
  swz::CopyOptions o1;
  o1.threads = 1;
  auto kernel = [&] {
    return to_swz ? swz::write_to_subresource(layout, res, res_bytes, 0, nullptr, lin, lin_bytes, row_pitch, 0, o1)
                  : swz::read_from_subresource(lin, lin_bytes, row_pitch, 0, layout, res, res_bytes, 0, nullptr, o1);
  };
  timespec t0{}, t1{};
  std::vector<uint32_t> src;  // floor: the source offsets, in destination order
  if (mode == "floor" && !floor_sources(layout, to_swz, &src)) {
    std::fprintf(stderr, "floor: a 16-byte piece is not one run, or the destination is not dense\n");
    return 2;
  }
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  if (mode == "kernel") {
    for (int i = 0; i <= reps; ++i)
      if (!(s = kernel()).ok()) {
        std::fprintf(stderr, "%s\n", s.message().c_str());
        return 1;
      }
  } else if (mode == "memcpy") {
    for (int i = 0; i <= reps; ++i) {
      if (to_swz)
        cell_memcpy(res, lin, lin_bytes);
      else
        cell_memcpy(lin, res, lin_bytes);
    }
  } else if (mode == "floor") {
    uint8_t* const dst = to_swz ? res : lin;
    const uint8_t* const from = to_swz ? lin : res;
    for (int r = 0; r <= reps; ++r) floor_gather(dst, from, src.data(), src.size());
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  const double sec = static_cast<double>(t1.tv_sec - t0.tv_sec) + 1e-9 * static_cast<double>(t1.tv_nsec - t0.tv_nsec);
  // stdout: the linear bytes (cell_ir.sh reads it); stderr: speed on thread CPU time
  std::printf("%llu\n", static_cast<unsigned long long>(lin_bytes));
  std::fprintf(stderr, "%.2f GB/s (thread CPU time, %d calls)\n",
               static_cast<double>(lin_bytes) * (reps + 1) / sec / 1e9, reps + 1);
  return 0;
}
