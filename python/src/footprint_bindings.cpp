// swz._swz.copy_buffer_to_texture / copy_texture_to_buffer (placed-footprint
// copies) and copy_resources (CopyResources), swz/footprint.hpp.
#include <cstring>
#include <string>
#include <vector>

#include "py_copy_args.hpp"

namespace swz_py {
using namespace swz;

namespace {

/// A swz.Footprint (Layout.footprints()) or a dict with offset, format,
/// width, height, row_pitch and optionally depth.
PlacedFootprint to_footprint(py::handle h) {
  PlacedFootprint f;
  if (py::isinstance<Footprint>(h)) {
    check(placed_footprint(h.cast<Footprint>(), &f));
    return f;
  }
  if (!py::isinstance<py::dict>(h))
    raise_py(PyExc_TypeError,
             "footprint must be a swz.Footprint or a dict (offset, format, width, height, depth, row_pitch), not " +
                 type_name(h));
  py::dict d = py::reinterpret_borrow<py::dict>(h);
  for (auto item : d) {
    const std::string k = py::str(item.first).cast<std::string>();
    if (k != "offset" && k != "format" && k != "width" && k != "height" && k != "depth" && k != "row_pitch")
      raise_py(PyExc_ValueError,
               "footprint has unknown key '" + k + "' (expected offset, format, width, height, depth, row_pitch)");
  }
  for (const char* k : {"offset", "format", "width", "height", "row_pitch"})
    if (!d.contains(k)) raise_py(PyExc_ValueError, std::string("footprint needs the key '") + k + "'");
  f.offset_B = as_u64(d["offset"], "footprint offset");
  f.format = to_format(d["format"]);
  f.width = as_u32(d["width"], "footprint width");
  f.height = as_u32(d["height"], "footprint height");
  f.depth = d.contains("depth") ? as_u32(d["depth"], "footprint depth") : 1;
  f.row_pitch_B = as_u64(d["row_pitch"], "footprint row_pitch");
  return f;
}

std::vector<FootprintRegion> to_regions(py::handle regions) {
  std::vector<FootprintRegion> out;
  if (regions.is_none()) return out;
  if (!py::isinstance<py::sequence>(regions) || py::isinstance<py::str>(regions))
    raise_py(PyExc_TypeError, "regions must be None or a sequence of dicts, not " + type_name(regions));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(regions);
  if (seq.size() == 0) raise_py(PyExc_ValueError, "regions is empty; pass None to copy the whole source");
  out.resize(seq.size());
  for (size_t i = 0; i < seq.size(); ++i) {
    py::dict d = region_dict(seq[i], i, {"dst", "box"});
    FootprintRegion& r = out[i];
    parse_dst_and_box(d, &r);
  }
  return out;
}

py::object footprint_copy(py::handle resource, const Layout& L, py::handle buffer, py::handle footprint,
                          uint32_t subresource, py::handle regions, FootprintCopyDirection dir) {
  const PlacedFootprint fp = to_footprint(footprint);
  const std::vector<FootprintRegion> rs = to_regions(regions);
  const bool to_texture = dir == FootprintCopyDirection::BufferToTexture;
  Buffer res, buf;
  res.acquire(resource, to_texture, "resource");
  buf.acquire(buffer, !to_texture, "buffer");
  Status st;
  {
    py::gil_scoped_release nogil;
    st = copy_placed_footprint(L, res.data(), res.size(), subresource, buf.data(), buf.size(), fp, dir,
                               rs.empty() ? nullptr : rs.data(), rs.size());
  }
  check(st);
  return py::reinterpret_borrow<py::object>(to_texture ? resource : buffer);
}

py::object copy_resources_py(py::handle dst, const Layout& dst_layout, py::handle src, const Layout& src_layout) {
  Buffer in;
  in.acquire(src, false, "src");
  py::object result = dst.is_none() ? py::object(py::array_t<uint8_t>(static_cast<py::ssize_t>(dst_layout.size())))
                                    : py::reinterpret_borrow<py::object>(dst);
  if (dst.is_none()) std::memset(result.cast<py::array>().mutable_data(), 0, static_cast<size_t>(dst_layout.size()));
  Buffer out;
  out.acquire(result, true, "dst");
  Status st;
  {
    py::gil_scoped_release nogil;
    st = copy_resources(dst_layout, out.data(), out.size(), src_layout, in.data(), in.size());
  }
  check(st);
  return result;
}

}  // namespace

void register_footprint_copies(py::module_& m) {
  m.def(
      "copy_buffer_to_texture",
      [](py::handle resource, const Layout& L, py::handle buffer, py::handle footprint, uint32_t subresource,
         py::handle regions) {
        return footprint_copy(resource, L, buffer, footprint, subresource, regions,
                              FootprintCopyDirection::BufferToTexture);
      },
      py::arg("resource"), py::arg("layout"), py::arg("buffer"), py::arg("footprint"), py::arg("subresource") = 0,
      py::arg("regions") = py::none(), "See swz.copy_buffer_to_texture.");
  m.def(
      "copy_texture_to_buffer",
      [](py::handle buffer, py::handle footprint, py::handle resource, const Layout& L, uint32_t subresource,
         py::handle regions) {
        return footprint_copy(resource, L, buffer, footprint, subresource, regions,
                              FootprintCopyDirection::TextureToBuffer);
      },
      py::arg("buffer"), py::arg("footprint"), py::arg("resource"), py::arg("layout"), py::arg("subresource") = 0,
      py::arg("regions") = py::none(), "See swz.copy_texture_to_buffer.");
  m.def("copy_resources", &copy_resources_py, py::arg("dst"), py::arg("dst_layout"), py::arg("src"),
        py::arg("src_layout"), "See swz.copy_resources.");
}

}  // namespace swz_py
