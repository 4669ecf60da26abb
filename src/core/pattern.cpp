// Pattern model: block geometry, DDI byte forms, validation (docs/ARCHITECTURE.md §2).
#include <cstdio>
#include <string>

#include "swz/pattern.hpp"

namespace swz {
namespace {

const char kChan[4] = {'X', 'Y', 'Z', 'S'};

std::string term_name(const BitEntry& e) { return std::string(1, kChan[e.channel & 3]) + std::to_string(e.bit); }

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

const char* xor_field(int j) {
  static const char* const names[4] = {"InterleavePatternXORSourceBits", "InterleavePatternXOR2SourceBits",
                                       "InterleavePatternXOR3SourceBits", "InterleavePatternXOR4SourceBits"};
  return names[j];
}
const char* post_field(int j) { return j == 0 ? "PostambleXORSourceBits" : "PostambleXOR2SourceBits"; }

uint32_t rd32(const uint8_t* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24); }
void wr32(std::vector<uint8_t>& v, uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
}

}  // namespace

unsigned Pattern::block_bits() const {
  unsigned n = 0;
  while (n < 32 && interleave[n].valid) ++n;
  return n;
}

std::array<uint64_t, 4> Pattern::block_extent() const {
  std::array<unsigned, 4> cnt{};
  unsigned n = block_bits();
  for (unsigned i = 0; i < n; ++i) cnt[interleave[i].channel & 3]++;
  std::array<uint64_t, 4> e{};
  for (int c = 0; c < 4; ++c) e[c] = uint64_t{1} << cnt[c];
  return e;
}

Status from_ddi_bytes(std::span<const uint8_t> b, Pattern* out) {
  Pattern p;
  if (b.size() == kDdiBytes0022) {
    for (int i = 0; i < 32; ++i) p.interleave[i] = BitEntry::from_byte(b[i]);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 32; ++i) p.xors[j][i] = BitEntry::from_byte(b[32 * (j + 1) + i]);
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 32; ++i) p.postamble[j][i] = BitEntry::from_byte(b[32 * (j + 5) + i]);
    p.immediate = rd32(&b[224]);
    p.flags = rd32(&b[228]);
  } else if (b.size() == kDdiBytesLegacy) {
    for (int i = 0; i < 32; ++i) p.interleave[i] = BitEntry::from_byte(b[i]);
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 32; ++i) p.xors[j][i] = BitEntry::from_byte(b[32 * (j + 1) + i]);
    p.immediate = rd32(&b[96]);
    p.flags = rd32(&b[100]);
  } else {
    return {Code::parse_error, "DDI pattern bytes: length " + std::to_string(b.size()) + " is neither " +
                                   std::to_string(kDdiBytes0022) + " (D3D12DDI_SWIZZLE_PATTERN_DESC_0022) nor " +
                                   std::to_string(kDdiBytesLegacy) + " (D3D12DDI_SWIZZLE_PATTERN_DESC)"};
  }
  *out = p;
  return Status::Ok();
}

std::vector<uint8_t> to_ddi_bytes_0022(const Pattern& p) {
  std::vector<uint8_t> v;
  v.reserve(kDdiBytes0022);
  for (auto& e : p.interleave) v.push_back(e.to_byte());
  for (auto& a : p.xors)
    for (auto& e : a) v.push_back(e.to_byte());
  for (auto& a : p.postamble)
    for (auto& e : a) v.push_back(e.to_byte());
  wr32(v, p.immediate);
  wr32(v, p.flags);
  return v;
}

