/* Tests of the C API's clears, fills, resolves, decodes and identify (include/swz/swz.h), in C99.
 * Oracles: values derived by hand from Microsoft's Direct3D "Data Conversion
 * Rules" (R8G8B8A8_UNORM: 0.5 -> 128, 1.0 -> 255), swz_element_offset for
 * where texels live, a byte loop for fills; guard bytes must stay untouched
 * and failing calls must leave the buffers unchanged. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swz/swz.h"

static int g_failures = 0;

#define CHECK(cond)                                                                                               \
  do {                                                                                                            \
    if (!(cond)) {                                                                                                \
      ++g_failures;                                                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, swz_last_error()); \
    }                                                                                                             \
  } while (0)

#define CHECK_FAILS(call, code, needle)                                                           \
  do {                                                                                            \
    swz_status st_ = (call);                                                                      \
    if (st_ != (code) || strstr(swz_last_error(), (needle)) == NULL) {                            \
      ++g_failures;                                                                               \
      fprintf(stderr, "%s:%d: %s -> %s '%s'; expected %s with '%s'\n", __FILE__, __LINE__, #call, \
              swz_status_name(st_), swz_last_error(), swz_status_name(code), (needle));           \
    }                                                                                             \
  } while (0)

static swz_layout* make(const char* name, const char* format, uint32_t w, uint32_t h, uint32_t samples) {
  swz_texture_desc d;
  swz_layout* L = NULL;
  memset(&d, 0, sizeof d);
  d.format = format;
  d.width = w;
  d.height = h;
  d.samples = samples;
  d.mip_levels = 1;
  if (swz_layout_create(name, &d, NULL, &L) != SWZ_OK) {
    fprintf(stderr, "layout %s: %s\n", name, swz_last_error());
    exit(1);
  }
  return L;
}

static void test_clear(void) {
  swz_layout* L = make("std64k", "R8G8B8A8_UNORM", 20, 10, 1);
  swz_layout_info info;
  uint8_t *buf, *copy;
  uint64_t size;
  swz_clear_desc c;
  swz_box box = {4, 2, 0, 9, 7, 1};
  uint32_t x, y;
  CHECK(swz_layout_get_info(L, &info) == SWZ_OK);
  size = info.size_B;
  buf = (uint8_t*)malloc((size_t)size + 64);
  copy = (uint8_t*)malloc((size_t)size + 64);
  memset(buf, 0x11, (size_t)size + 64);
  memset(&c, 0, sizeof c);
  c.subresource = 0;
  c.value.floats[0] = 1.0f;
  c.value.floats[1] = 0.5f;
  c.value.floats[2] = 0.0f;
  c.value.floats[3] = 2.0f; /* clamped to 1.0 */
  c.box = &box;
  CHECK(swz_clear_subresources(L, buf, size, &c, 1) == SWZ_OK);
  for (y = 0; y < 10; ++y)
    for (x = 0; x < 20; ++x) {
      uint64_t off;
      int in = x >= 4 && x < 9 && y >= 2 && y < 7;
      CHECK(swz_element_offset(L, 0, x, y, 0, 0, &off) == SWZ_OK);
      CHECK(buf[off] == (in ? 0xFF : 0x11));
      CHECK(buf[off + 1] == (in ? 0x80 : 0x11));
      CHECK(buf[off + 2] == (in ? 0x00 : 0x11));
      CHECK(buf[off + 3] == (in ? 0xFF : 0x11));
    }
  for (x = 0; x < 64; ++x) CHECK(buf[size + x] == 0x11);
  /* Hostile: box outside, typeless format_dxgi mismatch, null layout; nothing written. */
  memcpy(copy, buf, (size_t)size + 64);
  box.right = 21;
  CHECK_FAILS(swz_clear_subresources(L, buf, size, &c, 1), SWZ_OUT_OF_RANGE, "outside the subresource");
  box.right = 9;
  c.format_dxgi = 2; /* R32G32B32A32_FLOAT: 16-byte elements */
  CHECK_FAILS(swz_clear_subresources(L, buf, size, &c, 1), SWZ_INVALID_ARGUMENT, "differs from the resource's");
  c.format_dxgi = 0;
  CHECK_FAILS(swz_clear_subresources(NULL, buf, size, &c, 1), SWZ_INVALID_ARGUMENT, "layout = NULL");
  CHECK_FAILS(swz_clear_subresources(L, buf, size - 1, &c, 1), SWZ_BUFFER_TOO_SMALL, "resource buffer");
  CHECK(memcmp(copy, buf, (size_t)size + 64) == 0);
  free(buf);
  free(copy);
  swz_layout_destroy(L);
}

