// swz internal — the integer helpers every size computation uses: 64-bit
// overflow-checked add/multiply, rounding up. One definition for the whole
// library (sizes and offsets are 64-bit; an overflow is reported, never
// wrapped).
#pragma once
#include <cstdint>

namespace swz::detail {

/// *out = a * b; false when the product does not fit in 64 bits.
inline bool mul_ok(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_mul_overflow(a, b, out); }
/// *out = a + b; false when the sum does not fit in 64 bits.
inline bool add_ok(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_add_overflow(a, b, out); }
/// a / b rounded up (b > 0); never overflows.
inline uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }
/// v rounded up to a multiple of a (a > 0); the caller knows it fits.
inline uint64_t align_up(uint64_t v, uint64_t a) { return a <= 1 ? v : ceil_div(v, a) * a; }
/// *out = v rounded up to a multiple of a (a > 0); false on overflow.
inline bool align_up(uint64_t v, uint64_t a, uint64_t* out) {
  uint64_t t;
  if (!add_ok(v, a - 1, &t)) return false;
  *out = t / a * a;
  return true;
}

}  // namespace swz::detail
