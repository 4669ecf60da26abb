/* Tests of the C API (include/swz/swz.h), in C99.
 *
 * Oracles, independent of swz's code:
 *  - Microsoft's D3D12_TEXTURE_LAYOUT documentation gives, for the 32bpp 64KB
 *    standard swizzle, the offset inside a 64 KiB tile as
 *    pdep(x_bytes, 0xAA8F) + pdep(y, 0x5570), tiles in row-major order.
 *  - Row-major (D3D12 copyable footprint): offset = y * row_pitch + x * bytes,
 *    row pitch = row bytes aligned up to 256.
 *  - Round trips, and swz_locate as the inverse of swz_element_offset.
 * Every caller buffer carries guard bytes before and after it that must stay
 * untouched, and failing calls must leave the buffers unchanged. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swz/swz.h"

static int g_failures = 0;
static int g_checks = 0;

#define CHECK(cond)                                                                                               \
  do {                                                                                                            \
    ++g_checks;                                                                                                   \
    if (!(cond)) {                                                                                                \
      ++g_failures;                                                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, swz_last_error()); \
    }                                                                                                             \
  } while (0)

#define CHECK_OK(call)                                                                                             \
  do {                                                                                                             \
    swz_status st_ = (call);                                                                                       \
    ++g_checks;                                                                                                    \
    if (st_ != SWZ_OK) {                                                                                           \
      ++g_failures;                                                                                                \
      fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, swz_status_name(st_), swz_last_error()); \
    }                                                                                                              \
  } while (0)

/* `call` must fail with `code` and a non-empty message containing `needle`. */
#define CHECK_FAILS(call, code, needle)                                                               \
  do {                                                                                                \
    swz_status st_ = (call);                                                                          \
    ++g_checks;                                                                                       \
    if (st_ != (code) || swz_last_error()[0] == '\0' || strstr(swz_last_error(), (needle)) == NULL) { \
      ++g_failures;                                                                                   \
      fprintf(stderr, "%s:%d: %s -> %s '%s'; expected %s with '%s'\n", __FILE__, __LINE__, #call,     \
              swz_status_name(st_), swz_last_error(), swz_status_name(code), (needle));               \
    }                                                                                                 \
  } while (0)

/* ---- guarded buffers ---------------------------------------------------- */

#define GUARD 64
#define GUARD_BYTE 0xA5

typedef struct {
  unsigned char* base; /* GUARD + size + GUARD bytes */
  unsigned char* p;    /* the usable part */
  uint64_t size;
} gbuf;

static gbuf gbuf_new(uint64_t size, unsigned char fill) {
  gbuf b;
  b.base = (unsigned char*)malloc((size_t)size + 2 * GUARD);
  if (!b.base) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  memset(b.base, GUARD_BYTE, (size_t)size + 2 * GUARD);
  b.p = b.base + GUARD;
  b.size = size;
  memset(b.p, fill, (size_t)size);
  return b;
}

static int gbuf_guards_ok(const gbuf* b) {
  uint64_t i;
  for (i = 0; i < GUARD; ++i)
    if (b->base[i] != GUARD_BYTE || b->p[b->size + i] != GUARD_BYTE) return 0;
  return 1;
}

static void gbuf_free(gbuf* b) {
  free(b->base);
  b->base = NULL;
  b->p = NULL;
}

static uint64_t pdep(uint64_t v, uint64_t mask) {
  uint64_t out = 0, bit;
  for (bit = 1; mask; bit <<= 1) {
    uint64_t low = mask & (~mask + 1);
    if (v & bit) out |= low;
    mask &= mask - 1;
  }
  return out;
}

/* Microsoft's documented 32bpp 64KB standard swizzle (one 2D subresource). */
static uint64_t std64k_32bpp(uint64_t x, uint64_t y, uint64_t tiles_x) {
  uint64_t xb = x * 4;
  return ((y / 128) * tiles_x + xb / 512) * 65536 + pdep(xb % 512, 0xAA8F) + pdep(y % 128, 0x5570);
}

