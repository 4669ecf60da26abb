// swz._swz.Footprint and swz._swz.SubresourceLayout: one subresource of a Layout.
#include <sstream>
#include <string>

#include "py_linear.hpp"

namespace swz_py {
using namespace swz;

void register_subresources(py::module_& m) {
  // ---- Footprint ----
  py::class_<Footprint>(m, "Footprint", "Copyable footprint of one subresource (GetCopyableFootprints, single plane).")
      .def_readonly("offset", &Footprint::offset, "Bytes from the start of the buffer (multiple of 512).")
      .def_readonly("width", &Footprint::width, "Texels.")
      .def_readonly("height", &Footprint::height, "Texels.")
      .def_readonly("depth", &Footprint::depth, "Slices.")
      .def_readonly("element_bytes", &Footprint::element_bytes, "Bytes per element of the plane.")
      .def_property_readonly(
          "format_name", [](const Footprint& f) { return std::string(f.format_name ? f.format_name : ""); },
          "The plane's format.")
      .def_readonly("row_pitch", &Footprint::row_pitch, "Bytes between rows (multiple of 256).")
      .def_readonly("rows", &Footprint::rows, "Rows of elements (4x4 blocks for BC).")
      .def_readonly("row_size", &Footprint::row_size, "Bytes of one row without padding.")
      .def_readonly("total_bytes", &Footprint::total_bytes, "Bytes from offset to the end of the last row.")
      .def("__repr__", [](const Footprint& f) {
        std::ostringstream o;
        o << "swz.Footprint(offset=" << f.offset << ", width=" << f.width << ", height=" << f.height
          << ", depth=" << f.depth << ", row_pitch=" << f.row_pitch << ", rows=" << f.rows
          << ", row_size=" << f.row_size << ", total_bytes=" << f.total_bytes << ")";
        return o.str();
      });

  // ---- SubresourceLayout ----
  py::class_<PySubresource>(m, "SubresourceLayout",
                            "Where one subresource lives in the resource. Offsets and pitches in bytes unless noted.")
      .def_property_readonly(
          "index", [](const PySubresource& r) { return r.s.index; }, "Subresource index (mip + slice * mips).")
      .def_property_readonly("mip", [](const PySubresource& r) { return r.s.mip; })
      .def_property_readonly("array_slice", [](const PySubresource& r) { return r.s.array_slice; })
      .def_property_readonly("plane", [](const PySubresource& r) { return r.s.plane; })
      .def_property_readonly(
          "packed", [](const PySubresource& r) { return r.s.packed; },
          "True for a mip in the adapter-specific packed mip tail: opaque bytes that copies and offsets refuse.")
      .def_property_readonly(
          "width", [](const PySubresource& r) { return r.s.width; }, "Texels.")
      .def_property_readonly(
          "height", [](const PySubresource& r) { return r.s.height; }, "Texels.")
      .def_property_readonly(
          "depth", [](const PySubresource& r) { return r.s.depth; }, "Slices (1 for 2D).")
      .def_property_readonly(
          "width_el", [](const PySubresource& r) { return r.s.width_el; }, "Elements (4x4 blocks for BC).")
      .def_property_readonly(
          "height_el", [](const PySubresource& r) { return r.s.height_el; }, "Elements (4x4 blocks for BC).")
      .def_property_readonly("element_bytes", [](const PySubresource& r) { return r.s.element_bytes; })
      .def_property_readonly(
          "offset", [](const PySubresource& r) { return r.s.offset; }, "Bytes from the start of the resource.")
      .def_property_readonly(
          "size", [](const PySubresource& r) { return r.s.size; }, "Bytes the subresource spans (whole blocks).")
      .def_property_readonly(
          "row_pitch", [](const PySubresource& r) { return r.s.row_pitch; }, "Bytes between rows of blocks.")
      .def_property_readonly(
          "depth_pitch_B", [](const PySubresource& r) { return r.s.depth_pitch_B; },
          "Bytes between slices of blocks; 0 when stack_depth is True.")
      .def_property_readonly(
          "stack_rows", [](const PySubresource& r) { return r.s.stack_rows; },
          "Rows between stacked depth slices; 0 unless stack_depth is True.")
      .def_property_readonly("stack_depth", [](const PySubresource& r) { return r.s.stack_depth; })
      .def_property_readonly(
          "pre_swizzle",
          [](const PySubresource& r) {
            return py::make_tuple(r.s.pre_swizzle[0], r.s.pre_swizzle[1], r.s.pre_swizzle[2]);
          },
          "Pre-swizzle offsets (x bytes, y rows, z slices).")
      .def_property_readonly("pattern_slot", [](const PySubresource& r) { return r.s.pattern_slot; })
      .def_property_readonly(
          "pattern", [](const PySubresource& r) { return r.pattern; }, "The swz.Pattern of this subresource.")
      .def_property_readonly(
          "format", [](const PySubresource& r) { return r.format; },
          "The format of this subresource's plane (the texture's format unless it is planar).")
      .def_property_readonly(
          "shape",
          [](const PySubresource& r) {
            Extent e;
            e.w = r.s.width_el;
            e.h = r.s.height_el;
            e.d = r.s.depth;
            e.is3d = r.is3d;
            return py::tuple(py::cast(expected_shape(e, default_dtype(r.format).channels)));
          },
          "Shape of the linear array deswizzle() returns with the default dtype: (H, W, C) or (D, H, W, C), in "
          "elements.")
      .def("__repr__", [](const PySubresource& r) {
        const SubresourceLayout& s = r.s;
        std::ostringstream o;
        o << "swz.SubresourceLayout(index=" << s.index << ", mip=" << s.mip << ", array_slice=" << s.array_slice
          << ", size=" << s.width << "x" << s.height;
        if (r.is3d) o << "x" << s.depth;
        o << ", offset=" << s.offset << ", bytes=" << s.size << ", row_pitch=" << s.row_pitch
          << (s.stack_depth ? ", stack_rows=" : ", depth_pitch_B=") << (s.stack_depth ? s.stack_rows : s.depth_pitch_B)
          << ")";
        return o.str();
      });
}

}  // namespace swz_py
