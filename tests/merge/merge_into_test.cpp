#include "merge/merge_into.hpp"

#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "merge/digest_merge.hpp"

namespace strata::merge {
namespace {

using testing::capture;
using testing::ref;

const std::string kId = "a4236137f5455edd8436a5d122c366fa62ba91139f45895f447565b3a6b926bb";

// The slides' "Images in multiple pages" example: indexed from AWP1, then AWP3 arrives.
ImageDocument awp1() {
  DigestGroup g{
      kId,
      {capture("bp3", "http://bp3.blogger.com/s320/2.jpg", "20080223093642", kId, "AWP1")},
      {ref("bp3", "http://bp3.blogger.com/s320/2.jpg", "http://www.worksfromthecave.blogspot.com/",
           "20080215084021", "", "AWP1")}};
  g.refs[0].imgCaption = "great";
  Counters c;
  return build_documents(g, Mode::compact, c).at(0);
}

ImageDocument awp3() {
  DigestGroup g{
      kId,
      {capture("bp4", "http://bp4.blogger.com/s320/2.jpg", "20090223093642", kId, "AWP3")},
      {ref("bp4", "http://bp4.blogger.com/s320/2.jpg", "http://www.worksfromthecave.sapo.pt/",
           "20040215084021", "", "AWP3")}};
  g.refs[0].imgCaption = "fantastic";
  Counters c;
  return build_documents(g, Mode::compact, c).at(0);
}

TEST(MergeInto, PaperExampleAcrossCollections) {
  ImageDocument doc = awp1();
  merge_into(doc, awp3());
  EXPECT_EQ(doc.id, kId);
  EXPECT_EQ(doc.pageUrl, "http://www.worksfromthecave.sapo.pt/");  // older page wins
  EXPECT_EQ(doc.pageCrawlTimestamp, "20040215084021");
  EXPECT_EQ(doc.imgUrl, "http://bp3.blogger.com/s320/2.jpg");  // older capture wins
  EXPECT_EQ(doc.imgCrawlTimestamp, "20080223093642");
  EXPECT_EQ(doc.imgCrawlTimestampLatest, "20090223093642");
  EXPECT_EQ(doc.imgCaptureTimes, (std::vector<std::string>{"20080223093642", "20090223093642"}));
  EXPECT_EQ(doc.collection, (std::vector<std::string>{"AWP1", "AWP3"}));
  EXPECT_EQ(doc.imgCaption, (std::vector<std::string>{"great", "fantastic"}));  // existing first
  EXPECT_EQ(doc.matchingImages, 2);
  EXPECT_EQ(doc.matchingPages, 2);
}

TEST(MergeInto, ReAddingACollectionChangesNothing) {
  ImageDocument doc = awp1();
  merge_into(doc, awp3());
  Json before = to_json(doc);
  merge_into(doc, awp3());
  merge_into(doc, awp1());
  EXPECT_EQ(to_json(doc), before);
}

TEST(MergeInto, NewerIncomingKeepsExistingFieldsButAddsCounters) {
  ImageDocument doc = awp3();
  ImageDocument incoming = awp1();
  incoming.imageMetadataChanges = 4;
  incoming.pageMetadataChanges = 2;
  merge_into(doc, incoming);
  EXPECT_EQ(doc.pageUrl, "http://www.worksfromthecave.sapo.pt/");
  EXPECT_EQ(doc.imgUrl, "http://bp3.blogger.com/s320/2.jpg");  // incoming capture is older
  EXPECT_EQ(doc.imgCaption, (std::vector<std::string>{"fantastic", "great"}));
  EXPECT_EQ(doc.imageMetadataChanges, 4);
  EXPECT_EQ(doc.pageMetadataChanges, 2);
}

TEST(MergeInto, DescriptionUnionCappedAtFifty) {
  ImageDocument doc = awp1(), incoming = awp3();
  doc.imgAlt.clear();
  for (int i = 0; i < 45; ++i) doc.imgAlt.push_back("old" + std::to_string(i));
  for (int i = 0; i < 10; ++i) incoming.imgAlt.push_back("new" + std::to_string(i));
  incoming.imgAlt.push_back("old3");
  merge_into(doc, incoming);
  ASSERT_EQ(doc.imgAlt.size(), 50u);
  EXPECT_EQ(doc.imgAlt[45], "new0");
  EXPECT_EQ(doc.imgAlt[49], "new4");
}

}  // namespace
}  // namespace strata::merge
