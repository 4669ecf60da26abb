// Test oracle: the swizzle shader's arithmetic on the CPU (gpu_emulate.cpp).
#pragma once
#include <cstdint>

#include "backends/vulkan/gpu_plan.hpp"

namespace swz::gpu::detail {

/// Runs the shader's arithmetic over host copies of the bound ranges of `d`.
/// `to_swizzled` picks the direction.
void emulate(const SwizzleDispatch& d, bool to_swizzled, uint8_t* swz_bound, uint8_t* lin_bound);

}  // namespace swz::gpu::detail
