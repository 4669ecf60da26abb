/* Tests of the C API's batched copy engine (include/swz/swz.h, "The batched
 * copy engine"), in C99.
 *
 * Oracles, independent of swz's code:
 *  - Microsoft's D3D12_TEXTURE_LAYOUT documentation: the 32bpp 64KB standard
 *    swizzle puts byte x_bytes of row y of a tile at
 *    pdep(x_bytes, 0xAA8F) + pdep(y, 0x5570), tiles in row-major order.
 *  - D3D12_PLACED_SUBRESOURCE_FOOTPRINT: element (x, y) at
 *    Offset + y * RowPitch + x * 4; the row-major layout's default row pitch is
 *    the row bytes aligned up to 256.
 *  - CopyTiles: a tile in the buffer is "linear within the tile" (rows of
 *    512 bytes for a 64 KiB 32bpp tile).
 * Every buffer carries guard bytes that must stay untouched; failing calls
 * must leave the buffers unchanged. */
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

#define CHECK_FAILS(call, code, needle)                                                           \
  do {                                                                                            \
    swz_status st_ = (call);                                                                      \
    ++g_checks;                                                                                   \
    if (st_ != (code) || strstr(swz_last_error(), (needle)) == NULL) {                            \
      ++g_failures;                                                                               \
      fprintf(stderr, "%s:%d: %s -> %s '%s'; expected %s with '%s'\n", __FILE__, __LINE__, #call, \
              swz_status_name(st_), swz_last_error(), swz_status_name(code), (needle));           \
    }                                                                                             \
  } while (0)

#define GUARD 64
#define GUARD_BYTE 0xA5

