// libFuzzer harness: parse_dds / read_dds on arbitrary bytes. Properties:
// errors carry a message; read_dds agrees with parse_dds; the texels read are
// exactly dds_data_size bytes taken from data_offset; writing the texture back
// (DX10 header) and reading it again gives the same description and texels.
// parse_dds_header (the headers alone, for streams) on the headers of the
// same bytes: succeeds whenever parse_dds does, with the same offsets and
// sizes, and fails only as parse_dds fails or because the texels are missing.
#include "fuzz_common.hpp"

using namespace swz;
using namespace swz_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Keep the bytes in an exactly sized heap block so ASan sees any overread.
  std::vector<uint8_t> file(data, data + size);
  const std::span<const uint8_t> span(file.data(), file.size());
  DdsInfo info;
  const Status pst = parse_dds(span, &info);
  DdsInfo head_info;
  const size_t head_size = std::min<size_t>(size, 148);
  std::vector<uint8_t> head(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(head_size));
  const Status hst = parse_dds_header(std::span<const uint8_t>(head.data(), head.size()), &head_info);
  if (pst.ok()) {
    SWZ_FUZZ_CHECK(hst.ok(), "parse_dds_header refuses headers parse_dds takes: " + hst.message());
    SWZ_FUZZ_CHECK(head_info.data_offset == info.data_offset && head_info.data_size == info.data_size,
                   "parse_dds_header and parse_dds disagree on the texels");
  } else if (!hst.ok()) {
    SWZ_FUZZ_CHECK(!hst.message().empty(), code_name(hst.code()));
  } else {
    SWZ_FUZZ_CHECK(size < head_info.data_offset || size - head_info.data_offset < head_info.data_size,
                   "parse_dds refuses a file whose headers and texels parse_dds_header accepts: " + pst.message());
  }
  DdsTexture t;
  const Status st = read_dds(span, &t);
  SWZ_FUZZ_CHECK(st.ok() == pst.ok(), "parse_dds and read_dds disagree: " + pst.message() + " / " + st.message());
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), code_name(st.code()));
    return 0;
  }
  uint64_t bytes = 0;
  Status s2 = dds_data_size(t.desc, &bytes);
  SWZ_FUZZ_CHECK(s2.ok(), s2.message());
  SWZ_FUZZ_CHECK(bytes == t.data.size() && bytes == info.data_size, "texel byte count");
  SWZ_FUZZ_CHECK(info.data_offset + bytes <= size, "texels past the end of the file");
  SWZ_FUZZ_CHECK(bytes == 0 || std::memcmp(t.data.data(), file.data() + info.data_offset, bytes) == 0,
                 "texels not taken from data_offset");
  std::vector<uint8_t> out;
  s2 = write_dds(t, &out);
  if (!s2.ok()) {
    SWZ_FUZZ_CHECK(!s2.message().empty(), "write_dds without a message");
    return 0;
  }
  DdsTexture u;
  s2 = read_dds(out, &u);
  SWZ_FUZZ_CHECK(s2.ok(), "written DDS does not read back: " + s2.message());
  const TextureDesc &a = t.desc, &b = u.desc;
  SWZ_FUZZ_CHECK(a.dimension == b.dimension && a.width == b.width && a.height == b.height && a.depth == b.depth &&
                     a.array_size == b.array_size && a.mip_levels == b.mip_levels && a.format.dxgi == b.format.dxgi &&
                     t.cube == u.cube,
                 "description changed by a write/read round trip");
  SWZ_FUZZ_CHECK(t.data == u.data, "texels changed by a write/read round trip");
  return 0;
}
