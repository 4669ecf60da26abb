// GPU compute path: byte-identical to the scalar CPU kernel over random
// patterns, element sizes, texture shapes, boxes and pitches, in both
// directions; the planner's CPU mirror of the shader too (runs without a
// device). With no Vulkan device the device tests skip with a message, unless
// SWZ_REQUIRE_VULKAN=1, when they fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backends/vulkan/gpu_plan.hpp"
#include "conformance_table.hpp"
#include "gpu_emulate.hpp"
#include "swz/gpu.hpp"
#include "swz/swz.hpp"
#include "core/plan.hpp"  // internal: the compiled tables

namespace {

using namespace swz;

bool require_vulkan() {
  const char* e = std::getenv("SWZ_REQUIRE_VULKAN");
  return e && std::string(e) == "1";
}

// One context for the whole run (pipelines compile once).
struct Shared {
  gpu::Context ctx;
  Status status;
  bool tried = false;
};
Shared& shared() {
  static Shared s;
  if (!s.tried) {
    s.tried = true;
    s.status = gpu::Context::create(&s.ctx);
    if (s.status.ok()) std::printf("[ swz gpu ] device: %s\n", s.ctx.device_name().c_str());
  }
  return s;
}

#define SWZ_NEED_GPU()                                                                                       \
  do {                                                                                                       \
    Shared& sh_ = shared();                                                                                  \
    if (!sh_.status.ok()) {                                                                                  \
      if (require_vulkan()) FAIL() << "SWZ_REQUIRE_VULKAN=1 but no Vulkan device: " << sh_.status.message(); \
      GTEST_SKIP() << "no Vulkan device (" << code_name(sh_.status.code()) << ": " << sh_.status.message()   \
                   << "); set SWZ_REQUIRE_VULKAN=1 to make this a failure";                                  \
    }                                                                                                        \
  } while (0)

FormatInfo format_named(const char* name) {
  FormatInfo f;
  Status s = find_format(name, &f);
  EXPECT_TRUE(s.ok()) << s.message();
  return f;
}

FormatInfo format_for(uint32_t e) {
  switch (e) {
    case 1:
      return format_named("R8_UNORM");
    case 2:
      return format_named("R8G8_UNORM");
    case 4:
      return format_named("R8G8B8A8_UNORM");
    case 8:
      return format_named("R16G16B16A16_UNORM");
    default:
      return format_named("R32G32B32A32_FLOAT");
  }
}

uint32_t rnd(std::mt19937& g, uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(g); }
bool coin(std::mt19937& g, double p) { return std::uniform_real_distribution<double>(0, 1)(g) < p; }

// A random valid pattern for elements of e bytes: the in-block bits are a
// random order of the block's coordinate bits after the element bytes; XOR
// terms name bits above the block or in-block bits whose primary comes
// earlier (so the in-block map stays invertible); postamble terms likewise;
// an immediate; the stack flag for some 3D patterns.
Pattern random_pattern(std::mt19937& g, uint32_t e, bool is3d) {
  Pattern p{};
  const unsigned k = static_cast<unsigned>(std::countr_zero(e));
  const unsigned nx = k + rnd(g, 0, 4);
  const unsigned ny = rnd(g, 0, 5);
  const bool stack = is3d && coin(g, 0.4);
  const unsigned nz = (is3d && !stack) ? rnd(g, 0, 2) : 0;
  struct Src {
    Channel c;
    unsigned b;
  };
  std::vector<Src> rest;
  for (unsigned b = k; b < nx; ++b) rest.push_back({Channel::X, b});
  for (unsigned b = 0; b < ny; ++b) rest.push_back({Channel::Y, b});
  for (unsigned b = 0; b < nz; ++b) rest.push_back({Channel::Z, b});
  if (coin(g, 0.6)) {
    std::shuffle(rest.begin(), rest.end(), g);
  } else {
    // std-like: X bits up to 16 bytes first, then a shuffle.
    auto mid =
        std::stable_partition(rest.begin(), rest.end(), [](const Src& s) { return s.c == Channel::X && s.b < 4; });
    std::shuffle(mid, rest.end(), g);
  }
  std::vector<Src> entries;
  for (unsigned b = 0; b < k; ++b) entries.push_back({Channel::X, b});
  for (auto& s : rest) entries.push_back(s);
  const unsigned n = static_cast<unsigned>(entries.size());
  for (unsigned i = 0; i < n; ++i) p.interleave[i] = BitEntry::make(entries[i].c, entries[i].b);
  auto above = [&]() -> Src {
    for (;;) {
      unsigned c = rnd(g, 0, 2);
      if (c == 0) return {Channel::X, nx + rnd(g, 0, 6)};
      if (c == 1) return {Channel::Y, ny + rnd(g, 0, 6)};
      if (is3d && !stack) return {Channel::Z, nz + rnd(g, 0, 2)};
    }
  };
  auto term_for = [&](unsigned i) -> Src {
    // In-block bit of an earlier entry (>= k), or a bit above the block.
    if (i > k && coin(g, 0.5)) return entries[rnd(g, k, i - 1)];
    return above();
  };
  const double xor_p = coin(g, 0.5) ? 0.6 : 0.1;  // some patterns are XOR-heavy
  for (unsigned i = k; i < n; ++i) {
    if (!coin(g, xor_p)) continue;
    const unsigned terms = rnd(g, 1, 4);
    for (unsigned t = 0; t < terms; ++t) {
      Src s = term_for(i);
      p.xors[t][i] = BitEntry::make(s.c, s.b);
    }
  }
  if (coin(g, 0.3)) {
    for (unsigned a = 8; a < std::min(n, 24u); ++a) {
      if (!coin(g, 0.4)) continue;
      for (unsigned t = 0; t < 2; ++t)
        if (coin(g, 0.6)) {
          Src s = term_for(a);
          p.postamble[t][a] = BitEntry::make(s.c, s.b);
        }
    }
  }
  if (coin(g, 0.3) && n > k) p.immediate = (rnd(g, 0, 0xffffffu) << k) & ((1u << n) - 1);
  if (stack) p.flags |= kFlagStackDepthSlices;
  return p;
}

struct Case {
  Layout layout;
  uint32_t sub = 0;
  bool has_box = false;
  Box box{};
  uint64_t rp = 0, dp = 0, lin_size = 0;
  std::string text;
};

// Builds a random texture/layout/box/pitch case; false when the random
// choice is refused by the layout rules (the caller draws again).
bool make_case(std::mt19937& g, Case* c) {
  TextureDesc d;
  const bool is3d = coin(g, 0.3);
  d.dimension = is3d ? Dimension::Texture3D : Dimension::Texture2D;
  const uint32_t sizes[] = {1, 2, 3, 5, 7, 16, 17, 31, 33, 64, 65, 100};
  d.width = coin(g, 0.5) ? sizes[rnd(g, 0, 11)] : rnd(g, 1, 130);
  d.height = coin(g, 0.5) ? sizes[rnd(g, 0, 11)] : rnd(g, 1, 90);
  d.depth = is3d ? rnd(g, 1, 6) : 1;
  d.array_size = is3d ? 1 : rnd(g, 1, 3);
  const uint32_t es[] = {1, 2, 4, 8, 16};
  uint32_t e = es[rnd(g, 0, 4)];
  d.format = format_for(e);
  const bool bc = !is3d && coin(g, 0.1);
  if (bc) {
    d.format = format_named(coin(g, 0.5) ? "BC1_UNORM" : "BC7_UNORM");
    e = d.format.element_bytes;
  }
  d.mip_levels = std::min(rnd(g, 1, 3), full_mip_count(d.width, d.height, d.depth));
  LayoutSpec spec;
  const uint32_t kind = rnd(g, 0, 19);
  spec.kind = kind < 11   ? LayoutKind::Pattern
              : kind < 15 ? LayoutKind::Std64K
              : kind < 17 ? LayoutKind::Std4K
                          : LayoutKind::RowMajor;
  if (spec.kind == LayoutKind::Pattern) spec.pattern = random_pattern(g, e, is3d);
  Layout L;
  if (!make_layout(d, spec, &L).ok()) return false;
  if (coin(g, 0.3) && spec.kind != LayoutKind::RowMajor) {
    // Wider row pitch (multiple of the block).
    const Plan& p = L.plan(0);
    spec.row_pitch_B = L.sub(0).row_pitch + rnd(g, 1, 3) * p.block_bytes;
    if (L.sub(0).stack_depth && coin(g, 0.5)) spec.stack_rows = L.sub(0).stack_rows + rnd(g, 1, 9);
    if (!make_layout(d, spec, &L).ok()) return false;
  } else if (spec.kind == LayoutKind::RowMajor && coin(g, 0.3)) {
    spec.row_pitch_B = L.sub(0).row_pitch + 256 * rnd(g, 1, 2);
    if (!make_layout(d, spec, &L).ok()) return false;
  }
  if (L.size() > (8u << 20)) return false;
  c->layout = L;
  c->sub = rnd(g, 0, L.subresource_count() - 1);
  const SubresourceLayout& s = L.sub(c->sub);
  const uint32_t bw = d.format.block_width, bh = d.format.block_height;
  uint32_t x0 = 0, y0 = 0, z0 = 0, x1 = s.width, y1 = s.height, z1 = s.depth;
  c->has_box = coin(g, 0.5);
  if (c->has_box) {
    x0 = rnd(g, 0, (s.width - 1) / bw) * bw;
    y0 = rnd(g, 0, (s.height - 1) / bh) * bh;
    z0 = rnd(g, 0, s.depth - 1);
    x1 = std::min(s.width, x0 + rnd(g, 1, s.width - x0 + bw - 1) / bw * bw + bw);
    y1 = std::min(s.height, y0 + rnd(g, 1, s.height - y0 + bh - 1) / bh * bh + bh);
    z1 = rnd(g, z0 + 1, s.depth);
    c->box = Box{x0, y0, z0, x1, y1, z1};
  }
  const uint64_t w = (x1 - x0 + bw - 1) / bw, h = (y1 - y0 + bh - 1) / bh, dd = z1 - z0;
  const uint64_t row = w * e;
  const uint32_t pad_kind = rnd(g, 0, 3);
  c->rp = row + (pad_kind == 0 ? 0 : pad_kind == 1 ? rnd(g, 1, 40) : pad_kind == 2 ? 16 * rnd(g, 1, 4) : 256);
  c->dp = c->rp * h + (coin(g, 0.5) ? 0 : rnd(g, 1, 50));
  c->lin_size = (dd - 1) * c->dp + (h - 1) * c->rp + row + rnd(g, 0, 20);
  std::ostringstream os;
  os << (is3d ? "3D " : "2D ") << d.width << "x" << d.height << "x" << (is3d ? d.depth : d.array_size) << " mips "
     << d.mip_levels << " " << d.format.name << " layout " << L.name() << " sub " << c->sub;
  if (spec.kind == LayoutKind::Pattern) os << " pattern '" << to_text(spec.pattern) << "'";
  os << " box " << x0 << "," << y0 << "," << z0 << "-" << x1 << "," << y1 << "," << z1 << " rp " << c->rp << " dp "
     << c->dp << " layout rp " << s.row_pitch << " dp " << s.depth_pitch_B << " stack " << s.stack_rows;
  c->text = os.str();
  return true;
}

std::vector<uint8_t> random_bytes(std::mt19937& g, uint64_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(g());
  return v;
}

CopyOptions scalar() {
  CopyOptions o;
  o.backend = Backend::Scalar;
  o.threads = 1;
  return o;
}

size_t first_diff(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return i;
  return a.size();
}

// Runs `convert(res, lin, to_swizzled)` against the scalar CPU path over
// `count` random cases.
template <class Convert>
void run_matrix(uint32_t seed, int count, Convert convert) {
  std::mt19937 g(seed);
  int done = 0, tries = 0;
  while (done < count && tries < count * 20) {
    ++tries;
    Case c;
    if (!make_case(g, &c)) continue;
    ++done;
    const Box* box = c.has_box ? &c.box : nullptr;
    const uint64_t rs = c.layout.size();
    // Write direction.
    auto res0 = random_bytes(g, rs);
    auto lin = random_bytes(g, c.lin_size);
    auto res_cpu = res0, res_gpu = res0;
    Status a =
        write_to_subresource(c.layout, res_cpu.data(), rs, c.sub, box, lin.data(), lin.size(), c.rp, c.dp, scalar());
    ASSERT_TRUE(a.ok()) << c.text << ": " << a.message();
    Status b = convert(c, res_gpu, lin, true);
    ASSERT_TRUE(b.ok()) << c.text << ": " << b.message();
    size_t dpos = first_diff(res_cpu, res_gpu);
    ASSERT_EQ(dpos, res_cpu.size()) << "write differs at resource byte " << dpos << " (cpu " << int(res_cpu[dpos])
                                    << " gpu " << int(res_gpu[dpos]) << ") in " << c.text;
    // Read direction (from the written resource, into a prefilled buffer).
    auto lin0 = random_bytes(g, c.lin_size);
    auto lin_cpu = lin0, lin_gpu = lin0;
    a = read_from_subresource(lin_cpu.data(), lin_cpu.size(), c.rp, c.dp, c.layout, res_cpu.data(), rs, c.sub, box,
                              scalar());
    ASSERT_TRUE(a.ok()) << c.text << ": " << a.message();
    b = convert(c, res_cpu, lin_gpu, false);
    ASSERT_TRUE(b.ok()) << c.text << ": " << b.message();
    dpos = first_diff(lin_cpu, lin_gpu);
    ASSERT_EQ(dpos, lin_cpu.size()) << "read differs at linear byte " << dpos << " in " << c.text;
  }
  EXPECT_EQ(done, count) << "too many random cases refused by the layout rules";
}

// ---- Planner (no device needed) -----------------------------------------------

TEST(GpuPlanner, EmulationMatchesScalar) {
  gpu::detail::DeviceLimits lim;
  lim.min_storage_align = 64;
  run_matrix(1234, 400,
             [&](const Case& c, std::vector<uint8_t>& res, std::vector<uint8_t>& lin, bool to_swz) -> Status {
               gpu::detail::GpuRegion r;
               bool empty = false;
               SWZ_TRY(gpu::detail::resolve_region(c.layout, 0, res.size(), c.sub, c.has_box ? &c.box : nullptr, 0,
                                                   lin.size(), c.rp, c.dp, "linear", &r, &empty));
               if (empty) return Status::Ok();
               gpu::detail::SwizzleDispatch D;
               SWZ_TRY(gpu::detail::plan_swizzle(r, lim, 0, &D));
               gpu::detail::emulate(D, to_swz, res.data() + D.swz_bind_offset, lin.data() + D.lin_bind_offset);
               return Status::Ok();
             });
}

TEST(GpuPlanner, SmallWorkgroupsAndOffsets) {
  // Other workgroup shares and odd buffer offsets exercise the tile split.
  gpu::detail::DeviceLimits lim;
  lim.min_storage_align = 16;
  for (unsigned u : {5u, 8u, 9u, 13u}) {
    run_matrix(77 + u, 60,
               [&](const Case& c, std::vector<uint8_t>& res, std::vector<uint8_t>& lin, bool to_swz) -> Status {
                 const uint64_t ro = 3 + u, lo = 7;
                 std::vector<uint8_t> rbuf(res.size() + ro), lbuf(lin.size() + lo);
                 std::memcpy(rbuf.data() + ro, res.data(), res.size());
                 std::memcpy(lbuf.data() + lo, lin.data(), lin.size());
                 gpu::detail::GpuRegion r;
                 bool empty = false;
                 SWZ_TRY(gpu::detail::resolve_region(c.layout, ro, res.size(), c.sub, c.has_box ? &c.box : nullptr, lo,
                                                     lin.size(), c.rp, c.dp, "linear", &r, &empty));
                 if (empty) return Status::Ok();
                 gpu::detail::SwizzleDispatch D;
                 SWZ_TRY(gpu::detail::plan_swizzle(r, lim, u, &D));
                 gpu::detail::emulate(D, to_swz, rbuf.data() + D.swz_bind_offset, lbuf.data() + D.lin_bind_offset);
                 std::memcpy(res.data(), rbuf.data() + ro, res.size());
                 std::memcpy(lin.data(), lbuf.data() + lo, lin.size());
                 return Status::Ok();
               });
  }
}

// Bands: regions split into block-row bands (here by a small band cap, as a
// subresource larger than one binding is split on a device) convert exactly
// like the scalar path; each band binds only its own window of the buffers.
TEST(GpuPlanner, BandsMatchScalar) {
  gpu::detail::DeviceLimits lim;
  lim.min_storage_align = 16;
  int split = 0;
  for (uint64_t cap : {uint64_t{4096}, uint64_t{20000}, uint64_t{70000}}) {
    run_matrix(900 + static_cast<uint32_t>(cap), 150,
               [&](const Case& c, std::vector<uint8_t>& res, std::vector<uint8_t>& lin, bool to_swz) -> Status {
                 gpu::detail::GpuRegion r;
                 bool empty = false;
                 SWZ_TRY(gpu::detail::resolve_region(c.layout, 0, res.size(), c.sub, c.has_box ? &c.box : nullptr, 0,
                                                     lin.size(), c.rp, c.dp, "linear", &r, &empty));
                 if (empty) return Status::Ok();
                 std::vector<gpu::detail::GpuRegion> bands;
                 SWZ_TRY(gpu::detail::split_bands(r, lim, cap, &bands));
                 if (bands.size() > 1) ++split;
                 for (const auto& b : bands) {
                   gpu::detail::SwizzleDispatch D;
                   SWZ_TRY(gpu::detail::plan_swizzle(b, lim, 0, &D));
                   if (bands.size() > 1 && (D.swz_bind_range > cap || D.lin_bind_range > cap))
                     return {Code::internal, "band binds more than the cap"};
                   gpu::detail::emulate(D, to_swz, res.data() + D.swz_bind_offset, lin.data() + D.lin_bind_offset);
                 }
                 return Status::Ok();
               });
  }
  EXPECT_GT(split, 30) << "too few cases were split into bands";
}

TEST(GpuPlanner, OversizedRegionsThatCannotSplitAreRefused) {
  gpu::detail::DeviceLimits lim;
  lim.min_storage_align = 16;
  lim.max_storage_range = 64 * 1024;
  // A 3D box larger than one binding: refused, naming the limit.
  TextureDesc d;
  d.dimension = Dimension::Texture3D;
  d.width = 64;
  d.height = 64;
  d.depth = 64;
  d.format = format_for(4);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  gpu::detail::GpuRegion r;
  bool empty = false;
  ASSERT_TRUE(gpu::detail::resolve_region(L, 0, L.size(), 0, nullptr, 0, 64ull * 64 * 64 * 4, 256, 256 * 64, "linear",
                                          &r, &empty)
                  .ok());
  std::vector<gpu::detail::GpuRegion> bands;
  Status s = gpu::detail::split_bands(r, lim, 0, &bands);
  EXPECT_EQ(s.code(), Code::unsupported);
  EXPECT_NE(s.message().find("storage-buffer binding"), std::string::npos) << s.message();
  // A pattern with a postamble term (moves whole blocks) over the limit: refused.
  TextureDesc d2;
  d2.width = 256;
  d2.height = 1024;
  d2.format = format_for(1);
  LayoutSpec p2;
  p2.kind = LayoutKind::Pattern;
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 X4 X5 X6 X7 Y0 Y1 Y2 Y3 post12=Y8", &p2.pattern).ok());
  Layout L2;
  ASSERT_TRUE(make_layout(d2, p2, &L2).ok());
  ASSERT_TRUE(
      gpu::detail::resolve_region(L2, 0, L2.size(), 0, nullptr, 0, 256ull * 1024, 256, 0, "linear", &r, &empty).ok());
  lim.max_storage_range = 160 * 1024;
  s = gpu::detail::split_bands(r, lim, 0, &bands);
  EXPECT_EQ(s.code(), Code::unsupported) << s.message();
  EXPECT_NE(s.message().find("cannot be split"), std::string::npos) << s.message();
  // The same surface in std64k splits into bands that each fit.
  LayoutSpec p3;
  p3.kind = LayoutKind::Std64K;
  Layout L3;
  ASSERT_TRUE(make_layout(d2, p3, &L3).ok());
  ASSERT_TRUE(
      gpu::detail::resolve_region(L3, 0, L3.size(), 0, nullptr, 0, 256ull * 1024, 256, 0, "linear", &r, &empty).ok());
  s = gpu::detail::split_bands(r, lim, 0, &bands);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_GT(bands.size(), 1u);
}

TEST(GpuPlanner, StandardSwizzleUses16ByteWords) {
  for (uint32_t e : {1u, 2u, 4u, 8u, 16u}) {
    TextureDesc d;
    d.width = 256;
    d.height = 256;
    d.format = format_for(e);
    LayoutSpec spec;
    spec.kind = LayoutKind::Std64K;
    Layout L;
    ASSERT_TRUE(make_layout(d, spec, &L).ok());
    gpu::detail::GpuRegion r;
    bool empty;
    ASSERT_TRUE(
        gpu::detail::resolve_region(L, 0, L.size(), 0, nullptr, 0, 256ull * 256 * e, 256ull * e, 0, "src", &r, &empty)
            .ok());
    gpu::detail::SwizzleDispatch D;
    ASSERT_TRUE(gpu::detail::plan_swizzle(r, {}, 0, &D).ok());
    EXPECT_EQ(D.word_log2, 4u) << e;
  }
}

// ---- Device ------------------------------------------------------------------

// True when the device cannot import host memory (forced import then
// answers unsupported, and the test skips that path). Mesa's lavapipe
// imports, so this never skips in CI.
bool import_unavailable(const Status& s) {
  return s.code() == Code::unsupported && s.message().find("does not offer") != std::string::npos;
}

// Every test of the import path skips through this one guard: a device
// without VK_EXT_external_memory_host skips, except lavapipe (which offers
// it) and runs with SWZ_REQUIRE_VULKAN=1, where a skip is a failure.
#define SWZ_SKIP_IF_NO_IMPORT(ctx_, s_)                                                                  \
  do {                                                                                                  \
    if (import_unavailable(s_)) {                                                                       \
      ASSERT_NE((ctx_).device_name().find("llvmpipe"), 0u) << "lavapipe offers VK_EXT_external_memory_host"; \
      if (require_vulkan()) FAIL() << "SWZ_REQUIRE_VULKAN=1 but the import path is missing: " << (s_).message(); \
      GTEST_SKIP() << (s_).message();                                                                   \
    }                                                                                                   \
  } while (0)

TEST(Gpu, ContextReportsDevice) {
  SWZ_NEED_GPU();
  EXPECT_FALSE(shared().ctx.device_name().empty());
}

TEST(Gpu, HostConveniencesMatchScalar) {
  SWZ_NEED_GPU();
  gpu::Context& ctx = shared().ctx;
  run_matrix(42, 250, [&](const Case& c, std::vector<uint8_t>& res, std::vector<uint8_t>& lin, bool to_swz) -> Status {
    const Box* box = c.has_box ? &c.box : nullptr;
    if (to_swz)
      return ctx.write_to_subresource(c.layout, res.data(), res.size(), c.sub, box, lin.data(), lin.size(), c.rp, c.dp);
    return ctx.read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout, res.data(), res.size(), c.sub, box);
  });
}

