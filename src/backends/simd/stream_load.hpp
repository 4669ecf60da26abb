// swz internal — reading write-combined (uncached) memory with streaming
// loads. A separate path from the SIMD walker: read_from_subresource with
// CopyOptions::write_combined first copies the subresource out of WC memory
// with these loads, then converts from the cached copy.
#pragma once
#include <cstdint>

namespace swz::detail {

/// Copies n bytes from `src` (typically write-combined memory) to `dst` with
/// 16-byte streaming loads (SSE4.1 movntdqa) where the CPU has them, else
/// memcpy. `threads` > 1 splits the copy into contiguous parts.
void stream_load_copy(void* dst, const void* src, uint64_t n, unsigned threads);

}  // namespace swz::detail
