// Shared helpers of the libFuzzer harnesses: guard-page buffers and
// structured generation of texture descriptions, patterns and layouts from
// the fuzzer's bytes. See docs/RELIABILITY.md.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fuzzer/FuzzedDataProvider.h>
#include <string>
#include <vector>

#include "swz/swz.hpp"
#include "swz/dds.hpp"
#include "swz/device_layout.hpp"
#include "swz/vendor.hpp"
#include "core/layout_work.hpp"  // internal: the shared-bytes check's bound

namespace swz_fuzz {

[[noreturn]] inline void fail(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "swz fuzz property failed: %s %s\n", what, detail.c_str());
  std::abort();
}
#define SWZ_FUZZ_CHECK(cond, detail)              \
  do {                                            \
    if (!(cond)) ::swz_fuzz::fail(#cond, detail); \
  } while (0)

/// SWZ_FUZZ_VERBOSE set: the harnesses print what each input builds. Read once
/// (fuzz_clear asked for it per changed byte).
inline bool verbose() {
  static const bool v = std::getenv("SWZ_FUZZ_VERBOSE") != nullptr;
  return v;
}

/// A caller buffer of exactly `size` bytes whose last byte sits right before a
/// PROT_NONE page and whose first byte follows a PROT_NONE page (the bytes
/// between that page and the buffer's start, less than one page, hold a
/// canary that is checked). Any write or read past either end faults or
/// breaks the canary. The contents are unspecified until fill_pattern.
///
/// Mappings are kept between inputs (one pool per power-of-two size class, the
/// end guard page fixed, the front guard page moved to the buffer's start):
/// mapping, faulting in and unmapping up to 2 MiB twice per input cost more
/// than the copy under test.
class GuardedBuffer {
 public:
  static constexpr uint8_t kCanary = 0xA5;
  explicit GuardedBuffer(size_t size) : size_(size) {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    body_ = (size + page_ - 1) / page_ * page_;
    size_t need = body_ + 2 * page_, len = 16 * page_;
    while (len < need) len *= 2;
    auto& pool = pool_of(len);
    if (!pool.empty()) {
      base_ = pool.back();
      pool.pop_back();
    } else {
      void* m = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) fail("mmap", std::to_string(len));
      base_ = static_cast<uint8_t*>(m);
      if (mprotect(base_ + len - page_, page_, PROT_NONE)) fail("mprotect");
    }
    map_len_ = len;
    front_ = base_ + len - page_ - body_ - page_;
    if (mprotect(front_, page_, PROT_NONE)) fail("mprotect");
    data_ = base_ + len - page_ - size;
    std::memset(front_ + page_, kCanary, body_ - size);
  }
  ~GuardedBuffer() {
    auto& pool = pool_of(map_len_);
    if (pool.size() < 4 && mprotect(front_, page_, PROT_READ | PROT_WRITE) == 0)
      pool.push_back(base_);
    else
      munmap(base_, map_len_);
  }
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  /// Pseudo-random bytes (xorshift64), different for each seed: copied from a
  /// table made once (a loop over megabytes per input would be a large part of
  /// the copy harnesses' time); the table is not periodic within kMaxBuffer.
  void fill_pattern(uint32_t seed) {
    const std::vector<uint8_t>& t = random_table();
    const size_t at = (size_t{seed} * 4099) % 65536;
    if (at + size_ <= t.size()) {
      if (size_) std::memcpy(data_, t.data() + at, size_);
      return;
    }
    uint64_t x = uint64_t{seed} * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < size_; ++i) {
      if (i % 8 == 0) x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      data_[i] = static_cast<uint8_t>(x >> (8 * (i & 7)));
    }
  }
  bool canary_intact() const {
    for (const uint8_t* p = front_ + page_; p < data_; ++p)
      if (*p != kCanary) return false;
    return true;
  }
  bool equals(const std::vector<uint8_t>& v) const {
    return v.size() == size_ && (size_ == 0 || std::memcmp(v.data(), data_, size_) == 0);
  }
  std::vector<uint8_t> snapshot() const { return std::vector<uint8_t>(data_, data_ + size_); }
  /// The same into a vector whose capacity is kept from input to input (see scratch).
  void snapshot_into(std::vector<uint8_t>* v) const { v->assign(data_, data_ + size_); }

 private:
  static std::vector<uint8_t*>& pool_of(size_t len) {
    static std::vector<uint8_t*> pools[64];
    return pools[__builtin_ctzll(len) & 63];
  }
  static const std::vector<uint8_t>& random_table();
  size_t size_, page_, body_, map_len_;
  uint8_t* base_;
  uint8_t* front_;
  uint8_t* data_;
};

