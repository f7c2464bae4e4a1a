#include "extract/html_prefix.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "archive/reader.hpp"
#include "extract/charset.hpp"
#include "extract/html_prescan.hpp"
#include "extract/html_refs.hpp"
#include "testing/shared_data.hpp"

namespace strata::extract {
namespace {

constexpr const char* kPage = "http://ex.com/p.html";

// Rows of a forum listing without any possible reference: what the prefix leaves unparsed.
std::string listing(int rows) {
  std::string out = "<table>";
  for (int i = 0; i < rows; ++i)
    out += "<tr><td><a href=\"/post?id=" + std::to_string(i) + "\">Re: thread</a></td><td>" +
           std::to_string(i) + " replies</td></tr>\n";
  return out + "</table>";
}

std::string describe(const PageRefs& p) {
  std::string out = "title=" + p.title + " base=" + p.base_url +
                    " images=" + std::to_string(p.images_in_page) + "\n";
  for (const HtmlRef& r : p.refs)
    out += r.tag + " " + r.url + " alt=" + r.alt + " title=" + r.title + " caption=" + r.caption +
           (r.inline_ ? " inline" : "") + " position=" + std::string(position_name(r.position)) +
           "\n";
  return out;
}

// The references with the prefix path and without it must be the same; returns the
// counters of the run with it.
Counters expect_same_references(const std::string& html, const std::string& page = kPage) {
  SCOPED_TRACE(html.substr(0, 300));
  Counters with, without;
  RefOptions whole;
  whole.parse_prefix = false;
  std::string a = describe(find_references(page, html, {}, with));
  std::string b = describe(find_references(page, html, whole, without));
  EXPECT_EQ(a, b);
  return with;
}

TEST(HtmlPrefix, HeaderImagesWithALongListingParseThePrefixOnly) {
  std::string html =
      "<html><head><title>Forum</title></head><body><table><tr><td><a href=/><img "
      "src=/logo.jpg alt=Logo></a></td><td>Home | About</td></tr></table><div>" +
      listing(300) + "</div></body></html>";
  Counters c = expect_same_references(html);
  EXPECT_EQ(c.get("html_pages_tail_unparsed"), 1);
  EXPECT_EQ(c.get("html_prefix_reparsed"), 0);
  PagePrefix prefix(html);
  ASSERT_TRUE(prefix.parsed());
  EXPECT_LT(prefix.prefix_size(), html.size() / 4);
  Counters again;
  PageRefs p = find_references(kPage, html, {}, again);
  ASSERT_EQ(p.refs.size(), 1u);
  EXPECT_EQ(p.refs[0].caption, "Home | About");
  EXPECT_EQ(p.title, "Forum");
}

// Each page below has its references depend on what comes after the prefix: the prefix must
// not decide them, and the whole page is parsed.
TEST(HtmlPrefix, WholePageParsedWhenTheRestCanChangeTheReferences) {
  std::string tail = listing(300);
  for (const std::string& html : {
           // The caption's ancestor is still open: its text goes on.
           "<div>Before <img src=a.jpg>" + tail + " and the end</div>",
           // An open link: the adoption agency may move the image.
           "<p><a href=/x><img src=a.jpg></p>" + tail + "<p>text</a></p>",
           // An open figure: its figcaption comes later.
           "<figure><img src=a.jpg><p>x</p>" + tail + "<figcaption>Cap</figcaption></figure>",
           // A flat page: the body outgrows the image's parent, which changes the caption
           // method.
           "<div><b>x</b><img src=a.gif><i>y</i><br><br><br>z</div>" + tail +
               "<p>1<p>2<p>3<p>4<p>5<p>6<p>7<p>8",
           // A base naming an image: every later link is a reference.
           "<base href=\"http://ex.com/b.jpg\"><img src=x.gif><p>t</p>" + tail +
               "<a href=\"#top\">top</a>",
           // The prefix ends inside a textarea: the sentinel is text there.
           "<img src=a.jpg><textarea>" + tail + "</textarea>",
           // ... and inside a comment.
           "<img src=a.jpg><!-- " + tail + " -->",
       }) {
    Counters c = expect_same_references(html);
    EXPECT_EQ(c.get("html_pages_tail_unparsed"), 0) << html.substr(0, 100);
  }
}

TEST(HtmlPrefix, LateTitlesAndReferencesKeepThePageWhole) {
  std::string tail = listing(300);
  for (const std::string& html : {
           "<img src=a.jpg>" + tail + "<title>Late</title>",
           "<img src=a.jpg>" + tail + "<img src=b.jpg>",
           "<img src=a.jpg>" + tail + "<div style=\"background:url(c.png)\">",
       }) {
    Counters c = expect_same_references(html);
    EXPECT_EQ(c.get("html_pages_tail_unparsed") + c.get("html_prefix_reparsed"), 0);
  }
}

TEST(HtmlPrefix, PagesContainingTheSentinelAreParsedWhole) {
  std::string html =
      "<img src=a.jpg><p>t</p><!--strata:prefix-end--><div>" + listing(300) + "</div>";
  EXPECT_FALSE(PagePrefix(html).parsed());
  expect_same_references(html);
}

// Random tag soup around an image, then a long listing and more soup: the prefix path gives
// the whole page's references whatever the nesting left open.
TEST(HtmlPrefix, RandomSoupGivesTheWholePagesReferences) {
  const std::vector<std::string> pieces = {"<div>",
                                           "</div>",
                                           "<p>",
                                           "</p>",
                                           "<a href=/l>",
                                           "</a>",
                                           "<b>",
                                           "</b>",
                                           "<font size=2>",
                                           "</font>",
                                           "<table>",
                                           "</table>",
                                           "<tr>",
                                           "<td>",
                                           "</td>",
                                           "</tr>",
                                           "<ul><li>",
                                           "</ul>",
                                           "<figure>",
                                           "</figure>",
                                           "<figcaption>cap</figcaption>",
                                           "<img src=i.jpg alt=a>",
                                           "<img src=j.png>",
                                           "text ",
                                           " ",
                                           "\n",
                                           "<br>",
                                           "<span>",
                                           "</span>",
                                           "<!-- c -->",
                                           "<select><option>o</select>",
                                           "<textarea>",
                                           "</textarea>",
                                           "<title>t</title>",
                                           "<pre>",
                                           "</pre>",
                                           "<i>",
                                           "</i>",
                                           "</body>",
                                           "<html>",
                                           "<h1>",
                                           "</h1>",
                                           "<center>",
                                           "<nobr>",
                                           "<form>",
                                           "</form>",
                                           "<a href=x.gif>",
                                           "<li>",
                                           "<dl><dt>d<dd>e",
                                           "</dl>",
                                           "<style>p{}</style>",
                                           "<frameset>",
                                           "<base href=/b/>",
                                           "<script>s()</script>"};
  // After the listing: sometimes any piece, sometimes only pieces without a possible
  // reference or title (which leave the prefix before the listing).
  std::vector<std::string> quiet;
  for (const std::string& p : pieces)
    if (last_prefix_trigger(p) == std::string::npos) quiet.push_back(p);
  std::mt19937 rng(27);
  auto soup = [&](const std::vector<std::string>& from, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += from[rng() % from.size()];
    return out;
  };
  int decided = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string head = soup(pieces, static_cast<int>(rng() % 6)) + "<img src=h.jpg>" +
                       soup(pieces, static_cast<int>(rng() % 6));
    // Half of them closed by a </div> (with text after it: a caption for the image).
    if (round % 4 < 2) head = "<div>" + head + "</div>words";
    std::string html = head + listing(40 + static_cast<int>(rng() % 40)) +
                       soup(round % 2 ? quiet : pieces, static_cast<int>(rng() % 8));
    Counters c = expect_same_references(html);
    decided += static_cast<int>(c.get("html_pages_tail_unparsed"));
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(decided, 100);  // the path is exercised, not always refused
}

// The pages of the HTML-dense real crawls, both ways.
TEST(HtmlPrefix, RealPagesGiveTheWholePagesReferences) {
  STRATA_REQUIRE_SHARED();
  int pages = 0;
  int64_t decided = 0;
  for (const char* file :
       {"archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz",
        "archives/archivesunleashed__aut/src/test/resources/arc/example.arc.gz"}) {
    auto reader = archive::ArchiveReader::open(testing::shared_data(file), {}, {});
    ASSERT_TRUE(reader->usable()) << file;
    std::string payload;
    while (reader->next()) {
      const auto& rec = reader->record();
      std::string mime = rec.http.present ? rec.http.mime : rec.content_type;
      if (mime.find("html") == std::string::npos) continue;
      reader->read_payload(payload);
      DecodedText text = decode_html(payload, rec.http.present ? rec.http.charset : "");
      decided += expect_same_references(text.utf8, rec.target_uri).get("html_pages_tail_unparsed");
      ++pages;
    }
  }
  EXPECT_GE(pages, 280);
  EXPECT_GE(decided, 60);
}

}  // namespace
}  // namespace strata::extract
