/* Uses the installed C API: layout, size queries, one subresource round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swz/swz.h>

int main(void) {
  swz_texture_desc desc;
  swz_layout* layout = NULL;
  swz_layout_info info;
  swz_subresource_info sub;
  unsigned char *lin, *back, *res;
  uint64_t i;
  int ok;
  memset(&desc, 0, sizeof desc);
  desc.format = "BC7_UNORM";
  desc.width = 100;
  desc.height = 60;
  desc.mip_levels = 1; /* 0 would be the full chain, as in D3D12_RESOURCE_DESC */
  if (swz_layout_create("std4k", &desc, NULL, &layout) != SWZ_OK || swz_layout_get_info(layout, &info) != SWZ_OK ||
      swz_layout_get_subresource(layout, 0, &sub) != SWZ_OK) {
    fprintf(stderr, "consumer_c: %s\n", swz_last_error());
    return 1;
  }
  lin = (unsigned char*)malloc((size_t)sub.linear_size_B);
  back = (unsigned char*)calloc((size_t)sub.linear_size_B, 1);
  res = (unsigned char*)calloc((size_t)info.size_B, 1);
  for (i = 0; i < sub.linear_size_B; ++i) lin[i] = (unsigned char)(i * 13 + 1);
  ok = swz_write_subresource(layout, res, info.size_B, 0, NULL, lin, sub.linear_size_B, 0, 0, NULL) == SWZ_OK &&
       swz_read_subresource(layout, back, sub.linear_size_B, 0, 0, res, info.size_B, 0, NULL, NULL) == SWZ_OK &&
       memcmp(lin, back, (size_t)sub.linear_size_B) == 0;
  printf("consumer_c: swz %s, %ux%u blocks of %u bytes, round trip %s\n", swz_version(), sub.width_el, sub.height_el,
         sub.element_bytes, ok ? "ok" : "FAILED");
  free(lin);
  free(back);
  free(res);
  swz_layout_destroy(layout);
  return ok ? 0 : 1;
}
