// swz._swz.decode (swz/decode.hpp): texels of any decodable format to an
// (H, W, 4) numpy array of RGBA8 view pixels or RGBA32F shader values.
#include <string>

#include "py_common.hpp"
#include "swz/decode.hpp"

namespace swz_py {
using namespace swz;

namespace {

template <class E>
E pick(const std::string& v, const char* what, std::initializer_list<std::pair<const char*, E>> names) {
  std::string list;
  for (const auto& [n, e] : names) {
    if (v == n) return e;
    list += list.empty() ? std::string("'") + n + "'" : std::string(", '") + n + "'";
  }
  raise_py(PyExc_ValueError, std::string(what) + " = '" + v + "' is not one of " + list);
}

}  // namespace

void register_decodes(py::module_& m) {
  m.def(
      "decode",
      [](py::handle data, py::handle format, py::handle width, py::handle height, py::handle row_pitch,
         bool float32, const std::string& channel, double exposure, const std::string& tone_map,
         const std::string& yuv_matrix, bool yuv_full_range, bool stencil, const std::string& byte_order,
         py::handle palette, py::handle palette_format, py::handle chroma_offset) {
        LinearImage img;
        img.format = to_format(format);
        img.width_px = as_u32(width, "width", 1);
        img.height_px = as_u32(height, "height", 1);
        img.row_pitch_B = as_u64(row_pitch, "row_pitch");
        img.chroma_offset_B = as_u64(chroma_offset, "chroma_offset");
        DecodeOptions o;
        o.channel = pick<ViewChannel>(channel, "channel",
                                      {{"rgba", ViewChannel::rgba}, {"rgb", ViewChannel::rgb}, {"r", ViewChannel::r},
                                       {"g", ViewChannel::g}, {"b", ViewChannel::b}, {"a", ViewChannel::a}});
        o.exposure_ev = exposure;
        o.tone_map = pick<ToneMap>(tone_map, "tone_map", {{"clamp", ToneMap::clamp}, {"reinhard", ToneMap::reinhard}});
        o.yuv_matrix = pick<YuvMatrix>(yuv_matrix, "yuv_matrix", {{"bt601", YuvMatrix::bt601}, {"bt709", YuvMatrix::bt709}});
        o.yuv_full_range = yuv_full_range;
        o.stencil = stencil;
        o.byte_order = pick<ByteOrder>(byte_order, "byte_order", {{"little", ByteOrder::little},
                                                                  {"swap16", ByteOrder::swap16},
                                                                  {"swap32", ByteOrder::swap32}});
        check(check_decodable(img.format));
        Buffer pal_buf;
        LinearImage pal;
        if (!palette.is_none()) {
          pal.format = to_format(palette_format);
          pal_buf.acquire(palette, false, "palette");
          if (pal.format.element_bytes == 0 || pal_buf.size() % pal.format.element_bytes)
            raise_py(PyExc_ValueError, "palette has " + std::to_string(pal_buf.size()) + " bytes, not a whole number of " +
                                           pal.format.name + " entries");
          const uint64_t n = pal_buf.size() / pal.format.element_bytes;
          if (n == 0 || n > 65536) raise_py(PyExc_ValueError, "palette has " + std::to_string(n) + " entries; 1..65536 allowed");
          pal.width_px = static_cast<uint32_t>(n);
          pal.height_px = 1;
          pal.data = pal_buf.data();
          pal.size_B = pal_buf.size();
          o.palette = &pal;
        }
        Buffer in;
        in.acquire(data, false, "data");
        img.data = in.data();
        img.size_B = in.size();
        check(check_decode_input(img, o));  // before the output is allocated
        const py::ssize_t h = img.height_px, w = img.width_px;
        // The (H, W, 4) array of T that decode fills, the GIL released meanwhile.
        auto run = [&](auto tag, auto decode) {
          using T = decltype(tag);
          py::array_t<T> out({h, w, py::ssize_t{4}});
          T* dst = out.mutable_data();
          const uint64_t n = static_cast<uint64_t>(out.nbytes());
          Status s;
          {
            py::gil_scoped_release nogil;
            s = decode(img, o, dst, n, 0);
          }
          check(s);
          return py::object(out);
        };
        return float32 ? run(float{}, decode_rgba32f) : run(uint8_t{}, decode_rgba8);
      },
      py::arg("data"), py::arg("format"), py::arg("width"), py::arg("height"), py::kw_only(),
      py::arg("row_pitch") = 0, py::arg("float32") = false, py::arg("channel") = "rgba", py::arg("exposure") = 0.0,
      py::arg("tone_map") = "clamp", py::arg("yuv_matrix") = "bt709", py::arg("yuv_full_range") = false,
      py::arg("stencil") = false, py::arg("byte_order") = "little", py::arg("palette") = py::none(),
      py::arg("palette_format") = "R8G8B8A8_UNORM", py::arg("chroma_offset") = 0,
      R"doc(decode(data, format, width, height, *, row_pitch=0, float32=False, channel='rgba', exposure=0.0,
       tone_map='clamp', yuv_matrix='bt709', yuv_full_range=False, stencil=False, byte_order='little',
       palette=None, palette_format='R8G8B8A8_UNORM', chroma_offset=0) -> numpy.ndarray

Decodes a linear image (rows of elements: texels, or 4x4 blocks for BC
formats, row_pitch bytes apart, 0 for tight rows) into pixels, shape
(height, width, 4):
- float32=False: uint8 RGBA to look at. UNORM maps to round(v * 255), sRGB
  formats keep their stored values, SNORM maps -1..1 to 0..255, float data is
  scaled by 2**exposure then tone-mapped ('clamp' or 'reinhard'), depth is
  normalised to the image's own range, YUV goes through the BT.601 or
  BT.709 matrix; single-channel formats are grey.
- float32=True: float32 RGBA as a shader reads it (sRGB decoded to linear).
channel: 'rgba', 'rgb' (opaque), or 'r', 'g', 'b', 'a' (that component as grey).
byte_order: 'swap16' or 'swap32' for big-endian data (Xbox 360, GameCube/Wii,
PS3): each 16- or 32-bit word is swapped before decoding.
palette: P8, A8P8, AI44, IA44: the palette's bytes, entries of palette_format.
chroma_offset: NV12, P010, P016: where the chroma rows start (0: after the luma rows).
Formats: everything but plain TYPELESS formats and NV11, P208, V208, V408
(ASTC only when decode_supports says so).
Raises ValueError for a format swz cannot decode or a buffer too small.)doc");
  m.def(
      "decode_supports", [](py::handle format) { return decode_supports(to_format(format)); }, py::arg("format"),
      "decode_supports(format): whether this build decodes the format (the ASTC formats need libastcenc at build "
      "time; swz.decode raises ValueError saying so).");
  m.def(
      "check_decodable",
      [](const Layout& L, py::handle subresource) { check(check_decodable(L, as_subresource(L, subresource))); },
      py::arg("layout"), py::arg("subresource"),
      "check_decodable(layout, subresource): raises ValueError when the subresource does not decode on its own "
      "(one plane of NV12, P010, P016; a stencil plane; a format swz cannot decode).");
}

}  // namespace swz_py
