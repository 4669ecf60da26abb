// swz internal — the strip walker shared by the SIMD backends.
//
// NO include guard on purpose: the Highway kernel includes this once per
// target namespace (hwy/foreach_target.h re-includes its .cpp per target),
// the xsimd kernel once in its own namespace. It needs, in the including
// namespace: geometry.hpp's names (swz::detail::simd) and a Mover type.
//
// Order of work (docs/ARCHITECTURE.md §8, issue "SIMD tilers"):
// * A strip is the set of rows (y, and z for 3D) that share destination
//   lines: the Y/Z primaries among the lowest address bits. Rows are read in
//   strips, so each 64-byte line of the swizzled side is filled by consecutive
//   stores (swizzle) or read while it is still in L1 (deswizzle).
// * Columns are taken in chunks of aligned runs; the column part of every
//   run's address is tabled once per chunk and reused for every row.
// * Swizzle: column-outer, row-inner: the runs of one column in a strip are
//   adjacent in the destination. With the q4 shape (Y0, Y1 on address bits
//   4, 5) four rows' 16-byte runs make one 64-byte line, built in registers
//   and written with one (streaming) store.
// * Deswizzle: row-outer, column-inner: each linear row is written in whole
//   64-byte lines (four 16-byte runs gathered from the strip, which sits in L1).
// * Partial runs at box edges are copied with memcpy (copy_piece).
// The Mover supplies: Run<N>(dst, src, stream) for N in 1..32, RunN(dst, src,
// n, stream) for n a multiple of 64, Line4(dst, p0, p1, p2, p3, stream), and
// kHasLine. Streaming is only requested where the destination is aligned to
// the store's width.

struct StripRow {
  RowPart rp;
  uint8_t* lin;  // first byte of the box in this row
};

constexpr unsigned kMaxStripRows = 64;
constexpr unsigned kMaxChunkRuns = 256;

template <class Mv>
class Walker {
 public:
  Walker(const Region& r, Direction dir, const Tuning& t) : r_(r), dir_(dir), t_(t), g_(make_geo(r)) {}

