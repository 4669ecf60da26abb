// Uses the installed C++ API: a std64k layout with mips, a whole-surface
// round trip, and the element offset the README names.
#include <cstdio>
#include <vector>

#include <swz/swz.hpp>
#include <swz/surface.hpp>

int main() {
  swz::TextureDesc desc;
  desc.width = 600;
  desc.height = 400;
  desc.mip_levels = swz::full_mip_count(600, 400, 1);
  swz::Status s = swz::find_format("R8G8B8A8_UNORM", &desc.format);
  swz::Layout layout;
  if (s.ok()) s = swz::make_layout_from_name("std64k", desc, {}, &layout);
  uint64_t linear_B = 0;
  if (s.ok()) s = swz::surface_linear_bytes(layout, &linear_B);
  if (!s.ok()) {
    std::fprintf(stderr, "swz: %s\n", s.message().c_str());
    return 1;
  }
  std::vector<uint8_t> texels(linear_B), back(linear_B), resource(layout.size());
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 7 + (i >> 11));
  s = swz::swizzle_surface(layout, resource.data(), resource.size(), texels.data(), texels.size());
  if (s.ok()) s = swz::deswizzle_surface(layout, back.data(), back.size(), resource.data(), resource.size());
  uint64_t off = 0;
  if (s.ok()) s = swz::element_offset(layout, 0, 17, 3, 0, 0, &off);
  if (!s.ok() || back != texels || off != 2100) {
    std::fprintf(stderr, "consumer_cpp: failed (%s; offset %llu)\n", s.message().c_str(),
                 static_cast<unsigned long long>(off));
    return 1;
  }
  std::printf("consumer_cpp: %u subresources, %llu linear bytes round trip; texel (17,3) at %llu\n",
              layout.subresource_count(), static_cast<unsigned long long>(linear_B),
              static_cast<unsigned long long>(off));
  return 0;
}