/// Byte vectors reused from input to input (their capacity is kept): under
/// ASan every large allocation is a fresh mapping, faulted in page by page, so
/// snapshots and simulations of megabyte buffers allocated per input cost
/// more than the copy under test. Slots 0..7, one per use in a harness.
inline std::vector<uint8_t>& scratch(int slot) {
  static std::vector<uint8_t> v[8];
  return v[slot & 7];
}

/// The first index i in [from, n) with a[i] != b[i], or n. Equal 4 KiB blocks
/// are skipped with memcmp: a byte loop over megabytes, each comparison traced
/// by the fuzzer's instrumentation, would be most of fuzz_clear's time.
inline size_t next_difference(const uint8_t* a, const uint8_t* b, size_t from, size_t n) {
  constexpr size_t kBlock = 4096;
  for (size_t i = from; i < n;) {
    const size_t end = std::min(n, (i / kBlock + 1) * kBlock);
    if (std::memcmp(a + i, b + i, end - i) != 0)
      for (; i < end; ++i)
        if (a[i] != b[i]) return i;
    i = end;
  }
  return n;
}

/// True when [from, to) of a and b hold the same bytes.
inline bool same_range(const uint8_t* a, const uint8_t* b, size_t from, size_t to) {
  return from >= to || std::memcmp(a + from, b + from, to - from) == 0;
}

/// The check of explicit layouts for shared bytes marks byte runs in a bitmap
/// where subresources of different frames overlap; the library refuses groups
/// needing more than 2^26 runs (a second or so). Under the sanitizers a run
/// costs about a microsecond: the harnesses refuse past 2^14 runs (the same
/// code and the same refusal, on smaller groups), so that no input nears 1 s.
inline const bool kSharedByteRunLimitSet = (swz::detail::set_shared_byte_run_limit(uint64_t{1} << 14), true);

/// Largest buffer a harness allocates (bytes): bigger layouts are only
/// checked for their errors, not copied.
constexpr uint64_t kMaxBuffer = uint64_t{8} << 20;
/// The copy harnesses' limit: a 64 KiB-tiled texture of up to 16 subresources
/// (each input fills, snapshots and compares its buffers: megabytes cost more
/// than the copy under test).
constexpr uint64_t kMaxCopyBuffer = uint64_t{1} << 20;

inline const std::vector<uint8_t>& GuardedBuffer::random_table() {
  static const std::vector<uint8_t> t = [] {
    std::vector<uint8_t> v(kMaxBuffer + 65536);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i + 8 <= v.size(); i += 8) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      std::memcpy(v.data() + i, &x, 8);
    }
    return v;
  }();
  return t;
}

inline swz::FormatInfo pick_format(FuzzedDataProvider& f) {
  static const char* const kNames[] = {"R8_UNORM",
                                       "R8G8_UNORM",
                                       "R8G8B8A8_UNORM",
                                       "R16G16B16A16_FLOAT",
                                       "R32G32B32A32_FLOAT",  // 1..16 bytes
                                       "R32G32B32_FLOAT",     // 12 bytes (not a power of two)
                                       "BC1_UNORM",
                                       "BC7_UNORM",  // 4x4 blocks
                                       "R8G8_B8G8_UNORM",
                                       "YUY2",  // 2x1 blocks
                                       "NV12",
                                       "P010",
                                       "D24_UNORM_S8_UINT",
                                       "V208",  // planar
                                       "R32G32_FLOAT",
                                       "B5G6R5_UNORM",
                                       "R32_FLOAT",
                                       "BC4_UNORM"};
  constexpr size_t n = sizeof(kNames) / sizeof(kNames[0]);
  swz::FormatInfo fi;
  (void)swz::find_format(kNames[f.ConsumeIntegralInRange<size_t>(0, n - 1)], &fi);
  return fi;
}