static void test_encode(void) {
  swz_clear_data v;
  uint8_t out[16];
  memset(&v, 0, sizeof v);
  v.floats[0] = 65520.0f; /* toward zero: 0x7BFF, not INF */
  CHECK(swz_encode_clear_value("R16_FLOAT", 0, 0, &v, out, sizeof out) == SWZ_OK);
  CHECK(out[0] == 0xFF && out[1] == 0x7B);
  CHECK_FAILS(swz_encode_clear_value("R10G10B10_XR_BIAS_A2_UNORM", 0, 0, &v, out, sizeof out), SWZ_UNSUPPORTED,
              "XR_BIAS");
  CHECK_FAILS(swz_encode_clear_value(NULL, 4242, 0, &v, out, sizeof out), SWZ_INVALID_ARGUMENT, "4242");
}

static void test_fill(void) {
  uint8_t buf[40], want[40];
  swz_fill_desc f[2];
  uint32_t i;
  memset(buf, 0xA5, sizeof buf);
  memset(f, 0, sizeof f);
  f[0].offset_B = 4;
  f[0].raw_pattern_bytes = 12;
  f[0].repeat_count = 9; /* only (36 - 4) / 12 = 2 whole repetitions fit in 36 bytes */
  for (i = 0; i < 16; ++i) f[0].value.bytes[i] = (uint8_t)(i + 1);
  CHECK(swz_fill_buffers(buf, 36, f, 1) == SWZ_OK);
  memset(want, 0xA5, sizeof want);
  for (i = 0; i < 24; ++i) want[4 + i] = (uint8_t)(i % 12 + 1);
  CHECK(memcmp(buf, want, sizeof buf) == 0);
  f[1] = f[0];
  f[1].offset_B = 6; /* not a multiple of 4 */
  CHECK_FAILS(swz_fill_buffers(buf, 36, f, 2), SWZ_INVALID_ARGUMENT, "fill 1: offset_B = 6");
  CHECK(memcmp(buf, want, sizeof buf) == 0);
}

static void test_resolve(void) {
  swz_layout* S = make("pattern:X0 X1 S0 S1 X2 Y0 X3 Y1", "R8G8B8A8_UNORM", 4, 4, 4);
  swz_layout* D = make("row-major", "R8G8B8A8_UNORM", 4, 4, 1);
  swz_layout* U = make("pattern:X0 X1 S0 S1 X2 Y0 X3 Y1", "R8G8B8A8_UINT", 4, 4, 4);
  swz_layout_info si, di;
  uint8_t *src, *dst;
  uint32_t s, x, y;
  swz_rect rect = {1, 1, 3, 3};
  CHECK(swz_layout_get_info(S, &si) == SWZ_OK);
  CHECK(swz_layout_get_info(D, &di) == SWZ_OK);
  src = (uint8_t*)calloc(1, (size_t)si.size_B);
  dst = (uint8_t*)malloc((size_t)di.size_B);
  memset(dst, 0xA5, (size_t)di.size_B);
  /* Samples 0..3 of every texel: R = 0, 0, 0, 1 (mean 0.25/255 -> 0), G = 0, 0, 1, 1 (0.5/255 -> 1). */
  for (y = 0; y < 4; ++y)
    for (x = 0; x < 4; ++x)
      for (s = 0; s < 4; ++s) {
        uint64_t off;
        CHECK(swz_element_offset(S, 0, x, y, 0, s, &off) == SWZ_OK);
        src[off] = (uint8_t)(s == 3);
        src[off + 1] = (uint8_t)(s >= 2);
        src[off + 2] = (uint8_t)(10 * s);
        src[off + 3] = 255;
      }
  CHECK(swz_resolve_subresource(D, dst, di.size_B, 0, 0, 1, S, src, si.size_B, 0, &rect, 0, SWZ_RESOLVE_AVERAGE) ==
        SWZ_OK);
  for (y = 0; y < 4; ++y)
    for (x = 0; x < 4; ++x) {
      uint64_t off;
      int in = x < 2 && y >= 1 && y < 3;
      CHECK(swz_element_offset(D, 0, x, y, 0, 0, &off) == SWZ_OK);
      CHECK(dst[off] == (in ? 0 : 0xA5));
      CHECK(dst[off + 1] == (in ? 1 : 0xA5));
      CHECK(dst[off + 2] == (in ? 15 : 0xA5)); /* (0 + 10 + 20 + 30) / 4 = 15 */
      CHECK(dst[off + 3] == (in ? 255 : 0xA5));
    }
  CHECK(swz_resolve_subresource(D, dst, di.size_B, 0, 0, 0, S, src, si.size_B, 0, NULL, 0, SWZ_RESOLVE_MAX) == SWZ_OK);
  {
    uint64_t off;
    CHECK(swz_element_offset(D, 0, 3, 3, 0, 0, &off) == SWZ_OK);
    CHECK(dst[off] == 1 && dst[off + 2] == 30);
  }
  CHECK_FAILS(swz_resolve_subresource(D, dst, di.size_B, 0, 0, 0, U, src, si.size_B, 0, NULL, 0, SWZ_RESOLVE_AVERAGE),
              SWZ_UNSUPPORTED, "UINT/SINT");
  CHECK_FAILS(swz_resolve_subresource(D, dst, di.size_B, 0, 0, 0, D, dst, di.size_B, 0, NULL, 0, SWZ_RESOLVE_MIN),
              SWZ_INVALID_ARGUMENT, "source samples = 1");
  CHECK_FAILS(swz_resolve_subresource(D, dst, di.size_B, 0, 0, 0, S, src, si.size_B, 0, NULL, 0, 0), SWZ_UNSUPPORTED,
              "DECOMPRESS");
  free(src);
  free(dst);
  swz_layout_destroy(S);
  swz_layout_destroy(D);
  swz_layout_destroy(U);
}

