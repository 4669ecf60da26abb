// NVIDIA block linear (Tegra GOBs) against tegra_swizzle 0.4.0, the Rust
// crate a user would pick instead (target: swz at >= 1.3x it in
// both directions). Same bytes, same buffers, same run, one thread:
//
//   swz_bench_tegra [--sizes 512,4096,8192] [--reps 10] [--formats R8_UNORM,...] [--buffers user,page]
//
// For each format, size (width = height in texels), buffer kind and
// direction: the crate's swizzle_block_linear / deswizzle_block_linear (its
// C functions, no allocation; block height = its block_height_mip0), swz's
// write_to_subresource / read_from_subresource on the layout
// "nv-block-linear:gob=tegra" (block height inferred, threads = 1), and memcpy
// of the same linear bytes in the same direction, interleaved repetition by
// repetition; each repetition is the mean of k calls (k sized to >= 2 ms),
// the table shows medians. Before timing, the swizzled bytes of the two are
// compared: a cell whose bytes differ is reported as MISMATCH and not timed.
// Buffers: "user" = 4 KiB pages (MADV_NOHUGEPAGE), both pointers 16 mod 64
// (malloc, numpy); "page" = page-aligned, MADV_HUGEPAGE.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_buffers.hpp"
#include "swz/swz.hpp"