/// A size that is usually small, sometimes an edge value.
inline uint32_t pick_extent(FuzzedDataProvider& f, uint32_t small_max) {
  switch (f.ConsumeIntegralInRange<int>(0, 15)) {
    case 0:
      return 0;
    case 1:
      return 0xffffffffu;
    case 2:
      return f.ConsumeIntegral<uint32_t>();
    case 3:
      return 1u << f.ConsumeIntegralInRange<int>(0, 31);
    default:
      return f.ConsumeIntegralInRange<uint32_t>(1, small_max);
  }
}

/// Usual extents up to 300 x 200 (x 20 for 3D); the copy harnesses ask for
/// smaller ones (Limits::copy) so that each input runs in well under a millisecond.
/// The copy harnesses also cap array sizes the input picks between 65 and
/// 2^20 (the largest accepted) at 64: a million slices build a million
/// subresource records (about a second under the sanitizers) to copy one;
/// larger counts, refused at once, are kept. The per-slice cost has its own
/// unit test (Reliability.ArraySlicesShareOneGeometryComputation).
struct Limits {
  uint32_t width = 300, height = 200, depth = 20;
  uint32_t array_size = 0xffffffffu;
  static Limits copy() { return {48, 40, 6, 64}; }
};

inline swz::TextureDesc pick_desc(FuzzedDataProvider& f, const Limits& lim = {}) {
  swz::TextureDesc d;
  d.format = pick_format(f);
  d.dimension = f.ConsumeBool() ? swz::Dimension::Texture3D : swz::Dimension::Texture2D;
  d.width = pick_extent(f, lim.width);
  d.height = pick_extent(f, lim.height);
  if (d.dimension == swz::Dimension::Texture3D)
    d.depth = pick_extent(f, lim.depth);
  else
    d.array_size =
        f.ConsumeIntegralInRange<int>(0, 7) == 0 ? pick_extent(f, 8) : f.ConsumeIntegralInRange<uint32_t>(1, 3);
  if (d.array_size > lim.array_size && d.array_size <= (1u << 20)) d.array_size = lim.array_size;
  const uint32_t full = swz::full_mip_count(d.width, d.height, d.dimension == swz::Dimension::Texture3D ? d.depth : 1);
  d.mip_levels = f.ConsumeIntegralInRange<int>(0, 7) == 0 ? f.ConsumeIntegralInRange<uint32_t>(0, 40)
                                                          : f.ConsumeIntegralInRange<uint32_t>(1, std::max(1u, full));
  d.samples = f.ConsumeIntegralInRange<int>(0, 7) == 0 ? 1u << f.ConsumeIntegralInRange<int>(0, 3) : 1;
  return d;
}

