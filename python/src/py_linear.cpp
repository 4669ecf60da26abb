// Linear numpy arrays of the copy bindings (declared in py_linear.hpp).
#include "py_linear.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <string>
#include <vector>

namespace swz_py {
using namespace swz;

PySubresource make_sub(const Layout& L, uint32_t i) {
  PySubresource r;
  r.s = L.sub(i);
  r.pattern = L.patterns().at(static_cast<size_t>(r.s.pattern_slot));
  r.format = sub_format(L, i);
  r.samples = L.desc().samples;
  r.is3d = L.desc().dimension == Dimension::Texture3D;
  return r;
}

Extent resolve_extent(const Layout& L, uint32_t sub, py::handle box) {
  const SubresourceLayout& s = L.sub(sub);
  Extent e;
  e.eb = s.element_bytes;
  e.is3d = L.desc().dimension == Dimension::Texture3D;
  Box b{0, 0, 0, s.width, s.height, s.depth};
  if (!box.is_none()) {
    if (!py::isinstance<py::sequence>(box) || py::isinstance<py::str>(box))
      raise_py(PyExc_TypeError,
               "box must be a sequence (left, top, front, right, bottom, back) or (left, top, right, bottom), not " +
                   type_name(box));
    py::sequence seq = py::reinterpret_borrow<py::sequence>(box);
    std::vector<uint32_t> v;
    for (size_t i = 0; i < seq.size(); ++i) v.push_back(as_u32(seq[i], "box coordinate"));
    if (v.size() == 6)
      b = {v[0], v[1], v[2], v[3], v[4], v[5]};
    else if (v.size() == 4)
      b = {v[0], v[1], 0, v[2], v[3], s.depth};
    else
      raise_py(PyExc_ValueError,
               "box has " + std::to_string(v.size()) +
                   " values; give (left, top, front, right, bottom, back) or (left, top, right, bottom), in texels");
    e.has_box = true;
  }
  e.box = b;
  ElementBox eb;
  check(to_element_box(L, sub, &b, &eb));
  if (eb.empty) {
    e.empty = true;
    return e;
  }
  e.w = eb.width_el;
  e.h = eb.height_el;
  e.d = eb.depth;
  return e;
}

namespace {

std::string shape_text(const std::vector<py::ssize_t>& sh) {
  std::string s = "(";
  for (size_t i = 0; i < sh.size(); ++i) s += (i ? ", " : "") + std::to_string(sh[i]);
  if (sh.size() == 1) s += ",";
  return s + ")";
}

}  // namespace

std::vector<py::ssize_t> expected_shape(const Extent& e, uint32_t channels) {
  std::vector<py::ssize_t> sh;
  if (e.is3d) sh.push_back(e.d);
  sh.push_back(e.h);
  sh.push_back(e.w);
  sh.push_back(channels);
  return sh;
}

void check_linear(const py::array& a, const Extent& e, const Layout& L, uint32_t sub, const char* role) {
  py::dtype dt = a.dtype();
  const char kind = dt.kind();
  // Plain dtypes hold objects only as kind 'O'; structured ones are asked.
  if (std::string("biufcV").find(kind) == std::string::npos ||
      (dt.has_fields() && dt.attr("hasobject").cast<bool>()))
    raise_py(PyExc_TypeError, std::string(role) + " has dtype " + py::str(dt).cast<std::string>() +
                                  "; texel data needs a numeric or structured dtype (e.g. uint8, uint16, float32)");
  const auto item = static_cast<uint32_t>(dt.itemsize());
  // The hint is for messages only: built when a check fails.
  auto hint = [&] {
    const FormatInfo sf = sub_format(L, sub);
    const DefaultDtype def = default_dtype(sf);
    return "subresource " + std::to_string(sub) + " of this " + std::string(sf.name) + " layout" +
           (e.has_box ? " (box)" : "") + " needs shape " + shape_text(expected_shape(e, def.channels)) +
           " with dtype " + py::str(np_dtype(def.dtype)).cast<std::string>() + " (or any dtype whose itemsize x C = " +
           std::to_string(e.eb) + " bytes)";
  };
  if (item == 0 || e.eb % item != 0)
    raise_py(PyExc_ValueError, std::string(role) + " has dtype " + py::str(dt).cast<std::string>() + " (itemsize " +
                                   std::to_string(item) + ") which does not divide the " + std::to_string(e.eb) +
                                   "-byte element; " + hint());
  const uint32_t C = e.eb / item;
  std::vector<py::ssize_t> want = expected_shape(e, C);
  std::vector<py::ssize_t> have(a.shape(), a.shape() + a.ndim());
  bool ok = have == want;
  if (!ok && C == 1) {  // the channel axis may be left out when itemsize == element size
    want.pop_back();
    ok = have == want;
  }
  if (!ok)
    raise_py(PyExc_ValueError, std::string(role) + " has shape " + shape_text(have) + " and dtype " +
                                   py::str(dt).cast<std::string>() + "; " + hint());
}

CopyOptions copy_options(py::handle backend, py::handle threads, bool write_combined) {
  CopyOptions o;
  if (!backend.is_none()) {
    if (!py::isinstance<py::str>(backend))
      raise_py(PyExc_TypeError, "backend must be a str or None, not " + type_name(backend));
    std::string b = backend.cast<std::string>();
    std::transform(b.begin(), b.end(), b.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!parse_backend(b, &o.backend))
      raise_py(PyExc_ValueError, "backend = '" + b + "' (expected 'auto', 'scalar', 'highway' or 'xsimd')");
  }
  if (!threads.is_none()) o.threads = static_cast<unsigned>(as_int(threads, "threads", 0, 4096));
  o.write_combined = write_combined;
  return o;
}

bool native_dtype(const py::dtype& dt) {
  // A plain dtype says it in one character ('=' native, '|' not applicable,
  // '<' / '>' explicit); a structured one is asked field by field.
  constexpr char kForeign = std::endian::native == std::endian::little ? '>' : '<';
  return dt.has_fields() ? dt.attr("isnative").cast<bool>() : dt.byteorder() != kForeign;
}

/// A C-contiguous, native-byte-order version of a linear input array (a copy only when needed).
py::array contiguous_input(py::handle obj) {
  py::array a = py::array::ensure(obj);
  if (!a) {
    PyErr_Clear();
    raise_py(PyExc_TypeError, "array must be a numpy array (or convertible to one), not " + type_name(obj));
  }
  const py::dtype dt = a.dtype();
  if (!native_dtype(dt)) a = a.attr("astype")(dt.attr("newbyteorder")("="));
  if (!(a.flags() & py::array::c_style)) a = py::module_::import("numpy").attr("ascontiguousarray")(a);
  return a;
}

}  // namespace swz_py