extern "C" {
// tegra_swizzle 0.4.0, src/ffi.rs (width/height in pixels, or in blocks for
// block-compressed formats with bytes_per_pixel = the block's bytes)
void swizzle_block_linear(uint32_t width, uint32_t height, uint32_t depth, const uint8_t* source, size_t source_len,
                          uint8_t* destination, size_t destination_len, uint32_t block_height,
                          uint32_t bytes_per_pixel);
void deswizzle_block_linear(uint32_t width, uint32_t height, uint32_t depth, const uint8_t* source,
                            size_t source_len, uint8_t* destination, size_t destination_len, uint32_t block_height,
                            uint32_t bytes_per_pixel);
size_t swizzled_mip_size(uint32_t width, uint32_t height, uint32_t depth, uint32_t block_height,
                         uint32_t bytes_per_pixel);
uint32_t block_height_mip0(uint32_t height);
}

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t a = 0;
  while (a <= s.size()) {
    const size_t b = s.find(',', a);
    out.push_back(s.substr(a, b == std::string::npos ? std::string::npos : b - a));
    if (b == std::string::npos) break;
    a = b + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> sizes = {"512", "4096", "8192"};
  std::vector<std::string> formats = {"R8_UNORM", "R8G8B8A8_UNORM", "BC7_UNORM", "R32G32B32A32_FLOAT"};
  std::vector<std::string> buffers = {"user", "page"};
  int reps = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--sizes" && v) sizes = split(argv[++i]);
    else if (a == "--formats" && v) formats = split(argv[++i]);
    else if (a == "--buffers" && v) buffers = split(argv[++i]);
    else if (a == "--reps" && v) reps = std::max(3, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr,
                   "usage: %s [--sizes 512,4096,8192] [--reps 10] [--formats R8_UNORM,...] [--buffers user,page]\n",
                   argv[0]);
      return 2;
    }
  }
  std::printf("| format | size | buffers | direction | memcpy GB/s | tegra_swizzle GB/s | swz GB/s | swz / tegra | "
              "swz x memcpy | tegra x memcpy |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  int status = 0;
  for (const std::string& fmt : formats)
    for (const std::string& sz : sizes)
      for (const std::string& bk : buffers) {
        swz::TextureDesc desc;
        if (!swz::find_format(fmt, &desc.format).ok()) {
          std::fprintf(stderr, "unknown format %s\n", fmt.c_str());
          return 2;
        }
        desc.width = desc.height = static_cast<uint32_t>(std::strtoul(sz.c_str(), nullptr, 10));
        swz::Layout layout;
        swz::Status s = swz::make_layout_from_name("nv-block-linear:gob=tegra", desc, swz::LayoutOptions{}, &layout);
        if (!s.ok()) {
          std::fprintf(stderr, "%s\n", s.message().c_str());
          return 2;
        }
        const swz::SubresourceLayout& sl = layout.sub(0);
        const uint32_t w_el = sl.width_el, h_el = sl.height_el, eb = sl.element_bytes;
        const uint64_t row_pitch = uint64_t{w_el} * eb, lin_bytes = row_pitch * h_el;
        const uint32_t bh = block_height_mip0(h_el);
        const size_t tegra_bytes = swizzled_mip_size(w_el, h_el, 1, bh, eb);
        const uint64_t res_bytes = std::max<uint64_t>(layout.size(), tegra_bytes);
        const bool user = bk == "user";
        Arena a_lin, a_res, a_res2, a_lin2;
        const size_t off = user ? kUserOffset_B : 0;
        auto take = [&](Arena& a, uint64_t n) {
          if (!a.reserve(n, !user)) {
            std::fprintf(stderr, "out of memory (%llu bytes)\n", static_cast<unsigned long long>(n));
            std::exit(2);
          }
          return a.base + off;
        };
        uint8_t* const lin = take(a_lin, lin_bytes),
                      *const res = take(a_res, res_bytes), *const res2 = take(a_res2, res_bytes),
                      *const lin2 = take(a_lin2, lin_bytes);
        // the oracle check: both libraries' swizzled bytes, and the round trips
        std::memset(res, 0, res_bytes);
        std::memset(res2, 0, res_bytes);
        swizzle_block_linear(w_el, h_el, 1, lin, lin_bytes, res2, tegra_bytes, bh, eb);
        swz::CopyOptions o1;
        o1.threads = 1;
        s = swz::write_to_subresource(layout, res, layout.size(), 0, nullptr, lin, lin_bytes, row_pitch, 0, o1);
        bool same = s.ok() && layout.size() == tegra_bytes && std::memcmp(res, res2, tegra_bytes) == 0;
        if (same) {
          s = swz::read_from_subresource(lin2, lin_bytes, row_pitch, 0, layout, res, layout.size(), 0, nullptr,
                                         o1);
          same = s.ok() && std::memcmp(lin2, lin, lin_bytes) == 0;
        }
        if (!same) {
          std::printf("| %s | %s² | %s | both | MISMATCH (swz %llu B, tegra %zu B, bh %u: %s) |\n", fmt.c_str(),
                      sz.c_str(), bk.c_str(), static_cast<unsigned long long>(layout.size()), tegra_bytes, bh,
                      s.ok() ? "bytes differ" : s.message().c_str());
          status = 3;
          continue;
        }
        for (int dir = 0; dir < 2; ++dir) {
          const bool to_swz = dir == 0;
          auto f_memcpy = [&] {
            if (to_swz) std::memcpy(res, lin, lin_bytes);
            else std::memcpy(lin2, res, lin_bytes);
          };
          auto f_tegra = [&] {
            if (to_swz) swizzle_block_linear(w_el, h_el, 1, lin, lin_bytes, res, tegra_bytes, bh, eb);
            else deswizzle_block_linear(w_el, h_el, 1, res, tegra_bytes, lin2, lin_bytes, bh, eb);
          };
          auto f_swz = [&] {
            const swz::Status st =
                to_swz ? swz::write_to_subresource(layout, res, layout.size(), 0, nullptr, lin, lin_bytes,
                                                   row_pitch, 0, o1)
                       : swz::read_from_subresource(lin2, lin_bytes, row_pitch, 0, layout, res, layout.size(), 0,
                                                    nullptr, o1);
            if (!st.ok()) {
              std::fprintf(stderr, "%s\n", st.message().c_str());
              std::exit(2);
            }
          };
          // calls per repetition: >= 2 ms of memcpy
          f_memcpy();
          f_tegra();
          f_swz();
          const auto t0 = Clock::now();
          f_memcpy();
          const double one = std::max(std::chrono::duration<double>(Clock::now() - t0).count(), 1e-7);
          const int k = static_cast<int>(std::clamp(2e-3 / one, 1.0, 2000.0));
          std::vector<double> tm, tt, ts;
          auto timed = [&](auto f, std::vector<double>* out) {
            const auto a = Clock::now();
            for (int i = 0; i < k; ++i) f();
            out->push_back(std::chrono::duration<double>(Clock::now() - a).count() / k);
          };
          for (int r = 0; r < reps; ++r) {
            timed(f_memcpy, &tm);
            timed(f_tegra, &tt);
            timed(f_swz, &ts);
          }
          const double gb = static_cast<double>(lin_bytes) * 1e-9;
          const double m = median(tm), t = median(tt), z = median(ts);
          std::printf("| %s | %s² | %s | %s | %.1f | %.1f | %.1f | **%.2f** | %.2f | %.2f |\n", fmt.c_str(), sz.c_str(),
                      bk.c_str(), to_swz ? "swizzle" : "deswizzle", gb / m, gb / t, gb / z, t / z, m / z, m / t);
          std::fflush(stdout);
        }
      }
  return status;
}