static uint32_t rng_state = 20261201u;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

static swz_texture_desc desc2d(const char* format, uint32_t w, uint32_t h) {
  swz_texture_desc d;
  memset(&d, 0, sizeof d);
  d.format = format;
  d.width = w;
  d.height = h;
  d.mip_levels = 1;
  return d;
}

/* ---- tests -------------------------------------------------------------- */

static void test_std64k_against_documented_formula(void) {
  const uint32_t W = 300, H = 200; /* 3 x 2 tiles of 128 x 128 texels */
  const uint64_t tiles_x = 3;
  swz_texture_desc d = desc2d("R8G8B8A8_UNORM", W, H);
  swz_layout* L = NULL;
  swz_layout_info info;
  swz_subresource_info s;
  uint32_t x, y;
  gbuf src, res, back, expect;
  CHECK_OK(swz_layout_create("std64k", &d, NULL, &L));
  if (!L) return;
  CHECK(strcmp(swz_last_error(), "") == 0);
  CHECK_OK(swz_layout_get_info(L, &info));
  CHECK(info.size_B == 6 * 65536);
  CHECK(info.alignment_B == 65536);
  CHECK(info.subresource_count == 1);
  CHECK(info.surface_linear_size_B == (uint64_t)W * H * 4);
  CHECK(strcmp(info.format, "R8G8B8A8_UNORM") == 0);
  CHECK(info.dxgi_format == 28); /* DXGI_FORMAT_R8G8B8A8_UNORM */
  CHECK_OK(swz_layout_get_subresource(L, 0, &s));
  CHECK(s.offset_B == 0 && s.row_pitch_B == tiles_x * 65536 && s.width_el == W && s.height_el == H);
  CHECK(s.element_bytes == 4 && s.linear_size_B == (uint64_t)W * H * 4 && s.surface_linear_offset_B == 0);

  /* element_offset and locate against the formula */
  for (y = 0; y < H; y += 7)
    for (x = 0; x < W; x += 3) {
      uint64_t off = 0;
      swz_location loc;
      CHECK_OK(swz_element_offset(L, 0, x, y, 0, 0, &off));
      CHECK(off == std64k_32bpp(x, y, tiles_x));
      CHECK_OK(swz_locate(L, off + 2, &loc));
      CHECK(loc.subresource == 0 && loc.x == x && loc.y == y && loc.z == 0 && loc.byte == 2 && !loc.padding &&
            !loc.packed);
    }
  {
    uint64_t off = 0;
    CHECK_OK(swz_element_offset(L, 0, 17, 3, 0, 0, &off));
    CHECK(off == 2100); /* the README's example value */
  }

  /* whole-subresource write: every element where the formula puts it,
     padding texels (x >= 300 or y >= 200 in the tiles) untouched */
  src = gbuf_new((uint64_t)W * H * 4, 0);
  for (x = 0; x < W * H * 4; ++x) src.p[x] = (unsigned char)rnd();
  res = gbuf_new(info.size_B, 0x3C);
  expect = gbuf_new(info.size_B, 0x3C);
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x) memcpy(expect.p + std64k_32bpp(x, y, tiles_x), src.p + ((uint64_t)y * W + x) * 4, 4);
  CHECK_OK(swz_write_subresource(L, res.p, res.size, 0, NULL, src.p, src.size, 0, 0, NULL));
  CHECK(memcmp(res.p, expect.p, (size_t)res.size) == 0);
  CHECK(gbuf_guards_ok(&res) && gbuf_guards_ok(&src));

  /* box read with a padded row pitch */
  {
    swz_box b = {40, 30, 0, 261, 170, 1};
    const uint64_t bw = 221, bh = 140, rp = bw * 4 + 36;
    uint64_t need = 0;
    int ok = 1;
    CHECK_OK(swz_box_linear_size(L, 0, &b, rp, 0, &need));
    CHECK(need == (bh - 1) * rp + bw * 4);
    CHECK_OK(swz_box_linear_size(L, 0, &b, 0, 0, &need));
    CHECK(need == bh * bw * 4);
    back = gbuf_new((bh - 1) * rp + bw * 4, 0x77);
    CHECK_OK(swz_read_subresource(L, back.p, back.size, rp, 0, res.p, res.size, 0, &b, NULL));
    for (y = 0; y < bh; ++y) {
      if (memcmp(back.p + y * rp, src.p + ((uint64_t)(y + b.top) * W + b.left) * 4, (size_t)(bw * 4)) != 0) ok = 0;
      if (y + 1 < bh)
        for (x = (uint32_t)(bw * 4); x < rp; ++x)
          if (back.p[y * rp + x] != 0x77) ok = 0; /* pitch padding is not written */
    }
    CHECK(ok);
    CHECK(gbuf_guards_ok(&back) && gbuf_guards_ok(&res));

    /* bad input: nothing written, messages name the problem */
    memset(back.p, 0x77, (size_t)back.size);
    CHECK_FAILS(swz_read_subresource(L, back.p, back.size - 1, rp, 0, res.p, res.size, 0, &b, NULL),
                SWZ_BUFFER_TOO_SMALL, "destination buffer");
    CHECK_FAILS(swz_read_subresource(L, back.p, back.size, bw * 4 - 1, 0, res.p, res.size, 0, &b, NULL),
                SWZ_INVALID_ARGUMENT, "row pitch");
    CHECK_FAILS(swz_read_subresource(L, back.p, back.size, rp, 0, res.p, res.size - 1, 0, &b, NULL),
                SWZ_BUFFER_TOO_SMALL, "resource buffer");
    CHECK_FAILS(swz_read_subresource(L, back.p, back.size, rp, 0, res.p, res.size, 1, &b, NULL), SWZ_OUT_OF_RANGE, "1");
    b.right = W + 1;
    CHECK_FAILS(swz_read_subresource(L, back.p, back.size, rp, 0, res.p, res.size, 0, &b, NULL), SWZ_OUT_OF_RANGE,
                "box");
    CHECK_FAILS(swz_box_linear_size(L, 0, &b, 0, 0, &need), SWZ_OUT_OF_RANGE, "box");
    {
      int untouched = 1;
      for (x = 0; x < back.size; ++x)
        if (back.p[x] != 0x77) untouched = 0;
      CHECK(untouched);
    }
    gbuf_free(&back);
  }
  {
    swz_copy_options o;
    memset(&o, 0, sizeof o);
    o.backend = 99;
    CHECK_FAILS(swz_write_subresource(L, res.p, res.size, 0, NULL, src.p, src.size, 0, 0, &o), SWZ_INVALID_ARGUMENT,
                "backend");
    o.backend = SWZ_BACKEND_SCALAR;
    o.threads = 3;
    memset(res.p, 0x3C, (size_t)res.size);
    CHECK_OK(swz_write_subresource(L, res.p, res.size, 0, NULL, src.p, src.size, W * 4, 0, &o));
    CHECK(memcmp(res.p, expect.p, (size_t)res.size) == 0);
  }
  /* locate past the end */
  {
    swz_location loc;
    CHECK_FAILS(swz_locate(L, info.size_B, &loc), SWZ_OUT_OF_RANGE, "");
    CHECK_FAILS(swz_element_offset(L, 0, W, 0, 0, 0, &info.size_B), SWZ_OUT_OF_RANGE, "");
  }
  gbuf_free(&src);
  gbuf_free(&res);
  gbuf_free(&expect);
  swz_layout_destroy(L);
}

