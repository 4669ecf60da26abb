// swz._swz.identify / swz._swz.infer (include/swz/identify.hpp), registered by
// the module init in swz_module.cpp. Errors as the rest of the module:
// ValueError (invalid_argument, parse_error, unsupported), IndexError
// (out_of_range), TypeError (argument types).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "py_args.hpp"
#include "swz/identify.hpp"
#include "swz/swz.hpp"

namespace py = pybind11;

namespace swz_py {
namespace {

[[noreturn]] void raise(const swz::Status& s) {
  PyObject* type = PyExc_ValueError;
  if (s.code() == swz::Code::out_of_range)
    type = PyExc_IndexError;
  else if (s.code() == swz::Code::overflow)
    type = PyExc_OverflowError;
  else if (s.code() == swz::Code::internal)
    type = PyExc_RuntimeError;
  PyErr_SetString(type, s.message().c_str());
  throw py::error_already_set();
}

swz::FormatInfo format_of(py::handle h) {
  swz::FormatInfo f;
  if (py::isinstance<swz::FormatInfo>(h)) return h.cast<swz::FormatInfo>();
  swz::Status st;
  if (py::isinstance<py::str>(h))
    st = swz::find_format(h.cast<std::string>(), &f);
  else if (PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr()))
    st = swz::find_format(h.cast<uint32_t>(), &f);
  else {
    PyErr_SetString(PyExc_TypeError, "format must be a DXGI name (str), a DXGI_FORMAT value (int) or a swz.Format");
    throw py::error_already_set();
  }
  if (!st.ok()) raise(st);
  return f;
}

// The bytes of any buffer-protocol object (copied when not C-contiguous).
struct Bytes {
  py::buffer_info info;
  py::object keep;
  std::span<const uint8_t> span;
  explicit Bytes(py::handle obj, const char* what) {
    if (!PyObject_CheckBuffer(obj.ptr())) {
      PyErr_SetString(
          PyExc_TypeError,
          (std::string(what) + " must support the buffer protocol (bytes, bytearray, memoryview, numpy array, mmap)")
              .c_str());
      throw py::error_already_set();
    }
    keep = py::module_::import("builtins").attr("memoryview")(obj);
    if (!keep.attr("c_contiguous").cast<bool>()) keep = keep.attr("tobytes")();
    info = py::buffer(keep).request();
    span = {static_cast<const uint8_t*>(info.ptr), static_cast<size_t>(info.size * info.itemsize)};
  }
};

uint32_t dim(py::handle h, const char* what) {
  const long long v = h.cast<long long>();
  if (v < 1 || v > 0xFFFFFFFFll) {
    PyErr_SetString(PyExc_ValueError, (std::string(what) + " = " + std::to_string(v) + " (1..2^32-1)").c_str());
    throw py::error_already_set();
  }
  return static_cast<uint32_t>(v);
}

}  // namespace

void register_identify(py::module_& m) {
  using swz::IdentifyCandidate;
  py::class_<IdentifyCandidate>(m, "IdentifyCandidate",
                                "One ranked layout. Unpacks as the pair (score, layout); also has offset (where its "
                                "texture starts in the dump, bytes), short (bytes of the layout past the dump's "
                                "end) and equivalents (other names giving the same bytes).")
      .def_readonly("score", &IdentifyCandidate::score)
      .def_readonly("layout", &IdentifyCandidate::layout)
      .def_readonly("offset", &IdentifyCandidate::offset_B)
      .def_readonly("short", &IdentifyCandidate::short_B)
      .def_readonly("equivalents", &IdentifyCandidate::equivalents)
      .def("__len__", [](const IdentifyCandidate&) { return 2; })
      .def("__getitem__",
           [](const IdentifyCandidate& c, int i) -> py::object {
             if (i == 0 || i == -2) return py::float_(c.score);
             if (i == 1 || i == -1) return py::str(c.layout);
             throw py::index_error("IdentifyCandidate index " + std::to_string(i) + " (0: score, 1: layout)");
           })
      .def("__repr__", [](const IdentifyCandidate& c) {
        return "IdentifyCandidate(score=" + std::to_string(c.score) + ", layout='" + c.layout +
               "', offset=" + std::to_string(c.offset_B) + ", short=" + std::to_string(c.short_B) + ")";
      });
  m.def(
      "identify",
      [](arg::Buffer dump, arg::Format format, arg::Int width, arg::Int height, uint32_t top,
         std::optional<uint64_t> offset, uint64_t offset_step) {
        Bytes b(dump, "dump");
        const swz::FormatInfo f = format_of(format);
        const uint32_t w = dim(width, "width"), h = dim(height, "height");
        swz::IdentifyOptions o;
        o.top = top;
        o.offset_B = offset.value_or(0);
        o.offset_step_B = offset_step ? offset_step : offset ? 0 : 4096;
        std::vector<IdentifyCandidate> got;
        swz::Status st;
        {
          py::gil_scoped_release nogil;
          st = swz::identify(b.span, f, w, h, o, &got);
        }
        if (!st.ok()) raise(st);
        return got;
      },
      py::arg("dump"), py::arg("format"), py::arg("width"), py::arg("height"), py::arg("top") = 5,
      py::arg("offset") = 0, py::arg("offset_step") = 0,
      R"doc(Rank the built-in layouts for a dump of an ordinary image, best first.

dump:   buffer (bytes, bytearray, numpy array, mmap) holding one 2D texture in
        an unknown layout, starting `offset` bytes in.
format: DXGI name, value or swz.Format (1-16 bytes per element, or BC1-BC7).
offset: where the texture starts; None: unknown, searched every 4096 bytes
        (or every `offset_step`). offset_step (a multiple of the element
        size): search every that many bytes from `offset`.
Returns up to `top` IdentifyCandidate, each unpacking as (score, layout);
score 1 = smooth decode, ~0 = noise; layout is a name Layout.from_name
accepts verbatim; .offset is where that texture starts, .short how many bytes
of it lie past the dump's end (a short dump is ranked on the bytes it has).
Layouts that give the same bytes for this size are reported once, under the
simplest name.
Raises ValueError (bad format, size or offset_step), IndexError (offset past
the dump, or no layout fits half in the dump).)doc");
  m.def(
      "infer",
      [](arg::Buffer probe, arg::Format format, arg::Int width, arg::Int height, uint64_t offset) {
        Bytes b(probe, "probe");
        const swz::FormatInfo f = format_of(format);
        const uint32_t w = dim(width, "width"), h = dim(height, "height");
        swz::InferResult r;
        swz::Status st;
        {
          py::gil_scoped_release nogil;
          st = swz::infer(b.span, f, w, h, offset, &r);
        }
        if (!st.ok()) raise(st);
        return r.made;
      },
      py::arg("probe"), py::arg("format"), py::arg("width"), py::arg("height"), py::arg("offset") = 0,
      R"doc(Solve a probe dump for its layout; returns a swz.Layout for width x height.

In a probe the element at (x, y) holds y*width+x as a little-endian u32 in its
first 4 bytes (elements of 4, 8 or 16 bytes; probe 1- and 2-byte formats with a
4-byte format of the same tiling). A built-in layout is returned when one
matches byte for byte (Layout.name tells which), else the solved pattern with
its row pitch; every texel is checked.
Raises ValueError (not a probe: missing or duplicated indices, or a map no
pattern reproduces; the message names the texels), IndexError (offset).)doc");
}

}  // namespace swz_py