// The conformance table's copy cases through the GPU host path: the same
// verdict as the table, nothing written when refused, and the CPU path's bytes
// where accepted (the C++/C runner holds the CPU path to the reference routine).
TEST(Gpu, ConformanceTable) {
  SWZ_NEED_GPU();
  gpu::Context& ctx = shared().ctx;
  namespace cf = swz::conformance;
  size_t ran = 0;
  for (const cf::json& k : cf::table()["cases"]) {
    const std::string op = k["op"];
    if (!k.value("gpu", false) || (op != "write" && op != "read")) continue;
    SCOPED_TRACE(k["name"].get<std::string>());
    Layout L;
    TextureDesc d;
    ASSERT_NO_FATAL_FAILURE(cf::make_layout(cf::table()["layouts"][k["layout"].get<std::string>()], &L, &d));
    const uint32_t sub = k.value("sub", 0u);
    const Box b = k.contains("box") ? cf::box_of(k["box"]) : Box{};
    const Box* box = k.contains("box") ? &b : nullptr;
    const uint64_t rp = k.value("row_pitch", uint64_t{0}), dp = k.value("depth_pitch", uint64_t{0});
    const cf::Memory start = cf::place(cf::res_size_of(k, L), cf::lin_size_of(k, L), cf::relative_placement(k, L));
    cf::Memory gpu = start, cpu = start;
    Status g, c;
    if (op == "write") {
      g = ctx.write_to_subresource(L, gpu.res(), gpu.res_size, sub, box, gpu.lin(), gpu.lin_size, rp, dp);
      c = write_to_subresource(L, cpu.res(), cpu.res_size, sub, box, cpu.lin(), cpu.lin_size, rp, dp);
    } else {
      g = ctx.read_from_subresource(gpu.lin(), gpu.lin_size, rp, dp, L, gpu.res(), gpu.res_size, sub, box);
      c = read_from_subresource(cpu.lin(), cpu.lin_size, rp, dp, L, cpu.res(), cpu.res_size, sub, box);
    }
    EXPECT_EQ(cf::verdict(g), k["expect"].get<std::string>()) << g.message();
    EXPECT_EQ(cf::verdict(c), k["expect"].get<std::string>()) << c.message();
    EXPECT_TRUE(gpu.arena == cpu.arena) << "the GPU path wrote other bytes than the CPU path";
    if (!g.ok()) {
      EXPECT_TRUE(gpu.arena == start.arena) << "a refused request wrote memory";
    }
    ++ran;
  }
  EXPECT_GE(ran, 40u);
}

