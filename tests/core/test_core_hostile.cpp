// The hostile-input table (docs/RELIABILITY.md): each row feeds one kind of
// bad input to every entry point it reaches and asserts the error code, a
// fragment of the message that names the field and value, and that the
// caller's output is untouched (guard bytes around and inside every buffer;
// output objects unchanged).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "swz/dds.hpp"
#include "swz/device_layout.hpp"
#include "swz/vendor.hpp"
#include "swz/swz.hpp"
#include "core/plan.hpp"  // internal: the compiled tables

using namespace swz;

namespace {

constexpr size_t kGuard = 64;

// A caller buffer of n bytes with kGuard guard bytes on both sides; every byte
// (guards and contents) starts with a pseudo-random value, so "untouched"
// means "equal to the initial state".
class Fenced {
 public:
  explicit Fenced(uint64_t n, uint32_t seed = 1) : n_(n), v_(n + 2 * kGuard) {
    uint32_t x = seed * 2654435761u + 12345;
    for (auto& b : v_) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      b = static_cast<uint8_t>(x);
    }
    orig_ = v_;
  }
  uint8_t* data() { return v_.data() + kGuard; }
  uint64_t size() const { return n_; }
  bool untouched() const { return v_ == orig_; }
  bool guards_intact() const {
    return std::equal(v_.begin(), v_.begin() + kGuard, orig_.begin()) &&
           std::equal(v_.end() - kGuard, v_.end(), orig_.end() - kGuard);
  }

 private:
  uint64_t n_;
  std::vector<uint8_t> v_, orig_;
};

#define EXPECT_ERROR(expr, want_code, fragment)                                                            \
  do {                                                                                                     \
    const ::swz::Status st_ = (expr);                                                                      \
    EXPECT_EQ(st_.code(), (want_code)) << #expr << ": " << code_name(st_.code()) << ": " << st_.message(); \
    EXPECT_NE(st_.message().find(fragment), std::string::npos)                                             \
        << #expr << ": message '" << st_.message() << "' lacks '" << (fragment) << "'";                    \
  } while (0)

FormatInfo fmt(const char* name) {
  FormatInfo f;
  EXPECT_TRUE(find_format(name, &f).ok()) << name;
  return f;
}

TextureDesc tex2d(const char* format, uint32_t w, uint32_t h, uint32_t mips = 1, uint32_t array = 1) {
  TextureDesc d;
  d.format = fmt(format);
  d.width = w;
  d.height = h;
  d.mip_levels = mips;
  d.array_size = array;
  return d;
}

TextureDesc tex3d(const char* format, uint32_t w, uint32_t h, uint32_t depth, uint32_t mips = 1) {
  TextureDesc d = tex2d(format, w, h, mips);
  d.dimension = Dimension::Texture3D;
  d.depth = depth;
  return d;
}

Pattern P(const char* text) {
  Pattern p;
  const Status st = parse_pattern_text(text, &p);
  EXPECT_TRUE(st.ok()) << text << ": " << st.message();
  return p;
}

Layout layout_of(const TextureDesc& d, LayoutKind kind, const Pattern& p = {}) {
  LayoutSpec spec;
  spec.kind = kind;
  spec.pattern = p;
  Layout L;
  const Status st = make_layout(d, spec, &L);
  EXPECT_TRUE(st.ok()) << st.message();
  return L;
}

// A layout that a failing make_layout call must leave as it was.
Layout sentinel_layout() { return layout_of(tex2d("R8_UNORM", 3, 5), LayoutKind::RowMajor); }
void expect_sentinel(const Layout& L) {
  EXPECT_EQ(L.desc().width, 3u);
  EXPECT_EQ(L.desc().height, 5u);
  EXPECT_EQ(L.subresource_count(), 1u);
}

Status make(const TextureDesc& d, LayoutKind kind, const Pattern& p, Layout* out) {
  LayoutSpec spec;
  spec.kind = kind;
  spec.pattern = p;
  return make_layout(d, spec, out);
}

// Both copy directions of one request, each against fresh fenced buffers;
// asserts the error and that neither buffer changed.
void expect_copy_error(const Layout& L, uint32_t sub, const Box* box, uint64_t res_size, uint64_t lin_size, uint64_t rp,
                       uint64_t dp, Code code, const std::string& fragment_write, const std::string& fragment_read) {
  {
    Fenced res(res_size, 1), lin(lin_size, 2);
    EXPECT_ERROR(write_to_subresource(L, res.data(), res.size(), sub, box, lin.data(), lin.size(), rp, dp), code,
                 fragment_write);
    EXPECT_TRUE(res.untouched()) << "write: resource changed on error";
    EXPECT_TRUE(lin.untouched()) << "write: source changed";
  }
  {
    Fenced res(res_size, 3), lin(lin_size, 4);
    EXPECT_ERROR(read_from_subresource(lin.data(), lin.size(), rp, dp, L, res.data(), res.size(), sub, box), code,
                 fragment_read);
    EXPECT_TRUE(res.untouched()) << "read: resource changed";
    EXPECT_TRUE(lin.untouched()) << "read: destination changed on error";
  }
}

// The copy succeeds and writes nothing outside its buffers (guards intact).
void expect_copy_ok(const Layout& L, uint32_t sub, const Box* box, uint64_t lin_size, uint64_t rp, uint64_t dp) {
  Fenced res(L.size(), 5), lin(lin_size, 6);
  Status st = write_to_subresource(L, res.data(), res.size(), sub, box, lin.data(), lin.size(), rp, dp);
  EXPECT_TRUE(st.ok()) << st.message();
  st = read_from_subresource(lin.data(), lin.size(), rp, dp, L, res.data(), res.size(), sub, box);
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(res.guards_intact() && lin.guards_intact());
}

}  // namespace

// ---- Patterns ---------------------------------------------------------------

// A repeated primary, a singular XOR combination, and the spec's row-major
// example as printed ({1,0,1},{1,0,1}: X0 twice, docs/ARCHITECTURE.md rule 10).
TEST(Hostile, NonBijectivePattern) {
  EXPECT_ERROR(validate(P("X0 X1 Y0 Y0")), Code::invalid_argument,
               "InterleavePatternSourceBits[3] = Y0 repeats a primary");
  EXPECT_ERROR(validate(P("X0 X0")), Code::invalid_argument, "InterleavePatternSourceBits[1] = X0 repeats a primary");
  EXPECT_ERROR(validate(P("X0 Y0^Y1 Y1^Y0")), Code::invalid_argument, "singular over GF(2): address bits {1, 2}");
  EXPECT_ERROR(validate(P("X0 X1 Y1 Y2")), Code::invalid_argument, "Y0 is missing");
  // Through every entry point that takes a pattern; the output is untouched.
  Layout L = sentinel_layout();
  EXPECT_ERROR(make(tex2d("R8G8B8A8_UNORM", 16, 16), LayoutKind::Pattern, P("X0 X1 Y0^Y1 Y1^Y0"), &L),
               Code::invalid_argument, "singular over GF(2)");
  expect_sentinel(L);
  std::shared_ptr<const Plan> plan;
  EXPECT_ERROR(Plan::compile(P("X0 X1 X2 X2"), 4, &plan), Code::invalid_argument, "repeats a primary");
  EXPECT_EQ(plan, nullptr);
  // A postamble term that lands inside the block and makes it singular.
  EXPECT_ERROR(validate(P("X0 X1 X2 X3 X4 X5 X6 X7 Y0 post8=Y0")), Code::invalid_argument,
               "singular over GF(2): address bits {8}");
  // Postamble terms above the block that send two blocks to the same memory.
  DeviceLayoutDesc dd;
  dd.texture = tex2d("R8_UNORM", 64, 64);
  dd.patterns[0] = P("X0 X1 X2 X3 Y0 Y1 Y2 Y3 post8=X4 post9=X4");
  dd.subresources.resize(1);
  dd.subresources[0].row_stride = 4096;  // not a power of two multiple of the reach: blocks collide
  Status st = make_device_layout(dd, &L);
  if (!st.ok()) EXPECT_NE(st.message().find("land on the same memory"), std::string::npos) << st.message();
  expect_sentinel(L);
}

