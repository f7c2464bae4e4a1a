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

// The inline operator: redundancy:EXPR in q is the redundancy parameter, quoted when it holds
// spaces; the parameter wins; a bad expression is a q error with the column.
TEST_F(Redundancy, InlineOperatorEqualsTheParameter) {
  EXPECT_EQ(ids("redundancy:versions"), ids(with("versions")));
  EXPECT_EQ(ids("redundancy:same(url),newer"), (V{"a3", "b2", "c1"}));
  EXPECT_EQ(ids("redundancy:\"same(url) , newer\""), (V{"a3", "b2", "c1"}));
  EXPECT_EQ(ids("REDUNDANCY:\"same(url), b.ts - a.ts >= 1d\""), (V{"a3", "b2", "c1"}));
  EXPECT_EQ(ids("redundancy:near"), ids(with("near")));
  SearchRequest inline_request;
  inline_request.q = "redundancy:versions";
  const SearchResult r = run(inline_request);
  ASSERT_TRUE(r.redundancy);
  EXPECT_EQ(r.redundancy->expression, "versions");
  EXPECT_EQ(r.redundancy->kept, 3u);
}

TEST_F(Redundancy, InlineOperatorYieldsToTheParameterAndNamesItsErrors) {
  SearchRequest fixed = with("near");
  fixed.redundancy_fixed = true;
  fixed.q = "redundancy:versions";
  EXPECT_EQ(ids(fixed), ids(with("near")));
  SearchRequest none;  // an export: fixed without an expression, the inline one is ignored
  none.redundancy_fixed = true;
  none.q = "redundancy:versions";
  EXPECT_EQ(ids(none).size(), 6u);
  SearchRequest bad;
  bad.q = "redundancy:\"same(url), phash<=x\"";
  try {
    run(bad);
    FAIL() << "a bad inline expression must be refused";
  } catch (const RequestError& e) {
    EXPECT_EQ(e.parameter, "q");
    EXPECT_NE(std::string(e.what()).find("redundancy: column 19"), std::string::npos) << e.what();
  }
  none.q = "redundancy:phash<=x";  // checked even when ignored
  EXPECT_THROW(run(none), RequestError);
}

TEST_F(Redundancy, ExpandWorksWithTheInlineOperatorAndNeedsOne) {
  SearchRequest r;
  r.q = "redundancy:versions";
  r.expand = "a3";
  EXPECT_EQ(ids(r), (V{"a1", "a2"}));
  r.q = "";
  try {
    run(r);
    FAIL() << "expand without redundancy must be refused";
  } catch (const RequestError& e) {
    EXPECT_EQ(e.parameter, "expand");
  }
}

TEST_F(Redundancy, InlineCoverOperatorAppliesANamedCover) {
  std::vector<Xapian::docid> hidden;
  {
    Xapian::Database db(dir_.string());
    hidden.push_back(*db.postlist_begin(""));
  }
  cover::store_named_cover(dir_.string(), "first", hidden, {{"where", "test"}});
  EXPECT_EQ(ids("cover:first").size(), 5u);
  SearchRequest param;
  param.cover = "unknown";  // the parameter wins
  param.q = "cover:first";
  EXPECT_EQ(ids(param).size(), 6u);
  param.q = "cover:Bad!";
  EXPECT_THROW(run(param), RequestError);
}

}  // namespace
}  // namespace strata::search::testing