// Host-visible VkBuffer for the recording tests.
struct TestBuffer {
  VkDevice dev = VK_NULL_HANDLE;
  VkBuffer buf = VK_NULL_HANDLE;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  uint8_t* map = nullptr;
  uint64_t size = 0;
  ~TestBuffer() {
    if (!dev) return;
    if (map) vkUnmapMemory(dev, mem);
    if (buf) vkDestroyBuffer(dev, buf, nullptr);
    if (mem) vkFreeMemory(dev, mem, nullptr);
  }
  bool init(gpu::Context& ctx, uint64_t n) {
    dev = ctx.device();
    size = n;
    VkBufferCreateInfo bi{};
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.size = std::max<uint64_t>(n, 16);
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (vkCreateBuffer(dev, &bi, nullptr, &buf) != VK_SUCCESS) return false;
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, buf, &mr);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(ctx.physical_device(), &mp);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; ++i)
      if ((mr.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) type = i;
    if (type == UINT32_MAX) return false;
    VkMemoryAllocateInfo ai{};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = mr.size;
    ai.memoryTypeIndex = type;
    if (vkAllocateMemory(dev, &ai, nullptr, &mem) != VK_SUCCESS) return false;
    vkBindBufferMemory(dev, buf, mem, 0);
    void* m = nullptr;
    if (vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, &m) != VK_SUCCESS) return false;
    map = static_cast<uint8_t*>(m);
    return true;
  }
};

// Records one conversion into a fresh command buffer on `ctx`'s queue and waits.
template <class Rec>
Status run_recorded(gpu::Context& ctx, Rec rec) {
  VkDevice dev = ctx.device();
  VkCommandPoolCreateInfo pci{};
  pci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pci.queueFamilyIndex = ctx.queue_family();
  VkCommandPool pool;
  if (vkCreateCommandPool(dev, &pci, nullptr, &pool) != VK_SUCCESS) return {Code::internal, "pool"};
  VkCommandBufferAllocateInfo cai{};
  cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  cai.commandPool = pool;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 1;
  VkCommandBuffer cb;
  vkAllocateCommandBuffers(dev, &cai, &cb);
  VkCommandBufferBeginInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  vkBeginCommandBuffer(cb, &bi);
  Status s = rec(cb);
  VkMemoryBarrier mb{};
  mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0,
                       nullptr);
  vkEndCommandBuffer(cb);
  if (s.ok()) {
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    vkQueueSubmit(ctx.queue(), 1, &si, VK_NULL_HANDLE);
    vkQueueWaitIdle(ctx.queue());
  }
  vkDestroyCommandPool(dev, pool, nullptr);
  return s;
}

TEST(Gpu, RecordedBetweenBuffersWithOffsetsMatchScalar) {
  SWZ_NEED_GPU();
  gpu::Context& ctx = shared().ctx;
  std::mt19937 og(9);
  run_matrix(4242, 80, [&](const Case& c, std::vector<uint8_t>& res, std::vector<uint8_t>& lin, bool to_swz) -> Status {
    const uint64_t ro = (og() % 2) ? 512 * (og() % 3) : og() % 300, lo = og() % 100;
    TestBuffer rb, lb;
    if (!rb.init(ctx, res.size() + ro + 64) || !lb.init(ctx, lin.size() + lo + 64))
      return {Code::internal, "test buffer"};
    std::memcpy(rb.map + ro, res.data(), res.size());
    std::memcpy(lb.map + lo, lin.data(), lin.size());
    const Box* box = c.has_box ? &c.box : nullptr;
    gpu::BufferRange R{rb.buf, ro, res.size()}, Lr{lb.buf, lo, lin.size()};
    SWZ_TRY(run_recorded(ctx, [&](VkCommandBuffer cb) {
      return to_swz ? ctx.record_write_to_subresource(cb, c.layout, R, c.sub, box, Lr, c.rp, c.dp)
                    : ctx.record_read_from_subresource(cb, Lr, c.rp, c.dp, c.layout, R, c.sub, box);
    }));
    std::memcpy(res.data(), rb.map + ro, res.size());
    std::memcpy(lin.data(), lb.map + lo, lin.size());
    return Status::Ok();
  });
}

TEST(Gpu, AdoptedDeviceWorks) {
  SWZ_NEED_GPU();
  gpu::Context& own = shared().ctx;
  gpu::AdoptInfo ai;
  ai.instance = own.instance();
  ai.physical_device = own.physical_device();
  ai.device = own.device();
  ai.queue = own.queue();
  ai.queue_family = own.queue_family();
  ai.storage_buffer_8bit = true;  // the owning context enabled what the device has
  ai.storage_buffer_16bit = true;
  ai.external_memory_host = true;
  gpu::Context adopted;
  Status s = gpu::Context::adopt(&adopted, ai);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(adopted.device(), own.device());
  auto convert = [&](const Case& c, std::vector<uint8_t>& res, std::vector<uint8_t>& lin, bool to_swz) -> Status {
    const Box* box = c.has_box ? &c.box : nullptr;
    if (to_swz)
      return adopted.write_to_subresource(c.layout, res.data(), res.size(), c.sub, box, lin.data(), lin.size(), c.rp,
                                          c.dp);
    return adopted.read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout, res.data(), res.size(), c.sub,
                                         box);
  };
  run_matrix(5, 15, convert);
  // Import on the adopted device (the owning context enabled
  // VK_EXT_external_memory_host where the device offers it; lavapipe does).
  TextureDesc d;
  d.width = 64;
  d.height = 64;
  d.format = format_for(4);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  std::vector<uint8_t> lin(64 * 64 * 4, 7), res(L.size(), 0), cpu(L.size(), 0);
  gpu::DispatchTuning t;
  t.host_path = gpu::HostPath::import;
  adopted.set_tuning(t);
  s = adopted.write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), 256, 0);
  SWZ_SKIP_IF_NO_IMPORT(adopted, s);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(adopted.last_host_stats().path, gpu::HostPath::import);
  ASSERT_TRUE(write_to_subresource(L, cpu.data(), cpu.size(), 0, nullptr, lin.data(), lin.size(), 256, 0).ok());
  EXPECT_EQ(res, cpu);
}