// The DDI byte keeps SourceBitIndex in 5 bits, so DDI bytes cannot name bit 32
// or more: every byte decodes to a bit < 32. Text, JSON and hand-built
// patterns can, and are refused naming the field.
TEST(Hostile, BitIndexAtLeast32) {
  for (int v = 0; v < 256; ++v) EXPECT_LT(BitEntry::from_byte(static_cast<uint8_t>(v)).bit, 32);
  Pattern untouched = P("X0 X1");
  Pattern out = untouched;
  EXPECT_ERROR(parse_pattern_text("X0 X1 Y32", &out), Code::parse_error, "Y32");
  EXPECT_EQ(out, untouched);
  EXPECT_ERROR(parse_pattern_text("X0 X1 Y0^X40", &out), Code::parse_error, "X40");
  EXPECT_ERROR(parse_pattern_text("X0 X1 Y0 post8=Z99", &out), Code::parse_error, "Z99");
  EXPECT_ERROR(parse_pattern_json(R"({"bits": ["X0", "X1", "Y32"]})", &out), Code::parse_error, "Y32");
  EXPECT_EQ(out, untouched);
  Pattern p = P("X0 X1 Y0 Y1");
  p.xors[0][2] = BitEntry{true, 0, 32};
  EXPECT_ERROR(validate(p), Code::invalid_argument,
               "InterleavePatternXORSourceBits[2].SourceBitIndex = 32 (must be < 32)");
  p = P("X0 X1 Y0 Y1");
  p.interleave[3] = BitEntry{true, 1, 200};
  EXPECT_ERROR(validate(p), Code::invalid_argument, "InterleavePatternSourceBits[3].SourceBitIndex = 200");
  Layout L = sentinel_layout();
  EXPECT_ERROR(make(tex2d("R8_UNORM", 8, 8), LayoutKind::Pattern, p, &L), Code::invalid_argument,
               "SourceBitIndex = 200");
  expect_sentinel(L);
  // The largest index the DDI byte holds, 31, as a primary: Y31 without
  // Y0..Y30 is refused by the primaries rule.
  std::vector<uint8_t> ddi(kDdiBytes0022, 0);
  ddi[0] = BitEntry::make(Channel::X, 0).to_byte();
  ddi[1] = 0xFB;  // valid, channel 1 (Y), bit 31
  ASSERT_TRUE(from_ddi_bytes(ddi, &p).ok());
  EXPECT_EQ(p.interleave[1], BitEntry::make(Channel::Y, 31));
  EXPECT_ERROR(validate(p), Code::invalid_argument, "channel Y uses 1 primary bits but Y0 is missing");
}

// A pattern that addresses sample bits (channel 3) used for a texture that
// has fewer samples than the pattern's sample extent.
TEST(Hostile, Channel3WithoutSamples) {
  const Pattern p = P("X0 X1 S0 Y0 X2 Y1");
  Layout L = sentinel_layout();
  EXPECT_ERROR(make(tex2d("R8G8B8A8_UNORM", 16, 16), LayoutKind::Pattern, p, &L), Code::invalid_argument,
               "addresses 2 samples (S0) but the texture has 1");
  expect_sentinel(L);
  // A sample term in an XOR chain reads sample bit 0, which is 0 for a
  // single-sample texture: harmless, accepted.
  EXPECT_TRUE(make(tex2d("R8G8B8A8_UNORM", 16, 16), LayoutKind::Pattern, P("X0 X1 Y0^S0 X2 Y1"), &L).ok());
  // More samples than the pattern addresses.
  TextureDesc ms = tex2d("R8G8B8A8_UNORM", 16, 16);
  ms.samples = 4;
  L = sentinel_layout();
  EXPECT_ERROR(make(ms, LayoutKind::Pattern, p, &L), Code::invalid_argument,
               "samples = 4 but the pattern addresses only 2");
  expect_sentinel(L);
  // Device layouts check it too.
  DeviceLayoutDesc dd;
  dd.texture = tex2d("R8G8B8A8_UNORM", 16, 16);
  dd.patterns[0] = p;
  dd.subresources.resize(1);
  EXPECT_ERROR(make_device_layout(dd, &L), Code::invalid_argument, "addresses 2 samples (S0) but the texture has 1");
  expect_sentinel(L);
  // With the samples it addresses, the pattern is fine; the D3D12 copies refuse MSAA.
  ms.samples = 2;
  ASSERT_TRUE(make(ms, LayoutKind::Pattern, p, &L).ok());
  Fenced res(L.size()), lin(16 * 16 * 4);
  EXPECT_ERROR(write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), 64, 1024),
               Code::unsupported, "samples = 2: D3D12 refuses MSAA");
  EXPECT_TRUE(res.untouched() && lin.untouched());
}

TEST(Hostile, ZBitsWithStackedDepth) {
  EXPECT_ERROR(validate(P("X0 X1 Y0 Z0 Y1 stack")), Code::invalid_argument,
               "InterleavePatternSourceBits[3] = Z0: STACK_DEPTH_SLICES patterns must not use Z bits");
  EXPECT_ERROR(validate(P("X0 X1 Y0^Z1 Y1 stack")), Code::invalid_argument,
               "InterleavePatternXORSourceBits[2] = Z1: STACK_DEPTH_SLICES patterns must not use Z bits");
  EXPECT_ERROR(validate(P("X0 X1 X2 X3 X4 X5 X6 X7 Y0 Y1 post9=Z2 stack")), Code::invalid_argument,
               "PostambleXORSourceBits[9] = Z2: STACK_DEPTH_SLICES");
  Layout L = sentinel_layout();
  EXPECT_ERROR(make(tex3d("R8G8B8A8_UNORM", 8, 8, 4), LayoutKind::Pattern, P("X0 X1 Y0 Z0 Y1 stack"), &L),
               Code::invalid_argument, "STACK_DEPTH_SLICES patterns must not use Z bits");
  expect_sentinel(L);
  // A depth pre-swizzle offset with a stacked pattern (device layouts).
  DeviceLayoutDesc dd;
  dd.texture = tex3d("R8G8B8A8_UNORM", 8, 8, 4);
  dd.patterns[0] = P("X0 X1 X2 Y0 X3 Y1 stack");
  dd.subresources.resize(1);
  dd.subresources[0].depth_pre_swizzle = 1;
  EXPECT_ERROR(make_device_layout(dd, &L), Code::invalid_argument, "pre-swizzle Z = 1 with STACK_DEPTH_SLICES");
  expect_sentinel(L);
}

// ---- Copies -----------------------------------------------------------------

TEST(Hostile, BoxOutsideOrInverted) {
  const Layout L = layout_of(tex3d("R8G8B8A8_UNORM", 20, 10, 4), LayoutKind::Std64K);
  const uint64_t big = 20 * 4 * 10 * 4;
  for (const Box& b :
       {Box{0, 0, 0, 21, 10, 4}, Box{0, 0, 0, 20, 11, 4}, Box{0, 0, 0, 20, 10, 5}, Box{19, 0, 0, 0xffffffffu, 1, 1}}) {
    SCOPED_TRACE(std::to_string(b.right) + "," + std::to_string(b.bottom) + "," + std::to_string(b.back));
    expect_copy_error(L, 0, &b, L.size(), big, 80, 800, Code::out_of_range,
                      "lies outside subresource 0 (20x10x4 texels)", "lies outside subresource 0");
  }
  // An inverted (empty) box is D3D12's no-op: success, nothing written.
  for (const Box& b :
       {Box{5, 0, 0, 4, 10, 4}, Box{0, 7, 0, 20, 3, 4}, Box{0, 0, 3, 20, 10, 1}, Box{30, 0, 0, 25, 10, 4}}) {
    Fenced res(L.size()), lin(big);
    EXPECT_TRUE(write_to_subresource(L, res.data(), res.size(), 0, &b, lin.data(), lin.size(), 80, 800).ok());
    EXPECT_TRUE(read_from_subresource(lin.data(), lin.size(), 80, 800, L, res.data(), res.size(), 0, &b).ok());
    EXPECT_TRUE(res.untouched() && lin.untouched());
  }
  // BC: left/top off the 4x4 grid; right/bottom neither on it nor at the edge.
  const Layout B = layout_of(tex2d("BC1_UNORM", 30, 30), LayoutKind::Std64K);
  const Box off_grid{2, 0, 0, 8, 8, 1}, bad_edge{0, 0, 0, 9, 8, 1};
  expect_copy_error(B, 0, &off_grid, B.size(), 4096, 64, 4096, Code::invalid_argument,
                    "box left/top = 2/0 must be multiples of the 4x4 block", "box left/top = 2/0");
  expect_copy_error(B, 0, &bad_edge, B.size(), 4096, 64, 4096, Code::invalid_argument,
                    "box right/bottom = 9/8 must be multiples of the block size or the subresource edge",
                    "box right/bottom = 9/8");
  // copy_regions: source box outside, destination outside.
  RegionCopy r;
  r.whole_source = false;
  r.src_box = Box{0, 0, 0, 21, 10, 1};
  Fenced dst(L.size(), 7), src(L.size(), 8);
  EXPECT_ERROR(copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), &r, 1), Code::out_of_range,
               "region 0: source box (0,0,0)-(21,10,1) lies outside subresource 0 (20x10x4 texels)");
  r.src_box = Box{0, 0, 0, 8, 8, 1};
  r.dst_x = 16;
  EXPECT_ERROR(copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), &r, 1), Code::out_of_range,
               "region 0: the region at (16,0,0) does not fit in destination subresource 0");
  EXPECT_TRUE(dst.untouched() && src.untouched());
}

