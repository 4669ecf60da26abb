// swz._swz.Layout queries (sizes, texture description, subresources, footprints,
// repr) and the layout name lists; the factories are in layout_bindings.cpp.
#include <sstream>
#include <string>
#include <vector>

#include "py_linear.hpp"
#include "swz/vendor.hpp"

namespace swz_py {
using namespace swz;

namespace {

std::string dims_text(const TextureDesc& d) {
  std::string s = std::to_string(d.width) + ", " + std::to_string(d.height);
  if (d.dimension == Dimension::Texture3D) s += ", depth=" + std::to_string(d.depth);
  return s;
}

std::string layout_repr(const Layout& L) {
  const TextureDesc& d = L.desc();
  std::ostringstream o;
  o << "swz.Layout.";
  switch (L.kind()) {
    case LayoutKind::RowMajor:
      o << "row_major(";
      break;
    case LayoutKind::Std64K:
      o << "std64k(";
      break;
    case LayoutKind::Std4K:
      o << "std4k(";
      break;
    case LayoutKind::Pattern:
      o << "pattern('" << to_text(L.patterns().at(0)) << "', ";
      break;
    case LayoutKind::Explicit:
      o << "from_name('" << L.name() << "', ";
      break;
  }
  o << "'" << d.format.name << "', " << dims_text(d);
  if (d.mip_levels != 1) o << ", mips=" << d.mip_levels;
  if (d.array_size != 1) o << ", array=" << d.array_size;
  if (d.samples != 1) o << ", samples=" << d.samples;
  o << ")  # " << L.subresource_count() << " subresource(s), " << L.size() << " bytes";
  return o.str();
}

}  // namespace

void add_layout_queries(py::class_<Layout>& cls) {
  cls.def_property_readonly("size", &Layout::size, "Bytes the whole resource spans.")
      .def_property_readonly(
          "surface_linear_size", &surface_size,
          "Bytes of every subresource tightly packed in subresource order (swizzle_surface / deswizzle_surface).")
      .def_property_readonly(
          "surface_linear_offsets",
          [](const Layout& L) {
            std::vector<uint64_t> v;
            check(surface_linear_offsets(L, &v));
            return v;
          },
          "Offset of each subresource in the tightly packed linear side (list of int, subresource order).")
      .def_property_readonly("allocation_size", &Layout::allocation_size,
                             "size rounded up to alignment (GetResourceAllocationInfo's SizeInBytes).")
      .def_property_readonly("alignment", &Layout::alignment,
                             "Alignment of the allocation in bytes (65536, 4096, 512 or the block size).")
      .def_property_readonly("name", &Layout::name,
                             "'std64k', 'std4k', 'row-major', 'pattern', or the vendor / device layout's name.")
      .def_property_readonly("subresource_count", &Layout::subresource_count)
      .def_property_readonly("format", [](const Layout& L) { return L.desc().format; })
      .def_property_readonly(
          "width", [](const Layout& L) { return L.desc().width; }, "Texels (mip 0).")
      .def_property_readonly(
          "height", [](const Layout& L) { return L.desc().height; }, "Texels (mip 0).")
      .def_property_readonly(
          "depth",
          [](const Layout& L) -> py::object {
            if (L.desc().dimension == Dimension::Texture3D) return py::int_(L.desc().depth);
            return py::none();
          },
          "Slices of mip 0 for a 3D texture; None for 2D.")
      .def_property_readonly(
          "dimension", [](const Layout& L) { return L.desc().dimension == Dimension::Texture3D ? 3 : 2; }, "2 or 3.")
      .def_property_readonly("mips", [](const Layout& L) { return L.desc().mip_levels; })
      .def_property_readonly("array", [](const Layout& L) { return L.desc().array_size; })
      .def_property_readonly("samples", [](const Layout& L) { return L.desc().samples; })
      .def_property_readonly(
          "patterns", [](const Layout& L) { return L.patterns(); }, "The layout's patterns (list[swz.Pattern]).")
      .def_property_readonly(
          "dtype", [](const Layout& L) { return np_dtype(default_dtype(L.desc().format).dtype); },
          "numpy dtype deswizzle() returns by default for this format.")
      .def(
          "subresource_layout", [](const Layout& L, arg::Int i) { return make_sub(L, as_subresource(L, i)); },
          py::arg("subresource"),
          "subresource_layout(subresource: int) -> SubresourceLayout\n\nWhere subresource (mip + array_slice * mips) "
          "lives. IndexError when it is outside 0..subresource_count-1.")
      .def(
          "subresources",
          [](const Layout& L) {
            std::vector<PySubresource> v;
            for (uint32_t i = 0; i < L.subresource_count(); ++i) v.push_back(make_sub(L, i));
            return v;
          },
          "subresources() -> list[SubresourceLayout]\n\nEvery SubresourceLayout, in subresource-index order.")
      .def(
          "subresource_index",
          [](const Layout& L, uint32_t mip, uint32_t slice) {
            const TextureDesc& d = L.desc();
            if (mip >= d.mip_levels)
              raise_py(PyExc_IndexError,
                       "mip = " + std::to_string(mip) + " (the texture has " + std::to_string(d.mip_levels) + ")");
            if (slice >= d.array_size)
              raise_py(PyExc_IndexError, "array_slice = " + std::to_string(slice) + " (the texture has " +
                                             std::to_string(d.array_size) + ")");
            return calc_subresource(mip, slice, 0, d.mip_levels, d.array_size);
          },
          py::arg("mip"), py::arg("array_slice") = 0,
          "subresource_index(mip: int, array_slice: int = 0) -> int\n\nD3D12CalcSubresource: mip + array_slice * mips.")
      .def(
          "footprints",
          [](const Layout& L, uint64_t base) {
            std::vector<Footprint> v;
            uint64_t total = 0;
            check(copyable_footprints(L.desc(), &v, &total, base));
            return v;
          },
          py::arg("base_offset") = 0,
          "footprints(base_offset: int = 0) -> list[Footprint]\n\nCopyable footprints (GetCopyableFootprints) of every "
          "subresource: row pitch aligned to 256 (512 for planar formats), "
          "each placed at the next multiple of 512 after base_offset (bytes).")
      .def(
          "footprints_size",
          [](const Layout& L, uint64_t base) {
            std::vector<Footprint> v;
            uint64_t total = 0;
            check(copyable_footprints(L.desc(), &v, &total, base));
            return total;
          },
          py::arg("base_offset") = 0,
          "footprints_size(base_offset: int = 0) -> int\n\nTotal bytes of the copyable footprints (the upload buffer "
          "size).")
      .def("__repr__", &layout_repr);
}

}  // namespace swz_py
