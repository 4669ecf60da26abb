// swz internal — the block-order kernels of the SIMD backends: TileDeswizzle
// (interior blocks read in memory order into whole linear lines) and
// TileSwizzle (whole blocks written as aligned lines at the resource's
// phase, with StretchSwizzle first). The box edges go through the strip
// walker (walker-inl.h).
//
// NO include guard, as walker-inl.h, which includes it at its end: it is
// compiled once per including namespace (Highway target, xsimd).

// ---- Deswizzle in block order ------------------------------------------------
//
// Reading the swizzled side in the strip order above touches each block's
// lines out of address order, and for narrow blocks (NVIDIA block linear: 64
// bytes wide, one block per 64 bytes of a linear row) a linear row visits a
// new block every few lines. From DRAM that caps reads far under memcpy.
// So the blocks that lie wholly inside the box are walked
// one after the other in memory order, the next block prefetched, and each
// block is emptied into whole 64-byte linear lines:
// * q4 shape (16-byte runs, Y0 Y1 on address bits 4 5: the standard
//   swizzles): four lines (four runs of four rows) at a time in the address
//   order of the block's lines, transposed in registers (Group4);
// * any other pattern with runs of >= 16 bytes and blocks >= 64 bytes wide
//   (NVIDIA GOBs, AMD, Intel Y/4/X, ...): per linear 64-byte line of the
//   block, its four 16-byte pieces gathered from the block (in L1/L2) and
//   written with one store (Line4), rows of the block in order.
// The box edges around that interior go through the strip walker. The
// schedule (which bytes of a block each linear line takes) is the same for
// every block up to the per-block constant K = the block origin's in-block
// offset (high-coordinate XOR terms, immediate), XORed into each offset.

struct TileQuad {
  uint32_t s[4];  // in-block offsets of the four lines (before ^ K)
  uint64_t lin;   // linear offset of the group's first row from the block origin
};
struct TileLine {
  uint32_t s[4];  // in-block offsets of the four 16-byte pieces (before ^ K of their block)
  uint32_t next;  // bit k: piece k lies in the next block of the row (offset relative to it)
  uint64_t lin;   // linear offset of the line from the block origin's linear byte
};
constexpr unsigned kMaxTileQuads = 256;   // blocks up to 64 KiB
constexpr unsigned kMaxTileLines = 1024;  // blocks up to 64 KiB

// A block whose row continues in the next block right after it in memory,
// both with the same constant K (no XOR term of a higher coordinate tells
// them apart: NVIDIA block linear, Intel Y/4, std64k, ...): every piece of
// every linear line lies at tb + (f.s[k] ^ K), with f.s[k] = s[k] + B for
// the pieces in the next block (s < B, so (s + B) ^ K = (s ^ K) + B). The
// line loop then has no per-piece branch and no per-line address rule: four
// offset loads, four 16-byte loads, one 64-byte line store.
template <class Mv, bool kXor, bool kStream>
HWY_SWZ_INLINE void TileFlatLines(const TileLine* HWY_SWZ_RESTRICT f, unsigned n, const uint8_t* tb, uint32_t K,
                                  uint8_t* lt) {
  for (unsigned i = 0; i < n; ++i, ++f) {
    if constexpr (kXor)
      Mv::Line4(lt + f->lin, tb + (f->s[0] ^ K), tb + (f->s[1] ^ K), tb + (f->s[2] ^ K), tb + (f->s[3] ^ K), kStream);
    else
      Mv::Line4(lt + f->lin, tb + f->s[0], tb + f->s[1], tb + f->s[2], tb + f->s[3], kStream);
  }
}

