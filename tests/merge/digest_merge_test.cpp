#include "merge/digest_merge.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "fixtures.hpp"
#include "merge/text.hpp"
#include "similar/page_sketch.hpp"

namespace strata::merge {
namespace {

using testing::capture;
using testing::ref;

const std::string kD(64, 'd');

ImageDocument one(DigestGroup g, Mode mode = Mode::compact) {
  Counters c;
  auto docs = build_documents(g, mode, c);
  EXPECT_EQ(docs.size(), 1u);
  return docs.empty() ? ImageDocument{} : docs[0];
}

// Same bytes under two URLs (paper: bp3/bp4.blogger.com) merge into one document whose image
// fields come from the oldest capture and page fields from the oldest reference.
TEST(DigestMerge, OldestCaptureAndOldestPage) {
  DigestGroup g{
      kD,
      {capture("bp4", "http://bp4.blogger.com/2.jpg", "20090223093642", kD, "AWP3"),
       capture("bp3", "http://bp3.blogger.com/2.jpg", "20080223093642", kD, "AWP1")},
      {ref("bp3", "http://bp3.blogger.com/2.jpg", "http://www.worksfromthecave.blogspot.com/",
           "20080215084021", "great", "AWP1"),
       ref("bp4", "http://bp4.blogger.com/2.jpg", "http://www.worksfromthecave.sapo.pt/",
           "20040215084021", "fantastic", "AWP3")}};
  ImageDocument d = one(g);
  EXPECT_EQ(d.id, kD);
  EXPECT_EQ(d.imgDigest, kD);
  EXPECT_EQ(d.imgUrl, "http://bp3.blogger.com/2.jpg");
  EXPECT_EQ(d.imgUrlTokens, "tokens of http://bp3.blogger.com/2.jpg");
  EXPECT_EQ(d.imgCrawlTimestamp, "20080223093642");
  EXPECT_EQ(d.imgCrawlTimestampLatest, "20090223093642");
  EXPECT_EQ(d.imgCaptureTimes, (std::vector<std::string>{"20080223093642", "20090223093642"}));
  EXPECT_EQ(d.pageUrl, "http://www.worksfromthecave.sapo.pt/");
  EXPECT_EQ(d.pageCrawlTimestamp, "20040215084021");
  EXPECT_EQ(d.pageFile, "AWP3-pages.warc.gz");
  EXPECT_EQ(d.imgAlt, (std::vector<std::string>{"fantastic", "great"}));  // by first time seen
  EXPECT_EQ(d.collection, (std::vector<std::string>{"AWP1", "AWP3"}));
  EXPECT_EQ(d.matchingImages, 2);
  EXPECT_EQ(d.matchingPages, 2);
  EXPECT_EQ(d.imageMetadataChanges, 1);
  EXPECT_EQ(d.pageMetadataChanges, 1);
}

TEST(DigestMerge, TiesPreferShorterThenSmallerUrl) {
  DigestGroup g{kD,
                {capture("s", "http://b/long.jpg", "20100101000000", kD),
                 capture("s", "http://z/1.jpg", "20100101000000", kD),
                 capture("s", "http://a/1.jpg", "20100101000000", kD)},
                {ref("s", "u", "http://page/bbb", "20100101000000"),
                 ref("s", "u", "http://page/aa", "20100101000000"),
                 ref("s", "u", "http://page/ab", "20100101000000")}};
  ImageDocument d = one(g);
  EXPECT_EQ(d.imgUrl, "http://a/1.jpg");
  EXPECT_EQ(d.pageUrl, "http://page/aa");
  EXPECT_EQ(d.imgCaptureTimes.size(), 1u);
  EXPECT_EQ(d.matchingImages, 3);
  EXPECT_EQ(d.pageMetadataChanges, 2);
}

TEST(DigestMerge, DescriptionsTrimmedDistinctOrderedByFirstAppearance) {
  auto r1 = ref("s", "u", "p1", "20120101000000", "  zebra ");
  r1.imgTitle = "T";
  r1.imgCaption = "\tcap\n";
  auto r2 = ref("s", "u", "p2", "20100101000000", "zebra");
  auto r3 = ref("s", "u", "p3", "20100101000000", "apple");
  auto r4 = ref("s", "u", "p4", "20110101000000", "   ");
  r4.tag = "a";
  DigestGroup g{kD, {capture("s", "u", "20100101000000", kD)}, {r1, r2, r3, r4}};
  ImageDocument d = one(g);
  EXPECT_EQ(d.imgAlt, (std::vector<std::string>{"apple", "zebra"}));
  EXPECT_EQ(d.imgTitle, (std::vector<std::string>{"T"}));
  EXPECT_EQ(d.imgCaption, (std::vector<std::string>{"cap"}));
  EXPECT_EQ(d.tags, (std::vector<std::string>{"a", "img"}));
  // Triples: (,zebra,), (,apple,), (,,), (T,zebra,cap) -> 4 distinct -> 3 changes.
  EXPECT_EQ(d.imageMetadataChanges, 3);
}

TEST(DigestMerge, DescriptionsCappedAtFifty) {
  DigestGroup g{kD, {capture("s", "u", "20100101000000", kD)}, {}};
  for (int i = 0; i < 60; ++i)
    g.refs.push_back(ref("s", "u", "p", "20100101000000", "alt" + std::to_string(100 + i)));
  Counters c;
  auto docs = build_documents(g, Mode::compact, c);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].imgAlt.size(), 50u);
  EXPECT_EQ(docs[0].imgAlt.back(), "alt149");
  EXPECT_EQ(docs[0].imageMetadataChanges, 59);  // counted beyond the cap
  EXPECT_EQ(c.get("description_lists_capped"), 1);
}

