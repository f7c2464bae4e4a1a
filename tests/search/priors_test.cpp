// Image priors: decorative images hidden by default, shown on request and under Arquivo's
// formula (the relevance baseline).
#include <algorithm>

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

// The place prior: images most pages show in their chrome rank under main-content images
// with the same evidence; a site's logo is found by the site's name.
class PlacePrior : public SearchTest {
 protected:
  void SetUp() override {
    auto partner = doc("partner");  // a footer's partner logo, on every page
    partner.imgCaption = {"solidarity network"};
    partner.refsInChrome = partner.matchingPages = 12;
    auto theme = doc("theme");  // a theme icon of the main content
    theme.imgCaption = {"solidarity network"};
    theme.refsInMain = theme.matchingPages = 2;
    auto logo = doc("logo");  // <a href="/"><img alt="(logo)"> on every page
    logo.imgAlt = {"(logo)"};
    logo.pageTitle = "Solidarity Network";
    logo.refsAsLogo = logo.matchingPages = 30;
    auto mention = doc("mention");  // a picture whose caption names the site
    mention.imgCaption = {"volunteers of the network for solidarity"};
    mention.refsInMain = mention.matchingPages = 1;
    add({partner, theme, logo, mention});
  }
};

TEST_F(PlacePrior, ChromeRanksUnderMainContent) {
  // The partner logo and the theme icon say the same; the icon is main content.
  auto before = [](const V& hits, const char* a, const char* b) {
    return std::find(hits.begin(), hits.end(), a) < std::find(hits.begin(), hits.end(), b);
  };
  const V strata = ids("network");
  ASSERT_EQ(strata.size(), 4u);  // demoted, never hidden
  EXPECT_TRUE(before(strata, "theme", "partner"));
  SearchRequest arquivo;
  arquivo.q = "network";
  arquivo.ranking = Ranking::arquivo;
  const V plain = ids(arquivo);  // no prior: the tie-break (image URL) puts the partner first
  ASSERT_EQ(plain.size(), 4u);
  EXPECT_TRUE(before(plain, "partner", "theme"));
}

TEST_F(PlacePrior, SiteLogoFoundByTheSiteName) {
  // The logo's page is the home page ("http://example.pt/"), whose title is the site's name.
  // Without it the logo matched in the page title alone, under the picture that mentions it.
  const V hits = ids("solidarity network");
  ASSERT_EQ(hits.size(), 4u);
  auto rank = [&hits](const char* id) { return std::find(hits.begin(), hits.end(), id); };
  EXPECT_LT(rank("logo"), rank("mention"));
}

}  // namespace
}  // namespace strata::search::testing