  void Run() {
    const Plan& p = *g_.p;
    const bool to_swz = dir_ == Direction::ToSwizzled;
    // Strip shape.
    unsigned sb = to_swz ? t_.swizzle_strip_bits : t_.deswizzle_strip_bits;
    if (sb == 0) {
      // Auto: the 64-byte line and the address bits above it up to the next
      // X primary, so that one run column of a strip is one contiguous
      // stretch of the swizzled side (32bpp std64k: 8 rows = 128 bytes; 8bpp:
      // 32 rows = 512 bytes; NVIDIA-GOB-like "Y0 X4 Y1 Y2": 8 rows).
      sb = std::max(g_.rl, 6u);  // bits 4..5 of a general line may be X
      while (sb < p.block_bits && p.pattern().interleave[sb].channel != 0) ++sb;
    }
    sb = std::min<unsigned>(sb, p.block_bits);
    // Only X primaries above the strip: a strip's run columns follow each
    // other in memory, and so do the blocks of a row (lines16_ below).
    x_above_strip_ = true;
    for (unsigned i = sb; i < p.block_bits; ++i)
      if (p.pattern().interleave[i].channel != 0) x_above_strip_ = false;
    unsigned hy = 0, hz = 0;
    for (unsigned i = 0; i < sb; ++i) {
      const BitEntry& e = p.pattern().interleave[i];
      if (e.channel == 1 && hy + hz < 6)
        ++hy;
      else if (e.channel == 2 && !r_.stack_rows && hy + hz < 6)
        ++hz;
    }
    // Only the low Y/Z bits group rows; a pattern whose low address bits name
    // Y3 but not Y0 still gets aligned groups of 2^hy rows (correct either way).
    hy_ = hy;
    hz_ = hz;
    // Chunk: a power of two >= R, at most kMaxChunkRuns runs.
    uint64_t c = 64;
    while (c < t_.chunk_bytes) c <<= 1;
    // A strip x chunk reads (or writes) rows x C bytes of the linear side at
    // once; keep that within 16 KiB (wider chunks are slower from memory:
    // 8 bpp std64k, 32-row strips).
    while (c > 64 && (c << (hy_ + hz_)) > (uint64_t{16} << 10)) c >>= 1;
    // No wider than the box needs (small boxes: the table costs per call).
    uint64_t need = 64;
    while (need < g_.xa1 - (g_.xa0 & ~(g_.R - 1))) need <<= 1;
    if (c > need) c = need;
    if (c < g_.R) c = g_.R;
    if (c > g_.R * kMaxChunkRuns) c = g_.R * kMaxChunkRuns;
    C_ = c;
    // Add mode folds a chunk's column base into the row part by addition; that
    // needs the G bits of the x bits inside a chunk and above it disjoint.
    if (g_.mode == Mode::Add) {
      unsigned cl = 0;
      while ((uint64_t{1} << cl) < C_) ++cl;
      uint32_t lo = 0, hi = 0;
      for (unsigned b = g_.rl; b < 32; ++b) (b < cl ? lo : hi) |= p.lin[0][b];
      if (lo & hi) g_.mode = Mode::Or;
    }
    // Column parts of the runs of one aligned chunk, relative to its start:
    // for A a multiple of C and 0 <= o < C, G(A + o) = G(A) ^ G(o) and
    // ((A + o) >> ex) * B = (A >> ex) * B + (o >> ex) * B (C and 2^ex are
    // powers of two, so one divides the other).
    const unsigned nrel = static_cast<unsigned>(C_ >> g_.rl);
    for (unsigned j = 0; j < nrel; ++j) rel_[j] = col_part(g_, uint64_t{j} << g_.rl);
    // Destination alignment at run starts, for streaming.
    SetupStreaming();

    const uint64_t Hz = uint64_t{1} << hz_, Hy = uint64_t{1} << hy_;
    for (uint32_t dz0 = 0; dz0 < r_.d;) {
      uint64_t y, z;
      adjusted_row(r_, 0, dz0, &y, &z);
      const uint32_t dz1 = static_cast<uint32_t>(std::min<uint64_t>(r_.d, dz0 + (Hz - (z & (Hz - 1)))));
      for (uint32_t dy0 = 0; dy0 < r_.h;) {
        adjusted_row(r_, dy0, dz0, &y, &z);
        const uint32_t dy1 = static_cast<uint32_t>(std::min<uint64_t>(r_.h, dy0 + (Hy - (y & (Hy - 1)))));
        unsigned n = 0;
        // The strip lies in one row of blocks; its rows' parts are the aligned
        // corner's plus the G of the low Y/Z bits (one table entry each).
        adjusted_row(r_, dy0, dz0, &y, &z);
        const uint64_t ya = y & ~(Hy - 1), za = r_.stack_rows ? z : (z & ~(Hz - 1));
        const uint64_t rb = (ya >> p.ext_log2[1]) * r_.row_pitch + (za >> p.ext_log2[2]) * r_.depth_pitch_B;
        const uint32_t gy0 = g_.gs ^ p.g(1, static_cast<uint32_t>(ya)) ^ p.g(2, static_cast<uint32_t>(za));
        // (pointers only for rows that exist: no pointer past the box is formed,
        // whatever pitch an unused dimension carries)
        for (uint32_t dz = dz0; dz < dz1; ++dz) {
          uint8_t* const lz = r_.lin + dz * r_.lin_depth_pitch;
          const uint32_t gz = r_.stack_rows ? 0u : p.g_tab[2][0][(z + (dz - dz0) - za) & 255];
          for (uint32_t dy = dy0; dy < dy1; ++dy) {
            uint8_t* const l = lz + dy * r_.lin_row_pitch;
            const uint32_t gy = gy0 ^ gz ^ p.g_tab[1][0][(y + (dy - dy0) - ya) & 255];
            rows_[n].rp = g_.mode == Mode::Add ? RowPart{rb + gy, 0} : RowPart{rb, gy};
            rows_[n].lin = l;
            ++n;
          }
        }
        const bool full_groups = (dy1 - dy0) == Hy && Hy >= 4;
        full_strip_ = (dy1 - dy0) == Hy;
        Strip(n, full_groups);
        dy0 = dy1;
      }
      dz0 = dz1;
    }
  }

 private:
  // The row part with a chunk's column base folded in: addr(fold(rp, b), q)
  // == addr(rp, b + q) for every mode (the a parts add, the G parts XOR).
  static HWY_SWZ_INLINE RowPart Fold(RowPart rp, ColPart b) { return {rp.a + b.a, rp.gg ^ b.gg}; }