TEST(DigestMerge, CaptureTimesCappedAtThousand) {
  DigestGroup g{kD, {}, {ref("s", "u", "p", "20100101000000")}};
  for (int i = 0; i < 1100; ++i)
    g.captures.push_back(capture("s", "u", std::to_string(20100101000000LL + i), kD));
  Counters c;
  auto d = build_documents(g, Mode::compact, c)[0];
  EXPECT_EQ(d.imgCaptureTimes.size(), 1000u);
  EXPECT_EQ(d.imgCrawlTimestampLatest, "20100101001099");
  EXPECT_EQ(d.matchingImages, 1100);
  EXPECT_EQ(c.get("capture_time_lists_capped"), 1);
}

TEST(DigestMerge, LegacyKeepsOnlyOldestPageDescriptions) {
  DigestGroup g{kD,
                {capture("s", "u", "20100101000000", kD)},
                {ref("s", "u", "p1", "20110101000000", "newer"),
                 ref("s", "u", "p0", "20100101000000", "oldest"),
                 ref("s", "u", "p0", "20100101000000", "oldest too")}};
  ImageDocument d = one(g, Mode::legacy);
  EXPECT_EQ(d.imgAlt, (std::vector<std::string>{"oldest", "oldest too"}));
  EXPECT_EQ(d.matchingPages, 3);
}

TEST(DigestMerge, FullGivesOneDocumentPerPageCapture) {
  DigestGroup g{
      kD,
      {capture("s", "u", "20100101000000", kD)},
      {ref("s", "u", "p1", "20110101000000", "b"), ref("s", "u", "p0", "20100101000000", "a"),
       ref("s", "u", "p0", "20100101000000", "a2")}};
  Counters c;
  auto docs = build_documents(g, Mode::full, c);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].id, kD + "/20100101000000/" + hex64(fnv1a64("p0")));
  EXPECT_EQ(docs[0].imgAlt, (std::vector<std::string>{"a", "a2"}));
  EXPECT_EQ(docs[1].pageUrl, "p1");
  EXPECT_EQ(docs[1].imgAlt, (std::vector<std::string>{"b"}));
  EXPECT_EQ(docs[1].imgDigest, kD);
  EXPECT_EQ(docs[1].matchingPages, 3);
}

TEST(DigestMerge, NoDocumentWithoutReferences) {
  DigestGroup g{kD, {capture("s", "u", "20100101000000", kD)}, {}};
  Counters c;
  EXPECT_TRUE(build_documents(g, Mode::compact, c).empty());
  EXPECT_EQ(c.get("digests_without_pages"), 1);
}