TEST(Hostile, RowPitchSmallerThanARow) {
  const Layout L = layout_of(tex2d("R8G8B8A8_UNORM", 20, 10), LayoutKind::Std64K);
  expect_copy_error(L, 0, nullptr, L.size(), 20 * 4 * 10, 79, 800, Code::invalid_argument,
                    "source row pitch = 79 is smaller than a row of the box (80 bytes)",
                    "destination row pitch = 79 is smaller than a row of the box (80 bytes)");
  // A layout whose row pitch cannot hold a row of blocks, or is not a multiple of the block.
  TextureDesc d = tex2d("R8G8B8A8_UNORM", 200, 10);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  spec.row_pitch_B = 65536;  // 200 texels of 4 bytes need 2 tiles of 128 texels
  Layout out = sentinel_layout();
  EXPECT_ERROR(make_layout(d, spec, &out), Code::invalid_argument,
               "row_pitch = 65536 is smaller than a row of blocks of mip 0 (131072 bytes)");
  spec.row_pitch_B = 131072 + 4;
  EXPECT_ERROR(make_layout(d, spec, &out), Code::invalid_argument,
               "row_pitch = 131076 is not a multiple of the block size (65536 bytes)");
  spec.kind = LayoutKind::RowMajor;
  spec.row_pitch_B = 799;
  EXPECT_ERROR(make_layout(d, spec, &out), Code::invalid_argument, "row_pitch = 799 is smaller than a row");
  expect_sentinel(out);
}

TEST(Hostile, DepthPitchSmallerThanASlice) {
  const Layout L = layout_of(tex3d("R8G8B8A8_UNORM", 20, 10, 4), LayoutKind::Std64K);
  expect_copy_error(L, 0, nullptr, L.size(), 800 * 4, 80, 799, Code::invalid_argument,
                    "source depth pitch = 799 is smaller than a slice of the box (800 bytes)",
                    "destination depth pitch = 799 is smaller than a slice of the box (800 bytes)");
  TextureDesc d = tex3d("R8G8B8A8_UNORM", 64, 64, 8);
  LayoutSpec spec;
  spec.kind = LayoutKind::RowMajor;
  spec.depth_pitch_B = 256 * 64 - 256;
  Layout out = sentinel_layout();
  EXPECT_ERROR(make_layout(d, spec, &out), Code::invalid_argument,
               "depth_pitch_B = 16128 is smaller than a slice of mip 0 (16384 bytes)");
  // Stacked depth: stack_rows counts rows and must hold the height.
  spec.kind = LayoutKind::Pattern;
  spec.pattern = P("X0 X1 X2 Y0 X3 Y1 stack");
  spec.depth_pitch_B = 0;
  spec.stack_rows = 63;
  EXPECT_ERROR(make_layout(d, spec, &out), Code::invalid_argument,
               "stack_rows = 63 is smaller than the height of mip 0 (64 rows)");
  expect_sentinel(out);
}

TEST(Hostile, BufferOneByteShort) {
  const Layout L = layout_of(tex3d("R16G16B16A16_FLOAT", 20, 10, 3), LayoutKind::Std64K);
  const uint64_t rp = 20 * 8 + 16, dp = rp * 10 + 8;
  const uint64_t need = 2 * dp + 9 * rp + 20 * 8;
  // Linear side one byte short; resource one byte short.
  expect_copy_error(
      L, 0, nullptr, L.size(), need - 1, rp, dp, Code::buffer_too_small,
      "source buffer is " + std::to_string(need - 1) + " bytes; the box needs " + std::to_string(need),
      "destination buffer is " + std::to_string(need - 1) + " bytes; the box needs " + std::to_string(need));
  expect_copy_error(L, 0, nullptr, L.size() - 1, need, rp, dp, Code::buffer_too_small,
                    "resource buffer is " + std::to_string(L.size() - 1) + " bytes; subresource 0 ends at byte " +
                        std::to_string(L.size()),
                    "resource buffer is " + std::to_string(L.size() - 1));
  expect_copy_ok(L, 0, nullptr, need, rp, dp);  // exact sizes work
  // A box: the linear side needs only the box.
  const Box b{4, 2, 1, 9, 5, 3};
  const uint64_t bneed = 1 * dp + 2 * rp + 5 * 8;
  expect_copy_error(L, 0, &b, L.size(), bneed - 1, rp, dp, Code::buffer_too_small,
                    "the box needs " + std::to_string(bneed), "the box needs " + std::to_string(bneed));
  expect_copy_ok(L, 0, &b, bneed, rp, dp);
  // copy_regions, both sides.
  RegionCopy r;
  Fenced dst(L.size() - 1, 1), src(L.size(), 2), dst_ok(L.size(), 3), src_short(L.size() - 1, 4);
  EXPECT_ERROR(copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), &r, 1), Code::buffer_too_small,
               "region 0: destination buffer is " + std::to_string(L.size() - 1) + " bytes");
  EXPECT_ERROR(copy_regions(L, dst_ok.data(), dst_ok.size(), L, src_short.data(), src_short.size(), &r, 1),
               Code::buffer_too_small, "region 0: source buffer is " + std::to_string(L.size() - 1) + " bytes");
  EXPECT_TRUE(dst.untouched() && src.untouched() && dst_ok.untouched() && src_short.untouched());
  // copy_tiles: the buffer one byte short of two 64KB tiles after its offset; the resource one byte short.
  TileCoordinate at;
  TileRegionSize two;
  two.num_tiles = 2;
  const Layout T = layout_of(tex2d("R8G8B8A8_UNORM", 300, 100), LayoutKind::Std64K);
  for (auto dir : {TileCopyDirection::LinearBufferToSwizzled, TileCopyDirection::SwizzledToLinearBuffer}) {
    Fenced res(T.size(), 5), buf(2 * 65536 + 16 - 1, 6), res_short(T.size() - 1, 7), buf_ok(2 * 65536 + 16, 8);
    EXPECT_ERROR(copy_tiles(T, res.data(), res.size(), at, two, buf.data(), buf.size(), 16, dir),
                 Code::buffer_too_small, "buffer is 131087 bytes; 2 tiles from offset 16 need 131088");
    EXPECT_ERROR(copy_tiles(T, res_short.data(), res_short.size(), at, two, buf_ok.data(), buf_ok.size(), 16, dir),
                 Code::buffer_too_small, "resource buffer is " + std::to_string(T.size() - 1));
    EXPECT_TRUE(res.untouched() && buf.untouched() && res_short.untouched() && buf_ok.untouched());
  }
}