/// A pattern built from the fuzzer's bytes: mostly plausible (element bytes in
/// place, each channel's bits in use once), with XOR terms, postamble terms,
/// immediates and flags that are often invalid on purpose.
inline swz::Pattern pick_pattern(FuzzedDataProvider& f, unsigned element_log2) {
  using namespace swz;
  Pattern p;
  const unsigned k = element_log2;
  const unsigned n = std::min(32u, k + f.ConsumeIntegralInRange<unsigned>(0, 16));
  unsigned next[4] = {k, 0, 0, 0};
  for (unsigned i = 0; i < k && i < 32; ++i) p.interleave[i] = BitEntry::make(Channel::X, i);
  const bool stack = f.ConsumeIntegralInRange<int>(0, 5) == 0;
  for (unsigned i = k; i < n; ++i) {
    unsigned c = f.ConsumeIntegralInRange<unsigned>(0, 12);
    c = c < 5 ? 0 : c < 10 ? 1 : c < 12 ? 2 : 3;
    if (stack && c == 2) c = 1;
    unsigned b = f.ConsumeIntegralInRange<int>(0, 30) == 0 ? f.ConsumeIntegralInRange<unsigned>(0, 31) : next[c]++;
    p.interleave[i] = BitEntry::make(static_cast<Channel>(c), std::min(b, 31u));
  }
  const unsigned terms = f.ConsumeIntegralInRange<unsigned>(0, 6);
  for (unsigned t = 0; t < terms; ++t) {
    unsigned slot = f.ConsumeIntegralInRange<unsigned>(0, 3),
             at = f.ConsumeIntegralInRange<unsigned>(0, std::max(1u, n) - 1);
    p.xors[slot][at] = BitEntry::make(static_cast<Channel>(f.ConsumeIntegralInRange<unsigned>(0, stack ? 1 : 2)),
                                      f.ConsumeIntegralInRange<unsigned>(0, 31));
  }
  const unsigned posts = f.ConsumeIntegralInRange<unsigned>(0, 3);
  for (unsigned t = 0; t < posts; ++t)
    p.postamble[f.ConsumeIntegralInRange<unsigned>(0, 1)][f.ConsumeIntegralInRange<unsigned>(8, 23)] = BitEntry::make(
        static_cast<Channel>(f.ConsumeIntegralInRange<unsigned>(0, 2)), f.ConsumeIntegralInRange<unsigned>(0, 31));
  if (f.ConsumeIntegralInRange<int>(0, 3) == 0)
    p.immediate = f.ConsumeIntegral<uint32_t>() & ((n >= 32 ? 0u : (1u << n)) - 1u) & ~((1u << k) - 1u);
  if (stack) p.flags |= kFlagStackDepthSlices;
  if (f.ConsumeIntegralInRange<int>(0, 40) == 0) p.flags |= kFlagConditionalPostamble;
  return p;
}

/// A box coordinate in 0..extent: usually a multiple of `align` (the block
/// edge), sometimes the extent, any value in range, or a wild 32-bit value.
inline uint32_t pick_box_coord(FuzzedDataProvider& f, uint32_t extent, uint32_t align) {
  switch (f.ConsumeIntegralInRange<int>(0, 9)) {
    case 0:
      return f.ConsumeIntegral<uint32_t>();
    case 1:
      return extent;
    case 2:
      return f.ConsumeIntegralInRange<uint32_t>(0, extent);
    default:
      return std::min(extent, f.ConsumeIntegralInRange<uint32_t>(0, extent) / align * align);
  }
}

/// The reference routine's parameters of a subresource (pitches, stacking, pre-swizzle).
inline swz::AddressParams address_params(const swz::SubresourceLayout& s) {
  swz::AddressParams a;
  a.row_pitch = s.row_pitch;
  a.depth_pitch_B = s.depth_pitch_B;
  a.stack_rows = s.stack_rows;
  for (int i = 0; i < 3; ++i) a.pre_swizzle[i] = s.pre_swizzle[i];
  return a;
}

inline unsigned log2_floor(uint32_t v) { return v ? 31u - static_cast<unsigned>(__builtin_clz(v)) : 0u; }

inline uint64_t pick_pitch(FuzzedDataProvider& f) {
  switch (f.ConsumeIntegralInRange<int>(0, 9)) {
    case 0:
      return f.ConsumeIntegral<uint64_t>();
    case 1:
      return uint64_t{f.ConsumeIntegralInRange<uint32_t>(1, 64)} << f.ConsumeIntegralInRange<int>(0, 16);
    case 2:
      return f.ConsumeIntegralInRange<uint64_t>(0, 1 << 16);
    default:
      return 0;  // the default pitch
  }
}

/// Builds a layout of any kind (row-major, std64k, std4k, pattern, explicit
/// device layout, named vendor layout) for `d`. Returns the status of the
/// layout call; errors are fine, crashes are not.
inline bool has_postamble(const swz::Pattern& p) {
  for (const auto& chain : p.postamble)
    for (const auto& e : chain)
      if (e.valid) return true;
  return false;
}

