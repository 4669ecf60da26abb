// swz._swz.Layout: the factories (std64k, std4k, row_major, pattern, from_name,
// from_resource_layout_json). Queries: layout_query_bindings.cpp.
#include <string>

#include "py_common.hpp"
#include "swz/device_layout.hpp"
#include "swz/layout_names.hpp"
#include "swz/vendor.hpp"

namespace swz_py {
using namespace swz;

namespace {

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
      raise_py(PyExc_ValueError, "mips = '" + mips.cast<std::string>() + "' (an integer >= 1, or 0 or 'full')");
    d.mip_levels = 0;  // TextureDesc's full chain
  } else {
    // 0 is the full chain, as D3D12_RESOURCE_DESC's MipLevels.
    d.mip_levels = as_u32(mips, "mips");
  }
  return d;
}

/// The depth arguments of the factories: the explicit depth_pitch_B (bytes)
/// and stack_rows (rows), or the older one-number depth_pitch, read as rows
/// when the pattern stacks depth slices and as bytes otherwise.
struct DepthArgs {
  py::handle depth_pitch, depth_pitch_B, stack_rows;
  void apply(bool stacked, uint64_t* dp_B, uint64_t* rows) const {
    const uint64_t one = as_u64(depth_pitch, "depth_pitch");
    *dp_B = as_u64(depth_pitch_B, "depth_pitch_B");
    *rows = as_u64(stack_rows, "stack_rows");
    if (one && (*dp_B || *rows))
      raise_py(PyExc_ValueError, "depth_pitch = " + std::to_string(one) +
                                     " with depth_pitch_B or stack_rows: give the explicit forms, or the one "
                                     "number, not both");
    if (one) (stacked ? *rows : *dp_B) = one;
  }
};