  void SetupStreaming() {
    const bool to_swz = dir_ == Direction::ToSwizzled;
    // Swizzled side: runs start at multiples of R and lines (q4/general line
    // kernels) at multiples of 64, so the base pointer's alignment decides.
    // Linear side: run starts are lin + (x - xa0) + row/slice pitches.
    uint64_t bits;
    if (to_swz) {
      bits = reinterpret_cast<uintptr_t>(r_.swz);
    } else {
      bits = (reinterpret_cast<uintptr_t>(r_.lin) - g_.xa0);
      if (r_.h > 1) bits |= r_.lin_row_pitch;
      if (r_.d > 1) bits |= r_.lin_depth_pitch;
    }
    bits |= 64;
    const uint64_t align = bits & (~bits + 1);  // lowest set bit, at most 64
    // Run<N> streams need N-aligned (16) destinations; lines and R >= 64 runs 64.
    stream16_ = r_.streaming && align >= 16 && g_.R >= 16;
    stream64_ = r_.streaming && align >= 64;
    // Swizzled side 16 mod 64 (a malloc'd or numpy resource): 64-byte lines
    // straddle two cache lines, so they are streamed as four 16-byte stores,
    // in an order where the lines that share a cache line are written one
    // right after the other (column-outer), so write-combining fills whole
    // lines. That holds only where the walk is sequential in memory (only X
    // primaries above the strip: Intel Y tiles); elsewhere (std64k, NVIDIA
    // GOBs, AMD) the walk jumps every few lines, the straddling lines are
    // left half-written and 16-byte streams are slower than regular
    // stores, so those keep regular stores.
    lines16_ = to_swz && r_.streaming && !stream64_ && align >= 16 && x_above_strip_;
    // Deswizzle lines: 64-byte linear lines start where (lin_row + x - xa0)
    // is a multiple of 64; possible for every row when runs are 16-aligned
    // there and the pitches are multiples of 64.
    line_phase_ok_ = false;
    if (!to_swz) {
      uint64_t pb = (reinterpret_cast<uintptr_t>(r_.lin) - g_.xa0) & 15;
      if (r_.h > 1) pb |= r_.lin_row_pitch & 63;
      if (r_.d > 1) pb |= r_.lin_depth_pitch & 63;
      line_phase_ok_ = pb == 0;
      lin_phase_ = (reinterpret_cast<uintptr_t>(r_.lin) - g_.xa0) & 63;
    }
  }

  void Strip(unsigned n, bool full_groups) {
    const uint64_t R = g_.R;
    const uint64_t xa0 = g_.xa0, xa1 = g_.xa1;
    const uint64_t fa = (xa0 + R - 1) & ~(R - 1);
    const uint64_t fb = xa1 & ~(R - 1);
    if (fa > fb) {  // inside one run
      for (unsigned i = 0; i < n; ++i) copy_piece(r_, g_, rows_[i].rp, rows_[i].lin, xa0, xa1, dir_);
      return;
    }
    if (xa0 < fa)
      for (unsigned i = 0; i < n; ++i) copy_piece(r_, g_, rows_[i].rp, rows_[i].lin, xa0, fa, dir_);
    // Chunks are aligned to C in adjusted x, so the column parts of their runs
    // are the chunk base's plus the per-call table rel_.
    lead_done_ = false;
    for (uint64_t c0 = fa; c0 < fb;) {
      const uint64_t A = c0 & ~(C_ - 1);
      const uint64_t c1 = std::min(fb, A + C_);
      const unsigned nj = static_cast<unsigned>((c1 - c0) >> g_.rl);
      const ColPart* cols = rel_ + ((c0 - A) >> g_.rl);
      const ColPart b0 = col_part(g_, A);
      ChunkArgs a{n, nj, c0, cols, b0, c0 == fa, c1 == fb, full_groups};
      switch (g_.mode) {
        case Mode::Add:
          Chunk<Mode::Add>(a);
          break;
        case Mode::Or:
          Chunk<Mode::Or>(a);
          break;
        default:
          Chunk<Mode::Xor>(a);
          break;
      }
      c0 = c1;
    }
    if (fb < xa1)
      for (unsigned i = 0; i < n; ++i) copy_piece(r_, g_, rows_[i].rp, rows_[i].lin, fb, xa1, dir_);
  }

  struct ChunkArgs {
    unsigned n, nj;
    uint64_t c0;
    const ColPart* cols;            // column parts relative to the chunk base b0
    ColPart b0;                     // (folded into the row parts: Fold(rp, b0))
    bool first, last, full_groups;  // first/last chunk of the strip
  };

