// swz._swz.swizzle / deswizzle (one subresource, swz/copy.hpp), swizzle_surface /
// deswizzle_surface (every subresource, swz/surface.hpp) and backends().
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "py_linear.hpp"

namespace swz_py {
using namespace swz;

namespace {

Box* box_ptr(Extent& e) { return &e.box; }

py::object swizzle(py::handle array, const Layout& L, py::handle subresource, py::handle box, py::handle out,
                   py::handle backend, py::handle threads, bool write_combined) {
  const uint32_t sub = as_subresource(L, subresource);
  Extent e = resolve_extent(L, sub, box);
  CopyOptions opts = copy_options(backend, threads, write_combined);
  py::array a = contiguous_input(array);
  if (!e.empty) check_linear(a, e, L, sub, "array");
  py::object result = out.is_none() ? py::object(py::array_t<uint8_t>(static_cast<py::ssize_t>(L.size())))
                                    : py::reinterpret_borrow<py::object>(out);
  if (out.is_none()) std::memset(result.cast<py::array>().mutable_data(), 0, static_cast<size_t>(L.size()));
  Buffer res;
  res.acquire(result, true, out.is_none() ? "resource" : "out");
  if (e.empty) return result;
  const uint64_t row = uint64_t{e.w} * e.eb, slice = row * e.h;
  Status st;
  {
    py::gil_scoped_release nogil;
    st = write_to_subresource(L, res.data(), res.size(), sub, e.has_box ? box_ptr(e) : nullptr, a.data(),
                              static_cast<uint64_t>(a.nbytes()), row, slice, opts);
  }
  check(st);
  return result;
}

py::object deswizzle(py::handle buffer, const Layout& L, py::handle subresource, py::handle box, py::handle out,
                     py::handle dtype, py::handle backend, py::handle threads, bool write_combined) {
  const uint32_t sub = as_subresource(L, subresource);
  Extent e = resolve_extent(L, sub, box);
  CopyOptions opts = copy_options(backend, threads, write_combined);
  Buffer res;
  res.acquire(buffer, false, "buffer");
  py::object result;
  uint8_t* dst = nullptr;
  uint64_t dst_size = 0;
  Buffer outbuf;
  py::array arr;
  if (out.is_none()) {
    py::dtype dt = dtype.is_none() ? np_dtype(default_dtype(sub_format(L, sub)).dtype)
                                   : py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
    const auto item = static_cast<uint32_t>(dt.itemsize());
    if (item == 0 || e.eb % item != 0)
      raise_py(PyExc_ValueError, "dtype " + py::str(dt).cast<std::string>() + " (itemsize " + std::to_string(item) +
                                     ") does not divide the " + std::to_string(e.eb) + "-byte element of " +
                                     L.desc().format.name);
    arr = py::array(dt, expected_shape(e.empty ? Extent{0, 0, 0, e.eb, e.is3d} : e, e.eb / item));
    check_linear(arr, e.empty ? Extent{0, 0, 0, e.eb, e.is3d} : e, L, sub, "dtype");
    result = arr;
    dst = static_cast<uint8_t*>(arr.mutable_data());
    dst_size = static_cast<uint64_t>(arr.nbytes());
  } else {
    if (!dtype.is_none()) raise_py(PyExc_ValueError, "give either out= or dtype=, not both (out= fixes the dtype)");
    if (py::isinstance<py::array>(out)) {
      arr = py::reinterpret_borrow<py::array>(out);
      if (!(arr.flags() & py::array::c_style)) raise_py(PyExc_ValueError, "out must be C-contiguous");
      if (!arr.writeable()) raise_py(PyExc_ValueError, "out is read-only; it must be writable");
      if (!native_dtype(arr.dtype()))
        raise_py(PyExc_ValueError, "out must have a native byte order dtype");
      if (!e.empty) check_linear(arr, e, L, sub, "out");
    }
    outbuf.acquire(out, true, "out");
    dst = outbuf.data();
    dst_size = outbuf.size();
    result = py::reinterpret_borrow<py::object>(out);
  }
  if (e.empty) return result;
  const uint64_t row = uint64_t{e.w} * e.eb, slice = row * e.h;
  const uint8_t* src = res.data();
  Status st;
  {
    py::gil_scoped_release nogil;
    st = read_from_subresource(dst, dst_size, row, slice, L, src, res.size(), sub, e.has_box ? box_ptr(e) : nullptr,
                               opts);
  }
  check(st);
  return result;
}

/// The linear_offsets argument: None, or one byte offset per subresource.
std::vector<uint64_t> surface_offsets_arg(const Layout& L, py::handle offsets) {
  std::vector<uint64_t> v;
  if (offsets.is_none()) return v;
  if (!py::isinstance<py::sequence>(offsets) && !py::isinstance<py::array>(offsets))
    raise_py(PyExc_TypeError,
             "linear_offsets must be a sequence of ints (one per subresource) or None, not " + type_name(offsets));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(offsets);
  if (seq.size() != L.subresource_count())
    raise_py(PyExc_ValueError, "linear_offsets has " + std::to_string(seq.size()) + " entries; the layout has " +
                                   std::to_string(L.subresource_count()) + " subresources");
  for (size_t i = 0; i < seq.size(); ++i) v.push_back(as_u64(seq[i], "linear_offsets entry"));
  return v;
}

py::object swizzle_surface_py(py::handle linear, const Layout& L, py::handle out, py::handle linear_offsets,
                              py::handle backend, py::handle threads, bool write_combined) {
  CopyOptions opts = copy_options(backend, threads, write_combined);
  const std::vector<uint64_t> offs = surface_offsets_arg(L, linear_offsets);
  Buffer lin;
  lin.acquire(linear, false, "linear");
  py::object result = out.is_none() ? py::object(py::array_t<uint8_t>(static_cast<py::ssize_t>(L.size())))
                                    : py::reinterpret_borrow<py::object>(out);
  if (out.is_none()) std::memset(result.cast<py::array>().mutable_data(), 0, static_cast<size_t>(L.size()));
  Buffer res;
  res.acquire(result, true, out.is_none() ? "resource" : "out");
  Status st;
  {
    py::gil_scoped_release nogil;
    st = swizzle_surface(L, res.data(), res.size(), lin.data(), lin.size(), offs.empty() ? nullptr : offs.data(), opts);
  }
  check(st);
  return result;
}

py::object deswizzle_surface_py(py::handle buffer, const Layout& L, py::handle out, py::handle linear_offsets,
                                py::handle backend, py::handle threads, bool write_combined) {
  CopyOptions opts = copy_options(backend, threads, write_combined);
  const std::vector<uint64_t> offs = surface_offsets_arg(L, linear_offsets);
  Buffer res;
  res.acquire(buffer, false, "buffer");
  py::object result;
  if (out.is_none()) {
    uint64_t n = surface_size(L);
    if (!offs.empty())
      for (uint32_t i = 0; i < L.subresource_count(); ++i)
        n = std::max(n, offs[i] + packed_subresource_bytes(L.sub(i)));
    py::array_t<uint8_t> a(static_cast<py::ssize_t>(n));
    std::memset(a.mutable_data(), 0, static_cast<size_t>(n));
    result = a;
  } else {
    result = py::reinterpret_borrow<py::object>(out);
  }
  Buffer dst;
  dst.acquire(result, true, out.is_none() ? "linear" : "out");
  Status st;
  {
    py::gil_scoped_release nogil;
    st = deswizzle_surface(L, dst.data(), dst.size(), res.data(), res.size(), offs.empty() ? nullptr : offs.data(),
                           opts);
  }
  check(st);
  return result;
}

std::vector<std::string> compiled_backends() {
  std::vector<std::string> out;
  TextureDesc d;
  check(find_format("R8_UNORM", &d.format));
  Layout L;
  check(make_layout(d, LayoutSpec{}, &L));
  std::vector<uint8_t> res(static_cast<size_t>(L.size())), lin(1, 7);
  for (Backend b : {Backend::Scalar, Backend::Highway, Backend::Xsimd}) {
    CopyOptions o;
    o.backend = b;
    if (write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), 1, 1, 1, o).ok())
      out.push_back(backend_name(b));
  }
  return out;
}

}  // namespace

