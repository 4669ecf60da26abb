#include "swz/identify.hpp"
namespace swz { Status infer(std::span<const uint8_t>, const FormatInfo&, uint32_t, uint32_t, uint64_t, InferResult*) { return {Code::unsupported, "todo"}; } }