typedef struct {
  unsigned char* base;
  unsigned char* p;
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

static uint64_t pdep(uint64_t v, uint64_t mask) {
  uint64_t out = 0, bit;
  for (bit = 1; mask; bit <<= 1) {
    uint64_t low = mask & (~mask + 1);
    if (v & bit) out |= low;
    mask &= mask - 1;
  }
  return out;
}

static uint64_t std64k_32bpp(uint64_t x, uint64_t y, uint64_t tiles_x) {
  uint64_t xb = x * 4;
  return ((y / 128) * tiles_x + xb / 512) * 65536 + pdep(xb % 512, 0xAA8F) + pdep(y % 128, 0x5570);
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

enum { W = 300, H = 200, TILES_X = 3, PITCH = 1280, FP_OFFSET = 1024 };

static void test_placed_footprint(void) {
  swz_texture_desc d = desc2d("R8G8B8A8_UNORM", W, H);
  swz_layout* L = NULL;
  swz_layout_info info;
  swz_placed_footprint fp;
  swz_copy_region r;
  swz_box box = {10, 20, 0, 110, 70, 1};
  gbuf res, buf, back, snap_res, snap_buf;
  uint64_t x, y, i, bad = 0;
  CHECK_OK(swz_layout_create("std64k", &d, NULL, &L));
  CHECK_OK(swz_layout_get_info(L, &info));
  res = gbuf_new(info.size_B, 0);
  buf = gbuf_new(FP_OFFSET + (uint64_t)PITCH * H, 0);
  for (i = 0; i < buf.size; ++i) buf.p[i] = (unsigned char)(i * 7 + i / 251);
  memset(&fp, 0, sizeof fp);
  fp.offset_B = FP_OFFSET;
  fp.format = "R8G8B8A8_UNORM";
  fp.width = W;
  fp.height = H;
  fp.row_pitch_B = PITCH;
  /* Buffer -> texture, the whole footprint (region_count 0). */
  CHECK_OK(
      swz_copy_placed_footprint(L, res.p, res.size, 0, buf.p, buf.size, &fp, SWZ_BUFFER_TO_TEXTURE, NULL, 0, NULL));
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x)
      if (memcmp(res.p + std64k_32bpp(x, y, TILES_X), buf.p + FP_OFFSET + y * PITCH + x * 4, 4) != 0) ++bad;
  CHECK(bad == 0);
  CHECK(gbuf_guards_ok(&res));
  /* Texture -> buffer, one box to (4, 2) of the footprint. */
  back = gbuf_new(buf.size, 0x3C);
  r.dst_x = 4;
  r.dst_y = 2;
  r.dst_z = 0;
  r.src_box = &box;
  CHECK_OK(
      swz_copy_placed_footprint(L, res.p, res.size, 0, back.p, back.size, &fp, SWZ_TEXTURE_TO_BUFFER, &r, 1, NULL));
  bad = 0;
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x) {
      const int inside = x >= 4 && x < 104 && y >= 2 && y < 52;
      const unsigned char* got = back.p + FP_OFFSET + y * PITCH + x * 4;
      if (inside) {
        if (memcmp(got, res.p + std64k_32bpp(x - 4 + 10, y - 2 + 20, TILES_X), 4) != 0) ++bad;
      } else if (got[0] != 0x3C || got[1] != 0x3C || got[2] != 0x3C || got[3] != 0x3C) {
        ++bad;
      }
    }
  CHECK(bad == 0);
  CHECK(gbuf_guards_ok(&back));
  /* Hostile footprints: a named error, nothing written. */
  snap_res = gbuf_new(res.size, 0);
  memcpy(snap_res.p, res.p, (size_t)res.size);
  snap_buf = gbuf_new(back.size, 0);
  memcpy(snap_buf.p, back.p, (size_t)back.size);
  fp.offset_B = 100;
  CHECK_FAILS(
      swz_copy_placed_footprint(L, res.p, res.size, 0, back.p, back.size, &fp, SWZ_BUFFER_TO_TEXTURE, NULL, 0, NULL),
      SWZ_INVALID_ARGUMENT, "footprint.offset_B = 100");
  fp.offset_B = FP_OFFSET;
  fp.row_pitch_B = 1300;
  CHECK_FAILS(
      swz_copy_placed_footprint(L, res.p, res.size, 0, back.p, back.size, &fp, SWZ_TEXTURE_TO_BUFFER, NULL, 0, NULL),
      SWZ_INVALID_ARGUMENT, "footprint.row_pitch_B = 1300");
  fp.row_pitch_B = PITCH;
  /* One byte short of the last row (the buffer has W * 4 bytes after the last row's start). */
  CHECK_FAILS(
      swz_copy_placed_footprint(L, res.p, res.size, 0, back.p, FP_OFFSET + (uint64_t)PITCH * (H - 1) + W * 4 - 1, &fp,
                                SWZ_TEXTURE_TO_BUFFER, NULL, 0, NULL),
      SWZ_BUFFER_TOO_SMALL, "footprint");
  CHECK_OK(swz_copy_placed_footprint(L, res.p, res.size, 0, back.p, FP_OFFSET + (uint64_t)PITCH * (H - 1) + W * 4, &fp,
                                     SWZ_TEXTURE_TO_BUFFER, NULL, 0, NULL));
  memcpy(snap_buf.p, back.p, (size_t)back.size);
  fp.format = "R16G16_UNORM";
  CHECK_FAILS(
      swz_copy_placed_footprint(L, res.p, res.size, 0, back.p, back.size, &fp, SWZ_BUFFER_TO_TEXTURE, NULL, 0, NULL),
      SWZ_INVALID_ARGUMENT, "footprint.format = R16G16_UNORM");
  fp.format = "R8G8B8A8_UNORM";
  CHECK_FAILS(swz_copy_placed_footprint(L, res.p, res.size, 0, back.p, back.size, &fp, 7, NULL, 0, NULL),
              SWZ_INVALID_ARGUMENT, "direction = 7");
  CHECK_FAILS(swz_copy_placed_footprint(L, res.p, res.size, 0, back.p, back.size, NULL, 0, NULL, 0, NULL),
              SWZ_INVALID_ARGUMENT, "footprint = NULL");
  CHECK(memcmp(snap_res.p, res.p, (size_t)res.size) == 0);
  CHECK(memcmp(snap_buf.p, back.p, (size_t)back.size) == 0);
  free(res.base);
  free(buf.base);
  free(back.base);
  free(snap_res.base);
  free(snap_buf.base);
  swz_layout_destroy(L);
}

