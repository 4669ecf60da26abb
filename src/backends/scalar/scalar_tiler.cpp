// The scalar tiler: per row, the row's part of the address is computed once;
// along x, each contiguous run of the plan is one memcpy.
#include <algorithm>
#include <cstring>

#include "core/kernel.hpp"

namespace swz::detail {

void scalar_copy(const Region& r, Direction dir) {
  const Plan& p = *r.plan;
  const uint64_t eb = p.element_bytes;
  const uint64_t run = uint64_t{1} << p.run_log2;
  const uint64_t xb0 = r.x0 * eb + r.pre[0];
  const uint64_t xb1 = xb0 + r.w * eb;
  const uint32_t gs = p.g(3, r.sample) ^ p.immediate;
  for (uint32_t dz = 0; dz < r.d; ++dz) {
    for (uint32_t dy = 0; dy < r.h; ++dy) {
      uint64_t y, z;
      adjust_yz(r, r.y0 + dy, r.z0 + dz, &y, &z);
      const uint64_t rowbase = (y >> p.ext_log2[1]) * r.row_pitch + (z >> p.ext_log2[2]) * r.depth_pitch_B;
      const uint32_t gyz = gs ^ p.g(1, static_cast<uint32_t>(y)) ^ p.g(2, static_cast<uint32_t>(z));
      uint8_t* lin = r.lin + dz * r.lin_depth_pitch + dy * r.lin_row_pitch;
      if (p.row_linear) {
        // The whole row is one run (row-major-like patterns).
        const uint64_t off = rowbase + xb0;
        if (dir == Direction::ToSwizzled)
          std::memcpy(r.swz + off, lin, xb1 - xb0);
        else
          std::memcpy(lin, r.swz + off, xb1 - xb0);
        continue;
      }
      uint64_t x = xb0;
      while (x < xb1) {
        const uint64_t xa = x & ~(run - 1);
        const uint64_t len = std::min(xa + run, xb1) - x;
        const uint64_t off =
            (((rowbase + (xa >> p.ext_log2[0]) * p.block_bytes)) ^ gyz ^ p.g(0, static_cast<uint32_t>(xa))) + (x - xa);
        if (dir == Direction::ToSwizzled)
          std::memcpy(r.swz + off, lin + (x - xb0), len);
        else
          std::memcpy(lin + (x - xb0), r.swz + off, len);
        x += len;
      }
    }
  }
}

}  // namespace swz::detail