TEST(DigestMerge, InputOrderDoesNotMatter) {
  DigestGroup g{
      kD,
      {capture("s", "http://a", "20100101000000", kD),
       capture("s", "http://b", "20090101000000", kD)},
      {ref("s", "u", "p1", "20110101000000", "x"), ref("s", "u", "p2", "20100101000000", "y")}};
  DigestGroup reversed = g;
  std::reverse(reversed.captures.begin(), reversed.captures.end());
  std::reverse(reversed.refs.begin(), reversed.refs.end());
  EXPECT_EQ(to_json(one(g)), to_json(one(reversed)));
}

// A builder's second group must not keep anything of its first (its documents are reused).
TEST(DigestMerge, ReusedBuilderKeepsNothingOfThePreviousGroup) {
  const std::string other(64, 'e');
  DigestGroup large{
      kD,
      {capture("s", "u", "20100101000000", kD), capture("s", "u", "20110101000000", kD)},
      {ref("s", "u", "p1", "20100101000000", "one", "C1"),
       ref("s", "u", "p2", "20110101000000", "two", "C2")}};
  large.refs[0].imgTitle = "title";
  large.refs[1].imgCaption = "caption";
  large.refs[1].tag = "a";
  DigestGroup small{
      other, {capture("t", "v", "20120101000000", other)}, {ref("t", "v", "p3", "20120101000000")}};
  DigestGroup small_alone = small;
  Counters c;
  DocumentBuilder<ImageDocument> builder;
  ASSERT_EQ(builder.build(large, Mode::compact, c).size(), 1u);
  std::span<ImageDocument> docs = builder.build(small, Mode::compact, c);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(to_json(docs[0]), to_json(one(small_alone)));
  EXPECT_TRUE(docs[0].imgAlt.empty());
  EXPECT_EQ(builder.build(large, Mode::full, c).size(), 2u);
  EXPECT_EQ(to_json(builder.build(small, Mode::compact, c)[0]), to_json(one(small_alone)));
}

// Popularity counts each page once: one URL over two crawls, a mirror at another URL with the
// same text, a reprint with a word changed; an unrelated page and a page with too little text
// to compare stay apart (docs/merge.md, distinctPages). The same in any order.
TEST(DigestMerge, NearDuplicatePagesCountOnce) {
  std::string article;
  for (int i = 0; i < 300; ++i) article += "word" + std::to_string(i) + " ";
  std::string reprint = article;
  reprint.replace(reprint.find(" word150 "), 9, " changed ");
  auto sketch = [](const std::string& text) {
    return similar::encode_page_sketch(*similar::sketch_text(text));
  };
  std::vector<PageReference> refs = {ref("s", "u", "http://a/article", "20100101000000"),
                                     ref("s", "u", "http://a/article", "20110101000000"),
                                     ref("s", "u", "http://mirror/a/article", "20100601000000"),
                                     ref("s", "u", "http://b/reprint", "20100701000000"),
                                     ref("s", "u", "http://c/other", "20100801000000"),
                                     ref("s", "u", "http://d/short", "20100901000000"),
                                     ref("s", "u", "http://e/short", "20100901000000")};
  refs[0].pageSketch = refs[1].pageSketch = refs[2].pageSketch = sketch(article);
  refs[3].pageSketch = sketch(reprint);
  refs[4].pageSketch =
      sketch(article.substr(0, 20) + " and then something else " + reprint.substr(900));
  refs[5].pageSketch = refs[6].pageSketch = sketch("too short to compare here at all");
  DigestGroup g{kD, {capture("s", "u", "20100101000000", kD)}, refs};
  ImageDocument d = one(g);
  EXPECT_EQ(d.matchingPages, 7);
  EXPECT_EQ(d.distinctPages, 4);  // article family, other, and the two short pages
  EXPECT_EQ(to_json(d)["distinctPages"], 4);
  std::reverse(g.refs.begin(), g.refs.end());
  EXPECT_EQ(one(g).distinctPages, 4);
  // No sketches at all: one URL is one page.
  for (auto& r : g.refs) r.pageSketch.clear();
  ImageDocument plain = one(g);
  EXPECT_EQ(plain.distinctPages, 6);
  ImageDocument all_distinct = one(DigestGroup{kD,
                                               {capture("s", "u", "20100101000000", kD)},
                                               {ref("s", "u", "http://x/1", "20100101000000")}});
  EXPECT_EQ(all_distinct.distinctPages, 1);
  EXPECT_FALSE(to_json(all_distinct).contains("distinctPages"));
}

}  // namespace
}  // namespace strata::merge
