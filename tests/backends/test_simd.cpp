// The SIMD backends (Highway, xsimd) against the scalar tiler, byte for byte.
//
// Part 1 drives the kernels directly with random Regions (random patterns
// incl. XOR chains from higher bits, postamble terms 8..23 inside and above
// the block, immediates, stacked depth, sample terms; element sizes 1..16;
// random boxes, pre-swizzle offsets, pitches, buffer alignments, streaming).
// Part 2 goes through the public API (write_to_subresource /
// read_from_subresource with CopyOptions::backend), with guard bytes: every
// byte outside the box must be untouched. The scalar tiler itself is checked
// against the spec reference by the core tests.
#include <gtest/gtest.h>
#ifdef SWZ_HAVE_HIGHWAY
#include <hwy/targets.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/kernel.hpp"
#include "backends/simd/geometry.hpp"
#include "swz/swz.hpp"
#include "core/plan.hpp"  // internal: the compiled tables
#include "test_scale.hpp"
#include "test_util.hpp"

namespace {

using swz::detail::Direction;
using swz::detail::Region;

using KernelFn = void (*)(const Region&, Direction);

const std::vector<swz::Backend> kSimdBackends = {
#ifdef SWZ_HAVE_HIGHWAY
    swz::Backend::Highway,
#endif
#ifdef SWZ_HAVE_XSIMD
    swz::Backend::Xsimd,
#endif
};

struct NamedKernel {
  const char* name;
  KernelFn fn;
};
const NamedKernel kKernels[] = {
#ifdef SWZ_HAVE_HIGHWAY
    {"highway", &swz::detail::highway_copy},
#endif
#ifdef SWZ_HAVE_XSIMD
    {"xsimd", &swz::detail::xsimd_copy},
#endif
};

// The 64KB standard swizzle 2D patterns (docs/ARCHITECTURE.md "Standard swizzle"),
// written out so that part 1 does not depend on the layout code.
const char* std64k_text(unsigned element_log2) {
  switch (element_log2) {
    case 0:
      return "X0 X1 X2 X3 Y0 Y1 Y2 Y3 Y4 X4 Y5 X5 Y6 X6 Y7 X7";
    case 1:
    case 2:
      return "X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8";
    default:
      return "X0 X1 X2 X3 Y0 Y1 X4 X5 Y2 X6 Y3 X7 Y4 X8 Y5 X9";
  }
}
const char* std64k3d_text(unsigned element_log2) {
  switch (element_log2) {
    case 0:
    case 1:
      return "X0 X1 X2 X3 Y0 Y1 Z0 Z1 Z2 Y2 Z3 Y3 X4 Z4 Y4 X5";
    case 2:
      return "X0 X1 X2 X3 Y0 Y1 Z0 Z1 Y2 X4 Z2 Y3 X5 Z3 Y4 X6";
    default:
      return "X0 X1 X2 X3 Y0 Y1 Z0 Z1 X4 X5 Z2 Y2 X6 Z3 Y3 X7";
  }
}

swz::Pattern parse(const std::string& text) {
  swz::Pattern p;
  swz::Status s = swz::parse_pattern_text(text, &p);
  EXPECT_TRUE(s.ok()) << text << ": " << s.message();
  return p;
}

// A standard-like pattern (the shape the line kernels take) with random
// device-dependent XOR terms from higher bits, postamble terms and an
// immediate that keep address bits 0..5 alone (or not, sometimes).
swz::Pattern std_like_pattern(std::mt19937_64& rng, unsigned k, bool* is3d) {
  *is3d = rng() % 3 == 0;
  swz::Pattern base = parse(*is3d ? std64k3d_text(k) : std64k_text(k));
  for (int attempt = 0; attempt < 100; ++attempt) {
    swz::Pattern p = base;
    const unsigned n = p.block_bits();
    const unsigned lowest = rng() % 4 == 0 ? k : 6;  // sometimes touch bits 4..5 too
    const unsigned nterms = static_cast<unsigned>(rng() % 6);
    for (unsigned t = 0; t < nterms; ++t) {
      const unsigned i = lowest + static_cast<unsigned>(rng() % (n - lowest));
      const int c = static_cast<int>(rng() % (*is3d ? 3 : 2));
      // a coordinate bit above the block: a per-block constant
      const unsigned b = (c == 0 ? 10u : 8u) + static_cast<unsigned>(rng() % 8);
      for (int j = 0; j < 4; ++j)
        if (!p.xors[j][i].valid) {
          p.xors[j][i] = swz::BitEntry::make(static_cast<swz::Channel>(c), b);
          break;
        }
    }
    if (rng() % 2) {
      const unsigned i = 8 + static_cast<unsigned>(rng() % 16);
      if (i < n) p.postamble[0][i] = swz::BitEntry::make(swz::Channel::Y, 9 + static_cast<unsigned>(rng() % 6));
    }
    if (rng() % 3 == 0)
      p.immediate = static_cast<uint32_t>(rng() % (uint64_t{1} << n)) & ~((1u << std::max(lowest, k)) - 1);
    if (swz::validate(p, 1u << k).ok()) return p;
  }
  return base;
}

// 16-byte runs with any two coordinate bits on address bits 4 and 5 (NVIDIA
// GOB-like "Y0 X4", AMD display-like, swapped orders...), a random order of
// the rest, XOR terms from higher bits on bits 6 and up: the general line
// kernels' shapes.
swz::Pattern line_like_pattern(std::mt19937_64& rng, unsigned k) {
  for (;;) {
    const unsigned n = 6 + static_cast<unsigned>(rng() % 11);
    const bool use_z = rng() % 4 == 0;
    std::vector<std::string> toks = {"X0", "X1", "X2", "X3"};
    std::vector<int> ch;
    for (unsigned i = 4; i < n; ++i) ch.push_back(static_cast<int>(rng() % (use_z ? 3 : 2)));
    std::vector<std::string> xs, ys, zs;
    unsigned nx = 0, ny = 0, nz = 0;
    for (int c : ch) {
      if (c == 0)
        xs.push_back("X" + std::to_string(4 + nx++));
      else if (c == 1)
        ys.push_back("Y" + std::to_string(ny++));
      else
        zs.push_back("Z" + std::to_string(nz++));
    }
    if (rng() % 3 == 0) std::shuffle(ys.begin(), ys.end(), rng);
    if (rng() % 3 == 0) std::shuffle(xs.begin(), xs.end(), rng);
    size_t ix = 0, iy = 0, iz = 0;
    for (int c : ch) toks.push_back(c == 0 ? xs[ix++] : c == 1 ? ys[iy++] : zs[iz++]);
    std::string text;
    for (size_t i = 0; i < toks.size(); ++i) {
      text += (i ? " " : "") + toks[i];
      if (i >= 6 && rng() % 3 == 0) text += "^" + std::string(rng() % 2 ? "X" : "Y") + std::to_string(12 + rng() % 6);
    }
    if (rng() % 3 == 0 && n > 8) text += " post8=Y" + std::to_string(10 + rng() % 4);
    swz::Pattern p;
    if (!swz::parse_pattern_text(text, &p).ok()) continue;
    if (swz::validate(p, 1u << k).ok()) return p;
  }
}

// NVIDIA-GOB-like patterns (address bits 4, 5 = Y0, X4: the general line
// shape), random element size k, random bits above the GOB (Y, X, and Z
// inside the block), sometimes an XOR term from above the block (Xor mode) or
// an immediate (a per-block constant K != 0): the block walk's separable and
// general line forms and the strip walker's general lines.
swz::Pattern gob_like_pattern(std::mt19937_64& rng, unsigned k) {
  for (;;) {
    std::string text = "X0 X1 X2 X3 Y0 X4 Y1 Y2 X5";
    unsigned nx = 6, ny = 3, nz = 0;
    const unsigned extra = static_cast<unsigned>(rng() % 7);
    const bool use_z = rng() % 2 == 0;
    for (unsigned i = 0; i < extra; ++i) {
      const unsigned c = static_cast<unsigned>(rng() % (use_z ? 4 : 3));
      if (c == 0)
        text += " X" + std::to_string(nx++);
      else if (c == 3)
        text += " Z" + std::to_string(nz++);
      else
        text += " Y" + std::to_string(ny++);
    }
    if (rng() % 4 == 0) text += "^Y" + std::to_string(12 + rng() % 4);
    if (rng() % 5 == 0) text += " imm=" + std::to_string(64 * (1 + rng() % 7));
    swz::Pattern p;
    if (!swz::parse_pattern_text(text, &p).ok()) continue;
    if (swz::validate(p, 1u << k).ok()) return p;
  }
}

struct Surface {
  std::shared_ptr<const swz::Plan> plan;
  Region r;
  std::vector<uint8_t> swz_init, lin_init;
  size_t swz_pad = 0, lin_pad = 0;
  bool injective = true;
};

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

void fill_random(std::mt19937_64& rng, std::vector<uint8_t>* v) {
  size_t i = 0;
  for (; i + 8 <= v->size(); i += 8) {
    const uint64_t x = rng();
    std::memcpy(v->data() + i, &x, 8);
  }
  for (; i < v->size(); ++i) (*v)[i] = static_cast<uint8_t>(rng());
}

// Random region for `p`, with buffers sized by brute force.
bool make_region(std::mt19937_64& rng, const swz::Pattern& p, uint32_t eb, Surface* s, std::string* why) {
  swz::Status st = swz::Plan::compile(p, eb, &s->plan);
  if (!st.ok()) {
    *why = st.message();
    return false;
  }
  const swz::Plan& pl = *s->plan;
  Region& r = s->r;
  r = Region{};
  r.plan = &pl;
  const uint64_t ext_x = uint64_t{1} << pl.ext_log2[0];
  const uint64_t ext_y = uint64_t{1} << pl.ext_log2[1];
  const uint64_t ext_z = uint64_t{1} << pl.ext_log2[2];
  // Surface size in elements (box inside it), sometimes big enough for whole strips.
  const uint32_t big = rng() % 4 == 0 ? 260 : 60;
  const uint32_t W = 1 + static_cast<uint32_t>(rng() % (big * 16 / eb + 1));
  const uint32_t H = 1 + static_cast<uint32_t>(rng() % big);
  const bool stacked = pl.stack_depth;
  const uint32_t D = 1 + static_cast<uint32_t>(rng() % (rng() % 2 ? 3 : 9));
  r.x0 = static_cast<uint32_t>(rng() % W);
  r.y0 = static_cast<uint32_t>(rng() % H);
  r.z0 = static_cast<uint32_t>(rng() % D);
  if (rng() % 3 == 0) r.x0 = r.y0 = r.z0 = 0;
  r.w = 1 + static_cast<uint32_t>(rng() % (W - r.x0));
  r.h = 1 + static_cast<uint32_t>(rng() % (H - r.y0));
  r.d = 1 + static_cast<uint32_t>(rng() % (D - r.z0));
  if (rng() % 3 == 0) {  // whole surface
    r.x0 = r.y0 = r.z0 = 0;
    r.w = W;
    r.h = H;
    r.d = D;
  }
  if (rng() % 4 == 0) {
    r.pre[0] = (rng() % 3 == 0) ? rng() % 64 : eb * (rng() % 64);
    r.pre[1] = rng() % 40;
    r.pre[2] = stacked ? 0 : rng() % 5;
  }
  r.sample = static_cast<uint32_t>(rng() % 4);
  const uint64_t xmax = (uint64_t{W} * eb + r.pre[0]);
  const uint64_t blocks_x = ceil_div(xmax, ext_x);
  r.row_pitch = blocks_x * pl.block_bytes * (1 + rng() % 2);
  const uint64_t rows_total = stacked ? 0 : uint64_t{H} + r.pre[1];
  if (stacked) {
    r.stack_rows = H + r.pre[1] + rng() % 9;
    r.depth_pitch_B = 0;
  } else {
    r.depth_pitch_B = ceil_div(rows_total, ext_y) * r.row_pitch * (1 + rng() % 2);
  }
  (void)ext_z;
  // Linear side: pitches with random padding.
  const uint64_t row_bytes = uint64_t{r.w} * eb;
  r.lin_row_pitch = row_bytes + (rng() % 2 ? 0 : rng() % 200);
  if (rng() % 3 == 0) r.lin_row_pitch = (row_bytes + 63) & ~uint64_t{63};
  r.lin_depth_pitch = r.lin_row_pitch * r.h + (rng() % 2 ? 0 : rng() % 300);
  r.streaming = rng() % 2 == 0;
  r.write_combined = r.streaming && rng() % 2 == 0;
  // Brute-force the extent of the swizzled bytes the box touches, and whether
  // two bytes of the box land on the same address (postamble terms above the
  // block can fold blocks onto each other; then the final bytes of a swizzle
  // depend on the order of the writes and only the deswizzle is compared).
  std::vector<uint64_t> offs;
  const uint64_t step = (r.pre[0] % eb == 0) ? eb : 1;
  for (uint32_t dz = 0; dz < r.d; ++dz)
    for (uint32_t dy = 0; dy < r.h; ++dy) {
      uint64_t y, z;
      swz::detail::adjust_yz(r, r.y0 + dy, r.z0 + dz, &y, &z);
      const uint64_t xb0 = uint64_t{r.x0} * eb + r.pre[0];
      for (uint64_t xb = xb0; xb < xb0 + uint64_t{r.w} * eb; xb += step)
        offs.push_back(pl.offset(xb, y, z, r.sample, r.row_pitch, r.depth_pitch_B));
    }
  std::sort(offs.begin(), offs.end());
  s->injective = std::adjacent_find(offs.begin(), offs.end()) == offs.end();
  const uint64_t maxoff = offs.back() + step - 1;
  if (maxoff > (uint64_t{1} << 24)) {
    *why = "too large";
    return false;
  }
  // Random alignment of both buffers relative to 64 bytes.
  s->swz_pad = rng() % 2 ? 0 : rng() % 64;
  s->lin_pad = rng() % 2 ? 0 : rng() % 64;
  s->swz_init.resize(maxoff + 1 + 64 + s->swz_pad + 64);
  const uint64_t lin_size = uint64_t{r.d - 1} * r.lin_depth_pitch + uint64_t{r.h - 1} * r.lin_row_pitch + row_bytes;
  s->lin_init.resize(lin_size + 64 + s->lin_pad + 64);
  fill_random(rng, &s->swz_init);
  fill_random(rng, &s->lin_init);
  return true;
}

// 64-byte aligned copies of the initial buffers, offset by the pads.
struct Buffers {
  std::vector<uint8_t> swz_store, lin_store;
  uint8_t* swz = nullptr;
  uint8_t* lin = nullptr;
  Buffers(const Surface& s) {
    swz_store.resize(s.swz_init.size() + 64);
    lin_store.resize(s.lin_init.size() + 64);
    auto align = [](uint8_t* p) { return p + ((64 - (reinterpret_cast<uintptr_t>(p) & 63)) & 63); };
    uint8_t* sb = align(swz_store.data());
    uint8_t* lb = align(lin_store.data());
    std::memcpy(sb, s.swz_init.data(), s.swz_init.size());
    std::memcpy(lb, s.lin_init.data(), s.lin_init.size());
    swz = sb + 64 + s.swz_pad;
    lin = lb + 64 + s.lin_pad;
  }
  bool same(const Buffers& o, const Surface& s, std::string* where) const {
    const uint8_t* a = swz - 64 - s.swz_pad;
    const uint8_t* b = o.swz - 64 - s.swz_pad;
    for (size_t i = 0; i < s.swz_init.size(); ++i)
      if (a[i] != b[i]) {
        *where = "swizzled byte " + std::to_string(static_cast<long long>(i) - 64 - static_cast<long long>(s.swz_pad));
        return false;
      }
    a = lin - 64 - s.lin_pad;
    b = o.lin - 64 - s.lin_pad;
    for (size_t i = 0; i < s.lin_init.size(); ++i)
      if (a[i] != b[i]) {
        *where = "linear byte " + std::to_string(static_cast<long long>(i) - 64 - static_cast<long long>(s.lin_pad));
        return false;
      }
    return true;
  }
};

std::string describe(const Surface& s) {
  const Region& r = s.r;
  return swz::to_text(s.plan->pattern()) + " | eb=" + std::to_string(s.plan->element_bytes) + " box=(" +
         std::to_string(r.x0) + "," + std::to_string(r.y0) + "," + std::to_string(r.z0) + ")+(" + std::to_string(r.w) +
         "x" + std::to_string(r.h) + "x" + std::to_string(r.d) + ") pre=(" + std::to_string(r.pre[0]) + "," +
         std::to_string(r.pre[1]) + "," + std::to_string(r.pre[2]) + ") pitch=" + std::to_string(r.row_pitch) + "/" +
         std::to_string(r.depth_pitch_B) + " stack=" + std::to_string(r.stack_rows) +
         " lin_pitch=" + std::to_string(r.lin_row_pitch) + "/" + std::to_string(r.lin_depth_pitch) +
         " stream=" + std::to_string(r.streaming) + " pads=" + std::to_string(s.swz_pad) + "/" +
         std::to_string(s.lin_pad);
}

void check_region(const Surface& s, int* failures) {
  for (Direction dir : {Direction::ToSwizzled, Direction::ToLinear}) {
    if (dir == Direction::ToSwizzled && !s.injective) continue;
    Buffers want(s);
    Region rw = s.r;
    rw.swz = want.swz;
    rw.lin = want.lin;
    swz::detail::scalar_copy(rw, dir);
    for (const NamedKernel& k : kKernels) {
      Buffers got(s);
      Region rg = s.r;
      rg.swz = got.swz;
      rg.lin = got.lin;
      k.fn(rg, dir);
      std::string where;
      if (!got.same(want, s, &where)) {
        ADD_FAILURE() << k.name << (dir == Direction::ToSwizzled ? " swizzle" : " deswizzle") << " differs at " << where
                      << "\n  " << describe(s);
        ++*failures;
      }
    }
  }
}

// Random kernel tunings (strip heights, chunk widths, line kernels on/off)
// so that every path and chunk boundary case is taken; restored on exit.
struct TuningScope {
  swz::detail::simd::Tuning saved = swz::detail::simd::tuning();
  ~TuningScope() { swz::detail::simd::tuning() = saved; }
  void randomize(std::mt19937_64& rng) {
    swz::detail::simd::Tuning& t = swz::detail::simd::tuning();
    t = saved;
    if (rng() % 2) return;
    t.swizzle_strip_bits = static_cast<unsigned>(rng() % 12);  // 0 = automatic
    t.deswizzle_strip_bits = static_cast<unsigned>(rng() % 12);
    t.stream_min_bytes = rng() % 3 == 0 ? 0 : t.stream_min_bytes;
    t.chunk_bytes = 64u << (rng() % 7);
    t.line_kernels = rng() % 4 != 0;
    t.tile_walk = rng() % 4 != 0;
    t.tile_walk_min_bytes = rng() % 2 ? 0 : uint64_t{1} << (rng() % 20);
    t.tile_walk_max_span_bytes = rng() % 2 ? ~uint64_t{0} : uint64_t{1} << (rng() % 20);
    t.tile_walk_q4_cache = rng() % 2 == 0;
    t.tile_walk_xor_misaligned = rng() % 2 == 0;
    t.tile_band_rows_log2 = static_cast<unsigned>(rng() % 5);
    t.tile_band_rows_big_log2 = static_cast<unsigned>(rng() % 6);
    t.tile_band_big_min_bytes = rng() % 2 ? 0 : t.tile_band_big_min_bytes;
    t.stretch_swizzle = rng() % 4 != 0;
    t.stretch_aligned = rng() % 2 == 0;
    t.stretch_rows_log2 = static_cast<unsigned>(rng() % 8);
    t.stretch_prefetch = static_cast<unsigned>(rng() % 3);
    t.stretch_prefetch_stream = static_cast<unsigned>(rng() % 6);
    t.stretch_cache_max_log2 = 8 + static_cast<unsigned>(rng() % 7);
    t.stretch_line_order = rng() % 2 == 0;
  }
};

enum class Family { Random, StdLike, LineLike, GobLike };
// Kernel choice on top of the random tuning: as tuned, the block walk forced
// (any block span, any size), or the strip walker only.
enum class Walk { Tuned, Blocks, Strips, Bands };

// `iterations` is scaled by SWZ_TEST_SCALE (tests/support/test_scale.hpp).
void run_random_regions(uint64_t seed, int iterations, Family fam, Walk walk = Walk::Tuned) {
  iterations = swz_test::scaled(iterations);
  std::mt19937_64 rng(seed);
  TuningScope tune;
  int failures = 0, checked = 0;
  for (int it = 0; it < iterations && failures < 5; ++it) {
    tune.randomize(rng);
    if (walk != Walk::Tuned) {
      swz::detail::simd::Tuning& t = swz::detail::simd::tuning();
      t.line_kernels = true;
      t.tile_walk = walk == Walk::Blocks;
      t.tile_walk_xor_misaligned = true;  // the block walk's XOR lines on misaligned rows too
      t.tile_walk_min_bytes = 0;
      t.tile_walk_max_span_bytes = ~uint64_t{0};
      if (walk == Walk::Bands) {  // blocks too tall for the span: bands of rows
        t.tile_walk = true;
        t.tile_walk_max_span_bytes = uint64_t{1} << (10 + rng() % 8);
        t.tile_band_rows_log2 = 1 + static_cast<unsigned>(rng() % 4);
        // ... and the cap for copies past the L2 (geometry.hpp), either way
        t.tile_band_rows_big_log2 = 1 + static_cast<unsigned>(rng() % 4);
        t.tile_band_big_min_bytes = rng() % 2 ? 0 : ~uint64_t{0};
      }
    }
    const unsigned k = static_cast<unsigned>(rng() % 5);
    swz::Pattern p;
    if (fam == Family::GobLike) {
      p = gob_like_pattern(rng, k);
    } else if (fam == Family::StdLike) {
      bool is3d = false;
      p = std_like_pattern(rng, k, &is3d);
    } else if (fam == Family::LineLike) {
      p = line_like_pattern(rng, k);
    } else {
      swz_test::RandomPatternOptions o;
      o.element_log2 = k;
      o.max_block_bits = 4 + static_cast<unsigned>(rng() % 13);
      o.allow_high_postamble = rng() % 3 == 0;
      p = swz_test::random_pattern(rng, o);
      // sometimes a sample-index term (a per-surface constant)
      if (rng() % 4 == 0 && p.block_bits() > k) {
        const unsigned i = k + static_cast<unsigned>(rng() % (p.block_bits() - k));
        for (int j = 0; j < 4; ++j)
          if (!p.xors[j][i].valid) {
            p.xors[j][i] = swz::BitEntry::make(swz::Channel::S, static_cast<unsigned>(rng() % 2));
            break;
          }
        if (!swz::validate(p, 1u << k).ok()) continue;
      }
    }
    Surface s;
    std::string why;
    if (!make_region(rng, p, 1u << k, &s, &why)) continue;
    check_region(s, &failures);
    ++checked;
  }
  // Patterns or regions that are skipped must not empty the test.
  if (failures < 5) EXPECT_GE(checked, iterations / 2) << "cases checked of " << iterations;
}

// The streaming threshold follows the level-3 cache (geometry.hpp): 12 MiB
// where the cache is unknown or small (up to 192 MiB), a sixteenth of
// it above that (480 MiB L3: 16 MiB copies 2-3x faster cached, 64 MiB ones
// faster streaming), at most 32 MiB; copies of 4096² R8 (16 MiB)
// stream on a 32 MiB L3 and not on a 480 MiB one.
TEST(SimdTuning, StreamingThresholdFollowsTheCache) {
  using swz::detail::simd::stream_min_bytes_for_l3;
  constexpr uint64_t MiB = uint64_t{1} << 20;
  EXPECT_EQ(stream_min_bytes_for_l3(0), 12 * MiB);
  EXPECT_EQ(stream_min_bytes_for_l3(32 * MiB), 12 * MiB);
  EXPECT_EQ(stream_min_bytes_for_l3(300 * MiB), 300 * MiB / 16);
  EXPECT_EQ(stream_min_bytes_for_l3(480 * MiB), 30 * MiB);
  EXPECT_EQ(stream_min_bytes_for_l3(uint64_t{1} << 40), 32 * MiB);
  EXPECT_LE(stream_min_bytes_for_l3(32 * MiB), 16 * MiB);
  EXPECT_GT(stream_min_bytes_for_l3(480 * MiB), 16 * MiB);
  EXPECT_LE(stream_min_bytes_for_l3(480 * MiB), 64 * MiB);
  const uint64_t now = swz::detail::simd::Tuning{}.stream_min_bytes;
  EXPECT_EQ(now, stream_min_bytes_for_l3(swz::detail::simd::last_level_cache_bytes()));
}

TEST(SimdRegion, RandomPatterns) { run_random_regions(1, 400, Family::Random); }
TEST(SimdRegion, RandomPatternsMore) { run_random_regions(0x5eed, 400, Family::Random); }
TEST(SimdRegion, StandardLikePatterns) { run_random_regions(2, 300, Family::StdLike); }
TEST(SimdRegion, LineLikePatterns) { run_random_regions(3, 400, Family::LineLike); }
TEST(SimdRegion, StandardLikePatternsMore) { run_random_regions(0xbeef, 300, Family::StdLike); }
// The deswizzle block walk (TileDeswizzle: separable lines and pieces in Add
// mode with K = 0, the general line tables otherwise, 2D and 3D blocks) and
// the strip walker's general lines (LinesGeneralToLinear), each forced; the
// block walk in bands of rows (blocks whose rows span too many pages).
TEST(SimdRegion, GobLikeBlockWalk) { run_random_regions(0x90b, 400, Family::GobLike, Walk::Blocks); }
TEST(SimdRegion, GobLikeStripWalk) { run_random_regions(0x90c, 300, Family::GobLike, Walk::Strips); }
TEST(SimdRegion, GobLikeBlockBands) { run_random_regions(0x90e, 400, Family::GobLike, Walk::Bands); }
TEST(SimdRegion, LineLikeBlockWalk) { run_random_regions(0x90d, 300, Family::LineLike, Walk::Blocks); }

// Every Highway target this binary carries that the CPU runs (AVX-512, AVX2,
// SSE4, SSSE3, the scalar fallback on x86; NEON, SVE, SVE2, SVE_256 and
// SVE2_128 on AArch64, as the CPU and its vector length allow), not only the
// one dispatch picks. The line below lists them (.ci/arm64.sh checks it).
#ifdef SWZ_HAVE_HIGHWAY
TEST(SimdRegion, EveryHighwayTarget) {
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  EXPECT_FALSE(targets.empty());
  std::string names;
  for (int64_t t : targets) names += std::string(names.empty() ? "" : " ") + hwy::TargetName(t);
  std::printf("Highway targets run: %s (dispatch picks %s)\n", names.c_str(), swz::detail::highway_target_name());
  for (int64_t t : targets) {
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(hwy::TargetName(t));
    EXPECT_STREQ(swz::detail::highway_target_name(), hwy::TargetName(t));
    run_random_regions(100 + static_cast<uint64_t>(t % 97), 100, Family::Random);
    run_random_regions(200 + static_cast<uint64_t>(t % 89), 100, Family::StdLike);
    run_random_regions(300 + static_cast<uint64_t>(t % 83), 100, Family::LineLike);
  }
  hwy::SetSupportedTargetsForTest(0);
}
#endif  // SWZ_HAVE_HIGHWAY

// Exact standard swizzle surfaces, whole and in boxes, aligned buffers: the
// line kernels' main case.
TEST(SimdRegion, Std64kWholeSurfaces) {
  std::mt19937_64 rng(3);
  int failures = 0, checked = 0;
  for (unsigned k = 0; k < 5; ++k)
    for (bool is3d : {false, true}) {
      const swz::Pattern p = parse(is3d ? std64k3d_text(k) : std64k_text(k));
      for (int it = 0; it < swz_test::scaled(12); ++it) {
        Surface s;
        std::string why;
        if (!make_region(rng, p, 1u << k, &s, &why)) continue;
        check_region(s, &failures);
        ++checked;
      }
    }
  EXPECT_GE(checked, 10 * swz_test::scaled(12) / 2);
}

// ---- Part 2: the public API ------------------------------------------------
#ifndef SWZ_TEST_SIMD_NO_API

struct ApiCase {
  swz::Layout layout;
  uint32_t sub = 0;
  swz::Box box{};
  bool whole = false;
};

int g_api_cases = 0;

void api_compare(std::mt19937_64& rng, const swz::Layout& layout, uint32_t sub, const swz::Box* box, int* failures,
                 const std::string& what) {
  ++g_api_cases;
  const swz::SubresourceLayout& sl = layout.sub(sub);
  const uint32_t eb = sl.element_bytes;
  const uint32_t bw = layout.desc().format.block_width, bh = layout.desc().format.block_height;
  uint32_t x0 = 0, y0 = 0, z0 = 0, w = sl.width_el, h = sl.height_el, d = sl.depth;
  if (box) {
    x0 = box->left / bw;
    y0 = box->top / bh;
    z0 = box->front;
    w = (box->right + bw - 1) / bw - x0;
    h = (box->bottom + bh - 1) / bh - y0;
    d = box->back - box->front;
  }
  const uint64_t row_bytes = uint64_t{w} * eb;
  const uint64_t lrp = row_bytes + (rng() % 2 ? 0 : 16 * (rng() % 8));
  const uint64_t ldp = lrp * h + (rng() % 2 ? 0 : 64 * (rng() % 4));
  const uint64_t lin_size = uint64_t{d - 1} * ldp + uint64_t{h - 1} * lrp + row_bytes;
  std::vector<uint8_t> lin_init(lin_size), res_init(layout.size());
  fill_random(rng, &lin_init);
  fill_random(rng, &res_init);
  // Which resource bytes belong to the box (guard check).
  std::vector<uint8_t> in_box(layout.size(), 0);
  for (uint32_t z = 0; z < d; ++z)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        uint64_t off = 0;
        swz::Status st = swz::element_offset(layout, sub, x0 + x, y0 + y, z0 + z, 0, &off);
        ASSERT_TRUE(st.ok()) << st.message();
        for (uint32_t b = 0; b < eb; ++b) in_box[off + b] = 1;
      }
  for (int dir = 0; dir < 2; ++dir) {
    std::vector<uint8_t> want_res = res_init, want_lin = lin_init;
    swz::CopyOptions so;
    so.backend = swz::Backend::Scalar;
    so.threads = 1;
    swz::Status st = dir == 0 ? swz::write_to_subresource(layout, want_res.data(), want_res.size(), sub, box,
                                                          want_lin.data(), want_lin.size(), lrp, ldp, so)
                              : swz::read_from_subresource(want_lin.data(), want_lin.size(), lrp, ldp, layout,
                                                           want_res.data(), want_res.size(), sub, box, so);
    ASSERT_TRUE(st.ok()) << st.message();
    for (swz::Backend be : kSimdBackends) {
      std::vector<uint8_t> res = res_init, lin = lin_init;
      swz::CopyOptions o;
      o.backend = be;
      o.threads = 1 + static_cast<unsigned>(rng() % 3);
      o.write_combined = rng() % 2 == 0;
      st = dir == 0 ? swz::write_to_subresource(layout, res.data(), res.size(), sub, box, lin.data(), lin.size(), lrp,
                                                ldp, o)
                    : swz::read_from_subresource(lin.data(), lin.size(), lrp, ldp, layout, res.data(), res.size(), sub,
                                                 box, o);
      ASSERT_TRUE(st.ok()) << st.message();
      const char* dn = dir == 0 ? "write_to_subresource" : "read_from_subresource";
      if (res != want_res || lin != want_lin) {
        ADD_FAILURE() << swz::backend_name(be) << " " << dn << " differs from scalar: " << what;
        ++*failures;
      }
      if (dir == 0) {
        for (size_t i = 0; i < res.size(); ++i)
          if (!in_box[i] && res[i] != res_init[i]) {
            ADD_FAILURE() << swz::backend_name(be) << " wrote outside the box at resource byte " << i << ": " << what;
            ++*failures;
            break;
          }
      } else {
        // Linear padding between rows and slices stays untouched.
        for (uint32_t z = 0; z < d; ++z)
          for (uint32_t y = 0; y < h; ++y) {
            const uint64_t a = z * ldp + y * lrp + row_bytes;
            const uint64_t e = (y + 1 < h) ? z * ldp + (y + 1) * lrp : (z + 1 < d ? (z + 1) * ldp : lin_size);
            for (uint64_t i = a; i < e; ++i)
              if (lin[i] != lin_init[i]) {
                ADD_FAILURE() << swz::backend_name(be) << " wrote linear padding byte " << i << ": " << what;
                ++*failures;
                return;
              }
          }
      }
    }
  }
}

