// swz._swz.Pattern (swz/pattern.hpp): text, JSON and DDI forms, validation, block shape.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "py_common.hpp"

namespace swz_py {
using namespace swz;

namespace {

py::bytes ddi_bytes(const Pattern& p, bool legacy) {
  std::vector<uint8_t> b;
  if (legacy)
    check(to_ddi_bytes_legacy(p, &b));
  else
    b = to_ddi_bytes_0022(p);
  return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
}

Pattern pattern_from_ddi(arg::Buffer obj) {
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
    if (e.valid)
      l.append(py::make_tuple(std::string(1, "XYZS"[e.channel & 3]), e.bit));
    else
      l.append(py::none());
  }
  return l;
}

}  // namespace

void register_patterns(py::module_& m) {
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
           py::arg("text") = py::none(),
           "Parses the text form (ValueError when malformed); no argument: the empty pattern.")
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
          "Parses the JSON form {\"bits\": [\"X0\", ...], \"postamble\": {\"8\": \"Y4^X9\"}, \"immediate\": \"0x0\", "
          "\"flags\": [...]} "
          "(patterns/README.md), plus the metadata keys name, description, source. ValueError on malformed JSON "
          "or a key it does not know (naming it).")
      .def_static("from_ddi_bytes", &pattern_from_ddi, py::arg("data"),
                  "Parses raw DDI bytes (any bytes-like object): 232 bytes = D3D12DDI_SWIZZLE_PATTERN_DESC_0022 / WDDM "
                  "2.2 form; "
                  "104 bytes = the older D3D12DDI_SWIZZLE_PATTERN_DESC. ValueError for any other length.")
      .def_static(
          "standard",
          [](const std::string& kind, uint32_t element_bytes, int dimension) {
            LayoutKind k;
            if (kind == "std64k")
              k = LayoutKind::Std64K;
            else if (kind == "std4k")
              k = LayoutKind::Std4K;
            else
              raise_py(PyExc_ValueError, "kind = '" + kind + "' (expected 'std64k' or 'std4k')");
            if (dimension != 2 && dimension != 3)
              raise_py(PyExc_ValueError, "dimension = " + std::to_string(dimension) + " (2 or 3)");
            Pattern p;
            check(standard_swizzle_pattern(k, dimension == 3 ? Dimension::Texture3D : Dimension::Texture2D,
                                           element_bytes, &p));
            return p;
          },
          py::arg("kind") = "std64k", py::arg("element_bytes") = 4, py::arg("dimension") = 2,
          "The built-in standard-swizzle pattern: kind 'std64k' or 'std4k', element_bytes 1, 2, 4, 8 or 16, dimension "
          "2 or 3.")
      .def(
          "to_text", [](const Pattern& p) { return to_text(p); }, "The text form (parses back to an equal Pattern).")
      .def(
          "to_json", [](const Pattern& p) { return to_json(p); }, "The JSON form (str).")
      .def("to_ddi_bytes", &ddi_bytes, py::arg("legacy") = false,
           "The DDI struct as bytes: 232 bytes (D3D12DDI_SWIZZLE_PATTERN_DESC_0022), or with legacy=True the 104-byte "
           "D3D12DDI_SWIZZLE_PATTERN_DESC (ValueError when the pattern uses XOR3/XOR4 chains or postamble entries).")
      .def(
          "validate", [](const Pattern& p, uint32_t eb) { check(validate(p, eb)); }, py::arg("element_bytes") = 1,
          "Checks the pattern for elements of element_bytes bytes (1, 2, 4, 8, 16; 1 checks only the "
          "element-independent rules). "
          "Returns None; raises ValueError with a message naming the field, index and value at fault.")
      .def(
          "is_valid", [](const Pattern& p, uint32_t eb) { return validate(p, eb).ok(); }, py::arg("element_bytes") = 1,
          "True when validate(element_bytes) would not raise.")
      .def_property_readonly("block_bits", &Pattern::block_bits,
                             "n, the number of valid interleave entries: the block holds 2**n bytes.")
      .def_property_readonly(
          "block_bytes", [](const Pattern& p) { return uint64_t{1} << p.block_bits(); },
          "Bytes in one block (2**block_bits).")
      .def_property_readonly("block_extent", &block_extent,
                             "Block extent per channel as (x_bytes, y_rows, z_slices, samples): 2**(number of "
                             "primaries from that channel).")
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
          "Block shape in ELEMENTS as a numpy-style shape: (rows, columns) for 2D, (slices, rows, columns) when the "
          "pattern has Z bits.")
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
      .def("__eq__",
           [](const Pattern& a, py::object b) { return py::isinstance<Pattern>(b) && a == b.cast<Pattern>(); })
      .def("__hash__", [](const Pattern& p) { return py::hash(ddi_bytes(p, false)); })
      .def(py::pickle([](const Pattern& p) { return ddi_bytes(p, false); },
                      [](py::bytes b) { return pattern_from_ddi(b); }));
}

}  // namespace swz_py
