#include "cover/expr.hpp"

#include <gtest/gtest.h>

namespace strata::cover {
namespace {

Item image(std::string url, double ts, double width, double height) {
  Item it;
  it.set(StringAttr::url, std::move(url));
  it.set(NumberAttr::ts, ts);
  it.set(NumberAttr::width, width);
  it.set(NumberAttr::height, height);
  it.set(NumberAttr::area, width * height);
  return it;
}

bool cov(std::string_view text, const Item& a, const Item& b) {
  return covers(*parse(text), a, b);
}

size_t error_column(std::string_view text) {
  try {
    parse(text);
  } catch (const ExprError& e) {
    return e.column;
  }
  return 0;
}

TEST(CoverExpr, EveryExampleOfTheDocsParsesAndPrintsBack) {
  for (std::string_view text :
       {"near", "phash<=10,larger", "phash<=8,larger,better", "versions",
        "same(url),newer,within(ts,365d)", "perhost", "same(digest)|phash<=4",
        "phash<=10,b.width>=2*a.width", "near,containment(text)>=0.7", "exact", "best",
        "!same(host),phash<=6", "(same(url)|same(page)),newer", "a.mime=\"image/png\",same(url)",
        "jaccard(alt)>0.5&dice(caption)>=0.25", "same(url,host),b.tslast-a.tslast<=2w",
        "(a.width+1)*2<=b.width", "same(collection),same(phash)", "b.bytes>=100kb"}) {
    SCOPED_TRACE(text);
    ExprPtr e = parse(text);
    EXPECT_EQ(to_string(*parse(to_string(*e))), to_string(*e));
  }
  EXPECT_EQ(to_string(*parse(" same( url ) , NEWER ")), "same(url),newer");
}

TEST(CoverExpr, BadExpressionsSayWhere) {
  EXPECT_EQ(error_column(""), 1u);
  EXPECT_EQ(error_column("same(url"), 9u);
  EXPECT_EQ(error_column("same(colour)"), 6u);
  EXPECT_EQ(error_column("phash<=65"), 8u);
  EXPECT_EQ(error_column("phash<=x"), 8u);
  EXPECT_EQ(error_column("newer,,"), 7u);
  EXPECT_EQ(error_column("frobnicate"), 1u);
  EXPECT_EQ(error_column("within(url,3d)"), 8u);
  EXPECT_EQ(error_column("within(ts,3fortnights)"), 12u);
  EXPECT_EQ(error_column("a.url>=3"), 6u);
  EXPECT_EQ(error_column("a.url+1=b.url"), 6u);
  EXPECT_EQ(error_column("containment(body)>=0.5"), 13u);
  EXPECT_EQ(error_column("dice(alt)>=1.5"), 12u);
  EXPECT_EQ(error_column("1<2"), 1u);
  EXPECT_EQ(error_column("newer)"), 6u);
  EXPECT_EQ(error_column("a.mime=\"png"), 8u);
  EXPECT_GT(error_column(std::string(2000, '(')), 0u);
  std::string many = "newer";
  for (int k = 0; k < 40; ++k) many += ",newer";
  EXPECT_GT(error_column(many), 0u);
  try {
    parse("same(url),phash<=x");
    FAIL();
  } catch (const ExprError& e) {
    EXPECT_STREQ(e.what(), "column 18: expected a number, found 'x'");
  }
}

TEST(CoverExpr, OrderWordsAndSame) {
  const Item old_small = image("u", 100, 10, 10), new_big = image("u", 200, 20, 20);
  EXPECT_TRUE(cov("newer", old_small, new_big));
  EXPECT_FALSE(cov("newer", new_big, old_small));
  EXPECT_TRUE(cov("older", new_big, old_small));
  EXPECT_TRUE(cov("larger", old_small, new_big));
  EXPECT_TRUE(cov("smaller", new_big, old_small));
  EXPECT_TRUE(cov("versions", old_small, new_big));
  EXPECT_FALSE(cov("versions", old_small, image("v", 300, 1, 1)));
  Item ranked_first = image("u", 1, 1, 1), ranked_second = image("u", 1, 1, 1);
  ranked_first.set(NumberAttr::rank, 0);
  ranked_second.set(NumberAttr::rank, 1);
  EXPECT_TRUE(cov("better", ranked_second, ranked_first));
  EXPECT_FALSE(cov("better", ranked_first, ranked_second));
}

TEST(CoverExpr, AMissingValueIsFalse) {
  Item a = image("u", 100, 10, 10), b;  // b knows nothing
  EXPECT_FALSE(cov("newer", a, b));
  EXPECT_FALSE(cov("same(url)", a, b));
  EXPECT_FALSE(cov("near", a, b));
  EXPECT_FALSE(cov("within(ts,1y)", a, b));
  EXPECT_FALSE(cov("b.width>=a.width", a, b));
  EXPECT_FALSE(cov("containment(text)>=0", a, b));
  EXPECT_FALSE(cov("same(collection)", a, b));
  EXPECT_FALSE(cov("a.width/0>=0", a, a));  // division by zero: no value
  EXPECT_TRUE(cov("!newer", a, b));         // `not` of no evidence is true: say what you mean
}

TEST(CoverExpr, HammingWithinAndArithmetic) {
  Item a = image("u", 0, 100, 50), b = image("v", 86400 * 3, 250, 100);
  a.phash = 0xF0F0F0F0F0F0F0F0ull;
  b.phash = *a.phash ^ 0x7ull;  // 3 bits apart
  EXPECT_TRUE(cov("phash<=3", a, b));
  EXPECT_FALSE(cov("phash<3", a, b));
  EXPECT_TRUE(cov("phash=3", a, b));
  EXPECT_TRUE(cov("near", a, b));
  EXPECT_TRUE(cov("best", a, b));
  EXPECT_FALSE(cov("best", b, a));
  EXPECT_TRUE(cov("within(ts,3d)", a, b));
  EXPECT_FALSE(cov("within(ts,71h)", a, b));
  EXPECT_TRUE(cov("b.width>=2*a.width", a, b));
  EXPECT_FALSE(cov("b.width>=(2+1)*a.width", a, b));
  EXPECT_TRUE(cov("b.ts-a.ts=3d", a, b));
  EXPECT_TRUE(cov("same(digest)|phash<=4", a, b));
  EXPECT_FALSE(cov("same(digest)|phash<=2", a, b));
  EXPECT_TRUE(cov("!same(url),near", a, b));
}

TEST(CoverExpr, StringsAndCollections) {
  Item a, b;
  a.set(StringAttr::mime, "image/png");
  b.set(StringAttr::mime, "image/png");
  a.set(StringAttr::host, "a.pt");
  b.set(StringAttr::host, "b.pt");
  EXPECT_TRUE(cov("a.mime=\"image/png\"", a, b));
  EXPECT_TRUE(cov("a.mime=b.mime", a, b));
  EXPECT_TRUE(cov("a.host<b.host", a, b));
  EXPECT_FALSE(cov("same(host)", a, b));
  EXPECT_TRUE(cov("a.mime=\"image/\\\"x\"|same(mime)", a, b));
  a.collections = {"c1", "c2"};
  b.collections = {"c3", "c2"};
  EXPECT_TRUE(cov("same(collection)", a, b));
  b.collections = {"c3"};
  EXPECT_FALSE(cov("same(collection)", a, b));
}

TEST(CoverExpr, TextSimilarityOverWordShingles) {
  Item a, b;
  a.set(TextAttr::text, word_shingles("Lisbon harbour at dawn"));
  b.set(TextAttr::text, word_shingles("lisbon HARBOUR, at dawn; 1998 photo"));
  EXPECT_TRUE(cov("containment(text)>=1", a, b));     // all of a's 4 words are in b
  EXPECT_FALSE(cov("containment(text)>=0.7", b, a));  // 4 of b's 6
  EXPECT_TRUE(cov("jaccard(text)>=0.66", a, b));      // 4 / 6
  EXPECT_FALSE(cov("jaccard(text)>=0.67", a, b));
  EXPECT_TRUE(cov("dice(text)>=0.8", a, b));  // 8 / 10
  EXPECT_EQ(word_shingles("a b c d", 3).size(), 2u);
  EXPECT_EQ(word_shingles("a b", 3).size(), 1u);
  EXPECT_TRUE(word_shingles(" ,; ").empty());
}

TEST(CoverExpr, PresetsAreDocumentedExpressions) {
  for (const Preset& p : presets()) {
    SCOPED_TRACE(p.name);
    EXPECT_EQ(to_string(*parse(p.name)), p.name);
    EXPECT_NO_THROW(parse(p.text));
  }
  const Uses uses =
      attributes_used(*parse("near,containment(alt)>=0.5|dice(text)>0.1,a.ts<b.tslast"));
  EXPECT_TRUE(uses.phash);
  EXPECT_TRUE(uses.texts[size_t(TextAttr::alt)] && uses.texts[size_t(TextAttr::text)]);
  EXPECT_FALSE(uses.texts[size_t(TextAttr::caption)]);
  EXPECT_TRUE(uses.numbers[size_t(NumberAttr::ts)] && uses.numbers[size_t(NumberAttr::tslast)]);
  EXPECT_FALSE(uses.strings[size_t(StringAttr::url)]);
  EXPECT_TRUE(attributes_used(*parse("versions")).strings[size_t(StringAttr::url)]);
}

}  // namespace
}  // namespace strata::cover