TEST(Gpu, StandardSwizzleAllElementSizesFullAndBoxed) {
  SWZ_NEED_GPU();
  gpu::Context& ctx = shared().ctx;
  std::mt19937 g(11);
  int ran = 0;
  for (LayoutKind kind : {LayoutKind::Std64K, LayoutKind::Std4K})
    for (uint32_t e : {1u, 2u, 4u, 8u, 16u})
      for (bool is3d : {false, true}) {
        TextureDesc d;
        d.dimension = is3d ? Dimension::Texture3D : Dimension::Texture2D;
        d.width = is3d ? 37 : 300;
        d.height = is3d ? 21 : 77;
        d.depth = is3d ? 9 : 1;
        d.format = format_for(e);
        LayoutSpec spec;
        spec.kind = kind;
        Layout L;
        if (!make_layout(d, spec, &L).ok()) continue;  // e.g. no 4KB 3D shape for this size
        for (int boxed = 0; boxed < 2; ++boxed) {
          Box b{3, 5, is3d ? 2u : 0u, d.width - 4, d.height - 1, is3d ? 7u : 1u};
          const Box* box = boxed ? &b : nullptr;
          const uint64_t w = boxed ? b.right - b.left : d.width, h = boxed ? b.bottom - b.top : d.height,
                         dd = boxed ? b.back - b.front : d.depth;
          const uint64_t rp = w * e, dp = rp * h, n = dp * dd;
          auto lin = random_bytes(g, n);
          auto res0 = random_bytes(g, L.size());
          auto a = res0, bgpu = res0;
          ASSERT_TRUE(write_to_subresource(L, a.data(), a.size(), 0, box, lin.data(), n, rp, dp, scalar()).ok());
          Status s = ctx.write_to_subresource(L, bgpu.data(), bgpu.size(), 0, box, lin.data(), n, rp, dp);
          ASSERT_TRUE(s.ok()) << s.message();
          ASSERT_EQ(first_diff(a, bgpu), a.size()) << L.name() << " e=" << e << " 3d=" << is3d << " boxed=" << boxed;
          std::vector<uint8_t> back(n, 0);
          s = ctx.read_from_subresource(back.data(), n, rp, dp, L, bgpu.data(), bgpu.size(), 0, box);
          ASSERT_TRUE(s.ok()) << s.message();
          EXPECT_EQ(back, lin) << L.name() << " e=" << e << " round trip";
        }
        ++ran;
      }
  // 64KB standard swizzle has 2D and 3D shapes for every element size.
  EXPECT_GE(ran, 10) << "layouts checked";
}

// The host conveniences on a Context told (SWZ_GPU_MAX_BINDING) that one
// binding holds 8 KiB: regions past it are split into bands; those that
// cannot be split are refused by check_subresource and by the call itself,
// before anything is allocated.
TEST(Gpu, HostConveniencesSplitIntoBands) {
  SWZ_NEED_GPU();
  setenv("SWZ_GPU_MAX_BINDING", "8192", 1);
  gpu::Context ctx;
  Status cs = gpu::Context::create(&ctx);
  unsetenv("SWZ_GPU_MAX_BINDING");
  ASSERT_TRUE(cs.ok()) << cs.message();
  // Each path splits: the ring's chunks are bands of at most one binding,
  // import and staged bind windows of the whole subresource.
  for (gpu::HostPath path : {gpu::HostPath::automatic, gpu::HostPath::import, gpu::HostPath::staged}) {
    gpu::DispatchTuning t;
    t.host_path = path;
    ctx.set_tuning(t);
    int split = 0, refused = 0;
    run_matrix(31337, path == gpu::HostPath::automatic ? 120 : 50,
               [&](const Case& c, std::vector<uint8_t>& res, std::vector<uint8_t>& lin, bool to_swz) -> Status {
                 const Box* box = c.has_box ? &c.box : nullptr;
                 Status chk = ctx.check_subresource(c.layout, c.sub, box, c.rp, c.dp);
                 if (!chk.ok()) {
                   if (chk.code() != Code::unsupported || chk.message().find("cannot be split") == std::string::npos)
                     return chk;
                   ++refused;
                   Status s = to_swz ? ctx.write_to_subresource(c.layout, res.data(), res.size(), c.sub, box,
                                                                lin.data(), lin.size(), c.rp, c.dp)
                                     : ctx.read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout,
                                                                 res.data(), res.size(), c.sub, box);
                   if (s.code() != Code::unsupported)
                     return {Code::internal, "check refused but the call did not: " + s.message()};
                   // Same bytes as the CPU, so the matrix goes on.
                   return to_swz ? write_to_subresource(c.layout, res.data(), res.size(), c.sub, box, lin.data(),
                                                        lin.size(), c.rp, c.dp, scalar())
                                 : read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout, res.data(),
                                                         res.size(), c.sub, box, scalar());
                 }
                 if (c.layout.sub(c.sub).size > 8192) ++split;
                 if (path == gpu::HostPath::import) {
                   Status s = to_swz ? ctx.write_to_subresource(c.layout, res.data(), res.size(), c.sub, box,
                                                                lin.data(), lin.size(), c.rp, c.dp)
                                     : ctx.read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout,
                                                                 res.data(), res.size(), c.sub, box);
                   if (import_unavailable(s))  // the CPU's bytes, so the matrix goes on
                     return to_swz ? write_to_subresource(c.layout, res.data(), res.size(), c.sub, box, lin.data(),
                                                          lin.size(), c.rp, c.dp, scalar())
                                   : read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout, res.data(),
                                                           res.size(), c.sub, box, scalar());
                   return s;
                 }
                 return to_swz ? ctx.write_to_subresource(c.layout, res.data(), res.size(), c.sub, box, lin.data(),
                                                          lin.size(), c.rp, c.dp)
                               : ctx.read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout, res.data(),
                                                           res.size(), c.sub, box);
               });
    std::printf("[ swz gpu ] 8 KiB bindings, path %d: %d conversions of subresources past 8 KiB, %d refused\n",
                static_cast<int>(path), split, refused);
    EXPECT_GT(split, path == gpu::HostPath::automatic ? 20 : 8);
  }
}

// A surface larger than one storage-buffer binding on lavapipe (128 MiB):
// 8192 x 4160 RGBA8 = 130 MiB, swizzled through the pinned ring (8 MiB
// chunks) against the CPU path, then read back through imported memory (two
// binding-sized bands on lavapipe; one dispatch on devices with larger
// bindings).
TEST(Gpu, SurfaceLargerThanLavapipeBinding) {
  SWZ_NEED_GPU();
  gpu::Context& ctx = shared().ctx;
  TextureDesc d;
  d.width = 8192;
  d.height = 4160;
  d.format = format_for(4);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  const uint64_t rp = 8192ull * 4, lin_bytes = rp * d.height;
  ASSERT_GT(L.size(), 128ull << 20);
  std::vector<uint8_t> lin(lin_bytes);
  uint64_t st = 88172645463325252ull;
  for (uint64_t i = 0; i + 8 <= lin_bytes; i += 8) {
    st ^= st << 13;
    st ^= st >> 7;
    st ^= st << 17;
    std::memcpy(&lin[i], &st, 8);
  }
  std::vector<uint8_t> gpu_res(L.size(), 0xA5), cpu_res(L.size(), 0xA5);
  ASSERT_TRUE(ctx.check_subresource(L, 0, nullptr, rp, 0).ok());
  Status s = ctx.write_to_subresource(L, gpu_res.data(), gpu_res.size(), 0, nullptr, lin.data(), lin.size(), rp, 0);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(ctx.last_host_stats().path, gpu::HostPath::ring);
  EXPECT_GT(ctx.last_host_stats().chunks, 10u);
  ASSERT_TRUE(write_to_subresource(L, cpu_res.data(), cpu_res.size(), 0, nullptr, lin.data(), lin.size(), rp, 0).ok());
  ASSERT_EQ(first_diff(cpu_res, gpu_res), cpu_res.size());
  // Back through the caller's imported memory: the import path binds the
  // whole subresource, so on lavapipe it splits into binding-sized bands.
  gpu::DispatchTuning t;
  t.host_path = gpu::HostPath::import;
  ctx.set_tuning(t);
  std::vector<uint8_t> back(lin_bytes, 0);
  s = ctx.read_from_subresource(back.data(), back.size(), rp, 0, L, gpu_res.data(), gpu_res.size(), 0, nullptr);
  ctx.set_tuning(gpu::DispatchTuning{});
  SWZ_SKIP_IF_NO_IMPORT(ctx, s);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(ctx.last_host_stats().path, gpu::HostPath::import);
  if (ctx.device_name().find("llvmpipe") == 0) {
    EXPECT_GE(ctx.last_host_stats().chunks, 2u);
  }
  ASSERT_EQ(first_diff(lin, back), lin.size());
}

// ---- Host paths (HostPath): each forced, against the scalar CPU path ---------

const char* path_name(gpu::HostPath p) {
  switch (p) {
    case gpu::HostPath::import:
      return "import";
    case gpu::HostPath::ring:
      return "ring";
    case gpu::HostPath::ring_copy:
      return "ring_copy";
    case gpu::HostPath::staged:
      return "staged";
    default:
      return "automatic";
  }
}

// A Context whose host conveniences take `path`, with ring chunks and
// import bands of chunk_B bytes (4 KiB: surfaces of a few KiB already go
// through several chunks); ring_copy also makes its host copies with
// non-temporal stores. `import_direct`: the import path's single dispatch
// over the bus instead of bands.
Status make_path_context(gpu::HostPath path, uint64_t chunk_B, gpu::Context* ctx, bool import_direct = false) {
  SWZ_TRY(gpu::Context::create(ctx));
  gpu::DispatchTuning t;
  t.host_path = path;
  t.ring_chunk_B = chunk_B;
  t.import_band_B = import_direct ? UINT64_MAX : chunk_B;
  t.ring_slots = 3;
  t.stream_copies = path == gpu::HostPath::ring_copy;  // both kinds of host copy are tested
  ctx->set_tuning(t);
  return Status::Ok();
}

// The random matrix through each forced path. Ring paths must run as a ring
// with several chunks for a good share of the cases (and fall back to the
// staged path only for regions that cannot be split into disjoint bands).
// The import path runs twice: in 4 KiB bands through device slots, and as
// one direct dispatch.
struct PathVariant {
  gpu::HostPath path;
  bool import_direct;
};
const PathVariant kPathVariants[] = {{gpu::HostPath::ring, false},
                                     {gpu::HostPath::ring_copy, false},
                                     {gpu::HostPath::import, false},
                                     {gpu::HostPath::import, true},
                                     {gpu::HostPath::staged, false}};

