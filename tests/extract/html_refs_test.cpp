#include "extract/html_refs.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "extract/css_urls.hpp"
#include "extract/srcset.hpp"

namespace strata::extract {
namespace {

PageRefs refs_of(const std::string& html, const std::string& page = "http://ex.com/dir/page.html") {
  Counters c;
  return find_references(page, html, {}, c);
}

std::vector<std::string> urls(const PageRefs& p, const std::string& tag = "") {
  std::vector<std::string> out;
  for (const auto& r : p.refs)
    if (tag.empty() || r.tag == tag) out.push_back(r.url);
  return out;
}

TEST(Srcset, EveryCandidate) {
  EXPECT_EQ(parse_srcset("a.jpg 1x, b.jpg 2x"), (std::vector<std::string>{"a.jpg", "b.jpg"}));
  // WHATWG: a comma inside a URL token does not split it ("a.jpg,b.jpg" is one URL).
  EXPECT_EQ(parse_srcset(" a.jpg,b.jpg 100w ,\n c.jpg"),
            (std::vector<std::string>{"a.jpg,b.jpg", "c.jpg"}));
  EXPECT_EQ(parse_srcset("a.jpg, b.jpg 100w"), (std::vector<std::string>{"a.jpg", "b.jpg"}));
  EXPECT_EQ(parse_srcset("a.jpg (x, y) 1x, b,c.jpg"),
            (std::vector<std::string>{"a.jpg", "b,c.jpg"}));
  EXPECT_EQ(parse_srcset("data:image/png;base64,AAAA 1x"),
            (std::vector<std::string>{"data:image/png;base64,AAAA"}));
  EXPECT_TRUE(parse_srcset(" , ,").empty());
}

TEST(CssUrls, QuotedUnquotedAndComments) {
  EXPECT_EQ(css_urls("a{background:url( 'x.png' )} /* url(no.png) */ b{background:URL(y.gif)}"),
            (std::vector<std::string>{"x.png", "y.gif"}));
  EXPECT_EQ(css_urls("x{background:url(\"a b.jpg\")}"), (std::vector<std::string>{"a b.jpg"}));
  EXPECT_TRUE(css_urls("url()").empty());
  EXPECT_TRUE(css_urls("myurl(x.png)").empty());
}

TEST(HtmlRefs, ImgAttributesSrcsetAndPicture) {
  PageRefs p = refs_of(
      "<img src='a.png' lowsrc='/low.gif' data-src='lazy.JPG' alt='x.jpg' title='T' "
      "srcset='s1.webp 1x, s2.webp 2x' data-other='not an image'>"
      "<picture><source srcset='p.avif 1x, p2.jpg 2x'><img src='fallback.jpg' "
      "alt='Pic'></picture>");
  EXPECT_EQ(urls(p, "img"),
            (std::vector<std::string>{"http://ex.com/dir/a.png", "http://ex.com/low.gif",
                                      "http://ex.com/dir/lazy.JPG", "http://ex.com/dir/x.jpg",
                                      "http://ex.com/dir/s1.webp", "http://ex.com/dir/s2.webp",
                                      "http://ex.com/dir/fallback.jpg"}));
  EXPECT_EQ(urls(p, "source"),
            (std::vector<std::string>{"http://ex.com/dir/p.avif", "http://ex.com/dir/p2.jpg"}));
  EXPECT_EQ(p.refs[0].title, "T");
  EXPECT_EQ(p.refs.back().alt, "Pic");  // sources take the picture's <img> alt
  EXPECT_EQ(p.images_in_page, 2);
}

TEST(HtmlRefs, BaseHrefAppliesToEverything) {
  PageRefs p = refs_of(
      "<head><base href='http://cdn.org/x/'></head><img src='i.png'>"
      "<a href='big.jpg'>Big picture</a><div style='background:url(bg.gif)'></div>");
  EXPECT_EQ(p.base_url, "http://cdn.org/x/");
  EXPECT_EQ(urls(p), (std::vector<std::string>{"http://cdn.org/x/i.png", "http://cdn.org/x/big.jpg",
                                               "http://cdn.org/x/bg.gif"}));
  EXPECT_EQ(p.refs[1].tag, "a");
  EXPECT_EQ(p.refs[1].caption, "Big picture");
  EXPECT_EQ(p.refs[2].tag, "css");
}

TEST(HtmlRefs, AnchorsOnlyToImagesAndDeduplicated) {
  PageRefs p =
      refs_of("<a href='page.html'>no</a><a href='i.png?x=1'>one</a><a href='i.png?x=1'>two</a>");
  ASSERT_EQ(urls(p, "a"), (std::vector<std::string>{"http://ex.com/dir/i.png?x=1"}));
  EXPECT_EQ(p.refs[0].caption, "one");
}

TEST(HtmlRefs, CssOnlyInStylesNotScriptsOrText) {
  PageRefs p = refs_of(
      "<style>.a{background:url(s.png)} .b{background:url(s.png)} "
      "@font-face{src:url(f.woff)}</style>"
      "<script>var u = 'url(script.png)';</script><p>text url(text.png)</p>"
      "<img src='s.png'><span style=\"background-image:url('t.jpg')\"></span>");
  EXPECT_EQ(urls(p, "css"),
            (std::vector<std::string>{"http://ex.com/dir/t.jpg"}));  // s.png is an img
  EXPECT_EQ(urls(p, "img"), (std::vector<std::string>{"http://ex.com/dir/s.png"}));
}

TEST(HtmlRefs, InlineDataImages) {
  PageRefs p = refs_of(
      "<img src='data:image/png;base64,iVBORw0KGgo=' alt='dot'>"
      "<div style='background:url(data:image/gif;base64,R0lGOD==)'></div>");
  ASSERT_EQ(p.refs.size(), 2u);
  EXPECT_EQ(p.refs[0].tag, "inline");
  EXPECT_TRUE(p.refs[0].inline_);
  EXPECT_EQ(p.refs[0].url, "data:image/png;base64,iVBORw0KGgo=");
  EXPECT_EQ(p.refs[0].alt, "dot");
  EXPECT_TRUE(p.refs[1].inline_);
}

TEST(HtmlRefs, AbsurdUrlsCountedAndDropped) {
  Counters c;
  std::string html =
      "<img src='/" + std::string(20000, 'a') + ".png'><img src='   '><img src='ok.png'>";
  PageRefs p = find_references("http://ex.com/", html, {}, c);
  EXPECT_EQ(urls(p), (std::vector<std::string>{"http://ex.com/ok.png"}));
  EXPECT_EQ(c.get("html_refs_too_long"), 1);
  EXPECT_EQ(p.images_in_page, 3);
}

TEST(HtmlRefs, ImageCapCountsTheRest) {
  std::string html;
  for (int i = 0; i < 30; ++i) html += "<img src='i" + std::to_string(i) + ".png'>";
  Counters c;
  RefOptions o;
  o.max_images = 10;
  PageRefs p = find_references("http://ex.com/", html, o, c);
  EXPECT_EQ(p.refs.size(), 10u);
  EXPECT_EQ(p.images_in_page, 30);
  EXPECT_EQ(c.get("html_img_not_parsed"), 20);
}

TEST(HtmlRefs, TagSoupNeverCrashes) {
  for (const char* html : {"<img", "<img src=", "<<img src='a.png'>>", "<picture><source srcset=",
                           "<a href='x.png'><a href='y.png'>", "<style>url(", "\0\0<img src=x.png>",
                           "<table><img src=t.png><tr><td>cell</table>"}) {
    Counters c;
    find_references("http://ex.com/", html, {}, c);
  }
  SUCCEED();
}

TEST(HtmlRefs, ManyImagesStayFast) {
  std::string html = "<html><body>";
  for (int i = 0; i < 30000; ++i)
    html += "<div><span></span><img src='/g/" + std::to_string(i) + ".jpg'></div>";
  html += "<p>one text for all</p></body></html>";
  Counters c;
  auto start = std::chrono::steady_clock::now();
  PageRefs p = find_references("http://ex.com/", html, {}, c);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(p.refs.size(), 10000u);
  EXPECT_EQ(p.images_in_page, 30000);
  EXPECT_LT(s, 10.0);
}

}  // namespace
}  // namespace strata::extract