TEST(Hostile, SizesOverflow64Bits) {
  // 2^32-1 x 2^32-1 texels of 16 bytes: 2^68 bytes per slice.
  TextureDesc d = tex2d("R32G32B32A32_FLOAT", 0xffffffffu, 0xffffffffu);
  Layout L = sentinel_layout();
  for (LayoutKind k : {LayoutKind::RowMajor, LayoutKind::Std64K, LayoutKind::Std4K}) {
    SCOPED_TRACE(static_cast<int>(k));
    EXPECT_ERROR(make(d, k, {}, &L), Code::overflow, "does not fit in 64 bits");
  }
  EXPECT_ERROR(make(d, LayoutKind::Pattern, P("X0 X1 X2 X3 Y0 X4 Y1"), &L), Code::overflow, "does not fit in 64 bits");
  // 3D: each slice fits, the volume does not.
  EXPECT_ERROR(make(tex3d("R32G32B32A32_FLOAT", 0xffffffu, 0xffffffu, 0xffffffu), LayoutKind::RowMajor, {}, &L),
               Code::overflow, "does not fit in 64 bits");
  expect_sentinel(L);
  std::vector<Footprint> fp;
  uint64_t total = 0;
  EXPECT_ERROR(copyable_footprints(d, &fp, &total), Code::overflow, "does not fit in 64 bits");
  uint64_t bytes = 0;
  EXPECT_ERROR(dds_data_size(d, &bytes), Code::overflow, "overflows 64 bits");
  // Pitches whose product with the box overflows.
  const Layout S = layout_of(tex3d("R8_UNORM", 8, 8, 4), LayoutKind::Std4K);
  const uint64_t huge = uint64_t{1} << 62;
  expect_copy_error(S, 0, nullptr, S.size(), 4096, huge, huge * 3, Code::overflow,
                    "source slice size does not fit in 64 bits", "destination slice size does not fit in 64 bits");
  expect_copy_error(S, 0, nullptr, S.size(), 4096, 32, huge * 2, Code::overflow, "source size does not fit in 64 bits",
                    "destination size does not fit in 64 bits");
  // A device layout placing a subresource at the top of the address space.
  DeviceLayoutDesc dd;
  dd.texture = tex2d("R8_UNORM", 64, 64);
  dd.patterns[0] = P("X0 X1 X2 X3 Y0 Y1 Y2 Y3");
  dd.subresources.resize(1);
  dd.subresources[0].offset = std::numeric_limits<uint64_t>::max() - 100;
  EXPECT_ERROR(make_device_layout(dd, &L), Code::overflow, "subresource 0 end does not fit in 64 bits");
  expect_sentinel(L);
  // A resource size whose allocation size (rounded up to the alignment) wraps ("size": 2^64 - 1):
  // refused as an overflow, not printed as "allocation 0 bytes".
  DeviceLayoutDesc big;
  ASSERT_TRUE(parse_resource_layout_json(R"({"format": "R8_UNORM", "width": 64, "height": 64, "size": 18446744073709551615,)"
                                         R"( "patterns": ["X0 X1 X2 X3 Y0 Y1 Y2 Y3"], "subresources": [{"offset": 0}]})",
                                         &big)
                  .ok());
  EXPECT_ERROR(make_device_layout(big, &L), Code::overflow,
               "resource size = 18446744073709551615 rounded up to its alignment (256 bytes) does not fit in 64 bits");
  expect_sentinel(L);
  // Resource-side copy checks when offset + size overflow are covered by the
  // layout: no layout can hold such a subresource.
}

// D3D12_RESOURCE_DESC: MipLevels = 0 asks for the full chain, floor(log2(max
// dimension)) + 1 levels (a 16x12 texture has 16, 8, 4, 2, 1: 5; a 3D
// 4x4x32 has 6). Every function taking a TextureDesc reads it so.
TEST(Hostile, MipLevelsZeroIsTheFullChain) {
  for (LayoutKind k : {LayoutKind::RowMajor, LayoutKind::Std64K, LayoutKind::Std4K}) {
    Layout L;
    ASSERT_TRUE((make(tex2d("R8G8B8A8_UNORM", 16, 12, 0), k, {}, &L)).ok());
    EXPECT_EQ(L.desc().mip_levels, 5u);
    EXPECT_EQ(L.subresource_count(), 5u);
  }
  Layout L3;
  ASSERT_TRUE((make(tex3d("R8G8B8A8_UNORM", 4, 4, 32, 0), LayoutKind::RowMajor, {}, &L3)).ok());
  EXPECT_EQ(L3.desc().mip_levels, 6u);
  Layout N;
  ASSERT_TRUE((make_named_layout("nv-block-linear", tex2d("R8G8B8A8_UNORM", 16, 12, 0), &N)).ok());
  EXPECT_EQ(N.desc().mip_levels, 5u);
  Layout F;
  ASSERT_TRUE((make_layout_from_name("std64k", tex2d("R8G8B8A8_UNORM", 16, 12, 0), LayoutOptions{}, &F)).ok());
  EXPECT_EQ(F.subresource_count(), 5u);
  std::vector<Footprint> fp;
  ASSERT_TRUE((copyable_footprints(tex2d("R8_UNORM", 16, 12, 0), &fp, nullptr)).ok());
  EXPECT_EQ(fp.size(), 5u);
  uint64_t zero_B = 0, five_B = 0;
  ASSERT_TRUE((dds_data_size(tex2d("R8_UNORM", 16, 12, 0), &zero_B)).ok());
  ASSERT_TRUE((dds_data_size(tex2d("R8_UNORM", 16, 12, 5), &five_B)).ok());
  EXPECT_EQ(zero_B, 16u * 12 + 8 * 6 + 4 * 3 + 2 * 1 + 1 * 1);
  EXPECT_EQ(zero_B, five_B);
}

TEST(Hostile, WidthOrHeightZero) {
  Layout L = sentinel_layout();
  for (LayoutKind k : {LayoutKind::RowMajor, LayoutKind::Std64K, LayoutKind::Std4K}) {
    EXPECT_ERROR(make(tex2d("R8G8B8A8_UNORM", 0, 16), k, {}, &L), Code::invalid_argument, "width = 0");
    EXPECT_ERROR(make(tex2d("R8G8B8A8_UNORM", 16, 0), k, {}, &L), Code::invalid_argument, "height = 0");
  }
  EXPECT_ERROR(make(tex3d("R8G8B8A8_UNORM", 16, 16, 0), LayoutKind::RowMajor, {}, &L), Code::invalid_argument,
               "depth = 0");
  EXPECT_ERROR(make(tex2d("R8G8B8A8_UNORM", 16, 16, 1, 0), LayoutKind::RowMajor, {}, &L), Code::invalid_argument,
               "array_size = 0");
  expect_sentinel(L);
  DeviceLayoutDesc dd;
  dd.texture = tex2d("R8_UNORM", 0, 64);
  dd.patterns[0] = P("X0 X1 X2 X3 Y0 Y1 Y2 Y3");
  dd.subresources.resize(1);
  EXPECT_ERROR(make_device_layout(dd, &L), Code::invalid_argument, "width = 0");
  expect_sentinel(L);
  std::vector<Footprint> fp;
  EXPECT_ERROR(copyable_footprints(tex2d("R8_UNORM", 4, 0), &fp, nullptr), Code::invalid_argument, "height = 0");
  EXPECT_TRUE(fp.empty());
  uint64_t bytes = 7;
  EXPECT_ERROR(dds_data_size(tex2d("R8_UNORM", 0, 4), &bytes), Code::invalid_argument, "width = 0");
  // The resource-layout JSON and the vendor layouts reach the same check.
  DeviceLayoutDesc j;
  ASSERT_TRUE(parse_resource_layout_json(R"({"format": "R8_UNORM", "width": 0, "height": 4, "patterns": ["X0 Y0"],)"
                                         R"( "subresources": [{"offset": 0}]})",
                                         &j)
                  .ok());
  EXPECT_ERROR(make_device_layout(j, &L), Code::invalid_argument, "width = 0");
  EXPECT_FALSE(make_named_layout("intel-tile4", tex2d("R8G8B8A8_UNORM", 0, 16), &L).ok());
  expect_sentinel(L);
}

TEST(Hostile, MipCountLargerThanTheChain) {
  Layout L = sentinel_layout();
  EXPECT_ERROR(make(tex2d("R8G8B8A8_UNORM", 16, 16, 6), LayoutKind::Std64K, {}, &L), Code::invalid_argument,
               "mip_levels = 6 exceeds the full chain of 5 for 16x16");
  EXPECT_ERROR(make(tex3d("R8G8B8A8_UNORM", 4, 4, 32, 7), LayoutKind::RowMajor, {}, &L), Code::invalid_argument,
               "mip_levels = 7 exceeds the full chain of 6 for 4x4x32");
  EXPECT_ERROR(make(tex2d("R8_UNORM", 1, 1, 0xffffffffu), LayoutKind::RowMajor, {}, &L), Code::invalid_argument,
               "mip_levels = 4294967295 exceeds the full chain of 1");
  expect_sentinel(L);
  // A full chain works.
  EXPECT_TRUE(make(tex2d("R8G8B8A8_UNORM", 16, 16, 5), LayoutKind::Std64K, {}, &L).ok());
  // Packed-mip info that does not add up to the chain.
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  spec.mip_tail = MipTail::D3D12;
  spec.packed = {3, 3, 1};
  Layout out = sentinel_layout();
  EXPECT_ERROR(make_layout(tex2d("R8G8B8A8_UNORM", 256, 256, 5), spec, &out), Code::invalid_argument,
               "num_standard_mips (3) + num_packed_mips (3) != mip_levels (5)");
  expect_sentinel(out);
}