static void test_resources_regions_tiles(void) {
  swz_texture_desc d = desc2d("R8G8B8A8_UNORM", W, H), d2 = desc2d("R8G8B8A8_UNORM", W, H + 1);
  swz_layout *S = NULL, *R = NULL, *R2 = NULL;
  swz_layout_info si, ri;
  gbuf src, dst, tiles;
  swz_texture_region tr;
  swz_box box = {0, 0, 0, 16, 8, 1};
  swz_tile_coordinate c;
  swz_tile_region_size sz;
  uint64_t x, y, i, bad = 0;
  CHECK_OK(swz_layout_create("std64k", &d, NULL, &S));
  CHECK_OK(swz_layout_create("row-major", &d, NULL, &R));
  CHECK_OK(swz_layout_create("row-major", &d2, NULL, &R2));
  CHECK_OK(swz_layout_get_info(S, &si));
  CHECK_OK(swz_layout_get_info(R, &ri));
  src = gbuf_new(si.size_B, 0);
  for (i = 0; i < src.size; ++i) src.p[i] = (unsigned char)(i * 13 + i / 509);
  dst = gbuf_new(ri.size_B, 0);
  /* CopyResources std64k -> row-major. */
  CHECK_OK(swz_copy_resources(R, dst.p, dst.size, S, src.p, src.size));
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x)
      if (memcmp(dst.p + y * PITCH + x * 4, src.p + std64k_32bpp(x, y, TILES_X), 4) != 0) ++bad;
  CHECK(bad == 0);
  CHECK(gbuf_guards_ok(&dst));
  CHECK_FAILS(swz_copy_resources(R2, dst.p, dst.size, S, src.p, src.size), SWZ_INVALID_ARGUMENT, "height differs");
  CHECK_FAILS(swz_copy_resources(R, src.p, src.size, S, src.p, src.size), SWZ_INVALID_ARGUMENT, "overlap");
  /* One region: 16x8 texels from (0,0) of std64k to (32, 4) of row-major. */
  memset(dst.p, 0, (size_t)dst.size);
  tr.dst_subresource = 0;
  tr.dst_x = 32;
  tr.dst_y = 4;
  tr.dst_z = 0;
  tr.src_subresource = 0;
  tr.src_box = &box;
  CHECK_OK(swz_copy_regions(R, dst.p, dst.size, S, src.p, src.size, &tr, 1));
  bad = 0;
  for (y = 0; y < 8; ++y)
    for (x = 0; x < 16; ++x)
      if (memcmp(dst.p + (y + 4) * PITCH + (x + 32) * 4, src.p + std64k_32bpp(x, y, TILES_X), 4) != 0) ++bad;
  CHECK(bad == 0);
  tr.dst_x = 290;
  CHECK_FAILS(swz_copy_regions(R, dst.p, dst.size, S, src.p, src.size, &tr, 1), SWZ_OUT_OF_RANGE, "does not fit");
  /* CopyTiles: tile (1, 0) of the std64k texture, linear within the tile. */
  tiles = gbuf_new(65536 + 256, 0);
  memset(&c, 0, sizeof c);
  c.x = 1;
  memset(&sz, 0, sizeof sz);
  sz.num_tiles = 1;
  CHECK_OK(swz_copy_tiles(S, src.p, src.size, &c, &sz, tiles.p, tiles.size, 256, SWZ_TILES_RESOURCE_TO_BUFFER));
  bad = 0;
  for (y = 0; y < 128; ++y)
    for (x = 0; x < 128; ++x)
      if (memcmp(tiles.p + 256 + y * 512 + x * 4, src.p + std64k_32bpp(128 + x, y, TILES_X), 4) != 0) ++bad;
  CHECK(bad == 0);
  CHECK(gbuf_guards_ok(&tiles));
  c.x = 3;
  CHECK_FAILS(swz_copy_tiles(S, src.p, src.size, &c, &sz, tiles.p, tiles.size, 256, SWZ_TILES_RESOURCE_TO_BUFFER),
              SWZ_OUT_OF_RANGE, "tile coordinate");
  CHECK_FAILS(swz_copy_tiles(S, src.p, src.size, &c, &sz, tiles.p, tiles.size, 256, 9), SWZ_INVALID_ARGUMENT,
              "direction = 9");
  free(src.base);
  free(dst.base);
  free(tiles.base);
  swz_layout_destroy(S);
  swz_layout_destroy(R);
  swz_layout_destroy(R2);
}

int main(void) {
  test_placed_footprint();
  test_resources_regions_tiles();
  if (g_failures) {
    fprintf(stderr, "%d of %d checks failed\n", g_failures, g_checks);
    return 1;
  }
  printf("all %d checks passed\n", g_checks);
  return 0;
}
