// swz._swz.copy_regions and copy_tiles: the texture-to-texture region copies
// and CopyTiles of swz/copy.hpp on buffer-protocol objects.
#include <string>
#include <vector>

#include "py_copy_args.hpp"

namespace swz_py {
using namespace swz;

namespace {

std::vector<RegionCopy> to_regions(py::handle regions) {
  if (!py::isinstance<py::sequence>(regions) || py::isinstance<py::str>(regions))
    raise_py(PyExc_TypeError, "regions must be a sequence of dicts, not " + type_name(regions));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(regions);
  std::vector<RegionCopy> out(seq.size());
  for (size_t i = 0; i < seq.size(); ++i) {
    py::dict d = region_dict(seq[i], i, {"dst_subresource", "dst", "src_subresource", "box"});
    RegionCopy& r = out[i];
    if (d.contains("dst_subresource")) r.dst_subresource = as_u32(d["dst_subresource"], "dst_subresource");
    if (d.contains("src_subresource")) r.src_subresource = as_u32(d["src_subresource"], "src_subresource");
    parse_dst_and_box(d, &r);
  }
  return out;
}

py::object copy_regions_py(py::handle dst, const Layout& dst_layout, py::handle src, const Layout& src_layout,
                           py::handle regions) {
  std::vector<RegionCopy> rs = to_regions(regions);
  Buffer out, in;
  out.acquire(dst, true, "dst");
  // The same object as both sides is acquired once; copy_regions applies the overlap rule.
  const bool same_object = dst.is(src);
  if (!same_object) in.acquire(src, false, "src");
  const uint8_t* sp = same_object ? out.data() : in.data();
  const uint64_t sn = same_object ? out.size() : in.size();
  Status st;
  {
    py::gil_scoped_release nogil;
    st = copy_regions(dst_layout, out.data(), out.size(), src_layout, sp, sn, rs.data(), rs.size());
  }
  check(st);
  return py::reinterpret_borrow<py::object>(dst);
}

py::object copy_tiles_py(py::handle resource, const Layout& L, py::handle buffer, py::handle start,
                         uint32_t subresource, py::handle num_tiles, py::handle box, uint64_t buffer_offset,
                         const std::string& direction) {
  TileCopyDirection dir;
  if (direction == "to_buffer")
    dir = TileCopyDirection::SwizzledToLinearBuffer;
  else if (direction == "to_resource")
    dir = TileCopyDirection::LinearBufferToSwizzled;
  else
    raise_py(PyExc_ValueError, "direction = '" + direction + "' (expected 'to_buffer' or 'to_resource')");
  TileCoordinate c;
  uint32_t p[3];
  parse_point(start, "start", p);
  c.x = p[0], c.y = p[1], c.z = p[2];
  c.subresource = subresource;
  TileRegionSize sz;
  if (!box.is_none()) {
    uint32_t b[3];
    parse_point(box, "box", b);
    if (py::reinterpret_borrow<py::sequence>(box).size() == 2) b[2] = 1;
    sz.use_box = true;
    sz.width = b[0], sz.height = b[1], sz.depth = b[2];
    sz.num_tiles =
        num_tiles.is_none() ? static_cast<uint32_t>(uint64_t{b[0]} * b[1] * b[2]) : as_u32(num_tiles, "num_tiles");
    if (num_tiles.is_none() && uint64_t{b[0]} * b[1] * b[2] > UINT32_MAX)
      raise_py(PyExc_ValueError, "box holds more than 2^32 tiles");
  } else {
    sz.num_tiles = num_tiles.is_none() ? 1 : as_u32(num_tiles, "num_tiles");
  }
  const bool to_buffer = dir == TileCopyDirection::SwizzledToLinearBuffer;
  Buffer res, buf;
  res.acquire(resource, !to_buffer, "resource");
  buf.acquire(buffer, to_buffer, "buffer");
  Status st;
  {
    py::gil_scoped_release nogil;
    st = copy_tiles(L, res.data(), res.size(), c, sz, buf.data(), buf.size(), buffer_offset, dir);
  }
  check(st);
  return py::reinterpret_borrow<py::object>(to_buffer ? buffer : resource);
}

}  // namespace

void register_region_copies(py::module_& m) {
  m.def("copy_regions", &copy_regions_py, py::arg("dst"), py::arg("dst_layout"), py::arg("src"), py::arg("src_layout"),
        py::arg("regions"), "See swz.copy_regions.");
  m.def("copy_tiles", &copy_tiles_py, py::arg("resource"), py::arg("layout"), py::arg("buffer"),
        py::arg("start") = py::make_tuple(0, 0, 0), py::arg("subresource") = 0, py::arg("num_tiles") = py::none(),
        py::arg("box") = py::none(), py::arg("buffer_offset") = 0, py::arg("direction") = "to_buffer",
        "See swz.copy_tiles.");
}

}  // namespace swz_py
