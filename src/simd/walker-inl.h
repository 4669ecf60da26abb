// swz internal — the strip walker shared by the SIMD backends.
//
// NO include guard on purpose: the Highway kernel includes this once per
// target namespace (hwy/foreach_target.h re-includes its .cpp per target),
// the xsimd kernel once in its own namespace. It needs, in the including
// namespace: geometry.hpp's names (swz::detail::simd) and a Mover type.
//
// Order of work (DESIGN.md §3, issue "SIMD tilers"):
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
    const unsigned sb = std::min<unsigned>(to_swz ? t_.swizzle_strip_bits : t_.deswizzle_strip_bits, p.block_bits);
    unsigned hy = 0, hz = 0;
    for (unsigned i = 0; i < sb; ++i) {
      const BitEntry& e = p.pattern().interleave[i];
      if (e.channel == 1 && hy + hz < 6) ++hy;
      else if (e.channel == 2 && !r_.stack_rows && hy + hz < 6) ++hz;
    }
    // Only the low Y/Z bits group rows; a pattern whose low address bits name
    // Y3 but not Y0 still gets aligned groups of 2^hy rows (correct either way).
    hy_ = hy;
    hz_ = hz;
    // Chunk: a power of two >= R, at most kMaxChunkRuns runs.
    uint64_t c = 64;
    while (c < t_.chunk_bytes) c <<= 1;
    if (c < g_.R) c = g_.R;
    if (c > g_.R * kMaxChunkRuns) c = g_.R * kMaxChunkRuns;
    C_ = c;
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
        for (uint32_t dz = dz0; dz < dz1; ++dz)
          for (uint32_t dy = dy0; dy < dy1; ++dy) {
            adjusted_row(r_, dy, dz, &y, &z);
            rows_[n].rp = row_part(r_, g_, y, z);
            rows_[n].lin = r_.lin + dz * r_.lin_depth_pitch + dy * r_.lin_row_pitch;
            ++n;
          }
        const bool full_groups = (dy1 - dy0) == Hy && Hy >= 4;
        Strip(n, full_groups);
        dy0 = dy1;
      }
      dz0 = dz1;
    }
  }

 private:
  void SetupStreaming() {
    const bool to_swz = dir_ == Direction::ToSwizzled;
    uint64_t bits;
    if (to_swz) {
      bits = reinterpret_cast<uintptr_t>(r_.swz) | g_.R;
    } else {
      bits = (reinterpret_cast<uintptr_t>(r_.lin) - g_.xa0) | g_.R;
      if (r_.h > 1) bits |= r_.lin_row_pitch;
      if (r_.d > 1) bits |= r_.lin_depth_pitch;
    }
    const uint64_t align = bits & (~bits + 1);  // lowest set bit
    stream16_ = r_.streaming && align >= 16;
    stream64_ = r_.streaming && align >= 64;
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
    const bool to_swz = dir_ == Direction::ToSwizzled;
    const bool de_lines = !to_swz && Mv::kHasLine && t_.line_kernels && R == 16;
    // First linear-line boundary at or after fa (deswizzle).
    uint64_t xs = fa;
    if (de_lines && line_phase_ok_) xs = fa + ((64 - ((fa + lin_phase_) & 63)) & 63);
    for (uint64_t c0 = fa; c0 < fb;) {
      uint64_t c1;
      if (to_swz) c1 = std::min(fb, (c0 & ~(C_ - 1)) + C_);
      else if (c0 < xs) c1 = std::min(fb, xs);
      else c1 = std::min(fb, c0 + C_);
      const unsigned nj = static_cast<unsigned>((c1 - c0) >> g_.rl);
      for (unsigned j = 0; j < nj; ++j) cols_[j] = col_part(g_, c0 + uint64_t{j} * R);
      const bool lines_here = de_lines && (c0 >= xs);
      switch (g_.mode) {
        case Mode::Add: Chunk<Mode::Add>(n, nj, c0, full_groups, lines_here); break;
        case Mode::Or: Chunk<Mode::Or>(n, nj, c0, full_groups, lines_here); break;
        default: Chunk<Mode::Xor>(n, nj, c0, full_groups, lines_here); break;
      }
      c0 = c1;
    }
    if (fb < xa1 && fb >= fa)
      for (unsigned i = 0; i < n; ++i) copy_piece(r_, g_, rows_[i].rp, rows_[i].lin, fb, xa1, dir_);
  }

  template <Mode M>
  void Chunk(unsigned n, unsigned nj, uint64_t c0, bool full_groups, bool de_lines) {
    const bool to_swz = dir_ == Direction::ToSwizzled;
    if (to_swz) {
      if (Mv::kHasLine && t_.line_kernels && g_.q4 && full_groups) return SwizzleQ4<M>(n, nj, c0);
    } else if (de_lines) {
      return DeswizzleLines<M>(n, nj, c0);
    }
    switch (g_.rl) {
      case 0: return General<M, 1>(n, nj, c0);
      case 1: return General<M, 2>(n, nj, c0);
      case 2: return General<M, 4>(n, nj, c0);
      case 3: return General<M, 8>(n, nj, c0);
      case 4: return General<M, 16>(n, nj, c0);
      case 5: return General<M, 32>(n, nj, c0);
      default: return General<M, 0>(n, nj, c0);  // 0: runtime length, multiple of 64
    }
  }

  template <size_t N>
  HWY_SWZ_INLINE void Move(uint8_t* dst, const uint8_t* src, bool stream) {
    if constexpr (N == 0) Mv::RunN(dst, src, g_.R, stream);
    else Mv::template Run<N>(dst, src, stream);
  }

  template <Mode M, size_t N>
  void General(unsigned n, unsigned nj, uint64_t c0) {
    const uint64_t R = g_.R;
    const uint64_t x0 = c0 - g_.xa0;
    uint8_t* const swz = r_.swz;
    if (dir_ == Direction::ToSwizzled) {
      const bool st = (N == 0 ? stream64_ : stream16_) && (N == 0 || N >= 16);
      for (unsigned j = 0; j < nj; ++j) {
        const ColPart c = cols_[j];
        const uint64_t xo = x0 + j * R;
        if (st) {
          for (unsigned i = 0; i < n; ++i) Move<N>(swz + addr<M>(rows_[i].rp, c), rows_[i].lin + xo, true);
        } else {
          for (unsigned i = 0; i < n; ++i) Move<N>(swz + addr<M>(rows_[i].rp, c), rows_[i].lin + xo, false);
        }
      }
    } else {
      const bool st = (N == 0 ? stream64_ : stream16_) && (N == 0 || N >= 16);
      for (unsigned i = 0; i < n; ++i) {
        const RowPart rp = rows_[i].rp;
        uint8_t* l = rows_[i].lin + x0;
        if (st) {
          for (unsigned j = 0; j < nj; ++j) Move<N>(l + j * R, swz + addr<M>(rp, cols_[j]), true);
        } else {
          for (unsigned j = 0; j < nj; ++j) Move<N>(l + j * R, swz + addr<M>(rp, cols_[j]), false);
        }
      }
    }
  }

  // Four aligned rows per 64-byte destination line (q4 shape), rows_ holds
  // whole groups of four consecutive rows (same z).
  template <Mode M>
  void SwizzleQ4(unsigned n, unsigned nj, uint64_t c0) {
    const uint64_t x0 = c0 - g_.xa0;
    uint8_t* const swz = r_.swz;
    const bool st = stream64_;
    for (unsigned j = 0; j < nj; ++j) {
      const ColPart c = cols_[j];
      const uint64_t xo = x0 + j * 16;
      for (unsigned i = 0; i + 4 <= n; i += 4) {
        uint8_t* dst = swz + addr<M>(rows_[i].rp, c);
        Mv::Line4(dst, rows_[i].lin + xo, rows_[i + 1].lin + xo, rows_[i + 2].lin + xo, rows_[i + 3].lin + xo, st);
      }
    }
  }

  // R == 16: each row's linear bytes written as whole 64-byte lines.
  template <Mode M>
  void DeswizzleLines(unsigned n, unsigned nj, uint64_t c0) {
    const uint64_t x0 = c0 - g_.xa0;
    const uint8_t* const swz = r_.swz;
    const bool stl = r_.streaming && line_phase_ok_;
    const bool st = stream16_;
    for (unsigned i = 0; i < n; ++i) {
      const RowPart rp = rows_[i].rp;
      uint8_t* l = rows_[i].lin + x0;
      unsigned j = 0;
      for (; j + 4 <= nj; j += 4)
        Mv::Line4(l + j * 16, swz + addr<M>(rp, cols_[j]), swz + addr<M>(rp, cols_[j + 1]),
                  swz + addr<M>(rp, cols_[j + 2]), swz + addr<M>(rp, cols_[j + 3]), stl);
      for (; j < nj; ++j) Mv::template Run<16>(l + j * 16, swz + addr<M>(rp, cols_[j]), st);
    }
  }

  const Region& r_;
  Direction dir_;
  const Tuning& t_;
  Geo g_;
  unsigned hy_ = 0, hz_ = 0;
  uint64_t C_ = 512;
  bool stream16_ = false, stream64_ = false;
  bool line_phase_ok_ = false;
  uint64_t lin_phase_ = 0;
  StripRow rows_[kMaxStripRows];
  ColPart cols_[kMaxChunkRuns];
};
