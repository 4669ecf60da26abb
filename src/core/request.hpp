// swz internal — the rules every request passes through, written once:
// what each operation may do with a subresource (the capability table), and
// whether the memory a call reads and the memory it writes overlap.
//
// Every entry point (the C++ copies, surfaces, region and tile copies,
// footprints, copy_resources, clears, resolves, the address queries, the GPU
// path, and through them the C API, Python and the CLI) asks these functions,
// so that one question gets one answer everywhere (docs/ARCHITECTURE.md,
// "One path").
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "swz/layout.hpp"
#include "swz/status.hpp"

namespace swz::detail {

/// The operations whose capabilities differ. Each row of the table in
/// request.cpp says which subresources and patterns the operation accepts.
enum class Operation {
  SubresourceCopy,  ///< write_to_subresource / read_from_subresource, surfaces, footprints, copy_resources, GPU
  RegionCopy,       ///< copy_regions (CopyTextureRegion between two layouts)
  TileCopy,         ///< copy_tiles (CopyTiles)
  Clear,            ///< clear_subresources (ClearTextureSubresources)
  ResolveSource,    ///< the multisampled side of resolve_subresource
  ResolveDest,      ///< the single-sampled side of resolve_subresource
  Address,          ///< element_offset, AddressMap (coordinates -> bytes)
  Locate,           ///< Locator / locate (bytes -> coordinates; packed tail bytes are reported as packed)
};

/// `desc` with D3D12's "MipLevels = 0 is the full chain" applied: every
/// function that takes a TextureDesc reads its mip count through this, so that
/// Layout::desc() and every size computed from it hold the real count.
TextureDesc with_mip_chain(const TextureDesc& desc);

/// The operation's name in messages ("copy", "region copy", ...).
const char* operation_name(Operation op);

/// Whether `op` may touch subresource `subresource` of `layout`: the one
/// capability table. Refusals (Code::unsupported) name the subresource and
/// the reason: CONDITIONAL_POSTAMBLE_XORS (unspecified by the DDI: no
/// operation computes its addresses), the packed mip tail (adapter-specific),
/// MSAA (D3D12 refuses it in WriteToSubresource and the batched copies; a
/// resolve needs it on its source), stacked depth and pre-swizzle offsets
/// (no whole-tile grid for CopyTiles). `side` ("source", "destination" or
/// empty) prefixes the message. Errors for an index out of range as
/// Layout::subresource.
Status check_operation(const Layout& layout, uint32_t subresource, Operation op, const char* side = "");

/// A range of memory one call reads or writes: [begin_B, begin_B + size_B),
/// host addresses, or offsets in one device buffer. Its name for messages is
/// `what`, then `index` when set, then `suffix` (static texts: building a
/// range allocates nothing).
struct MemoryRange {
  static constexpr uint64_t kNoIndex = UINT64_MAX;
  uint64_t begin_B = 0;
  uint64_t size_B = 0;
  const char* what = "";
  uint64_t index = kNoIndex;
  const char* suffix = "";
  MemoryRange() = default;
  MemoryRange(uint64_t begin, uint64_t size, const char* w, uint64_t i = kNoIndex, const char* s = "")
      : begin_B(begin), size_B(size), what(w), index(i), suffix(s) {}
  MemoryRange(const void* begin, uint64_t size, const char* w, uint64_t i = kNoIndex, const char* s = "")
      : MemoryRange(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(begin)), size, w, i, s) {}
  std::string name() const;
};

/// The overlap rule: no byte a call writes may be a byte it reads or another
/// byte it writes. Checks every range of `writes` against every range of
/// `reads` and, unless `writes_may_share`, against the other writes, in
/// O(n log n). Empty ranges never overlap. Error: invalid_argument naming
/// both ranges and their addresses ("... share memory").
Status check_memory_disjoint(std::span<const MemoryRange> reads, std::span<const MemoryRange> writes,
                             bool writes_may_share = false);
/// The rule for one range read and one written (no allocation).
Status check_memory_disjoint(const MemoryRange& read, const MemoryRange& write);

/// True when [a, a + na) and [b, b + nb) share a byte.
bool memory_overlaps(const void* a, uint64_t na, const void* b, uint64_t nb);

/// A box of elements of one subresource (half-open on every axis), tagged with
/// the request entry it comes from and whether the entry writes it.
struct ElementSpan {
  uint32_t subresource = 0;
  uint64_t x0 = 0, y0 = 0, z0 = 0, x1 = 0, y1 = 0, z1 = 0;
  size_t entry = 0;
  bool write = false;
};

/// The first pair of spans in the same subresource that overlap where at
/// least one of the two is written (write-write or write-read), in
/// O(S log S) for S = the number of (span, slice range) pieces, where the
/// slice ranges lie between consecutive fronts and backs of the spans of a
/// subresource: at most a span's depth and at most 2 x the spans each (the
/// copy itself touches at least that many rows). Returns false when there is none;
/// else *a and *b are indices into `spans` (a written).
bool find_span_overlap(const std::vector<ElementSpan>& spans, size_t* a, size_t* b);

/// True when two layouts place every subresource identically (same size,
/// offsets, pitches, pre-swizzle offsets and patterns), so that one buffer
/// seen through either holds each subresource at the same bytes.
bool same_placement(const Layout& a, const Layout& b);

/// The linear side of a request: d slices of h_el rows of w_el elements of
/// element_B bytes, in a buffer of buffer_B bytes, rows row_pitch_B apart and
/// slices depth_pitch_B apart (0: tight; the tight depth pitch is h_el rows of
/// the pitch in use). A pitch is checked only where it is used (more than one
/// row, more than one slice), as in D3D12. The one rule for every linear
/// buffer (copies, footprints, decodes). Errors, with `name` leading the
/// message: invalid_argument (a pitch smaller than what it steps over),
/// overflow, buffer_too_small.
struct LinearExtent {
  uint64_t row_B = 0;          ///< bytes of one row of elements
  uint64_t row_pitch_B = 0;    ///< the row pitch in use (row_B for one row)
  uint64_t slice_B = 0;        ///< bytes from a slice's first byte to one past its last
  uint64_t depth_pitch_B = 0;  ///< the depth pitch in use (slice_B for one slice)
  uint64_t used_B = 0;         ///< bytes from the first byte used to one past the last
};
Status resolve_linear(uint64_t w_el, uint64_t h_el, uint64_t d, uint64_t element_B, uint64_t buffer_B,
                      uint64_t row_pitch_B, uint64_t depth_pitch_B, const char* name, LinearExtent* out,
                      const char* extent = "box");  ///< what the messages call the region: "box", "image"

}  // namespace swz::detail
