#include "search/dates.hpp"
#include "search/query_text.hpp"
#include "search_fixture.hpp"

namespace strata::search::testing {
namespace {

class Filters : public SearchTest {
 protected:
  void SetUp() override {
    auto old = doc("old", "19980512103000");
    old.imgMimeType = "image/gif";
    old.imgWidth = old.imgHeight = 200;  // 40000 px^2 -> sm
    old.pageHost = "www.fc.ul.pt";
    old.collection = {"AWP1"};
    auto mid = doc("mid", "20050101000000");
    mid.imgMimeType = "image/png";
    mid.imgWidth = mid.imgHeight = 256;  // 65536 -> sm (bound)
    mid.pageHost = "ul.pt";
    mid.collection = {"AWP2"};
    auto big = doc("big", "20240101120000");
    big.imgWidth = 1000;
    big.imgHeight = 900;  // lg
    big.pageHost = "www.publico.pt";
    big.collection = {"AWP1", "AWP3"};
    auto medium = doc("medium", "20240102000000");
    medium.imgWidth = 900;
    medium.imgHeight = 900;  // 810000 -> md
    medium.pageHost = "publico.pt";
    add({old, mid, big, medium});
  }
  V with(void (*set)(SearchRequest&)) {
    SearchRequest r;
    set(r);
    return ids(r);
  }
};

TEST_F(Filters, NoFilterReturnsAllOldestFirst) {
  EXPECT_EQ(ids(""), (V{"old", "mid", "big", "medium"}));
}

TEST_F(Filters, Type) {
  EXPECT_EQ(ids("type:png"), (V{"mid"}));
  EXPECT_EQ(ids("type:jpg"), (V{"big", "medium"}));
  SearchRequest r;
  r.types = parse_types("type", "gif,png");
  EXPECT_EQ(ids(r), (V{"old", "mid"}));
}

TEST_F(Filters, Size) {
  EXPECT_EQ(ids("size:sm"), (V{"old", "mid"}));
  EXPECT_EQ(ids("size:md"), (V{"medium"}));
  EXPECT_EQ(ids("size:lg"), (V{"big"}));
}

TEST_F(Filters, SiteExactWithOptionalWwwAndWildcardDomain) {
  EXPECT_EQ(ids("site:publico.pt"), (V{"big", "medium"}));
  EXPECT_EQ(ids("site:www.publico.pt"), (V{"big", "medium"}));
  EXPECT_EQ(ids("site:ul.pt"), (V{"mid"}));
  EXPECT_EQ(ids("site:*.ul.pt"), (V{"old"}));
  EXPECT_EQ(ids("site:*.pt"), (V{"old", "mid", "big", "medium"}));
  EXPECT_EQ(ids("site:fc.ul.pt,publico.pt"), (V{"old", "big", "medium"}));
}

TEST_F(Filters, Collection) {
  EXPECT_EQ(ids("collection:AWP1"), (V{"old", "big"}));
  EXPECT_EQ(ids("collection:AWP2,AWP3"), (V{"mid", "big"}));
}

TEST_F(Filters, DatesAllFormatsAndSingleBounds) {
  SearchRequest r;
  r.from = parse_lower_bound("2005");
  EXPECT_EQ(ids(r), (V{"mid", "big", "medium"}));
  r.to = parse_upper_bound("20240101");  // whole day, not Arquivo's mis-parse
  EXPECT_EQ(ids(r), (V{"mid", "big"}));
  r.from.reset();
  EXPECT_EQ(ids(r), (V{"old", "mid", "big"}));
  r.to = parse_upper_bound("20240101115959");
  EXPECT_EQ(ids(r), (V{"old", "mid"}));
  r.to = parse_upper_bound("1998");
  EXPECT_EQ(ids(r), (V{"old"}));
}

TEST(Dates, ParsesEveryPrecision) {
  EXPECT_EQ(parse_lower_bound("2024"), "20240101000000");
  EXPECT_EQ(parse_upper_bound("2024"), "20241231235959");
  EXPECT_EQ(parse_lower_bound("20240215"), "20240215000000");
  EXPECT_EQ(parse_upper_bound("20240215"), "20240215235959");
  EXPECT_EQ(parse_upper_bound("202402"), "20240229235959");
  EXPECT_EQ(parse_upper_bound("202302"), "20230228235959");
  EXPECT_EQ(parse_lower_bound("19910806"), "19910806000000");
  EXPECT_EQ(parse_lower_bound("20200316144705"), "20200316144705");
  EXPECT_EQ(parse_upper_bound("2020031614"), "20200316145959");
  EXPECT_FALSE(parse_lower_bound("20241301"));
  EXPECT_FALSE(parse_lower_bound("2024-01-01"));
  EXPECT_FALSE(parse_lower_bound("123"));
  EXPECT_FALSE(parse_upper_bound("abcd"));
}

class Moderation : public SearchTest {};

index::Moderation scored(double nsfw, bool blocked = false) {
  index::Moderation m;
  m.safe = nsfw;
  m.blocked = blocked;
  m.analysis = "ok";
  return m;
}

index::Moderation failed() {
  index::Moderation m;
  m.analysis = "corrupt";
  return m;
}

TEST_F(Moderation, SafeSearchShowsOnlyClassifiedSafeImagesAndBlockedAreAlwaysHidden) {
  auto inl = doc("inline");
  inl.isInline = true;
  add({doc("unknown"), doc("failed"), doc("nsfw"), doc("borderline"), doc("clean"), doc("blocked"),
       inl},
      {{"unknown", index::Moderation{}},
       {"failed", failed()},
       {"nsfw", scored(0.8)},
       {"borderline", scored(0.49)},
       {"clean", scored(0.0)},
       {"blocked", scored(0.0, true)}});
  EXPECT_EQ(ids(""), (V{"borderline", "clean"}));
  SearchRequest off;
  off.safe = false;
  const V all{"borderline", "clean", "failed", "nsfw", "unknown"};
  EXPECT_EQ(ids(off), all);
  EXPECT_EQ(ids("safe:off"), all);
}

TEST_F(Moderation, ScoresJustAboveTheThresholdAreHidden) {
  add({doc("a"), doc("b")}, {{"a", scored(0.4900001)}, {"b", scored(0.5)}});
  EXPECT_EQ(ids(""), V{});
}

class Paging : public SearchTest {};

TEST_F(Paging, OffsetMaxItemsTotalsAndYearsFacet) {
  std::vector<merge::ImageDocument> docs;
  for (int i = 0; i < 7; ++i) {
    auto d = doc("d" + std::to_string(i), std::to_string(2000 + i % 3) + "0101000000");
    d.imgUrl = "http://x.pt/" + std::to_string(i);
    d.imgTitle = {"mar"};
    docs.push_back(d);
  }
  add(docs);
  SearchRequest r;
  r.q = "mar";
  r.offset = 2;
  r.max_items = 3;
  SearchResult res = run(r);
  EXPECT_EQ(res.total, 7u);
  ASSERT_EQ(res.hits.size(), 3u);
  // order: 2000 (d0,d3,d6), 2001 (d1,d4), 2002 (d2,d5)
  EXPECT_EQ(res.hits[0].doc.id, "d6");
  EXPECT_EQ(res.hits[2].doc.id, "d4");
  using Y = std::vector<std::pair<std::string, uint64_t>>;
  EXPECT_EQ(res.years, (Y{{"2000", 3}, {"2001", 2}, {"2002", 2}}));
  r.offset = 6;
  EXPECT_EQ(run(r).hits.size(), 1u);
  r.offset = 50;
  EXPECT_EQ(run(r).hits.size(), 0u);
  EXPECT_EQ(run(r).total, 7u);
}

TEST(QueryText, OperatorsPhrasesExclusions) {
  SearchRequest r;
  auto p =
      parse_q("fccn site:fccn.pt size:sm type:png \"rede nacional\" -lixo -\"a b\" safe:off", r);
  EXPECT_EQ(p.words, (V{"fccn"}));
  EXPECT_EQ(p.phrases, (V{"rede nacional"}));
  EXPECT_EQ(p.excluded_words, (V{"lixo"}));
  EXPECT_EQ(p.excluded_phrases, (V{"a b"}));
  EXPECT_EQ(r.sites, (V{"fccn.pt"}));
  EXPECT_EQ(r.types, (V{"png"}));
  EXPECT_EQ(r.size, SizeClass::sm);
  EXPECT_FALSE(r.safe);
  EXPECT_THROW(parse_q("size:huge", r), RequestError);
  EXPECT_THROW(parse_q("site:bad/host", r), RequestError);
  auto plain = parse_q("http://x.pt fq:blocked:1", r);  // not operators: plain words
  EXPECT_EQ(plain.words, (V{"http://x.pt", "fq:blocked:1"}));
}

// Book filters (docs/books.md "Filters"): language: takes ISO 639 codes or tags (their primary
// subtag, lower-cased); pubyear: a year or a range, open at either end.
TEST(QueryText, BookLanguageAndPublicationYearOperators) {
  SearchRequest r;
  auto p = parse_q("harbour language:EN,pt-BR pubyear:1850-1900", r);
  EXPECT_EQ(p.words, (V{"harbour"}));
  EXPECT_EQ(r.languages, (V{"en", "pt"}));
  EXPECT_EQ(r.pub_year_from, 1850);
  EXPECT_EQ(r.pub_year_to, 1900);
  SearchRequest single;
  parse_q("pubyear:1884", single);
  EXPECT_EQ(single.pub_year_from, 1884);
  EXPECT_EQ(single.pub_year_to, 1884);
  SearchRequest open_end;
  parse_q("pubyear:1900-", open_end);
  EXPECT_EQ(open_end.pub_year_from, 1900);
  EXPECT_FALSE(open_end.pub_year_to);
  SearchRequest bad;
  EXPECT_THROW(parse_q("language:e", bad), RequestError);
  EXPECT_THROW(parse_q("language:en1", bad), RequestError);
  EXPECT_THROW(parse_q("pubyear:19x", bad), RequestError);
  EXPECT_THROW(parse_q("pubyear:10000", bad), RequestError);
  EXPECT_THROW(parse_q("pubyear:1900-1850", bad), RequestError);
  EXPECT_THROW(parse_q("pubyear:-", bad), RequestError);
  EXPECT_EQ(parse_pub_year("pubYearFrom", "0"), 0);
  EXPECT_THROW(parse_pub_year("pubYearFrom", "-5"), RequestError);
  EXPECT_THROW(parse_pub_year("pubYearFrom", "+5"), RequestError);
}

}  // namespace
}  // namespace strata::search::testing
