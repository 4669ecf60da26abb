#include <gtest/gtest.h>
#include "swz/swz.hpp"
TEST(Smoke, Std64kBuilds) {
  swz::TextureDesc d; d.width = 300; d.height = 200;
  ASSERT_TRUE(swz::find_format("R8G8B8A8_UNORM", &d.format).ok());
  swz::LayoutSpec s; s.kind = swz::LayoutKind::Std64K;
  swz::Layout L; auto st = swz::make_layout(d, s, &L);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(L.size(), 3u * 2u * 65536u);
}