  template <Mode M>
  void Chunk(const ChunkArgs& a) {
    if (Mv::kHasLine && t_.line_kernels && g_.gl && full_strip_ && g_.gl_y_bits <= hy_)
      return dir_ == Direction::ToSwizzled ? LinesGeneral<M>(a) : LinesGeneralToLinear<M>(a);
    if (dir_ == Direction::ToSwizzled) {
      if (Mv::kHasLine && t_.line_kernels && g_.q4 && a.full_groups) return SwizzleQ4<M>(a);
    } else if (Mv::kHasLine && t_.line_kernels && g_.rl == 4) {
      return DeswizzleLines<M>(a);
    }
    with_run_bytes(g_.rl, [&](auto n) { General<M, decltype(n)::value>(a); });
  }

  template <size_t N>
  HWY_SWZ_INLINE void Move(uint8_t* dst, const uint8_t* src, bool stream) {
    if constexpr (N == 0)
      Mv::RunN(dst, src, g_.R, stream);
    else
      Mv::template Run<N>(dst, src, stream);
  }

  template <Mode M, size_t N>
  void General(const ChunkArgs& a) {
    const uint64_t R = g_.R;
    const uint64_t x0 = a.c0 - g_.xa0;
    uint8_t* const swz = r_.swz;
    const ColPart* HWY_SWZ_RESTRICT cols = a.cols;
    const bool st = (N == 0 ? stream64_ : stream16_) && (N == 0 || N >= 16);
    if (dir_ == Direction::ToSwizzled) {
      for (unsigned i = 0; i < a.n; ++i) fold_[i] = Fold(rows_[i].rp, a.b0);
      // column-outer: the strip's runs of one column are neighbours in the destination
      for (unsigned j = 0; j < a.nj; ++j) {
        const ColPart c = cols[j];
        const uint64_t xo = x0 + j * R;
        if (st) {
          for (unsigned i = 0; i < a.n; ++i) Move<N>(swz + addr<M>(fold_[i], c), rows_[i].lin + xo, true);
        } else {
          for (unsigned i = 0; i < a.n; ++i) Move<N>(swz + addr<M>(fold_[i], c), rows_[i].lin + xo, false);
        }
      }
    } else {
      // row-outer: each linear row is written in order
      for (unsigned i = 0; i < a.n; ++i) {
        const RowPart rp = Fold(rows_[i].rp, a.b0);
        uint8_t* l = rows_[i].lin + x0;
        if (st) {
          for (unsigned j = 0; j < a.nj; ++j) Move<N>(l + j * R, swz + addr<M>(rp, cols[j]), true);
        } else {
          for (unsigned j = 0; j < a.nj; ++j) Move<N>(l + j * R, swz + addr<M>(rp, cols[j]), false);
        }
      }
    }
  }

  // Four aligned rows per 64-byte destination line (q4 shape); rows_ holds
  // whole groups of four consecutive rows (same z, one linear row pitch
  // apart). Every line is written by one store, so the order of the lines
  // does not matter to write-combining; group-outer keeps the pointers in
  // registers.
  template <Mode M>
  void SwizzleQ4(const ChunkArgs& a) {
    if (lines16_) return SwizzleQ4Lines16<M>(a);
    uint8_t* const swz = r_.swz;
    const uint64_t P = r_.lin_row_pitch;
    const ColPart* HWY_SWZ_RESTRICT cols = a.cols;
    const unsigned nj = a.nj;
    const bool st = stream64_;
    // 3D strips (rows from several slices): column-outer over the strip's
    // groups, whose lines of one column are neighbours on the swizzled side
    // (Z0, Z1 sit right above the line), which is faster than group-outer.
    Grp grp[kMaxStripRows / 4];
    const unsigned ng = Groups(a, grp);
    if (hz_ == 0) {
      // 2D: group-outer (faster: each group's four linear rows are
      // read in order)
      for (unsigned q = 0; q < ng; ++q) {
        const RowPart rp = grp[q].rp;
        const uint8_t* l = grp[q].l;
        unsigned j = 0;
        if constexpr (Mv::kHasQuad) {
          for (; j + 4 <= nj; j += 4, l += 64)
            Mv::Quad(swz + addr<M>(rp, cols[j]), swz + addr<M>(rp, cols[j + 1]), swz + addr<M>(rp, cols[j + 2]),
                     swz + addr<M>(rp, cols[j + 3]), l, l + P, l + 2 * P, l + 3 * P, st);
        }
        for (; j < nj; ++j, l += 16) Mv::Line4(swz + addr<M>(rp, cols[j]), l, l + P, l + 2 * P, l + 3 * P, st);
      }
      return;
    }
    unsigned j = 0;
    if constexpr (Mv::kHasQuad) {
      // four columns of four rows at once: one 4x4 transpose of 16-byte blocks
      for (; j + 4 <= nj; j += 4) {
        const ColPart c0 = cols[j], c1 = cols[j + 1], c2 = cols[j + 2], c3 = cols[j + 3];
        for (unsigned q = 0; q < ng; ++q) {
          const uint8_t* l = grp[q].l + j * 16;
          const RowPart rp = grp[q].rp;
          Mv::Quad(swz + addr<M>(rp, c0), swz + addr<M>(rp, c1), swz + addr<M>(rp, c2), swz + addr<M>(rp, c3), l, l + P,
                   l + 2 * P, l + 3 * P, st);
        }
      }
    }
    for (; j < nj; ++j) {
      const ColPart c = cols[j];
      for (unsigned q = 0; q < ng; ++q) {
        const uint8_t* l = grp[q].l + j * 16;
        Mv::Line4(swz + addr<M>(grp[q].rp, c), l, l + P, l + 2 * P, l + 3 * P, st);
      }
    }
  }

