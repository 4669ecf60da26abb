// swz._swz.Format, format_info, formats (swz/format.hpp).
#include <sstream>
#include <string>
#include <vector>

#include "py_common.hpp"

namespace swz_py {
using namespace swz;

namespace {

std::string format_repr(const FormatInfo& f) {
  std::ostringstream o;
  o << "swz.Format('" << f.name << "', element_bytes=" << f.element_bytes;
  if (f.block_compressed()) o << ", block=" << f.block_width << "x" << f.block_height;
  o << ")";
  return o.str();
}

}  // namespace

void register_formats(py::module_& m) {
  py::class_<FormatInfo>(m, "Format", R"doc(A DXGI format: element size and block shape.

An *element* is a texel, or a 4x4 block for block-compressed (BC) formats.
Get one with swz.format_info('R8G8B8A8_UNORM') or from Layout.format.)doc")
      .def_property_readonly(
          "name", [](const FormatInfo& f) { return std::string(f.name); }, "DXGI name without the DXGI_FORMAT_ prefix.")
      .def_readonly("dxgi", &FormatInfo::dxgi, "DXGI_FORMAT enum value.")
      .def_readonly("element_bytes", &FormatInfo::element_bytes, "Bytes per element (texel, or 4x4 block for BC).")
      .def_readonly("block_width", &FormatInfo::block_width, "Texels per element horizontally (4 for BC).")
      .def_readonly("block_height", &FormatInfo::block_height, "Texels per element vertically (4 for BC).")
      .def_readonly("planes", &FormatInfo::planes, "Plane count (planar formats are not supported by layouts yet).")
      .def_readonly("channels", &FormatInfo::channels, "Components (0 for BC and video formats).")
      .def_readonly("channel_bits", &FormatInfo::channel_bits, "Bits per component when uniform, else 0.")
      .def_readonly("depth_stencil", &FormatInfo::depth_stencil, "True for depth-stencil formats.")
      .def_property_readonly("block_compressed", &FormatInfo::block_compressed, "True for BC1-BC7.")
      .def_property_readonly(
          "dtype", [](const FormatInfo& f) { return np_dtype(default_dtype(f).dtype); },
          "numpy dtype deswizzle() returns by default (uint8 for BC; float16/float32 for _FLOAT; int for _SINT/_SNORM; "
          "else unsigned; packed formats such as R10G10B10A2 as one uint of the element size).")
      .def_property_readonly(
          "components", [](const FormatInfo& f) { return default_dtype(f).channels; },
          "C, the last axis of linear arrays with the default dtype: dtype.itemsize * C == element_bytes.")
      .def("__repr__", &format_repr)
      .def("__eq__", [](const FormatInfo& a,
                        py::object b) { return py::isinstance<FormatInfo>(b) && a.dxgi == b.cast<FormatInfo>().dxgi; })
      .def("__hash__", [](const FormatInfo& f) { return py::hash(py::int_(f.dxgi)); });

  m.def(
      "format_info", [](arg::Format f) { return to_format(f); }, py::arg("format").none(false),
      R"doc(format_info(format) -> Format

format: a DXGI name ('R8G8B8A8_UNORM', 'DXGI_FORMAT_BC7_UNORM'; any case) or a
DXGI_FORMAT value (int). Raises ValueError for an unknown format.)doc");
  m.def(
      "formats",
      [] {
        size_t n = 0;
        const FormatInfo* f = all_formats(&n);
        return std::vector<FormatInfo>(f, f + n);
      },
      "formats() -> list[Format]: every format swz knows, in DXGI_FORMAT order.");
}

}  // namespace swz_py