TEST(Gpu, EachHostPathMatchesScalar) {
  SWZ_NEED_GPU();
  for (const PathVariant& pv : kPathVariants) {
    const gpu::HostPath path = pv.path;
    gpu::Context ctx;
    Status cs = make_path_context(path, 4096, &ctx, pv.import_direct);
    ASSERT_TRUE(cs.ok()) << cs.message();
    int multi = 0, as_forced = 0, staged = 0, total = 0;
    bool skipped = false;
    run_matrix(777, 60, [&](const Case& c, std::vector<uint8_t>& res, std::vector<uint8_t>& lin, bool to_swz) {
      const Box* box = c.has_box ? &c.box : nullptr;
      Status s = to_swz ? ctx.write_to_subresource(c.layout, res.data(), res.size(), c.sub, box, lin.data(), lin.size(),
                                                   c.rp, c.dp)
                        : ctx.read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout, res.data(),
                                                    res.size(), c.sub, box);
      if (path == gpu::HostPath::import && import_unavailable(s)) {
        skipped = true;  // keep the matrix going with the CPU's bytes
        return to_swz ? write_to_subresource(c.layout, res.data(), res.size(), c.sub, box, lin.data(), lin.size(), c.rp,
                                             c.dp, scalar())
                      : read_from_subresource(lin.data(), lin.size(), c.rp, c.dp, c.layout, res.data(), res.size(),
                                              c.sub, box, scalar());
      }
      if (!s.ok()) return s;
      const gpu::HostPathStats st = ctx.last_host_stats();
      ++total;
      if (st.path == path) ++as_forced;
      if (st.path == gpu::HostPath::staged) ++staged;
      if (st.chunks > 1) ++multi;
      if (st.path != path &&
          !((path == gpu::HostPath::ring || path == gpu::HostPath::ring_copy) && st.path == gpu::HostPath::staged))
        return Status{Code::internal, std::string("forced ") + path_name(path) + " ran " + path_name(st.path)};
      return s;
    });
    std::printf("[ swz gpu ] host path %s%s: %d conversions, %d as forced, %d staged, %d in several chunks\n",
                path_name(path), pv.import_direct ? " (direct)" : "", total, as_forced, staged, multi);
    if (skipped) {
      ASSERT_NE(ctx.device_name().find("llvmpipe"), 0u) << "lavapipe offers VK_EXT_external_memory_host";
      continue;
    }
    EXPECT_GT(as_forced, total * 3 / 4) << path_name(path);
    if (path == gpu::HostPath::ring || path == gpu::HostPath::ring_copy ||
        (path == gpu::HostPath::import && !pv.import_direct)) {
      EXPECT_GT(multi, 20) << path_name(path);
    }
  }
}

// A 2D surface through each path with the caller's pointers at odd offsets
// (1..4095 bytes past a page), guard bytes around both spans, a box that
// leaves resource bytes untouched (so the ring copies the windows in) and a
// padded linear pitch (so reads copy the linear rows in), 4 KiB chunks
// (grown to one 40 KiB tile row).
TEST(Gpu, HostPathsOddPointersAndPartialCoverage) {
  SWZ_NEED_GPU();
  std::mt19937 g(5);
  struct Shape {
    bool boxed;
    uint64_t pad_B;
  };
  const Shape shapes[] = {{false, 0}, {true, 0}, {false, 52}, {true, 4096}};
  const uint64_t offsets[] = {0, 1, 4096 + 3};
  // 300 x 200: tiles at the right and bottom edges are partly outside the
  // surface, so no band's window is filled and writes copy windows in;
  // 256 x 224 (8 x 7 whole tiles): the full-surface writes fill every window.
  const uint32_t sizes[2][2] = {{300, 200}, {256, 224}};
  for (const PathVariant& pv : kPathVariants) {
    const gpu::HostPath path = pv.path;
    gpu::Context ctx;
    Status cs = make_path_context(path, 4096, &ctx, pv.import_direct);
    ASSERT_TRUE(cs.ok()) << cs.message();
    for (const auto& wh : sizes) {
      TextureDesc d;
      d.width = wh[0];
      d.height = wh[1];
      d.format = format_for(4);
      LayoutSpec spec;
      spec.kind = LayoutKind::Std4K;  // 32 x 32 tiles: 7 tile rows, one band each
      Layout L;
      ASSERT_TRUE(make_layout(d, spec, &L).ok());
      for (const Shape& sh : shapes)
        for (uint64_t off : offsets) {
          Box b{36, 20, 0, 250, 170, 1};
          const Box* box = sh.boxed ? &b : nullptr;
          const uint64_t w = sh.boxed ? b.right - b.left : d.width, h = sh.boxed ? b.bottom - b.top : d.height;
          const uint64_t rp = w * 4 + sh.pad_B, lin_B = (h - 1) * rp + w * 4;
          const uint64_t guard = 64, roff = (off * 7) % 4096;
          // Caller memory: [guard | span | guard] at an odd offset in a larger block.
          std::vector<uint8_t> lin_mem = random_bytes(g, off + lin_B + 2 * guard + 8192);
          std::vector<uint8_t> res_mem = random_bytes(g, roff + L.size() + 2 * guard + 8192);
          uint8_t* lin = lin_mem.data() + guard + off;
          uint8_t* res = res_mem.data() + guard + roff;
          auto cpu_res = res_mem;
          ASSERT_TRUE(
              write_to_subresource(L, cpu_res.data() + guard + roff, L.size(), 0, box, lin, lin_B, rp, 0, scalar())
                  .ok());
          Status s = ctx.write_to_subresource(L, res, L.size(), 0, box, lin, lin_B, rp, 0);
          if (path == gpu::HostPath::import) SWZ_SKIP_IF_NO_IMPORT(ctx, s);
          ASSERT_TRUE(s.ok()) << path_name(path) << ": " << s.message();
          const gpu::HostPathStats st = ctx.last_host_stats();
          EXPECT_EQ(st.path, path) << path_name(path) << " ran " << path_name(st.path);
          if (path == gpu::HostPath::ring || path == gpu::HostPath::ring_copy ||
              (path == gpu::HostPath::import && !pv.import_direct)) {
            EXPECT_GE(st.chunks, 5u) << path_name(path);
          }
          ASSERT_EQ(first_diff(cpu_res, res_mem), res_mem.size())
              << path_name(path) << " write, pointer offset " << off << " boxed " << sh.boxed << " pad " << sh.pad_B;
          // Read back into a prefilled linear buffer with guards.
          auto lin_gpu = random_bytes(g, lin_mem.size());
          auto lin_cpu = lin_gpu;
          ASSERT_TRUE(
              read_from_subresource(lin_cpu.data() + guard + off, lin_B, rp, 0, L, res, L.size(), 0, box, scalar())
                  .ok());
          s = ctx.read_from_subresource(lin_gpu.data() + guard + off, lin_B, rp, 0, L, res, L.size(), 0, box);
          ASSERT_TRUE(s.ok()) << path_name(path) << ": " << s.message();
          EXPECT_EQ(ctx.last_host_stats().path, path);
          ASSERT_EQ(first_diff(lin_cpu, lin_gpu), lin_gpu.size())
              << path_name(path) << " read, pointer offset " << off << " boxed " << sh.boxed << " pad " << sh.pad_B;
        }
    }
  }
}

// Registered host memory: automatic calls whose spans lie in registered
// ranges take the import path without importing anything per call.
TEST(Gpu, RegisteredHostMemory) {
  SWZ_NEED_GPU();
  gpu::Context ctx;
  ASSERT_TRUE(gpu::Context::create(&ctx).ok());
  TextureDesc d;
  d.width = 300;
  d.height = 100;
  d.format = format_for(8);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  std::mt19937 g(9);
  const uint64_t rp = 300 * 8 + 24, lin_B = 99 * rp + 300 * 8;
  // Each span starts and ends more than a page inside its own allocation,
  // so the two registered ranges never share a page (drivers may refuse a
  // page imported twice).
  std::vector<uint8_t> lin_mem = random_bytes(g, lin_B + 3 * 4096), res_mem = random_bytes(g, L.size() + 3 * 4096);
  uint8_t* lin = lin_mem.data() + 4096 + 3;
  uint8_t* res = res_mem.data() + 4096 + 1000;
  Status s = ctx.register_host_memory(lin, lin_B);
  SWZ_SKIP_IF_NO_IMPORT(ctx, s);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(ctx.register_host_memory(res, L.size()).ok());
  EXPECT_EQ(ctx.register_host_memory(lin + 8, 16).code(), Code::invalid_argument);  // overlaps
  EXPECT_EQ(ctx.register_host_memory(nullptr, 16).code(), Code::invalid_argument);
  auto cpu_res = res_mem;
  ASSERT_TRUE(
      write_to_subresource(L, cpu_res.data() + 4096 + 1000, L.size(), 0, nullptr, lin, lin_B, rp, 0, scalar()).ok());
  ASSERT_TRUE(ctx.write_to_subresource(L, res, L.size(), 0, nullptr, lin, lin_B, rp, 0).ok());
  EXPECT_EQ(ctx.last_host_stats().path, gpu::HostPath::import);
  EXPECT_EQ(ctx.last_host_stats().imported_B, 0u);
  ASSERT_EQ(first_diff(cpu_res, res_mem), res_mem.size());
  // Read back over a scrambled linear buffer (the row padding must survive).
  std::vector<uint8_t> lin_copy(lin, lin + lin_B);
  std::vector<uint8_t> scrambled = random_bytes(g, lin_B);
  for (uint64_t y = 0; y < 100; ++y) std::memcpy(lin + y * rp, scrambled.data() + y * rp, 300 * 8);
  ASSERT_TRUE(ctx.read_from_subresource(lin, lin_B, rp, 0, L, res, L.size(), 0, nullptr).ok());
  EXPECT_EQ(ctx.last_host_stats().path, gpu::HostPath::import);
  EXPECT_EQ(ctx.last_host_stats().imported_B, 0u);
  EXPECT_EQ(std::memcmp(lin, lin_copy.data(), lin_B), 0);
  ASSERT_TRUE(ctx.unregister_host_memory(lin).ok());
  EXPECT_EQ(ctx.unregister_host_memory(lin).code(), Code::invalid_argument);
  // One side registered: automatic does not import for free.
  ASSERT_TRUE(ctx.write_to_subresource(L, res, L.size(), 0, nullptr, lin, lin_B, rp, 0).ok());
  EXPECT_NE(ctx.last_host_stats().path, gpu::HostPath::automatic);
  ASSERT_EQ(first_diff(cpu_res, res_mem), res_mem.size());
}