TEST(Hostile, ArrayIndexOutOfRange) {
  const Layout L = layout_of(tex2d("R8G8B8A8_UNORM", 16, 16, 2, 3), LayoutKind::Std4K);  // 6 subresources
  ASSERT_EQ(L.subresource_count(), 6u);
  const uint32_t bad = calc_subresource(0, 3, 0, 2, 3);  // slice 3 of 3
  expect_copy_error(L, bad, nullptr, L.size(), 16 * 16 * 4, 64, 1024, Code::out_of_range,
                    "subresource = 6 (the resource has 6)", "subresource = 6 (the resource has 6)");
  expect_copy_error(L, 0xffffffffu, nullptr, L.size(), 16 * 16 * 4, 64, 1024, Code::out_of_range,
                    "subresource = 4294967295", "subresource = 4294967295");
  SubresourceLayout s;
  EXPECT_ERROR(L.subresource(bad, &s), Code::out_of_range, "subresource = 6");
  uint64_t off = 0;
  EXPECT_ERROR(element_offset(L, bad, 0, 0, 0, 0, &off), Code::out_of_range, "subresource = 6");
  EXPECT_ERROR(element_offset(L, 0, 16, 0, 0, 0, &off), Code::out_of_range,
               "x = 16 (subresource 0 is 16 elements wide)");
  EXPECT_ERROR(element_offset(L, 0, 0, 0, 0, 1, &off), Code::out_of_range, "sample = 1");
  Location loc;
  EXPECT_ERROR(locate(L, L.size(), &loc), Code::out_of_range, "at or past the end of the resource");
  // copy_regions, either side; copy_tiles.
  Fenced dst(L.size(), 1), src(L.size(), 2);
  RegionCopy r;
  r.dst_subresource = 6;
  EXPECT_ERROR(copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), &r, 1), Code::out_of_range,
               "region 0: destination subresource = 6");
  r.dst_subresource = 0;
  r.src_subresource = 9;
  EXPECT_ERROR(copy_regions(L, dst.data(), dst.size(), L, src.data(), src.size(), &r, 1), Code::out_of_range,
               "region 0: source subresource = 9");
  TileCoordinate at;
  at.subresource = 6;
  TileRegionSize one;
  EXPECT_ERROR(copy_tiles(L, dst.data(), dst.size(), at, one, src.data(), src.size(), 0,
                          TileCopyDirection::SwizzledToLinearBuffer),
               Code::out_of_range, "subresource = 6");
  at.subresource = 0;
  at.x = 1;  // a 16x16 surface has one 4KB tile
  EXPECT_ERROR(copy_tiles(L, dst.data(), dst.size(), at, one, src.data(), src.size(), 0,
                          TileCopyDirection::LinearBufferToSwizzled),
               Code::out_of_range, "tile coordinate (1,0,0) is outside the 1x1x1 tile grid of subresource 0");
  EXPECT_TRUE(dst.untouched() && src.untouched());
  // Device layouts: an indexable slot that names no pattern.
  DeviceLayoutDesc dd;
  dd.texture = tex2d("R8_UNORM", 16, 16);
  dd.patterns[0] = P("X0 X1 X2 X3 Y0 Y1 Y2 Y3");
  dd.indexable = true;
  dd.subresources.resize(1);
  dd.subresources[0].column_pre_swizzle = 18;
  Layout out = sentinel_layout();
  EXPECT_ERROR(make_device_layout(dd, &out), Code::invalid_argument,
               "ColumnPreSwizzleOffset = 18 names no pattern slot");
  expect_sentinel(out);
}

TEST(Hostile, NonPowerOfTwoElementInSwizzledLayout) {
  const TextureDesc d = tex2d("R32G32B32_FLOAT", 16, 16);  // 12-byte elements
  Layout L = sentinel_layout();
  EXPECT_ERROR(make(d, LayoutKind::Std64K, {}, &L), Code::unsupported,
               "std64k: format R32G32B32_FLOAT has 12-byte elements");
  EXPECT_ERROR(make(d, LayoutKind::Std4K, {}, &L), Code::unsupported,
               "std4k: format R32G32B32_FLOAT has 12-byte elements");
  EXPECT_ERROR(make(d, LayoutKind::Pattern, P("X0 X1 X2 X3 Y0 Y1"), &L), Code::unsupported,
               "pattern layout: format R32G32B32_FLOAT has 12-byte elements");
  expect_sentinel(L);
  std::shared_ptr<const Plan> plan;
  EXPECT_FALSE(Plan::compile(P("X0 X1 X2 X3 Y0 Y1"), 12, &plan).ok() && plan && plan->element_log2 >= 0);
  // Row-major handles them (rule 11); exact buffers copy, guards intact.
  const Layout R = layout_of(d, LayoutKind::RowMajor);
  expect_copy_ok(R, 0, nullptr, 16 * 16 * 12, 16 * 12, 16 * 16 * 12);
}

TEST(Hostile, TruncatedDds) {
  // A valid 8x8 BC1 file with 4 mips, then every shorter prefix.
  DdsTexture t;
  t.desc = tex2d("BC1_UNORM", 8, 8, 4);
  uint64_t n = 0;
  ASSERT_TRUE(dds_data_size(t.desc, &n).ok());
  t.data.assign(n, 0x5a);
  std::vector<uint8_t> file;
  ASSERT_TRUE(write_dds(t, &file).ok());
  DdsTexture sentinel;
  sentinel.desc = tex2d("R8_UNORM", 3, 5);
  sentinel.data = {1, 2, 3};
  for (size_t len = 0; len < file.size(); ++len) {
    std::vector<uint8_t> cut(file.begin(),
                             file.begin() + static_cast<std::ptrdiff_t>(len));  // exact size: ASan sees overreads
    DdsTexture out = sentinel;
    const Status st = read_dds(cut, &out);
    ASSERT_EQ(st.code(), Code::parse_error) << len << ": " << st.message();
    const char* frag = len < 4     ? "too short for the magic"
                       : len < 128 ? "truncated inside DDS_HEADER (needs 128)"
                       : len < 148 ? "truncated inside DDS_HEADER_DXT10 (needs 148)"
                                   : "file is truncated: the texels of a 8x8";
    EXPECT_NE(st.message().find(frag), std::string::npos) << len << ": " << st.message();
    EXPECT_EQ(out.data, sentinel.data);
    EXPECT_EQ(out.desc.width, 3u);
  }
  DdsTexture back;
  ASSERT_TRUE(read_dds(file, &back).ok());
  EXPECT_EQ(back.data, t.data);
  // The texel bytes of the last mip one short: the message names the texture.
  std::vector<uint8_t> cut(file.begin(), file.end() - 1);
  EXPECT_ERROR(read_dds(cut, &back), Code::parse_error, "file is truncated: the texels of a 8x8");
}