/// Postamble terms above the block make make_layout check the surface block by
/// block (up to 2^24 blocks per subresource, by design): seconds per
/// subresource under the sanitizers. Such layouts get a surface of at most
/// 2^14 texels in all (the walk's code is the same for any size), so that
/// each input stays fast (fuzz/run_long.sh).
inline void limit_for_postamble(swz::TextureDesc* d) {
  auto clamp = [](uint32_t& v, uint32_t hi) { v = std::min(v, hi); };
  clamp(d->width, 1024);
  clamp(d->height, 1024);
  clamp(d->depth, 16);
  clamp(d->array_size, 4);
  while (uint64_t{d->width} * d->height * d->depth * d->array_size > (uint64_t{1} << 14))
    d->height = std::max(1u, d->height / 2);
  const uint32_t full =
      swz::full_mip_count(d->width, d->height, d->dimension == swz::Dimension::Texture3D ? d->depth : 1);
  if (d->mip_levels > full && d->mip_levels <= 32) d->mip_levels = full;
}

/// Explicit layouts (device and vendor) whose subresources' spans overlap are
/// checked byte by byte for shared bytes (make_explicit_layout, spans up to
/// 1 GiB): seconds to a minute for surfaces of hundreds of megabytes, a known
/// cost (docs/RELIABILITY.md, "Known and not fixed"). Surfaces of that middle
/// size are shrunk; tiny ones and ones too large to check (refused at once)
/// are kept.
inline bool slow_middle(const swz::TextureDesc& d) {
  const double bytes = double(d.width) * d.height * d.depth * d.array_size * std::max(1u, d.format.element_bytes);
  return bytes > double(uint64_t{1} << 22) && bytes < double(uint64_t{1} << 36);
}

