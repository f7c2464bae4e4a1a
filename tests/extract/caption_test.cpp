#include "extract/caption.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "extract/html_dom.hpp"
#include "extract/html_refs.hpp"
#include "extract/html_text.hpp"

namespace strata::extract {
namespace {

std::string first_caption(const std::string& html, CaptionOptions o = {}) {
  Counters c;
  RefOptions ro;
  ro.caption = o;
  PageRefs p = find_references("http://ex.com/", html, ro, c);
  return p.refs.empty() ? "<none>" : p.refs[0].caption;
}

TEST(HtmlText, JsoupNormalisation) {
  HtmlDocument doc("<div> a  <b>b</b><p>c</p>d<br>e <script>no</script><pre> x  y</pre></div>");
  const GumboNode* body = static_cast<const GumboNode*>(
      children(static_cast<const GumboNode*>(children(doc.root()).data[0])).data[1]);
  // <pre> text is appended as is, as jsoup does.
  EXPECT_EQ(node_text(body).head, "a b c d e  x  y");
}

TEST(Caption, ParentText) {
  EXPECT_EQ(
      first_caption("<div><p>x</p></div><div><span>Hello <i>world</i></span><img src=a.png></div>"),
      "Hello world");
}

TEST(Caption, FigcaptionWins) {
  EXPECT_EQ(first_caption("<figure><div>other text<img src=a.png></div><figcaption> The cat "
                          "</figcaption></figure>"),
            "The cat");
}

TEST(Caption, Trim250HeadAndTail) {
  std::string words;
  for (int i = 0; i < 100; ++i) words += "w" + std::to_string(i) + " ";
  TextSummary s = node_text(HtmlDocument(words).root());
  std::string t = trim250(s);
  EXPECT_EQ(t.substr(0, 6), "w0 w1 ");
  EXPECT_NE(t.find('\n'), std::string::npos);
  EXPECT_EQ(t.substr(t.size() - 3), "w99");
  EXPECT_LE(t.size(), 252u);
}

TEST(Caption, Trim250LongTextBeyondSummary) {
  std::string text(5000, 'x');
  TextSummary s = node_text(HtmlDocument("<p>" + text + "</p>").root());
  EXPECT_EQ(s.chars, 5000u);
  EXPECT_FALSE(s.complete());
  EXPECT_EQ(trim250(s), std::string(125, 'x') + "\n" + std::string(126, 'x'));
}

TEST(Caption, BudgetSpentGivesNoCaption) {
  CaptionOptions o;
  o.budget = std::chrono::milliseconds(-1);
  Counters c;
  RefOptions ro;
  ro.caption = o;
  PageRefs p = find_references("http://ex.com/", "<div>text<img src=a.png></div>", ro, c);
  ASSERT_EQ(p.refs.size(), 1u);
  EXPECT_EQ(p.refs[0].caption, "");
  EXPECT_EQ(c.get("html_captions_timed_out"), 1);
}

TEST(Caption, AltAndTitleTruncated) {
  std::string alt(20000, 'a');
  Counters c;
  PageRefs p = find_references("http://ex.com/", "<img src=a.png alt='" + alt + "'>", {}, c);
  ASSERT_EQ(p.refs.size(), 1u);
  EXPECT_EQ(p.refs[0].alt.size(), 10000u);
}

// The snippets below are cut from real pages of the judged sample (bench/caption/judged.jsonl).

// archive.org 2008: the logo sits beside the navigation bar, a list of links.
TEST(CaptionBoilerplate, LinkListIsNotACaption) {
  EXPECT_EQ(first_caption("<table><tr><td><a href='/'><img src='/images/logo.jpg' alt='(logo)'>"
                          "</a></td><td><a href='/web/'>Web</a> | <a href='/movies/'>Moving "
                          "Images</a> | <a href='/texts/'>Texts</a> | <a href='/audio/'>Audio</a>"
                          "</td></tr></table><p>Body text of the page.</p>"),
            "");
}

// iana.org: the logo inside <header>, beside the navigation.
TEST(CaptionBoilerplate, HeaderAndNavAreNotCaptions) {
  EXPECT_EQ(first_caption("<header><div id='header'><div id='logo'><a href='/'><img "
                          "src='/_img/iana-logo-header.svg' alt='Homepage'></a></div><div "
                          "class='navigation'><ul><li><a href='/domains'>Domains</a></li><li><a "
                          "href='/numbers'>Numbers</a></li></ul></div></div></header>"
                          "<div id='body'><h1>Number Resources</h1></div>"),
            "");
  // An article's own header is content.
  EXPECT_EQ(first_caption("<article><header><img src='a.png'><h1>Manu Chao in München</h1>"
                          "</header><p>Text</p></article>"),
            "Manu Chao in München");
}

// solidarite-numerique.fr: menus named by their class, footers by theirs.
TEST(CaptionBoilerplate, MenuAndFooterClassesAreNotCaptions) {
  EXPECT_EQ(first_caption("<div class='main_menu new_main_menu'><ul class='flex'><li><a "
                          "href='/'><img src='lens-blue.svg' alt='Rechercher'></a></li><li><a "
                          "href='/'>Accueil</a></li></ul></div>"),
            "");
  EXPECT_EQ(first_caption("<div class='last-footer'><div class='container flex'><img "
                          "src='FR.svg'><a href='/mentions'>Mentions légales</a></div></div>"),
            "");
}

// commoncrawl.org: seven layout boxes share the text after them; it is the page's.
TEST(CaptionBoilerplate, TextOfFourPicturesIsThePages) {
  std::string boxes =
      "<div><p>Need data?</p><img src='/box-1.png'><img src='/box-2.png'><img src='/box-3.png'>"
      "<img src='/box-4.png'><p>Please donate</p></div>";
  Counters c;
  PageRefs p = find_references("http://ex.com/", boxes, {}, c);
  ASSERT_EQ(p.refs.size(), 4u);
  for (const HtmlRef& r : p.refs) EXPECT_EQ(r.caption, "");
  EXPECT_EQ(c.get("html_captions_shared_dropped"), 4);
  // Three pictures sharing a text keep it.
  EXPECT_EQ(first_caption("<p>Icons <img src='a.png'><img src='b.png'><img src='c.png'></p>"),
            "Icons");
}

// archive.org: a rating's stars (full, half, empty) after their label; twitter: one avatar
// beside the account's name on every tweet. One picture repeated keeps its own text.
TEST(CaptionBoilerplate, OnePictureRepeatedKeepsItsText) {
  std::string tweets;
  for (int i = 0; i < 4; ++i)
    tweets += "<div class='tweet'><img src='/avatar.jpg'><b>IIPC @NetPreserve</b><p>Tweet " +
              std::to_string(i) + " text</p></div>";
  Counters c;
  PageRefs p = find_references("http://ex.com/", tweets, {}, c);
  ASSERT_EQ(p.refs.size(), 4u);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(p.refs[i].caption, "IIPC @NetPreserve Tweet " + std::to_string(i) + " text");
  EXPECT_EQ(c.get("html_captions_shared_dropped"), 0);
}

// archive.org: "Title<br>Average rating: [stars] Next title<br>Average rating: [stars]". A
// label ending in ':' introduces the stars after it, even right after the previous row; the
// text after the stars is the next item's.
TEST(CaptionNeighbourhood, LabelIntroducesTheGroupAfterIt) {
  std::string list =
      "<div>Adobe Reader<br>Average rating: <img src='/star.png'><img src='/star.png'>"
      "<img src='/half_star.png'> Leisure Suit Larry<br>Average rating: "
      "<img src='/star.png'><img src='/no_star.png'></div><p>Other text</p>";
  Counters c;
  PageRefs p = find_references("http://ex.com/", list, {}, c);
  ASSERT_EQ(p.refs.size(), 5u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(p.refs[i].caption, "Adobe Reader Average rating:");
  for (size_t i = 3; i < 5; ++i) EXPECT_EQ(p.refs[i].caption, "Leisure Suit Larry Average rating:");
}

// solidarite-numerique.fr: theme cards are <aside> boxes holding a picture and its theme; a
// sidebar's text beside a picture outside it stays out.
TEST(CaptionBoilerplate, AsideHoldingThePictureKeepsItsText) {
  EXPECT_EQ(first_caption("<aside class='item'><div><figure><img src='a.png'></figure>"
                          "<span>Education et formation<br><small>6 tutoriels</small></span>"
                          "</div></aside>"),
            "Education et formation 6 tutoriels");
  EXPECT_EQ(first_caption("<div><p><img src='a.png'></p><aside><p>Sidebar news</p></aside></div>"),
            "");
}

// archive.org 2008: the header picture stood beside the search form's drop-down of media types.
TEST(CaptionBoilerplate, DropDownOptionsAreNotCaptions) {
  EXPECT_EQ(first_caption("<div><img src='h.jpg'><form>Search: <select><option>All Media Types"
                          "</option><option>Education</option></select></form></div>"),
            "Search:");
}

// cdnow.com 2000: spacers carry the promotion line next to them.
TEST(CaptionBoilerplate, TinyImagesHaveNoCaption) {
  EXPECT_EQ(first_caption("<table><tr><td><img src='spacer.gif' width='1' height='15'> In "
                          "Music: Start and finish your holiday shopping HERE!</td></tr></table>"),
            "");
  EXPECT_EQ(first_caption("<p>Rule <img src='r.gif' width='600' height='2px'></p>"), "");
  EXPECT_EQ(first_caption("<p>Wide <img src='w.gif' width='100%' height='40'></p>"), "Wide");
}

// mek.oszk.hu: sponsor logos each followed by the sponsor's name.
TEST(CaptionNeighbourhood, TextAfterAnImageIsThatImagesOwn) {
  std::string html =
      "<td class='bartd4'><p>&nbsp;</p><a href='http://www.niif.hu/'><img "
      "src='niif.gif'></a><br><a href='http://www.niif.hu/'>Nemzeti<br>Információs<br>"
      "Infrastruktúra <br>Fejlesztési Program</a><p>&nbsp;</p><a href='http://www.iszt.hu/'>"
      "<img src='iszt.gif'></a><br><a href='http://www.iszt.hu'>Internet<br>Szolgáltatók<br>"
      "Tanácsa</a></td>";
  Counters c;
  PageRefs p =
      find_references("http://mek.oszk.hu/", "<table><tr>" + html + "</tr></table>", {}, c);
  ASSERT_EQ(p.refs.size(), 2u);
  EXPECT_EQ(p.refs[0].caption, "Nemzeti Információs Infrastruktúra Fejlesztési Program");
  EXPECT_EQ(p.refs[1].caption, "Internet Szolgáltatók Tanácsa");
}

// richmondstrikers.com: a layout slice in a column of text gets the nearest block, not the
// column's head and tail.
TEST(CaptionNeighbourhood, NearestBlockNotTheWholeColumn) {
  std::string column =
      "<td id='leftColumnL3'><p>Alumni news and results</p><img "
      "src='L3-2-1.gif'><p>If you played for the Richmond Strikers, "
      "please contact us.</p>";
  for (int i = 0; i < 10; ++i) column += "<p>Player " + std::to_string(i) + " University</p>";
  column += "</td>";
  EXPECT_EQ(first_caption("<table><tr>" + column + "</tr></table>"),
            "Alumni news and results\nIf you played for the Richmond Strikers, please contact us.");
}

// books.toscrape.com: a short text around one image is taken whole, as Arquivo does.
TEST(CaptionNeighbourhood, ShortTextOfOneImageIsWhole) {
  std::string list = "<ol class='row'>";
  for (std::string title : {"The Black Maria", "Olio", "Starving Hearts", "Tipping the Velvet",
                            "Soumission", "Sharp Objects"})
    list +=
        "<li><article class='product_pod'><div class='image_container'><a href='b.html'><img "
        "src='" +
        title + ".jpg'></a></div><h3><a href='b.html'>" + title +
        "</a></h3><p class='price_color'>£52.15</p><p>In stock</p></article></li>";
  EXPECT_EQ(first_caption(list + "</ol>"), "The Black Maria £52.15 In stock");
}

// wiki.archiveteam.org (MediaWiki): the thumbnail's caption wins over the text around it.
TEST(CaptionNeighbourhood, MediaWikiThumbCaption) {
  EXPECT_EQ(first_caption("<p>Archive Team is a loose collective of rogue archivists.</p><div "
                          "class='thumb tright'><div class='thumbinner'><a class='image' "
                          "href='/File:A.jpg'><img src='/images/thumb/A.jpg'></a><div "
                          "class='thumbcaption'>The Archive Team logo</div></div></div>"),
            "The Archive Team logo");
}

// netpreserveblog (WordPress): the stats pixel is hidden by its inline style; spacers by name.
TEST(CaptionBoilerplate, PixelsByStyleAndSpacersByName) {
  EXPECT_EQ(first_caption("<p>%d bloggers like this:</p><noscript><img "
                          "src='https://pixel.wp.com/b.gif?v=noscript' "
                          "style='height:0px;width:0px;overflow:hidden' alt=''></noscript>"),
            "");
  EXPECT_EQ(first_caption("<td><img src='http://gs.cdnow.com/graphics/spacer.gif' height='20' "
                          "width='10'> In Music: Start and finish your holiday shopping</td>"),
            "");
  EXPECT_EQ(first_caption("<p>Shown <img src='/spacers/photo.jpg' style='width: 300px'></p>"),
            "Shown");
}

// twitter.com: hashtag links carry class="js-nav"; the tweet is content, not navigation. Its
// text is its photo's caption although an emoji opens it; the emoji, part of the sentence,
// gets none.
TEST(CaptionBoilerplate, ClassWordsOnLinksDoNotMakeBoilerplate) {
  const std::string tweet =
      "<div class='content'><p class='tweet-text'><img class='Emoji' src='1f4e2.png' "
      "alt='📢'><a href='/hashtag/iipcWAC19' class='twitter-hashtag js-nav'>#iipcWAC19</a> "
      "preview: Technical Development of Croatian Web Archive</p><div class='media'><div>"
      "<img src='D7XV7RFX4AEaNfO.png' alt=''></div></div><div>Reply Retweet</div></div>";
  Counters c;
  const PageRefs p = find_references("http://ex.com/", tweet, {}, c);
  ASSERT_EQ(p.refs.size(), 2u);
  EXPECT_EQ(p.refs[0].caption, "");
  EXPECT_EQ(p.refs[1].caption,
            "#iipcWAC19 preview: Technical Development of Croatian Web Archive\nReply Retweet");
  EXPECT_EQ(first_caption("<div role='navigation'><img src='home.png'> Home page</div><p>x</p>"),
            "");
}

// A page nested thousands deep: every level a container of the rest. Captions stop once the
// page's blocks budget is read; the page is done quickly.
TEST(CaptionBlocksBudget, DeeplyNestedPageStaysBounded) {
  std::string html;
  for (int i = 0; i < 3000; ++i) html += "<div>t<img src='/i/" + std::to_string(i) + ".png'>";
  Counters c;
  auto start = std::chrono::steady_clock::now();
  PageRefs p = find_references("http://ex.com/", html, {}, c);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(p.refs.size(), 3000u);
  EXPECT_GT(c.get("html_captions_timed_out"), 0);
  EXPECT_LT(s, 10.0);
}

}  // namespace
}  // namespace strata::extract
