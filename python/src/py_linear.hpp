// Linear numpy arrays of the copy bindings: the element box of a copy, the
// shape and dtype checks, copy options (python/src/py_linear.cpp).
#pragma once
#include <vector>

#include "py_common.hpp"

namespace swz_py {

/// A subresource as Python sees it: the C++ struct plus what it needs to be
/// useful on its own (pattern, format, sample count).
struct PySubresource {
  swz::SubresourceLayout s;
  swz::Pattern pattern;
  swz::FormatInfo format;
  uint32_t samples = 1;
  bool is3d = false;
};

PySubresource make_sub(const swz::Layout& L, uint32_t i);

/// The element box of one copy: origin and extent in elements, and whether the
/// texture is 3D (then arrays carry a leading depth axis).
struct Extent {
  uint32_t w = 0, h = 0, d = 0;
  uint32_t eb = 0;
  bool is3d = false;
  bool empty = false;
  swz::Box box{};
  bool has_box = false;
};

/// The box argument (None, 4 or 6 texel coordinates) of subresource `sub`, in
/// elements through swz::to_element_box.
Extent resolve_extent(const swz::Layout& L, uint32_t sub, py::handle box);
/// Shape of a linear array of the extent: (H, W, C) or (D, H, W, C).
std::vector<py::ssize_t> expected_shape(const Extent& e, uint32_t channels);
/// Checks dtype and shape of a linear array against the extent. `role` names
/// it in messages ("array", "out").
void check_linear(const py::array& a, const Extent& e, const swz::Layout& L, uint32_t sub, const char* role);
/// The backend= / threads= / write_combined= arguments.
swz::CopyOptions copy_options(py::handle backend, py::handle threads, bool write_combined);
/// A C-contiguous, native-byte-order version of a linear input array (a copy only when needed).
py::array contiguous_input(py::handle obj);

/// True when `dt` is in the machine's byte order (every field of a structured dtype).
bool native_dtype(const py::dtype& dt);

}  // namespace swz_py
