// Plan::compile: a validated pattern turned into tables (docs/ARCHITECTURE.md §8).
#include "core/plan.hpp"

#include <bit>

namespace swz {

Status Plan::compile(const Pattern& p, uint32_t element_bytes, std::shared_ptr<const Plan>* out) {
  SWZ_TRY(validate(p, element_bytes));
  auto plan = std::make_shared<Plan>();
  Plan& q = *plan;
  q.pattern_ = p;
  q.element_bytes = element_bytes;
  q.element_log2 = -1;
  for (int k = 0; k < 5; ++k)
    if (element_bytes == (1u << k)) q.element_log2 = k;
  const unsigned n = p.block_bits();
  q.block_bits = n;
  q.block_bytes = uint64_t{1} << n;
  auto ext = p.block_extent();
  for (int c = 0; c < 4; ++c) {
    unsigned l = 0;
    while ((uint64_t{1} << l) < ext[c]) ++l;
    q.ext_log2[c] = l;
  }
  q.immediate = p.immediate;
  q.stack_depth = p.stack_depth_slices();
  q.conditional_postamble = (p.flags & kFlagConditionalPostamble) != 0;
  // lin[c][b]: address bits that coordinate bit b of channel c flips.
  for (unsigned i = 0; i < n; ++i) {
    const BitEntry& e = p.interleave[i];
    q.lin[e.channel][e.bit] ^= 1u << i;
    for (int j = 0; j < 4; ++j) {
      const BitEntry& x = p.xors[j][i];
      if (x.valid) q.lin[x.channel][x.bit] ^= 1u << i;
    }
  }
  for (unsigned i = 8; i < 24; ++i)
    for (int j = 0; j < 2; ++j) {
      const BitEntry& x = p.postamble[j][i];
      if (x.valid) q.lin[x.channel][x.bit] ^= 1u << i;
    }
  // Each entry is the entry without its lowest set bit, XOR that bit's column.
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < 4; ++k) {
      q.g_tab[c][k][0] = 0;
      for (unsigned v = 1; v < 256; ++v)
        q.g_tab[c][k][v] = q.g_tab[c][k][v & (v - 1)] ^ q.lin[c][8 * k + std::countr_zero(v)];
    }
  const uint32_t in_block = n >= 32 ? 0xffffffffu : ((1u << n) - 1);
  q.high_mask = 0;
  for (int c = 0; c < 4; ++c)
    for (int b = 0; b < 32; ++b) q.high_mask |= q.lin[c][b] & ~in_block;
  // Contiguous run: largest r with lin[0][i] == 1<<i for i < r, no other
  // coordinate bit touching address bits < r, immediate clear below r.
  unsigned r = 0;
  while (r < q.ext_log2[0] && r < n) {
    bool ok = q.lin[0][r] == (1u << r) && !(q.immediate & (1u << r));
    for (int c = 0; c < 4 && ok; ++c)
      for (int b = 0; b < 32 && ok; ++b)
        if (!(c == 0 && b == static_cast<int>(r)) && (q.lin[c][b] & (1u << r))) ok = false;
    if (!ok) break;
    ++r;
  }
  q.run_log2 = r;
  // Row-linear: every in-block address bit is the identity of an X bit and
  // no coordinate of X touches anything else (row-major patterns).
  q.row_linear = (r == n) && (r == q.ext_log2[0]) && q.high_mask == 0;
  for (int b = static_cast<int>(q.ext_log2[0]); b < 32 && q.row_linear; ++b)
    if (q.lin[0][b] != 0) q.row_linear = false;
  // Inverse of the in-block map. Build the n x n matrix M mapping in-block
  // coordinate bits (ordered by channel, bit) to address bits; invert by
  // Gauss-Jordan over GF(2).
  struct Col {
    int c;
    int b;
  };
  std::vector<Col> coords;
  for (int c = 0; c < 4; ++c)
    for (unsigned b = 0; b < q.ext_log2[c]; ++b) coords.push_back({c, static_cast<int>(b)});
  // rows[k] = address bits of coordinate bit k (restricted to < n), aug[k] = unit k
  std::vector<uint64_t> rows(coords.size()), aug(coords.size());
  for (size_t k = 0; k < coords.size(); ++k) {
    rows[k] = q.lin[coords[k].c][coords[k].b] & in_block;
    aug[k] = uint64_t{1} << k;
  }
  // Solve: for each address bit i find the combination of coordinate bits whose
  // image is exactly bit i.  Gauss-Jordan on rows by address-bit pivot.
  std::vector<int> pivot_row(n, -1);
  size_t rank = 0;
  for (unsigned i = 0; i < n; ++i) {
    size_t piv = rank;
    while (piv < rows.size() && !(rows[piv] & (uint64_t{1} << i))) ++piv;
    if (piv == rows.size()) return {Code::internal, "plan: in-block map not invertible after validation"};
    std::swap(rows[rank], rows[piv]);
    std::swap(aug[rank], aug[piv]);
    for (size_t k = 0; k < rows.size(); ++k)
      if (k != rank && (rows[k] & (uint64_t{1} << i))) {
        rows[k] ^= rows[rank];
        aug[k] ^= aug[rank];
      }
    pivot_row[i] = static_cast<int>(rank);
    ++rank;
  }
  for (unsigned i = 0; i < n; ++i) {
    uint64_t combo = aug[pivot_row[i]];
    for (size_t k = 0; k < coords.size(); ++k)
      if (combo & (uint64_t{1} << k)) q.inverse[i][coords[k].c] |= 1u << coords[k].b;
  }
  *out = std::move(plan);
  return Status::Ok();
}

}  // namespace swz
