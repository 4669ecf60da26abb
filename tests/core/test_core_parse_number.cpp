// core/parse_number.hpp: the one rule for unsigned numbers in text and in the
// environment (decimal, or hex after 0x; nothing else).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "core/parse_number.hpp"

namespace {

TEST(ParseNumber, DecimalOrHexOnly) {
  uint64_t v = 0;
  EXPECT_TRUE(swz::detail::parse_unsigned("4096", &v));
  EXPECT_EQ(v, 4096u);
  EXPECT_TRUE(swz::detail::parse_unsigned("0x2000", &v));
  EXPECT_EQ(v, 0x2000u);
  EXPECT_TRUE(swz::detail::parse_unsigned("0X1f", &v));
  EXPECT_EQ(v, 31u);
  EXPECT_TRUE(swz::detail::parse_unsigned("010", &v));
  EXPECT_EQ(v, 10u) << "a leading 0 is not octal";
  EXPECT_TRUE(swz::detail::parse_unsigned("18446744073709551615", &v));
  EXPECT_EQ(v, UINT64_MAX);
  for (const char* bad : {"", "-1", "+8", " 8", "8 ", "16M", "0x", "0x-5", "18446744073709551616", "1e3"})
    EXPECT_FALSE(swz::detail::parse_unsigned(bad, &v)) << '"' << bad << '"';
}

TEST(ParseNumber, EnvironmentFallsBackOnAnythingElse) {
  const char* name = "SWZ_PARSE_NUMBER_TEST_VALUE";
  unsetenv(name);
  EXPECT_EQ(swz::detail::env_unsigned(name, 7), 7u) << "unset";
  setenv(name, "0x40", 1);
  EXPECT_EQ(swz::detail::env_unsigned(name, 7), 64u);
  setenv(name, "12", 1);
  EXPECT_EQ(swz::detail::env_unsigned(name, 7), 12u);
  for (const char* bad : {"", "-1", "12abc", " 12", "99999999999999999999999", "0x"}) {
    setenv(name, bad, 1);
    EXPECT_EQ(swz::detail::env_unsigned(name, 7), 7u) << '"' << bad << '"';
  }
  unsetenv(name);
}

}  // namespace
