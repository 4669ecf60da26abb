// Test oracle for the GPU planner: the arithmetic of
// src/backends/vulkan/shaders/swizzle.comp run on the CPU over host copies of
// the bound ranges, so that the planner's dispatches (bands, bindings, push
// constants) can be checked byte for byte without a device. Lives with the
// tests; the library never runs it.
#include "gpu_emulate.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace swz::gpu::detail {

// ---- CPU mirror of swizzle.comp ---------------------------------------------
namespace {
uint32_t G3(const SwizzleTables& t, unsigned c, uint32_t v) {
  return t.gtab[c][0][v & 255] ^ t.gtab[c][1][(v >> 8) & 255] ^ t.gtab[c][2][(v >> 16) & 255] ^ t.gtab[c][3][v >> 24];
}
}  // namespace

void emulate(const SwizzleDispatch& D, bool to_swizzled, uint8_t* swz, uint8_t* lin) {
  const SwizzlePush& pc = D.push;
  const SwizzleTables& T = D.tables;
  const uint32_t ex = pc.shifts0 & 255, ey = (pc.shifts0 >> 8) & 255, ez = (pc.shifts0 >> 16) & 255,
                 n = pc.shifts0 >> 24;
  const uint32_t txsh = pc.shifts1 & 255, tysh = (pc.shifts1 >> 8) & 255, tzsh = (pc.shifts1 >> 16) & 255,
                 q = pc.shifts1 >> 24;
  const uint32_t parts_log2 = pc.cfg & 255, u = (pc.cfg >> 8) & 255;
  const bool stacked = ((pc.cfg >> 16) & 1) != 0;
  const uint32_t wbytes = 1u << q;
  for (uint32_t gy = 0; gy < D.groups_y; ++gy)
    for (uint32_t gx = 0; gx < D.groups_x; ++gx) {
      const uint32_t wg = gx + gy * pc.grid_x;
      if (wg >= pc.total_wg) continue;
      const uint32_t part = wg & ((1u << parts_log2) - 1u);
      const uint32_t tile = wg >> parts_log2;
      const uint32_t tx = tile % pc.ntx, t2 = tile / pc.ntx, ty = t2 % pc.nty, tz = t2 / pc.nty;
      const uint32_t xt = (pc.tx0 + tx) << txsh;
      uint32_t yb, yt, zt;
      if (stacked) {
        yb = pc.y0 + tz * pc.stack_rows;
        yt = ((yb >> tysh) + ty) << tysh;
        zt = 0;
      } else {
        yb = pc.y0;
        yt = (pc.ty0 + ty) << tysh;
        zt = (pc.tz0 + tz) << tzsh;
      }
      const uint32_t gt = pc.gconst ^ G3(T, 0, xt) ^ G3(T, 1, yt) ^ G3(T, 2, zt);
      uint32_t H[4] = {0, 0, 0, 0}, Hs = 0;
      for (uint32_t i = 0; i < parts_log2; ++i)
        if ((part >> i) & 1u) {
          for (int k = 0; k < 4; ++k) H[k] ^= T.col[u + i][k];
          Hs ^= T.col_s[u + i];
        }
      const uint32_t lanes = u < 8 ? 1u << u : 256u;
      const uint32_t iters = u > 8 ? 1u << (u - 8) : 1u;
      for (uint32_t lid = 0; lid < lanes; ++lid) {
        uint32_t L[4] = {0, 0, 0, 0}, Ls = 0;
        for (uint32_t i = 0; i < std::min(u, 8u); ++i)
          if ((lid >> i) & 1u) {
            for (int k = 0; k < 4; ++k) L[k] ^= T.col[i][k];
            Ls ^= T.col_s[i];
          }
        uint32_t Hi[4] = {H[0], H[1], H[2], H[3]}, His = Hs;
        for (uint32_t it = 0; it < iters; ++it) {
          if (it > 0) {
            const uint32_t bit = static_cast<uint32_t>(std::countr_zero(it)) + 8;
            for (int k = 0; k < 4; ++k) Hi[k] ^= T.col[bit][k];
            His ^= T.col_s[bit];
          }
          const uint32_t cx = L[0] ^ Hi[0], cy = L[1] ^ Hi[1], cz = L[2] ^ Hi[2], cg = L[3] ^ Hi[3];
          const uint32_t x = xt | cx, y = yt | cy, z = zt | cz;
          const uint32_t row = y - yb;
          const uint32_t sl = stacked ? tz : z - pc.z0;
          const uint32_t xr = x - pc.x0_B;
          if ((Ls ^ His) != pc.sample_in || row >= pc.h || sl >= pc.d || xr >= pc.xw_B) continue;
          const uint32_t off =
              (((x >> ex) << n) + (y >> ey) * pc.row_pitch_B + (z >> ez) * pc.depth_pitch_B) ^ (gt ^ cg);
          const uint32_t si = (pc.swz_rem_B + off) >> q;
          const uint32_t li = (pc.lin_rem_B + xr + row * pc.lin_rp_B + sl * pc.lin_dp_B) >> q;
          if (to_swizzled)
            std::memcpy(swz + uint64_t{si} * wbytes, lin + uint64_t{li} * wbytes, wbytes);
          else
            std::memcpy(lin + uint64_t{li} * wbytes, swz + uint64_t{si} * wbytes, wbytes);
        }
      }
    }
}

}  // namespace swz::gpu::detail