// The separable form of a block's lines (TileDeswizzle, Add mode, K = 0):
// line column m (linear x = x0 + 64 m) of block row i takes its four pieces
// at tb + gyz[i] + cx[m][k]; block row i starts at lin[i] (or i x step when
// step != 0: 2D blocks) from the block origin's linear byte. Columns outer:
// the four column bases stay in registers.
template <class Mv, bool kStream>
HWY_SWZ_INLINE void TileSepLines(const uint32_t (*HWY_SWZ_RESTRICT cx)[4], unsigned ncols, uint32_t x0,
                                 const uint32_t* HWY_SWZ_RESTRICT gyz, const uint64_t* HWY_SWZ_RESTRICT lin,
                                 unsigned nrows, uint64_t step, const uint8_t* tb, uint8_t* lt) {
  for (unsigned m = 0; m < ncols; ++m) {
    const uint8_t* const b0 = tb + cx[m][0];
    const uint8_t* const b1 = tb + cx[m][1];
    const uint8_t* const b2 = tb + cx[m][2];
    const uint8_t* const b3 = tb + cx[m][3];
    uint8_t* const lm = lt + x0 + 64 * uint64_t{m};
    if (step) {
      uint8_t* l = lm;
      for (unsigned i = 0; i < nrows; ++i, l += step) {
        const uint32_t o = gyz[i];
        Mv::Line4(l, b0 + o, b1 + o, b2 + o, b3 + o, kStream);
      }
    } else {
      for (unsigned i = 0; i < nrows; ++i) {
        const uint32_t o = gyz[i];
        Mv::Line4(lm + lin[i], b0 + o, b1 + o, b2 + o, b3 + o, kStream);
      }
    }
  }
}

// The separable form's 16-byte pieces at linear x in xs[0..n) (n <= 3) of
// every block row (a row's head or tail, see TileDeswizzle), rows outer: a
// row's pieces share one linear cache line.
template <class Mv>
HWY_SWZ_INLINE void TileSepPieces(const uint32_t* xs, unsigned n, const uint32_t* HWY_SWZ_RESTRICT gyz,
                                  const uint64_t* HWY_SWZ_RESTRICT lin, unsigned nrows, const uint8_t* tb, uint8_t* lt,
                                  const Plan& p) {
  const uint8_t* b[4];
  uint8_t* l[4];
  for (unsigned k = 0; k < n; ++k) {
    b[k] = tb + p.g(0, xs[k]);
    l[k] = lt + xs[k];
  }
  for (unsigned i = 0; i < nrows; ++i) {
    const uint64_t li = lin[i];
    const uint32_t o = gyz[i];
    for (unsigned k = 0; k < n; ++k) Mv::template Run<16>(l[k] + li, b[k] + o, false);
  }
}

// The quads of a block (q4 shape, aligned linear rows), in address order.
template <class Mv, bool kStream>
HWY_SWZ_INLINE void TileQuads(const TileQuad* HWY_SWZ_RESTRICT q, unsigned n, const uint8_t* tb, uint32_t K,
                              uint8_t* lt, uint64_t P) {
  for (unsigned i = 0; i < n; ++i) {
    const TileQuad& e = q[i];
    uint8_t* l = lt + e.lin;
    Walker<Mv>::Group4(l, l + P, l + 2 * P, l + 3 * P, tb + (e.s[0] ^ K), tb + (e.s[1] ^ K), tb + (e.s[2] ^ K),
                       tb + (e.s[3] ^ K), kStream);
  }
}

// The lines of a block that lie wholly inside it (indices into the flat
// table), for the last block of a row: no branch per line.
template <class Mv, bool kStream>
HWY_SWZ_INLINE void TileFinLines(const TileLine* HWY_SWZ_RESTRICT f, const uint16_t* idx, unsigned n, const uint8_t* tb,
                                 uint32_t K, uint8_t* lt) {
  for (unsigned i = 0; i < n; ++i) {
    const TileLine& e = f[idx[i]];
    Mv::Line4(lt + e.lin, tb + (e.s[0] ^ K), tb + (e.s[1] ^ K), tb + (e.s[2] ^ K), tb + (e.s[3] ^ K), kStream);
  }
}

// One 16-byte piece of a line that straddles two blocks, copied on its own
// at a row's first block (the pieces in it of the line that begins in the
// block before the box) or last block (the pieces in it of its last line).
struct TilePiece {
  uint32_t s;    // in-block offset (before ^ K)
  uint32_t lin;  // linear offset from the block origin's linear byte
};
constexpr unsigned kMaxTilePieces = 1024;

// Prefetch a block (B a multiple of 64) into L2, four lines per step.
inline void TilePrefetch(const uint8_t* nb, uint64_t B) {
  uint64_t o = 0;
  for (; o + 256 <= B; o += 256) {
    __builtin_prefetch(nb + o, 0, 2);
    __builtin_prefetch(nb + o + 64, 0, 2);
    __builtin_prefetch(nb + o + 128, 0, 2);
    __builtin_prefetch(nb + o + 192, 0, 2);
  }
  for (; o < B; o += 64) __builtin_prefetch(nb + o, 0, 2);
}

