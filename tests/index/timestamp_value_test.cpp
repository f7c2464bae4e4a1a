#include "index/timestamp_value.hpp"

#include <gtest/gtest.h>

namespace strata::index {
namespace {

TEST(TimestampValue, PacksFourteenDigitsIntoSevenBytesThatSortLikeThem) {
  const std::string a = pack_timestamp("19961231235959"), b = pack_timestamp("20100101000000");
  EXPECT_EQ(a.size(), 7u);
  EXPECT_EQ(a, std::string("\x19\x96\x12\x31\x23\x59\x59", 7));
  EXPECT_LT(a, b);
  EXPECT_LT(pack_timestamp("20100101000000"), pack_timestamp("20100101000001"));
  EXPECT_EQ(unpack_timestamp(b), "20100101000000");
}

TEST(TimestampValue, ShortOrMalformedTimestampsCountMissingDigitsAsZero) {
  EXPECT_EQ(unpack_timestamp(pack_timestamp("2010")), "20100000000000");
  EXPECT_EQ(unpack_timestamp(pack_timestamp("")), "00000000000000");
  EXPECT_EQ(unpack_timestamp(pack_timestamp("2010-01-01T00")), "20100010010000");  // per position
  EXPECT_EQ(unpack_timestamp(pack_timestamp("201001010000001234")), "20100101000000");
}

}  // namespace
}  // namespace strata::index