swz::Box random_box(std::mt19937_64& rng, const swz::SubresourceLayout& sl, uint32_t bw, uint32_t bh) {
  swz::Box b;
  auto pick = [&](uint32_t size, uint32_t blk, uint32_t* lo, uint32_t* hi) {
    const uint32_t nb = (size + blk - 1) / blk;
    const uint32_t a = static_cast<uint32_t>(rng() % nb);
    const uint32_t e = a + 1 + static_cast<uint32_t>(rng() % (nb - a));
    *lo = a * blk;
    *hi = std::min(size, e * blk);
  };
  pick(sl.width, bw, &b.left, &b.right);
  pick(sl.height, bh, &b.top, &b.bottom);
  pick(sl.depth, 1, &b.front, &b.back);
  return b;
}

TEST(SimdApi, Std64kFormatsAndBoxes) {
  std::mt19937_64 rng(11);
  int failures = 0;
  g_api_cases = 0;
  const char* formats[] = {"R8_UNORM",           "R8G8_UNORM", "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
                           "R32G32B32A32_FLOAT", "BC1_UNORM",  "BC7_UNORM"};
  for (const char* fname : formats) {
    for (int it = 0; it < swz_test::scaled(6) && failures < 5; ++it) {
      swz::TextureDesc desc;
      ASSERT_TRUE(swz::find_format(fname, &desc.format).ok()) << fname;
      const bool is3d = it % 3 == 2 && !desc.format.block_compressed();
      desc.dimension = is3d ? swz::Dimension::Texture3D : swz::Dimension::Texture2D;
      const uint32_t big = it == 0 ? 520 : 200;
      desc.width = 1 + static_cast<uint32_t>(rng() % big);
      desc.height = 1 + static_cast<uint32_t>(rng() % big);
      desc.depth = is3d ? 1 + static_cast<uint32_t>(rng() % 20) : 1;
      desc.mip_levels = 1 + static_cast<uint32_t>(rng() % 3);
      desc.mip_levels = std::min(desc.mip_levels, swz::full_mip_count(desc.width, desc.height, desc.depth));
      swz::LayoutSpec spec;
      spec.kind = swz::LayoutKind::Std64K;
      swz::Layout layout;
      swz::Status st = swz::make_layout(desc, spec, &layout);
      ASSERT_TRUE(st.ok()) << st.message();
      for (uint32_t sub = 0; sub < layout.subresource_count(); ++sub) {
        const std::string what = std::string(fname) + " " + std::to_string(desc.width) + "x" +
                                 std::to_string(desc.height) + "x" + std::to_string(desc.depth) + " sub " +
                                 std::to_string(sub);
        api_compare(rng, layout, sub, nullptr, &failures, what + " whole");
        const swz::Box b = random_box(rng, layout.sub(sub), desc.format.block_width, desc.format.block_height);
        api_compare(rng, layout, sub, &b, &failures, what + " box");
      }
    }
  }
  EXPECT_GT(g_api_cases, swz_test::scaled(100));
}