static void test_row_major_formula(void) {
  swz_texture_desc d = desc2d("R16G16B16A16_FLOAT", 37, 5);
  swz_layout* L = NULL;
  swz_subresource_info s;
  uint32_t x, y;
  CHECK_OK(swz_layout_create("row-major", &d, NULL, &L));
  if (!L) return;
  CHECK_OK(swz_layout_get_subresource(L, 0, &s));
  CHECK(s.row_pitch_B == 512); /* 37 * 8 = 296 -> aligned to 256 */
  for (y = 0; y < 5; ++y)
    for (x = 0; x < 37; ++x) {
      uint64_t off = 0;
      CHECK_OK(swz_element_offset(L, 0, x, y, 0, 0, &off));
      CHECK(off == (uint64_t)y * 512 + x * 8);
    }
  swz_layout_destroy(L);
  {
    swz_layout_options o;
    memset(&o, 0, sizeof o);
    o.row_pitch_B = 1024;
    CHECK_OK(swz_layout_create("row_major", &d, &o, &L));
    if (L) {
      uint64_t off = 0;
      CHECK_OK(swz_element_offset(L, 0, 1, 2, 0, 0, &off));
      CHECK(off == 2 * 1024 + 8);
      swz_layout_destroy(L);
    }
  }
}

/* Whole-surface calls on mips x array layouts of several kinds: the packed
   linear side agrees with per-subresource copies, round trips, and refuses
   bad sizes without writing. */
