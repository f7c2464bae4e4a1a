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
            (std::vector<std::string>{"http", "www", "ina", "pt", "img", "20logo.gif"}));
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
