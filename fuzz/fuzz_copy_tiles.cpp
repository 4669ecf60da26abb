// libFuzzer harness: copy_tiles with random layouts, tile coordinates, region
// sizes (linear runs and boxes), buffer offsets and sizes, both directions,
// buffers fenced by guard pages. Properties: on error nothing changed; on
// success the side read is unchanged, the buffer bytes outside
// [offset, offset + tiles * tile_bytes) are unchanged, and copying the tiles
// back the other way gives the same bytes (tiles to buffer and back leaves the
// resource as it was; buffer to tiles and back returns the buffer).
#include "fuzz_common.hpp"
#include "core/plan.hpp"  // internal: the compiled tables

using namespace swz;
using namespace swz_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider f(data, size);
  TextureDesc desc = pick_desc(f, Limits::copy());
  Layout L;
  if (!pick_layout(f, &desc, &L).ok()) return 0;
  TileCoordinate start;
  start.subresource = f.ConsumeIntegralInRange<int>(0, 15) == 0
                          ? f.ConsumeIntegral<uint32_t>()
                          : f.ConsumeIntegralInRange<uint32_t>(0, L.subresource_count() - 1);
  auto small = [&](uint32_t hi) {
    return f.ConsumeIntegralInRange<int>(0, 9) == 0 ? f.ConsumeIntegral<uint32_t>()
                                                    : f.ConsumeIntegralInRange<uint32_t>(0, hi);
  };
  start.x = small(4);
  start.y = small(4);
  start.z = small(2);
  TileRegionSize rs;
  rs.use_box = f.ConsumeBool();
  rs.width = small(4);
  rs.height = small(4);
  rs.depth = small(2);
  rs.num_tiles = rs.use_box && f.ConsumeBool() ? rs.width * rs.height * rs.depth : small(12);
  SubresourceLayout s{};
  const bool valid_sub = L.subresource(start.subresource, &s).ok();
  const uint64_t bb = valid_sub ? L.plan(start.subresource).block_bytes : 1;
  const uint64_t tiles = rs.use_box ? uint64_t{rs.width} * rs.height * rs.depth : rs.num_tiles;
  uint64_t offset = f.ConsumeIntegralInRange<int>(0, 9) == 0 ? f.ConsumeIntegral<uint64_t>()
                                                             : f.ConsumeIntegralInRange<uint64_t>(0, 300);
  uint64_t bsize = tiles * bb + offset;
  switch (f.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      bsize = bsize ? bsize - 1 : 0;
      break;
    case 1:
      bsize += f.ConsumeIntegralInRange<uint64_t>(1, 64);
      break;
    case 2:
      bsize = f.ConsumeIntegral<uint64_t>();
      break;
    default:
      break;
  }
  uint64_t rsize = L.size();
  if (f.ConsumeIntegralInRange<int>(0, 5) == 0) rsize = rsize ? rsize - 1 : 0;
  const auto dir =
      f.ConsumeBool() ? TileCopyDirection::LinearBufferToSwizzled : TileCopyDirection::SwizzledToLinearBuffer;
  const bool alloc = rsize <= kMaxCopyBuffer && bsize <= kMaxCopyBuffer;
  GuardedBuffer res(alloc ? rsize : 0), buf(alloc ? bsize : 0);
  res.fill_pattern(5);
  buf.fill_pattern(6);
  std::vector<uint8_t>&r0 = scratch(0), &b0 = scratch(1);
  res.snapshot_into(&r0);
  buf.snapshot_into(&b0);
  Status st =
      copy_tiles(L, alloc ? res.data() : nullptr, rsize, start, rs, alloc ? buf.data() : nullptr, bsize, offset, dir);
  SWZ_FUZZ_CHECK(res.canary_intact() && buf.canary_intact(), st.message());
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    SWZ_FUZZ_CHECK(res.equals(r0) && buf.equals(b0), "changed on error: " + st.message());
    return 0;
  }
  SWZ_FUZZ_CHECK(alloc || tiles == 0, "success with null buffers");
  if (!alloc) return 0;
  SWZ_FUZZ_CHECK(offset + tiles * bb <= bsize, "success with a buffer too small");
  const auto other = dir == TileCopyDirection::LinearBufferToSwizzled ? TileCopyDirection::SwizzledToLinearBuffer
                                                                      : TileCopyDirection::LinearBufferToSwizzled;
  if (dir == TileCopyDirection::SwizzledToLinearBuffer) {
    SWZ_FUZZ_CHECK(res.equals(r0), "resource changed by a read");
    SWZ_FUZZ_CHECK(
        same_range(buf.data(), b0.data(), 0, offset) && same_range(buf.data(), b0.data(), offset + tiles * bb, bsize),
        "buffer byte outside the tiles written");
    // Back into the resource: it must not change.
    st = copy_tiles(L, res.data(), rsize, start, rs, buf.data(), bsize, offset, other);
    SWZ_FUZZ_CHECK(st.ok(), st.message());
    SWZ_FUZZ_CHECK(res.equals(r0), "tiles -> buffer -> tiles changed the resource");
  } else {
    SWZ_FUZZ_CHECK(buf.equals(b0), "buffer changed by a write");
    // Read the tiles back into a zeroed copy of the buffer window.
    std::vector<uint8_t>& back = scratch(2);
    back.assign(bsize + 1, 0);  // + 1: never a null pointer (copy_tiles refuses null buffers)
    st = copy_tiles(L, res.data(), rsize, start, rs, back.data(), bsize, offset, other);
    SWZ_FUZZ_CHECK(st.ok(), st.message());
    // Duplicate tiles in one call (a box cannot repeat, a run cannot either)
    // are impossible, so every tile reads back what was written.
    SWZ_FUZZ_CHECK(same_range(back.data(), b0.data(), offset, offset + tiles * bb),
                   "buffer -> tiles -> buffer differs");
  }
  return 0;
}
