// Where on its page each image reference stands (extract/page_position.hpp): main content,
// chrome, the site's logo, or a place the markup does not tell.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "extract/html_refs.hpp"

namespace strata::extract {
namespace {

// Each reference's URL (its last path segment) -> its position's name.
std::map<std::string, std::string> positions(const std::string& body,
                                             const std::string& page = "http://ex.com/a/b.html") {
  Counters c;
  std::map<std::string, std::string> out;
  for (const HtmlRef& r : find_references(page, "<html><body>" + body, {}, c).refs)
    out[r.url.substr(r.url.rfind('/') + 1)] = std::string(position_name(r.position));
  return out;
}

using M = std::map<std::string, std::string>;

TEST(PagePosition, LandmarkElements) {
  EXPECT_EQ(positions("<header><img src=h.jpg></header><nav><img src=n.jpg></nav>"
                      "<main><img src=m.jpg></main><aside><img src=s.jpg></aside>"
                      "<article><img src=a.jpg></article><footer><img src=f.jpg></footer>"
                      "<figure><img src=g.jpg></figure><div><img src=p.jpg></div>"),
            (M{{"h.jpg", "chrome"},
               {"n.jpg", "chrome"},
               {"m.jpg", "main"},
               {"s.jpg", "chrome"},
               {"a.jpg", "main"},
               {"f.jpg", "chrome"},
               {"g.jpg", "main"},
               {"p.jpg", "page"}}));
}

TEST(PagePosition, AriaRoles) {
  EXPECT_EQ(positions("<div role=banner><img src=b.jpg></div><div role=main><img src=m.jpg>"
                      "</div><div role=navigation><img src=n.jpg></div>"
                      "<div role=contentinfo><img src=c.jpg></div>"),
            (M{{"b.jpg", "chrome"}, {"m.jpg", "main"}, {"n.jpg", "chrome"}, {"c.jpg", "chrome"}}));
}

TEST(PagePosition, ClassAndIdWords) {
  EXPECT_EQ(positions("<div id=sidebar><img src=s.jpg></div><div class='entry-content'>"
                      "<img src=e.jpg></div><div class=mainMenu><img src=m.jpg></div>"
                      "<div class='ad-slot'><img src=ad.jpg></div><div class=heading>"
                      "<img src=h.jpg></div><div id=site-footer><img src=f.jpg></div>"
                      "<div class='content-sidebar'><img src=cs.jpg></div>"),
            (M{{"s.jpg", "chrome"},
               {"e.jpg", "main"},
               {"m.jpg", "chrome"},
               {"ad.jpg", "chrome"},
               {"h.jpg", "page"},  // "ad" is a word, not a part of "heading"
               {"f.jpg", "chrome"},
               {"cs.jpg", "chrome"}}));
}

TEST(PagePosition, BodyClassesDescribeThePageNotARegion) {
  Counters c;
  auto refs = find_references("http://ex.com/",
                              "<body class='has-sidebar header-image'><img src=x.jpg>", {}, c)
                  .refs;
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0].position, PagePosition::page);
}

TEST(PagePosition, AnArticlesHeaderIsTheArticles) {
  // WordPress: <article><header class="entry-header"> holds the post's own picture.
  EXPECT_EQ(positions("<article><header class=entry-header><img src=post.jpg></header>"
                      "<footer><img src=author.jpg></footer></article>"
                      "<div class=site-header><div class=inner><img src=site.jpg></div></div>"),
            (M{{"post.jpg", "main"}, {"author.jpg", "main"}, {"site.jpg", "chrome"}}));
  // A wrapper called "content" around the whole page does not make its footer content.
  EXPECT_EQ(positions("<div class=inner_content><img src=c.jpg><footer><img src=f.jpg>"
                      "</footer><div class=last-footer><img src=l.jpg></div></div>"),
            (M{{"c.jpg", "main"}, {"f.jpg", "chrome"}, {"l.jpg", "chrome"}}));
  // A navigation block inside an article is still navigation.
  EXPECT_EQ(positions("<article><nav class=post-navigation><img src=next.jpg></nav></article>"),
            (M{{"next.jpg", "chrome"}}));
}

TEST(PagePosition, SiteLogoLinksToTheHomePage) {
  // archive.org 2008: a table header, no landmark, the logo a link to "/".
  EXPECT_EQ(positions("<table><tr><td><a href=\"/\"><img alt=\"(logo)\" src=/images/logo.jpg>"
                      "</a></td><td><a href=/web/web.php><img src=/images/web.gif></a></td>"
                      "<td><a href=http://www.ex.com/index.php><span><img src=l2.png></span>"
                      "</a></td><td><a href=\"/?s=x\"><img src=search.png></a></td>"
                      "<td><a href=http://other.org/><img src=partner.png></a></td></tr></table>",
                      "http://ex.com/details/x"),
            (M{{"logo.jpg", "logo"},
               {"web.gif", "page"},
               {"l2.png", "logo"},
               {"search.png", "page"},
               {"partner.png", "page"}}));
  // A home link in the main content is main content (a post's picture linking home).
  EXPECT_EQ(positions("<main><a href=/><img src=m.jpg></a></main><header><a href=/>"
                      "<picture><source srcset=s.webp><img src=h.png></picture></a></header>"),
            (M{{"m.jpg", "main"}, {"s.webp", "logo"}, {"h.png", "logo"}}));
}

TEST(PagePosition, AnchorsAndStyles) {
  EXPECT_EQ(
      positions("<nav><a href=big.jpg>zoom</a></nav><main><a href=photo.jpg>photo</a>"
                "<div style=\"background:url(bg.png)\"></div></main>"
                "<style>body{background:url(page.png)}</style>"),
      (M{{"big.jpg", "chrome"}, {"photo.jpg", "main"}, {"bg.png", "main"}, {"page.png", "page"}}));
}

// A picture shown three times or more on one page (a guide's pictogram beside every entry, a
// rating's star) is the page's furniture wherever it stands; twice is not (a thumbnail and
// its zoom), and a site's logo stays its logo.
TEST(PagePosition, APictureRepeatedOnThePageIsChrome) {
  Counters c;
  const std::string body =
      "<header><a href=/><img src=logo.png></a></header><main><p>Domaine A <img src=heart.jpg>"
      "<img src=a.jpg></p><p>Domaine B <img src=heart.jpg><img src=b.jpg></p><p>Domaine C"
      " <img src=heart.jpg><img src=twice.jpg><img src=twice.jpg></p></main>"
      "<footer><a href=/><img src=logo.png></a><a href=/><img src=logo.png></a></footer>";
  std::map<std::string, std::set<std::string>> places;
  for (const HtmlRef& r : find_references("http://ex.com/a/b.html", body, {}, c).refs)
    places[r.url.substr(r.url.rfind('/') + 1)].insert(std::string(position_name(r.position)));
  EXPECT_EQ(places, (std::map<std::string, std::set<std::string>>{{"logo.png", {"logo"}},
                                                                  {"heart.jpg", {"chrome"}},
                                                                  {"a.jpg", {"main"}},
                                                                  {"b.jpg", {"main"}},
                                                                  {"twice.jpg", {"main"}}}));
  EXPECT_EQ(c.get("html_refs_repeated_picture"), 3);
}

}  // namespace
}  // namespace strata::extract
