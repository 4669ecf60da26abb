// Shared parts of identify() and infer() (include/swz/identify.hpp): the
// candidate layouts tried for a texture, and fast per-texel address tables.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz::ident {

/// A name to try: the layout string, an explicit row pitch for layouts that
/// take one, and how "simple" it is (fewer parameters, shorter name first).
struct CandidateName {
  std::string name;
  uint64_t row_pitch_B = 0;
  uint32_t params = 0;
  uint32_t order = 0;  ///< position in the listing (row-major, std64k, std4k, families)
};

/// Every name worth trying for a width x height 2D texture of `format`
/// (built-ins, each family with its parameter sweeps, row-major pitches).
std::vector<CandidateName> candidate_names(const FormatInfo& format, uint32_t width_px, uint32_t height_px);

/// Address of element (x, y) of mip 0, relative to the layout start:
/// base + ((col_a[x] + row_a[y]) ^ (col_g[x] ^ row_g[y])), the Plan's
/// formula with the pre-swizzle, immediate and Z folded in.
struct AddressTables {
  uint64_t base = 0;
  std::vector<uint64_t> col_a, row_a;
  std::vector<uint32_t> col_g, row_g;
  uint64_t at(uint32_t x, uint32_t y) const { return base + ((col_a[x] + row_a[y]) ^ uint64_t{col_g[x] ^ row_g[y]}); }
};

/// Tables of subresource 0 of a single-subresource 2D layout (unsupported otherwise).
Status make_tables(const Layout& layout, AddressTables* out);

/// Lays out `n` for a width x height 2D texture of `format`.
Status make_candidate(const CandidateName& n, const FormatInfo& format, uint32_t width_px, uint32_t height_px,
                      Layout* out);

/// "simpler" order: fewer parameters, then default pitch, then listing order.
bool simpler(const CandidateName& a, const CandidateName& b);

}  // namespace swz::ident