  // SwizzleQ4 on a swizzled side 16 mod 64: column-outer over the strip's
  // groups (their lines of one column are neighbours), 16-byte streams.
  template <Mode M>
  void SwizzleQ4Lines16(const ChunkArgs& a) {
    uint8_t* const swz = r_.swz;
    const uint64_t P = r_.lin_row_pitch;
    const ColPart* HWY_SWZ_RESTRICT cols = a.cols;
    Grp grp[kMaxStripRows / 4];
    const unsigned ng = Groups(a, grp);
    for (unsigned j = 0; j < a.nj; ++j) {
      const ColPart c = cols[j];
      for (unsigned q = 0; q < ng; ++q) {
        const uint8_t* l = grp[q].l + j * 16;
        Lines16(swz + addr<M>(grp[q].rp, c), l, l + P, l + 2 * P, l + 3 * P);
      }
    }
  }

  // A group of four rows of the q4 shape: the first row's part, folded with
  // the chunk base, and its linear bytes at the chunk's first column.
  struct Grp {
    RowPart rp;
    const uint8_t* l;
  };
  // The chunk's groups of four rows (rows_ holds whole groups); their count.
  HWY_SWZ_INLINE unsigned Groups(const ChunkArgs& a, Grp* grp) const {
    const uint64_t x0 = a.c0 - g_.xa0;
    const unsigned ng = a.n / 4;
    for (unsigned q = 0; q < ng; ++q) grp[q] = {Fold(rows_[4 * q].rp, a.b0), rows_[4 * q].lin + x0};
    return ng;
  }

  static HWY_SWZ_INLINE void Lines16(uint8_t* d, const uint8_t* p0, const uint8_t* p1, const uint8_t* p2,
                                     const uint8_t* p3) {
    Mv::template Run<16>(d, p0, true);
    Mv::template Run<16>(d + 16, p1, true);
    Mv::template Run<16>(d + 32, p2, true);
    Mv::template Run<16>(d + 48, p3, true);
  }