TEST(SimdApi, RandomPatternLayouts) {
  std::mt19937_64 rng(12);
  int failures = 0;
  g_api_cases = 0;
  for (int it = 0; it < swz_test::scaled(150) && failures < 5; ++it) {
    const unsigned k = static_cast<unsigned>(rng() % 5);
    swz::Pattern p;
    bool is3d = false;
    if (it % 2) {
      p = std_like_pattern(rng, k, &is3d);
    } else {
      swz_test::RandomPatternOptions o;
      o.element_log2 = k;
      o.max_block_bits = 4 + static_cast<unsigned>(rng() % 12);
      p = swz_test::random_pattern(rng, o);
      is3d = rng() % 2 == 0;
    }
    swz::TextureDesc desc;
    desc.format = swz_test::format_for_bytes(1u << k);
    desc.dimension = is3d ? swz::Dimension::Texture3D : swz::Dimension::Texture2D;
    desc.width = 1 + static_cast<uint32_t>(rng() % 150);
    desc.height = 1 + static_cast<uint32_t>(rng() % 150);
    desc.depth = is3d ? 1 + static_cast<uint32_t>(rng() % 9) : 1;
    if (!is3d) desc.array_size = 1 + static_cast<uint32_t>(rng() % 3);
    swz::LayoutSpec spec;
    spec.kind = swz::LayoutKind::Pattern;
    spec.pattern = p;
    swz::Layout layout;
    swz::Status st = swz::make_layout(desc, spec, &layout);
    if (!st.ok()) continue;  // e.g. a postamble term that leaves the resource
    if (layout.size() > (uint64_t{1} << 26)) continue;
    const uint32_t sub = static_cast<uint32_t>(rng() % layout.subresource_count());
    const std::string what = swz::to_text(p) + " eb=" + std::to_string(1u << k) + " " + std::to_string(desc.width) +
                             "x" + std::to_string(desc.height) + "x" + std::to_string(desc.depth);
    if (rng() % 2) {
      api_compare(rng, layout, sub, nullptr, &failures, what);
    } else {
      const swz::Box b = random_box(rng, layout.sub(sub), 1, 1);
      api_compare(rng, layout, sub, &b, &failures, what + " box");
    }
  }
  EXPECT_GT(g_api_cases, swz_test::scaled(60));
}

