// CopyResources: every subresource of one laid-out resource into another of
// the same description, each as one region of copy_regions (no linear
// staging copy of the resource).
#include <cstdint>
#include <string>
#include <vector>

#include "swz/footprint.hpp"

namespace swz {
namespace {

std::string u(uint64_t v) { return std::to_string(v); }

Status differ(const char* field, const std::string& src, const std::string& dst) {
  return {Code::invalid_argument, std::string("copy_resources: ") + field + " differs: source " + src + ", destination " + dst +
                                      " (CopyResources needs two resources of the same description)"};
}

}  // namespace

Status copy_resources(const Layout& dst_layout, void* dst, uint64_t dst_size, const Layout& src_layout, const void* src,
                      uint64_t src_size) {
  const TextureDesc& s = src_layout.desc();
  const TextureDesc& d = dst_layout.desc();
  auto dim = [](Dimension x) { return std::string(x == Dimension::Texture3D ? "3D" : "2D"); };
  if (s.dimension != d.dimension) return differ("dimension", dim(s.dimension), dim(d.dimension));
  if (s.samples != d.samples) return differ("samples", u(s.samples), u(d.samples));
  if (s.format.dxgi != d.format.dxgi) return differ("format", s.format.name, d.format.name);
  if (s.width != d.width) return differ("width", u(s.width), u(d.width));
  if (s.height != d.height) return differ("height", u(s.height), u(d.height));
  if (s.depth != d.depth) return differ("depth", u(s.depth), u(d.depth));
  if (s.array_size != d.array_size) return differ("array_size", u(s.array_size), u(d.array_size));
  if (s.mip_levels != d.mip_levels) return differ("mip_levels", u(s.mip_levels), u(d.mip_levels));
  if (s.samples > 1) return {Code::unsupported, "copy_resources: samples = " + u(s.samples) + ": MSAA resources are not supported"};
  const uint32_t n = src_layout.subresource_count();
  if (dst_layout.subresource_count() != n)
    return {Code::internal, "copy_resources: the layouts of one description have " + u(n) + " and " +
                                u(dst_layout.subresource_count()) + " subresources"};
  for (uint32_t i = 0; i < n; ++i)
    if (src_layout.sub(i).packed || dst_layout.sub(i).packed)
      return {Code::unsupported, "copy_resources: subresource " + u(i) + " lies in the " + (src_layout.sub(i).packed ? "source" : "destination") +
                                     "'s packed mip tail, whose layout is adapter-specific: it cannot be re-tiled"};
  if (src_size < src_layout.size())
    return {Code::buffer_too_small, "copy_resources: source buffer is " + u(src_size) + " bytes; its layout spans " + u(src_layout.size())};
  if (dst_size < dst_layout.size())
    return {Code::buffer_too_small, "copy_resources: destination buffer is " + u(dst_size) + " bytes; its layout spans " +
                                        u(dst_layout.size())};
  if (!dst || !src) return {Code::invalid_argument, dst ? "copy_resources: source = null" : "copy_resources: destination = null"};
  const auto pd = reinterpret_cast<uintptr_t>(dst), ps = reinterpret_cast<uintptr_t>(src);
  if (dst_layout.size() && src_layout.size() && pd < ps + src_layout.size() && ps < pd + dst_layout.size())
    return {Code::invalid_argument, "copy_resources: the source and destination buffers overlap in memory"};
  std::vector<RegionCopy> regions(n);
  for (uint32_t i = 0; i < n; ++i) {
    regions[i].dst_subresource = i;
    regions[i].src_subresource = i;
    regions[i].whole_source = true;
  }
  Status st = copy_regions(dst_layout, dst, dst_size, src_layout, src, src_size, regions.data(), regions.size());
  if (!st.ok()) return {st.code(), "copy_resources: " + st.message()};
  return Status::Ok();
}

}  // namespace swz
