// swz internal — swizzle in stretches: aligned 64-byte lines on a resource at
// any 16-byte phase. Included by walker-inl.h (no include guard, same reason).
//
// A stretch is the 2^k contiguous bytes of the swizzled side that hold a
// rectangle of 2^hy linear rows x 2^xw bytes: address bits below k are made
// only by the X byte bits below xw and the Y bits below hy, and those bits
// make nothing at or above k (a pure prefix of the pattern, up to XOR terms
// of higher coordinates, which only move bits below k by a per-stretch
// constant K). The interior of the box is walked strip by strip (2^hy rows),
// stretch by stretch along x, and each stretch is written in address order as
// aligned 64-byte lines, each gathered from four 16-byte pieces of the
// strip's linear rows (in L1): a resource at 16/32/48 mod 64 (malloc, numpy)
// does not make every line store straddle two cache lines, and the lines
// can be streamed. The piece of a line that falls before the stretch's first
// aligned line or after its last (the resource's phase) is written as 16-byte
// pieces; where the next stretch of the walk follows in memory, the
// straddling line takes its tail from it. The box edges outside whole
// stretches go through the strip walker. Compared with TileSwizzle (whole
// blocks, one 4 KiB page per linear row of the block), a strip reads at most
// 2^hy linear rows at a time.
//
// The schedule (PieceSchedule) and the walk that writes the lines
// (SwizzleUnits) serve TileSwizzle's whole blocks as well.

constexpr unsigned kMaxStretchPieces = 1024;  // stretches up to 16 KiB
// L1 data cache geometry the stretch line order assumes: 64 sets of 64 bytes
// per way (every recent x86 and Arm core), 8 ways (the fewest among them).
constexpr uint64_t kL1WayBytes = 4096;
constexpr uint64_t kL1Ways = 8;

struct StretchShape {
  unsigned k = 0, xw = 0, hy = 0;
};

// The largest stretch of at most 2^max_k bytes and 2^max_hy rows (k >= 8, so
// that at most one line in four is split at a stretch edge); false when there
// is none.
inline bool FindStretch(const Plan& p, unsigned min_xw, unsigned max_hy, unsigned max_k, StretchShape* out) {
  StretchShape best;
  const unsigned ey = p.ext_log2[1], ex = p.ext_log2[0];
  for (unsigned hy = 0; hy <= std::min({max_hy, ey, 6u}); ++hy)
    for (unsigned xw = min_xw; xw <= ex; ++xw) {
      const unsigned k = xw + hy;
      if (k > std::min(max_k, 14u) || k > p.block_bits || k <= best.k) continue;
      const uint64_t lim = uint64_t{1} << k;
      bool ok = true;
      for (unsigned b = 0; b < xw && ok; ++b) ok = p.lin[0][b] < lim;
      for (unsigned b = 0; b < hy && ok; ++b) ok = p.lin[1][b] < lim;
      if (ok) best = {k, xw, hy};
    }
  if (best.k < 8) return false;
  *out = best;
  return true;
}

// Shared by StretchSwizzle and TileSwizzle (walker-inl.h), which write
// aligned units of the swizzled side (a stretch, or a whole block) at the
// resource's phase; they differ only in the unit's shape.
//
// The schedule of a 2^bits-byte unit: off[i] = linear offset, from the unit's
// first linear byte, of the 16-byte piece at in-unit address 16 i when K = 0
// (the coordinate bits that address bits 4..bits-1 come from, Plan::inverse).
inline void PieceSchedule(const Plan& p, unsigned bits, uint64_t row_pitch, uint64_t depth_pitch, uint64_t* off) {
  // The coordinates of piece i are the XOR of Plan::inverse over i's set
  // bits: of a low half (nl bits) and a high half, each tabled once (every
  // entry one XOR from the entry without its lowest set bit), so each piece
  // costs two table reads and the pitch products, not a pass over the bits
  // (the schedule is made per call, which counts on 512² copies).
  const unsigned n = bits - 4, nl = n / 2, nh = n - nl;
  uint32_t lo[64][3], hi[64][3];
  auto half = [&](uint32_t(*t)[3], unsigned first, unsigned nb) {
    t[0][0] = t[0][1] = t[0][2] = 0;
    for (unsigned j = 1; j < (1u << nb); ++j) {
      const unsigned b = static_cast<unsigned>(__builtin_ctz(j));
      for (unsigned ch = 0; ch < 3; ++ch) t[j][ch] = t[j & (j - 1)][ch] ^ p.inverse[first + b][ch];
    }
  };
  half(lo, 4, nl);
  half(hi, 4 + nl, nh);
  for (unsigned jh = 0; jh < (1u << nh); ++jh) {
    const uint32_t h0 = hi[jh][0], h1 = hi[jh][1], h2 = hi[jh][2];
    uint64_t* const o = off + (uint64_t{jh} << nl);
    for (unsigned jl = 0; jl < (1u << nl); ++jl)
      o[jl] = uint64_t{lo[jl][2] ^ h2} * depth_pitch + uint64_t{lo[jl][1] ^ h1} * row_pitch + (lo[jl][0] ^ h0);
  }
}

