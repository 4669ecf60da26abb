// swz._swz._offsets, _pattern_offsets, _locate_into, reference_offset: vectorised
// address maps over numpy arrays (swz/address.hpp) and the reference oracle.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "py_common.hpp"
#include "core/plan.hpp"  // internal: the compiled tables

namespace swz_py {
using namespace swz;

namespace {

/// The integer element types coordinate arrays come in (native byte order).
enum class IntType : uint8_t { i8, i16, i32, i64, u8, u16, u32, u64 };

/// Element of type `t` at p, as int64 (uint64 values above 2^63 - 1 are refused
/// before, by swz.offsets).
inline int64_t read_int(IntType t, const char* p) {
  switch (t) {
    case IntType::i8: return *reinterpret_cast<const int8_t*>(p);
    case IntType::i16: return *reinterpret_cast<const int16_t*>(p);
    case IntType::i32: return *reinterpret_cast<const int32_t*>(p);
    case IntType::i64: return *reinterpret_cast<const int64_t*>(p);
    case IntType::u8: return *reinterpret_cast<const uint8_t*>(p);
    case IntType::u16: return *reinterpret_cast<const uint16_t*>(p);
    case IntType::u32: return *reinterpret_cast<const uint32_t*>(p);
    case IntType::u64: return static_cast<int64_t>(*reinterpret_cast<const uint64_t*>(p));
  }
  return 0;
}

template <class T>
void widen_as(const char* p, py::ssize_t stride, py::ssize_t n, int64_t* out) {
  if (stride == static_cast<py::ssize_t>(sizeof(T))) {
    const T* q = reinterpret_cast<const T*>(p);
    for (py::ssize_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(q[i]);
  } else {
    for (py::ssize_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(*reinterpret_cast<const T*>(p + i * stride));
  }
}

/// out[0..n) = the n elements of type `t` at p, `stride` bytes apart, as int64.
void widen(IntType t, const char* p, py::ssize_t stride, py::ssize_t n, int64_t* out) {
  switch (t) {
    case IntType::i8: return widen_as<int8_t>(p, stride, n, out);
    case IntType::i16: return widen_as<int16_t>(p, stride, n, out);
    case IntType::i32: return widen_as<int32_t>(p, stride, n, out);
    case IntType::i64: return widen_as<int64_t>(p, stride, n, out);
    case IntType::u8: return widen_as<uint8_t>(p, stride, n, out);
    case IntType::u16: return widen_as<uint16_t>(p, stride, n, out);
    case IntType::u32: return widen_as<uint32_t>(p, stride, n, out);
    case IntType::u64: return widen_as<uint64_t>(p, stride, n, out);
  }
}

/// Iterates the common shape of n integer arrays (already broadcast to one
/// shape, any strides, element types `types`), calling f(flat_index,
/// values[n]) with the values as int64. Stops when f returns false.
template <size_t N, class F>
void for_each_broadcast(const std::array<py::array, N>& in, const std::array<IntType, N>& types, F&& f) {
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
    for (size_t k = 0; k < N; ++k) v[k] = read_int(types[k], base[k]);
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
    bool all64 = true;
    for (size_t k = 0; k < N; ++k) all64 = all64 && types[k] == IntType::i64;
    if (all64) {
      for (py::ssize_t j = 0; j < inner; ++j, ++flat) {
        for (size_t k = 0; k < N; ++k) v[k] = *reinterpret_cast<const int64_t*>(p[k] + j * st[k]);
        if (!f(flat, v)) return;
      }
    } else {
      // Other types: each array's run is widened to int64 a chunk at a time,
      // by a loop over one type.
      constexpr py::ssize_t kChunk = 512;
      int64_t wide[N][kChunk];
      for (py::ssize_t j0 = 0; j0 < inner; j0 += kChunk) {
        const py::ssize_t m = std::min(kChunk, inner - j0);
        for (size_t k = 0; k < N; ++k) widen(types[k], p[k] + j0 * st[k], st[k], m, wide[k]);
        for (py::ssize_t j = 0; j < m; ++j, ++flat) {
          for (size_t k = 0; k < N; ++k) v[k] = wide[k][j];
          if (!f(flat, v)) return;
        }
      }
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
std::array<py::array, N> int_inputs(const std::array<py::handle, N>& h, std::array<IntType, N>* types) {
  std::array<py::array, N> a;
  for (size_t k = 0; k < N; ++k) {
    if (!py::isinstance<py::array>(h[k])) raise_py(PyExc_TypeError, "internal: expected integer numpy arrays");
    a[k] = py::reinterpret_borrow<py::array>(h[k]);
    const char kind = a[k].dtype().kind();
    const auto size = a[k].dtype().itemsize();
    const int lg = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
    if ((kind != 'i' && kind != 'u') || lg < 0 || !a[k].dtype().attr("isnative").template cast<bool>())
      raise_py(PyExc_TypeError, "internal: expected native integer arrays (swz.offsets converts its inputs)");
    (*types)[k] = static_cast<IntType>((kind == 'u' ? 4 : 0) + lg);
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
py::array offsets(const Layout& L, py::handle subresource, py::handle x, py::handle y, py::handle z, py::handle s,
                  int method) {
  const uint32_t sub = as_subresource(L, subresource);
  std::array<IntType, 4> types;
  auto in = int_inputs<4>({x, y, z, s}, &types);
  std::vector<py::ssize_t> shape(in[0].shape(), in[0].shape() + in[0].ndim());
  py::array_t<uint64_t> out(shape);
  uint64_t* o = out.mutable_data();
  const auto n = static_cast<uint64_t>(out.size());
  AddressMap map;
  Status built;
  {
    py::gil_scoped_release nogil;
    const AddressMap::Method m = method == 1   ? AddressMap::Method::AxisTables
                                 : method == 2 ? AddressMap::Method::Plan
                                               : AddressMap::Method::Automatic;
    built = AddressMap::make(L, sub, &map, n, m);
  }
  check(built);
  const uint64_t* limit = map.limits();
  int bad_coord = -1;
  size_t bad_index = 0;
  int64_t bad_value = 0;
  {
    py::gil_scoped_release nogil;
    for_each_broadcast<4>(in, types, [&](size_t i, const int64_t* v) {
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
    raise_py(
        PyExc_IndexError,
        std::string(kCoordNames[bad_coord]) + " = " + std::to_string(bad_value) + " at flat index " +
            std::to_string(bad_index) + " is out of range: subresource " + std::to_string(sub) + " is " +
            std::to_string(limit[bad_coord]) + " " + what[bad_coord] +
            (bad_coord == 0 && L.desc().format.block_compressed() ? " (x, y count 4x4 blocks for BC formats)" : ""));
  }
  return out;
}

/// Offsets of a bare pattern for one element size (swz.order_image): x in
/// BYTES, no range checks beyond non-negative coordinates.
py::array pattern_offsets(const Pattern& p, uint32_t element_bytes, py::handle x, py::handle y, py::handle z,
                          py::handle s, uint64_t row_pitch_B, uint64_t depth_pitch_B) {
  std::shared_ptr<const Plan> plan;
  check(Plan::compile(p, element_bytes, &plan));
  std::array<IntType, 4> types;
  auto in = int_inputs<4>({x, y, z, s}, &types);
  std::vector<py::ssize_t> shape(in[0].shape(), in[0].shape() + in[0].ndim());
  py::array_t<uint64_t> out(shape);
  uint64_t* o = out.mutable_data();
  bool negative = false;
  {
    py::gil_scoped_release nogil;
    for_each_broadcast<4>(in, types, [&](size_t i, const int64_t* v) {
      if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0) {
        negative = true;
        return false;
      }
      o[i] = plan->offset(static_cast<uint64_t>(v[0]), static_cast<uint64_t>(v[1]), static_cast<uint64_t>(v[2]),
                          static_cast<uint64_t>(v[3]), row_pitch_B, depth_pitch_B);
      return true;
    });
  }
  if (negative) raise_py(PyExc_ValueError, "coordinates must be >= 0");
  return out;
}

// swz.locate's records are swz::Location itself: LOCATION_DTYPE in
// python/swz/__init__.py gives each field its offset here.
static_assert(std::is_standard_layout_v<Location> && std::is_trivially_copyable_v<Location> && sizeof(Location) == 28 &&
                  offsetof(Location, padding) == 0 && offsetof(Location, packed) == 1 &&
                  offsetof(Location, subresource) == 4 && offsetof(Location, x) == 8 && offsetof(Location, y) == 12 &&
                  offsetof(Location, z) == 16 && offsetof(Location, sample) == 20 && offsetof(Location, byte) == 24,
              "LOCATION_DTYPE layout");

void locate_into(const Layout& L, py::handle offsets_h, py::handle out_h) {
  py::array offs = py::reinterpret_borrow<py::array>(offsets_h);
  if (!py::isinstance<py::array>(offsets_h) || offs.dtype().kind() != 'i' || offs.dtype().itemsize() != 8 ||
      !(offs.flags() & py::array::c_style))
    raise_py(PyExc_TypeError, "internal: offsets must be a C-contiguous int64 array");
  Buffer out;
  out.acquire(out_h, true, "out");
  const auto n = static_cast<size_t>(offs.size());
  if (out.size() != n * sizeof(Location)) raise_py(PyExc_ValueError, "internal: record buffer size mismatch");
  const int64_t* in = static_cast<const int64_t*>(offs.data());
  auto* rec = reinterpret_cast<Location*>(out.data());
  Status bad;
  {
    py::gil_scoped_release nogil;
    Locator locator;
    bad = Locator::make(L, &locator);  // the search bases and inverse tables, built once for the whole call
    const bool made = bad.ok();
    // int64 >= 0 read as uint64: the same values; a negative one reads as 2^63 or more, past the
    // end of any resource, so locate stops there and no pass over the offsets is needed first.
    if (made) bad = locator.locate(reinterpret_cast<const uint64_t*>(in), n, rec);
    if (made && !bad.ok()) {  // the error of the first negative offset, if any, as when they were checked first
      for (size_t i = 0; i < n; ++i)
        if (in[i] < 0) {
          bad = {Code::out_of_range, "offset = " + std::to_string(in[i]) + " is negative" +
                                         (n > 1 ? " (at flat index " + std::to_string(i) + ")" : "")};
          break;
        }
    }
  }
  if (!bad.ok()) raise_status(bad);
}

}  // namespace

void register_addressing(py::module_& m) {
  // ---- address maps ----
  m.def("_offsets", &offsets, py::arg("layout"), py::arg("subresource"), py::arg("x"), py::arg("y"), py::arg("z"),
        py::arg("sample"), py::arg("method") = 0,
        "Core of swz.offsets: int64 arrays already broadcast to one shape. method 0 = automatic, 1 = per-axis tables, "
        "2 = the plan's byte tables (for tests).");
  m.def("_pattern_offsets", &pattern_offsets, py::arg("pattern"), py::arg("element_bytes"), py::arg("x_bytes"),
        py::arg("y"), py::arg("z"), py::arg("sample"), py::arg("row_pitch") = 0, py::arg("depth_pitch_B") = 0,
        "Plan offsets of a bare pattern (x in BYTES; pitches in bytes, no depth stacking) over int64 arrays already "
        "broadcast to one shape.");
  m.def("_locate_into", &locate_into, py::arg("layout"), py::arg("offsets"), py::arg("out"),
        "Core of swz.locate: fills a LOCATION_DTYPE record buffer.");
  m.def(
      "reference_offset",
      [](const Pattern& p, uint64_t x_bytes, uint64_t y, uint64_t z, uint64_t sample, uint64_t row_pitch,
         uint64_t depth_pitch_B, std::array<uint64_t, 3> pre, uint64_t stack_rows) {
        AddressParams a;
        a.row_pitch = row_pitch;
        a.depth_pitch_B = depth_pitch_B;
        a.stack_rows = stack_rows;
        for (int i = 0; i < 3; ++i) a.pre_swizzle[i] = pre[static_cast<size_t>(i)];
        return reference_offset(p, x_bytes, y, z, sample, a);
      },
      py::arg("pattern"), py::arg("x_bytes"), py::arg("y"), py::arg("z"), py::arg("sample"), py::arg("row_pitch"),
      py::arg("depth_pitch_B"), py::arg("pre_swizzle") = std::array<uint64_t, 3>{0, 0, 0}, py::arg("stack_rows") = 0,
      "The C++ oracle (the spec's SimpleSwizzle per bit, docs/ARCHITECTURE.md §2): byte offset of byte x_bytes of row "
      "y, slice z, sample. "
      "depth_pitch_B: bytes between slices of blocks (ignored by STACK_DEPTH_SLICES patterns); stack_rows: rows "
      "between stacked depth slices (STACK_DEPTH_SLICES patterns only); pre_swizzle: X bytes, Y rows, Z slices. For "
      "tests.");
  m.attr("LOCATION_ITEMSIZE") = sizeof(Location);
}

}  // namespace swz_py