// The whole blocks inside box r, as box-relative element ranges [ix0, ix1) x
// [iy0, iy1) x [iz0, iz1) (blocks of wb x hb x db elements, counted after the
// pre-swizzle offsets); false when the box holds no whole block.
inline bool BoxInterior(const Region& r, uint64_t eb, uint64_t wb, uint64_t hb, uint64_t db, uint64_t* ix0,
                        uint64_t* ix1, uint64_t* iy0, uint64_t* iy1, uint64_t* iz0, uint64_t* iz1) {
  auto interior = [](uint64_t a0, uint64_t n, uint64_t pre, uint64_t blk, uint64_t* i0, uint64_t* i1) {
    const uint64_t s = a0 + pre, e = s + n;
    const uint64_t bs = (s + blk - 1) / blk * blk, be = e / blk * blk;
    if (bs >= be) return false;
    *i0 = bs - s;
    *i1 = be - s;
    return true;
  };
  return interior(r.x0, r.w, r.pre[0] / eb, wb, ix0, ix1) && interior(r.y0, r.h, r.pre[1], hb, iy0, iy1) &&
         interior(r.z0, r.d, r.pre[2], db, iz0, iz1);
}

// The parts of box r outside its interior [ix0, ix1) x [iy0, iy1) x [iz0, iz1)
// (elements, relative to the box), through the strip walker: the front and
// back slabs, the top and bottom bands, the left and right columns. The block
// kernels below handle the interior.
template <class Mv>
void WalkOutsideInterior(const Region& r, Direction dir, const Tuning& t, uint64_t eb, uint64_t ix0, uint64_t ix1,
                         uint64_t iy0, uint64_t iy1, uint64_t iz0, uint64_t iz1) {
  auto sub = [&](uint64_t x0, uint64_t x1, uint64_t y0, uint64_t y1, uint64_t z0, uint64_t z1) {
    if (x0 >= x1 || y0 >= y1 || z0 >= z1) return;
    Region s = r;
    s.x0 = r.x0 + static_cast<uint32_t>(x0);
    s.y0 = r.y0 + static_cast<uint32_t>(y0);
    s.z0 = r.z0 + static_cast<uint32_t>(z0);
    s.w = static_cast<uint32_t>(x1 - x0);
    s.h = static_cast<uint32_t>(y1 - y0);
    s.d = static_cast<uint32_t>(z1 - z0);
    s.lin = r.lin + z0 * r.lin_depth_pitch + y0 * r.lin_row_pitch + x0 * eb;
    Walker<Mv> w(s, dir, t);
    w.Run();
  };
  sub(0, r.w, 0, r.h, 0, iz0);
  sub(0, r.w, 0, r.h, iz1, r.d);
  sub(0, r.w, 0, iy0, iz0, iz1);
  sub(0, r.w, iy1, r.h, iz0, iz1);
  sub(0, ix0, iy0, iy1, iz0, iz1);
  sub(ix1, r.w, iy0, iy1, iz0, iz1);
}

