// libFuzzer harness: parse_pattern_json on arbitrary text. Same properties as
// fuzz_pattern_text (JSON -> pattern -> every printed form -> same pattern).
#include "fuzz_pattern_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  swz::Pattern p;
  const swz::Status st = swz::parse_pattern_json(text, &p);
  if (!st.ok()) {
    SWZ_FUZZ_CHECK(!st.message().empty(), swz::code_name(st.code()));
    return 0;
  }
  uint32_t seed = 0;
  if (!swz_fuzz::first_check_of(p, &seed)) return 0;  // checked before (the checks depend on p only)
  swz_fuzz::check_pattern_forms(p);
  swz_fuzz::check_pattern_use(p, seed);
  return 0;
}
