// swz._swz.clear, fill, resolve, encode_clear_value, ALL_SUBRESOURCES
// (swz/clear.hpp): ClearTextureSubresources, FillBuffers and
// ResolveSubresourceRegion on Python buffers (numpy arrays, bytearray, ...).
#include <cmath>
#include <cstring>
#include <string>

#include "py_common.hpp"
#include "swz/clear.hpp"

namespace swz_py {
using namespace swz;

namespace {

/// The value argument: bytes-like of 16 bytes (D3D12_CLEAR_DATA as is), or a
/// sequence of up to 4 numbers read as the member the format takes: floats,
/// or ints (negative ints as two's complement Sints).
ClearValue clear_value(py::handle value, ClearMember member, const char* format_name) {
  if (py::isinstance<py::bytes>(value) || py::isinstance<py::bytearray>(value)) {
    const std::string b = py::reinterpret_borrow<py::object>(value).cast<std::string>();
    if (b.size() != 16)
      raise_py(PyExc_ValueError,
               "value as bytes must be the 16 bytes of D3D12_CLEAR_DATA, not " + std::to_string(b.size()));
    ClearValue v;
    std::memcpy(v.bytes, b.data(), 16);
    return v;
  }
  if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value))
    raise_py(PyExc_TypeError, "value must be a sequence of up to 4 numbers or 16 bytes, not " + type_name(value));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
  if (seq.size() > 4) raise_py(PyExc_ValueError, "value has " + std::to_string(seq.size()) + " components (at most 4)");
  ClearValue v;
  for (size_t i = 0; i < seq.size(); ++i) {
    py::handle x = seq[i];
    if (member == ClearMember::Uints) {
      if (!py::isinstance<py::int_>(x) || py::isinstance<py::bool_>(x))
        raise_py(PyExc_TypeError, std::string("format ") + format_name + " reads D3D12_CLEAR_DATA.Uints: value[" +
                                      std::to_string(i) + "] must be an int, not " + type_name(x));
      const int64_t n = as_int(x, "value component", INT32_MIN, UINT32_MAX);
      const uint32_t u = static_cast<uint32_t>(n);
      std::memcpy(v.bytes + 4 * i, &u, 4);
    } else {
      if (!py::isinstance<py::int_>(x) && !py::isinstance<py::float_>(x) && !py::hasattr(x, "__float__"))
        raise_py(PyExc_TypeError, "value[" + std::to_string(i) + "] must be a number, not " + type_name(x));
      const float f = static_cast<float>(py::float_(py::reinterpret_borrow<py::object>(x)).cast<double>());
      std::memcpy(v.bytes + 4 * i, &f, 4);
    }
  }
  return v;
}

FormatInfo format_or(py::handle format, const FormatInfo& dflt) { return format.is_none() ? dflt : to_format(format); }

ClearMember member_of(const FormatInfo& f, uint32_t plane) {
  uint8_t tmp[16];
  ClearMember m = ClearMember::Floats;
  check(encode_clear_value(f, plane, ClearValue{}, tmp, sizeof tmp, &m));
  return m;
}

Box box_arg(py::handle box) {
  if (!py::isinstance<py::sequence>(box) || py::isinstance<py::str>(box))
    raise_py(PyExc_TypeError,
             "box must be a sequence (left, top, front, right, bottom, back) or (left, top, right, bottom), not " +
                 type_name(box));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(box);
  std::vector<uint32_t> v;
  for (size_t i = 0; i < seq.size(); ++i) v.push_back(as_u32(seq[i], "box coordinate"));
  if (v.size() == 6) return Box{v[0], v[1], v[2], v[3], v[4], v[5]};
  if (v.size() == 4) return Box{v[0], v[1], 0, v[2], v[3], 1};
  raise_py(PyExc_ValueError, "box has " + std::to_string(v.size()) + " entries (expected 4 or 6)");
}

