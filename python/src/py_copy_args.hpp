// Arguments of the batched-copy bindings (region_bindings.cpp,
// footprint_bindings.cpp): boxes, points, region dicts, aliasing checks.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "py_common.hpp"

namespace swz_py {

/// None -> false; (left, top, front, right, bottom, back) or (left, top,
/// right, bottom) in texels -> *out, true.
inline bool parse_box(py::handle h, const char* what, swz::Box* out) {
  if (h.is_none()) return false;
  if (!py::isinstance<py::sequence>(h) || py::isinstance<py::str>(h))
    raise_py(PyExc_TypeError, std::string(what) +
                                  " must be None or a sequence (left, top, front, right, bottom, back) or "
                                  "(left, top, right, bottom), not " +
                                  type_name(h));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
  std::vector<uint32_t> v;
  for (size_t i = 0; i < seq.size(); ++i) v.push_back(as_u32(seq[i], what));
  if (v.size() == 4)
    *out = swz::Box{v[0], v[1], 0, v[2], v[3], 1};
  else if (v.size() == 6)
    *out = swz::Box{v[0], v[1], v[2], v[3], v[4], v[5]};
  else
    raise_py(PyExc_ValueError, std::string(what) + " has " + std::to_string(v.size()) + " entries; expected 4 or 6");
  return true;
}

/// (x, y) or (x, y, z) -> three uint32 (z defaults to 0).
inline void parse_point(py::handle h, const char* what, uint32_t out[3]) {
  if (!py::isinstance<py::sequence>(h) || py::isinstance<py::str>(h))
    raise_py(PyExc_TypeError, std::string(what) + " must be a sequence (x, y) or (x, y, z), not " + type_name(h));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
  if (seq.size() != 2 && seq.size() != 3)
    raise_py(PyExc_ValueError, std::string(what) + " has " + std::to_string(seq.size()) + " entries; expected 2 or 3");
  out[2] = 0;
  for (size_t i = 0; i < seq.size(); ++i) out[i] = as_u32(seq[i], what);
}

/// A region dict: only the keys in `allowed` (ValueError naming any other).
inline py::dict region_dict(py::handle h, size_t index, std::initializer_list<const char*> allowed) {
  const std::string at = "regions[" + std::to_string(index) + "]";
  if (!py::isinstance<py::dict>(h)) raise_py(PyExc_TypeError, at + " must be a dict, not " + type_name(h));
  py::dict d = py::reinterpret_borrow<py::dict>(h);
  for (auto item : d) {
    const std::string key = py::str(item.first).cast<std::string>();
    bool ok = false;
    std::string names;
    for (const char* a : allowed) {
      ok = ok || key == a;
      names += (names.empty() ? "" : ", ") + std::string(a);
    }
    if (!ok) raise_py(PyExc_ValueError, at + " has unknown key '" + key + "' (expected " + names + ")");
  }
  return d;
}

/// A region's "dst" point (into r->dst_x, dst_y, dst_z) and "box" (into
/// r->src_box; r->whole_source when absent), as the region copies and the
/// placed-footprint copies take them.
template <class Region>
void parse_dst_and_box(const py::dict& d, Region* r) {
  if (d.contains("dst")) {
    uint32_t p[3];
    parse_point(d["dst"], "dst", p);
    r->dst_x = p[0], r->dst_y = p[1], r->dst_z = p[2];
  }
  r->whole_source = !(d.contains("box") && parse_box(d["box"], "box", &r->src_box));
}

}  // namespace swz_py