static void surface_case(const char* name, swz_texture_desc d) {
  swz_layout* L = NULL;
  swz_layout_info info;
  gbuf lin, res, res2, back;
  uint32_t i;
  uint64_t sum = 0, k;
  int same = 1;
  CHECK_OK(swz_layout_create(name, &d, NULL, &L));
  if (!L) {
    fprintf(stderr, "  (layout %s)\n", name);
    return;
  }
  CHECK_OK(swz_layout_get_info(L, &info));
  for (i = 0; i < info.subresource_count; ++i) {
    swz_subresource_info s;
    CHECK_OK(swz_layout_get_subresource(L, i, &s));
    CHECK(s.surface_linear_offset_B == sum);
    CHECK(s.linear_size_B == (uint64_t)s.width_el * s.height_el * s.depth * s.element_bytes);
    sum += s.linear_size_B;
  }
  CHECK(info.surface_linear_size_B == sum);
  lin = gbuf_new(sum, 0);
  for (k = 0; k < sum; ++k) lin.p[k] = (unsigned char)rnd();
  res = gbuf_new(info.size_B, 0x11);
  res2 = gbuf_new(info.size_B, 0x11);
  CHECK_OK(swz_swizzle_surface(L, res.p, res.size, lin.p, lin.size, NULL, NULL));
  /* the same with one write per subresource */
  for (i = 0; i < info.subresource_count; ++i) {
    swz_subresource_info s;
    CHECK_OK(swz_layout_get_subresource(L, i, &s));
    CHECK_OK(swz_write_subresource(L, res2.p, res2.size, i, NULL, lin.p + s.surface_linear_offset_B, s.linear_size_B, 0,
                                   0, NULL));
  }
  CHECK(memcmp(res.p, res2.p, (size_t)res.size) == 0);
  /* every element where swz_element_offset says (sampled) */
  for (i = 0; i < info.subresource_count; ++i) {
    swz_subresource_info s;
    uint32_t t;
    CHECK_OK(swz_layout_get_subresource(L, i, &s));
    for (t = 0; t < 20; ++t) {
      uint32_t x = rnd() % s.width_el, y = rnd() % s.height_el, z = rnd() % s.depth;
      uint64_t off = 0;
      swz_location loc;
      const unsigned char* want =
          lin.p + s.surface_linear_offset_B + (((uint64_t)z * s.height_el + y) * s.width_el + x) * s.element_bytes;
      CHECK_OK(swz_element_offset(L, i, x, y, z, 0, &off));
      if (memcmp(res.p + off, want, s.element_bytes) != 0) same = 0;
      CHECK_OK(swz_locate(L, off, &loc));
      CHECK(loc.subresource == i && loc.x == x && loc.y == y && loc.z == z && loc.byte == 0);
    }
  }
  CHECK(same);
  back = gbuf_new(sum, 0xEE);
  CHECK_OK(swz_deswizzle_surface(L, back.p, back.size, res.p, res.size, NULL, NULL));
  CHECK(memcmp(back.p, lin.p, (size_t)sum) == 0);
  CHECK(gbuf_guards_ok(&lin) && gbuf_guards_ok(&res) && gbuf_guards_ok(&back));

  /* too small on either side: error, nothing written */
  memset(back.p, 0xEE, (size_t)back.size);
  memcpy(res2.p, res.p, (size_t)res.size);
  CHECK_FAILS(swz_deswizzle_surface(L, back.p, back.size - 1, res.p, res.size, NULL, NULL), SWZ_BUFFER_TOO_SMALL,
              "subresource");
  CHECK_FAILS(swz_swizzle_surface(L, res2.p, res2.size - 1, lin.p, lin.size, NULL, NULL), SWZ_BUFFER_TOO_SMALL,
              "resource buffer");
  CHECK_FAILS(swz_swizzle_surface(L, res2.p, res2.size, lin.p, lin.size - 1, NULL, NULL), SWZ_BUFFER_TOO_SMALL,
              "linear");
  CHECK_FAILS(swz_swizzle_surface(L, res2.p, res2.size, NULL, lin.size, NULL, NULL), SWZ_INVALID_ARGUMENT, "linear");
  for (k = 0; k < back.size; ++k)
    if (back.p[k] != 0xEE) same = 0;
  CHECK(same);
  CHECK(memcmp(res2.p, res.p, (size_t)res.size) == 0);

  /* an offset table: each subresource at a 64-byte aligned offset */
  if (info.subresource_count > 1) {
    uint64_t* offs = (uint64_t*)malloc(sizeof(uint64_t) * info.subresource_count);
    uint64_t pos = 0;
    gbuf alin;
    for (i = 0; i < info.subresource_count; ++i) {
      swz_subresource_info s;
      CHECK_OK(swz_layout_get_subresource(L, i, &s));
      offs[i] = pos;
      pos = (pos + s.linear_size_B + 63) / 64 * 64;
    }
    alin = gbuf_new(pos, 0x5A);
    CHECK_OK(swz_deswizzle_surface(L, alin.p, alin.size, res.p, res.size, offs, NULL));
    for (i = 0; i < info.subresource_count; ++i) {
      swz_subresource_info s;
      CHECK_OK(swz_layout_get_subresource(L, i, &s));
      CHECK(memcmp(alin.p + offs[i], lin.p + s.surface_linear_offset_B, (size_t)s.linear_size_B) == 0);
    }
    memset(res2.p, 0, (size_t)res2.size);
    CHECK_OK(swz_swizzle_surface(L, res2.p, res2.size, alin.p, alin.size, offs, NULL));
    CHECK_OK(swz_swizzle_surface(L, res.p, res.size, lin.p, lin.size, NULL, NULL));
    /* bytes outside every subresource may differ (res was filled with 0x11, res2 with 0) */
    for (i = 0; i < info.subresource_count; ++i) {
      swz_subresource_info s;
      gbuf a, b;
      CHECK_OK(swz_layout_get_subresource(L, i, &s));
      a = gbuf_new(s.linear_size_B, 0);
      b = gbuf_new(s.linear_size_B, 1);
      CHECK_OK(swz_read_subresource(L, a.p, a.size, 0, 0, res.p, res.size, i, NULL, NULL));
      CHECK_OK(swz_read_subresource(L, b.p, b.size, 0, 0, res2.p, res2.size, i, NULL, NULL));
      CHECK(memcmp(a.p, b.p, (size_t)a.size) == 0);
      gbuf_free(&a);
      gbuf_free(&b);
    }
    offs[1] = offs[0] + 1; /* overlaps subresource 0 */
    CHECK_FAILS(swz_swizzle_surface(L, res2.p, res2.size, alin.p, alin.size, offs, NULL), SWZ_INVALID_ARGUMENT,
                "overlaps");
    offs[1] = alin.size; /* past the end */
    CHECK_FAILS(swz_swizzle_surface(L, res2.p, res2.size, alin.p, alin.size, offs, NULL), SWZ_BUFFER_TOO_SMALL,
                "subresource 1");
    CHECK(gbuf_guards_ok(&alin));
    gbuf_free(&alin);
    free(offs);
  }
  gbuf_free(&lin);
  gbuf_free(&res);
  gbuf_free(&res2);
  gbuf_free(&back);
  swz_layout_destroy(L);
}