Layout build_layout(const TextureDesc& d, LayoutKind kind, const Pattern* pattern, py::handle row_pitch,
                    const DepthArgs& depth, py::handle packed_mips) {
  LayoutSpec spec;
  spec.kind = kind;
  if (pattern) spec.pattern = *pattern;
  spec.row_pitch_B = as_u64(row_pitch, "row_pitch");
  depth.apply(pattern && pattern->stack_depth_slices(), &spec.depth_pitch_B, &spec.stack_rows);
  if (!packed_mips.is_none()) {
    if (!py::isinstance<py::sequence>(packed_mips) || py::len(packed_mips) != 3)
      raise_py(PyExc_TypeError,
               "packed_mips must be None or (num_standard_mips, num_packed_mips, num_tiles_for_packed_mips), "
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
Layout layout_from_name(const std::string& name, const TextureDesc& d, py::handle row_pitch, const DepthArgs& depth) {
  LayoutName n;
  Status st = LayoutName::parse(name, &n);
  if (!st.ok()) raise_py(st.code() == Code::io_error ? PyExc_OSError : PyExc_ValueError, st.message());
  LayoutOptions opt;
  opt.row_pitch_B = as_u64(row_pitch, "row_pitch");
  depth.apply(n.pattern() && n.pattern()->stack_depth_slices(), &opt.depth_pitch_B, &opt.stack_rows);
  if (!n.takes_options() && (opt.row_pitch_B || opt.depth_pitch_B || opt.stack_rows))
    raise_py(PyExc_ValueError, "row_pitch / depth_pitch / depth_pitch_B / stack_rows do not apply to layout '" + name +
                                   "' (it places its own levels)");
  Layout L;
  {
    py::gil_scoped_release nogil;
    st = n.make(d, opt, &L);  // a resource-layout file ignores d: it fixes its own texture
  }
  check(st);
  return L;
}

/// The library's listing (swz::layout_listing) with the hardware families moved
/// last: built-ins, 'pattern:TEXT', 'FILE.json', then the families.
std::vector<std::string> layout_names() {
  std::vector<std::string> v;
  for (const LayoutListing& l : layout_listing())
    if (!is_named_layout(l.name)) v.push_back(l.name);
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

}  // namespace

void register_layouts(py::module_& m) {
  // ---- Layout ----
  const char* kFactoryArgs = R"doc(
format: DXGI name (str), DXGI_FORMAT value (int) or swz.Format.
width, height: texels. depth: None for a 2D texture; an int (even 1) makes a
3D texture, as 'WxHxD' does in the CLI. mips: mip levels (>= 1), or 0 or
'full' for the full chain (D3D12_RESOURCE_DESC's MipLevels = 0).
array: array slices (2D only). Raises ValueError naming the field at fault
(zero sizes, too many mips, non-power-of-two elements for swizzled layouts,
MSAA with standard swizzle, ...), OverflowError when sizes overflow 64 bits.)doc";
  {
    // The factories take loosely typed arguments (format names or values,
    // depth None or int, mips int or 'full'): write their signatures by hand.
    py::options sig;
    sig.disable_function_signatures();
    py::class_<Layout> cls(m, "Layout", R"doc(A laid-out texture: where every subresource (mip x array slice) lives.

Create with Layout.std64k / std4k / row_major / pattern / from_name. Immutable;
safe to share between threads.)doc");
    cls.def_static(
           "std64k",
           [](py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips, py::handle array,
              py::handle packed) {
             return build_layout(make_desc(f, w, h, d, mips, array, py::int_(1)), LayoutKind::Std64K, nullptr,
                                 py::int_(0), DepthArgs{py::int_(0), py::int_(0), py::int_(0)}, packed);
           },
           py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(), py::arg("mips") = 1,
           py::arg("array") = 1, py::arg("packed_mips") = py::none(),
           (std::string(
                "std64k(format, width, height, depth=None, mips=1, array=1, packed_mips=None) -> Layout\n\nD3D12 64KB "
                "standard swizzle (D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE); every subresource starts on a 64KB "
                "tile. packed_mips: None (every mip in its own tiles) or (num_standard_mips, num_packed_mips, "
                "num_tiles_for_packed_mips) from D3D12_PACKED_MIP_INFO: the packed mips become opaque subresources "
                "(subresource_layout(i).packed) that copies and offsets refuse.\n") +
            kFactoryArgs)
               .c_str())
        .def_static(
            "std4k",
            [](py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips, py::handle array,
               py::handle packed) {
              return build_layout(make_desc(f, w, h, d, mips, array, py::int_(1)), LayoutKind::Std4K, nullptr,
                                  py::int_(0), DepthArgs{py::int_(0), py::int_(0), py::int_(0)}, packed);
            },
            py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(), py::arg("mips") = 1,
            py::arg("array") = 1, py::arg("packed_mips") = py::none(),
            (std::string(
                 "std4k(format, width, height, depth=None, mips=1, array=1, packed_mips=None) -> Layout\n\n4KB "
                 "standard swizzle (Intel TileYf / AMD SW_4KB_S; not a D3D12 API layout); subresources on 4KB tiles. "
                 "packed_mips as for std64k.\n") +
             kFactoryArgs)
                .c_str())
        .def_static(
            "row_major",
            [](py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips, py::handle array, py::handle rp,
               py::handle dp, py::handle dp_B) {
              return build_layout(make_desc(f, w, h, d, mips, array, py::int_(1)), LayoutKind::RowMajor, nullptr, rp,
                                  DepthArgs{dp, dp_B, py::int_(0)}, py::none());
            },
            py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(), py::arg("mips") = 1,
            py::arg("array") = 1, py::arg("row_pitch") = 0, py::arg("depth_pitch") = 0, py::arg("depth_pitch_B") = 0,
            (std::string("row_major(format, width, height, depth=None, mips=1, array=1, row_pitch=0, depth_pitch=0, "
                         "depth_pitch_B=0) -> Layout\n\nLinear rows. row_pitch / depth_pitch_B in bytes (depth_pitch "
                         "is the older name of depth_pitch_B); 0 = the default (row bytes aligned up to 256; tight "
                         "slices); subresources on 512-byte boundaries.\n") +
             kFactoryArgs)
                .c_str())
        .def_static(
            "pattern",
            [](py::handle pat, py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips,
               py::handle array, py::handle rp, py::handle dp, py::handle samples, py::handle dp_B, py::handle rows) {
              Pattern p = to_pattern(pat);
              return build_layout(make_desc(f, w, h, d, mips, array, samples), LayoutKind::Pattern, &p, rp,
                                  DepthArgs{dp, dp_B, rows}, py::none());
            },
            py::arg("pattern"), py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(),
            py::arg("mips") = 1, py::arg("array") = 1, py::arg("row_pitch") = 0, py::arg("depth_pitch") = 0,
            py::arg("samples") = 1, py::arg("depth_pitch_B") = 0, py::arg("stack_rows") = 0,
            (std::string(
                 "pattern(pattern, format, width, height, depth=None, mips=1, array=1, row_pitch=0, depth_pitch=0, "
                 "samples=1, depth_pitch_B=0, stack_rows=0) -> Layout\n\nOne parameterized swizzle pattern "
                 "(swz.Pattern or its text form) for every subresource. row_pitch: bytes between rows of blocks; "
                 "depth_pitch_B: bytes between slices of blocks; stack_rows: rows between depth slices of a "
                 "STACK_DEPTH_SLICES pattern (which refuses depth_pitch_B); depth_pitch: the older one-number form "
                 "(stack_rows for STACK_DEPTH_SLICES patterns, depth_pitch_B otherwise); 0 = the tightest. "
                 "Subresources on multiples of the block size. The pattern is validated for the format's element "
                 "size (ValueError).\n") +
             kFactoryArgs)
                .c_str())
        .def_static(
            "from_name",
            [](const std::string& name, py::handle f, py::handle w, py::handle h, py::handle d, py::handle mips,
               py::handle array, py::handle rp, py::handle dp, py::handle dp_B, py::handle rows) {
              return layout_from_name(name, make_desc(f, w, h, d, mips, array, py::int_(1)), rp,
                                      DepthArgs{dp, dp_B, rows});
            },
            py::arg("name"), py::arg("format"), py::arg("width"), py::arg("height"), py::arg("depth") = py::none(),
            py::arg("mips") = 1, py::arg("array") = 1, py::arg("row_pitch") = 0, py::arg("depth_pitch") = 0,
            py::arg("depth_pitch_B") = 0, py::arg("stack_rows") = 0,
            (std::string(
                 "from_name(name, format, width, height, depth=None, mips=1, array=1, row_pitch=0, depth_pitch=0, "
                 "depth_pitch_B=0, stack_rows=0) -> Layout\n\nPitches as for Layout.pattern. A layout by its CLI name "
                 "(swz --layout): 'row-major', 'std64k', 'std4k', 'pattern:TEXT', "
                 "the path of a "
                 "pattern JSON file, or a vendor layout family such as 'nv-block-linear:gob=tegra,bh=16' when this "
                 "build has "
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
            "from_resource_layout_json(json: str) -> Layout\n\nA device-dependent layout as a driver reported it "
            "(GetResourceLayout: pattern slots, transitions, per-subresource "
            "offsets, strides and pre-swizzle offsets), from the resource-layout JSON text documented in "
            "patterns/README.md. "
            "ValueError when malformed.");
    add_layout_queries(cls);  // properties and queries, under the same signature options
  }
  m.def("layout_names", &layout_names,
        "Layout names Layout.from_name accepts: the built-ins, 'pattern:TEXT', 'FILE.json', and the vendor families "
        "(written 'family' or 'family:key=value,...'; see layout_families()).");
  m.def("layout_families", &layout_family_list,
        "The vendor layout families of this build as dicts: name, parameters, description, source (empty when the "
        "library was built without vendor layouts).");
}

}  // namespace swz_py