// Hardware layout families through the public API on user buffers: both
// pointers at any offset from a 64-byte boundary (16 mod 64 is what malloc and
// numpy give), odd sizes, boxes, forced thread splits and streaming on small
// copies (tuning), compared byte for byte with the scalar tiler over the whole
// allocation, guard bytes before and after both buffers included.
void api_compare_user(std::mt19937_64& rng, const swz::Layout& layout, const swz::Box* box, int* failures,
                      const std::string& what) {
  ++g_api_cases;
  const swz::SubresourceLayout& sl = layout.sub(0);
  const uint32_t eb = sl.element_bytes;
  const uint32_t bw = layout.desc().format.block_width, bh = layout.desc().format.block_height;
  uint32_t w = sl.width_el, h = sl.height_el;
  if (box) {
    w = (box->right + bw - 1) / bw - box->left / bw;
    h = (box->bottom + bh - 1) / bh - box->top / bh;
  }
  const uint64_t row_bytes = uint64_t{w} * eb;
  // tight, padded, or a multiple of 64 (the kernels' aligned-line paths)
  const unsigned pick = static_cast<unsigned>(rng() % 3);
  const uint64_t lrp = pick == 0   ? row_bytes
                       : pick == 1 ? row_bytes + rng() % 100
                                   : ((row_bytes + 63) & ~uint64_t{63}) + 64 * (rng() % 2);
  const uint64_t lin_size = uint64_t{h - 1} * lrp + row_bytes;
  const size_t offs[] = {0, 16, 32, 48, 1, 8, 63};
  const size_t lin_off = offs[rng() % 7], res_off = offs[rng() % 7];
  constexpr size_t kGuard = 192;
  std::vector<uint8_t> lin_init(lin_size + 2 * kGuard + 64), res_init(layout.size() + 2 * kGuard + 64);
  fill_random(rng, &lin_init);
  fill_random(rng, &res_init);
  // Each copy runs in its own allocation, the pointers at the chosen offsets
  // from a 64-byte boundary, kGuard bytes of random guard before and after.
  struct Buf {
    std::vector<uint8_t> v;
    uint8_t* p;
    Buf(const std::vector<uint8_t>& init, size_t off) : v(init.size() + 64) {
      uint8_t* a = v.data() + ((64 - (reinterpret_cast<uintptr_t>(v.data()) & 63)) & 63);
      std::memcpy(a, init.data(), init.size());
      p = a + kGuard + off;
    }
    bool same(const Buf& o, size_t n) const { return std::memcmp(p - kGuard, o.p - kGuard, n) == 0; }
  };
  const unsigned threads = rng() % 3 == 0 ? 0 : 1 + static_cast<unsigned>(rng() % 4);
  for (int dir = 0; dir < 2; ++dir) {
    Buf want_res(res_init, res_off), want_lin(lin_init, lin_off);
    swz::CopyOptions so;
    so.backend = swz::Backend::Scalar;
    so.threads = 1;
    swz::Status st =
        dir == 0
            ? swz::write_to_subresource(layout, want_res.p, layout.size(), 0, box, want_lin.p, lin_size, lrp, 0, so)
            : swz::read_from_subresource(want_lin.p, lin_size, lrp, 0, layout, want_res.p, layout.size(), 0, box, so);
    ASSERT_TRUE(st.ok()) << st.message() << ": " << what;
    for (swz::Backend be : kSimdBackends) {
      Buf res(res_init, res_off), lin(lin_init, lin_off);
      swz::CopyOptions o;
      o.backend = be;
      o.threads = threads;
      o.write_combined = rng() % 4 == 0;
      st = dir == 0 ? swz::write_to_subresource(layout, res.p, layout.size(), 0, box, lin.p, lin_size, lrp, 0, o)
                    : swz::read_from_subresource(lin.p, lin_size, lrp, 0, layout, res.p, layout.size(), 0, box, o);
      ASSERT_TRUE(st.ok()) << st.message();
      if (!res.same(want_res, res_init.size() - 64) || !lin.same(want_lin, lin_init.size() - 64)) {
        ADD_FAILURE() << swz::backend_name(be) << (dir == 0 ? " write_to_subresource" : " read_from_subresource")
                      << " differs from scalar (guards included): " << what << " offsets lin " << lin_off << " res "
                      << res_off << " threads " << threads << " pitch " << lrp;
        ++*failures;
      }
    }
  }
}