// The units of the interior [ix0, ix1) x [iy0, iy1) x [iz0, iz1) (box-relative
// elements): each S bytes of the swizzled side, wx elements (wbytes bytes) x
// hy rows x dz slices of the linear side.
struct UnitWalk {
  uint64_t S, wx, wbytes, hy, dz;
  uint64_t ix0, ix1, iy0, iy1, iz0, iz1;
  uint32_t ph;  // the resource's phase: 0, 16, 32 or 48
  unsigned pf;  // prefetch the linear rows of the unit this many ahead (0: none)
  // Line order (K = 0, regular stores): the bits of the unit's line index
  // (address bits 6 and up) that linear X4, X5 make, taken innermost, so that
  // the lines that share the linear rows' 64-byte lines follow each other
  // (0: address order).
  uint32_t qm;
};

// Writes every unit of the walk, unit by unit along x, in address order as
// aligned 64-byte lines (streamed when the copy streams), each gathered from
// four 16-byte pieces of the linear rows: the piece at in-unit address o
// comes from off[(o ^ K) >> 4]. The piece of a line before the unit's first
// aligned line or after its last is written as 16-byte pieces, except that
// where the next unit of the walk follows in memory, the straddling line
// takes its tail from it.
template <class Mv>
HWY_SWZ_INLINE void SwizzleUnits(const Region& r, const Geo& g, const uint64_t* off, const UnitWalk& u) {
  const uint64_t eb = g.p->element_bytes;
  const uint64_t S = u.S, wx = u.wx, wbytes = u.wbytes, P = r.lin_row_pitch;
  const uint32_t ph = u.ph;
  const unsigned pf = u.pf;
  uint8_t* const swz = r.swz;
  const bool st = r.streaming;
  const uint64_t first = (64 - ph) & 63;  // the unit's first aligned line
  const uint64_t os = S - ph;             // the line that straddles into the next unit (ph > 0)
  const uint64_t nl = (S - first) >> 6;   // the unit's whole lines
  // the unit's whole lines in the order of UnitWalk::qm: line q's store at
  // tb + first + 64 q (qo), its pieces at lt + qf[4 i + k] (qo, qf per call)
  const uint32_t qm = S <= kMaxStretchPieces * 16 ? u.qm : 0;  // (TileSwizzle: 0)
  uint32_t qo[kMaxStretchPieces / 4];
  uint64_t qf[kMaxStretchPieces];
  if (qm) {
    unsigned i = 0;
    for (uint64_t b = 0; b < nl; b = ((b | qm) + 1) & ~uint64_t{qm})
      for (uint64_t in = 0;; in = ((in | ~uint64_t{qm}) + 1) & qm) {  // the subsets of qm, in order
        const uint64_t q = b | in;
        if (q < nl) {
          qo[i] = static_cast<uint32_t>(first + 64 * q);
          for (unsigned k = 0; k < 4; ++k) qf[4 * i + k] = off[(first >> 4) + 4 * q + k];
          ++i;
        }
        if (in == qm) break;
      }
  }
  for (uint64_t zb = u.iz0; zb < u.iz1; zb += u.dz)
    for (uint64_t yb = u.iy0; yb < u.iy1; yb += u.hy) {
      uint64_t Y, Z;
      adjust_yz(r, r.y0 + yb, r.z0 + zb, &Y, &Z);
      const RowPart rp = row_part(r, g, Y, Z);
      const uint8_t* const lrow = r.lin + zb * r.lin_depth_pitch + yb * P;
      uint64_t o0 = addr_rt(g.mode, rp, col_part(g, (r.x0 + u.ix0) * eb + r.pre[0]));
      bool prev_joined = false;
      for (uint64_t xb = u.ix0; xb < u.ix1; xb += wx) {
        const uint64_t X = (r.x0 + xb) * eb + r.pre[0];
        const bool has_next = xb + wx < u.ix1;
        const uint64_t next = has_next ? addr_rt(g.mode, rp, col_part(g, X + wbytes)) : 0;
        uint8_t* const tb = swz + (o0 & ~(S - 1));
        const uint64_t K = o0 & (S - 1);
        const bool joined = ph != 0 && has_next && (next & ~(S - 1)) == (o0 & ~(S - 1)) + S;
        const uint64_t Kn = next & (S - 1);
        const uint8_t* const lt = lrow + xb * eb;
        if (pf && xb + pf * wx < u.ix1) {
          // the linear rows of the unit pf ahead, one prefetch per 64 bytes
          const uint8_t* lp = lt + pf * wbytes;
          for (uint64_t y = 0; y < u.hy; ++y)
            for (uint64_t o = 0; o < wbytes; o += 64) __builtin_prefetch(lp + y * P + o, 0, 3);
        }
        auto piece = [&](uint64_t o) { return lt + off[(o ^ K) >> 4]; };
        if (!prev_joined)
          for (uint64_t o = 0; o < first; o += 16) Mv::template Run<16>(tb + o, piece(o), false);
        if (K == 0) {
          // (no XOR terms: the pieces of a line are consecutive table entries)
          const uint64_t* f = off + (first >> 4);
          if (st && qm) {
            const uint64_t* g4 = qf;
            for (uint64_t i = 0; i < nl; ++i, g4 += 4)
              Mv::Line4(tb + qo[i], lt + g4[0], lt + g4[1], lt + g4[2], lt + g4[3], true);
          } else if (st) {
            for (uint64_t o = first; o + 64 <= S; o += 64, f += 4)
              Mv::Line4(tb + o, lt + f[0], lt + f[1], lt + f[2], lt + f[3], true);
          } else if (qm) {
            const uint64_t* g4 = qf;
            for (uint64_t i = 0; i < nl; ++i, g4 += 4)
              Mv::Line4(tb + qo[i], lt + g4[0], lt + g4[1], lt + g4[2], lt + g4[3], false);
          } else {
            for (uint64_t o = first; o + 64 <= S; o += 64, f += 4)
              Mv::Line4(tb + o, lt + f[0], lt + f[1], lt + f[2], lt + f[3], false);
          }
        } else if (st) {
          for (uint64_t o = first; o + 64 <= S; o += 64)
            Mv::Line4(tb + o, piece(o), piece(o + 16), piece(o + 32), piece(o + 48), true);
        } else {
          for (uint64_t o = first; o + 64 <= S; o += 64)
            Mv::Line4(tb + o, piece(o), piece(o + 16), piece(o + 32), piece(o + 48), false);
        }
        if (joined) {
          const uint8_t* const ltn = lt + wbytes;
          const uint8_t* pk[4];
          for (unsigned k = 0; k < 4; ++k) {
            const uint64_t o = os + 16 * k;
            pk[k] = o < S ? piece(o) : ltn + off[((o - S) ^ Kn) >> 4];
          }
          Mv::Line4(tb + os, pk[0], pk[1], pk[2], pk[3], st);
        } else if (ph != 0) {
          for (uint64_t o = os; o < S; o += 16) Mv::template Run<16>(tb + o, piece(o), false);
        }
        prev_joined = joined;
        o0 = next;
      }
    }
}

