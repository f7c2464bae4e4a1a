#include "search/redundancy.hpp"
#include "cover/documents.hpp"
#include "search_fixture.hpp"

namespace strata::search::testing {
namespace {

// Three versions of one image URL, two of another, one alone; a1 and b1 look alike.
class Redundancy : public SearchTest {
 protected:
  void SetUp() override {
    std::vector<merge::ImageDocument> docs;
    auto version = [&](const std::string& id, const std::string& url, const std::string& ts) {
      auto d = doc(id, ts);
      d.imgUrl = "http://example.pt/" + url + ".jpg";
      docs.push_back(d);
    };
    version("a1", "a", "20010101000000");
    version("a2", "a", "20020101000000");
    version("a3", "a", "20030101000000");
    version("b1", "b", "20040101000000");
    version("b2", "b", "20050101000000");
    version("c1", "c", "20060101000000");
    index::Moderation looks;
    looks.safe = 0;
    looks.phash = 0x0F0F0F0F0F0F0F0Full;
    add(docs, {{"a1", looks}, {"b1", looks}});
  }
  SearchRequest with(const std::string& expression) {
    SearchRequest r;
    r.redundancy = cover::parse(expression);
    return r;
  }
};

TEST_F(Redundancy, VersionsKeepTheNewestInRankOrderAndCountWhatTheyCover) {
  // Without redundancy: oldest first.
  EXPECT_EQ(ids(SearchRequest{}), (V{"a1", "a2", "a3", "b1", "b2", "c1"}));
  const SearchResult r = run(with("versions"));
  ASSERT_EQ(r.hits.size(), 3u);
  EXPECT_EQ(r.hits[0].doc.id, "a3");
  EXPECT_EQ(r.hits[0].covers, 2u);
  EXPECT_EQ(r.hits[1].doc.id, "b2");
  EXPECT_EQ(r.hits[1].covers, 1u);
  EXPECT_EQ(r.hits[2].doc.id, "c1");
  EXPECT_EQ(r.hits[2].covers, 0u);
  ASSERT_TRUE(r.redundancy);
  EXPECT_EQ(r.redundancy->window, 6u);
  EXPECT_EQ(r.redundancy->kept, 3u);
  EXPECT_EQ(r.total, 6u);  // matches, as without redundancy
}

TEST_F(Redundancy, ExpandListsWhatAResultCoversAndPagesWork) {
  SearchRequest r = with("versions");
  r.expand = "a3";
  EXPECT_EQ(ids(r), (V{"a1", "a2"}));
  r.expand.clear();
  r.offset = 1;
  r.max_items = 1;
  EXPECT_EQ(ids(r), (V{"b2"}));
}

TEST_F(Redundancy, BetterNeverLetsAWorseRankedResultHide) {
  EXPECT_EQ(ids(with("near")), (V{"a1", "a2", "a3", "b2", "c1"}));  // b1 covered by a1
  EXPECT_EQ(ids(with("versions,better")).size(), 6u);  // newer ranks later here: nothing hides
  SearchRequest window = with("versions");
  window.redundancy_window = 2;  // the cover of a1, a2 only
  EXPECT_EQ(ids(window), (V{"a2"}));
}

TEST_F(Redundancy, UnblockableExpressionsOverHugeWindowsAreRefused) {
  std::vector<Hit> many(2100);
  SearchResult result;
  result.hits = std::move(many);
  EXPECT_THROW(cover_results(result, with("newer")), RequestError);
}

TEST_F(Redundancy, NamedCoverFiltersAtSearchTime) {
  std::vector<Xapian::docid> hidden;
  {
    Xapian::Database db(dir_.string());
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      hidden.push_back(*it);
      if (hidden.size() == 2) break;
    }
  }
  cover::store_named_cover(dir_.string(), "first-two", hidden, {{"where", "test"}});
  SearchRequest r;
  r.cover = "first-two";
  EXPECT_EQ(ids(r).size(), 4u);
  r.cover = "unknown";
  EXPECT_EQ(ids(r).size(), 6u);
  Xapian::Database db(dir_.string());
  EXPECT_EQ(cover::named_covers(db)["first-two"]["where"], "test");
}

}  // namespace
}  // namespace strata::search::testing