// One named layout of w x h texels of `fname` on user buffers against the
// scalar tiler, whole or (boxed) in a random box; layouts that refuse the
// format or exceed 8 MiB are skipped.
void compare_named(std::mt19937_64& rng, const char* name, const char* fname, uint32_t w, uint32_t h, bool boxed,
                   int* failures) {
  swz::TextureDesc desc;
  ASSERT_TRUE(swz::find_format(fname, &desc.format).ok());
  desc.width = w;
  desc.height = h;
  swz::Layout layout;
  if (!swz::make_layout_from_name(name, desc, swz::LayoutOptions{}, &layout).ok()) return;  // not this format
  if (layout.size() > (uint64_t{8} << 20)) return;
  const std::string what = std::string(name) + " " + fname + " " + std::to_string(w) + "x" + std::to_string(h);
  if (boxed) {
    const swz::Box b = random_box(rng, layout.sub(0), desc.format.block_width, desc.format.block_height);
    api_compare_user(rng, layout, &b, failures, what + " box");
  } else {
    api_compare_user(rng, layout, nullptr, failures, what);
  }
}

TEST(SimdApi, HardwareFamiliesOnUserBuffers) {
  std::mt19937_64 rng(13);
  TuningScope tune;
  int failures = 0;
  g_api_cases = 0;
  const char* layouts[] = {"std64k",
                           "std4k",
                           "nv-block-linear:gob=tegra",
                           "nv-block-linear:gob=tegra,bh=2",
                           "nv-block-linear:gob=tegra,bh=1",
                           "amd-gfx9-sw64k-s-x",
                           "amd-gfx9-sw64k-s",
                           "amd-gfx9-sw64k-d",
                           "amd-gfx9-sw64k-d-x",
                           "amd-gfx10-sw64k-r-x",
                           "intel-tiley",
                           "intel-tilex",
                           "intel-tile4",
                           "intel-tile64",
                           "mali-u-interleaved",
                           "apple-twiddled",
                           "ps4-1d-thin",
                           "xbox360-tiled",
                           "adreno-a6xx",
                           "row-major"};
  const char* formats[] = {"R8_UNORM", "R8G8B8A8_UNORM", "BC7_UNORM", "R32G32B32A32_FLOAT"};
  for (const char* name : layouts)
    for (const char* fname : formats)
      for (int it = 0; it < swz_test::scaled(3) && failures < 5; ++it) {
        tune.randomize(rng);
        const uint32_t big = it == 0 ? 700 : 160;
        const uint32_t w = 1 + static_cast<uint32_t>(rng() % big);
        const uint32_t h = 1 + static_cast<uint32_t>(rng() % big);
        compare_named(rng, name, fname, w, h, it == 1, &failures);
      }
  EXPECT_GT(g_api_cases, 100 * swz_test::scaled(3) / 3);
}