// Function length (over 150 lines, allow-listed in tests/architecture/check_rules.py):
// inner loop of a kernel. Its three schedules (quad, line, separable) are
// arrays on this frame (about 120 KiB in all), and the block loop at the end
// reaches them through the block() and pieces() lambdas, which the compiler
// inlines into that loop. Splitting the function would pass the schedules
// through a struct in the hot loop; that is a kernel change to be measured
// on the bench matrix, not a refactor.
template <class Mv>
bool TileDeswizzle(const Region& r, const Tuning& t) {
  if (!Mv::kHasLine || !t.line_kernels || !t.tile_walk) return false;
  const Geo g = make_geo(r);
  const Plan& p = *g.p;
  const uint64_t eb = p.element_bytes;
  if (g.rl < 4 || p.high_mask != 0 || r.stack_rows || p.ext_log2[3] != 0 || g.ex < 6 || p.block_bits > 16 ||
      r.pre[0] % eb != 0)
    return false;
  // The standard swizzles' shape (q4) walks this way only from memory; in
  // cache the strip walker is faster (swz_bench_matrix, tile_walk_q4_cache).
  if (g.q4 && !r.streaming && !t.tile_walk_q4_cache) return false;
  const uint64_t wb = (uint64_t{1} << g.ex) / eb;  // block extent in elements
  const uint64_t hb = uint64_t{1} << p.ext_log2[1];
  const uint64_t db = uint64_t{1} << p.ext_log2[2];
  // interior, box-relative element coordinates
  uint64_t ix0, ix1, iy0, iy1, iz0, iz1;
  if (!BoxInterior(r, eb, wb, hb, db, &ix0, &ix1, &iy0, &iy1, &iz0, &iz1)) return false;
  // Too few whole blocks to repay the schedule: leave it to the strip walker.
  const uint64_t nblocks = (ix1 - ix0) / wb * ((iy1 - iy0) / hb) * ((iz1 - iz0) / db);
  if (nblocks * g.B < t.tile_walk_min_bytes || nblocks < 2) return false;
  const uint64_t P = r.lin_row_pitch;
  // In cache, a block whose linear rows span many 4 KiB pages costs a TLB
  // miss per line (NVIDIA RGBA32F 512²: a block's 128 rows lie 8 KiB apart);
  // the strip walker, which
  // touches a few rows at a time, is faster there. From memory (streaming)
  // reading whole blocks in order wins regardless.
  const uint64_t span = (hb - 1) * P + (db - 1) * r.lin_depth_pitch + (uint64_t{1} << g.ex);
  const bool too_wide = !r.streaming && span >= t.tile_walk_max_span_bytes;  // (see band below)
  // Linear phase of the interior blocks' rows: the same for every block row
  // and every block when the pitches are multiples of 64 (block widths are).
  // Then the stores are aligned 64-byte lines: with phase ph the block's
  // lines start at x = 64 - ph + 64 m, the last one taking its tail from the
  // next block of the row; the first block of a row copies its head, the last
  // its tail, in 16-byte pieces (the pieces of the straddling lines that lie
  // in the block). Otherwise lines follow the block (unaligned stores).
  const bool pitches64 = (r.h <= 1 || P % 64 == 0) && (r.d <= 1 || r.lin_depth_pitch % 64 == 0);
  const uint64_t ph0 = reinterpret_cast<uintptr_t>(r.lin + ix0 * eb + iy0 * P + iz0 * r.lin_depth_pitch) & 63;
  const uint32_t ph = pitches64 && ph0 % 16 == 0 ? static_cast<uint32_t>(ph0) : 0;
  const bool aligned = pitches64 && ph0 == 0;
  if (g.mode != Mode::Add && ph0 != 0 && !t.tile_walk_xor_misaligned) return false;  // (see Tuning)
  const bool quad = g.q4 && aligned;
  // the schedule
  TileQuad q[kMaxTileQuads];
  TileLine ln[kMaxTileLines];
  unsigned nq = 0;
  if (quad) {
    // the lines of a block in address order, the first of each quad
    for (uint64_t L = 0; L < g.B; L += 64) {
      uint32_t c[3] = {0, 0, 0};
      for (unsigned i = 6; i < p.block_bits; ++i)
        if (L & (uint64_t{1} << i))
          for (unsigned k = 0; k < 3; ++k) c[k] ^= p.inverse[i][k];
      if ((c[0] >> 4) & 3) continue;  // not the first run of a group of four
      if (nq == kMaxTileQuads) return false;
      TileQuad& e = q[nq++];
      const uint32_t gyz = p.g(1, c[1]) ^ p.g(2, c[2]);
      for (unsigned k = 0; k < 4; ++k) e.s[k] = gyz ^ p.g(0, c[0] + 16 * k);
      e.lin = c[2] * r.lin_depth_pitch + c[1] * P + c[0];
    }
  } else if (g.B / 64 > kMaxTileLines) {
    return false;
  }
  // The line schedule of the general form (any mode, any K): built on first
  // use only; blocks that the separable form below serves never need it.
  TileLine fl[kMaxTileLines];
  uint16_t fin[kMaxTileLines], strad[kMaxTileLines];
  TilePiece head[kMaxTilePieces], tail[kMaxTilePieces];
  unsigned nfin = 0, nstrad = 0, nhead = 0, ntail = 0;
  bool lists = false, built = quad;
  auto build_lines = [&] {
    built = true;
    // the linear lines of a block, rows in order
    const uint32_t wb32 = 1u << g.ex;
    const uint32_t x_first = ph ? 64 - ph : 0;
    for (uint32_t cz = 0; cz < db; ++cz)
      for (uint32_t cy = 0; cy < hb; ++cy) {
        const uint32_t gyz = p.g(1, cy) ^ p.g(2, cz);
        const uint64_t lrow = cz * r.lin_depth_pitch + cy * P;
        for (uint32_t xs = x_first; xs < wb32; xs += 64) {
          TileLine& e = ln[nq++];
          e.next = 0;
          for (unsigned k = 0; k < 4; ++k) {
            uint32_t x = xs + 16 * k;
            if (x >= wb32) {
              x -= wb32;
              e.next |= 1u << k;
            }
            e.s[k] = gyz ^ p.g(0, x);
          }
          e.lin = lrow + xs;
        }
      }
    // the same lines with the next block's pieces moved by B (TileFlatLines)
    for (unsigned i = 0; i < nq; ++i) {
      fl[i] = ln[i];
      for (unsigned k = 0; k < 4; ++k)
        if ((ln[i].next >> k) & 1) fl[i].s[k] += static_cast<uint32_t>(g.B);
    }
    // the lines wholly inside a block, and the pieces of the straddling lines
    // (head: those in the next block, tail: the others), as flat lists when
    // they fit
    lists = true;
    for (unsigned i = 0; i < nq && lists; ++i) {
      const TileLine& e = ln[i];
      if (e.next == 0) {
        fin[nfin++] = static_cast<uint16_t>(i);
        continue;
      }
      strad[nstrad++] = static_cast<uint16_t>(i);
      for (unsigned k = 0; k < 4 && lists; ++k) {
        const bool nx = (e.next >> k) & 1;
        const uint64_t l = e.lin + 16 * k - (nx ? (uint64_t{1} << g.ex) : 0);
        unsigned& n = nx ? nhead : ntail;
        if (n == kMaxTilePieces || l > UINT32_MAX) {
          lists = false;
          break;
        }
        (nx ? head : tail)[n++] = {e.s[k], static_cast<uint32_t>(l)};
      }
    }
  };
  // Separable form (Add mode: the G bits of X and of Y/Z are disjoint, so
  // XOR is addition): with K = 0, piece k of line column m (linear x =
  // x_first + 64 m) in block row i lies at tb + gyz[i] + cx[m][k], cx
  // including + B for the pieces in the next block of the row when that
  // block follows in memory. Per line: one row offset, four loads, one line
  // store, the four column bases in registers; the schedule is one entry per
  // block row and per line column, not per line (NVIDIA R8 512² on a 16 mod
  // 64 buffer: the per-line tables cost as much as the copy).
  const bool sep = !quad && g.mode == Mode::Add;
  const unsigned nrows = static_cast<unsigned>(hb * db);
  uint32_t sep_gyz[kMaxTileLines], sep_cx[kMaxTileLines][4], sep_hx[4], sep_tx[4];
  uint64_t sep_lin[kMaxTileLines];
  unsigned sep_cols = 0, sep_fin = 0, sep_nh = 0, sep_nt = 0;
  const uint32_t sep_x0 = ph ? 64 - ph : 0;
  if (sep) {
    const uint32_t wb32 = 1u << g.ex;
    for (uint32_t cz = 0, i = 0; cz < db; ++cz)
      for (uint32_t cy = 0; cy < hb; ++cy, ++i) {
        sep_gyz[i] = p.g(1, cy) ^ p.g(2, cz);
        sep_lin[i] = cz * r.lin_depth_pitch + cy * P;
      }
    for (uint32_t xs = sep_x0; xs < wb32; xs += 64, ++sep_cols) {
      if (xs + 64 <= wb32) ++sep_fin;
      for (unsigned k = 0; k < 4; ++k) {
        const uint32_t x = xs + 16 * k;
        sep_cx[sep_cols][k] = x >= wb32 ? p.g(0, x - wb32) + static_cast<uint32_t>(g.B) : p.g(0, x);
      }
    }
    // a row's first block: the pieces x < x_first (of the line that starts
    // in the block before); its last: the pieces x >= width - ph
    for (uint32_t x = 0; x < sep_x0; x += 16) sep_hx[sep_nh++] = x;
    for (uint32_t x = ph ? wb32 - ph : wb32; x < wb32; x += 16) sep_tx[sep_nt++] = x;
  }
  // Block rows walked at a time: all of them, or, where a block's rows span
  // too many 4 KiB pages for the TLB (above), bands of the most rows (at
  // least 8, at most 2^tile_band_rows_log2) that stay within that span (2D
  // blocks, separable form only; blocks that need the general form are
  // copied whole with the first band). NVIDIA RGBA32F 512² (128 rows 8 KiB
  // apart per block) takes bands of 32 rows: fewer instructions per byte than
  // the strip walker, where bands of 8 rows would pay per-block work for 512
  // bytes.
  unsigned band = nrows;
  if (too_wide) {
    if (!sep || db != 1 || t.tile_band_rows_log2 == 0) return false;
    // the tallest band (at most 2^tile_band_rows_log2 rows) within the span
    const uint64_t copy_bytes = r.copy_bytes ? r.copy_bytes : region_bytes(r);
    const unsigned max_log2 = copy_bytes >= t.tile_band_big_min_bytes
                                  ? std::min(t.tile_band_rows_log2, t.tile_band_rows_big_log2)
                                  : t.tile_band_rows_log2;
    band = std::min<unsigned>(nrows, 1u << std::min(max_log2, 10u));
    while (band > 1 && (band - 1) * P + (uint64_t{1} << g.ex) >= t.tile_walk_max_span_bytes) band >>= 1;
    if (band < 8) return false;  // a few lines per block and band: the strip walker's chunks are wider
  }
  // aligned 64-byte linear lines: stream them when the copy streams
  const bool st = r.streaming && pitches64 && ph0 % 16 == 0;
  // edges: front/back slabs, top/bottom bands, left/right columns
  WalkOutsideInterior<Mv>(r, Direction::ToLinear, t, eb, ix0, ix1, iy0, iy1, iz0, iz1);
  // interior blocks
  const uint64_t B = g.B;
  const uint8_t* const swz = r.swz;
  // The pieces of the straddling lines that lie in this block: those in the
  // next block (a row's first block: its head, x < 64 - ph) or the others (a
  // row's last block: its tail, x >= width - ph).
  const uint64_t wbytes = uint64_t{1} << g.ex;
  auto pieces = [&](bool in_next, const uint8_t* tb, uint32_t K, uint8_t* lt) {
    if (lists) {
      const TilePiece* pc = in_next ? head : tail;
      const unsigned n = in_next ? nhead : ntail;
      for (unsigned i = 0; i < n; ++i) Mv::template Run<16>(lt + pc[i].lin, tb + (pc[i].s ^ K), false);
      return;
    }
    for (unsigned i = 0; i < nq; ++i) {
      const TileLine& e = ln[i];
      if (!e.next) continue;
      for (unsigned k = 0; k < 4; ++k) {
        if (((e.next >> k) & 1) != static_cast<uint32_t>(in_next)) continue;
        uint8_t* l = lt + e.lin + 16 * k - (in_next ? wbytes : 0);
        Mv::template Run<16>(l, tb + (e.s[k] ^ K), false);
      }
    }
  };
  // tn/Kn: the next block of the row (only read when has_next)
  // (rows [b0, b0 + nb) of the block: a band, or all)
  auto block = [&](const uint8_t* tb, uint32_t K, const uint8_t* tn, uint32_t Kn, bool has_next, uint8_t* lt,
                   bool stream, unsigned b0, unsigned nb) {
    if (quad) {
      stream ? TileQuads<Mv, true>(q, nq, tb, K, lt, P) : TileQuads<Mv, false>(q, nq, tb, K, lt, P);
      return;
    }
    if (sep && K == 0 && (!has_next || (Kn == 0 && tn == tb + B))) {
      const unsigned nc = has_next ? sep_cols : sep_fin;
      const uint64_t step = db == 1 ? P : 0;
      uint8_t* const lb = step ? lt + b0 * step : lt;
      stream ? TileSepLines<Mv, true>(sep_cx, nc, sep_x0, sep_gyz + b0, sep_lin + b0, nb, step, tb, lb)
             : TileSepLines<Mv, false>(sep_cx, nc, sep_x0, sep_gyz + b0, sep_lin + b0, nb, step, tb, lb);
      if (!has_next) TileSepPieces<Mv>(sep_tx, sep_nt, sep_gyz + b0, sep_lin + b0, nb, tb, lt, p);
      return;
    }
    if (b0 != 0) return;  // copied whole with the first band
    if (!built) build_lines();
    if (has_next && Kn == K && tn == tb + B) {
      // the row goes on in the next block in memory, same K: one flat loop
      if (K == 0)
        stream ? TileFlatLines<Mv, false, true>(fl, nq, tb, K, lt) : TileFlatLines<Mv, false, false>(fl, nq, tb, K, lt);
      else
        stream ? TileFlatLines<Mv, true, true>(fl, nq, tb, K, lt) : TileFlatLines<Mv, true, false>(fl, nq, tb, K, lt);
      return;
    }
    if (lists) {
      // its whole lines (no branch per line), then the straddling lines
      // (pieces from this block and the next, each with its K: AMD's XOR
      // terms tell neighbouring blocks apart), or at a row's last block its
      // pieces of them
      stream ? TileFinLines<Mv, true>(fl, fin, nfin, tb, K, lt) : TileFinLines<Mv, false>(fl, fin, nfin, tb, K, lt);
      if (!has_next) {
        pieces(false, tb, K, lt);
        return;
      }
      for (unsigned i = 0; i < nstrad; ++i) {
        const TileLine& e = ln[strad[i]];
        const uint8_t* pk[4];
        for (unsigned k = 0; k < 4; ++k) pk[k] = (e.next >> k) & 1 ? tn + (e.s[k] ^ Kn) : tb + (e.s[k] ^ K);
        Mv::Line4(lt + e.lin, pk[0], pk[1], pk[2], pk[3], stream);
      }
      return;
    }
    for (unsigned i = 0; i < nq; ++i) {
      const TileLine& e = ln[i];
      if (e.next == 0) {
        Mv::Line4(lt + e.lin, tb + (e.s[0] ^ K), tb + (e.s[1] ^ K), tb + (e.s[2] ^ K), tb + (e.s[3] ^ K), stream);
      } else if (has_next) {
        const uint8_t* pk[4];
        for (unsigned k = 0; k < 4; ++k) pk[k] = (e.next >> k) & 1 ? tn + (e.s[k] ^ Kn) : tb + (e.s[k] ^ K);
        Mv::Line4(lt + e.lin, pk[0], pk[1], pk[2], pk[3], stream);
      }
    }
    if (!has_next) pieces(false, tb, K, lt);
  };
  for (uint64_t zb = iz0; zb < iz1; zb += db)
    for (uint64_t yb = iy0; yb < iy1; yb += hb) {
      uint64_t Y, Z;
      adjust_yz(r, r.y0 + yb, r.z0 + zb, &Y, &Z);
      const RowPart rp = row_part(r, g, Y, Z);
      uint8_t* const lrow = r.lin + zb * r.lin_depth_pitch + yb * P;
      for (unsigned b0 = 0; b0 < nrows; b0 += band) {
        const unsigned nb = std::min(band, nrows - b0);
        uint64_t o0 = addr_rt(g.mode, rp, col_part(g, (r.x0 + ix0) * eb + r.pre[0]));
        for (uint64_t xb = ix0; xb < ix1; xb += wb) {
          const uint64_t X = (r.x0 + xb) * eb + r.pre[0];
          const bool has_next = xb + wb < ix1;
          uint64_t next = 0;
          if (has_next) {
            next = addr_rt(g.mode, rp, col_part(g, X + (uint64_t{1} << g.ex)));
            // prefetch the next block of this row into L2, in address order
            // (whole blocks only)
            if (band == nrows) TilePrefetch(swz + (next & ~(B - 1)), B);
          }
          const uint8_t* tb = swz + (o0 & ~(B - 1));
          const uint32_t K = static_cast<uint32_t>(o0 & (B - 1));
          const uint8_t* tn = swz + (next & ~(B - 1));
          const uint32_t Kn = static_cast<uint32_t>(next & (B - 1));
          uint8_t* lt = lrow + xb * eb;
          if (xb == ix0 && !quad) {
            if (sep && K == 0) {
              TileSepPieces<Mv>(sep_hx, sep_nh, sep_gyz + b0, sep_lin + b0, nb, tb, lt, p);
            } else if (b0 == 0) {
              if (!built) build_lines();
              pieces(true, tb, K, lt);
            }
          }
          if (st)
            block(tb, K, tn, Kn, has_next, lt, true, b0, nb);
          else
            block(tb, K, tn, Kn, has_next, lt, false, b0, nb);
          o0 = next;
        }
      }
    }
  return true;
}

