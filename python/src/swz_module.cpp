// swz._swz — the compiled part of the Python module `swz` (python/swz/__init__.py
// is the thin pure-Python layer on top). Contract: python/swz/_swz.pyi and
// README.md "Python". Conventions (exceptions, GIL, linear arrays): py_common.hpp.
//
// This file only creates the module; each topic registers itself:
//   format_bindings.cpp       Format, format_info, formats
//   pattern_bindings.cpp      Pattern
//   subresource_bindings.cpp  Footprint, SubresourceLayout
//   layout_bindings.cpp       Layout factories, layout_names, layout_families
//   layout_query_bindings.cpp Layout properties and queries
//   copy_bindings.cpp         swizzle, deswizzle, swizzle_surface, deswizzle_surface, backends
//   address_bindings.cpp      _offsets, _pattern_offsets, _locate_into, reference_offset
//   identify_bindings.cpp     identify, infer
//   region_bindings.cpp       copy_regions, copy_tiles
//   footprint_bindings.cpp    copy_buffer_to_texture, copy_texture_to_buffer, copy_resources
//   clear_bindings.cpp        clear, fill, resolve, encode_clear_value, ALL_SUBRESOURCES
// Registration order matters: a type is registered before the functions whose
// signatures name it.
#include <pybind11/pybind11.h>

#include "py_common.hpp"

PYBIND11_MODULE(_swz, m) {
  m.doc() = "Compiled core of swz (use the `swz` package, which re-exports everything here).";
  // The CMake project version (the one place the version is written).
  m.attr("__version__") = SWZ_VERSION_STRING;
  swz_py::register_formats(m);
  swz_py::register_patterns(m);
  swz_py::register_subresources(m);
  swz_py::register_layouts(m);
  swz_py::register_copies(m);
  swz_py::register_addressing(m);
  swz_py::register_identify(m);
  swz_py::register_region_copies(m);
  swz_py::register_footprint_copies(m);
  swz_py::register_clears(m);
  swz_py::register_decodes(m);
}