// Forced import of a resource and a linear buffer that share a page (one
// allocation, the linear bytes right after the resource's): imported once
// as their union, both directions equal to the CPU path.
TEST(Gpu, ImportOfSpansSharingAPage) {
  SWZ_NEED_GPU();
  gpu::Context ctx;
  ASSERT_TRUE(make_path_context(gpu::HostPath::import, 0, &ctx).ok());
  TextureDesc d;
  d.width = 40;
  d.height = 24;
  d.format = format_for(4);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std4K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  std::mt19937 g(21);
  const uint64_t rp = 40 * 4, lin_B = rp * 24, res_at = 100, lin_at = res_at + L.size() + 5;
  std::vector<uint8_t> mem = random_bytes(g, lin_at + lin_B + 100);
  auto cpu = mem;
  ASSERT_TRUE(
      write_to_subresource(L, cpu.data() + res_at, L.size(), 0, nullptr, cpu.data() + lin_at, lin_B, rp, 0, scalar())
          .ok());
  Status s = ctx.write_to_subresource(L, mem.data() + res_at, L.size(), 0, nullptr, mem.data() + lin_at, lin_B, rp, 0);
  SWZ_SKIP_IF_NO_IMPORT(ctx, s);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(ctx.last_host_stats().path, gpu::HostPath::import);
  ASSERT_EQ(first_diff(cpu, mem), mem.size());
  // Scramble the linear bytes, read them back from the resource.
  for (uint64_t i = 0; i < lin_B; ++i) mem[lin_at + i] = static_cast<uint8_t>(g());
  s = ctx.read_from_subresource(mem.data() + lin_at, lin_B, rp, 0, L, mem.data() + res_at, L.size(), 0, nullptr);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(first_diff(cpu, mem), mem.size());
}

// ---- The banded import path, byte for byte ------------------------------------

// A case for the banded import path: a named layout (vendor families, the
// standard swizzles, row-major), 1..16-byte elements or a block-compressed,
// planar or 12-byte format, a random subresource and box, a padded linear
// pitch. `narrow`: wide surfaces and boxes a few elements wide, so that each
// band's output is a few bytes (downloads shorter than one 16-byte word, or
// with partial words at both ends).
bool make_import_case(std::mt19937& g, bool narrow, Case* c) {
  const char* layouts[] = {"nv-block-linear:gob=tegra",
                           "nv-block-linear:gob=tegra,bh=1",
                           "amd-gfx9-sw64k-s-x",
                           "amd-gfx10.3-sw64k-s-x:pipes=8",
                           "intel-tile4",
                           "intel-tiley",
                           "std64k",
                           "std4k",
                           "row-major"};
  const char* formats[] = {"R8_UNORM",  "R8G8_UNORM", "R8G8B8A8_UNORM", "R16G16B16A16_UNORM", "R32G32B32A32_FLOAT",
                           "BC1_UNORM", "BC7_UNORM",  "NV12",           "R32G32B32_FLOAT"};
  const char* lname = layouts[rnd(g, 0, 8)];
  const char* fname = formats[coin(g, 0.75) ? rnd(g, 0, 4) : rnd(g, 5, 8)];
  TextureDesc d;
  d.format = format_named(fname);
  const uint32_t e = d.format.element_bytes;
  if (narrow) {
    d.width = rnd(g, 4096 / e, 8192 / e) / 4 * 4;
    d.height = rnd(g, 64, 512) / 4 * 4;
  } else {
    d.width = rnd(g, 1, 80) * 4;
    d.height = rnd(g, 1, 90) * 4;
  }
  d.array_size = narrow ? 1 : rnd(g, 1, 2);
  d.mip_levels = std::min(rnd(g, 1, 3), full_mip_count(d.width, d.height, 1));
  LayoutOptions o;
  if (std::string(lname) == "row-major" && coin(g, 0.5))
    o.row_pitch_B = (uint64_t{d.width} / d.format.block_width * e + 255) / 256 * 256 + 256 * rnd(g, 0, 2);
  Layout L;
  if (!make_layout_from_name(lname, d, o, &L).ok() || L.size() > (12u << 20)) return false;
  c->layout = L;
  c->sub = rnd(g, 0, L.subresource_count() - 1);
  const SubresourceLayout& s = L.sub(c->sub);
  if (s.packed) return false;
  // Boxes in whole elements (a plane's element may span several texels).
  const uint32_t tw = (s.width + s.width_el - 1) / s.width_el, th = (s.height + s.height_el - 1) / s.height_el;
  uint32_t x0 = 0, y0 = 0, x1 = s.width_el, y1 = s.height_el;
  c->has_box = narrow || coin(g, 0.6);
  if (c->has_box) {
    x0 = rnd(g, 0, s.width_el - 1);
    y0 = rnd(g, 0, s.height_el / 4);
    x1 = narrow ? std::min(s.width_el, x0 + rnd(g, 1, 24)) : rnd(g, x0 + 1, s.width_el);
    y1 = rnd(g, y0 + 1, s.height_el);
    c->box = Box{x0 * tw, y0 * th, 0, std::min(s.width, x1 * tw), std::min(s.height, y1 * th), 1};
  }
  const uint64_t row = uint64_t{x1 - x0} * s.element_bytes, h = y1 - y0;
  const uint32_t pad_kind = rnd(g, 0, 2);
  c->rp = row + (pad_kind == 0 ? 0 : pad_kind == 1 ? rnd(g, 1, 40) : 16 * rnd(g, 1, 4));
  c->dp = c->rp * h;
  c->lin_size = (h - 1) * c->rp + row + rnd(g, 0, 20);
  std::ostringstream os;
  os << lname << " " << fname << " " << d.width << "x" << d.height << "x" << d.array_size << " mips " << d.mip_levels
     << " sub " << c->sub << " box " << x0 << "," << y0 << "-" << x1 << "," << y1 << " (elements) rp " << c->rp;
  c->text = os.str();
  return true;
}

// The import path in 4 KiB bands (and a few other band sizes) over random
// cases: the caller's spans at odd offsets (1..15 past a 16-byte word, up to
// a page), in separate allocations or one after the other in one allocation
// (sharing a page, a word even), imported per call or registered (each span,
// or the whole allocations), with 256 guard bytes around both spans; both
// directions compared with the scalar CPU path over every byte of both
// allocations (a byte written outside the output span, or a padding byte
// of a read's linear rows not kept, fails), for make_case's random patterns
// (2D and 3D, stacked depth, mips, arrays) and for named layouts.
TEST(Gpu, BandedImportMatchesScalarEveryByte) {
  SWZ_NEED_GPU();
  gpu::Context ctx;
  ASSERT_TRUE(gpu::Context::create(&ctx).ok());
  std::mt19937 g(808);
  int done = 0, banded = 0, narrow_banded = 0, registered = 0;
  const int kCases = 180;
  for (int it = 0; done < kCases && it < kCases * 30; ++it) {
    Case c;
    const int kind = done % 3;  // 0: make_case, 1: named layouts, 2: narrow boxes
    if (!(kind == 0 ? make_case(g, &c) : make_import_case(g, kind == 2, &c))) continue;
    const Box* box = c.has_box ? &c.box : nullptr;
    const uint64_t rs = c.layout.size(), ls = c.lin_size;
    if (c.layout.sub(c.sub).packed || !ctx.check_subresource(c.layout, c.sub, box, c.rp, c.dp).ok()) continue;
    ++done;
    gpu::DispatchTuning t;
    t.host_path = gpu::HostPath::import;
    const uint64_t band_sizes[] = {4096, 4096, 4096, 5000, 12345};
    t.import_band_B = band_sizes[rnd(g, 0, 4)];
    // 0: separate allocations; 1: resource, gap, linear; 2: linear, gap, resource.
    const int place = static_cast<int>(rnd(g, 0, 2));
    const int reg = static_cast<int>(rnd(g, 0, 2));  // 0: per call; 1: each span; 2: whole allocations
    if (reg != 0 && coin(g, 0.3)) t.host_path = gpu::HostPath::automatic;  // registered: import all the same
    ctx.set_tuning(t);
    const uint64_t roff = coin(g, 0.5) ? rnd(g, 1, 15) : rnd(g, 0, 4095);
    const uint64_t loff = coin(g, 0.5) ? rnd(g, 1, 15) + 16 * rnd(g, 0, 255) : rnd(g, 0, 4095);
    const uint64_t gap = rnd(g, 0, 40), guard = 256;
    std::vector<uint8_t> A = random_bytes(g, rs + ls + gap + 2 * guard + 3 * 4096 + 8192);
    std::vector<uint8_t> B = random_bytes(g, ls + 2 * guard + 2 * 4096 + 8192);
    auto page_in = [&](std::vector<uint8_t>& v) {
      return v.data() + (4096 - reinterpret_cast<uintptr_t>(v.data()) % 4096) % 4096 + guard;
    };
    uint8_t* res = place == 2 ? page_in(A) + loff + ls + gap : page_in(A) + roff;
    uint8_t* lin = place == 0 ? page_in(B) + loff : place == 1 ? res + rs + gap : page_in(A) + loff;
    std::vector<const void*> regs;
    std::string reg_text = "per call";
    std::vector<std::pair<const void*, uint64_t>> to_register;
    if (reg == 1) to_register = {{res, rs}, {lin, ls}};
    if (reg == 2) to_register = {{A.data(), A.size()}, {B.data(), B.size()}};
    for (auto [p, n] : to_register) {
      const Status s = ctx.register_host_memory(p, n);
      SWZ_SKIP_IF_NO_IMPORT(ctx, s);
      if (s.code() == Code::unsupported) {
        // A driver may refuse a page registered twice (spans sharing a
        // page; lavapipe accepts): imported per call instead.
        for (const void* q : regs) ASSERT_TRUE(ctx.unregister_host_memory(q).ok());
        regs.clear();
        t.host_path = gpu::HostPath::import;
        ctx.set_tuning(t);
        break;
      }
      ASSERT_TRUE(s.ok()) << s.message();
      regs.push_back(p);
    }
    if (!regs.empty()) reg_text = reg == 1 ? "each span registered" : "allocations registered";
    std::ostringstream os;
    os << c.text << "; placement " << place << " resource +" << roff << " linear +" << loff << " gap " << gap << ", "
       << reg_text << ", bands of " << t.import_band_B << " B";
    const std::string what = os.str();
    auto cpu_of = [&](std::vector<uint8_t>& cA, std::vector<uint8_t>& cB, uint8_t** cres, uint8_t** clin) {
      *cres = cA.data() + (res - A.data());
      *clin = place == 0 ? cB.data() + (lin - B.data()) : cA.data() + (lin - A.data());
    };
    auto count = [&](bool to_swz) {
      const gpu::HostPathStats st = ctx.last_host_stats();
      EXPECT_EQ(st.path, gpu::HostPath::import) << (to_swz ? "write " : "read ") << what;
      if (st.chunks >= 3) {
        ++banded;
        if (kind == 2) ++narrow_banded;
      }
    };
    // Write.
    auto cA = A, cB = B;
    uint8_t *cres, *clin;
    cpu_of(cA, cB, &cres, &clin);
    ASSERT_TRUE(write_to_subresource(c.layout, cres, rs, c.sub, box, clin, ls, c.rp, c.dp, scalar()).ok()) << what;
    Status s = ctx.write_to_subresource(c.layout, res, rs, c.sub, box, lin, ls, c.rp, c.dp);
    ASSERT_TRUE(s.ok()) << what << ": " << s.message();
    count(true);
    ASSERT_EQ(first_diff(cA, A), A.size()) << "write: allocation A differs at byte " << first_diff(cA, A)
                                           << " (resource at " << res - A.data() << ") in " << what;
    ASSERT_EQ(first_diff(cB, B), B.size()) << "write: allocation B differs in " << what;
    // Read into scrambled linear bytes (the padding between rows must stay).
    for (uint64_t i = 0; i < ls; ++i) lin[i] = clin[i] = static_cast<uint8_t>(g());
    ASSERT_TRUE(read_from_subresource(clin, ls, c.rp, c.dp, c.layout, cres, rs, c.sub, box, scalar()).ok()) << what;
    s = ctx.read_from_subresource(lin, ls, c.rp, c.dp, c.layout, res, rs, c.sub, box);
    ASSERT_TRUE(s.ok()) << what << ": " << s.message();
    count(false);
    ASSERT_EQ(first_diff(cA, A), A.size()) << "read: allocation A differs at byte " << first_diff(cA, A)
                                           << " (linear at " << lin - A.data() << ") in " << what;
    ASSERT_EQ(first_diff(cB, B), B.size())
        << "read: allocation B differs at byte " << first_diff(cB, B) << " in " << what;
    registered += !regs.empty();
    for (const void* p : regs) ASSERT_TRUE(ctx.unregister_host_memory(p).ok());
  }
  std::printf("[ swz gpu ] banded import: %d cases (%d registered), %d conversions in bands, %d of narrow boxes\n",
              done, registered, banded, narrow_banded);
  EXPECT_EQ(done, kCases);
  EXPECT_GT(banded, 90);
  EXPECT_GT(narrow_banded, 45);
}