Status to_ddi_bytes_legacy(const Pattern& p, std::vector<uint8_t>* out) {
  for (int j = 2; j < 4; ++j)
    for (int i = 0; i < 32; ++i)
      if (p.xors[j][i].to_byte() != 0)
        return {Code::unsupported, std::string(xor_field(j)) + "[" + std::to_string(i) +
                                       "] is set; the 104-byte D3D12DDI_SWIZZLE_PATTERN_DESC has no such chain"};
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 32; ++i)
      if (p.postamble[j][i].to_byte() != 0)
        return {Code::unsupported, std::string(post_field(j)) + "[" + std::to_string(i) +
                                       "] is set; the 104-byte D3D12DDI_SWIZZLE_PATTERN_DESC has no postamble"};
  std::vector<uint8_t> v;
  v.reserve(kDdiBytesLegacy);
  for (auto& e : p.interleave) v.push_back(e.to_byte());
  for (int j = 0; j < 2; ++j)
    for (auto& e : p.xors[j]) v.push_back(e.to_byte());
  wr32(v, p.immediate);
  wr32(v, p.flags);
  *out = std::move(v);
  return Status::Ok();
}

// GF(2) rank of up to 32 row vectors of width 32 (bits). Returns rank.
static unsigned gf2_rank(std::vector<uint64_t> rows) {
  unsigned rank = 0;
  for (int bit = 63; bit >= 0; --bit) {
    uint64_t m = uint64_t{1} << bit;
    size_t piv = rank;
    while (piv < rows.size() && !(rows[piv] & m)) ++piv;
    if (piv == rows.size()) continue;
    std::swap(rows[rank], rows[piv]);
    for (size_t r = 0; r < rows.size(); ++r)
      if (r != rank && (rows[r] & m)) rows[r] ^= rows[rank];
    ++rank;
  }
  return rank;
}

