// swz._swz — the compiled part of the Python module `swz` (python/swz/__init__.py
// is the thin pure-Python layer on top). Contract: python/swz/_swz.pyi and
// README.md "Python".
//
// Conventions:
//  * Every swz::Status that is not ok becomes a Python exception carrying the
//    C++ message verbatim: ValueError (invalid_argument, parse_error,
//    unsupported, buffer_too_small), IndexError (out_of_range), OverflowError
//    (overflow), OSError (io_error), RuntimeError (no_device, internal).
//  * Copies and address loops run with the GIL released; every Python object
//    they touch is pinned (a Py_buffer export or a held array) for the whole call.
//  * Linear arrays are C-contiguous numpy arrays (H, W, C) for 2D or
//    (D, H, W, C) for 3D whose itemsize * C equals the element size in bytes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "swz/device_layout.hpp"
#include "swz/swz.hpp"
#include "swz/vendor.hpp"
#include "core/plan.hpp"  // internal: the compiled tables

namespace py = pybind11;
using namespace swz;

namespace {

// ---- errors -----------------------------------------------------------------

[[noreturn]] void raise_py(PyObject* type, const std::string& msg) {
  PyErr_SetString(type, msg.c_str());
  throw py::error_already_set();
}

/// Raises the Python exception for a failed Status (see the file comment).
[[noreturn]] void raise_status(const Status& s) {
  const std::string& m = s.message();
  switch (s.code()) {
    case Code::out_of_range: raise_py(PyExc_IndexError, m);
    case Code::overflow: raise_py(PyExc_OverflowError, m);
    case Code::io_error: raise_py(PyExc_OSError, m);
    case Code::no_device:
    case Code::internal: raise_py(PyExc_RuntimeError, m);
    case Code::ok:
    case Code::invalid_argument:
    case Code::buffer_too_small:
    case Code::unsupported:
    case Code::parse_error: break;
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
    raise_py(PyExc_ValueError, std::string(what) + " = " + py::str(h).cast<std::string>() + " is outside " + std::to_string(lo) +
                                   ".." + std::to_string(hi));
  return v;
}

uint32_t as_u32(py::handle h, const char* what, int64_t lo = 0) {
  return static_cast<uint32_t>(as_int(h, what, lo, 0xffffffffLL));
}

uint64_t as_u64(py::handle h, const char* what) {
  return static_cast<uint64_t>(as_int(h, what, 0, INT64_MAX));
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
  raise_py(PyExc_TypeError, "format must be a DXGI name (str), a DXGI_FORMAT value (int) or a swz.Format, not " + type_name(h));
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

/// A C-contiguous Py_buffer export, released (with the GIL held) on destruction.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (held_) PyBuffer_Release(&view_);
  }
  /// Writable: the exporter must allow writes and be C-contiguous (no copy is
  /// made: a copy would be written and then thrown away). Read-only: a
  /// non-contiguous exporter is first copied into contiguous bytes.
  void acquire(py::handle obj, bool writable, const std::string& what) {
    if (!PyObject_CheckBuffer(obj.ptr()))
      raise_py(PyExc_TypeError, what + " must support the buffer protocol (bytes, bytearray, memoryview, numpy array, mmap), not " +
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
      raise_py(PyExc_ValueError, what + " must be a writable C-contiguous buffer (a strided view cannot be written in place)");
    }
    // Read-only, not contiguous: copy through memoryview.tobytes() (C order).
    copy_ = py::module_::import("builtins").attr("memoryview")(obj).attr("tobytes")();
    if (PyObject_GetBuffer(copy_.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0) throw py::error_already_set();
    held_ = true;
  }
  uint8_t* data() const { return static_cast<uint8_t*>(view_.buf); }
  uint64_t size() const { return static_cast<uint64_t>(view_.len); }

 private:
  Py_buffer view_{};
  bool held_ = false;
  py::object copy_;
};

// ---- formats and dtypes -----------------------------------------------------------

struct DefaultDtype {
  std::string dtype;  // numpy dtype string, e.g. "<f4"
  uint32_t channels;  // C: itemsize * C == element bytes
};

bool contains(const char* s, const char* sub) { return std::strstr(s, sub) != nullptr; }

/// The dtype and channel count deswizzle returns for a format by default.
DefaultDtype default_dtype(const FormatInfo& f) {
  const uint32_t eb = f.element_bytes;
  if (f.block_compressed()) return {"|u1", eb};
  const uint32_t bits = f.channel_bits;
  if ((bits == 8 || bits == 16 || bits == 32 || bits == 64) && eb % (bits / 8) == 0) {
    char kind = 'u';
    if (contains(f.name, "_FLOAT") && bits >= 16) kind = 'f';
    else if (contains(f.name, "_SINT") || contains(f.name, "_SNORM")) kind = 'i';
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

std::string format_repr(const FormatInfo& f) {
  std::ostringstream o;
  o << "swz.Format('" << f.name << "', element_bytes=" << f.element_bytes;
  if (f.block_compressed()) o << ", block=" << f.block_width << "x" << f.block_height;
  o << ")";
  return o.str();
}

// ---- layouts ----------------------------------------------------------------------

/// The texture the Python-side Layout factories describe. depth None = 2D.
TextureDesc make_desc(py::handle format, py::handle width, py::handle height, py::handle depth, py::handle mips,
                      py::handle array, py::handle samples) {
  TextureDesc d;
  d.format = to_format(format);
  d.width = as_u32(width, "width");
  d.height = as_u32(height, "height");
  if (!depth.is_none()) {
    d.dimension = Dimension::Texture3D;
    d.depth = as_u32(depth, "depth");
  }
  d.array_size = as_u32(array, "array");
  d.samples = as_u32(samples, "samples");
  if (py::isinstance<py::str>(mips)) {
    if (mips.cast<std::string>() != "full")
      raise_py(PyExc_ValueError, "mips = '" + mips.cast<std::string>() + "' (an integer >= 1 or 'full')");
    d.mip_levels = full_mip_count(d.width, d.height, d.dimension == Dimension::Texture3D ? d.depth : 1);
  } else {
    d.mip_levels = as_u32(mips, "mips");
  }
  return d;
}

Layout build_layout(const TextureDesc& d, LayoutKind kind, const Pattern* pattern, py::handle row_pitch, py::handle depth_pitch,
                    py::handle packed_mips) {
  LayoutSpec spec;
  spec.kind = kind;
  if (pattern) spec.pattern = *pattern;
  spec.row_pitch_B = as_u64(row_pitch, "row_pitch");
  // A stacked-depth pattern counts its depth pitch in rows.
  (pattern && pattern->stack_depth_slices() ? spec.stack_rows : spec.depth_pitch_B) = as_u64(depth_pitch, "depth_pitch");
  if (!packed_mips.is_none()) {
    if (!py::isinstance<py::sequence>(packed_mips) || py::len(packed_mips) != 3)
      raise_py(PyExc_TypeError, "packed_mips must be None or (num_standard_mips, num_packed_mips, num_tiles_for_packed_mips), "
                                "as D3D12_PACKED_MIP_INFO reports them");
    py::sequence q = py::reinterpret_borrow<py::sequence>(packed_mips);
    spec.mip_tail = MipTail::D3D12;
    spec.packed.num_standard_mips = as_u32(q[0], "num_standard_mips");
    spec.packed.num_packed_mips = as_u32(q[1], "num_packed_mips");
    spec.packed.num_tiles_for_packed_mips = as_u32(q[2], "num_tiles_for_packed_mips");
  }
  Layout L;
  Status st;
  {
    // Layouts whose postamble moves whole blocks are verified block by block
    // (up to about a second): let other Python threads run meanwhile.
    py::gil_scoped_release nogil;
    st = make_layout(d, spec, &L);
  }
  check(st);
  return L;
}


/// Any --layout name (swz/layout_names.hpp), through the library's one parser.
Layout layout_from_name(const std::string& name, const TextureDesc& d, py::handle row_pitch, py::handle depth_pitch) {
  LayoutName n;
  Status st = LayoutName::parse(name, &n);
  if (!st.ok()) raise_py(st.code() == Code::io_error ? PyExc_OSError : PyExc_ValueError, st.message());
  LayoutOptions opt;
  opt.row_pitch_B = as_u64(row_pitch, "row_pitch");
  // A stacked-depth pattern counts its depth pitch in rows.
  (n.pattern() && n.pattern()->stack_depth_slices() ? opt.stack_rows : opt.depth_pitch_B) = as_u64(depth_pitch, "depth_pitch");
  if (!n.takes_options() && (opt.row_pitch_B || opt.depth_pitch_B))
    raise_py(PyExc_ValueError, "row_pitch / depth_pitch do not apply to layout '" + name + "' (it places its own levels)");
  Layout L;
  {
    py::gil_scoped_release nogil;
    st = n.make(n.fixed_texture() ? *n.fixed_texture() : d, opt, &L);
  }
  check(st);
  return L;
}

std::vector<std::string> layout_names() {
  std::vector<std::string> v = {"row-major", "std64k", "std4k", "pattern:TEXT", "FILE.json"};
  for (const auto& f : layout_families()) v.push_back(f.name);
  return v;
}

py::list layout_family_list() {
  py::list l;
  for (const auto& f : layout_families()) {
    py::dict d;
    d["name"] = f.name;
    d["parameters"] = f.parameters;
    d["description"] = f.description;
    d["source"] = f.source;
    l.append(d);
  }
  return l;
}

std::string dims_text(const TextureDesc& d) {
  std::string s = std::to_string(d.width) + ", " + std::to_string(d.height);
  if (d.dimension == Dimension::Texture3D) s += ", depth=" + std::to_string(d.depth);
  return s;
}

std::string layout_repr(const Layout& L) {
  const TextureDesc& d = L.desc();
  std::ostringstream o;
  o << "swz.Layout.";
  switch (L.kind()) {
    case LayoutKind::RowMajor: o << "row_major("; break;
    case LayoutKind::Std64K: o << "std64k("; break;
    case LayoutKind::Std4K: o << "std4k("; break;
    case LayoutKind::Pattern: o << "pattern('" << to_text(L.patterns().at(0)) << "', "; break;
    case LayoutKind::Explicit: o << "from_name('" << L.name() << "', "; break;
  }
  o << "'" << d.format.name << "', " << dims_text(d);
  if (d.mip_levels != 1) o << ", mips=" << d.mip_levels;
  if (d.array_size != 1) o << ", array=" << d.array_size;
  if (d.samples != 1) o << ", samples=" << d.samples;
  o << ")  # " << L.subresource_count() << " subresource(s), " << L.size() << " bytes";
  return o.str();
}

/// A subresource as Python sees it: the C++ struct plus what it needs to be
/// useful on its own (pattern, format, sample count).
struct PySubresource {
  SubresourceLayout s;
  Pattern pattern;
  FormatInfo format;
  uint32_t samples = 1;
  bool is3d = false;
};

PySubresource make_sub(const Layout& L, uint32_t i) {
  PySubresource r;
  r.s = L.sub(i);
  r.pattern = L.patterns().at(static_cast<size_t>(r.s.pattern_slot));
  r.format = sub_format(L, i);
  r.samples = L.desc().samples;
  r.is3d = L.desc().dimension == Dimension::Texture3D;
  return r;
}

// ---- linear arrays ------------------------------------------------------------------

/// The element box of one copy: origin and extent in elements, and whether the
/// texture is 3D (then arrays carry a leading depth axis).
struct Extent {
  uint32_t w = 0, h = 0, d = 0;
  uint32_t eb = 0;
  bool is3d = false;
  bool empty = false;
  Box box{};
  bool has_box = false;
};

Extent resolve_extent(const Layout& L, uint32_t sub, py::handle box) {
  const SubresourceLayout& s = L.sub(sub);
  Extent e;
  e.eb = s.element_bytes;
  e.is3d = L.desc().dimension == Dimension::Texture3D;
  Box b{0, 0, 0, s.width, s.height, s.depth};
  if (!box.is_none()) {
    if (!py::isinstance<py::sequence>(box) || py::isinstance<py::str>(box))
      raise_py(PyExc_TypeError, "box must be a sequence (left, top, front, right, bottom, back) or (left, top, right, bottom), not " +
                                    type_name(box));
    py::sequence seq = py::reinterpret_borrow<py::sequence>(box);
    std::vector<uint32_t> v;
    for (size_t i = 0; i < seq.size(); ++i) v.push_back(as_u32(seq[i], "box coordinate"));
    if (v.size() == 6) b = {v[0], v[1], v[2], v[3], v[4], v[5]};
    else if (v.size() == 4) b = {v[0], v[1], 0, v[2], v[3], s.depth};
    else
      raise_py(PyExc_ValueError, "box has " + std::to_string(v.size()) +
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

std::string shape_text(const std::vector<py::ssize_t>& sh) {
  std::string s = "(";
  for (size_t i = 0; i < sh.size(); ++i) s += (i ? ", " : "") + std::to_string(sh[i]);
  if (sh.size() == 1) s += ",";
  return s + ")";
}

std::vector<py::ssize_t> expected_shape(const Extent& e, uint32_t channels) {
  std::vector<py::ssize_t> sh;
  if (e.is3d) sh.push_back(e.d);
  sh.push_back(e.h);
  sh.push_back(e.w);
  sh.push_back(channels);
  return sh;
}

/// Checks dtype and shape of a linear array against the extent. `role` names
/// it in messages ("array", "out").
void check_linear(const py::array& a, const Extent& e, const Layout& L, uint32_t sub, const char* role) {
  py::dtype dt = a.dtype();
  const char kind = dt.kind();
  if (std::string("biufcV").find(kind) == std::string::npos || dt.attr("hasobject").cast<bool>())
    raise_py(PyExc_TypeError, std::string(role) + " has dtype " + py::str(dt).cast<std::string>() +
                                  "; texel data needs a numeric or structured dtype (e.g. uint8, uint16, float32)");
  const auto item = static_cast<uint32_t>(dt.itemsize());
  const FormatInfo sf = sub_format(L, sub);
  const std::string fmt = sf.name;
  const DefaultDtype def = default_dtype(sf);
  const std::string hint = "subresource " + std::to_string(sub) + " of this " + fmt + " layout" + (e.has_box ? " (box)" : "") +
                           " needs shape " + shape_text(expected_shape(e, def.channels)) + " with dtype " +
                           py::str(np_dtype(def.dtype)).cast<std::string>() + " (or any dtype whose itemsize x C = " +
                           std::to_string(e.eb) + " bytes)";
  if (item == 0 || e.eb % item != 0)
    raise_py(PyExc_ValueError, std::string(role) + " has dtype " + py::str(dt).cast<std::string>() + " (itemsize " + std::to_string(item) +
                                   ") which does not divide the " + std::to_string(e.eb) + "-byte element; " + hint);
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
                                   py::str(dt).cast<std::string>() + "; " + hint);
}

CopyOptions copy_options(py::handle backend, py::handle threads, bool write_combined) {
  CopyOptions o;
  if (!backend.is_none()) {
    if (!py::isinstance<py::str>(backend)) raise_py(PyExc_TypeError, "backend must be a str or None, not " + type_name(backend));
    std::string b = backend.cast<std::string>();
    std::transform(b.begin(), b.end(), b.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (b == "auto") o.backend = Backend::Auto;
    else if (b == "scalar") o.backend = Backend::Scalar;
    else if (b == "highway") o.backend = Backend::Highway;
    else if (b == "xsimd") o.backend = Backend::Xsimd;
    else raise_py(PyExc_ValueError, "backend = '" + b + "' (expected 'auto', 'scalar', 'highway' or 'xsimd')");
  }
  if (!threads.is_none()) o.threads = static_cast<unsigned>(as_int(threads, "threads", 0, 4096));
  o.write_combined = write_combined;
  return o;
}

Box* box_ptr(Extent& e) { return &e.box; }

/// A C-contiguous, native-byte-order version of a linear input array (a copy only when needed).
py::array contiguous_input(py::handle obj) {
  py::module_ np = py::module_::import("numpy");
  py::array a = py::array::ensure(obj);
  if (!a) {
    PyErr_Clear();
    raise_py(PyExc_TypeError, "array must be a numpy array (or convertible to one), not " + type_name(obj));
  }
  if (!a.dtype().attr("isnative").cast<bool>()) a = a.attr("astype")(a.dtype().attr("newbyteorder")("="));
  if (!(a.flags() & py::array::c_style)) a = np.attr("ascontiguousarray")(a);
  return a;
}

// ---- swizzle / deswizzle --------------------------------------------------------------

/// True when the byte ranges [a, a + na) and [b, b + nb) share a byte (for
/// C-contiguous buffers, numpy.shares_memory's answer).
bool overlaps(const void* a, uint64_t na, const void* b, uint64_t nb) {
  const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return na && nb && pa < pb + nb && pb < pa + na;
}

py::object swizzle(py::handle array, const Layout& L, py::handle subresource, py::handle box, py::handle out, py::handle backend,
                   py::handle threads, bool write_combined) {
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
  // out= sharing memory with the input: the copy would read bytes it has
  // already overwritten. Read from a temporary copy of the input instead.
  if (overlaps(a.data(), static_cast<uint64_t>(a.nbytes()), res.data(), res.size()))
    a = py::reinterpret_borrow<py::array>(a.attr("copy")());
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

py::object deswizzle(py::handle buffer, const Layout& L, py::handle subresource, py::handle box, py::handle out, py::handle dtype,
                     py::handle backend, py::handle threads) {
  const uint32_t sub = as_subresource(L, subresource);
  Extent e = resolve_extent(L, sub, box);
  CopyOptions opts = copy_options(backend, threads, false);
  Buffer res;
  res.acquire(buffer, false, "buffer");
  py::object result;
  uint8_t* dst = nullptr;
  uint64_t dst_size = 0;
  Buffer outbuf;
  py::array arr;
  if (out.is_none()) {
    py::dtype dt = dtype.is_none() ? np_dtype(default_dtype(sub_format(L, sub)).dtype) : py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
    const auto item = static_cast<uint32_t>(dt.itemsize());
    if (item == 0 || e.eb % item != 0)
      raise_py(PyExc_ValueError, "dtype " + py::str(dt).cast<std::string>() + " (itemsize " + std::to_string(item) +
                                     ") does not divide the " + std::to_string(e.eb) + "-byte element of " + L.desc().format.name);
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
      if (!arr.dtype().attr("isnative").cast<bool>()) raise_py(PyExc_ValueError, "out must have a native byte order dtype");
      if (!e.empty) check_linear(arr, e, L, sub, "out");
    }
    outbuf.acquire(out, true, "out");
    dst = outbuf.data();
    dst_size = outbuf.size();
    result = py::reinterpret_borrow<py::object>(out);
  }
  if (e.empty) return result;
  const uint64_t row = uint64_t{e.w} * e.eb, slice = row * e.h;
  // out= sharing memory with the buffer: read from a temporary copy of it.
  const uint8_t* src = res.data();
  py::bytes src_copy;
  if (overlaps(src, res.size(), dst, dst_size)) {
    src_copy = py::bytes(reinterpret_cast<const char*>(src), static_cast<size_t>(res.size()));
    src = reinterpret_cast<const uint8_t*>(PyBytes_AS_STRING(src_copy.ptr()));
  }
  Status st;
  {
    py::gil_scoped_release nogil;
    st = read_from_subresource(dst, dst_size, row, slice, L, src, res.size(), sub, e.has_box ? box_ptr(e) : nullptr, opts);
  }
  check(st);
  return result;
}

// ---- whole surface (swz/surface.hpp) ----------------------------------------------------

uint64_t surface_size(const Layout& L) {
  uint64_t n = 0;
  check(surface_linear_bytes(L, &n));
  return n;
}

/// The linear_offsets argument: None, or one byte offset per subresource.
std::vector<uint64_t> surface_offsets_arg(const Layout& L, py::handle offsets) {
  std::vector<uint64_t> v;
  if (offsets.is_none()) return v;
  if (!py::isinstance<py::sequence>(offsets) && !py::isinstance<py::array>(offsets))
    raise_py(PyExc_TypeError, "linear_offsets must be a sequence of ints (one per subresource) or None, not " + type_name(offsets));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(offsets);
  if (seq.size() != L.subresource_count())
    raise_py(PyExc_ValueError, "linear_offsets has " + std::to_string(seq.size()) + " entries; the layout has " +
                                   std::to_string(L.subresource_count()) + " subresources");
  for (size_t i = 0; i < seq.size(); ++i) v.push_back(as_u64(seq[i], "linear_offsets entry"));
  return v;
}

py::object swizzle_surface_py(py::handle linear, const Layout& L, py::handle out, py::handle linear_offsets, py::handle backend,
                              py::handle threads, bool write_combined) {
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

py::object deswizzle_surface_py(py::handle buffer, const Layout& L, py::handle out, py::handle linear_offsets, py::handle backend,
                                py::handle threads) {
  CopyOptions opts = copy_options(backend, threads, false);
  const std::vector<uint64_t> offs = surface_offsets_arg(L, linear_offsets);
  Buffer res;
  res.acquire(buffer, false, "buffer");
  py::object result;
  if (out.is_none()) {
    uint64_t n = surface_size(L);
    if (!offs.empty())
      for (uint32_t i = 0; i < L.subresource_count(); ++i) n = std::max(n, offs[i] + packed_subresource_bytes(L.sub(i)));
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
    st = deswizzle_surface(L, dst.data(), dst.size(), res.data(), res.size(), offs.empty() ? nullptr : offs.data(), opts);
  }
  check(st);
  return result;
}

// ---- vectorised address maps -------------------------------------------------------------

/// Iterates the common shape of n int64 arrays (already broadcast to one shape,
/// any strides), calling f(flat_index, values[n]). Stops when f returns false.
template <size_t N, class F>
void for_each_broadcast(const std::array<py::array, N>& in, F&& f) {
  const py::ssize_t nd = in[0].ndim();
  const py::ssize_t* shape = in[0].shape();
  std::array<const char*, N> base;
  std::array<const py::ssize_t*, N> strides;
  for (size_t k = 0; k < N; ++k) {
    base[k] = static_cast<const char*>(in[k].data());
    strides[k] = in[k].strides();
  }
  int64_t v[N];
  if (nd == 0) {
    for (size_t k = 0; k < N; ++k) std::memcpy(&v[k], base[k], 8);
    f(size_t{0}, v);
    return;
  }
  for (py::ssize_t d = 0; d < nd; ++d)
    if (shape[d] == 0) return;
  const py::ssize_t inner = shape[nd - 1];
  std::vector<py::ssize_t> idx(static_cast<size_t>(nd), 0);
  size_t flat = 0;
  for (;;) {
    std::array<const char*, N> p;
    std::array<py::ssize_t, N> st;
    for (size_t k = 0; k < N; ++k) {
      p[k] = base[k];
      for (py::ssize_t d = 0; d + 1 < nd; ++d) p[k] += idx[static_cast<size_t>(d)] * strides[k][d];
      st[k] = strides[k][nd - 1];
    }
    for (py::ssize_t j = 0; j < inner; ++j, ++flat) {
      for (size_t k = 0; k < N; ++k) v[k] = *reinterpret_cast<const int64_t*>(p[k] + j * st[k]);
      if (!f(flat, v)) return;
    }
    py::ssize_t d = nd - 2;
    for (; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < shape[d]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
    if (d < 0) return;
  }
}

template <size_t N>
std::array<py::array, N> int64_inputs(const std::array<py::handle, N>& h) {
  std::array<py::array, N> a;
  for (size_t k = 0; k < N; ++k) {
    if (!py::isinstance<py::array>(h[k])) raise_py(PyExc_TypeError, "internal: expected int64 numpy arrays");
    a[k] = py::reinterpret_borrow<py::array>(h[k]);
    if (a[k].dtype().kind() != 'i' || a[k].dtype().itemsize() != 8 || !a[k].dtype().attr("isnative").template cast<bool>())
      raise_py(PyExc_TypeError, "internal: expected native int64 arrays (swz.offsets converts its inputs)");
    if (a[k].ndim() != a[0].ndim() || !std::equal(a[k].shape(), a[k].shape() + a[k].ndim(), a[0].shape()))
      raise_py(PyExc_ValueError, "internal: arrays are not broadcast to one shape");
  }
  return a;
}

const char* const kCoordNames[4] = {"x", "y", "z", "sample"};

/// swz.offsets core: byte offsets in the resource of elements (x, y, z, sample)
/// of one subresource; x, y, z, sample int64 arrays of one shape. method: 0
/// automatic, 1 per-axis tables, 2 the plan's byte tables (swz::AddressMap).
/// Both give the same result; tests compare them.
py::array offsets(const Layout& L, py::handle subresource, py::handle x, py::handle y, py::handle z, py::handle s, int method) {
  const uint32_t sub = as_subresource(L, subresource);
  auto in = int64_inputs<4>({x, y, z, s});
  std::vector<py::ssize_t> shape(in[0].shape(), in[0].shape() + in[0].ndim());
  py::array_t<uint64_t> out(shape);
  uint64_t* o = out.mutable_data();
  const auto n = static_cast<uint64_t>(out.size());
  AddressMap map;
  Status built;
  {
    py::gil_scoped_release nogil;
    const AddressMap::Method m =
        method == 1 ? AddressMap::Method::AxisTables : method == 2 ? AddressMap::Method::Plan : AddressMap::Method::Automatic;
    built = AddressMap::make(L, sub, &map, n, m);
  }
  check(built);
  const uint64_t* limit = map.limits();
  int bad_coord = -1;
  size_t bad_index = 0;
  int64_t bad_value = 0;
  {
    py::gil_scoped_release nogil;
    for_each_broadcast<4>(in, [&](size_t i, const int64_t* v) {
      for (int c = 0; c < 4; ++c)
        if (static_cast<uint64_t>(v[c]) >= limit[c]) {
          bad_coord = c;
          bad_index = i;
          bad_value = v[c];
          return false;
        }
      o[i] = map.offset_unchecked(static_cast<uint64_t>(v[0]), static_cast<uint64_t>(v[1]), static_cast<uint64_t>(v[2]),
                                  static_cast<uint64_t>(v[3]));
      return true;
    });
  }
  if (bad_coord >= 0) {
    static const char* const what[4] = {"elements wide", "elements high", "slices deep", "samples"};
    raise_py(PyExc_IndexError, std::string(kCoordNames[bad_coord]) + " = " + std::to_string(bad_value) + " at flat index " +
                                   std::to_string(bad_index) + " is out of range: subresource " + std::to_string(sub) + " is " +
                                   std::to_string(limit[bad_coord]) + " " + what[bad_coord] +
                                   (bad_coord == 0 && L.desc().format.block_compressed() ? " (x, y count 4x4 blocks for BC formats)" : ""));
  }
  return out;
}

/// Offsets of a bare pattern for one element size (swz.order_image): x in
/// BYTES, no range checks beyond non-negative coordinates.
py::array pattern_offsets(const Pattern& p, uint32_t element_bytes, py::handle x, py::handle y, py::handle z, py::handle s,
                          uint64_t row_pitch, uint64_t depth_pitch) {
  std::shared_ptr<const Plan> plan;
  check(Plan::compile(p, element_bytes, &plan));
  auto in = int64_inputs<4>({x, y, z, s});
  std::vector<py::ssize_t> shape(in[0].shape(), in[0].shape() + in[0].ndim());
  py::array_t<uint64_t> out(shape);
  uint64_t* o = out.mutable_data();
  bool negative = false;
  {
    py::gil_scoped_release nogil;
    for_each_broadcast<4>(in, [&](size_t i, const int64_t* v) {
      if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0) {
        negative = true;
        return false;
      }
      o[i] = plan->offset(static_cast<uint64_t>(v[0]), static_cast<uint64_t>(v[1]), static_cast<uint64_t>(v[2]),
                          static_cast<uint64_t>(v[3]), row_pitch, depth_pitch);
      return true;
    });
  }
  if (negative) raise_py(PyExc_ValueError, "coordinates must be >= 0");
  return out;
}

/// One record of swz.locate's result; matches python/swz/__init__.py LOCATION_DTYPE (aligned).
struct LocationRecord {
  uint32_t subresource, x, y, z, sample, byte;
  bool padding, packed;
};
static_assert(sizeof(LocationRecord) == 28 && offsetof(LocationRecord, padding) == 24, "LOCATION_DTYPE layout");

void locate_into(const Layout& L, py::handle offsets_h, py::handle out_h) {
  py::array offs = py::reinterpret_borrow<py::array>(offsets_h);
  if (!py::isinstance<py::array>(offsets_h) || offs.dtype().kind() != 'i' || offs.dtype().itemsize() != 8 ||
      !(offs.flags() & py::array::c_style))
    raise_py(PyExc_TypeError, "internal: offsets must be a C-contiguous int64 array");
  Buffer out;
  out.acquire(out_h, true, "out");
  const auto n = static_cast<size_t>(offs.size());
  if (out.size() != n * sizeof(LocationRecord)) raise_py(PyExc_ValueError, "internal: record buffer size mismatch");
  const int64_t* in = static_cast<const int64_t*>(offs.data());
  auto* rec = reinterpret_cast<LocationRecord*>(out.data());
  Status bad;
  size_t bad_index = 0;
  {
    py::gil_scoped_release nogil;
    for (size_t i = 0; i < n; ++i) {
      Location loc;
      if (in[i] < 0) {
        bad = {Code::out_of_range, "offset = " + std::to_string(in[i]) + " is negative"};
        bad_index = i;
        break;
      }
      Status st = locate(L, static_cast<uint64_t>(in[i]), &loc);
      if (!st.ok()) {
        bad = st;
        bad_index = i;
        break;
      }
      rec[i] = {loc.subresource, loc.x, loc.y, loc.z, loc.sample, loc.byte, loc.padding, loc.packed};
    }
  }
  if (!bad.ok()) raise_status(Status(bad.code(), bad.message() + (n > 1 ? " (at flat index " + std::to_string(bad_index) + ")" : "")));
}

// ---- patterns ----------------------------------------------------------------------

py::bytes ddi_bytes(const Pattern& p, bool legacy) {
  std::vector<uint8_t> b;
  if (legacy) check(to_ddi_bytes_legacy(p, &b));
  else b = to_ddi_bytes_0022(p);
  return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
}

Pattern pattern_from_ddi(py::handle obj) {
  Buffer b;
  b.acquire(obj, false, "DDI bytes");
  Pattern p;
  check(from_ddi_bytes(std::span<const uint8_t>(b.data(), b.size()), &p));
  return p;
}

std::string pattern_repr(const Pattern& p) {
  std::string t = to_text(p);
  std::string q;
  for (char c : t) {
    if (c == '\\' || c == '\'') q += '\\';
    q += c;
  }
  return "swz.Pattern('" + q + "')";
}

py::tuple block_extent(const Pattern& p) {
  auto e = p.block_extent();
  return py::make_tuple(e[0], e[1], e[2], e[3]);
}

/// Bit entries as (channel letter, bit) tuples, None for an invalid entry.
py::list entries(const BitArray& a) {
  py::list l;
  for (const BitEntry& e : a) {
    if (e.valid) l.append(py::make_tuple(std::string(1, "XYZS"[e.channel & 3]), e.bit));
    else l.append(py::none());
  }
  return l;
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
    if (write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), 1, 1, 1, o).ok()) out.push_back(backend_name(b));
  }
  return out;
}

}  // namespace

namespace swz_py {
void register_identify(py::module_& m);  // identify_bindings.cpp
}

PYBIND11_MODULE(_swz, m) {
  m.doc() = "Compiled core of swz (use the `swz` package, which re-exports everything here).";
  // The CMake project version (the one place the version is written).
  m.attr("__version__") = SWZ_VERSION_STRING;

  // ---- Format ----
  py::class_<FormatInfo>(m, "Format", R"doc(A DXGI format: element size and block shape.

An *element* is a texel, or a 4x4 block for block-compressed (BC) formats.
Get one with swz.format_info('R8G8B8A8_UNORM') or from Layout.format.)doc")
      .def_property_readonly("name", [](const FormatInfo& f) { return std::string(f.name); }, "DXGI name without the DXGI_FORMAT_ prefix.")
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
      .def("__eq__", [](const FormatInfo& a, py::object b) {
        return py::isinstance<FormatInfo>(b) && a.dxgi == b.cast<FormatInfo>().dxgi;
      })
      .def("__hash__", [](const FormatInfo& f) { return py::hash(py::int_(f.dxgi)); });

  m.def(
      "format_info", [](py::handle f) { return to_format(f); }, py::arg("format").none(false),
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

  // ---- Pattern ----
  py::class_<Pattern>(m, "Pattern", R"doc(A parameterized swizzle pattern (D3D12DDI_SWIZZLE_PATTERN_DESC_0022).

32 interleave entries (address bit i of the in-block offset = a coordinate bit,
XOR up to four more), two postamble XOR chains on address bits 8..23, an
immediate XORed into the in-block offset, and flags. Channels: X counts BYTES
(x_element * element_bytes + byte), Y rows of elements, Z slices, S samples.

Pattern(text=None) parses the text form, e.g. Pattern('X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2')
(address bit 0 first; '^' adds an XOR term; then optional 'post8=Y4^X9',
'imm=0x300', 'stack', 'cond-post'). Parsing does not validate: call validate().
Immutable and hashable; equal patterns compare equal.)doc")
      .def(py::init([](std::optional<std::string> text) {
             Pattern p;
             if (text) check(parse_pattern_text(*text, &p));
             return p;
           }),
           py::arg("text") = py::none(), "Parses the text form (ValueError when malformed); no argument: the empty pattern.")
      .def_static(
          "from_text",
          [](const std::string& s) {
            Pattern p;
            check(parse_pattern_text(s, &p));
            return p;
          },
          py::arg("text"), "Parses the text form. ValueError (with the parser's message) on malformed text.")
      .def_static(
          "from_json",
          [](const std::string& s) {
            Pattern p;
            check(parse_pattern_json(s, &p));
            return p;
          },
          py::arg("json"),
          "Parses the JSON form {\"bits\": [\"X0\", ...], \"postamble\": {\"8\": \"Y4^X9\"}, \"immediate\": \"0x0\", \"flags\": [...]} "
          "(patterns/README.md). ValueError on malformed JSON.")
      .def_static("from_ddi_bytes", &pattern_from_ddi, py::arg("data"),
                  "Parses raw DDI bytes (any bytes-like object): 232 bytes = D3D12DDI_SWIZZLE_PATTERN_DESC_0022 / WDDM 2.2 form; "
                  "104 bytes = the older D3D12DDI_SWIZZLE_PATTERN_DESC. ValueError for any other length.")
      .def_static(
          "standard",
          [](const std::string& kind, uint32_t element_bytes, int dimension) {
            LayoutKind k;
            if (kind == "std64k") k = LayoutKind::Std64K;
            else if (kind == "std4k") k = LayoutKind::Std4K;
            else raise_py(PyExc_ValueError, "kind = '" + kind + "' (expected 'std64k' or 'std4k')");
            if (dimension != 2 && dimension != 3) raise_py(PyExc_ValueError, "dimension = " + std::to_string(dimension) + " (2 or 3)");
            Pattern p;
            check(standard_swizzle_pattern(k, dimension == 3 ? Dimension::Texture3D : Dimension::Texture2D, element_bytes, &p));
            return p;
          },
          py::arg("kind") = "std64k", py::arg("element_bytes") = 4, py::arg("dimension") = 2,
          "The built-in standard-swizzle pattern: kind 'std64k' or 'std4k', element_bytes 1, 2, 4, 8 or 16, dimension 2 or 3.")
      .def("to_text", [](const Pattern& p) { return to_text(p); }, "The text form (parses back to an equal Pattern).")
      .def("to_json", [](const Pattern& p) { return to_json(p); }, "The JSON form (str).")
      .def("to_ddi_bytes", &ddi_bytes, py::arg("legacy") = false,
           "The DDI struct as bytes: 232 bytes (D3D12DDI_SWIZZLE_PATTERN_DESC_0022), or with legacy=True the 104-byte "
           "D3D12DDI_SWIZZLE_PATTERN_DESC (ValueError when the pattern uses XOR3/XOR4 chains or postamble entries).")
      .def(
          "validate", [](const Pattern& p, uint32_t eb) { check(validate(p, eb)); }, py::arg("element_bytes") = 1,
          "Checks the pattern for elements of element_bytes bytes (1, 2, 4, 8, 16; 1 checks only the element-independent rules). "
          "Returns None; raises ValueError with a message naming the field, index and value at fault.")
      .def(
          "is_valid", [](const Pattern& p, uint32_t eb) { return validate(p, eb).ok(); }, py::arg("element_bytes") = 1,
          "True when validate(element_bytes) would not raise.")
      .def_property_readonly("block_bits", &Pattern::block_bits, "n, the number of valid interleave entries: the block holds 2**n bytes.")
      .def_property_readonly(
          "block_bytes", [](const Pattern& p) { return uint64_t{1} << p.block_bits(); }, "Bytes in one block (2**block_bits).")
      .def_property_readonly("block_extent", &block_extent,
                             "Block extent per channel as (x_bytes, y_rows, z_slices, samples): 2**(number of primaries from that channel).")
      .def(
          "block_shape",
          [](const Pattern& p, uint32_t eb) {
            auto e = p.block_extent();
            if (eb == 0 || e[0] % eb != 0)
              raise_py(PyExc_ValueError, "element_bytes = " + std::to_string(eb) + " does not divide the block's " +
                                             std::to_string(e[0]) + " bytes in X");
            if (e[2] > 1) return py::make_tuple(e[2], e[1], e[0] / eb);
            return py::make_tuple(e[1], e[0] / eb);
          },
          py::arg("element_bytes") = 1,
          "Block shape in ELEMENTS as a numpy-style shape: (rows, columns) for 2D, (slices, rows, columns) when the pattern has Z bits.")
      .def_readonly("flags", &Pattern::flags, "Flags (0x1 STACK_DEPTH_SLICES, 0x2 CONDITIONAL_POSTAMBLE_XORS).")
      .def_readonly("immediate", &Pattern::immediate, "PostambleXORImmediate, XORed into the in-block offset (bytes).")
      .def_property_readonly("stack_depth_slices", &Pattern::stack_depth_slices, "STACK_DEPTH_SLICES flag.")
      .def_property_readonly(
          "interleave", [](const Pattern& p) { return entries(p.interleave); },
          "The 32 interleave entries as (channel, bit) tuples, e.g. ('X', 4); None for an invalid entry.")
      .def_property_readonly(
          "xor_chains",
          [](const Pattern& p) {
            py::list l;
            for (const auto& a : p.xors) l.append(entries(a));
            return l;
          },
          "The four interleave XOR chains, each 32 entries like `interleave`.")
      .def_property_readonly(
          "postamble",
          [](const Pattern& p) {
            py::list l;
            for (const auto& a : p.postamble) l.append(entries(a));
            return l;
          },
          "The two postamble XOR chains, each 32 entries (only bits 8..23 may be valid).")
      .def("__repr__", &pattern_repr)
      .def("__str__", [](const Pattern& p) { return to_text(p); })
      .def("__eq__", [](const Pattern& a, py::object b) { return py::isinstance<Pattern>(b) && a == b.cast<Pattern>(); })
      .def("__hash__", [](const Pattern& p) { return py::hash(ddi_bytes(p, false)); })
      .def(py::pickle([](const Pattern& p) { return ddi_bytes(p, false); }, [](py::bytes b) { return pattern_from_ddi(b); }));

  // ---- Footprint ----
  py::class_<Footprint>(m, "Footprint", "Copyable footprint of one subresource (GetCopyableFootprints, single plane).")
      .def_readonly("offset", &Footprint::offset, "Bytes from the start of the buffer (multiple of 512).")
      .def_readonly("width", &Footprint::width, "Texels.")
      .def_readonly("height", &Footprint::height, "Texels.")
      .def_readonly("depth", &Footprint::depth, "Slices.")
      .def_readonly("element_bytes", &Footprint::element_bytes, "Bytes per element of the plane.")
      .def_property_readonly("format_name", [](const Footprint& f) { return std::string(f.format_name ? f.format_name : ""); },
                             "The plane's format.")
      .def_readonly("row_pitch", &Footprint::row_pitch, "Bytes between rows (multiple of 256).")
      .def_readonly("rows", &Footprint::rows, "Rows of elements (4x4 blocks for BC).")
      .def_readonly("row_size", &Footprint::row_size, "Bytes of one row without padding.")
      .def_readonly("total_bytes", &Footprint::total_bytes, "Bytes from offset to the end of the last row.")
      .def("__repr__", [](const Footprint& f) {
        std::ostringstream o;
        o << "swz.Footprint(offset=" << f.offset << ", width=" << f.width << ", height=" << f.height << ", depth=" << f.depth
          << ", row_pitch=" << f.row_pitch << ", rows=" << f.rows << ", row_size=" << f.row_size << ", total_bytes=" << f.total_bytes
          << ")";
        return o.str();
      });

  // ---- SubresourceLayout ----
  py::class_<PySubresource>(m, "SubresourceLayout", "Where one subresource lives in the resource. Offsets and pitches in bytes unless noted.")
      .def_property_readonly("index", [](const PySubresource& r) { return r.s.index; }, "Subresource index (mip + slice * mips).")
      .def_property_readonly("mip", [](const PySubresource& r) { return r.s.mip; })
      .def_property_readonly("array_slice", [](const PySubresource& r) { return r.s.array_slice; })
      .def_property_readonly("plane", [](const PySubresource& r) { return r.s.plane; })
      .def_property_readonly("packed", [](const PySubresource& r) { return r.s.packed; },
                             "True for a mip in the adapter-specific packed mip tail: opaque bytes that copies and offsets refuse.")
      .def_property_readonly("width", [](const PySubresource& r) { return r.s.width; }, "Texels.")
      .def_property_readonly("height", [](const PySubresource& r) { return r.s.height; }, "Texels.")
      .def_property_readonly("depth", [](const PySubresource& r) { return r.s.depth; }, "Slices (1 for 2D).")
      .def_property_readonly("width_el", [](const PySubresource& r) { return r.s.width_el; }, "Elements (4x4 blocks for BC).")
      .def_property_readonly("height_el", [](const PySubresource& r) { return r.s.height_el; }, "Elements (4x4 blocks for BC).")
      .def_property_readonly("element_bytes", [](const PySubresource& r) { return r.s.element_bytes; })
      .def_property_readonly("offset", [](const PySubresource& r) { return r.s.offset; }, "Bytes from the start of the resource.")
      .def_property_readonly("size", [](const PySubresource& r) { return r.s.size; }, "Bytes the subresource spans (whole blocks).")
      .def_property_readonly("row_pitch", [](const PySubresource& r) { return r.s.row_pitch; }, "Bytes between rows of blocks.")
      .def_property_readonly("depth_pitch", [](const PySubresource& r) { return r.s.depth_pitch; },
                             "Bytes between slices of blocks; ROWS when stack_depth is True.")
      .def_property_readonly("stack_depth", [](const PySubresource& r) { return r.s.stack_depth; })
      .def_property_readonly("pre_swizzle",
                             [](const PySubresource& r) { return py::make_tuple(r.s.pre_swizzle[0], r.s.pre_swizzle[1], r.s.pre_swizzle[2]); },
                             "Pre-swizzle offsets (x bytes, y rows, z slices).")
      .def_property_readonly("pattern_slot", [](const PySubresource& r) { return r.s.pattern_slot; })
      .def_property_readonly("pattern", [](const PySubresource& r) { return r.pattern; }, "The swz.Pattern of this subresource.")
      .def_property_readonly("format", [](const PySubresource& r) { return r.format; },
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
          "Shape of the linear array deswizzle() returns with the default dtype: (H, W, C) or (D, H, W, C), in elements.")
      .def("__repr__", [](const PySubresource& r) {
        const SubresourceLayout& s = r.s;
        std::ostringstream o;
        o << "swz.SubresourceLayout(index=" << s.index << ", mip=" << s.mip << ", array_slice=" << s.array_slice << ", size=" << s.width
          << "x" << s.height;
        if (r.is3d) o << "x" << s.depth;
        o << ", offset=" << s.offset << ", bytes=" << s.size << ", row_pitch=" << s.row_pitch << ", depth_pitch=" << s.depth_pitch
          << (s.stack_depth ? " rows" : "") << ")";
        return o.str();
      });

  // ---- Layout ----
  const char* kFactoryArgs = R"doc(
format: DXGI name (str), DXGI_FORMAT value (int) or swz.Format.
width, height: texels. depth: None for a 2D texture; an int (even 1) makes a
3D texture, as 'WxHxD' does in the CLI. mips: mip levels (>= 1) or 'full'.
array: array slices (2D only). Raises ValueError naming the field at fault
(zero sizes, too many mips, non-power-of-two elements for swizzled layouts,
MSAA with standard swizzle, ...), OverflowError when sizes overflow 64 bits.)doc";
  {
    // The factories take loosely typed arguments (format names or values,
    // depth None or int, mips int or 'full'): write their signatures by hand.
    py::options sig;
    sig.disable_function_signatures();
  py::class_<Layout>(m, "Layout", R"doc(A laid-out texture: where every subresource (mip x array slice) lives.

Create with Layout.std64k / std4k / row_major / pattern / from_name. Immutable;
safe to share between threads.)doc")
      .def_static(
          "std64k",
          [](py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips, py::handle array, py::handle packed) {
            return build_layout(make_desc(f, w, h, d, mips, array, py::int_(1)), LayoutKind::Std64K, nullptr, py::int_(0),
                                py::int_(0), packed);
          },
          py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(), py::arg("mips") = 1,
          py::arg("array") = 1, py::arg("packed_mips") = py::none(),
          (std::string("std64k(format, width, height, depth=None, mips=1, array=1, packed_mips=None) -> Layout\n\nD3D12 64KB standard swizzle (D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE); every subresource starts on a 64KB "
                       "tile. packed_mips: None (every mip in its own tiles) or (num_standard_mips, num_packed_mips, "
                       "num_tiles_for_packed_mips) from D3D12_PACKED_MIP_INFO: the packed mips become opaque subresources "
                       "(subresource_layout(i).packed) that copies and offsets refuse.\n") +
           kFactoryArgs)
              .c_str())
      .def_static(
          "std4k",
          [](py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips, py::handle array, py::handle packed) {
            return build_layout(make_desc(f, w, h, d, mips, array, py::int_(1)), LayoutKind::Std4K, nullptr, py::int_(0),
                                py::int_(0), packed);
          },
          py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(), py::arg("mips") = 1,
          py::arg("array") = 1, py::arg("packed_mips") = py::none(),
          (std::string("std4k(format, width, height, depth=None, mips=1, array=1, packed_mips=None) -> Layout\n\n4KB standard swizzle (Intel TileYf / AMD SW_4KB_S; not a D3D12 API layout); subresources on 4KB tiles. "
                       "packed_mips as for std64k.\n") +
           kFactoryArgs)
              .c_str())
      .def_static(
          "row_major",
          [](py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips, py::handle array, py::handle rp, py::handle dp) {
            return build_layout(make_desc(f, w, h, d, mips, array, py::int_(1)), LayoutKind::RowMajor, nullptr, rp, dp, py::none());
          },
          py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(), py::arg("mips") = 1,
          py::arg("array") = 1, py::arg("row_pitch") = 0, py::arg("depth_pitch") = 0,
          (std::string("row_major(format, width, height, depth=None, mips=1, array=1, row_pitch=0, depth_pitch=0) -> Layout\n\nLinear rows. row_pitch / depth_pitch in bytes; 0 = the default (row bytes aligned up to 256; tight slices); "
                       "subresources on 512-byte boundaries.\n") +
           kFactoryArgs)
              .c_str())
      .def_static(
          "pattern",
          [](py::handle pat, py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips, py::handle array, py::handle rp,
             py::handle dp, py::handle samples) {
            Pattern p = to_pattern(pat);
            return build_layout(make_desc(f, w, h, d, mips, array, samples), LayoutKind::Pattern, &p, rp, dp, py::none());
          },
          py::arg("pattern"), py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(),
          py::arg("mips") = 1, py::arg("array") = 1, py::arg("row_pitch") = 0, py::arg("depth_pitch") = 0, py::arg("samples") = 1,
          (std::string("pattern(pattern, format, width, height, depth=None, mips=1, array=1, row_pitch=0, depth_pitch=0, samples=1) -> Layout\n\nOne parameterized swizzle pattern (swz.Pattern or its text form) for every subresource. row_pitch: bytes "
                       "between rows of blocks; depth_pitch: bytes between slices of blocks, or ROWS for STACK_DEPTH_SLICES "
                       "patterns; 0 = the tightest. Subresources on multiples of the block size. The pattern is validated for the "
                       "format's element size (ValueError).\n") +
           kFactoryArgs)
              .c_str())
      .def_static(
          "from_name",
          [](const std::string& name, py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips, py::handle array,
             py::handle rp, py::handle dp) {
            return layout_from_name(name, make_desc(f, w, h, d, mips, array, py::int_(1)), rp, dp);
          },
          py::arg("name"), py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(), py::arg("mips") = 1,
          py::arg("array") = 1, py::arg("row_pitch") = 0, py::arg("depth_pitch") = 0,
          (std::string("from_name(name, format, width, height, depth=None, mips=1, array=1, row_pitch=0, depth_pitch=0) -> Layout\n\nA layout by its CLI name (swz --layout): 'row-major', 'std64k', 'std4k', 'pattern:TEXT', the path of a "
                       "pattern JSON file, or a vendor layout family such as 'nv-block-linear:gob=tegra,bh=16' when this build has "
                       "them (swz.layout_names()). ValueError for an unknown name, OSError for an unreadable file.\n") +
           kFactoryArgs)
              .c_str())
      .def_static(
          "from_resource_layout_json",
          [](const std::string& json) {
            DeviceLayoutDesc dd;
            Layout L;
            Status st;
            {
              py::gil_scoped_release nogil;  // json is a copy (std::string)
              st = parse_resource_layout_json(json, &dd);
              if (st.ok()) st = make_device_layout(dd, &L);
            }
            check(st);
            return L;
          },
          py::arg("json"),
          "from_resource_layout_json(json: str) -> Layout\n\nA device-dependent layout as a driver reported it (GetResourceLayout: pattern slots, transitions, per-subresource "
          "offsets, strides and pre-swizzle offsets), from the resource-layout JSON text documented in patterns/README.md. "
          "ValueError when malformed.")
      .def_property_readonly("size", &Layout::size, "Bytes the whole resource spans.")
      .def_property_readonly("surface_linear_size", &surface_size,
                             "Bytes of every subresource tightly packed in subresource order (swizzle_surface / deswizzle_surface).")
      .def_property_readonly(
          "surface_linear_offsets",
          [](const Layout& L) {
            std::vector<uint64_t> v;
            check(surface_linear_offsets(L, &v));
            return v;
          },
          "Offset of each subresource in the tightly packed linear side (list of int, subresource order).")
      .def_property_readonly("allocation_size", &Layout::allocation_size,
                             "size rounded up to alignment (GetResourceAllocationInfo's SizeInBytes).")
      .def_property_readonly("alignment", &Layout::alignment, "Alignment of the allocation in bytes (65536, 4096, 512 or the block size).")
      .def_property_readonly("name", &Layout::name, "'std64k', 'std4k', 'row-major', 'pattern', or the vendor / device layout's name.")
      .def_property_readonly("subresource_count", &Layout::subresource_count)
      .def_property_readonly("format", [](const Layout& L) { return L.desc().format; })
      .def_property_readonly("width", [](const Layout& L) { return L.desc().width; }, "Texels (mip 0).")
      .def_property_readonly("height", [](const Layout& L) { return L.desc().height; }, "Texels (mip 0).")
      .def_property_readonly(
          "depth",
          [](const Layout& L) -> py::object {
            if (L.desc().dimension == Dimension::Texture3D) return py::int_(L.desc().depth);
            return py::none();
          },
          "Slices of mip 0 for a 3D texture; None for 2D.")
      .def_property_readonly(
          "dimension", [](const Layout& L) { return L.desc().dimension == Dimension::Texture3D ? 3 : 2; }, "2 or 3.")
      .def_property_readonly("mips", [](const Layout& L) { return L.desc().mip_levels; })
      .def_property_readonly("array", [](const Layout& L) { return L.desc().array_size; })
      .def_property_readonly("samples", [](const Layout& L) { return L.desc().samples; })
      .def_property_readonly("patterns", [](const Layout& L) { return L.patterns(); }, "The layout's patterns (list[swz.Pattern]).")
      .def_property_readonly(
          "dtype", [](const Layout& L) { return np_dtype(default_dtype(L.desc().format).dtype); },
          "numpy dtype deswizzle() returns by default for this format.")
      .def(
          "subresource_layout",
          [](const Layout& L, py::handle i) { return make_sub(L, as_subresource(L, i)); }, py::arg("subresource"),
          "subresource_layout(subresource: int) -> SubresourceLayout\n\nWhere subresource (mip + array_slice * mips) lives. IndexError when it is outside 0..subresource_count-1.")
      .def(
          "subresources",
          [](const Layout& L) {
            std::vector<PySubresource> v;
            for (uint32_t i = 0; i < L.subresource_count(); ++i) v.push_back(make_sub(L, i));
            return v;
          },
          "subresources() -> list[SubresourceLayout]\n\nEvery SubresourceLayout, in subresource-index order.")
      .def(
          "subresource_index",
          [](const Layout& L, uint32_t mip, uint32_t slice) {
            const TextureDesc& d = L.desc();
            if (mip >= d.mip_levels) raise_py(PyExc_IndexError, "mip = " + std::to_string(mip) + " (the texture has " + std::to_string(d.mip_levels) + ")");
            if (slice >= d.array_size)
              raise_py(PyExc_IndexError, "array_slice = " + std::to_string(slice) + " (the texture has " + std::to_string(d.array_size) + ")");
            return calc_subresource(mip, slice, 0, d.mip_levels, d.array_size);
          },
          py::arg("mip"), py::arg("array_slice") = 0,
          "subresource_index(mip: int, array_slice: int = 0) -> int\n\nD3D12CalcSubresource: mip + array_slice * mips.")
      .def(
          "footprints",
          [](const Layout& L, uint64_t base) {
            std::vector<Footprint> v;
            uint64_t total = 0;
            check(copyable_footprints(L.desc(), &v, &total, base));
            return v;
          },
          py::arg("base_offset") = 0,
          "footprints(base_offset: int = 0) -> list[Footprint]\n\nCopyable footprints (GetCopyableFootprints) of every subresource: row pitch aligned to 256 (512 for planar formats), "
          "each placed at the next multiple of 512 after base_offset (bytes).")
      .def(
          "footprints_size",
          [](const Layout& L, uint64_t base) {
            std::vector<Footprint> v;
            uint64_t total = 0;
            check(copyable_footprints(L.desc(), &v, &total, base));
            return total;
          },
          py::arg("base_offset") = 0,
          "footprints_size(base_offset: int = 0) -> int\n\nTotal bytes of the copyable footprints (the upload buffer size).")
      .def("__repr__", &layout_repr);
  }

  // ---- copies ----
  m.def("swizzle", &swizzle, py::arg("array"), py::arg("layout"), py::arg("subresource") = 0, py::arg("box") = py::none(),
        py::arg("out") = py::none(), py::arg("backend") = py::none(), py::arg("threads") = py::none(),
        py::arg("write_combined") = false, "See swz.swizzle.");
  m.def("deswizzle", &deswizzle, py::arg("buffer"), py::arg("layout"), py::arg("subresource") = 0, py::arg("box") = py::none(),
        py::arg("out") = py::none(), py::arg("dtype") = py::none(), py::arg("backend") = py::none(), py::arg("threads") = py::none(),
        "See swz.deswizzle.");
  m.def("swizzle_surface", &swizzle_surface_py, py::arg("linear"), py::arg("layout"), py::arg("out") = py::none(),
        py::arg("linear_offsets") = py::none(), py::arg("backend") = py::none(), py::arg("threads") = py::none(),
        py::arg("write_combined") = false, "See swz.swizzle_surface.");
  m.def("deswizzle_surface", &deswizzle_surface_py, py::arg("buffer"), py::arg("layout"), py::arg("out") = py::none(),
        py::arg("linear_offsets") = py::none(), py::arg("backend") = py::none(), py::arg("threads") = py::none(),
        "See swz.deswizzle_surface.");
  m.def("layout_names", &layout_names,
        "Layout names Layout.from_name accepts: the built-ins, 'pattern:TEXT', 'FILE.json', and the vendor families "
        "(written 'family' or 'family:key=value,...'; see layout_families()).");
  m.def("layout_families", &layout_family_list,
        "The vendor layout families of this build as dicts: name, parameters, description, source (empty when the "
        "library was built without vendor layouts).");
  m.def("backends", &compiled_backends, "Names of the CPU copy backends compiled into this build ('scalar' always).");

  // ---- address maps ----
  m.def("_offsets", &offsets, py::arg("layout"), py::arg("subresource"), py::arg("x"), py::arg("y"), py::arg("z"),
        py::arg("sample"), py::arg("method") = 0,
        "Core of swz.offsets: int64 arrays already broadcast to one shape. method 0 = automatic, 1 = per-axis tables, "
        "2 = the plan's byte tables (for tests).");
  m.def("_pattern_offsets", &pattern_offsets, py::arg("pattern"), py::arg("element_bytes"), py::arg("x_bytes"), py::arg("y"),
        py::arg("z"), py::arg("sample"), py::arg("row_pitch") = 0, py::arg("depth_pitch") = 0,
        "Plan offsets of a bare pattern (x in BYTES) over int64 arrays already broadcast to one shape.");
  m.def("_locate_into", &locate_into, py::arg("layout"), py::arg("offsets"), py::arg("out"),
        "Core of swz.locate: fills a LOCATION_DTYPE record buffer.");
  m.def(
      "reference_offset",
      [](const Pattern& p, uint64_t x_bytes, uint64_t y, uint64_t z, uint64_t sample, uint64_t row_pitch, uint64_t depth_pitch,
         std::array<uint64_t, 3> pre) {
        AddressParams a;
        a.row_pitch = row_pitch;
        a.depth_pitch = depth_pitch;
        for (int i = 0; i < 3; ++i) a.pre_swizzle[i] = pre[static_cast<size_t>(i)];
        return reference_offset(p, x_bytes, y, z, sample, a);
      },
      py::arg("pattern"), py::arg("x_bytes"), py::arg("y"), py::arg("z"), py::arg("sample"), py::arg("row_pitch"),
      py::arg("depth_pitch"), py::arg("pre_swizzle") = std::array<uint64_t, 3>{0, 0, 0},
      "The C++ oracle (the spec's SimpleSwizzle per bit, docs/ARCHITECTURE.md §2): byte offset of byte x_bytes of row y, slice z, sample. "
      "depth_pitch counts rows for STACK_DEPTH_SLICES patterns. For tests.");
  m.attr("LOCATION_ITEMSIZE") = sizeof(LocationRecord);
  swz_py::register_identify(m);
}
