#include "core/progress.hpp"

#include <gtest/gtest.h>

namespace strata {
namespace {

// A clock the test moves by hand.
struct FakeClock {
  double now = 1000;
  Progress::Clock clock() {
    return [this] { return now; };
  }
};

TEST(RateMeter, NoEtaDuringWarmup) {
  RateMeter meter(10, 3);
  meter.sample(0, 0);
  meter.sample(1, 100);
  EXPECT_DOUBLE_EQ(meter.rate(), 100);
  EXPECT_FALSE(meter.eta(1000, 100).has_value());
  meter.sample(3, 300);
  ASSERT_TRUE(meter.eta(1000, 300).has_value());
  EXPECT_NEAR(*meter.eta(1000, 300), 7.0, 1e-9);
}

TEST(RateMeter, IgnoresSamplesCloserThanHalfASecond) {
  RateMeter meter;
  meter.sample(0, 0);
  meter.sample(0.1, 1000);  // a burst right at the start does not set the rate
  EXPECT_EQ(meter.rate(), 0);
  meter.sample(1, 1000);
  EXPECT_DOUBLE_EQ(meter.rate(), 1000);
}

// Cached work goes fast, then the real work: the ETA follows the recent rate within a window
// instead of the whole run's average, which would promise 10x too soon.
TEST(RateMeter, FollowsTheRecentRateAfterAFastStart) {
  RateMeter meter(10, 3);
  double done = 0;
  for (int t = 0; t <= 5; ++t) meter.sample(t, done = 1000.0 * t);  // 1000/s
  for (int t = 6; t <= 60; ++t) meter.sample(t, done += 100);       // then 100/s
  EXPECT_NEAR(meter.rate(), 100, 5);
  const double total = 20000, left = total - done;
  EXPECT_NEAR(*meter.eta(total, done), left / 100, 0.05 * left / 100);
  EXPECT_GT(*meter.eta(total, done), 1.5 * left / (done / 60));  // the whole run's average
}

// A steady rate with bursts (work done in chunks) gives an ETA that does not swing.
TEST(RateMeter, StableUnderBursts) {
  RateMeter meter(10, 3);
  double done = 0;
  double low = 1e9, high = 0;
  for (int t = 0; t <= 120; ++t) {
    if (t % 4 == 0) done += 400;  // 100/s on average, in bursts every 4 s
    meter.sample(t, done);
    if (t < 30) continue;
    const double eta = *meter.eta(20000, done);
    const double expected = (20000 - done) / 100;
    low = std::min(low, eta / expected);
    high = std::max(high, eta / expected);
  }
  EXPECT_GT(low, 0.7);
  EXPECT_LT(high, 1.4);
}

TEST(Progress, CountsBytesAndRecords) {
  FakeClock time;
  Progress progress("1/4 extract", 765'000'000, "B", "records", time.clock());
  progress.advance(312'000'000);
  progress.add_items(81'440);
  EXPECT_EQ(progress.render(0), "1/4 extract 312.0 MB/765.0 MB  81,440 records");
  time.now += 1;
  progress.sample();
  time.now += 3;
  progress.advance(40'000'000);
  progress.sample();
  const std::string line = progress.render(0);
  EXPECT_NE(line.find("MB/s"), std::string::npos) << line;
  EXPECT_NE(line.find("ETA"), std::string::npos) << line;
}

TEST(Progress, BarOnAWideLine) {
  FakeClock time;
  Progress progress("reading", 1000, "B", "", time.clock());
  progress.advance(500);
  const std::string line = progress.render(60);
  EXPECT_EQ(line.rfind("reading [#####", 0), 0u) << line;
  EXPECT_NE(line.find("] 500 B/1.0 kB"), std::string::npos) << line;
}

TEST(Progress, CountUnitsAndTheFinalLineTotals) {
  FakeClock time;
  Progress progress("3/4 analyse", 0, "images", "", time.clock());
  progress.set_total(1200);
  for (int i = 0; i < 1200; ++i) progress.advance(1);
  time.now += 60;
  EXPECT_EQ(progress.final_line(), "3/4 analyse 1,200/1,200 images  in 01:00 (20 images/s)");
}

TEST(Progress, FinalLineOfIndexShowsDocuments) {
  FakeClock time;
  Progress progress("4/4 index", 2'000'000, "B", "documents", time.clock());
  progress.advance(2'000'000);
  progress.add_items(4181);
  time.now += 0.5;
  EXPECT_EQ(progress.final_line(), "4/4 index 2.0 MB/2.0 MB  4,181 documents  in 00:01");
}

TEST(Progress, HumanBytes) {
  EXPECT_EQ(human_bytes(1.5e9), "1.5 GB");
}

}  // namespace
}  // namespace strata