  // The general line shape (Geo::gl): per line base (strip row with the
  // line's Y bits clear, run with its X bits clear) one address and four
  // 16-byte pieces. Swizzle writes each line with one (streaming) store;
  // deswizzle reads each line once. Runs whose line is cut by the chunk or
  // box edge are copied one by one.
  template <Mode M>
  void LinesGeneral(const ChunkArgs& a) {
    const bool to_swz = dir_ == Direction::ToSwizzled;
    const uint64_t x0 = a.c0 - g_.xa0;
    uint8_t* const swz = r_.swz;
    const ColPart* HWY_SWZ_RESTRICT cols = a.cols;
    const unsigned nj = a.nj;
    const uint64_t jbase = a.c0 >> 4;
    const uint32_t cm = g_.gl_col_mask, rm = g_.gl_row_mask;
    const unsigned Hy = 1u << hy_;
    auto singles = [&](unsigned i, unsigned j) {
      // the rows of row base i's line at run j
      for (unsigned k = 0; k < 4; ++k) {
        if (g_.gl_col[k] != 0) continue;  // distinct row deltas are those with no column delta
        const unsigned ii = i + g_.gl_row[k];
        const RowPart rpk = Fold(rows_[ii].rp, a.b0);
        uint8_t* l = rows_[ii].lin + x0 + j * 16;
        uint8_t* s = swz + addr<M>(rpk, cols[j]);
        if (to_swz)
          Mv::template Run<16>(s, l, stream16_);
        else
          Mv::template Run<16>(l, s, stream16_);
      }
    };
    // line bases of the strip
    struct Base {
      RowPart rp;
      uint8_t* l[4];
      unsigned i;
    };
    Base bases[kMaxStripRows];
    unsigned nb = 0;
    for (unsigned i = 0; i < a.n; ++i) {
      if ((i & (Hy - 1)) & rm) continue;  // not a line's base row
      Base& b = bases[nb++];
      b.rp = Fold(rows_[i].rp, a.b0);
      b.i = i;
      for (unsigned k = 0; k < 4; ++k) b.l[k] = rows_[i + g_.gl_row[k]].lin + x0 + g_.gl_col[k] * 16;
    }
    // column-outer: the lines of one column of the strip are neighbours in
    // the swizzled side (its Y bits sit right above the line)
    for (unsigned j = 0; j < nj; ++j) {
      const uint64_t J = jbase + j;
      bool whole = true;
      if (J & cm) {
        const uint64_t Jb = J & ~uint64_t{cm};
        if (Jb >= jbase && (Jb - jbase) + cm < nj) continue;  // part of a whole line
        whole = false;
      } else if (j + cm >= nj) {
        whole = false;
      }
      if (!whole) {
        for (unsigned q = 0; q < nb; ++q) singles(bases[q].i, j);
        continue;
      }
      const ColPart c = cols[j];
      const uint64_t o = j * 16;
      for (unsigned q = 0; q < nb; ++q) {
        const Base& b = bases[q];
        uint8_t* s = swz + addr<M>(b.rp, c);
        if (to_swz) {
          if (lines16_)
            Lines16(s, b.l[0] + o, b.l[1] + o, b.l[2] + o, b.l[3] + o);
          else
            Mv::Line4(s, b.l[0] + o, b.l[1] + o, b.l[2] + o, b.l[3] + o, stream64_);
        } else {
          Mv::template Run<16>(b.l[0] + o, s, stream16_);
          Mv::template Run<16>(b.l[1] + o, s + 16, stream16_);
          Mv::template Run<16>(b.l[2] + o, s + 32, stream16_);
          Mv::template Run<16>(b.l[3] + o, s + 48, stream16_);
        }
      }
    }
  }

  // LinesGeneral's deswizzle: the same lines, walked line base (a pair or
  // quad of linear rows) outer and whole lines inner, so that the line's four
  // linear destinations stay in registers: per 64 bytes one column part,
  // four loads, four stores. (Column-outer, as the swizzle walks, reloads
  // the four destinations of each base per line.) The strip x chunk is in L1
  // either way.
  template <Mode M>
  void LinesGeneralToLinear(const ChunkArgs& a) {
    const uint64_t x0 = a.c0 - g_.xa0;
    const uint8_t* const swz = r_.swz;
    const ColPart* HWY_SWZ_RESTRICT cols = a.cols;
    const unsigned nj = a.nj;
    const uint64_t jbase = a.c0 >> 4;
    const uint32_t cm = g_.gl_col_mask, rm = g_.gl_row_mask;
    const unsigned Hy = 1u << hy_;
    const bool st = stream16_;
    // the chunk's runs: the first run of each whole line, and the runs whose
    // line is cut by the chunk or box edge (copied one by one); they depend
    // only on the chunk's first run index mod 64 (cm < 64) and run count,
    // the same for every whole chunk of the call: listed once
    const uint32_t key = static_cast<uint32_t>(jbase & 63) | (nj << 8);
    if (key != gl_key_) {
      gl_key_ = key;
      gl_nw_ = gl_nc_ = 0;
      for (unsigned j = 0; j < nj; ++j) {
        const uint64_t J = jbase + j;
        if (J & cm) {
          const uint64_t Jb = J & ~uint64_t{cm};
          if (Jb >= jbase && (Jb - jbase) + cm < nj) continue;  // part of a whole line
          gl_cut_[gl_nc_++] = static_cast<uint16_t>(j);
        } else if (j + cm >= nj) {
          gl_cut_[gl_nc_++] = static_cast<uint16_t>(j);
        } else {
          gl_whole_[gl_nw_++] = static_cast<uint16_t>(j);
        }
      }
    }
    const uint16_t* HWY_SWZ_RESTRICT whole = gl_whole_;
    const uint16_t* HWY_SWZ_RESTRICT cut = gl_cut_;
    const unsigned nw = gl_nw_, nc = gl_nc_;
    for (unsigned i = 0; i < a.n; ++i) {
      if ((i & (Hy - 1)) & rm) continue;  // not a line's base row
      const RowPart rp = Fold(rows_[i].rp, a.b0);
      uint8_t* const l0 = rows_[i + g_.gl_row[0]].lin + x0 + g_.gl_col[0] * 16;
      uint8_t* const l1 = rows_[i + g_.gl_row[1]].lin + x0 + g_.gl_col[1] * 16;
      uint8_t* const l2 = rows_[i + g_.gl_row[2]].lin + x0 + g_.gl_col[2] * 16;
      uint8_t* const l3 = rows_[i + g_.gl_row[3]].lin + x0 + g_.gl_col[3] * 16;
      // Whole lines: the streaming flag as a compile-time constant of the loop.
      const auto whole_lines = [&](auto stream) {
        for (unsigned w = 0; w < nw; ++w) {
          const unsigned j = whole[w];
          const uint8_t* s = swz + addr<M>(rp, cols[j]);
          const uint64_t o = uint64_t{j} * 16;
          Mv::template Run<16>(l0 + o, s, decltype(stream)::value);
          Mv::template Run<16>(l1 + o, s + 16, decltype(stream)::value);
          Mv::template Run<16>(l2 + o, s + 32, decltype(stream)::value);
          Mv::template Run<16>(l3 + o, s + 48, decltype(stream)::value);
        }
      };
      if (st)
        whole_lines(std::true_type{});
      else
        whole_lines(std::false_type{});
      // cut lines: the rows of this base's line at each such run
      for (unsigned c = 0; c < nc; ++c) {
        const unsigned j = cut[c];
        for (unsigned k = 0; k < 4; ++k) {
          if (g_.gl_col[k] != 0) continue;  // distinct row deltas are those with no column delta
          const unsigned ii = i + g_.gl_row[k];
          Mv::template Run<16>(rows_[ii].lin + x0 + uint64_t{j} * 16, swz + addr<M>(Fold(rows_[ii].rp, a.b0), cols[j]),
                               st);
        }
      }
    }
  }

