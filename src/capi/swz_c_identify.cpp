// The C API of identify (include/swz/swz.h): forwards to swz/identify.hpp
// through the guard of capi_internal.hpp.
#include "capi_internal.hpp"
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "swz/identify.hpp"
#include "swz/swz.h"

extern "C" {

swz_status swz_identify(const void* dump, uint64_t dump_size_B, const char* format, uint32_t dxgi_format,
                        uint32_t width_px, uint32_t height_px, const swz_identify_options* options,
                        swz_identify_candidate* out, uint32_t capacity, uint32_t* count) {
  return swz_capi::run([&]() -> swz::Status {
    if (!dump && dump_size_B) return swz_capi::null_arg("dump");
    if (!out) return swz_capi::null_arg("out");
    if (!count) return swz_capi::null_arg("count");
    *count = 0;
    swz::FormatInfo f;
    SWZ_TRY(swz_capi::find_format(format, dxgi_format, &f));
    swz::IdentifyOptions o;
    if (options) {
      o.top = options->top ? options->top : o.top;
      o.offset_B = options->offset_B;
      o.offset_step_B = options->offset_step_B;
    }
    if (capacity == 0) return {swz::Code::invalid_argument, "capacity = 0 (room for at least one candidate)"};
    if (o.top > capacity) o.top = capacity;
    std::vector<swz::IdentifyCandidate> got;
    SWZ_TRY(swz::identify(std::span<const uint8_t>(static_cast<const uint8_t*>(dump), dump_size_B), f, width_px,
                          height_px, o, &got));
    for (const swz::IdentifyCandidate& c : got)
      if (c.layout.size() >= sizeof out->layout)
        return {swz::Code::invalid_argument, "layout name '" + c.layout + "' is longer than " +
                                                 std::to_string(sizeof out->layout - 1) + " bytes"};
    for (size_t i = 0; i < got.size(); ++i) {
      swz_identify_candidate& r = out[i];
      r = swz_identify_candidate{};
      r.score = got[i].score;
      std::memcpy(r.layout, got[i].layout.c_str(), got[i].layout.size() + 1);
      r.offset_B = got[i].offset_B;
      r.short_B = got[i].short_B;
      r.equivalents = got[i].equivalents;
    }
    *count = static_cast<uint32_t>(got.size());
    return swz::Status::Ok();
  });
}

}  // extern "C"
