#include "index/analysis.hpp"

#include <gtest/gtest.h>

#include "index/stopwords.hpp"

namespace strata::index {
namespace {

std::vector<std::string> exact(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& t : analyze(text)) out.push_back(t.exact);
  return out;
}

TEST(Analysis, FoldsCaseAndAccents) {
  EXPECT_EQ(fold("São João"), "sao joao");
  EXPECT_EQ(fold("AÇORES Ângulo"), "acores angulo");
  EXPECT_EQ(fold("Ípsilon"), "ipsilon");
}

TEST(Analysis, SplitsOnUnicodeWordBoundaries) {
  EXPECT_EQ(exact("PÚBLICO — Pense bem, pense Público!"),
            (std::vector<std::string>{"publico", "pense", "bem", "pense", "publico"}));
  EXPECT_EQ(exact("UEFA Euro 2016"), (std::vector<std::string>{"uefa", "euro", "2016"}));
  EXPECT_EQ(exact("http www ina pt img%20logo.gif"),
            (std::vector<std::string>{"http", "www", "ina", "pt", "img", "20logo", "gif"}));
}

using Words = std::vector<std::string>;

TEST(Analysis, SplitsDottedWordsIntoJoinedParts) {
  // URL tokens split hosts at dots; a dotted word in text or in a query splits the same way.
  EXPECT_EQ(exact("gov.uk archive.org books.toscrape.com"),
            (Words{"gov", "uk", "archive", "org", "books", "toscrape", "com"}));
  auto tokens = analyze("see gov.uk");
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_FALSE(tokens[0].joined);
  EXPECT_FALSE(tokens[1].joined);
  EXPECT_TRUE(tokens[2].joined);
  EXPECT_EQ(exact("v1.2 string.js"), (Words{"v1", "2", "string", "js"}));
}

TEST(Analysis, DropsElidedArticlesAndPrepositions) {
  EXPECT_EQ(exact("l'Éducation nationale"), (Words{"education", "nationale"}));
  EXPECT_EQ(exact("d'água qu'il dell'arte all'aperto nell'acqua l'any s'ha"),
            (Words{"agua", "il", "arte", "aperto", "acqua", "any", "ha"}));
  EXPECT_EQ(exact("jusqu'ici lorsqu'on c'est j'ai n'est m'a t'aime un'isola"),
            (Words{"ici", "on", "est", "ai", "est", "a", "aime", "isola"}));
}

TEST(Analysis, TreatsApostropheLookalikesAsOne) {
  for (const char* text : {"L'axe", "L\u2019axe", "L\u02BCaxe", "L\u2018axe", "L\uFF07axe"})
    EXPECT_EQ(exact(text), (Words{"axe"})) << text;
  // Not an elision: the word stays whole, its apostrophe unified.
  EXPECT_EQ(exact("O\u2019Neil O'Neil rock'n'roll"), (Words{"o'neil", "o'neil", "rock'n'roll"}));
  EXPECT_EQ(drop_elision("dell\u2019arte"), "arte");
  EXPECT_EQ(drop_elision("l'"), "l'");
}

TEST(Analysis, DropsEnglishPossessives) {
  EXPECT_EQ(exact("Shakespeare's Sonnets, Pilgrim\u2019s life"),
            (Words{"shakespeare", "sonnets", "pilgrim", "life"}));
  EXPECT_EQ(drop_possessive("'s"), "'s");
}

TEST(Analysis, SplitsAtEveryHyphen) {
  for (const char* text : {"e-mail", "e\u2010mail", "e\u2011mail", "e\u2212mail", "e\u2013mail"})
    EXPECT_EQ(exact(text), (Words{"e", "mail"})) << text;
}

TEST(Analysis, FlagsPortugueseStopWordsOnFoldedForms) {
  EXPECT_TRUE(is_stop_word("de"));
  EXPECT_TRUE(is_stop_word("sao"));  // "são"
  EXPECT_FALSE(is_stop_word("lisboa"));
  auto tokens = analyze("Rio de Janeiro");
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_FALSE(tokens[0].stop);
  EXPECT_TRUE(tokens[1].stop);
}

TEST(Analysis, StemsPortugueseInflections) {
  auto a = analyze("carros");
  auto b = analyze("carro");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].stem, b[0].stem);
  EXPECT_EQ(analyze("Bibliotecas")[0].stem, analyze("biblioteca")[0].stem);
}

TEST(Analysis, SameAnalysisForAccentedAndPlainQueries) {
  EXPECT_EQ(analyze("João")[0].stem, analyze("joao")[0].stem);
  EXPECT_EQ(analyze("Informação")[0].stem, analyze("informacao")[0].stem);
}

TEST(Analysis, EmptyAndPunctuationOnly) {
  EXPECT_TRUE(analyze("").empty());
  EXPECT_TRUE(analyze(" -- !! ").empty());
}

}  // namespace
}  // namespace strata::index
