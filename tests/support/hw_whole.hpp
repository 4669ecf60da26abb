// Whole-resource checks for the hardware layout families (tests/hw): every
// element of every subresource claims its bytes (no byte claimed twice, none
// past the resource), and every subresource round-trips through the copies
// with guard bytes after the resource.
#pragma once
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "swz/swz.hpp"

namespace swz_test {

/// A hardware-family layout by name (make_named_layout). A refusal is a
/// failure of the calling test naming the spec, and it ends that test by an
/// exception (GoogleTest reports it and runs the next test): an empty layout
/// handed back would make the caller read subresources it does not have.
inline swz::Layout named(const std::string& spec, const swz::TextureDesc& d) {
  swz::Layout L;
  const swz::Status st = swz::make_named_layout(spec, d, &L);
  if (!st.ok()) {
    ADD_FAILURE() << spec << ": " << st.message();
    throw std::runtime_error("named(\"" + spec + "\") refused: " + st.message());
  }
  return L;
}

/// Every element's bytes (element_offset .. + element_bytes) of every
/// subresource, claimed in a bitmap of the resource: fails on the first byte
/// claimed twice or outside the resource, naming both owners.
inline ::testing::AssertionResult claim_bytes(const swz::Layout& L) {
  std::vector<uint32_t> owner(L.size(), 0);  // subresource + 1, 0 = free
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const swz::SubresourceLayout& s = L.sub(i);
    if (s.packed) continue;
    for (uint32_t z = 0; z < s.depth; ++z)
      for (uint32_t y = 0; y < s.height_el; ++y)
        for (uint32_t x = 0; x < s.width_el; ++x) {
          uint64_t off = 0;
          swz::Status st = swz::element_offset(L, i, x, y, z, 0, &off);
          if (!st.ok()) return ::testing::AssertionFailure() << L.name() << ": element_offset: " << st.message();
          for (uint32_t b = 0; b < s.element_bytes; ++b) {
            const uint64_t a = off + b;
            if (a >= L.size())
              return ::testing::AssertionFailure()
                     << L.name() << ": subresource " << i << " element " << x << "," << y << "," << z
                     << " reaches byte " << a << " past the resource (" << L.size() << ")";
            if (owner[a])
              return ::testing::AssertionFailure()
                     << L.name() << ": byte " << a << " claimed by subresource " << owner[a] - 1
                     << " and by subresource " << i << " element " << x << "," << y << "," << z;
            owner[a] = i + 1;
          }
        }
  }
  return ::testing::AssertionSuccess();
}

/// Writes random bytes to every subresource, checks the guard bytes after
/// the resource, reads every subresource back.
inline void round_trip_all(const swz::Layout& L, uint32_t seed = 5) {
  std::vector<uint8_t> res(L.size() + 64, 0xcd);
  std::mt19937 rng(seed);
  std::vector<std::vector<uint8_t>> srcs;
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const swz::SubresourceLayout& s = L.sub(i);
    const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
    std::vector<uint8_t> src(slice * s.depth);
    for (auto& b : src) b = static_cast<uint8_t>(rng());
    swz::Status st = swz::write_to_subresource(L, res.data(), L.size(), i, nullptr, src.data(), src.size(), row, slice);
    ASSERT_TRUE(st.ok()) << L.name() << " subresource " << i << ": " << st.message();
    srcs.push_back(std::move(src));
  }
  for (size_t k = L.size(); k < res.size(); ++k) ASSERT_EQ(res[k], 0xcd) << L.name() << ": guard byte " << k;
  for (uint32_t i = 0; i < L.subresource_count(); ++i) {
    const swz::SubresourceLayout& s = L.sub(i);
    const uint64_t row = uint64_t{s.width_el} * s.element_bytes, slice = row * s.height_el;
    std::vector<uint8_t> dst(slice * s.depth, 0);
    swz::Status st =
        swz::read_from_subresource(dst.data(), dst.size(), row, slice, L, res.data(), L.size(), i, nullptr);
    ASSERT_TRUE(st.ok()) << L.name() << " subresource " << i << ": " << st.message();
    ASSERT_EQ(dst, srcs[i]) << L.name() << " subresource " << i;
  }
}

}  // namespace swz_test
