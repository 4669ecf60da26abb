// Shared helpers of the swz._swz bindings (python/src/*_bindings.cpp):
// Status -> Python exceptions, argument conversions, buffer exports, default
// numpy dtypes. Contract of the module: python/swz/_swz.pyi and README.md "Python".
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
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>

#include "py_args.hpp"
#include "swz/swz.hpp"

namespace swz_py {

namespace py = pybind11;

// ---- errors -----------------------------------------------------------------

[[noreturn]] void raise_py(PyObject* type, const std::string& msg);
/// Raises the Python exception for a failed Status (see the file comment).
[[noreturn]] void raise_status(const swz::Status& s);
/// Raises for a failed Status; returns otherwise.
void check(const swz::Status& s);
/// The Python type name of h, for messages.
std::string type_name(py::handle h);

// ---- small conversions --------------------------------------------------------

/// A Python int in [lo, hi], else ValueError / TypeError naming `what`.
int64_t as_int(py::handle h, const char* what, int64_t lo, int64_t hi);
uint32_t as_u32(py::handle h, const char* what, int64_t lo = 0);
uint64_t as_u64(py::handle h, const char* what);
/// Subresource index: IndexError when outside the layout.
uint32_t as_subresource(const swz::Layout& L, py::handle h);
/// A swz.Format, a DXGI name (str) or a DXGI_FORMAT value (int).
swz::FormatInfo to_format(py::handle h);
/// A swz.Pattern or its text form (str).
swz::Pattern to_pattern(py::handle h);

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
  void acquire(py::handle obj, bool writable, const std::string& what);
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

/// The dtype and channel count deswizzle returns for a format by default.
DefaultDtype default_dtype(const swz::FormatInfo& f);
py::dtype np_dtype(const std::string& s);
/// The format of subresource i's plane (planar formats: the plane's format,
/// e.g. R8G8_TYPELESS for NV12 plane 1).
swz::FormatInfo sub_format(const swz::Layout& L, uint32_t i);
/// Bytes of every subresource tightly packed (swz::surface_linear_bytes).
uint64_t surface_size(const swz::Layout& L);

// ---- registration (one function per topic, called by swz_module.cpp) --------------

void register_formats(py::module_& m);           // format_bindings.cpp
void register_patterns(py::module_& m);          // pattern_bindings.cpp
void register_subresources(py::module_& m);      // subresource_bindings.cpp: Footprint, SubresourceLayout
void register_layouts(py::module_& m);           // layout_bindings.cpp (+ layout_query_bindings.cpp)
void register_copies(py::module_& m);            // copy_bindings.cpp
void register_addressing(py::module_& m);        // address_bindings.cpp
void register_identify(py::module_& m);          // identify_bindings.cpp
void register_region_copies(py::module_& m);     // region_bindings.cpp: copy_regions, copy_tiles
void register_footprint_copies(py::module_& m);  // footprint_bindings.cpp: placed footprints, copy_resources
void register_clears(py::module_& m);            // clear_bindings.cpp: clear, fill, resolve, encode_clear_value
void register_decodes(py::module_& m);           // decode_bindings.cpp: decode

/// The Layout queries (properties, subresources, footprints, repr): layout_query_bindings.cpp.
void add_layout_queries(py::class_<swz::Layout>& cls);

}  // namespace swz_py