Status validate(const Pattern& p, uint32_t element_bytes) {
  const unsigned n = p.block_bits();
  // Interleave entries form a prefix; fields in range.
  for (unsigned i = n; i < 32; ++i)
    if (p.interleave[i].valid)
      return {Code::invalid_argument, "InterleavePatternSourceBits[" + std::to_string(i) +
                                          "] is valid after invalid entry " + std::to_string(n) +
                                          ": valid entries must be a prefix"};
  // Field names are built only for an entry that fails: validate runs for every layout and
  // plan, and naming all 224 entries up front would be most of its cost.
  auto field = [](const char* base, unsigned i) { return std::string(base) + "[" + std::to_string(i) + "]"; };
  auto check_entry = [&](const BitEntry& e, const char* base, unsigned i) -> Status {
    if (e.valid && e.bit > 31)
      return {Code::invalid_argument,
              field(base, i) + ".SourceBitIndex = " + std::to_string(e.bit) + " (must be < 32)"};
    if (e.valid && e.channel > 3)
      return {Code::invalid_argument, field(base, i) + ".ChannelIndex = " + std::to_string(e.channel)};
    return Status::Ok();
  };
  for (unsigned i = 0; i < 32; ++i) {
    SWZ_TRY(check_entry(p.interleave[i], "InterleavePatternSourceBits", i));
    for (int j = 0; j < 4; ++j) {
      const BitEntry& e = p.xors[j][i];
      SWZ_TRY(check_entry(e, xor_field(j), i));
      if (e.valid && i >= n)
        return {Code::invalid_argument, field(xor_field(j), i) + " = " + term_name(e) +
                                            " is valid past the end of the interleave pattern (" + std::to_string(n) +
                                            " bits)"};
    }
    for (int j = 0; j < 2; ++j) {
      const BitEntry& e = p.postamble[j][i];
      SWZ_TRY(check_entry(e, post_field(j), i));
      if (e.valid && (i < 8 || i > 23))
        return {Code::invalid_argument,
                field(post_field(j), i) + " = " + term_name(e) + ": postamble terms apply only to address bits 8..23"};
    }
  }
  if (p.flags & ~uint32_t{kFlagStackDepthSlices | kFlagConditionalPostamble})
    return {Code::invalid_argument,
            "Flags = " + hex(p.flags) +
                " has unknown bits (known: 0x1 STACK_DEPTH_SLICES, 0x2 CONDITIONAL_POSTAMBLE_XORS)"};
  if (n < 32 && (uint64_t{p.immediate} >> n) != 0)
    return {Code::invalid_argument, "PostambleXORImmediate = " + hex(p.immediate) + " is not below the block size 2^" +
                                        std::to_string(n) + " (it would carry into the next block)"};
  // Element rule: bytes of one element stay together and in order.
  if (element_bytes == 0 || element_bytes > 16)
    return {Code::invalid_argument, "element size = " + std::to_string(element_bytes) + " bytes (1..16)"};
  unsigned k = 0;
  if ((element_bytes & (element_bytes - 1)) == 0) {
    while ((1u << k) < element_bytes) ++k;
  }
  if (n < k)
    return {Code::invalid_argument, "interleave pattern has " + std::to_string(n) + " bits but " +
                                        std::to_string(element_bytes) + "-byte elements need at least " +
                                        std::to_string(k) + " (X0..X" + std::to_string(k - 1) + ")"};
  for (unsigned i = 0; i < k; ++i) {
    const BitEntry& e = p.interleave[i];
    if (e.channel != 0 || e.bit != i)
      return {Code::invalid_argument, "InterleavePatternSourceBits[" + std::to_string(i) + "] = " + term_name(e) +
                                          ": with " + std::to_string(element_bytes) +
                                          "-byte elements address bits 0.." + std::to_string(k - 1) + " must be X0..X" +
                                          std::to_string(k - 1)};
    for (int j = 0; j < 4; ++j)
      if (p.xors[j][i].valid)
        return {Code::invalid_argument, std::string(xor_field(j)) + "[" + std::to_string(i) +
                                            "] = " + term_name(p.xors[j][i]) + ": address bits inside a " +
                                            std::to_string(element_bytes) + "-byte element take no XOR terms"};
  }
  if (k > 0 && (p.immediate & ((1u << k) - 1)) != 0)
    return {Code::invalid_argument, "PostambleXORImmediate = " + hex(p.immediate) +
                                        " has bits below the element size (" + std::to_string(element_bytes) +
                                        " bytes)"};
  // No term (XOR chain or postamble) may read a byte-in-element bit.
  auto reads_byte_in_element = [&](const BitEntry& e, const char* field_name, unsigned i) -> Status {
    if (e.valid && e.channel == 0 && e.bit < k)
      return {Code::invalid_argument, std::string(field_name) + "[" + std::to_string(i) + "] = " + term_name(e) +
                                          " reads a byte-in-element bit of a " + std::to_string(element_bytes) +
                                          "-byte element"};
    return Status::Ok();
  };
  for (unsigned i = 0; i < 32; ++i) {
    for (int j = 0; j < 4; ++j) SWZ_TRY(reads_byte_in_element(p.xors[j][i], xor_field(j), i));
    for (int j = 0; j < 2; ++j) SWZ_TRY(reads_byte_in_element(p.postamble[j][i], post_field(j), i));
  }
  // Stacked depth: no Z primaries (spec: "the interleave patterns must not contain any bits from the Z dimension").
  if (p.stack_depth_slices()) {
    for (unsigned i = 0; i < n; ++i) {
      if (p.interleave[i].channel == 2)
        return {Code::invalid_argument, "InterleavePatternSourceBits[" + std::to_string(i) +
                                            "] = " + term_name(p.interleave[i]) +
                                            ": STACK_DEPTH_SLICES patterns must not use Z bits"};
      for (int j = 0; j < 4; ++j)
        if (p.xors[j][i].valid && p.xors[j][i].channel == 2)
          return {Code::invalid_argument, std::string(xor_field(j)) + "[" + std::to_string(i) +
                                              "] = " + term_name(p.xors[j][i]) +
                                              ": STACK_DEPTH_SLICES patterns must not use Z bits"};
    }
    for (int j = 0; j < 2; ++j)
      for (unsigned i = 0; i < 32; ++i)
        if (p.postamble[j][i].valid && p.postamble[j][i].channel == 2)
          return {Code::invalid_argument, std::string(post_field(j)) + "[" + std::to_string(i) +
                                              "] = " + term_name(p.postamble[j][i]) +
                                              ": STACK_DEPTH_SLICES patterns must not use Z bits"};
  }
  // Primaries: each channel's primaries must be exactly bits 0..m-1 of that
  // channel (the block extent is 2^m), each once.
  std::array<uint32_t, 4> seen{};
  std::array<unsigned, 4> cnt{};
  for (unsigned i = 0; i < n; ++i) {
    const BitEntry& e = p.interleave[i];
    uint32_t m = 1u << e.bit;
    if (seen[e.channel] & m)
      return {Code::invalid_argument, "InterleavePatternSourceBits[" + std::to_string(i) + "] = " + term_name(e) +
                                          " repeats a primary source bit: the pattern is not a bijection" +
                                          " (addrlib-style equations list terms in arbitrary order; use canonicalize)"};
    seen[e.channel] |= m;
    cnt[e.channel]++;
  }
  for (int c = 0; c < 4; ++c) {
    uint32_t want = cnt[c] >= 32 ? 0xffffffffu : ((1u << cnt[c]) - 1);
    if (seen[c] != want) {
      unsigned missing = 0;
      while (seen[c] & (1u << missing)) ++missing;
      return {Code::invalid_argument,
              std::string("InterleavePatternSourceBits: channel ") + kChan[c] + " uses " + std::to_string(cnt[c]) +
                  " primary bits but " + kChan[c] + std::to_string(missing) +
                  " is missing: a channel's primaries must be its bits 0.." + std::to_string(cnt[c] - 1) +
                  " (addrlib-style equations list terms in arbitrary order; use canonicalize)"};
    }
  }
  // GF(2) invertibility of the in-block map: rows = in-block coordinate bits,
  // columns = address bits < n (primaries, XOR terms and postamble terms that
  // land inside the block).
  std::vector<uint64_t> rows;
  for (int c = 0; c < 4; ++c)
    for (unsigned b = 0; b < cnt[c]; ++b) {
      uint64_t row = 0;
      for (unsigned i = 0; i < n; ++i) {
        auto hits = [&](const BitEntry& e) { return e.valid && e.channel == c && e.bit == b; };
        bool v = hits(p.interleave[i]);
        for (int j = 0; j < 4; ++j) v ^= hits(p.xors[j][i]);
        if (i >= 8 && i <= 23)
          for (int j = 0; j < 2; ++j) v ^= hits(p.postamble[j][i]);
        if (v) row |= uint64_t{1} << i;
      }
      rows.push_back(row);
    }
  if (gf2_rank(rows) != n) {
    // Name the address bits involved: columns (address bits) over the rows;
    // eliminate while tracking which columns were combined; the first column
    // that reduces to zero gives a dependent set.
    std::vector<uint64_t> cols(n, 0);
    for (size_t r = 0; r < rows.size(); ++r)
      for (unsigned i = 0; i < n; ++i)
        if (rows[r] & (uint64_t{1} << i)) cols[i] |= uint64_t{1} << r;
    std::vector<std::pair<uint64_t, uint64_t>> basis;  // (vector, combination of address bits)
    std::string which;
    for (unsigned i = 0; i < n && which.empty(); ++i) {
      uint64_t v = cols[i], comb = uint64_t{1} << i;
      for (auto& [bv, bc] : basis)
        if (v & (bv & (~bv + 1))) {
          v ^= bv;
          comb ^= bc;
        }
      if (v == 0) {
        for (unsigned j = 0; j < n; ++j)
          if (comb & (uint64_t{1} << j)) which += (which.empty() ? "" : ", ") + std::to_string(j);
      } else {
        // keep basis vectors with distinct lowest set bits
        for (auto& [bv, bc] : basis)
          if (bv & (v & (~v + 1))) {
            bv ^= v;
            bc ^= comb;
          }
        basis.push_back({v, comb});
      }
    }
    return {Code::invalid_argument, "interleave pattern is singular over GF(2): address bits {" + which +
                                        "} depend on the same coordinate bits, so two coordinates share an address"
                                        " (addrlib-style equations list terms in arbitrary order: use canonicalize)"};
  }
  if (element_bytes != 0 && (element_bytes & (element_bytes - 1)) == 0 && element_bytes > 16)
    return {Code::invalid_argument, "element size = " + std::to_string(element_bytes) + " bytes (at most 16)"};
  return Status::Ok();
}

}  // namespace swz
