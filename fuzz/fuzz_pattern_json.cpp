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
  swz_fuzz::check_pattern_forms(p);
  swz_fuzz::check_pattern_use(p, static_cast<uint32_t>(size * 2654435761u));
  return 0;
}