TEST(Hostile, JsonWithWrongTypes) {
  const Pattern keep = P("X0 X1 Y0");
  struct Row {
    const char* json;
    const char* fragment;
  };
  const Row pattern_rows[] = {
      {R"({"bits": "X0 X1"})", "\"bits\" must be an array of strings"},
      {R"({"bits": ["X0", 1]})", "bits[1] is not a string"},
      {R"({"bits": ["X0", null]})", "bits[1] is not a string"},
      {R"({"bits": ["X0"], "postamble": ["Y4"]})", "\"postamble\" must be an object"},
      {R"({"bits": ["X0"], "postamble": {"8": 5}})", "postamble[\"8\"] is not a string"},
      {R"({"bits": ["X0"], "immediate": [1]})", "\"immediate\" must be a 32-bit unsigned integer"},
      {R"({"bits": ["X0"], "immediate": -1})", "\"immediate\" must be a 32-bit unsigned integer"},
      {R"({"bits": ["X0"], "immediate": 4294967296})", "\"immediate\" must be a 32-bit unsigned integer"},
      {R"({"bits": ["X0"], "immediate": 1.5})", "\"immediate\" must be a 32-bit unsigned integer"},
      {R"({"bits": ["X0"], "flags": "stack"})", "\"flags\" must be an array"},
      {R"({"bits": ["X0"], "flags": [1]})", "flags entries must be strings"},
      {R"(["X0", "X1"])", "the top level must be an object"},
      {R"({"bits": ["X0")", "not valid JSON"},
  };
  for (const Row& r : pattern_rows) {
    Pattern out = keep;
    EXPECT_ERROR(parse_pattern_json(r.json, &out), Code::parse_error, r.fragment);
    EXPECT_EQ(out, keep) << r.json;
  }
  const Row layout_rows[] = {
      {R"({"format": 28, "width": 4, "patterns": ["X0"], "subresources": []})",
       "\"format\" must be a DXGI format name"},
      {R"({"format": "R8_UNORM", "width": "4", "patterns": ["X0"], "subresources": []})",
       "\"width\" must be an unsigned integer"},
      {R"({"format": "R8_UNORM", "width": -4, "patterns": ["X0"], "subresources": []})",
       "\"width\" must be an unsigned integer"},
      {R"({"format": "R8_UNORM", "width": 4.5, "patterns": ["X0"], "subresources": []})",
       "\"width\" must be an unsigned integer"},
      {R"({"format": "R8_UNORM", "width": 4294967296, "patterns": ["X0"], "subresources": []})",
       "does not fit in 32 bits"},
      {R"({"format": "R8_UNORM", "width": 4, "dimension": 3, "patterns": ["X0"], "subresources": []})",
       "\"dimension\" must be"},
      {R"({"format": "R8_UNORM", "width": 4, "indexable": 1, "patterns": ["X0"], "subresources": []})",
       "\"indexable\" must be true or false"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": "X0", "subresources": []})", "\"patterns\" must be an array"},
      // The entry's type named: what it got and what it takes.
      {R"({"format": "R8_UNORM", "width": 4, "patterns": [7], "subresources": []})",
       "patterns[0] must be a pattern object, its text form (a string) or null, not a number"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": [null, [["X0"]]], "subresources": []})",
       "patterns[1] must be a pattern object, its text form (a string) or null, not an array"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": [{"bits": 7}], "subresources": []})",
       "patterns[0]: pattern JSON"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": ["X0"], "mip_transitions": "1", "subresources": []})",
       "\"mip_transitions\" must be an array"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": ["X0"], "mip_transitions": [true], "subresources": []})",
       "\"mip_transitions\"[0] must be an integer"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": ["X0"], "subresources": {}})",
       "\"subresources\" must be an array"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": ["X0"], "subresources": [3]})",
       "subresources[0] must be an object"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": ["X0"], "subresources": [{"offset": "0"}]})",
       "subresources[0]: \"offset\" must be an unsigned integer"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": ["X0"], "subresources": [{"offset": 0, "row_stride": [1]}]})",
       "\"row_stride\" must be an unsigned integer"},
      {R"([1, 2])", "the top level must be an object"},
      // Misspelt keys are refused, not dropped without a word with the default used instead.
      {R"({"format": "R8_UNORM", "width": 4, "mip_level": 3, "patterns": ["X0"], "subresources": []})",
       "resource layout: unknown key \"mip_level\" (known: format, dimension, width"},
      {R"({"format": "R8_UNORM", "width": 4, "patterns": ["X0"], "subresources": [{"offset": 0, "row_strde": 64}]})",
       "resource layout: subresources[0]: unknown key \"row_strde\" (known: offset, row_stride"},
  };
  for (const Row& r : layout_rows) {
    DeviceLayoutDesc out;
    out.size = 77;
    EXPECT_ERROR(parse_resource_layout_json(r.json, &out), Code::parse_error, r.fragment);
    EXPECT_EQ(out.size, 77u) << r.json;
    EXPECT_TRUE(out.subresources.empty()) << r.json;
  }
}

// Hostile JSON that nests deeply: no parser may recurse per level. The
// resource-layout parser refuses more than 64 levels (printing a pattern object
// back to text recurses per level).
TEST(Hostile, DeeplyNestedJson) {
  const size_t depth = 100000;
  const std::string nested = std::string(depth, '[') + std::string(depth, ']');
  Pattern p = P("X0 X1"), keep = p;
  EXPECT_ERROR(parse_pattern_json(nested, &p), Code::parse_error, "pattern JSON: nested more than 64 levels deep");
  EXPECT_ERROR(parse_pattern_json(R"({"bits": )" + nested + "}", &p), Code::parse_error,
               "pattern JSON: nested more than 64 levels deep");
  // Metadata (name, description, source) may hold any value, but not past 64
  // levels (5 M levels of metadata would take hundreds of MB).
  EXPECT_ERROR(parse_pattern_json(R"({"bits": ["X0", "X1"], "description": )" + nested + "}", &p), Code::parse_error,
               "pattern JSON: nested more than 64 levels deep");
  EXPECT_EQ(p, keep);
  ASSERT_TRUE(parse_pattern_json(
                  R"({"bits": ["X0", "X1"], "description": )" + std::string(63, '[') + std::string(63, ']') + "}", &p)
                  .ok());
  EXPECT_ERROR(parse_pattern_json(
                   R"({"bits": ["X0", "X1"], "description": )" + std::string(64, '[') + std::string(64, ']') + "}", &p),
               Code::parse_error, "nested more than 64 levels deep");
  DeviceLayoutDesc d;
  d.size = 77;
  const std::string doc = R"({"format": "R8_UNORM", "width": 4, "patterns": [{"bits": ["X0"], "description": )" +
                          nested + R"(}], "subresources": [{"offset": 0}]})";
  EXPECT_ERROR(parse_resource_layout_json(doc, &d), Code::parse_error,
               "resource layout: nested more than 64 levels deep");
  EXPECT_EQ(d.size, 77u);
  // 64 levels are fine.
  const std::string ok_doc = R"({"format": "R8_UNORM", "width": 4, "patterns": [{"bits": ["X0"], "description": )" +
                             std::string(60, '[') + std::string(60, ']') + R"(}], "subresources": [{"offset": 0}]})";
  EXPECT_TRUE(parse_resource_layout_json(ok_doc, &d).ok());
}

// nlohmann keeps the last of two equal keys silently: {"bits": A, "bits": B}
// would mean B, and a resource layout with "width" twice the second width.
// Both readers refuse a repeated key, naming it, at any depth.
TEST(Hostile, DuplicateJsonKeys) {
  Pattern p = P("X0 X1"), keep = p;
  EXPECT_ERROR(parse_pattern_json(R"({"bits": ["X0"], "bits": ["Y0"]})", &p), Code::parse_error,
               "pattern JSON: key \"bits\" appears twice in one object");
  EXPECT_ERROR(parse_pattern_json(R"({"bits": ["X0", "X1"], "postamble": {"8": "X3", "8": "Y3"}})", &p),
               Code::parse_error, "key \"8\" appears twice");
  EXPECT_ERROR(parse_pattern_json(R"({"bits": ["X0"], "description": [{"a": 1}, {"b": {"c": 1, "c": 2}}]})", &p),
               Code::parse_error, "key \"c\" appears twice");
  EXPECT_EQ(p, keep);
  // The same key in sibling objects is not a repeat.
  EXPECT_TRUE(
      parse_pattern_json(R"({"bits": ["X0"], "description": [{"a": 1}, {"a": 2}], "source": {"a": {"a": 3}}})", &p)
          .ok());
  DeviceLayoutDesc d;
  d.size = 77;
  EXPECT_ERROR(
      parse_resource_layout_json(R"({"format": "R8_UNORM", "width": 4, "width": 8, "patterns": [{"bits": ["X0"]}],
                                              "subresources": [{"offset": 0}]})",
                                 &d),
      Code::parse_error, "resource layout: key \"width\" appears twice in one object");
  EXPECT_ERROR(parse_resource_layout_json(R"({"format": "R8_UNORM", "width": 4, "patterns": [{"bits": ["X0"]}],
                                              "subresources": [{"offset": 0, "offset": 64}]})",
                                          &d),
               Code::parse_error, "key \"offset\" appears twice");
  EXPECT_EQ(d.size, 77u);
}

// Keys (and values) of a hostile JSON file named in an error message: a key
// holding U+0000 must not end the message there in the CLI, Python and the C
// API (C strings), escape sequences and newlines must not reach the terminal,
// and a key of 5 MB must not make a 5 MB message. Each is shown escaped (\u0000,
// \u001b, \n) and at most 64 bytes long, cut on a UTF-8 character boundary,
// with its full length in bytes.
static bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += n;
  }
  return true;
}

static bool has_control_bytes(const std::string& s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  return false;
}