/* Decoding: hand-computed values (B5G6R5's bit layout from the DXGI_FORMAT
 * documentation; a BC1 block whose colours are pure red and pure blue). */
static void test_decode(void) {
  const uint8_t b565[4] = {0x00, 0xF8, 0x1F, 0x00}; /* 0xF800 red, 0x001F blue */
  /* BC1: colour 0 = red (0xF800), colour 1 = blue (0x001F), c0 > c1: four
   * colours; texel indices all 1 (0x55 per byte) = blue. */
  const uint8_t bc1[8] = {0x00, 0xF8, 0x1F, 0x00, 0x55, 0x55, 0x55, 0x55};
  swz_linear_image img;
  swz_decode_options o = swz_decode_options_default();
  uint8_t out[4 * 4 * 4 + 4];
  float f[4 * 4];
  uint64_t need = 0;
  memset(&img, 0, sizeof img);
  img.format = "B5G6R5_UNORM";
  img.width_px = 2;
  img.height_px = 1;
  img.data = b565;
  img.size_B = sizeof b565;
  CHECK(swz_decoded_size(&img, 0, &need) == SWZ_OK && need == 8);
  CHECK(swz_decoded_size(&img, 1, &need) == SWZ_OK && need == 32);
  memset(out, 0xEE, sizeof out);
  CHECK(swz_decode_rgba8(&img, NULL, out, 8, 0) == SWZ_OK);
  CHECK(out[0] == 255 && out[1] == 0 && out[2] == 0 && out[3] == 255);
  CHECK(out[4] == 0 && out[5] == 0 && out[6] == 255 && out[7] == 255);
  CHECK(out[8] == 0xEE);
  CHECK(swz_decode_rgba32f(&img, &o, f, sizeof f, 0) == SWZ_OK);
  CHECK(f[0] == 1.0f && f[2] == 0.0f && f[6] == 1.0f);
  /* By DXGI value, a channel view. */
  img.format = NULL;
  img.dxgi_format = 71; /* BC1_UNORM */
  img.width_px = 4;
  img.height_px = 4;
  img.data = bc1;
  img.size_B = sizeof bc1;
  o.channel = SWZ_VIEW_B;
  CHECK(swz_decode_rgba8(&img, &o, out, 64, 0) == SWZ_OK);
  CHECK(out[60] == 255 && out[61] == 255 && out[62] == 255 && out[63] == 255);
  /* Refusals: nothing written, the message names the problem. */
  memset(out, 0xEE, sizeof out);
  CHECK_FAILS(swz_decode_rgba8(&img, &o, out, 63, 0), SWZ_BUFFER_TOO_SMALL, "output buffer is 63 bytes");
  o.channel = 77;
  CHECK_FAILS(swz_decode_rgba8(&img, &o, out, 64, 0), SWZ_INVALID_ARGUMENT, "options.channel = ");
  /* A value past 8 bits is named as given, not as the 255 it would narrow to. */
  o.channel = 256;
  CHECK_FAILS(swz_decode_rgba8(&img, &o, out, 64, 0), SWZ_INVALID_ARGUMENT, "options.channel = 256 ");
  o.channel = SWZ_VIEW_RGBA;
  o.byte_order = 0xFFFFFFFFu;
  CHECK_FAILS(swz_decode_rgba8(&img, &o, out, 64, 0), SWZ_INVALID_ARGUMENT, "options.byte_order = 4294967295 ");
  o.byte_order = SWZ_BYTE_ORDER_LITTLE;
  img.format = "R8G8B8A8_TYPELESS";
  CHECK_FAILS(swz_decode_rgba8(&img, NULL, out, 64, 0), SWZ_UNSUPPORTED, "TYPELESS");
  CHECK(out[0] == 0xEE && out[63] == 0xEE);
  CHECK_FAILS(swz_decode_rgba8(NULL, NULL, out, 64, 0), SWZ_INVALID_ARGUMENT, "image");
  {
    /* P8 through a two-entry B5G6R5 palette (red, blue); big-endian R16. */
    const uint8_t idx[2] = {1, 0};
    const uint8_t be16[2] = {0x80, 0x00};
    swz_linear_image pal;
    memset(&pal, 0, sizeof pal);
    pal.format = "B5G6R5_UNORM";
    pal.width_px = 2;
    pal.height_px = 1;
    pal.data = b565;
    pal.size_B = sizeof b565;
    memset(&img, 0, sizeof img);
    img.format = "P8";
    img.width_px = 2;
    img.height_px = 1;
    img.data = idx;
    img.size_B = sizeof idx;
    o = swz_decode_options_default();
    o.palette = &pal;
    CHECK(swz_decode_rgba8(&img, &o, out, 8, 0) == SWZ_OK);
    CHECK(out[0] == 0 && out[2] == 255 && out[4] == 255 && out[6] == 0);
    img.format = "R16_UNORM";
    img.width_px = 1;
    img.data = be16;
    img.size_B = 2;
    o = swz_decode_options_default();
    o.byte_order = SWZ_BYTE_ORDER_SWAP16;
    CHECK(swz_decode_rgba8(&img, &o, out, 4, 0) == SWZ_OK && out[0] == 128);
  }
}