  // Four lines of four rows (q4) <-> four runs of four rows: one transpose
  // where the target has it, else four gathered lines.
 public:
  static HWY_SWZ_INLINE void Group4(uint8_t* d0, uint8_t* d1, uint8_t* d2, uint8_t* d3, const uint8_t* s0,
                                    const uint8_t* s1, const uint8_t* s2, const uint8_t* s3, bool stream) {
    if constexpr (Mv::kHasQuad) {
      Mv::Quad(d0, d1, d2, d3, s0, s1, s2, s3, stream);
    } else {
      Mv::Line4(d0, s0, s1, s2, s3, stream);
      Mv::Line4(d1, s0 + 16, s1 + 16, s2 + 16, s3 + 16, stream);
      Mv::Line4(d2, s0 + 32, s1 + 32, s2 + 32, s3 + 32, stream);
      Mv::Line4(d3, s0 + 48, s1 + 48, s2 + 48, s3 + 48, stream);
    }
  }

 private:
  // 16-byte runs: each linear row is written in whole 64-byte lines, four
  // runs gathered from the strip (in L1). Lines follow the linear alignment;
  // a line that crosses into the next chunk is finished here with the next
  // chunk's addresses computed directly, and that chunk skips those runs.
  // With the q4 shape and whole groups of four rows, four lines (four runs of
  // four rows) are loaded and transposed into four linear lines (Mv::Quad).
  template <Mode M>
  void DeswizzleLines(const ChunkArgs& a) {
    const uint64_t x0 = a.c0 - g_.xa0;
    const uint8_t* const swz = r_.swz;
    const bool stl = r_.streaming && line_phase_ok_;
    const ColPart* HWY_SWZ_RESTRICT cols = a.cols;
    const unsigned nj = a.nj;
    // runs before the first linear line boundary in this chunk
    const unsigned lead = line_phase_ok_ ? static_cast<unsigned>(((64 - ((a.c0 + lin_phase_) & 63)) & 63) >> 4) : 0;
    const unsigned j0 = std::min(lead, nj);
    const unsigned nl = (nj - j0) / 4;       // whole lines inside the chunk
    const unsigned tail = nj - j0 - 4 * nl;  // runs left over (0..3)
    const uint64_t c1 = a.c0 + uint64_t{nj} * 16;
    const bool straddle = tail && !a.last && line_phase_ok_ && c1 + (4 - tail) * 16 <= (g_.xa1 & ~uint64_t{15});
    const bool skip_lead = lead_done_;
    lead_done_ = straddle;
    const bool quad = g_.q4 && a.full_groups;
    const uint64_t P = r_.lin_row_pitch;
    // The straddling line's last runs open the next chunk (c1 is aligned to
    // C there): their column parts are that chunk's base, once per chunk,
    // plus rel_[0..3], not an address rule per row (malloc'd linear rows,
    // 16 mod 64: every row of every chunk has one; bench/cell_ir.sh counts
    // the instructions per byte).
    const ColPart bn = straddle ? col_part(g_, c1) : ColPart{0, 0};
    for (unsigned i = 0; i < a.n; ++i) {
      const RowPart rp = Fold(rows_[i].rp, a.b0);
      uint8_t* l = rows_[i].lin + x0;
      if (!skip_lead)
        for (unsigned j = 0; j < j0; ++j) Mv::template Run<16>(l + j * 16, swz + addr<M>(rp, cols[j]), stream16_);
      unsigned j = j0;
      if (quad) {
        if ((i & 3) == 0) {
          // rows i..i+3 together; their lines hold row i+r at +16r, and each
          // line is used up at once (no reuse across the chunk, which the
          // 64KB-periodic addresses would thrash out of L1)
          uint8_t* l1 = l + P;
          uint8_t* l2 = l + 2 * P;
          uint8_t* l3 = l + 3 * P;
          if (stl) {
            for (unsigned k = 0; k < nl; ++k, j += 4)
              Group4(l + j * 16, l1 + j * 16, l2 + j * 16, l3 + j * 16, swz + addr<M>(rp, cols[j]),
                     swz + addr<M>(rp, cols[j + 1]), swz + addr<M>(rp, cols[j + 2]), swz + addr<M>(rp, cols[j + 3]),
                     true);
          } else {
            for (unsigned k = 0; k < nl; ++k, j += 4)
              Group4(l + j * 16, l1 + j * 16, l2 + j * 16, l3 + j * 16, swz + addr<M>(rp, cols[j]),
                     swz + addr<M>(rp, cols[j + 1]), swz + addr<M>(rp, cols[j + 2]), swz + addr<M>(rp, cols[j + 3]),
                     false);
          }
        } else {
          j += 4 * nl;  // done with the group's first row
        }
      } else if (stl) {
        for (unsigned k = 0; k < nl; ++k, j += 4)
          Mv::Line4(l + j * 16, swz + addr<M>(rp, cols[j]), swz + addr<M>(rp, cols[j + 1]),
                    swz + addr<M>(rp, cols[j + 2]), swz + addr<M>(rp, cols[j + 3]), true);
      } else {
        for (unsigned k = 0; k < nl; ++k, j += 4)
          Mv::Line4(l + j * 16, swz + addr<M>(rp, cols[j]), swz + addr<M>(rp, cols[j + 1]),
                    swz + addr<M>(rp, cols[j + 2]), swz + addr<M>(rp, cols[j + 3]), false);
      }
      if (straddle) {
        const uint8_t* p[4];
        const RowPart rn = Fold(rows_[i].rp, bn);
        for (unsigned k = 0; k < 4; ++k)
          p[k] = k < tail ? swz + addr<M>(rp, cols[j + k]) : swz + addr<M>(rn, rel_[k - tail]);
        Mv::Line4(l + j * 16, p[0], p[1], p[2], p[3], stl);
      } else {
        for (; j < nj; ++j) Mv::template Run<16>(l + j * 16, swz + addr<M>(rp, cols[j]), stream16_);
      }
    }
  }

  const Region& r_;
  Direction dir_;
  const Tuning& t_;
  Geo g_;
  unsigned hy_ = 0, hz_ = 0;
  uint64_t C_ = 512;
  bool stream16_ = false, stream64_ = false, lines16_ = false;
  bool x_above_strip_ = false;
  bool line_phase_ok_ = false;
  bool lead_done_ = false;
  bool full_strip_ = false;  // the current strip holds all its 2^hy rows per z  // DeswizzleLines: the previous chunk
                             // finished this chunk's leading runs
  uint64_t lin_phase_ = 0;
  StripRow rows_[kMaxStripRows];
  RowPart fold_[kMaxStripRows];
  ColPart rel_[kMaxChunkRuns];
  // LinesGeneralToLinear: the whole lines' first runs and the cut runs of the
  // last chunk shape (key: first run index mod 64 | run count << 8)
  uint32_t gl_key_ = ~0u;
  unsigned gl_nw_ = 0, gl_nc_ = 0;
  uint16_t gl_whole_[kMaxChunkRuns], gl_cut_[kMaxChunkRuns];
};

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