/// Builds a layout of any kind for *d (which it may shrink, see
/// limit_for_postamble).
inline swz::Status pick_layout(FuzzedDataProvider& f, swz::TextureDesc* dp, swz::Layout* out) {
  using namespace swz;
  TextureDesc& d = *dp;
  const int kind = f.ConsumeIntegralInRange<int>(0, 5);
  if (kind <= 3) {
    LayoutSpec spec;
    spec.kind = kind == 0   ? LayoutKind::RowMajor
                : kind == 1 ? LayoutKind::Std64K
                : kind == 2 ? LayoutKind::Std4K
                            : LayoutKind::Pattern;
    if (spec.kind == LayoutKind::Pattern) {
      spec.pattern = pick_pattern(f, log2_floor(d.format.element_bytes));
      if (has_postamble(spec.pattern)) limit_for_postamble(&d);
    }
    spec.row_pitch_B = pick_pitch(f);
    (spec.kind == LayoutKind::Pattern && spec.pattern.stack_depth_slices() ? spec.stack_rows : spec.depth_pitch_B) =
        pick_pitch(f);
    // Pitches widen the block walk of a postamble layout as much as the size does.
    if (spec.kind == LayoutKind::Pattern && has_postamble(spec.pattern)) {
      if (spec.row_pitch_B > (uint64_t{1} << 14)) spec.row_pitch_B = 0;
      if (spec.depth_pitch_B > (uint64_t{1} << 20)) spec.depth_pitch_B = 0;
      if (spec.stack_rows > 4096) spec.stack_rows = 0;
    }
    if ((kind == 1 || kind == 2) && f.ConsumeIntegralInRange<int>(0, 5) == 0) {
      spec.mip_tail = MipTail::D3D12;
      spec.packed.num_packed_mips = f.ConsumeIntegralInRange<uint32_t>(0, d.mip_levels);
      spec.packed.num_standard_mips =
          d.mip_levels - spec.packed.num_packed_mips + f.ConsumeIntegralInRange<uint32_t>(0, 1);
      spec.packed.num_tiles_for_packed_mips = f.ConsumeIntegralInRange<uint32_t>(0, 3);
    }
    return make_layout(d, spec, out);
  }
  if (kind >= 4 && slow_middle(d)) limit_for_postamble(&d);
  if (kind == 4) {
    DeviceLayoutDesc dd;
    dd.texture = d;
    const unsigned slots = f.ConsumeIntegralInRange<unsigned>(1, 3);
    bool post = false;
    const unsigned el = log2_floor(d.format.element_bytes);
    for (unsigned s = 0; s < slots; ++s) {
      auto& slot = dd.patterns[s * (f.ConsumeBool() ? 1 : 6) % kPatternSlots];
      slot = pick_pattern(f, el);
      if (has_postamble(*slot)) limit_for_postamble(&d), post = true;
    }
    if (post)  // every subresource of an explicit layout may walk its blocks anew: a smaller surface
      while (uint64_t{d.width} * d.height * d.depth * d.array_size > (uint64_t{1} << 12)) {
        if (d.width >= d.height)
          d.width = std::max(1u, d.width / 2);
        else
          d.height = std::max(1u, d.height / 2);
        if (d.width == 1 && d.height == 1) break;
      }
    if (post)
      d.mip_levels = std::min(
          d.mip_levels, swz::full_mip_count(d.width, d.height, d.dimension == swz::Dimension::Texture3D ? d.depth : 1));
    dd.texture = d;
    dd.indexable = f.ConsumeIntegralInRange<int>(0, 5) == 0;
    for (auto& t : dd.mip_transitions)
      t = f.ConsumeIntegralInRange<int>(0, 2) == 0 ? f.ConsumeIntegral<uint8_t>() : kNoTransition;
    for (auto& t : dd.plane_transitions)
      t = f.ConsumeIntegralInRange<int>(0, 2) == 0 ? f.ConsumeIntegral<uint8_t>() : kNoTransition;
    const uint64_t count = uint64_t{d.mip_levels} * d.array_size * std::max(1u, d.format.planes);
    const uint64_t want = f.ConsumeIntegralInRange<int>(0, 15) == 0 ? f.ConsumeIntegralInRange<uint64_t>(0, 64) : count;
    if (want > 4096 || (post && want > 64)) return {Code::invalid_argument, "fuzz: too many subresources"};
    uint64_t cursor = 0;
    bool any_stack = false;
    for (const auto& p : dd.patterns) any_stack = any_stack || (p && p->stack_depth_slices());
    for (uint64_t i = 0; i < want; ++i) {
      DeviceSubresource s;
      s.offset = f.ConsumeIntegralInRange<int>(0, 9) == 0 ? f.ConsumeIntegral<uint64_t>() : cursor;
      cursor += uint64_t{65536} * f.ConsumeIntegralInRange<uint32_t>(0, 4);
      s.row_stride = pick_pitch(f);
      // Rows for stacked-depth patterns, bytes otherwise (as the one-number JSON "depth_stride" is read).
      uint64_t& depth = any_stack ? s.stack_rows : s.depth_stride_B;
      depth = pick_pitch(f);
      if (post && s.row_stride > (uint64_t{1} << 14)) s.row_stride = 0;  // see the pattern case above
      // Stacked depth: the walk covers stack_rows x depth rows (as in the pattern case above).
      if (post && depth > (any_stack ? uint64_t{4096} : (uint64_t{1} << 20))) depth = 0;
      if (f.ConsumeIntegralInRange<int>(0, 3) == 0 && !post) {  // each distinct offset is another block walk
        s.row_byte_pre_swizzle = f.ConsumeIntegralInRange<uint32_t>(0, 512);
        s.column_pre_swizzle = f.ConsumeIntegralInRange<uint32_t>(0, 64);
        s.depth_pre_swizzle = f.ConsumeIntegralInRange<uint32_t>(0, 8);
      }
      dd.subresources.push_back(s);
    }
    dd.size = f.ConsumeIntegralInRange<int>(0, 3) == 0 ? f.ConsumeIntegral<uint64_t>() & 0xffffffffull : 0;
    return make_device_layout(dd, out);
  }
  const auto& fams = layout_families();
  if (fams.empty()) return {Code::unsupported, "fuzz: no vendor families"};
  std::string spec = fams[f.ConsumeIntegralInRange<size_t>(0, fams.size() - 1)].name;
  if (f.ConsumeIntegralInRange<int>(0, 3) == 0) spec += ":" + f.ConsumeRandomLengthString(40);
  std::string eq;
  if (describe_layout(spec, d.format.element_bytes ? d.format.element_bytes : 1, &eq).ok() &&
      eq.find("post") != std::string::npos)
    limit_for_postamble(&d);
  return make_named_layout(spec, d, out);
}

}  // namespace swz_fuzz