/* identify: a smooth 96x64 RGBA8 image swizzled into std4k with swz_write_subresource,
 * 8 KiB into a dump (noise before it), found by searching every 4 KiB; then the
 * same dump cut 10% short of its layout. */
static void test_identify(void) {
  const uint32_t w = 96, h = 64;
  swz_layout* L = make("std4k", "R8G8B8A8_UNORM", w, h, 1);
  swz_layout_info info;
  uint8_t *img = malloc((size_t)w * h * 4), *dump;
  uint64_t i, noise = 0x12345;
  uint32_t x, y, count = 99;
  swz_identify_options o;
  swz_identify_candidate got[3];
  CHECK(swz_layout_get_info(L, &info) == SWZ_OK);
  for (y = 0; y < h; ++y)
    for (x = 0; x < w; ++x) {
      uint8_t* p = img + ((size_t)y * w + x) * 4;
      p[0] = (uint8_t)(x * 2);
      p[1] = (uint8_t)(y * 3);
      p[2] = (uint8_t)((x + y) & 255);
      p[3] = 255;
    }
  dump = calloc(8192 + info.size_B, 1);
  for (i = 0; i < 8192; ++i) dump[i] = (uint8_t)((noise = noise * 6364136223846793005ull + 1) >> 56);
  CHECK(swz_write_subresource(L, dump + 8192, info.size_B, 0, NULL, img, (uint64_t)w * h * 4, 0, 0, NULL) == SWZ_OK);
  memset(&o, 0, sizeof o);
  o.top = 3;
  o.offset_step_B = 4096;
  CHECK(swz_identify(dump, 8192 + info.size_B, "R8G8B8A8_UNORM", 0, w, h, &o, got, 3, &count) == SWZ_OK);
  CHECK(count >= 1 && count <= 3 && strcmp(got[0].layout, "std4k") == 0 && got[0].offset_B == 8192 &&
        got[0].short_B == 0);
  o.offset_B = 8192;
  o.offset_step_B = 0;
  CHECK(swz_identify(dump, 8192 + info.size_B * 9 / 10, NULL, 28 /* R8G8B8A8_UNORM */, w, h, &o, got, 1, &count) ==
        SWZ_OK);
  CHECK(count == 1 && strcmp(got[0].layout, "std4k") == 0 && got[0].short_B == info.size_B - info.size_B * 9 / 10);
  o.offset_step_B = 6;
  CHECK_FAILS(swz_identify(dump, 8192 + info.size_B, "R8G8B8A8_UNORM", 0, w, h, &o, got, 3, &count),
              SWZ_INVALID_ARGUMENT, "offset_step = 6");
  CHECK_FAILS(swz_identify(dump, 100, "R8G8B8A8_UNORM", 0, w, h, NULL, got, 3, &count), SWZ_OUT_OF_RANGE,
              "no layout fits");
  CHECK_FAILS(swz_identify(dump, 100, "R8G8B8A8_UNORM", 0, w, h, NULL, got, 0, &count), SWZ_INVALID_ARGUMENT,
              "capacity = 0");
  free(dump);
  free(img);
  swz_layout_destroy(L);
}

int main(void) {
  test_identify();
  test_decode();
  test_clear();
  test_encode();
  test_fill();
  test_resolve();
  if (g_failures) {
    fprintf(stderr, "%d check(s) failed\n", g_failures);
    return 1;
  }
  printf("capi clear/fill/resolve: all checks passed\n");
  return 0;
}
