// swz internal — what the C API's files share (defined in swz_c.cpp).
#pragma once
#include <type_traits>

#include "swz/layout.hpp"
#include "swz/status.hpp"
#include "swz/swz.h"

namespace swz_capi {
/// The layout behind a handle; null for a null handle.
const swz::Layout* layout_of(const swz_layout* l) noexcept;
/// Runs fn(ctx) with every exception turned into a status, and records the
/// message of a failure for swz_last_error.
swz_status run_guarded(swz::Status (*fn)(void*), void* ctx) noexcept;

/// run_guarded for a lambda.
template <class F>
swz_status guarded(F&& f) noexcept {
  using Fn = std::remove_reference_t<F>;
  return run_guarded([](void* c) { return (*static_cast<Fn*>(c))(); }, const_cast<void*>(static_cast<const void*>(&f)));
}
}  // namespace swz_capi