// The block-order kernels (TileDeswizzle's flat line loop and its edge
// pieces, TileSwizzle, StretchSwizzle) forced on, every element size (1, 2,
// 4, 8, 16 bytes; BC1 and BC7 blocks), surfaces several blocks wide so that
// rows continue from block to block, on user buffers at any offset, whole and
// in boxes (odd edges), against the scalar tiler byte for byte.
TEST(SimdApi, BlockKernelsEveryElementSize) {
  std::mt19937_64 rng(29);
  TuningScope tune;
  int failures = 0;
  g_api_cases = 0;
  const char* layouts[] = {
      "nv-block-linear:gob=tegra", "nv-block-linear:gob=tegra,bh=2", "intel-tiley", "intel-tile4", "std64k",
      "amd-gfx9-sw64k-s-x"};
  const char* formats[] = {"R8_UNORM",  "R16_UNORM", "R8G8B8A8_UNORM",    "R16G16B16A16_UNORM",
                           "BC1_UNORM", "BC7_UNORM", "R32G32B32A32_FLOAT"};
  for (const char* name : layouts)
    for (const char* fname : formats)
      for (int it = 0; it < 2 && failures < 5; ++it) {
        swz::detail::simd::Tuning& t = swz::detail::simd::tuning();
        t = tune.saved;
        t.tile_walk_max_span_bytes = ~uint64_t{0};
        t.tile_walk_min_bytes = 0;
        t.tile_walk_q4_cache = rng() % 2 == 0;
        t.tile_walk_xor_misaligned = rng() % 2 == 0;
        t.stream_min_bytes = rng() % 2 ? 0 : t.stream_min_bytes;
        const uint32_t w = 200 + static_cast<uint32_t>(rng() % 400);
        const uint32_t h = 40 + static_cast<uint32_t>(rng() % 300);
        compare_named(rng, name, fname, w, h, it == 1, &failures);
      }
  EXPECT_GT(g_api_cases, 40);
}