void register_copies(py::module_& m) {
  // ---- copies ----
  m.def("swizzle", &swizzle, py::arg("array"), py::arg("layout"), py::arg("subresource") = 0,
        py::arg("box") = py::none(), py::arg("out") = py::none(), py::arg("backend") = py::none(),
        py::arg("threads") = py::none(), py::arg("write_combined") = false, "See swz.swizzle.");
  m.def("deswizzle", &deswizzle, py::arg("buffer"), py::arg("layout"), py::arg("subresource") = 0,
        py::arg("box") = py::none(), py::arg("out") = py::none(), py::arg("dtype") = py::none(),
        py::arg("backend") = py::none(), py::arg("threads") = py::none(), py::arg("write_combined") = false,
        "See swz.deswizzle.");
  m.def("swizzle_surface", &swizzle_surface_py, py::arg("linear"), py::arg("layout"), py::arg("out") = py::none(),
        py::arg("linear_offsets") = py::none(), py::arg("backend") = py::none(), py::arg("threads") = py::none(),
        py::arg("write_combined") = false, "See swz.swizzle_surface.");
  m.def("deswizzle_surface", &deswizzle_surface_py, py::arg("buffer"), py::arg("layout"), py::arg("out") = py::none(),
        py::arg("linear_offsets") = py::none(), py::arg("backend") = py::none(), py::arg("threads") = py::none(),
        py::arg("write_combined") = false, "See swz.deswizzle_surface.");
  m.def("backends", &compiled_backends, "Names of the CPU copy backends compiled into this build ('scalar' always).");
}

}  // namespace swz_py