py::object clear(arg::Buffer buffer, const Layout& L, arg::ClearValue value, arg::Subresource subresource,
                 arg::OptBox box, arg::OptFormat format) {
  ClearDesc c;
  c.subresource = as_u32(subresource, "subresource");
  if (c.subresource != kAllSubresources) (void)as_subresource(L, subresource);
  const FormatInfo f = format_or(format, L.desc().format);
  if (!format.is_none()) c.format_dxgi = f.dxgi;
  const uint32_t plane = c.subresource == kAllSubresources ? 0 : L.sub(c.subresource).plane;
  // Planar depth-stencil: the stencil plane reads Uints; with ALL the caller gives floats for depth and
  // an int for the stencil (Uints[1]), so read each number by its own type there.
  ClearMember m = ClearMember::Floats;
  {
    uint8_t tmp[16];
    const Status st = encode_clear_value(f, plane, ClearValue{}, tmp, sizeof tmp, &m);
    if (!st.ok() && st.code() != Code::unsupported) check(st);
    if (!st.ok()) {
      // Let the clear name the refusal (with its descriptor) below.
      m = ClearMember::Floats;
    }
  }
  if (c.subresource == kAllSubresources && f.depth_stencil && f.planes > 1 && !py::isinstance<py::bytes>(value)) {
    // Floats[0] depth, Uints[1] stencil.
    py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
    ClearValue v;
    if (seq.size() > 0) {
      const float d = static_cast<float>(py::float_(py::reinterpret_borrow<py::object>(seq[0])).cast<double>());
      std::memcpy(v.bytes, &d, 4);
    }
    if (seq.size() > 1) {
      const uint32_t s = static_cast<uint32_t>(as_int(seq[1], "stencil value", INT32_MIN, UINT32_MAX));
      std::memcpy(v.bytes + 4, &s, 4);
    }
    c.value = v;
  } else {
    c.value = clear_value(value, m, f.name);
  }
  if (!box.is_none()) {
    c.whole = false;
    c.box = box_arg(box);
  }
  Buffer res;
  res.acquire(buffer, true, "buffer");
  Status st;
  {
    py::gil_scoped_release nogil;
    st = clear_subresources(L, res.data(), res.size(), &c, 1);
  }
  check(st);
  return py::reinterpret_borrow<py::object>(buffer);
}

py::object fill(arg::Buffer buffer, arg::FillValue value, arg::Int repeat_count, arg::Int offset,
                arg::OptInt pattern_bytes, arg::OptFormat format) {
  FillDesc d;
  d.offset_B = as_u64(offset, "offset");
  d.repeat_count = as_u32(repeat_count, "repeat_count");
  if (!format.is_none()) {
    if (!pattern_bytes.is_none())
      raise_py(PyExc_ValueError, "give pattern_bytes (a raw pattern) or format (a formatted value), not both");
    const FormatInfo f = to_format(format);
    d.format_dxgi = f.dxgi;
    if (f.planes > 1 || f.block_width > 1 || f.block_height > 1) {
      d.value = ClearValue{};  // fill_buffers names the refusal
    } else {
      d.value = clear_value(value, member_of(f, 0), f.name);
    }
  } else {
    std::string raw;
    if (py::isinstance<py::bytes>(value) || py::isinstance<py::bytearray>(value)) {
      raw = py::reinterpret_borrow<py::object>(value).cast<std::string>();
    } else if (py::isinstance<py::int_>(value)) {
      raw = std::string(1, static_cast<char>(as_int(value, "value", 0, 255)));
    } else {
      raise_py(PyExc_TypeError,
               "a raw fill value is bytes (the pattern) or an int (one byte), not " + type_name(value));
    }
    if (raw.size() > 16)
      raise_py(PyExc_ValueError, "a raw pattern is at most 16 bytes, not " + std::to_string(raw.size()));
    std::memcpy(d.value.bytes, raw.data(), raw.size());
    d.raw_pattern_bytes =
        pattern_bytes.is_none() ? static_cast<uint32_t>(raw.size()) : as_u32(pattern_bytes, "pattern_bytes");
    if (d.raw_pattern_bytes > raw.size())
      raise_py(PyExc_ValueError, "pattern_bytes = " + std::to_string(d.raw_pattern_bytes) + " but value holds " +
                                     std::to_string(raw.size()) + " bytes");
  }
  Buffer buf;
  buf.acquire(buffer, true, "buffer");
  Status st;
  {
    py::gil_scoped_release nogil;
    st = fill_buffers(buf.data(), buf.size(), &d, 1);
  }
  check(st);
  return py::reinterpret_borrow<py::object>(buffer);
}

py::object resolve(arg::Buffer src_buffer, const Layout& sl, arg::Buffer dst_buffer, const Layout& dl,
                   const std::string& mode, arg::Int src_subresource, arg::Int dst_subresource, arg::OptRect rect,
                   arg::Int dst_x, arg::Int dst_y, arg::OptFormat format) {
  ResolveDesc r;
  if (mode == "average")
    r.mode = ResolveMode::Average;
  else if (mode == "min")
    r.mode = ResolveMode::Min;
  else if (mode == "max")
    r.mode = ResolveMode::Max;
  else
    raise_py(PyExc_ValueError, "mode = '" + mode + "' (expected 'average', 'min' or 'max')");
  r.src_subresource = as_subresource(sl, src_subresource);
  r.dst_subresource = as_subresource(dl, dst_subresource);
  r.dst_x = as_u32(dst_x, "dst_x");
  r.dst_y = as_u32(dst_y, "dst_y");
  if (!format.is_none()) r.format_dxgi = to_format(format).dxgi;
  if (!rect.is_none()) {
    if (!py::isinstance<py::sequence>(rect) || py::isinstance<py::str>(rect))
      raise_py(PyExc_TypeError, "rect must be a sequence (left, top, right, bottom), not " + type_name(rect));
    py::sequence seq = py::reinterpret_borrow<py::sequence>(rect);
    if (seq.size() != 4)
      raise_py(PyExc_ValueError,
               "rect has " + std::to_string(seq.size()) + " entries (expected left, top, right, bottom)");
    r.whole = false;
    r.rect = Rect{as_u32(seq[0], "rect left"), as_u32(seq[1], "rect top"), as_u32(seq[2], "rect right"),
                  as_u32(seq[3], "rect bottom")};
  }
  Buffer src, dst;
  src.acquire(src_buffer, false, "src_buffer");
  dst.acquire(dst_buffer, true, "dst_buffer");
  Status st;
  {
    py::gil_scoped_release nogil;
    st = resolve_subresource(dl, dst.data(), dst.size(), sl, src.data(), src.size(), r);
  }
  check(st);
  return py::reinterpret_borrow<py::object>(dst_buffer);
}

