// The index summary (GET /imagesearch/summary, docs/api.md "Index summary"): image counts and
// capture years per collection, example queries drawn from the index's own descriptions, and a
// new summary once the index changes.
#include "server/index_summary.hpp"

#include <gtest/gtest.h>
#include <httplib.h>

#include "core/json.hpp"
#include "running_server.hpp"
#include "sample_docs.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

TEST(ExampleQueries, FrequentPairsThenFrequentWordsNeverStopWords) {
  const std::vector<std::vector<std::string>> texts = {
      {"Lighthouse in a storm"},     {"The lighthouse storm at night", "Castle"},
      {"lighthouse, storm!"},        {"castle ruins", "2008"},
      {"Castelo de São Jorge"},      {"the and for img_2008.jpg"},
      {"Storm over the old harbour"}};
  const auto examples = example_queries(texts, 4);
  ASSERT_EQ(examples.size(), 4u);
  EXPECT_EQ(examples[0], "lighthouse storm");  // a pair in three descriptions
  EXPECT_EQ(examples[1], "castle");            // the most frequent word left
  for (const auto& e : examples)
    for (const char* never : {"the", "and", "de", "img", "jpg", "2008", "in", "at"})
      EXPECT_NE(e, never);
  EXPECT_TRUE(example_queries({}, 8).empty());
}

merge::ImageDocument dated(const std::string& id, const std::string& ts, const std::string& alt,
                           const std::string& collection) {
  merge::ImageDocument d = testing::doc(id, ts, alt);
  d.collection = {collection};
  return d;
}

class IndexSummaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = strata::testing::scratch_dir() / "index";
    index::IndexWriter w(dir_);
    w.set_moderate([](const merge::ImageDocument& d, index::Moderation& m) {
      m.safe = 0.1;
      m.blocked = d.id == "blocked";
    });
    w.add(dated("a1", "20080101000000", "farol na tempestade", "Arquivo"));
    w.add(dated("a2", "20090601000000", "farol na tempestade ao anoitecer", "Arquivo"));
    w.add(dated("b1", "20100101000000", "castelo antigo", "Biblioteca"));
    w.add(dated("b2", "20120101000000", "farol do castelo", "Biblioteca"));
    w.add(dated("blocked", "19990101000000", "bloqueada", "Bloqueada"));
  }
  std::filesystem::path dir_;
};

TEST_F(IndexSummaryTest, CollectionsWithTheirImagesAndYears) {
  Xapian::Database db(dir_.string());
  const IndexSummary s = summarize_index(db, false);
  EXPECT_EQ(s.images, 4u);  // the blocked image never counts
  EXPECT_EQ(s.first_year, 2008);
  EXPECT_EQ(s.last_year, 2012);
  ASSERT_EQ(s.collections.size(), 2u);  // nor its collection
  EXPECT_EQ(s.collections[0].name, "Arquivo");
  EXPECT_EQ(s.collections[0].images, 2u);
  EXPECT_EQ(s.collections[0].first_year, 2008);
  EXPECT_EQ(s.collections[0].last_year, 2009);
  EXPECT_EQ(s.collections[1].name, "Biblioteca");
  EXPECT_EQ(s.collections[1].images, 2u);
  EXPECT_EQ(s.collections[1].first_year, 2010);
  EXPECT_EQ(s.collections[1].last_year, 2012);
  ASSERT_FALSE(s.examples.empty());
  EXPECT_EQ(s.examples[0], "farol tempestade");  // "na" is a stop word
  for (const auto& e : s.examples) EXPECT_EQ(e.find("bloqueada"), std::string::npos);
}

TEST_F(IndexSummaryTest, EndpointAnswersAndFollowsTheIndex) {
  ServerOptions o;
  o.index_dir = dir_;
  testing::RunningServer running(o);
  httplib::Client c("127.0.0.1", running.port());
  auto r = c.Get("/imagesearch/summary");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  Json j = Json::parse(r->body);
  EXPECT_EQ(j["totalImages"], 4);
  EXPECT_EQ(j["from"], 2008);
  EXPECT_EQ(j["to"], 2012);
  ASSERT_EQ(j["collections"].size(), 2u);
  EXPECT_EQ(j["collections"][0],
            Json({{"name", "Arquivo"}, {"images", 2}, {"from", 2008}, {"to", 2009}}));
  EXPECT_EQ(j["examples"][0], "farol tempestade");
  {
    index::IndexWriter w(dir_);
    w.set_moderate([](const merge::ImageDocument&, index::Moderation& m) { m.safe = 0.1; });
    w.add(dated("c1", "20200101000000", "moinho", "Coleção nova"));
  }
  r = c.Get("/imagesearch/summary");
  ASSERT_TRUE(r);
  j = Json::parse(r->body);
  EXPECT_EQ(j["totalImages"], 5);
  EXPECT_EQ(j["to"], 2020);
  ASSERT_EQ(j["collections"].size(), 3u);
  EXPECT_EQ(j["collections"][2]["name"], "Coleção nova");
}

}  // namespace
}  // namespace strata::server
