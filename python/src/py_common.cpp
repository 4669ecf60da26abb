// Shared helpers of the swz._swz bindings (declared in py_common.hpp).
#include "py_common.hpp"

#include <cstring>
#include <limits>

#include "swz/swz.hpp"

namespace swz_py {
using namespace swz;

// ---- errors -----------------------------------------------------------------

[[noreturn]] void raise_py(PyObject* type, const std::string& msg) {
  PyErr_SetString(type, msg.c_str());
  throw py::error_already_set();
}

[[noreturn]] void raise_status(const Status& s) {
  const std::string& m = s.message();
  switch (s.code()) {
    case Code::out_of_range:
      raise_py(PyExc_IndexError, m);
    case Code::overflow:
      raise_py(PyExc_OverflowError, m);
    case Code::io_error:
      raise_py(PyExc_OSError, m);
    case Code::no_device:
    case Code::internal:
      raise_py(PyExc_RuntimeError, m);
    case Code::ok:
    case Code::invalid_argument:
    case Code::buffer_too_small:
    case Code::unsupported:
    case Code::parse_error:
      break;
  }
  raise_py(PyExc_ValueError, m);
}

void check(const Status& s) {
  if (!s.ok()) raise_status(s);
}

std::string type_name(py::handle h) { return py::str(py::type::of(h).attr("__name__")).cast<std::string>(); }

// ---- small conversions --------------------------------------------------------

/// A Python int in [lo, hi], else ValueError / TypeError naming `what`.
int64_t as_int(py::handle h, const char* what, int64_t lo, int64_t hi) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    raise_py(PyExc_TypeError, std::string(what) + " must be an integer, not " + type_name(h));
  int overflow = 0;
  py::object idx = py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr()));
  if (!idx) throw py::error_already_set();
  long long v = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow || v < lo || v > hi)
    raise_py(PyExc_ValueError, std::string(what) + " = " + py::str(h).cast<std::string>() + " is outside " +
                                   std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

uint32_t as_u32(py::handle h, const char* what, int64_t lo) {
  return static_cast<uint32_t>(as_int(h, what, lo, 0xffffffffLL));
}

/// A Python int in 0..2^64-1 (the whole uint64 range), else ValueError naming
/// `what` with the value as given; TypeError for a non-integer.
uint64_t as_u64(py::handle h, const char* what) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    raise_py(PyExc_TypeError, std::string(what) + " must be an integer, not " + type_name(h));
  py::object idx = py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr()));
  if (!idx) throw py::error_already_set();
  unsigned long long v = PyLong_AsUnsignedLongLong(idx.ptr());  // OverflowError when negative or too large
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    raise_py(PyExc_ValueError, std::string(what) + " = " + py::str(h).cast<std::string>() + " is outside 0.." +
                                   std::to_string(std::numeric_limits<uint64_t>::max()));
  }
  return static_cast<uint64_t>(v);
}

/// Subresource index: IndexError when outside the layout.
uint32_t as_subresource(const Layout& L, py::handle h) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    raise_py(PyExc_TypeError, "subresource must be an integer, not " + type_name(h));
  long long v = PyLong_AsLongLong(h.ptr());
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    v = -1;
  }
  if (v < 0 || v >= static_cast<long long>(L.subresource_count()))
    raise_py(PyExc_IndexError, "subresource = " + py::str(h).cast<std::string>() + " (the resource has " +
                                   std::to_string(L.subresource_count()) + ")");
  return static_cast<uint32_t>(v);
}

FormatInfo to_format(py::handle h) {
  FormatInfo f;
  if (py::isinstance<FormatInfo>(h)) return h.cast<FormatInfo>();
  if (py::isinstance<py::str>(h)) {
    check(find_format(h.cast<std::string>(), &f));
    return f;
  }
  if (PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    check(find_format(as_u32(h, "format"), &f));
    return f;
  }
  raise_py(PyExc_TypeError,
           "format must be a DXGI name (str), a DXGI_FORMAT value (int) or a swz.Format, not " + type_name(h));
}

Pattern to_pattern(py::handle h) {
  if (py::isinstance<Pattern>(h)) return h.cast<Pattern>();
  if (py::isinstance<py::str>(h)) {
    Pattern p;
    check(parse_pattern_text(h.cast<std::string>(), &p));
    return p;
  }
  raise_py(PyExc_TypeError, "pattern must be a swz.Pattern or its text form (str), not " + type_name(h));
}

// ---- buffers --------------------------------------------------------------------

void Buffer::acquire(py::handle obj, bool writable, const std::string& what) {
  if (!PyObject_CheckBuffer(obj.ptr()))
    raise_py(PyExc_TypeError,
             what + " must support the buffer protocol (bytes, bytearray, memoryview, numpy array, mmap), not " +
                 type_name(obj));
  const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(obj.ptr(), &view_, flags) == 0) {
    held_ = true;
    return;
  }
  PyErr_Clear();
  if (writable) {
    Py_buffer probe;
    if (PyObject_GetBuffer(obj.ptr(), &probe, PyBUF_C_CONTIGUOUS) == 0) {
      PyBuffer_Release(&probe);
      raise_py(PyExc_ValueError, what + " is read-only; it must be writable");
    }
    PyErr_Clear();
    raise_py(PyExc_ValueError,
             what + " must be a writable C-contiguous buffer (a strided view cannot be written in place)");
  }
  // Read-only, not contiguous: copy through memoryview.tobytes() (C order).
  copy_ = py::module_::import("builtins").attr("memoryview")(obj).attr("tobytes")();
  if (PyObject_GetBuffer(copy_.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0) throw py::error_already_set();
  held_ = true;
}

// ---- formats and dtypes -----------------------------------------------------------

/// The dtype and channel count deswizzle returns for a format by default.
DefaultDtype default_dtype(const FormatInfo& f) {
  const uint32_t eb = f.element_bytes;
  if (f.block_compressed()) return {"|u1", eb};
  const uint32_t bits = f.channel_bits;
  if ((bits == 8 || bits == 16 || bits == 32 || bits == 64) && eb % (bits / 8) == 0) {
    char kind = 'u';
    const NumericKind n = format_facts(f).numeric;
    if (n == NumericKind::Float && bits >= 16)
      kind = 'f';
    else if (n == NumericKind::Sint || n == NumericKind::Snorm)
      kind = 'i';
    const uint32_t item = bits / 8;
    return {std::string(item == 1 ? "|" : "<") + kind + std::to_string(item), eb / item};
  }
  if (eb == 1 || eb == 2 || eb == 4 || eb == 8) return {std::string(eb == 1 ? "|" : "<") + "u" + std::to_string(eb), 1};
  return {"|u1", eb};
}

py::dtype np_dtype(const std::string& s) { return py::dtype(s); }

/// The format of subresource i's plane (planar formats: the plane's format,
/// e.g. R8G8_TYPELESS for NV12 plane 1).
FormatInfo sub_format(const Layout& L, uint32_t i) {
  const FormatInfo& f = L.desc().format;
  if (f.planes <= 1) return f;
  PlaneInfo pi;
  FormatInfo pf;
  if (!plane_info(f, L.sub(i).plane, &pi).ok() || !find_format(pi.format_name, &pf).ok()) return f;
  return pf;
}

uint64_t surface_size(const Layout& L) {
  uint64_t n = 0;
  check(surface_linear_bytes(L, &n));
  return n;
}

}  // namespace swz_py
