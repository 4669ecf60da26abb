// libFuzzer harness: decode_rgba8 and decode_rgba32f of every format (the
// block decoders above all: any block content is valid) on random bytes,
// sizes, pitches and options, the input and the output in guard-page
// buffers. Properties: no read outside the input, no write outside the
// output; on error the output is unchanged and the message is not empty; on
// success every RGBA32F value of a UNORM-only format lies in [0, 1].
#include <algorithm>
#include <cmath>
#include <cstring>

#include "fuzz_common.hpp"
#include "swz/decode.hpp"

using namespace swz;
using namespace swz_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider f(data, size);
  size_t n = 0;
  const FormatInfo* all = all_formats(&n);
  LinearImage img;
  img.format = all[f.ConsumeIntegralInRange<size_t>(0, n - 1)];
  img.width_px = f.ConsumeIntegralInRange<uint32_t>(0, 70);
  img.height_px = f.ConsumeIntegralInRange<uint32_t>(0, 70);
  const uint32_t w_el = (img.width_px + 3) / 4 * 4, h_el = (img.height_px + 3) / 4 * 4;  // generous
  const uint64_t row = uint64_t{w_el} * img.format.element_bytes;
  img.row_pitch_B = f.ConsumeBool() ? 0 : row + f.ConsumeIntegralInRange<uint64_t>(0, 40) - 8;
  const size_t in_size = f.ConsumeIntegralInRange<size_t>(0, static_cast<size_t>(row * h_el + 64));
  DecodeOptions o;
  o.channel = static_cast<ViewChannel>(f.ConsumeIntegralInRange<int>(0, 6));
  o.exposure_ev = f.ConsumeFloatingPointInRange<double>(-80, 80);
  o.tone_map = static_cast<ToneMap>(f.ConsumeIntegralInRange<int>(0, 2));
  o.yuv_matrix = static_cast<YuvMatrix>(f.ConsumeIntegralInRange<int>(0, 2));
  o.yuv_full_range = f.ConsumeBool();
  o.stencil = f.ConsumeBool();
  const bool as_float = f.ConsumeBool();
  const uint64_t px = uint64_t{img.width_px} * img.height_px * (as_float ? 16 : 4);
  const size_t out_size = static_cast<size_t>(f.ConsumeBool() ? px : f.ConsumeIntegralInRange<uint64_t>(0, px + 8));
  GuardedBuffer in(in_size), out(out_size);
  const std::vector<uint8_t> bytes = f.ConsumeRemainingBytes<uint8_t>();
  for (size_t i = 0; i < in_size; ++i) in.data()[i] = bytes.empty() ? static_cast<uint8_t>(i * 31) : bytes[i % bytes.size()];
  std::fill(out.data(), out.data() + out_size, uint8_t{0xA5});
  img.data = in.data();
  img.size_B = in_size;
  const Status s = as_float ? decode_rgba32f(img, o, reinterpret_cast<float*>(out.data()), out_size)
                            : decode_rgba8(img, o, out.data(), out_size);
  if (!s.ok()) {
    if (s.message().empty()) __builtin_trap();
    for (size_t i = 0; i < out_size; ++i)
      if (out.data()[i] != 0xA5) __builtin_trap();  // a refused decode wrote
    return 0;
  }
  // (R10G10B10_XR_BIAS_A2_UNORM, DXGI 89, holds values outside [0, 1] by design.)
  if (as_float && format_facts(img.format).numeric == NumericKind::Unorm && !img.format.depth_stencil &&
      img.format.dxgi != 89) {
    for (uint64_t i = 0; i < px / 4; ++i) {
      float v;  // the output may sit at any address: read it bytewise
      std::memcpy(&v, out.data() + i * 4, 4);
      if (!(v >= 0.0f && v <= 1.0f)) __builtin_trap();  // UNORM (and sRGB decoded) values stay in [0, 1]
    }
  }
  return 0;
}
