// Query analysis that keeps every word: dotted names match hosts and URL tokens, elided
// articles and apostrophe look-alikes meet the same terms at index and query time.
#include <algorithm>

#include "search/query_text.hpp"
#include "search_fixture.hpp"
#include "url/url.hpp"

namespace strata::search::testing {
namespace {

merge::ImageDocument on_page(const std::string& id, const std::string& page_url,
                             const std::string& host) {
  auto d = doc(id);
  d.imgUrl = page_url + id + ".jpg";
  d.imgUrlTokens = url::url_tokens(d.imgUrl);
  d.pageUrl = page_url;
  d.pageUrlTokens = url::url_tokens(page_url);
  d.pageHost = host;
  return d;
}

class QueryAnalysis : public SearchTest {
 protected:
  void SetUp() override {
    auto gov = on_page("gov", "https://www.gov.uk/government/", "www.gov.uk");
    auto books = on_page("books", "http://books.toscrape.com/", "books.toscrape.com");
    auto ia = on_page("ia", "http://www.archive.org/about/", "www.archive.org");
    auto tw = on_page("tw", "https://twitter.com/netpreserve", "twitter.com");
    tw.imgUrl = "https://pbs.twimg.com/media/D79blBqXUAA8vCn.jpg";
    tw.imgUrlTokens = url::url_tokens(tw.imgUrl);
    auto org = on_page("org", "http://example.org/", "example.org");
    auto fr = on_page("fr", "https://www.solidarite-numerique.fr/", "www.solidarite-numerique.fr");
    fr.imgAlt = {"Photo d\u2019un ordinateur avec en fond d'écran des gâteaux"};
    fr.imgCaption = {"L'Éducation nationale et l\u02BCaxe numérique"};
    auto it = on_page("it", "http://www.beniculturali.it/", "www.beniculturali.it");
    it.imgTitle = {"Galleria dell'Accademia, nell'arte del Rinascimento"};
    add({gov, books, ia, tw, org, fr, it});
  }
};

TEST_F(QueryAnalysis, DottedHostNamesMatchTheirHostsAndUrlTokens) {
  EXPECT_EQ(ids("gov.uk"), (V{"gov"}));
  EXPECT_EQ(ids("archive.org"), (V{"ia"}));  // not every .org image
  EXPECT_EQ(ids("www.archive.org"), (V{"ia"}));
  EXPECT_EQ(ids("twitter.com"), (V{"tw"}));  // images on pbs.twimg.com, page on twitter.com
  EXPECT_EQ(ids("books.toscrape.com"), (V{"books"}));
  EXPECT_EQ(ids("toscrape.com"), (V{"books"}));  // a parent domain
  EXPECT_TRUE(ids("nothere.org").empty());
}

TEST_F(QueryAnalysis, ExcludedDottedWordsExcludeTheHostOnly) {
  V found = ids("-archive.org");
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (V{"books", "fr", "gov", "it", "org", "tw"}));
}

TEST_F(QueryAnalysis, ElidedWordsAreFoundWithoutTheirArticle) {
  EXPECT_EQ(ids("education"), (V{"fr"}));
  EXPECT_EQ(ids("écran"), (V{"fr"}));
  EXPECT_EQ(ids("axe"), (V{"fr"}));
  EXPECT_EQ(ids("accademia"), (V{"it"}));
  EXPECT_EQ(ids("arte"), (V{"it"}));
}

TEST_F(QueryAnalysis, ApostropheLookalikesQueryAlike) {
  for (const char* q : {"l'axe", "L\u2019axe", "l\u02BCaxe", "l\u2018axe", "d'un ordinateur"})
    EXPECT_EQ(ids(q), (V{"fr"})) << q;
  EXPECT_EQ(ids("\"d\u2019un ordinateur\""), (V{"fr"}));  // phrases too
  EXPECT_EQ(ids("\"dell\u2019Accademia\""), (V{"it"}));
}

}  // namespace
}  // namespace strata::search::testing