TEST(Hostile, JsonKeysInMessagesAreEscapedAndShort) {
  const std::string bits = R"({"bits": ["X0", "X1"], )";
  const std::string known = "(known: bits, postamble, immediate, flags, name, description, source)";
  Pattern p = P("X0 X1"), keep = p;
  // U+0000 inside a key: the whole message survives, the key escaped.
  Status st = parse_pattern_json(bits + R"("na\u0000me": 1})", &p);
  EXPECT_EQ(st.message(), "pattern JSON: unknown key \"na\\u0000me\" " + known);
  EXPECT_EQ(std::strlen(st.message().c_str()), st.message().size());
  // Terminal escapes and line breaks, quotes and backslashes.
  st = parse_pattern_json(bits + R"("a\u001b[31m\nb\"c\\d\u007f": 1})", &p);
  EXPECT_EQ(st.message(), "pattern JSON: unknown key \"a\\u001b[31m\\nb\\\"c\\\\d\\u007f\" " + known);
  EXPECT_FALSE(has_control_bytes(st.message())) << st.message();
  // A key of a million bytes: a short message that still names the keys allowed.
  st = parse_pattern_json(bits + "\"" + std::string(1000000, 'k') + "\": 1}", &p);
  EXPECT_EQ(st.code(), Code::parse_error);
  EXPECT_LT(st.message().size(), 300u) << st.message().substr(0, 300);
  EXPECT_EQ(st.message().substr(0, 300),
            "pattern JSON: unknown key \"" + std::string(64, 'k') + "...\" (1000000 bytes) " + known);
  // Two-byte characters: cut between characters, never inside one.
  std::string cyr;
  for (int i = 0; i < 5000; ++i) cyr += "\xd0\xbc";  // U+043C
  st = parse_pattern_json(bits + "\"k" + cyr + "\": 1}", &p);
  EXPECT_LT(st.message().size(), 300u);
  EXPECT_TRUE(valid_utf8(st.message())) << st.message();
  EXPECT_NE(st.message().find("(10001 bytes) (known: bits"), std::string::npos) << st.message();
  // The same for a repeated key, in metadata and in a resource layout.
  st = parse_pattern_json(bits + R"("description": {"x\u0000\u001b": 1, "x\u0000\u001b": 2}})", &p);
  EXPECT_EQ(st.message(), "pattern JSON: key \"x\\u0000\\u001b\" appears twice in one object");
  const std::string huge(200000, 'q');
  st = parse_pattern_json(bits + R"("description": {")" + huge + R"(": 1, ")" + huge + R"(": 2}})", &p);
  EXPECT_LT(st.message().size(), 300u);
  EXPECT_NE(st.message().find("...\" (200000 bytes) appears twice"), std::string::npos) << st.message().substr(0, 300);
  EXPECT_EQ(p, keep);
  DeviceLayoutDesc d;
  d.size = 77;
  st = parse_resource_layout_json(
      R"({"format": "R8_UNORM", "width": 4, "wid\u0000th\n": 4, "patterns": [{"bits": ["X0"]}],
                                      "subresources": [{"offset": 0}]})",
      &d);
  EXPECT_NE(st.message().find("resource layout: unknown key \"wid\\u0000th\\n\" (known: format"), std::string::npos)
      << st.message();
  EXPECT_FALSE(has_control_bytes(st.message())) << st.message();
  EXPECT_EQ(d.size, 77u);
  // Values read from a pattern object: a postamble key, a flag.
  st = parse_pattern_json(bits + R"("postamble": {"8\u0000\u001b": 7}})", &p);
  EXPECT_EQ(st.message(), "pattern JSON: postamble[\"8\\u0000\\u001b\"] is not a string");
  st = parse_pattern_json(bits + R"("flags": ["st\u0000ack\u001b"]})", &p);
  EXPECT_NE(st.message().find("unknown flag \"st\\u0000ack\\u001b\" (known: stack"), std::string::npos) << st.message();
  st = parse_pattern_json(bits + R"("flags": [")" + huge + R"("]})", &p);
  EXPECT_LT(st.message().size(), 300u);
  // ... a bit token, an immediate, a postamble bit number (the text parser's own messages).
  st = parse_pattern_json(R"({"bits": ["X0", "X1\u0000\u001b"]})", &p);
  EXPECT_EQ(st.message(), "bit 1: 'X1\\u0000\\u001b' is not a source bit (X0..X31, Y0..Y31, Z0..Z31, S0..S31)");
  st = parse_pattern_json(bits + R"("immediate": "0x1\u0000"})", &p);
  EXPECT_EQ(st.message(), "immediate: '0x1\\u0000' is not a 32-bit unsigned number");
  st = parse_pattern_json(bits + R"("postamble": {"8\u0000": "X9"}})", &p);
  EXPECT_EQ(st.message(), "postamble: '8\\u0000' is not an address bit number");
  st = parse_pattern_json(R"({"bits": ["X0", ")" + huge + R"("]})", &p);
  EXPECT_LT(st.message().size(), 300u);
  // ... and a resource layout's format name.
  st = parse_resource_layout_json(R"({"format": "R8\u0000\u001b[2J", "width": 4, "patterns": ["X0"], "subresources": []})",
                                  &d);
  EXPECT_NE(st.message().find("unknown DXGI format name \"R8\\u0000\\u001b[2J\" (expected"), std::string::npos)
      << st.message();
  st = parse_resource_layout_json(R"({"format": ")" + huge + R"(", "width": 4, "patterns": ["X0"], "subresources": []})",
                                  &d);
  EXPECT_LT(st.message().size(), 400u);
  EXPECT_EQ(d.size, 77u);
  EXPECT_EQ(p, keep);
}

// A JSON file is read whole: the parser takes a NUL byte for the end of the
// text, so '{"bits": [...]}' followed by U+0000 and anything else (a second
// object, a postamble) must be refused, not accepted with the rest dropped
// without a word. A syntax error says where it is.
TEST(Hostile, JsonTextAfterANulByteIsNotDropped) {
  Pattern p = P("X0 X1"), keep = p;
  const std::string good = R"({"bits": ["X0", "X1", "Y0", "Y1"]})";
  ASSERT_TRUE(parse_pattern_json(good, &p).ok());
  p = keep;
  const std::string nul(1, '\0');
  for (const std::string& text : {good + nul, good + nul + R"({"postamble": {"8": "Y9"}})", nul + good,
                                  std::string(R"({"bits": ["X0", "X1"])") + nul + "}"}) {
    Status st = parse_pattern_json(text, &p);
    EXPECT_EQ(st.code(), Code::parse_error) << st.message();
    EXPECT_NE(st.message().find("pattern JSON: not valid JSON"), std::string::npos) << st.message();
    EXPECT_EQ(p, keep);
  }
  Status st = parse_pattern_json(good + nul + "x", &p);
  EXPECT_NE(st.message().find("U+0000 at byte " + std::to_string(good.size())), std::string::npos) << st.message();
  DeviceLayoutDesc d;
  d.size = 77;
  st = parse_resource_layout_json(
      std::string(R"({"format": "R8_UNORM", "width": 4, "patterns": ["X0"], "subresources": [{"offset": 0}]})") + nul +
          "junk",
      &d);
  EXPECT_EQ(st.code(), Code::parse_error) << st.message();
  EXPECT_EQ(d.size, 77u);
  // Truncated and malformed text: the byte where it goes wrong.
  st = parse_pattern_json(R"({"bits": ["X0", "X1", )", &p);
  EXPECT_NE(st.message().find("not valid JSON: the text ends early, after byte 22"), std::string::npos) << st.message();
  // A number past a double's range: refused without echoing it (any length).
  st = parse_pattern_json(R"({"bits": ["X0"], "flags": [1)" + std::string(100000, '9') + "e400]}", &p);
  EXPECT_EQ(st.message(), "pattern JSON: not valid JSON: a number is too large");
  st = parse_pattern_json(R"({"bits": ["X0" "X1"]})", &p);
  EXPECT_NE(st.message().find("not valid JSON: syntax error near byte 18 (of 21)"), std::string::npos) << st.message();
  EXPECT_EQ(p, keep);
}

