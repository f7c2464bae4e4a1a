#include <algorithm>
#include <cstdio>
#include <tuple>

#include "search_fixture.hpp"

namespace strata::search::testing {
namespace {

using Ranking = SearchTest;

TEST_F(Ranking, FieldWeightsOrderTitleAltUrlPage) {
  auto page = doc("page");
  page.pageTitle = "lisboa";
  auto title = doc("title");
  title.imgTitle = {"lisboa"};
  auto alt = doc("alt");
  alt.imgAlt = {"lisboa"};
  auto url = doc("url");
  url.imgUrlTokens = "lisboa";
  add({page, url, alt, title});
  EXPECT_EQ(ids("lisboa"), (V{"title", "alt", "url", "page"}));
}

TEST_F(Ranking, WholePhraseBeatsHeavierFieldWithWordsApart) {
  auto apart = doc("apart");
  apart.imgTitle = {"torre velha de pedra em belem"};
  auto close = doc("close");
  close.imgCaption = {"torre belem"};
  add({apart, close});
  EXPECT_EQ(ids("torre belem"), (V{"close", "apart"}));
}

TEST_F(Ranking, PhraseSlopOneStillCountsAsWholePhrase) {
  auto slop1 = doc("slop1");
  slop1.imgCaption = {"uefa euro 2016"};
  auto none = doc("none");
  none.imgAlt = {"uefa", "2016"};  // separate values: no phrase across them
  add({slop1, none});
  EXPECT_EQ(ids("uefa 2016"), (V{"slop1", "none"}));
}

TEST_F(Ranking, BigramsBoostPartialPhrases) {
  auto pair = doc("pair");
  pair.imgCaption = {"joao silva porto"};
  auto scattered = doc("scattered");
  scattered.imgCaption = {"joao manuel de sousa e silva no grande porto"};
  add({scattered, pair});
  EXPECT_EQ(ids("joao silva lisboa"), (V{"pair", "scattered"}));
}

TEST_F(Ranking, PageTitlesAndUrlTokensScoreWordsButGetNoPhraseBoost) {
  // Same words, same lengths: only a phrase boost could put the newer document first.
  auto phrase = doc("phrase", "20100101000000");
  phrase.pageTitle = "torre belem lisboa";
  phrase.pageUrlTokens = "torre belem lisboa";
  auto apart = doc("apart", "20000101000000");
  apart.pageTitle = "belem lisboa torre";
  apart.pageUrlTokens = "belem lisboa torre";
  add({phrase, apart});
  EXPECT_EQ(ids("torre belem"), (V{"apart", "phrase"}));
}

TEST_F(Ranking, TiesBrokenByOldestCaptureThenUrl) {
  auto a = doc("a", "20050101000000");
  auto b = doc("b", "20010101000000");
  auto c = doc("c", "20010101000000");
  for (auto* d : {&a, &b, &c}) d->imgTitle = {"farol"};
  b.imgUrl = "http://z.pt/x.jpg";
  c.imgUrl = "http://a.pt/x.jpg";
  add({a, b, c});
  EXPECT_EQ(ids("farol"), (V{"c", "b", "a"}));
  EXPECT_EQ(ids(""), (V{"c", "b", "a"}));
}

// Runs of equal weights that reach past a page's edges, short (ordered after ranking by
// weight) and longer than the items fetched past the page (the keyed ranking): every page is
// the slice of one order by weight, oldest capture, then image URL.
TEST_F(Ranking, TiesAcrossPageEdgesKeepTheTieBreakOrder) {
  std::vector<merge::ImageDocument> docs;
  std::vector<std::vector<merge::ImageDocument>> groups(3);  // heaviest first
  const size_t sizes[] = {4, 6, 120};
  for (size_t g = 0; g < 3; ++g)
    for (size_t i = 0; i < sizes[g]; ++i) {
      char id[48], ts[48];
      std::snprintf(id, sizeof id, "g%zud%03zu", g, i);
      std::snprintf(ts, sizeof ts, "%04zu0101000000", 2100 - i / 2);  // newest first, in pairs
      auto d = doc(id, ts);
      if (g == 0) d.imgTitle = {"farol"}, d.imgAlt = {"farol"};  // a word counts once per field
      if (g == 1) d.imgTitle = {"farol"};
      if (g == 2) d.imgAlt = {"farol"};
      docs.push_back(d);
      groups[g].push_back(d);
    }
  add(docs);
  V expected;
  for (auto& group : groups) {
    std::sort(group.begin(), group.end(), [](const auto& a, const auto& b) {
      return std::tie(a.imgCrawlTimestamp, a.imgUrl) < std::tie(b.imgCrawlTimestamp, b.imgUrl);
    });
    for (const auto& d : group) expected.push_back(d.id);
  }
  for (auto [offset, max] : std::vector<std::pair<unsigned, unsigned>>{
           {0, 5}, {0, 50}, {3, 4}, {8, 5}, {10, 50}, {60, 50}, {125, 10}, {200, 10}}) {
    SearchRequest r;
    r.q = "farol";
    r.offset = offset;
    r.max_items = max;
    const size_t from = std::min<size_t>(offset, expected.size());
    const size_t to = std::min<size_t>(offset + max, expected.size());
    EXPECT_EQ(ids(r), V(expected.begin() + from, expected.begin() + to))
        << "offset " << offset << " maxItems " << max;
  }
}

TEST_F(Ranking, AnyWordMatches) {
  auto a = doc("a");
  a.imgAlt = {"gato"};
  auto b = doc("b");
  b.imgAlt = {"cao"};
  auto both = doc("both");
  both.imgAlt = {"gato e cao"};
  add({a, b, both});
  auto got = ids("gato cao");
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], "both");
}

TEST_F(Ranking, StemmingAccentsAndEnglish) {
  auto d = doc("d");
  d.imgTitle = {"Carros antigos em São João da Madeira"};
  auto e = doc("e");
  e.imgCaption = {"Football players celebrating"};
  add({d, e});
  EXPECT_EQ(ids("carro"), (V{"d"}));
  EXPECT_EQ(ids("sao joao"), (V{"d"}));
  EXPECT_EQ(ids("SÃO JOÃO"), (V{"d"}));
  EXPECT_EQ(ids("football"), (V{"e"}));
  EXPECT_EQ(ids("players"), (V{"e"}));
  EXPECT_TRUE(ids("basketball").empty());
}

TEST_F(Ranking, ExactPhrasesAndExclusions) {
  auto a = doc("a");
  a.imgAlt = {"rio de janeiro"};
  auto b = doc("b");
  b.imgAlt = {"janeiro no rio"};
  add({a, b});
  EXPECT_EQ(ids("\"rio de janeiro\""), (V{"a"}));
  EXPECT_EQ(ids("rio -\"de janeiro\""), (V{"b"}));
  EXPECT_EQ(ids("rio -de"), (V{"b"}));  // a stop word excludes by exact form
  EXPECT_EQ(ids("janeiro -no"), (V{"a"}));
}

TEST_F(Ranking, StopWordOnlyQueryStillMatchesExactly) {
  auto a = doc("a");
  a.imgTitle = {"The Who"};
  add({a, doc("b")});
  EXPECT_EQ(ids("de"), V{});
  EXPECT_EQ(ids("who"), (V{"a"}));
}

}  // namespace
}  // namespace strata::search::testing
