#include "core/timestamp.hpp"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(Timestamp, Iso8601) {
  EXPECT_EQ(timestamp_from_iso8601("2008-04-30T20:48:25Z"), "20080430204825");
  EXPECT_EQ(timestamp_from_iso8601("2024-01-01T12:00:00.123456789Z"), "20240101120000");
  EXPECT_EQ(timestamp_from_iso8601("2017-03-03"), "20170303000000");
  EXPECT_EQ(timestamp_from_iso8601("not a date"), std::nullopt);
}

TEST(Timestamp, ArcDigitsOfEveryLength) {
  EXPECT_EQ(timestamp_from_digits("2016020900"), "20160209000000");      // 10 digits
  EXPECT_EQ(timestamp_from_digits("200008230541"), "20000823054100");    // 12 digits
  EXPECT_EQ(timestamp_from_digits("20080430204825"), "20080430204825");  // 14 digits
  EXPECT_EQ(timestamp_from_digits("201512000000000"), "20151201000000"); // 15, day 00
  EXPECT_EQ(timestamp_from_digits("200009180023001234"), "20000918002300");  // 18 digits
  EXPECT_EQ(timestamp_from_digits("a0d1fdddf3165d0447b"), std::nullopt);
  EXPECT_EQ(timestamp_from_digits("20151332000000"), std::nullopt);
}

TEST(Timestamp, EpochRoundTrip) {
  auto epoch = timestamp_to_epoch("20080430204825");
  ASSERT_TRUE(epoch);
  EXPECT_EQ(*epoch, 1209588505);
  EXPECT_EQ(timestamp_from_epoch(*epoch), "20080430204825");
  EXPECT_EQ(timestamp_from_epoch(0), "19700101000000");
  EXPECT_EQ(timestamp_to_iso8601("20080430204825"), "2008-04-30T20:48:25Z");
}

}  // namespace
}  // namespace strata
