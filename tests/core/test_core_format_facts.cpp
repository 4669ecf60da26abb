// format_facts: the numeric kind, sRGB flag, component letters and cast
// family of DXGI formats, checked against their definitions in dxgiformat.h
// and D3D12's format casting rules (hand-written vectors).
#include <gtest/gtest.h>

#include <string>

#include "swz/format.hpp"

namespace {
using namespace swz;

struct Want {
  const char* name;
  NumericKind numeric;
  bool srgb;
  const char* components;
  const char* family;
};

TEST(FormatFacts, KnownFormats) {
  const Want table[] = {
      {"R8G8B8A8_UNORM", NumericKind::Unorm, false, "RGBA", "R8G8B8A8"},
      {"R8G8B8A8_UNORM_SRGB", NumericKind::Unorm, true, "RGBA", "R8G8B8A8"},
      {"B8G8R8A8_UNORM", NumericKind::Unorm, false, "BGRA", "B8G8R8A8"},
      {"B8G8R8X8_UNORM", NumericKind::Unorm, false, "BGRX", "B8G8R8X8"},
      {"R16G16B16A16_FLOAT", NumericKind::Float, false, "RGBA", "R16G16B16A16"},
      {"R32G32B32_FLOAT", NumericKind::Float, false, "RGB", "R32G32B32"},
      {"R8_SNORM", NumericKind::Snorm, false, "R", "R8"},
      {"R16G16_SINT", NumericKind::Sint, false, "RG", "R16G16"},
      {"R32_UINT", NumericKind::Uint, false, "R", "R32"},
      {"A8_UNORM", NumericKind::Unorm, false, "A", "A8"},
      {"B5G6R5_UNORM", NumericKind::Unorm, false, "BGR", "B5G6R5"},
      {"R10G10B10A2_UNORM", NumericKind::Unorm, false, "RGBA", "R10G10B10A2"},
      {"R9G9B9E5_SHAREDEXP", NumericKind::SharedExponent, false, "", "R9G9B9E5"},
      {"R8G8B8A8_TYPELESS", NumericKind::Typeless, false, "RGBA", "R8G8B8A8"},
      {"BC1_UNORM_SRGB", NumericKind::Unorm, true, "", "BC1"},
      {"BC7_UNORM", NumericKind::Unorm, false, "", "BC7"},
      {"BC6H_SF16", NumericKind::Other, false, "", "BC6H"},
      {"D32_FLOAT", NumericKind::Float, false, "", "R32"},
      {"D16_UNORM", NumericKind::Unorm, false, "", "R16"},
  };
  for (const Want& w : table) {
    FormatInfo f;
    ASSERT_TRUE(find_format(w.name, &f).ok()) << w.name;
    const FormatFacts got = format_facts(f);
    EXPECT_EQ(got.numeric, w.numeric) << w.name;
    EXPECT_EQ(got.srgb, w.srgb) << w.name;
    EXPECT_EQ(got.components, w.components) << w.name;
    EXPECT_EQ(got.cast_family, w.family) << w.name;
  }
}

TEST(FormatFacts, SrgbCurve) {
  // IEC 61966-2-1: the linear segment below 0.04045 (encoded) / 0.0031308 (linear), and the end points.
  EXPECT_DOUBLE_EQ(srgb_to_linear(0.0), 0.0);
  EXPECT_NEAR(srgb_to_linear(1.0), 1.0, 1e-12);
  EXPECT_NEAR(srgb_to_linear(0.04), 0.04 / 12.92, 1e-15);
  EXPECT_NEAR(srgb_to_linear(0.5), 0.214041140482232, 1e-12);
  for (double v = 0; v <= 1.0; v += 1.0 / 64) EXPECT_NEAR(linear_to_srgb(srgb_to_linear(v)), v, 1e-12) << v;
}

}  // namespace
