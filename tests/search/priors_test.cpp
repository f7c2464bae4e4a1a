// Image priors: decorative images hidden by default, shown on request and under Arquivo's
// formula (the relevance baseline).
#include "search/query_text.hpp"
#include "search_fixture.hpp"

namespace strata::search::testing {
namespace {

class Priors : public SearchTest {
 protected:
  void SetUp() override {
    auto bar = doc("bar");
    bar.imgUrl = "http://www.archive.org/images/blendbar.jpg";
    bar.imgWidth = 1800;
    bar.imgHeight = 89;
    bar.imgCaption = {"Internet Archive"};
    auto emoji = doc("emoji");
    emoji.imgUrl = "https://abs.twimg.com/emoji/v2/72x72/1f388.png";
    emoji.imgWidth = emoji.imgHeight = 72;
    emoji.imgAlt = {"\U0001F388"};
    emoji.imgCaption = {"WARC is 10 years old! Internet Archive"};
    auto logo = doc("logo");
    logo.imgWidth = 84;
    logo.imgHeight = 70;
    logo.imgAlt = {"Internet Archive logo"};
    add({bar, emoji, logo});
  }
};

TEST_F(Priors, DecorativeImagesHiddenByDefault) {
  EXPECT_EQ(ids("internet archive"), (V{"logo"}));
  EXPECT_EQ(ids(""), (V{"logo"}));
}

TEST_F(Priors, ShownOnRequest) {
  SearchRequest r;
  r.q = "internet archive";
  r.show_decorative = true;
  EXPECT_EQ(ids(r).size(), 3u);
  EXPECT_EQ(ids("internet archive decorative:show").size(), 3u);
  EXPECT_EQ(ids("internet archive decorative:hide"), (V{"logo"}));
  EXPECT_THROW(ids("internet archive decorative:maybe"), RequestError);
  EXPECT_TRUE(parse_decorative("decorative", "SHOW"));
  EXPECT_FALSE(parse_decorative("decorative", "hide"));
}

TEST_F(Priors, ArquivoFormulaShowsEverything) {
  SearchRequest r;
  r.q = "internet archive";
  r.ranking = Ranking::arquivo;
  EXPECT_EQ(ids(r).size(), 3u);
}

}  // namespace
}  // namespace strata::search::testing