// The stretch swizzle's line order (UnitWalk::qm): Intel Y / Tile4 tiles
// whose linear rows are a multiple of 2 KiB apart (rows that share L1 sets),
// on user buffers at any offset, whole and in boxes, against the scalar tiler.
TEST(SimdApi, StretchLineOrderOnRowsThatShareSets) {
  std::mt19937_64 rng(31);
  TuningScope tune;
  int failures = 0;
  g_api_cases = 0;
  struct Case {
    const char* fname;
    uint32_t w;  // texels: rows of 2, 4 or 8 KiB
  };
  const Case cases[] = {{"R8G8B8A8_UNORM", 512}, {"R8G8B8A8_UNORM", 1024},    {"BC7_UNORM", 512},
                        {"BC7_UNORM", 1024},     {"R32G32B32A32_FLOAT", 128}, {"R32G32B32A32_FLOAT", 512},
                        {"R8_UNORM", 2048}};
  for (const char* name : {"intel-tiley", "intel-tile4"})
    for (const Case& c : cases)
      for (int it = 0; it < 3 && failures < 5; ++it) {
        swz::detail::simd::Tuning& t = swz::detail::simd::tuning();
        t = tune.saved;
        t.stretch_line_order = true;
        const uint32_t h = 40 + static_cast<uint32_t>(rng() % 120);
        compare_named(rng, name, c.fname, c.w, h, it == 2, &failures);
      }
  EXPECT_GT(g_api_cases, 30);
}

#ifdef SWZ_HAVE_XSIMD
// The xsimd kernel is built for the machine's vector unit, not a scalar
// emulation: NEON on AArch64 (on x86-64 whatever the compiler flags allow,
// SSE2 at least).
TEST(SimdApi, XsimdArchitecture) {
  const std::string arch = swz::detail::xsimd_arch_name();
  std::printf("xsimd architecture: %s\n", arch.c_str());
#if defined(__aarch64__)
  EXPECT_NE(arch.find("neon"), std::string::npos) << arch;  // xsimd 8.1: "arm64+neon"
#else
  EXPECT_NE(arch, "<none>");
#endif
}
#endif

TEST(SimdApi, BackendNames) {
  EXPECT_STREQ(swz::backend_name(swz::Backend::Highway), "highway");
  EXPECT_STREQ(swz::backend_name(swz::Backend::Xsimd), "xsimd");
}
#endif  // SWZ_TEST_SIMD_NO_API

}  // namespace
