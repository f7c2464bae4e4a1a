#include "core/size.hpp"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(ParseSize, PlainBytesAndBinaryUnits) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("64K"), 64u * 1024);
  EXPECT_EQ(parse_size("512M"), 512u << 20);
  EXPECT_EQ(parse_size("1G"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("1g"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("1GiB"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("2T"), uint64_t{2} << 40);
  EXPECT_EQ(parse_size(" 8 M "), uint64_t{8} << 20);
  EXPECT_EQ(parse_size("100B"), 100u);
}

TEST(ParseSize, FractionsAndDecimalUnits) {
  EXPECT_EQ(parse_size("1.5G"), uint64_t{3} << 29);
  EXPECT_EQ(parse_size("0.5K"), 512u);
  EXPECT_EQ(parse_size("1GB"), 1000000000u);
  EXPECT_EQ(parse_size("64kB"), 64000u);
}

TEST(ParseSize, RefusesWhatIsNotASize) {
  for (const char* bad : {"", "G", "-1", "-1G", "1X", "1.2.3M", "1 G B", "1Gi", "12abc", "0x10",
                          "1e9", "18446744073709551616", "16777216T", "nan"})
    EXPECT_FALSE(parse_size(bad).has_value()) << bad;
}

TEST(ParseSize, LargestValues) {
  EXPECT_EQ(parse_size("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_size("16777215T"), uint64_t{16777215} << 40);
}

}  // namespace
}  // namespace strata