// A region that fits one storage binding at offset 0 but not at the
// caller's pointer, and cannot be split into bands (a 3D box): the import
// path's direct dispatch cannot bind it. With both spans registered, the
// automatic path must not fail (Code::unsupported) where check_subresource
// accepts the request and the ring can convert it: it falls back to the
// ring. Forced, the import path
// refuses with a message naming the pointer's offset, and writes nothing.
// (The device is told, through SWZ_GPU_MAX_BINDING, that one binding holds
// exactly the subresource.)
TEST(Gpu, ImportThatCannotBindTheCallersPointerFallsBack) {
  SWZ_NEED_GPU();
  TextureDesc d;
  d.dimension = Dimension::Texture3D;
  d.width = 64;
  d.height = 32;
  d.depth = 16;
  d.format = format_for(1);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std4K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  ASSERT_GE(L.size(), 4096u);
  const std::string binding = std::to_string(L.size());
  setenv("SWZ_GPU_MAX_BINDING", binding.c_str(), 1);
  gpu::Context ctx;
  Status cs = gpu::Context::create(&ctx);
  unsetenv("SWZ_GPU_MAX_BINDING");
  ASSERT_TRUE(cs.ok()) << cs.message();
  std::mt19937 g(77);
  // A box of 60 x 32 x 16 (every slice): the resource span is the whole
  // subresource, the linear box stays below it.
  const Box bx{2, 0, 0, 62, 32, 16};
  const Box* box = &bx;
  const uint64_t rp = 61, dp = rp * 32 + 3, lin_B = dp * 15 + rp * 31 + 60, guard = 256;
  {
    const Status chk = ctx.check_subresource(L, 0, box, rp, dp);
    ASSERT_TRUE(chk.ok()) << chk.message();
  }
  for (uint64_t off : {uint64_t{0}, uint64_t{4}, uint64_t{13}}) {
    std::vector<uint8_t> rmem = random_bytes(g, L.size() + 2 * guard + 8192), lmem = random_bytes(g, lin_B + 2 * guard);
    // The resource `off` bytes past a page (so past any binding boundary).
    uint8_t* res = rmem.data() + (4096 - reinterpret_cast<uintptr_t>(rmem.data()) % 4096) % 4096 + guard + off;
    uint8_t* lin = lmem.data() + guard;
    ASSERT_TRUE(ctx.register_host_memory(res, L.size()).ok());
    ASSERT_TRUE(ctx.register_host_memory(lin, lin_B).ok());
    for (gpu::HostPath path : {gpu::HostPath::automatic, gpu::HostPath::import}) {
      gpu::DispatchTuning t;
      t.host_path = path;
      ctx.set_tuning(t);
      auto cpu = rmem;
      ASSERT_TRUE(
          write_to_subresource(L, cpu.data() + (res - rmem.data()), L.size(), 0, box, lin, lin_B, rp, dp, scalar())
              .ok());
      const auto before = rmem;
      Status s = ctx.write_to_subresource(L, res, L.size(), 0, box, lin, lin_B, rp, dp);
      const gpu::HostPathStats st = ctx.last_host_stats();
      if (path == gpu::HostPath::import && off % 4 != 0) {
        // (lavapipe binds storage at 16-byte boundaries, other devices at 4 to 256)
        if (s.ok()) continue;
        EXPECT_EQ(s.code(), Code::unsupported) << s.message();
        EXPECT_NE(s.message().find("binding boundary"), std::string::npos) << s.message();
        EXPECT_EQ(first_diff(before, rmem), rmem.size()) << "a refused call wrote the resource";
        continue;
      }
      if (path == gpu::HostPath::import && !s.ok()) {
        EXPECT_EQ(s.code(), Code::unsupported) << s.message();  // the device binds at a coarser boundary
        continue;
      }
      ASSERT_TRUE(s.ok()) << "offset " << off << " path " << path_name(path) << ": " << s.message();
      if (off == 0) {
        EXPECT_EQ(st.path, gpu::HostPath::import) << "offset 0 path " << path_name(path);
      }
      ASSERT_EQ(first_diff(cpu, rmem), rmem.size())
          << "offset " << off << " path " << path_name(path) << " ran " << path_name(st.path);
      // And back.
      auto lcpu = random_bytes(g, lmem.size());
      lmem = lcpu;
      ASSERT_TRUE(read_from_subresource(lcpu.data() + guard, lin_B, rp, dp, L, cpu.data() + (res - rmem.data()),
                                        L.size(), 0, box, scalar())
                      .ok());
      s = ctx.read_from_subresource(lin, lin_B, rp, dp, L, res, L.size(), 0, box);
      ASSERT_TRUE(s.ok()) << "read, offset " << off << " path " << path_name(path) << ": " << s.message();
      ASSERT_EQ(first_diff(lcpu, lmem), lmem.size()) << "read, offset " << off << " path " << path_name(path);
    }
    ASSERT_TRUE(ctx.unregister_host_memory(res).ok());
    ASSERT_TRUE(ctx.unregister_host_memory(lin).ok());
  }
}

// SWZ_GPU_IMPORT_BAND (read when DispatchTuning::import_band_B is 0): a
// byte count gives bands, "direct" one dispatch, and anything else the
// default (for this 256 KiB surface, bands of 4 MiB: one direct dispatch).
// "16M" is not a byte count (not 16 bytes from its leading digits): the default.
TEST(Gpu, ImportBandFromTheEnvironment) {
  SWZ_NEED_GPU();
  gpu::Context ctx;
  ASSERT_TRUE(gpu::Context::create(&ctx).ok());
  gpu::DispatchTuning t;
  t.host_path = gpu::HostPath::import;
  ctx.set_tuning(t);
  TextureDesc d;
  d.width = 256;
  d.height = 256;
  d.format = format_for(4);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std4K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  std::mt19937 g(4);
  const uint64_t rp = 256 * 4;
  const std::vector<uint8_t> lin = random_bytes(g, rp * 256);
  std::vector<uint8_t> cpu(L.size());
  ASSERT_TRUE(
      write_to_subresource(L, cpu.data(), cpu.size(), 0, nullptr, lin.data(), lin.size(), rp, 0, scalar()).ok());
  struct Want {
    const char* value;
    bool banded;
  };
  for (const Want& w : {Want{"4096", true}, Want{"0x2000", true}, Want{"direct", false}, Want{"16M", false},
                        Want{"-4096", false}, Want{"", false}, Want{"banded", false}}) {
    setenv("SWZ_GPU_IMPORT_BAND", w.value, 1);
    std::vector<uint8_t> res(L.size(), 0);
    Status s = ctx.write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), rp, 0);
    unsetenv("SWZ_GPU_IMPORT_BAND");
    SWZ_SKIP_IF_NO_IMPORT(ctx, s);
    ASSERT_TRUE(s.ok()) << w.value << ": " << s.message();
    const gpu::HostPathStats st = ctx.last_host_stats();
    EXPECT_EQ(st.path, gpu::HostPath::import) << w.value;
    if (w.banded) {
      EXPECT_GE(st.chunks, 3u) << "SWZ_GPU_IMPORT_BAND=" << w.value;
      EXPECT_EQ(st.chunk_B, 32u * 1024) << "one row of 4 KiB tiles per band";  // not the device slot's size
    } else {
      EXPECT_EQ(st.chunks, 1u) << "SWZ_GPU_IMPORT_BAND=" << w.value;
      EXPECT_EQ(st.chunk_B, 0u);
    }
    EXPECT_EQ(res, cpu) << w.value;
  }
}

TEST(Gpu, BufferCopy) {
  SWZ_NEED_GPU();
  gpu::Context& ctx = shared().ctx;
  std::mt19937 g(3);
  for (int i = 0; i < 20; ++i) {
    const uint64_t so = g() % 64, dof = g() % 64, n = (i < 5) ? (uint64_t{1} << (10 + i)) : g() % 200000 + 1;
    TestBuffer sb, db;
    ASSERT_TRUE(sb.init(ctx, so + n) && db.init(ctx, dof + n + 32));
    auto src = random_bytes(g, n);
    std::memcpy(sb.map + so, src.data(), n);
    std::memset(db.map, 0xAB, dof + n + 32);
    gpu::DispatchInfo info;
    Status s = run_recorded(ctx, [&](VkCommandBuffer cb) {
      return ctx.record_buffer_copy(cb, {sb.buf, so, n}, {db.buf, dof, n}, n, &info);
    });
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(std::memcmp(db.map + dof, src.data(), n), 0) << "copy " << n << " bytes " << so << "->" << dof;
    for (uint64_t j = 0; j < dof; ++j) ASSERT_EQ(db.map[j], 0xAB);
    for (uint64_t j = dof + n; j < dof + n + 32; ++j) ASSERT_EQ(db.map[j], 0xAB);
  }
}