static void test_surfaces(void) {
  swz_texture_desc d = desc2d("R8G8B8A8_UNORM", 70, 33);
  d.mip_levels = SWZ_MIPS_FULL;
  d.array_size = 3;
  surface_case("std64k", d);
  surface_case("std4k", d);
  surface_case("row-major", d);
  surface_case("nv-block-linear:gob=tegra,bh=2", d);
  d = desc2d("BC7_UNORM", 50, 22);
  d.mip_levels = 4;
  surface_case("std64k", d);
  d = desc2d("R16_UNORM", 40, 24);
  d.dimension = SWZ_TEXTURE_3D;
  d.depth = 9;
  d.mip_levels = SWZ_MIPS_FULL;
  surface_case("std64k", d);
  surface_case("pattern:X0 Y0 X1 Y1 X2 Y2 X3 Z0 Y3 X4", d);
  d.format = "R8_UNORM";
  surface_case("std4k", d);
}

/* mip_levels = 0 is the full chain (D3D12_RESOURCE_DESC), the same as
   SWZ_MIPS_FULL, for 2D and 3D; the README's "zeros" desc gets it too. */
static void test_zero_mips_is_full_chain(void) {
  swz_texture_desc d = desc2d("R8G8B8A8_UNORM", 600, 400);
  swz_layout *L0 = NULL, *Lf = NULL;
  swz_layout_info i0, f;
  d.mip_levels = 0;
  CHECK_OK(swz_layout_create("std64k", &d, NULL, &L0));
  d.mip_levels = SWZ_MIPS_FULL;
  CHECK_OK(swz_layout_create("std64k", &d, NULL, &Lf));
  if (!L0 || !Lf) return;
  CHECK_OK(swz_layout_get_info(L0, &i0));
  CHECK_OK(swz_layout_get_info(Lf, &f));
  CHECK(i0.mip_levels == 10 && f.mip_levels == 10 && i0.size_B == f.size_B && i0.subresource_count == 10);
  swz_layout_destroy(L0);
  swz_layout_destroy(Lf);
  d = desc2d("R16_UNORM", 40, 24);
  d.dimension = SWZ_TEXTURE_3D;
  d.depth = 70;
  d.mip_levels = 0;
  L0 = NULL;
  CHECK_OK(swz_layout_create("row-major", &d, NULL, &L0));
  if (!L0) return;
  CHECK_OK(swz_layout_get_info(L0, &i0));
  CHECK(i0.mip_levels == 7); /* 70 -> 35 -> 17 -> 8 -> 4 -> 2 -> 1 */
  swz_layout_destroy(L0);
}

