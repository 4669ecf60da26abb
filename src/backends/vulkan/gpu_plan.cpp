// Dispatch planning for the Vulkan compute path (see gpu_plan.hpp).
//
// The shader enumerates, per workgroup, a contiguous range of a "tile": an
// aligned group of 2^kx x 2^ky x 2^kz pattern blocks. A tile address j (bits
// below n: in-block address, then x-, y-, z-block bits) maps to in-tile
// coordinates through the inverse in-block map, which is linear over GF(2);
// so every address bit has a "column" (dx, dy, dz, ds, g) and the coordinates
// of any chunk are the XOR of the columns of its set bits. The shader then
// computes the real address FORWARD (base ^ G) from those coordinates, so the
// result is the plan's offset function by construction; the enumeration order
// only decides which invocation moves which word (and so the coalescing).
#include "backends/vulkan/gpu_plan.hpp"
#include "core/kernel.hpp"
#include "core/checked_math.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>

namespace swz::gpu::detail {
namespace {
using swz::detail::add_ok;
using swz::detail::ceil_div;
using swz::detail::mul_ok;

unsigned ceil_log2(uint64_t v) { return v <= 1 ? 0u : static_cast<unsigned>(64 - std::countl_zero(v - 1)); }
constexpr uint64_t k4G = uint64_t{1} << 32;

}  // namespace

Status resolve_region(const Layout& layout, uint64_t resource_offset, uint64_t resource_size, uint32_t subresource,
                      const Box* box, uint64_t lin_offset, uint64_t lin_size, uint64_t lin_row_pitch,
                      uint64_t lin_depth_pitch, const char* lin_name, GpuRegion* out, bool* empty) {
  // The CPU calls' own checks, so both paths accept and refuse the same requests.
  swz::detail::Resolved res;
  SWZ_TRY(swz::detail::resolve_region(layout, resource_size, subresource, box, lin_size, lin_row_pitch, lin_depth_pitch,
                                      lin_name, &res));
  *empty = res.empty;
  if (res.empty) return Status::Ok();
  GpuRegion& r = *out;
  r = GpuRegion{};
  r.plan = res.r.plan;
  r.x0 = res.r.x0;
  r.y0 = res.r.y0;
  r.z0 = res.r.z0;
  r.w = res.r.w;
  r.h = res.r.h;
  r.d = res.r.d;
  r.lin_offset = lin_offset;
  r.lin_span = res.lin_bytes;
  // Pitches of 0 are the tight ones, as resolved; a pitch the box does not use keeps the caller's value.
  r.lin_row_pitch = lin_row_pitch ? lin_row_pitch : res.r.lin_row_pitch;
  r.lin_depth_pitch = lin_depth_pitch ? lin_depth_pitch : res.r.lin_depth_pitch;
  if (!add_ok(resource_offset, res.sub_offset, &r.swz_offset))
    return {Code::overflow, "resource offset does not fit in 64 bits"};
  r.swz_span = res.sub_size;
  r.row_pitch = res.r.row_pitch;
  r.depth_pitch_B = res.r.depth_pitch_B;
  r.stack_rows = res.r.stack_rows;
  for (int i = 0; i < 3; ++i) r.pre[i] = res.r.pre[i];
  return Status::Ok();
}

namespace {

// Largest k <= 4 such that every aligned run of 2^k bytes along x maps to
// 2^k consecutive addresses (within a block, or across blocks of an X-only
// block shape when the pitches keep the alignment).
unsigned chunk_log2(const Plan& p, const GpuRegion& r) {
  const unsigned ex = p.ext_log2[0], n = p.block_bits;
  unsigned best = 0;
  for (unsigned k = 1; k <= 4; ++k) {
    const uint32_t mask = (1u << k) - 1;
    bool ok = (p.immediate & mask) == 0;
    if (k > ex) {
      ok = ok && n == ex && r.row_pitch % (1u << k) == 0 && r.depth_pitch_B % (1u << k) == 0;
    }
    for (unsigned c = 0; c < 4 && ok; ++c)
      for (unsigned b = 0; b < 32 && ok; ++b) {
        const uint32_t v = p.lin[c][b];
        if (c == 0 && b < k)
          ok = b < ex ? v == (1u << b) : v == 0;
        else
          ok = (v & mask) == 0;
      }
    if (!ok) break;
    best = k;
  }
  return best;
}

}  // namespace

Status plan_swizzle(const GpuRegion& r, const DeviceLimits& lim, unsigned wg_chunks_log2, SwizzleDispatch* out) {
  const Plan& p = *r.plan;
  SwizzleDispatch& D = *out;
  D = SwizzleDispatch{};
  const unsigned ex = p.ext_log2[0], ey = p.ext_log2[1], ez = p.ext_log2[2], es = p.ext_log2[3];
  const unsigned n = p.block_bits;
  if (n > 31)
    return {Code::unsupported,
            "GPU path: blocks of 2^" + std::to_string(n) + " bytes exceed the 32-bit shader addressing"};
  const uint64_t e = p.element_bytes;
  const bool stacked = r.stack_rows != 0;
  const uint64_t S = r.stack_rows;
  // Adjusted coordinate ranges (the rule of core/addresser.hpp).
  const swz::detail::Adjusted first = swz::detail::Frame::adjust(r.pre, S, uint64_t{r.x0} * e, r.y0, r.z0);
  const swz::detail::Adjusted last =
      swz::detail::Frame::adjust(r.pre, S, uint64_t{r.x0} * e, uint64_t{r.y0} + r.h - 1, uint64_t{r.z0} + r.d - 1);
  const uint64_t X0 = first.x_B, X1 = X0 + r.w * e;
  const uint64_t Y0 = first.y, Ylast = last.y;
  const uint64_t Z0 = first.z, Zlast = last.z;
  if (X1 >= k4G || Ylast >= k4G || Zlast >= k4G)
    return {Code::unsupported, "GPU path: adjusted coordinates do not fit in 32 bits"};
  // Bound ranges. A band binds only its window of the subresource; the
  // shader still computes addresses relative to the subresource, modulo 2^32,
  // and the push constant swz_rem (also modulo 2^32) moves them to the
  // window, so every index that lands in the window is exact.
  const uint64_t al = std::max<uint64_t>(lim.min_storage_align, 1);
  const uint64_t band_lo = r.band_span ? r.band_lo : 0, band_span = r.band_span ? r.band_span : r.swz_span;
  D.swz_bind_offset = (r.swz_offset + band_lo) / al * al;
  const uint64_t swz_rem = r.swz_offset + band_lo - D.swz_bind_offset;
  D.swz_bind_range = swz_rem + band_span;
  D.lin_bind_offset = r.lin_offset / al * al;
  const uint64_t lin_rem = r.lin_offset - D.lin_bind_offset;
  D.lin_bind_range = lin_rem + r.lin_span;
  const uint64_t maxr = std::min<uint64_t>(lim.max_storage_range, k4G - 1);
  if (D.swz_bind_range > maxr)
    return {Code::unsupported, "GPU path: subresource spans " + std::to_string(r.swz_span) +
                                   " bytes, more than one storage-buffer binding allows (" + std::to_string(maxr) +
                                   ")"};
  if (D.lin_bind_range > maxr)
    return {Code::unsupported, "GPU path: the linear box spans " + std::to_string(r.lin_span) +
                                   " bytes, more than one storage-buffer binding allows (" + std::to_string(maxr) +
                                   ")"};
  // Word size: the pattern's run, the alignment of both sides and of the box edges.
  const unsigned kmax = chunk_log2(p, r);
  uint64_t g = uint64_t{1} << kmax;
  g = std::gcd(g, r.swz_offset);
  g = std::gcd(g, r.lin_offset);
  g = std::gcd(g, X0);
  g = std::gcd(g, X1);
  if (r.h > 1) g = std::gcd(g, r.lin_row_pitch);
  if (r.d > 1) g = std::gcd(g, r.lin_depth_pitch);
  const unsigned q = static_cast<unsigned>(std::countr_zero(g));
  if (q == 0 && !lim.word1)
    return {Code::unsupported,
            "GPU path: this copy needs byte loads (alignment), and the device lacks storageBuffer8BitAccess"};
  if (q == 1 && !lim.word2)
    return {Code::unsupported,
            "GPU path: this copy needs 2-byte loads (alignment), and the device lacks storageBuffer16BitAccess"};
  D.word_log2 = q;
  // Blocks the box covers, per axis.
  const uint64_t bx = ((X1 - 1) >> ex) - (X0 >> ex) + 1;
  uint64_t by = 0;
  if (stacked) {
    for (uint32_t zs = 0; zs < r.d; ++zs) {
      const uint64_t yb = Y0 + zs * S;
      by = std::max(by, ((yb + r.h - 1) >> ey) - (yb >> ey) + 1);
    }
  } else {
    by = (Ylast >> ey) - (Y0 >> ey) + 1;
  }
  const uint64_t bz = stacked ? 1 : (Zlast >> ez) - (Z0 >> ez) + 1;
  // Tile shape: extend the block along x, then y, then z until a tile holds
  // the chunks of one workgroup (or the box).
  // Default workgroup size by the box's bytes, tuned on an NVIDIA H200 with
  // swz_bench_gpu: 2^13 bytes up to 4 MiB (small boxes need more
  // workgroups than there are multiprocessors), 2^14 above (2^15 is
  // slower against the plain copy at 64 MiB and at 1 GiB).
  const uint64_t box_B = uint64_t{r.w} * e * r.h * r.d;
  const unsigned wg_B_log2 = box_B <= (uint64_t{4} << 20) ? 13u : 14u;
  unsigned ut = wg_chunks_log2 ? wg_chunks_log2 : std::min(12u, wg_B_log2 > q + 5 ? wg_B_log2 - q : 5u);
  ut = std::clamp(ut, 5u, 20u);
  const unsigned mb = q <= n ? n - q : 0;
  const unsigned kx_min = q > n ? q - n : 0;
  const unsigned want = ut > mb ? ut - mb : 0;
  const unsigned kx = std::max(kx_min, std::min(ceil_log2(bx), want));
  unsigned rest = want > kx ? want - kx : 0;
  const unsigned ky = std::min(ceil_log2(by), rest);
  rest -= ky;
  const unsigned kz = stacked ? 0 : std::min(ceil_log2(bz), rest);
  const unsigned tbits = n + kx + ky + kz;  // tile address bits
  if (tbits > 31) return {Code::unsupported, "GPU path: tile of 2^" + std::to_string(tbits) + " bytes"};
  const unsigned m = tbits - q;  // chunk index bits
  const unsigned u = std::min(m, ut);
  const unsigned parts_log2 = m - u;
  const unsigned txsh = ex + kx, tysh = ey + ky, tzsh = ez + kz;
  if (txsh > 31 || tysh > 31 || tzsh > 31)
    return {Code::unsupported, "GPU path: tile extent exceeds 32-bit coordinates"};
  const uint64_t tx0 = X0 >> txsh, ntx = ((X1 - 1) >> txsh) - tx0 + 1;
  uint64_t ty0 = 0, nty = 0, tz0 = 0, ntz = 0;
  if (stacked) {
    for (uint32_t zs = 0; zs < r.d; ++zs) {
      const uint64_t yb = Y0 + zs * S;
      nty = std::max(nty, ((yb + r.h - 1) >> tysh) - (yb >> tysh) + 1);
    }
    ntz = r.d;
  } else {
    ty0 = Y0 >> tysh;
    nty = (Ylast >> tysh) - ty0 + 1;
    tz0 = Z0 >> tzsh;
    ntz = (Zlast >> tzsh) - tz0 + 1;
  }
  uint64_t total = ntx * nty;
  if (!mul_ok(total, ntz, &total) || total >= k4G || (total << parts_log2) >= k4G)
    return {Code::unsupported, "GPU path: more than 2^32 workgroups"};
  total <<= parts_log2;
  const uint64_t gx = std::min<uint64_t>(total, lim.max_groups_x);
  const uint64_t gy = ceil_div(total, gx);
  if (gy > lim.max_groups_y)
    return {Code::unsupported, "GPU path: dispatch grid exceeds the device's workgroup count limits"};
  D.groups_x = static_cast<uint32_t>(gx);
  D.groups_y = static_cast<uint32_t>(gy);
  // Pitches: only used when the box spans more than one block row / slice.
  uint64_t RP = r.row_pitch, DP = r.depth_pitch_B;
  if ((Ylast >> ey) == 0 || RP == 0) RP = 0;  // unused
  if (stacked || (Zlast >> ez) == 0) DP = 0;
  if (RP >= k4G || DP >= k4G) return {Code::unsupported, "GPU path: resource pitches exceed 32 bits"};
  const uint64_t LRP = r.h > 1 ? r.lin_row_pitch : 0, LDP = r.d > 1 ? r.lin_depth_pitch : 0;
  if (LRP >= k4G || LDP >= k4G) return {Code::unsupported, "GPU path: linear pitches exceed 32 bits"};
  // Columns of the tile address bits.
  struct ColV {
    uint32_t dx, dy, dz, ds, g;
  };
  std::vector<ColV> cols(tbits);
  for (unsigned j = 0; j < tbits; ++j) {
    ColV c{};
    if (j < n) {
      c.dx = p.inverse[j][0];
      c.dy = p.inverse[j][1];
      c.dz = p.inverse[j][2];
      c.ds = p.inverse[j][3];
      c.g = p.g(0, c.dx) ^ p.g(1, c.dy) ^ p.g(2, c.dz);
    } else if (j < n + kx) {
      const unsigned b = ex + (j - n);
      c.dx = 1u << b;
      c.g = p.lin[0][b];
    } else if (j < n + kx + ky) {
      const unsigned b = ey + (j - n - kx);
      c.dy = 1u << b;
      c.g = p.lin[1][b];
    } else {
      const unsigned b = ez + (j - n - kx - ky);
      c.dz = 1u << b;
      c.g = p.lin[2][b];
    }
    cols[j] = c;
  }
  // Order of the chunk index bits: the two lowest address bits (the resource
  // side gets >= 4 contiguous words per warp) and the address bits of the two
  // lowest x bits above the word (the linear side gets >= 4 contiguous
  // words per row), then the rest ascending.
  std::vector<unsigned> order;
  auto add = [&](unsigned j) {
    if (j >= q && j < tbits && std::find(order.begin(), order.end(), j) == order.end()) order.push_back(j);
  };
  add(q);
  add(q + 1);
  for (unsigned b = q; b < q + 2; ++b)
    for (unsigned j = q; j < tbits; ++j)
      if ((cols[j].dx >> b) & 1u) {
        add(j);
        break;
      }
  for (unsigned j = q; j < tbits; ++j) add(j);
  for (unsigned i = 0; i < m; ++i) {
    const ColV& c = cols[order[i]];
    D.tables.col[i][0] = c.dx;
    D.tables.col[i][1] = c.dy;
    D.tables.col[i][2] = c.dz;
    D.tables.col[i][3] = c.g;
    D.tables.col_s[i] = c.ds;
  }
  for (unsigned c = 0; c < 3; ++c)
    for (unsigned k = 0; k < 4; ++k) std::memcpy(D.tables.gtab[c][k], p.g_tab[c][k], sizeof(D.tables.gtab[c][k]));
  SwizzlePush& P = D.push;
  P.grid_x = D.groups_x;
  P.total_wg = static_cast<uint32_t>(total);
  P.ntx = static_cast<uint32_t>(ntx);
  P.nty = static_cast<uint32_t>(nty);
  P.tx0 = static_cast<uint32_t>(tx0);
  P.ty0 = static_cast<uint32_t>(ty0);
  P.tz0 = static_cast<uint32_t>(tz0);
  P.shifts0 = ex | (ey << 8) | (ez << 16) | (n << 24);
  P.shifts1 = txsh | (tysh << 8) | (tzsh << 16) | (q << 24);
  P.cfg = parts_log2 | (u << 8) | (stacked ? 1u << 16 : 0u);
  P.row_pitch_B = static_cast<uint32_t>(RP);
  P.depth_pitch_B = static_cast<uint32_t>(DP);
  P.gconst = p.immediate ^ p.g(3, r.sample);
  P.sample_in = es ? (r.sample & ((1u << es) - 1)) : 0;
  P.swz_rem_B = static_cast<uint32_t>(swz_rem - band_lo);  // modulo 2^32 (see the bound ranges above)
  P.lin_rem_B = static_cast<uint32_t>(lin_rem);
  P.lin_rp_B = static_cast<uint32_t>(LRP);
  P.lin_dp_B = static_cast<uint32_t>(LDP);
  P.x0_B = static_cast<uint32_t>(X0);
  P.xw_B = static_cast<uint32_t>(X1 - X0);
  P.y0 = static_cast<uint32_t>(Y0);
  P.h = r.h;
  P.z0 = static_cast<uint32_t>(Z0);
  P.d = r.d;
  P.stack_rows = static_cast<uint32_t>(S);
  if (S >= k4G) return {Code::unsupported, "GPU path: stacked depth pitch exceeds 32 bits"};
  return Status::Ok();
}

Status split_bands(const GpuRegion& r, const DeviceLimits& lim, uint64_t max_band_B, std::vector<GpuRegion>* out) {
  out->clear();
  const uint64_t maxr = std::min<uint64_t>(lim.max_storage_range, k4G - 1);
  const uint64_t cap = max_band_B ? std::min(maxr, max_band_B) : maxr;
  const uint64_t al = std::max<uint64_t>(lim.min_storage_align, 1);
  const uint64_t swz_need = r.swz_offset % al + r.swz_span, lin_need = r.lin_offset % al + r.lin_span;
  if (swz_need <= cap && lin_need <= cap) {
    out->push_back(r);
    return Status::Ok();
  }
  const Plan& p = *r.plan;
  const unsigned ex = p.ext_log2[0], ey = p.ext_log2[1], ez = p.ext_log2[2], n = p.block_bits;
  const std::string what = swz_need > maxr || lin_need > maxr
                               ? "the subresource (" + std::to_string(r.swz_span) + " bytes) or the linear box (" +
                                     std::to_string(r.lin_span) + " bytes) exceeds one storage-buffer binding (" +
                                     std::to_string(maxr) + " bytes)"
                               : std::string();
  auto refuse = [&](const std::string& why) -> Status {
    if (what.empty()) {  // only the caller's band cap was exceeded: one band
      out->push_back(r);
      return Status::Ok();
    }
    return {Code::unsupported, "GPU path: " + what + ", and it cannot be split into bands: " + why};
  };
  if (r.stack_rows != 0 || r.d > 1)
    return refuse("the box has depth " + std::to_string(r.d) + " (bands split 2D boxes only)");
  if (n > 31 || p.high_mask != 0 || (p.immediate >> n) != 0 || (p.g(3, r.sample) >> n) != 0)
    return refuse("the pattern moves bytes between blocks (postamble terms or an immediate above the block)");
  const uint64_t RP = r.row_pitch, B = uint64_t{1} << n, e = p.element_bytes;
  const swz::detail::Adjusted first = swz::detail::Frame::adjust(r.pre, 0, uint64_t{r.x0} * e, r.y0, r.z0);
  const uint64_t X0 = first.x_B, X1 = X0 + uint64_t{r.w} * e;
  const uint64_t Y0 = first.y, Ylast = Y0 + r.h - 1;
  const uint64_t zbase = (first.z >> ez) * r.depth_pitch_B;
  const uint64_t xlo = (X0 >> ex) << n, xhi = (((X1 - 1) >> ex) + 1) << n;
  const uint64_t by0 = Y0 >> ey, by1 = Ylast >> ey;  // block rows of the box
  if (by0 == by1 || RP == 0) return refuse("the box lies in one block row");
  const uint64_t rows_per_block = uint64_t{1} << ey, lrp = r.lin_row_pitch;
  // Block rows per band: kb block rows span a resource window of at most
  // (kb - 1) * RP + (xhi - xlo) bytes, plus a block of slack at each end
  // when the pitches are not multiples of the block; and kb * 2^ey linear rows.
  const uint64_t slack = (RP % B == 0 && r.depth_pitch_B % B == 0) ? 0 : 2 * B;
  const uint64_t fixed = al + (xhi - xlo) + slack;
  const uint64_t kb_res = cap >= fixed ? (cap - fixed) / RP + 1 : 0;
  const uint64_t kb_lin =
      lrp ? (cap > al + e * r.w ? (cap - al - e * r.w) / (rows_per_block * lrp) : 0) : by1 - by0 + 1;
  const uint64_t kb = std::min(kb_res, kb_lin);
  if (kb == 0)
    return refuse("one block row (" + std::to_string(RP) + " resource bytes, " + std::to_string(rows_per_block) +
                  " linear rows) is more than one band can bind (" + std::to_string(cap) + " bytes)");
  for (uint64_t by = by0; by <= by1; by += kb) {
    const uint64_t lastb = std::min(by1, by + kb - 1);
    const uint64_t ya = std::max(Y0, by << ey), yb = std::min(Ylast + 1, (lastb + 1) << ey);
    GpuRegion b = r;
    b.y0 = static_cast<uint32_t>(ya - r.pre[1]);
    b.h = static_cast<uint32_t>(yb - ya);
    b.lin_offset = r.lin_offset + (ya - Y0) * lrp;
    b.lin_span = (uint64_t{b.h} - 1) * lrp + uint64_t{r.w} * e;
    const uint64_t lo = (by * RP + zbase + xlo) / B * B;
    const uint64_t hi = std::min(r.swz_span, (lastb * RP + zbase + xhi + B - 1) / B * B);
    if (hi <= lo) return {Code::internal, "GPU path: empty band window"};
    b.band_lo = lo;
    b.band_span = hi - lo;
    out->push_back(b);
  }
  return Status::Ok();
}

// The grid of `total` workgroups: rows of up to max_groups_x.
static Status copy_grid(uint64_t total, const DeviceLimits& lim, const char* what, uint32_t* gx_out, uint32_t* gy_out) {
  const uint64_t gx = std::max<uint64_t>(1, std::min<uint64_t>(total, lim.max_groups_x));
  const uint64_t gy = ceil_div(total, gx);
  if (gy > lim.max_groups_y) return {Code::unsupported, std::string(what) + ": dispatch grid too large"};
  *gx_out = static_cast<uint32_t>(gx);
  *gy_out = static_cast<uint32_t>(std::max<uint64_t>(gy, 1));
  return Status::Ok();
}

Status plan_copy(uint64_t src_offset, uint64_t dst_offset, uint64_t size, const DeviceLimits& lim,
                 unsigned wg_chunks_log2, CopyDispatch* out) {
  CopyDispatch& D = *out;
  D = CopyDispatch{};
  uint64_t g = std::gcd(std::gcd(uint64_t{16}, src_offset), std::gcd(dst_offset, size));
  const unsigned q = static_cast<unsigned>(std::countr_zero(g));
  if (q == 0 && !lim.word1)
    return {Code::unsupported, "GPU copy: needs byte loads and the device lacks storageBuffer8BitAccess"};
  if (q == 1 && !lim.word2)
    return {Code::unsupported, "GPU copy: needs 2-byte loads and the device lacks storageBuffer16BitAccess"};
  D.word_log2 = q;
  const uint64_t al = std::max<uint64_t>(lim.min_storage_align, 1);
  D.src_bind_offset = src_offset / al * al;
  D.dst_bind_offset = dst_offset / al * al;
  D.src_bind_range = src_offset - D.src_bind_offset + size;
  D.dst_bind_range = dst_offset - D.dst_bind_offset + size;
  const uint64_t maxr = std::min<uint64_t>(lim.max_storage_range, k4G - 1);
  if (D.src_bind_range > maxr || D.dst_bind_range > maxr)
    return {Code::unsupported, "GPU copy: " + std::to_string(size) + " bytes exceed one storage-buffer binding (" +
                                   std::to_string(maxr) + ")"};
  unsigned u = wg_chunks_log2 ? wg_chunks_log2 : std::min(12u, kDefaultWgBytesLog2 - q);
  u = std::clamp(u, 5u, 20u);
  const uint64_t words = size >> q;
  const uint64_t total = ceil_div(words, uint64_t{1} << u);
  SWZ_TRY(copy_grid(total, lim, "GPU copy", &D.groups_x, &D.groups_y));
  D.push.grid_x = D.groups_x;
  D.push.total_wg = static_cast<uint32_t>(total);
  D.push.u = u;
  D.push.nwords = static_cast<uint32_t>(words);
  D.push.src_w0 = static_cast<uint32_t>((src_offset - D.src_bind_offset) >> q);
  D.push.dst_w0 = static_cast<uint32_t>((dst_offset - D.dst_bind_offset) >> q);
  return Status::Ok();
}

Status plan_copy_pair(const CopyRange& a, const CopyRange& b, const DeviceLimits& lim, unsigned wg_chunks_log2,
                      CopyPairDispatch* out) {
  CopyPairDispatch& D = *out;
  D = CopyPairDispatch{};
  const CopyRange* r[2] = {&a, &b};
  for (const CopyRange* c : r)
    if ((c->src_offset | c->dst_offset | c->size) % 16 != 0)
      return {Code::invalid_argument, "GPU paired copy: offsets and size must be multiples of 16 (" +
                                          std::to_string(c->src_offset) + ", " + std::to_string(c->dst_offset) + ", " +
                                          std::to_string(c->size) + ")"};
  if (a.size == 0 && b.size == 0) return {Code::invalid_argument, "GPU paired copy: both ranges are empty"};
  const uint64_t al = std::max<uint64_t>(lim.min_storage_align, 16);
  const uint64_t maxr = std::min<uint64_t>(lim.max_storage_range, k4G - 1);
  // 2^8 words per workgroup, one per invocation, by default: on an NVIDIA H200
  // it beats 2^10 and 2^12 for imported bands (swz_bench_gpu --host).
  const unsigned u = std::clamp(wg_chunks_log2 ? wg_chunks_log2 : 8u, 5u, 20u);
  uint64_t groups[2] = {0, 0};
  uint32_t* w0[2][2] = {{&D.push.src_a_w0, &D.push.dst_a_w0}, {&D.push.src_b_w0, &D.push.dst_b_w0}};
  for (int i = 0; i < 2; ++i) {
    // An empty range binds its partner's buffers (a descriptor must be valid) and moves nothing.
    const CopyRange& c = r[i]->size ? *r[i] : *r[1 - i];
    const uint64_t off[2] = {c.src_offset, c.dst_offset};
    for (int s = 0; s < 2; ++s) {
      D.bind_offset[2 * i + s] = off[s] / al * al;
      D.bind_range[2 * i + s] = off[s] - D.bind_offset[2 * i + s] + std::max<uint64_t>(c.size, 16);
      if (D.bind_range[2 * i + s] > maxr)
        return {Code::unsupported, "GPU paired copy: " + std::to_string(c.size) +
                                       " bytes exceed one storage-buffer binding (" + std::to_string(maxr) + ")"};
      *w0[i][s] = static_cast<uint32_t>((off[s] - D.bind_offset[2 * i + s]) >> 4);
    }
    groups[i] = ceil_div(r[i]->size >> 4, uint64_t{1} << u);
  }
  D.push.nwords_a = static_cast<uint32_t>(a.size >> 4);
  D.push.nwords_b = static_cast<uint32_t>(b.size >> 4);
  const uint64_t total = groups[0] + groups[1];
  D.push.u = u;
  D.push.pair_wg = static_cast<uint32_t>(2 * std::min(groups[0], groups[1]));
  D.push.a_more = groups[0] > groups[1] ? 1u : 0u;
  SWZ_TRY(copy_grid(total, lim, "GPU paired copy", &D.groups_x, &D.groups_y));
  D.push.grid_x = D.groups_x;
  D.push.total_wg = static_cast<uint32_t>(total);
  return Status::Ok();
}

}  // namespace swz::gpu::detail
