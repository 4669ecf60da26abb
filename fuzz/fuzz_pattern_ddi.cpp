// libFuzzer harness: from_ddi_bytes on arbitrary bytes (232-byte 0022 / WDDM
// 2.2 form, 104-byte legacy form, anything else). Properties: other lengths
// are a parse_error; a parsed 0022 blob prints back to the same bytes; the
// legacy blob prints back to the same bytes through to_ddi_bytes_legacy; every
// other form round-trips; a valid pattern addresses like the reference.
#include "fuzz_pattern_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Steer inputs to the two real sizes (padding with zeros or cutting),
  // except one in 16 lengths, which stay as they are.
  size_t n = size;
  if (size != swz::kDdiBytes0022 && size != swz::kDdiBytesLegacy && size % 16 != 5)
    n = size > 150 ? swz::kDdiBytes0022 : swz::kDdiBytesLegacy;
  std::vector<uint8_t> bytes(data, data + std::min(size, n));
  bytes.resize(n, 0);
  swz::Pattern p;
  const swz::Status st = swz::from_ddi_bytes(bytes, &p);
  if (n != swz::kDdiBytes0022 && n != swz::kDdiBytesLegacy)
    SWZ_FUZZ_CHECK(!st.ok() && st.code() == swz::Code::parse_error,
                   "a blob of " + std::to_string(n) + " bytes was accepted");
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), swz::code_name(st.code()));
    return 0;
  }
  if (n == swz::kDdiBytes0022) {
    SWZ_FUZZ_CHECK(swz::to_ddi_bytes_0022(p) == bytes, "0022 bytes do not print back");
  } else {
    std::vector<uint8_t> legacy;
    const swz::Status lst = swz::to_ddi_bytes_legacy(p, &legacy);
    SWZ_FUZZ_CHECK(lst.ok(), lst.message());
    SWZ_FUZZ_CHECK(legacy == bytes, "legacy bytes do not print back");
  }
  uint32_t seed = 0;
  if (!swz_fuzz::first_check_of(p, &seed)) return 0;  // checked before (the checks depend on p only)
  swz_fuzz::check_pattern_forms(p);
  swz_fuzz::check_pattern_use(p, seed);
  return 0;
}