static void test_bad_input(void) {
  swz_texture_desc d = desc2d("R8G8B8A8_UNORM", 64, 64);
  swz_layout* L = (swz_layout*)&d; /* must stay untouched on failure */
  swz_layout* const sentinel = L;
  swz_layout_info info;
  CHECK_FAILS(swz_layout_create(NULL, &d, NULL, &L), SWZ_INVALID_ARGUMENT, "name");
  CHECK_FAILS(swz_layout_create("std64k", &d, NULL, NULL), SWZ_INVALID_ARGUMENT, "out");
  CHECK_FAILS(swz_layout_create("std64k", NULL, NULL, &L), SWZ_INVALID_ARGUMENT, "desc");
  CHECK_FAILS(swz_layout_create("std65k", &d, NULL, &L), SWZ_INVALID_ARGUMENT, "std64k"); /* did you mean */
  CHECK_FAILS(swz_layout_create("pattern:X0 Q1", &d, NULL, &L), SWZ_PARSE_ERROR, "Q1");
  d.format = "R8G8B8A8_UNROM";
  CHECK_FAILS(swz_layout_create("std64k", &d, NULL, &L), SWZ_INVALID_ARGUMENT, "R8G8B8A8_UNROM");
  d.format = NULL;
  d.dxgi_format = 28;
  d.width = 0;
  CHECK_FAILS(swz_layout_create("std64k", &d, NULL, &L), SWZ_INVALID_ARGUMENT, "width");
  d.width = 64;
  d.dimension = 7;
  CHECK_FAILS(swz_layout_create("std64k", &d, NULL, &L), SWZ_INVALID_ARGUMENT, "dimension");
  d.dimension = SWZ_TEXTURE_2D;
  d.mip_levels = 9;
  CHECK_FAILS(swz_layout_create("std64k", &d, NULL, &L), SWZ_INVALID_ARGUMENT, "mip");
  d.mip_levels = 1;
  {
    swz_layout_options o;
    memset(&o, 0, sizeof o);
    o.row_pitch_B = 100;
    CHECK_FAILS(swz_layout_create("nv-block-linear", &d, &o, &L), SWZ_INVALID_ARGUMENT, "row_pitch");
  }
  CHECK(L == sentinel);
  CHECK_FAILS(swz_layout_create("/nonexistent/layout.json", &d, NULL, &L), SWZ_IO_ERROR, "/nonexistent/layout.json");
  CHECK(L == sentinel);
  CHECK_FAILS(swz_layout_get_info(NULL, &info), SWZ_INVALID_ARGUMENT, "layout");
  swz_layout_destroy(NULL);

  /* MSAA: layouts exist, copies are refused as D3D12 refuses them */
  d.samples = 4;
  CHECK_FAILS(swz_layout_create("row-major", &d, NULL, &L), SWZ_UNSUPPORTED, "samples");
  CHECK_FAILS(swz_layout_create("std64k", &d, NULL, &L), SWZ_UNSUPPORTED, "");
  CHECK(L == sentinel);
  L = NULL;
  CHECK_OK(swz_layout_create("pattern:X0 X1 S0 S1 X2 Y0 X3 Y1 X4 Y2", &d, NULL, &L));
  if (L) {
    gbuf res, lin;
    uint64_t off = 0;
    CHECK_OK(swz_layout_get_info(L, &info));
    res = gbuf_new(info.size_B, 0);
    lin = gbuf_new(64 * 64 * 4, 0);
    CHECK_FAILS(swz_write_subresource(L, res.p, res.size, 0, NULL, lin.p, lin.size, 0, 0, NULL), SWZ_UNSUPPORTED,
                "samples");
    CHECK_FAILS(swz_swizzle_surface(L, res.p, res.size, lin.p, lin.size, NULL, NULL), SWZ_UNSUPPORTED, "samples");
    CHECK_OK(swz_element_offset(L, 0, 1, 0, 0, 3, &off));
    gbuf_free(&res);
    gbuf_free(&lin);
    swz_layout_destroy(L);
  }

  /* status names */
  CHECK(strcmp(swz_status_name(SWZ_OK), "ok") == 0);
  CHECK(strcmp(swz_status_name(SWZ_BUFFER_TOO_SMALL), "buffer_too_small") == 0);
  CHECK(strcmp(swz_status_name(SWZ_OUT_OF_MEMORY), "out_of_memory") == 0);
  CHECK(strcmp(swz_status_name(1234), "unknown") == 0);
  CHECK(strcmp(swz_status_name(-1), "unknown") == 0);
}