template <class Mv>
bool StretchSwizzle(const Region& r, const Tuning& t) {
  if (!Mv::kHasLine || !t.line_kernels || !t.stretch_swizzle) return false;
  const uint32_t ph = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(r.swz) & 63);
  if (ph % 16 != 0) return false;
  const Geo g = make_geo(r);
  // On an aligned resource the strip walker writes whole lines too; it is
  // the faster there for the standard swizzles' shape (q4: four rows' runs
  // per line, transposed in registers), the stretches for the general line
  // shape (NVIDIA GOBs: two rows x two runs per line), where the strip walker
  // spends a per-run branch and address (the stretches take less than half
  // its instructions per byte; bench/cell_ir.sh counts them).
  // Streaming copies (from DRAM) keep the strip walker there: the stretches
  // are slower at 4096² page-aligned (NVIDIA R8, BC7, RGBA32F).
  // Write-combined destinations take the stretches always: whole lines in
  // address order, which a write-combined mapping (DEVICE_LOCAL |
  // HOST_VISIBLE) takes at close to memcpy's rate (swz_bench_gpu --wc).
  if (ph == 0 && !t.stretch_aligned && !r.write_combined && !(g.gl && !g.q4 && !r.streaming)) return false;
  const Plan& p = *g.p;
  const uint64_t eb = p.element_bytes;
  if (g.rl < 4 || p.high_mask != 0 || r.stack_rows || p.ext_log2[3] != 0 || r.pre[0] % eb != 0) return false;
  StretchShape s;
  // In cache, stretches of at most 4 KiB (stretch_cache_max_log2): 16 KiB
  // stretches are slower on 512² user buffers (std64k and NVIDIA
  // R32G32B32A32, std64k BC7).
  if (!FindStretch(p, g.rl, t.stretch_rows_log2, r.streaming ? 14u : t.stretch_cache_max_log2, &s)) return false;
  const uint64_t S = uint64_t{1} << s.k;
  const uint64_t wx = (uint64_t{1} << s.xw) / eb;  // stretch width, elements
  const uint64_t Hy = uint64_t{1} << s.hy;
  uint64_t ix0, ix1, iy0, iy1, iz0, iz1;
  if (!BoxInterior(r, eb, wx, Hy, 1, &ix0, &ix1, &iy0, &iy1, &iz0, &iz1)) return false;
  if ((ix1 - ix0) / wx * ((iy1 - iy0) / Hy) * (iz1 - iz0) < 2) return false;
  // The lines that take their pieces from the same linear 64-byte lines (the
  // address bits of linear X4, X5) one after the other, where in address
  // order the rows read between any two pieces of one linear line (the Y bits
  // below the lower of X4, X5) would overflow the L1 sets they share: Intel Y
  // (16-byte columns of 32 rows) at row pitches of 2 KiB and up reads every
  // linear line four times; the reordered walk reads it once (Intel Y at 512²
  // and 4096², std64k R8 at 4096²). Where the rows do not collide (R8 or
  // NVIDIA GOBs in cache), or only between X4 and X5 (std64k RGBA8 at 4096²),
  // the reordered walk is slower, so it is not used.
  uint32_t qm = 0;
  if (t.stretch_line_order) {
    uint32_t low = ~0u;
    for (unsigned b = 4; b < 6; ++b) {
      const uint32_t m = p.lin[0][b];
      if (m == 0 || (m & (m - 1)) != 0) {  // an XOR term
        low = 0;
        break;
      }
      if (m >= S) continue;  // in another stretch
      if (m >= 64) qm |= m >> 6;
      low = std::min(low, m);
    }
    // rows read in between; rows that share a set: those a multiple of the
    // L1 way (4 KiB) apart (the distinct offsets in a way that rows cycle
    // through: 4 KiB over the lowest set bit of the pitch mod 4 KiB)
    unsigned ybits = 0;
    for (unsigned b = 0; b < s.hy; ++b)
      if (p.lin[1][b] < low) ++ybits;
    const uint64_t pw = r.lin_row_pitch % kL1WayBytes;
    const uint64_t groups = pw == 0 ? 1 : kL1WayBytes / (pw & (~pw + 1));
    if (low == 0 || ((uint64_t{1} << ybits) + groups - 1) / groups <= kL1Ways) qm = 0;
  }
  uint64_t off[kMaxStretchPieces];
  PieceSchedule(p, s.k, r.lin_row_pitch, 0, off);
  WalkOutsideInterior<Mv>(r, Direction::ToSwizzled, t, eb, ix0, ix1, iy0, iy1, iz0, iz1);
  SwizzleUnits<Mv>(
      r, g, off,
      UnitWalk{S, wx, uint64_t{1} << s.xw, Hy, 1, ix0, ix1, iy0, iy1, iz0, iz1, ph,
               r.streaming ? t.stretch_prefetch_stream : t.stretch_prefetch, qm});
  return true;
}