py::bytes encode(arg::Format format, arg::ClearValue value, uint32_t plane) {
  const FormatInfo f = to_format(format);
  ClearMember m = ClearMember::Floats;
  uint8_t tmp[16];
  check(encode_clear_value(f, plane, ClearValue{}, tmp, sizeof tmp, &m));
  const ClearValue v = clear_value(value, m, f.name);
  uint8_t out[16];
  check(encode_clear_value(f, plane, v, out, sizeof out, &m));
  PlaneInfo pi;
  check(plane_info(f, plane, &pi));
  return py::bytes(reinterpret_cast<const char*>(out), pi.element_bytes);
}

}  // namespace

void register_clears(py::module_& m) {
  m.attr("ALL_SUBRESOURCES") = py::int_(kAllSubresources);
  m.def("clear", &clear, py::arg("buffer"), py::arg("layout"), py::arg("value"), py::arg("subresource") = 0,
        py::arg("box") = py::none(), py::arg("format") = py::none(),
        "ClearTextureSubresources: fill `box` (texels; None = the whole subresource) of `subresource` (or\n"
        "swz.ALL_SUBRESOURCES: every subresource and plane) of the laid-out `buffer` (writable, modified in\n"
        "place and returned) with `value`: up to 4 floats (UNORM, SNORM, FLOAT, sRGB formats; converted by the\n"
        "Direct3D data conversion rules), up to 4 ints (UINT, SINT, YUV formats: their low bits), or the 16\n"
        "bytes of D3D12_CLEAR_DATA. `format` reinterprets a TYPELESS resource.\n"
        "Raises ValueError (alignment: BC 4x4, NV12 2x2, YUY2 2x1; unsupported formats such as TYPELESS ones),\n"
        "IndexError (subresource, box outside), TypeError (a float for an integer format).");
  m.def("fill", &fill, py::arg("buffer"), py::arg("value"), py::arg("repeat_count"), py::arg("offset") = 0,
        py::arg("pattern_bytes") = py::none(), py::arg("format") = py::none(),
        "FillBuffers: write a pattern `repeat_count` times from byte `offset` of `buffer` (modified in place\n"
        "and returned). Raw: `value` is bytes (the pattern; its length, or `pattern_bytes` of it: 1, 2, 4, 8,\n"
        "12 or 16). Formatted: `format` and `value` as for clear(). A repetition that does not fit is\n"
        "omitted. Raises ValueError (pattern size, offset not a multiple of the pattern size for 1 and 2\n"
        "bytes or of 4 above), IndexError (offset past the end).");
  m.def("resolve", &resolve, py::arg("src_buffer"), py::arg("src_layout"), py::arg("dst_buffer"), py::arg("dst_layout"),
        py::arg("mode") = "average", py::arg("src_subresource") = 0, py::arg("dst_subresource") = 0,
        py::arg("rect") = py::none(), py::arg("dst_x") = 0, py::arg("dst_y") = 0, py::arg("format") = py::none(),
        "ResolveSubresourceRegion: combine the samples of each texel of `rect` (left, top, right, bottom;\n"
        "None = the whole source) of a multisampled source into (dst_x + x, dst_y + y) of a single-sampled\n"
        "destination (modified in place and returned). mode 'average' (UNORM, SNORM, FLOAT; sRGB in linear\n"
        "light), 'min' or 'max'. Raises ValueError (UINT/SINT average, sample counts, formats), IndexError\n"
        "(rect or destination outside).");
  m.def("encode_clear_value", &encode, py::arg("format"), py::arg("value"), py::arg("plane") = 0,
        "The bytes of one element (texel, BC block, 2x1 pair) of `format` for a clear value (as for clear()).");
}

}  // namespace swz_py