/* Every member of swz_layout_info, swz_subresource_info and swz_location, on
 * textures whose every dimension, index and count differs, so that a member
 * filled from the wrong source shows. Expected values: D3D12's subresource
 * index (mip + slice * mips), halved mip sizes, BC1's 4x4 blocks of 8 bytes,
 * the row-major rules (row pitch aligned to 256). */
static void test_info_members(void) {
  swz_texture_desc d = desc2d("BC1_UNORM", 40, 24);
  swz_layout* L = NULL;
  swz_layout_info info;
  swz_subresource_info s;
  swz_location loc;
  uint64_t off = 0;
  d.array_size = 3;
  d.mip_levels = 3;
  CHECK_OK(swz_layout_create("row-major", &d, NULL, &L));
  if (!L) return;
  CHECK_OK(swz_layout_get_info(L, &info));
  CHECK(info.width == 40 && info.height == 24 && info.depth == 1 && info.array_size == 3 && info.mip_levels == 3);
  CHECK(info.samples == 1 && info.subresource_count == 9 && info.dimension == SWZ_TEXTURE_2D);
  CHECK(info.dxgi_format == 71 && strcmp(info.format, "BC1_UNORM") == 0); /* DXGI_FORMAT_BC1_UNORM */
  CHECK(info.alignment_B > 0 && info.allocation_size_B >= info.size_B &&
        info.allocation_size_B % info.alignment_B == 0);
  CHECK(info.allocation_size_B < info.size_B + info.alignment_B);
  CHECK_OK(swz_layout_get_subresource(L, 7, &s)); /* mip 1 of slice 2 */
  CHECK(s.mip == 1 && s.array_slice == 2 && s.plane == 0);
  CHECK(s.width == 20 && s.height == 12 && s.depth == 1 && s.width_el == 5 && s.height_el == 3);
  CHECK(s.element_bytes == 8 && s.row_pitch_B == 256 && s.linear_size_B == 5 * 3 * 8);
  CHECK(s.size_B >= 2 * 256 + 40 && s.size_B <= 3 * 256 && s.stack_rows == 0 && !s.stack_depth && !s.packed);
  CHECK_OK(swz_element_offset(L, 7, 0, 0, 0, 0, &off));
  CHECK(off == s.offset_B && s.offset_B > 0);
  CHECK_OK(swz_element_offset(L, 7, 3, 2, 0, 0, &off));
  CHECK_OK(swz_locate(L, off + 5, &loc));
  CHECK(loc.subresource == 7 && loc.x == 3 && loc.y == 2 && loc.z == 0 && loc.sample == 0 && loc.byte == 5);
  CHECK(!loc.padding && !loc.packed);
  swz_layout_destroy(L);

  d = desc2d("R16_UNORM", 8, 6);
  d.dimension = SWZ_TEXTURE_3D;
  d.depth = 5;
  L = NULL;
  CHECK_OK(swz_layout_create("row-major", &d, NULL, &L));
  if (!L) return;
  CHECK_OK(swz_layout_get_info(L, &info));
  CHECK(info.width == 8 && info.height == 6 && info.depth == 5 && info.array_size == 1 && info.mip_levels == 1);
  CHECK(info.dimension == SWZ_TEXTURE_3D && info.subresource_count == 1);
  CHECK_OK(swz_layout_get_subresource(L, 0, &s));
  CHECK(s.width == 8 && s.height == 6 && s.depth == 5 && s.element_bytes == 2 && s.linear_size_B == 8 * 6 * 5 * 2);
  CHECK_OK(swz_element_offset(L, 0, 3, 2, 4, 0, &off));
  CHECK_OK(swz_locate(L, off + 1, &loc));
  CHECK(loc.subresource == 0 && loc.x == 3 && loc.y == 2 && loc.z == 4 && loc.byte == 1 && !loc.padding);
  swz_layout_destroy(L);
}

int main(void) {
  printf("swz %s\n", swz_version());
  test_std64k_against_documented_formula();
  test_row_major_formula();
  test_surfaces();
  test_zero_mips_is_full_chain();
  test_bad_input();
  test_info_members();
  if (g_failures) {
    fprintf(stderr, "%d of %d checks failed\n", g_failures, g_checks);
    return 1;
  }
  printf("all %d checks passed\n", g_checks);
  return 0;
}