TEST(Gpu, ErrorsMatchTheCpuCalls) {
  SWZ_NEED_GPU();
  gpu::Context& ctx = shared().ctx;
  TextureDesc d;
  d.width = 64;
  d.height = 32;
  d.mip_levels = 2;
  d.format = format_for(4);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  std::vector<uint8_t> res(L.size()), lin(64 * 32 * 4);
  struct T {
    uint32_t sub;
    Box box;
    bool has_box;
    uint64_t res_size, lin_size, rp;
  };
  const T cases[] = {
      {5, {}, false, res.size(), lin.size(), 256},                  // subresource out of range
      {0, {0, 0, 0, 65, 1, 1}, true, res.size(), lin.size(), 256},  // box outside
      {0, {}, false, res.size() - 1, lin.size(), 256},              // resource too small
      {0, {}, false, res.size(), lin.size() - 1, 256},              // linear too small
      {0, {}, false, res.size(), lin.size(), 255},                  // pitch below a row
      {0, {4, 4, 0, 4, 9, 1}, true, res.size(), lin.size(), 256},   // empty box: no-op
  };
  for (const T& t : cases) {
    Status a = write_to_subresource(L, res.data(), t.res_size, t.sub, t.has_box ? &t.box : nullptr, lin.data(),
                                    t.lin_size, t.rp, 0, scalar());
    Status b = ctx.write_to_subresource(L, res.data(), t.res_size, t.sub, t.has_box ? &t.box : nullptr, lin.data(),
                                        t.lin_size, t.rp, 0);
    EXPECT_EQ(a.code(), b.code()) << a.message() << " | " << b.message();
    a = read_from_subresource(lin.data(), t.lin_size, t.rp, 0, L, res.data(), t.res_size, t.sub,
                              t.has_box ? &t.box : nullptr, scalar());
    b = ctx.read_from_subresource(lin.data(), t.lin_size, t.rp, 0, L, res.data(), t.res_size, t.sub,
                                  t.has_box ? &t.box : nullptr);
    EXPECT_EQ(a.code(), b.code()) << a.message() << " | " << b.message();
  }
  gpu::Context none;
  EXPECT_EQ(none.write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), 256, 0).code(),
            Code::invalid_argument);
}

}  // namespace

// The banded import path on tiny and odd surfaces, 3D
// and arrays at their last subresource, 16-byte elements, boxes at the
// right/bottom edges; every byte (with guards) against the scalar CPU path;
// a buffer one byte short is refused with nothing written.
TEST(Gpu, BandedImportOddShapes) {
  SWZ_NEED_GPU();
  gpu::Context ctx;
  ASSERT_TRUE(gpu::Context::create(&ctx).ok());
  std::mt19937 g(99);
  struct Shape { uint32_t w, h, d, arr, mips, bpe; bool is3d; };
  const Shape shapes[] = {{1, 1, 1, 1, 1, 4, false},  {3, 5, 1, 1, 1, 16, false}, {17, 9, 1, 1, 1, 4, false},
                          {17, 9, 1, 3, 2, 16, false}, {17, 9, 5, 1, 2, 16, true}, {1, 1, 3, 1, 1, 1, true},
                          {300, 70, 1, 2, 1, 16, false}, {65, 129, 9, 1, 1, 8, true}};
  int ran = 0;
  for (const Shape& sh : shapes)
    for (LayoutKind kind : {LayoutKind::Std4K, LayoutKind::Std64K})
      for (int boxmode = 0; boxmode < 2; ++boxmode)
        for (uint64_t band : {uint64_t{4096}, uint64_t{5000}, UINT64_MAX}) {
          TextureDesc d;
          d.dimension = sh.is3d ? Dimension::Texture3D : Dimension::Texture2D;
          d.width = sh.w;
          d.height = sh.h;
          d.depth = sh.d;
          d.array_size = sh.arr;
          d.mip_levels = sh.mips;
          d.format = format_for(sh.bpe);
          LayoutSpec spec;
          spec.kind = kind;
          Layout L;
          if (!make_layout(d, spec, &L).ok()) continue;
          const uint32_t sub = static_cast<uint32_t>(L.subresource_count() - 1);
          const uint32_t mip = sub % sh.mips;
          const uint32_t w = std::max(1u, sh.w >> mip), h = std::max(1u, sh.h >> mip),
                         dd = sh.is3d ? std::max(1u, sh.d >> mip) : 1;
          Box bx{w > 1 ? w / 2 : 0, h > 1 ? h / 3 : 0, dd > 1 ? 1u : 0u, w, h, dd};
          const Box* box = boxmode ? &bx : nullptr;
          const uint32_t bw = boxmode ? bx.right - bx.left : w, bh = boxmode ? bx.bottom - bx.top : h,
                         bd = boxmode ? bx.back - bx.front : dd;
          const uint64_t rp = uint64_t{bw} * sh.bpe + 7, dp = rp * bh + 3;
          const uint64_t ls = dp * (bd - 1) + rp * (bh - 1) + uint64_t{bw} * sh.bpe;
          if (L.sub(sub).packed) continue;
          gpu::DispatchTuning t;
          t.host_path = gpu::HostPath::import;
          t.import_band_B = band;
          ctx.set_tuning(t);
          std::ostringstream os;
          os << sh.w << "x" << sh.h << "x" << sh.d << " arr " << sh.arr << " mips " << sh.mips << " bpe " << sh.bpe
             << " kind " << int(kind) << " sub " << sub << " box " << boxmode << " band " << band;
          const std::string what = os.str();
          const uint64_t rs = L.size(), guard = 64;
          std::vector<uint8_t> R = random_bytes(g, rs + 2 * guard + 5), Lb = random_bytes(g, ls + 2 * guard + 3);
          uint8_t* res = R.data() + guard + 3;
          uint8_t* lin = Lb.data() + guard + 1;
          auto cR = R, cL = Lb;
          ASSERT_TRUE(write_to_subresource(L, cR.data() + guard + 3, rs, sub, box, cL.data() + guard + 1, ls, rp, dp,
                                           scalar()).ok()) << what;
          // One byte short: refused, nothing written.
          auto R0 = R;
          Status s = ctx.write_to_subresource(L, res, rs - 1, sub, box, lin, ls, rp, dp);
          SWZ_SKIP_IF_NO_IMPORT(ctx, s);
          EXPECT_FALSE(s.ok()) << what;
          s = ctx.write_to_subresource(L, res, rs, sub, box, lin, ls - 1, rp, dp);
          EXPECT_FALSE(s.ok()) << what;
          ASSERT_EQ(R, R0) << "short write touched the resource: " << what;
          s = ctx.write_to_subresource(L, res, rs, sub, box, lin, ls, rp, dp);
          ASSERT_TRUE(s.ok()) << what << ": " << s.message();
          ASSERT_EQ(first_diff(cR, R), R.size()) << "write differs at " << first_diff(cR, R) << " " << what;
          for (uint64_t i = 0; i < ls; ++i) lin[i] = cL[guard + 1 + i] = static_cast<uint8_t>(g());
          ASSERT_TRUE(read_from_subresource(cL.data() + guard + 1, ls, rp, dp, L, cR.data() + guard + 3, rs, sub, box,
                                            scalar()).ok()) << what;
          auto L0 = Lb;
          s = ctx.read_from_subresource(lin, ls - 1, rp, dp, L, res, rs, sub, box);
          EXPECT_FALSE(s.ok()) << what;
          s = ctx.read_from_subresource(lin, ls, rp, dp, L, res, rs - 1, sub, box);
          EXPECT_FALSE(s.ok()) << what;
          ASSERT_EQ(Lb, L0) << "short read touched the linear: " << what;
          s = ctx.read_from_subresource(lin, ls, rp, dp, L, res, rs, sub, box);
          ASSERT_TRUE(s.ok()) << what << ": " << s.message();
          ASSERT_EQ(first_diff(cL, Lb), Lb.size()) << "read differs at " << first_diff(cL, Lb) << " " << what;
          ++ran;
        }
  // Every 64KB layout here holds its last subresource outside a packed tail.
  EXPECT_GE(ran, 48) << "subresources checked";
}

// Malformed environment numbers are ignored (the default chunk), not read
// through strtoull's leniencies ("-1" as 2^64-1, i.e. one 64 MiB chunk,
// "010" as octal, an overflow as 2^64-1). Seen through the
// ring path's chunk count on a 16 MiB surface (default: 2 MiB chunks).
TEST(Gpu, MalformedEnvNumbersIgnored) {
  SWZ_NEED_GPU();
  gpu::Context ctx;
  ASSERT_TRUE(gpu::Context::create(&ctx).ok());
  gpu::DispatchTuning t;
  t.host_path = gpu::HostPath::ring;
  ctx.set_tuning(t);
  TextureDesc d;
  d.width = 2048;
  d.height = 2048;
  d.format = format_for(4);
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  std::mt19937 g(9);
  const uint64_t rp = 2048 * 4;
  const std::vector<uint8_t> lin = random_bytes(g, rp * 2048);
  std::vector<uint8_t> cpu(L.size());
  ASSERT_TRUE(
      write_to_subresource(L, cpu.data(), cpu.size(), 0, nullptr, lin.data(), lin.size(), rp, 0, scalar()).ok());
  auto chunks_with = [&](const char* v) -> uint64_t {
    if (v) setenv("SWZ_GPU_RING_CHUNK", v, 1);
    std::vector<uint8_t> res(L.size(), 0);
    Status s = ctx.write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), rp, 0);
    unsetenv("SWZ_GPU_RING_CHUNK");
    EXPECT_TRUE(s.ok()) << (v ? v : "unset") << ": " << s.message();
    EXPECT_EQ(res, cpu) << (v ? v : "unset");
    return ctx.last_host_stats().chunks;
  };
  const uint64_t dflt = chunks_with(nullptr);
  if (ctx.last_host_stats().path != gpu::HostPath::ring) GTEST_SKIP() << "no ring path here";
  ASSERT_GE(dflt, 4u);
  EXPECT_EQ(chunks_with("67108864"), 1u) << "a real 64 MiB chunk: one chunk";
  for (const char* bad : {"-1", "99999999999999999999999", " 67108864", "+67108864", "0x", "64M"})
    EXPECT_EQ(chunks_with(bad), dflt) << "SWZ_GPU_RING_CHUNK=\"" << bad << "\"";
  EXPECT_EQ(chunks_with("0x4000000"), 1u) << "hex";
}