#include "backends/simd/stretch_swizzle-inl.h"

// ---- Swizzle from memory onto a resource at 16/32/48 mod 64 ----------------
//
// A swizzled side that is not 64-byte aligned (a malloc'd or numpy resource)
// makes every line store of the strip walker straddle two cache lines, and
// its walk jumps every few lines (std64k, NVIDIA GOBs, AMD), so it cannot
// stream. Here the blocks that lie wholly inside the box are written one
// after the other in memory order as aligned 64-byte lines, each gathered
// from four 16-byte pieces of the linear side and streamed: a block's lines
// start 64 - ph bytes in (ph = the resource's phase), and the line that
// straddles into the next block (when that block is the next one of the row
// in memory) takes its tail from it; a row's first block writes its head and
// a last (or non-adjacent) block its tail in 16-byte pieces (regular stores).
// The schedule: the linear offset of each 16-byte piece of a block, by its
// in-block offset before the per-block constant K (XORed in, as above).
constexpr unsigned kMaxTilePiecesSwz = 4096;  // blocks up to 64 KiB

template <class Mv>
bool TileSwizzle(const Region& r, const Tuning& t) {
  // first choice: stretches of a few rows (stretch_swizzle-inl.h)
  if (StretchSwizzle<Mv>(r, t)) return true;
  if (!Mv::kHasLine || !t.line_kernels || !t.tile_walk || !r.streaming) return false;
  const uint32_t ph = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(r.swz) & 63);
  if (ph == 0 || ph % 16 != 0) return false;  // aligned: the strip walker streams whole lines
  const Geo g = make_geo(r);
  const Plan& p = *g.p;
  const uint64_t eb = p.element_bytes;
  if (g.rl < 4 || p.high_mask != 0 || r.stack_rows || p.ext_log2[3] != 0 || g.ex < 6 || p.block_bits > 16 ||
      r.pre[0] % eb != 0 || r.row_pitch % 64 != 0 || r.depth_pitch_B % 64 != 0 || g.B / 16 > kMaxTilePiecesSwz)
    return false;
  const uint64_t wbytes = uint64_t{1} << g.ex;
  const uint64_t wb = wbytes / eb;  // block extent in elements
  const uint64_t hb = uint64_t{1} << p.ext_log2[1];
  const uint64_t db = uint64_t{1} << p.ext_log2[2];
  uint64_t ix0, ix1, iy0, iy1, iz0, iz1;
  if (!BoxInterior(r, eb, wb, hb, db, &ix0, &ix1, &iy0, &iy1, &iz0, &iz1)) return false;
  const uint64_t nblocks = (ix1 - ix0) / wb * ((iy1 - iy0) / hb) * ((iz1 - iz0) / db);
  if (nblocks < 2) return false;
  // A block reads hb x db linear rows; on 4 KiB pages each is a page of its
  // own. In swz_bench_matrix (4096², linear side 16 mod 64), blocks of
  // <= 64 rows are faster this way than through the strip walker; blocks of
  // 128-256 rows are slower than its Add-mode path (std64k R8, NVIDIA) but
  // faster than its XOR paths (AMD _X).
  if (hb * db > 64 && g.mode == Mode::Add) return false;
  uint64_t src[kMaxTilePiecesSwz];
  PieceSchedule(p, p.block_bits, r.lin_row_pitch, r.lin_depth_pitch, src);
  WalkOutsideInterior<Mv>(r, Direction::ToSwizzled, t, eb, ix0, ix1, iy0, iy1, iz0, iz1);
  SwizzleUnits<Mv>(r, g, src, UnitWalk{g.B, wb, wbytes, hb, db, ix0, ix1, iy0, iy1, iz0, iz1, ph, 0, 0});
  return true;
}