// UTF-8 as RFC 3629 defines it (table 3-7 of the Unicode standard): no
// overlong forms, no surrogates, nothing past U+10FFFF. Python turns a
// message into str with this decoder; a message that fails it reached the
// caller as an empty ValueError.
static bool strict_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    unsigned char lo = 0x80, hi = 0xbf;  // the second byte's range
    if (c < 0x80)
      n = 1;
    else if (c >= 0xc2 && c <= 0xdf)
      n = 2;
    else if (c == 0xe0)
      n = 3, lo = 0xa0;
    else if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef)
      n = 3;
    else if (c == 0xed)
      n = 3, hi = 0x9f;
    else if (c == 0xf0)
      n = 4, lo = 0x90;
    else if (c >= 0xf1 && c <= 0xf3)
      n = 4;
    else if (c == 0xf4)
      n = 4, hi = 0x8f;
    else
      return false;
    if (i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      const unsigned char b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b & 0xc0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// Layout names (--layout, Layout.from_name, swz_layout_from_name) echoed in
// error messages: the name and its parameter names and values are escaped and
// cut as JSON keys are, so U+0000 does not cut the message ("unknown layout
// 'std64k"), escape sequences do not reach the terminal and a 100 KB name does
// not make a 100 KB message. Byte sequences that look like UTF-8 but are not
// (overlong forms, surrogates, past U+10FFFF) are escaped too (unescaped,
// Python would raise ValueError with an empty message). Pattern text takes
// any bytes.
TEST(Hostile, LayoutNamesInMessagesAreEscapedAndShort) {
  const TextureDesc d = tex2d("R8G8B8A8_UNORM", 4, 4);
  Layout L;
  auto message = [&](const std::string& name) {
    const Status st = make_layout_from_name(name, d, LayoutOptions{}, &L);
    EXPECT_FALSE(st.ok()) << name;
    const std::string m = st.message();
    EXPECT_EQ(std::strlen(m.c_str()), m.size()) << m;
    EXPECT_FALSE(has_control_bytes(m)) << m;
    EXPECT_TRUE(strict_utf8(m)) << m;
    EXPECT_LT(m.size(), 1500u) << m.substr(0, 300);
    return m;
  };
  const auto npos = std::string::npos;
  EXPECT_NE(message(std::string("std64k\0junk", 11)).find("'std64k\\u0000junk'"), npos);
  EXPECT_NE(message(std::string("nv-block-linear:gob=te\0gra", 26)).find("'te\\u0000gra'"), npos);
  EXPECT_NE(message("pattern:X0 \x1b[2J").find("'pattern:X0 \\u001b[2J'"), npos);
  EXPECT_NE(message(std::string(100000, 'k')).find("...' (100000 bytes)"), npos);
  EXPECT_NE(message("pattern:X0 " + std::string(100000, 'k')).find("(100011 bytes)"), npos);
  EXPECT_NE(message("std64k:\x1b]0;x\x07").find("'std64k:\\u001b]0;x\\u0007'"), npos);
  EXPECT_NE(message("row-major:pitch=\n9").find("'row-major:pitch=\\n9'"), npos);
  EXPECT_NE(message("nv-block-linear:f\x1bo=1").find("'f\\u001bo'"), npos);
  EXPECT_NE(message("nv-block-linear:bh=\x1b").find("'\\u001b'"), npos);
  EXPECT_NE(message("nv-block-linear:bh=1,bh\r=2,bh\r=3").find("'bh\\r'"), npos);
  EXPECT_NE(message("nv-block-linear:\x1b").find("unknown parameter '\\u001b'"), npos);
  EXPECT_NE(message("adreno-a6xx:mode=8\x1b").find("'8\\u001b'"), npos);
  message("nv-block-linear:gob=" + std::string(100000, 'g'));
  message("nv-block-linear:bh=" + std::string(100000, '9'));
  message("nv-block-linear:" + std::string(100000, 'p') + "=1");
  // Not UTF-8, though the lead byte says so: escaped byte by byte.
  const char* bad[] = {"\xc0\x80",         "\xc1\xbf",         "\xe0\x80\x80",     "\xed\xa0\x80",
                       "\xf0\x80\x80\x80", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf8\x88\x80\x80\x80"};
  for (const char* b : bad) {
    SCOPED_TRACE(b);
    message("pattern:X0 " + std::string(b));
    message(std::string("pattern:X0 X1 imm=") + b);
    Pattern p;
    const Status st = parse_pattern_text("X0 " + std::string(b), &p);
    EXPECT_TRUE(strict_utf8(st.message())) << st.message();
  }
  EXPECT_NE(message("pattern:X0 \xc0\x80").find("'\\xc0\\x80' is not a source bit"), npos);
  // Well-formed characters stay as they are.
  EXPECT_NE(message("pattern:X0 \xd0\xbc\xe2\x82\xac\xf0\x9f\x98\x80").find("'\xd0\xbc\xe2\x82\xac\xf0\x9f\x98\x80'"),
            npos);
}

// A hostile array size must not make a layout allocate a record per
// subresource before failing (2 GB for array_size = 2^32 - 1).
TEST(Hostile, HugeSubresourceCount) {
  Layout L = sentinel_layout();
  EXPECT_ERROR(make(tex2d("R8_UNORM", 4, 4, 1, 0xffffffffu), LayoutKind::RowMajor, {}, &L), Code::unsupported,
               "subresource count = 4294967295 (mip_levels 1 x array_size 4294967295 x planes 1) is too large (swz's "
               "limit is 1048576)");
  EXPECT_ERROR(make(tex2d("R8_UNORM", 1 << 15, 4, 16, (1 << 16) + 1), LayoutKind::Std64K, {}, &L), Code::unsupported,
               "is too large (swz's limit is 1048576)");
  expect_sentinel(L);
  std::vector<Footprint> fp;
  EXPECT_ERROR(copyable_footprints(tex2d("NV12", 64, 64, 1, 1 << 20), &fp, nullptr), Code::unsupported,
               "is too large (swz's limit is 1048576)");
  // D3D12's largest (2048 slices x 15 mips) is fine.
  EXPECT_TRUE(make(tex2d("R8_UNORM", 16384, 16384, 15, 2048), LayoutKind::RowMajor, {}, &L).ok());
}

// copy_tiles with a hostile tile count fails on the buffer size before it
// allocates or touches anything (no list of 2^28 entries).
TEST(Hostile, CopyTilesHugeTileCount) {
  const Layout L =
      layout_of(tex2d("R8_UNORM", 0x40000000u, 0x4000u), LayoutKind::Std64K);  // 2^28 tiles, never allocated
  TileCoordinate at;
  TileRegionSize many;
  many.num_tiles = 1u << 28;
  Fenced buf(65536);
  EXPECT_ERROR(
      copy_tiles(L, nullptr, L.size(), at, many, buf.data(), buf.size(), 0, TileCopyDirection::SwizzledToLinearBuffer),
      Code::buffer_too_small, "buffer is 65536 bytes; 268435456 tiles from offset 0 need 17592186044416");
  EXPECT_TRUE(buf.untouched());
  many.num_tiles = (1u << 28) + 1;
  EXPECT_ERROR(
      copy_tiles(L, nullptr, L.size(), at, many, buf.data(), buf.size(), 0, TileCopyDirection::SwizzledToLinearBuffer),
      Code::out_of_range, "run past the subresource's 268435456 tiles");
}

// Pitches the box does not use may hold anything (D3D12 ignores them): a
// depth pitch of 2^64-1 on a 2D copy, a row pitch of 2^64-1 on a one-row box.
// The kernels must not step their pointers by such a pitch past the last
// slice and wrap around the address space (undefined behaviour, UBSan).
TEST(Hostile, UnusedPitchesMayHoldAnything) {
  const Layout L = layout_of(tex2d("R8_UNORM", 283, 127), LayoutKind::RowMajor);
  const uint64_t all = std::numeric_limits<uint64_t>::max();
  const Box one_row{0, 5, 0, 283, 6, 1};
  for (Backend b : {Backend::Scalar, Backend::Highway, Backend::Xsimd})
    for (unsigned threads : {1u, 3u}) {
      SCOPED_TRACE(std::string(backend_name(b)) + " x" + std::to_string(threads));
      CopyOptions o;
      o.backend = b;
      o.threads = threads;
      o.write_combined = true;
      Fenced res(L.size()), lin(131071 * 126 + 283);
      Status st = write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), 131071, all, o);
      if (st.code() == Code::unsupported) continue;  // backend not built
      EXPECT_TRUE(st.ok()) << st.message();
      EXPECT_TRUE(
          read_from_subresource(lin.data(), lin.size(), 131071, all, L, res.data(), res.size(), 0, nullptr, o).ok());
      EXPECT_TRUE(write_to_subresource(L, res.data(), res.size(), 0, &one_row, lin.data(), 283, all, all, o).ok());
      EXPECT_TRUE(read_from_subresource(lin.data(), 283, all, all, L, res.data(), res.size(), 0, &one_row, o).ok());
      EXPECT_TRUE(res.guards_intact() && lin.guards_intact());
    }
}
