#include "merge/surt_merge.hpp"

#include <gtest/gtest.h>

#include <string>

#include "fixtures.hpp"

namespace strata::merge {
namespace {

using testing::capture;
using testing::ref;
using testing::revisit;

const std::string kA(64, 'a'), kB(64, 'b');

TEST(SurtMerge, KeepsSurtWithImageAndPage) {
  SurtGroup g{"s",
              {capture("s", "http://x/1.jpg", "20100101000000", kA)},
              {},
              {ref("s", "http://x/1.jpg", "http://x/", "20100101000000")}};
  Counters c;
  auto out = merge_surt(g, c);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].digest, kA);
  EXPECT_EQ(out[0].captures.size(), 1u);
  EXPECT_EQ(out[0].refs.size(), 1u);
  EXPECT_EQ(c.get("surt_digest_groups"), 1);
}

TEST(SurtMerge, DropsAndCountsImagesWithoutPages) {
  SurtGroup g{"s",
              {capture("s", "u", "20100101000000", kA), capture("s", "u", "20110101000000", kA)},
              {},
              {}};
  Counters c;
  EXPECT_TRUE(merge_surt(g, c).empty());
  EXPECT_EQ(c.get("captures_without_pages"), 2);
  EXPECT_EQ(c.get("surts_without_pages"), 1);
}

TEST(SurtMerge, DropsAndCountsReferencesWithoutImages) {
  SurtGroup g{
      "s", {}, {}, {ref("s", "u", "p1", "20100101000000"), ref("s", "u", "p2", "20100101000000")}};
  Counters c;
  EXPECT_TRUE(merge_surt(g, c).empty());
  EXPECT_EQ(c.get("references_without_images"), 2);
}

// One merger over several SURTs (run_merge's job 1) adds its per-SURT counts when destroyed.
TEST(SurtMerge, OneMergerCountsEverySurtWhenDestroyed) {
  Counters c;
  {
    SurtMerger merger(c);
    for (const char* surt : {"s1", "s2", "s3"}) {
      merger.reset();
      merger.add(Record(capture(surt, "u", "20100101000000", kA)));
      merger.add(Record(capture(surt, "u", "20110101000000", kB)));
      if (std::string(surt) != "s3") merger.add(Record(ref(surt, "u", "p", "20100101000000")));
      merger.finish();
    }
    EXPECT_EQ(c.get("surts_merged"), 0);
  }
  EXPECT_EQ(c.get("surts_merged"), 2);
  EXPECT_EQ(c.get("surt_digest_groups"), 4);
  EXPECT_EQ(c.get("surts_with_several_digests"), 2);
  EXPECT_EQ(c.get("surts_without_pages"), 1);
  EXPECT_EQ(c.get("captures_without_pages"), 2);
}

TEST(SurtMerge, RevisitAddsCaptureOfSameWarcDigest) {
  auto original = capture("s", "http://x/1.jpg", "20100101000000", kA);
  SurtGroup g{"s",
              {original},
              {revisit("s", "20120101000000", original.warcDigest),
               revisit("s", "20130101000000", "sha1:unknown")},
              {ref("s", "http://x/1.jpg", "http://x/", "20100101000000")}};
  Counters c;
  auto out = merge_surt(g, c);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].captures.size(), 2u);
  EXPECT_EQ(out[0].captures[1].timestamp, "20120101000000");
  EXPECT_EQ(out[0].captures[1].imgUrl, "http://x/1.jpg");  // the original's fields
  EXPECT_EQ(c.get("revisits_resolved"), 1);
  EXPECT_EQ(c.get("revisits_unresolved"), 1);
}

// Paper §5.2: digest A in 2018, digest B in 2020; references before the midpoint go to A.
TEST(SurtMerge, SplitsReferencesByClosestCaptureTime) {
  SurtGroup g{"s",
              {capture("s", "u", "20180101000000", kA), capture("s", "u", "20200101000000", kB)},
              {},
              {ref("s", "u", "p2017", "20170601000000"), ref("s", "u", "p2018", "20181231000000"),
               ref("s", "u", "p2019", "20190103000000"), ref("s", "u", "p2021", "20210101000000")}};
  Counters c;
  auto out = merge_surt(g, c);
  ASSERT_EQ(out.size(), 2u);
  ASSERT_EQ(out[0].refs.size(), 2u);
  EXPECT_EQ(out[0].refs[0].pageUrl, "p2017");
  EXPECT_EQ(out[0].refs[1].pageUrl, "p2018");
  ASSERT_EQ(out[1].refs.size(), 2u);
  EXPECT_EQ(out[1].refs[0].pageUrl, "p2019");
  EXPECT_EQ(out[1].refs[1].pageUrl, "p2021");
}

// True time distance: 2019-12-31T23:59:59 is 1 s from 2020-01-01 and ~1 day from
// 2019-12-31T00:00 is not; Java's field-wise compareTo would say otherwise (year differs).
TEST(SurtMerge, UsesTrueSecondsAndTiesGoToEarlierCapture) {
  SurtGroup g{"s",
              {capture("s", "u", "20191231000000", kA), capture("s", "u", "20200101000000", kB)},
              {},
              {ref("s", "u", "late", "20191231235959"), ref("s", "u", "mid", "20191231120000")}};
  Counters c;
  auto out = merge_surt(g, c);
  ASSERT_EQ(out.size(), 2u);
  ASSERT_EQ(out[0].refs.size(), 1u);
  EXPECT_EQ(out[0].refs[0].pageUrl, "mid");  // exactly halfway: the earlier capture
  ASSERT_EQ(out[1].refs.size(), 1u);
  EXPECT_EQ(out[1].refs[0].pageUrl, "late");
}

}  // namespace
}  // namespace strata::merge
