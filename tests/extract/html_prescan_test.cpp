#include "extract/html_prescan.hpp"

#include <gtest/gtest.h>

#include <string>

#include "extract/html_refs.hpp"

namespace strata::extract {
namespace {

TEST(HtmlPrescan, PagesWithoutAnyCandidateSkipTheParse) {
  EXPECT_FALSE(may_reference_images(""));
  EXPECT_FALSE(may_reference_images(
      "<html><head><title>News: today</title></head><body><p>Text (with parentheses), "
      "a <a href=\"/about.html\">link</a> &amp; &#8217; entities.</p></body></html>"));
  // A reference after a dot that cannot spell an extension's letters.
  EXPECT_FALSE(may_reference_images("<p>vs. PL&amp;F, more...&quot;x&quot; fate.&nbsp;</p>"));
}

TEST(HtmlPrescan, EveryKindOfReferenceNeedsTheParse) {
  for (const char* html :
       {"<IMG src=x>",                                 // img, any case
        "<image src=x>",                               // gumbo turns <image> into <img>
        "<picture><source srcset=x></picture>",        // picture sources
        "<a href=\"photo.JPG\">p</a>",                 // anchors to image files
        "<a href=\"p.jpeg\">", "<a href=\"p.tiff\">",  // both spellings
        "<div style=\"background:URL(x)\">",           // CSS in attributes
        "<a href=\" DATA:image/png;base64,AA\">",      // inline data URIs
        "<a href=\"p&#46;gif\">", "<a href=\"p&#x2E;gif\">",
        "<a href=\"p&period;gif\">",  // entities that spell a dot
        "<b style=\"background:url&lpar;x)\">", "<a href=\"data&#58;image/gif,\">",
        // URL parsing drops tabs and newlines; references may spell letters or tabs
        "<a href=\"x.j\tpg\">", "<a href=\"x.\npng\">", "<a href=\"x.g&#105;f\">",
        "<a href=\"x.j&Tab;pg\">"})
    EXPECT_TRUE(may_reference_images(html)) << html;
}

TEST(HtmlPrescan, SkippedPageHasNoReferencesAndIsCounted) {
  Counters c;
  PageRefs p = find_references("http://ex.com/a.html", "<p>plain text only</p>", {}, c);
  EXPECT_TRUE(p.refs.empty());
  EXPECT_EQ(p.images_in_page, 0);
  EXPECT_EQ(c.get("html_pages_without_candidates"), 1);
}

TEST(HtmlPrescan, PageUrlWithImageExtensionIsStillParsed) {
  // "#top" resolves to the page URL itself, which names an image file.
  Counters c;
  PageRefs p = find_references("http://ex.com/photo.gif", "<a href=\"#top\">up</a>", {}, c);
  ASSERT_EQ(p.refs.size(), 1u);
  EXPECT_EQ(p.refs[0].tag, "a");
  EXPECT_EQ(p.refs[0].caption, "up");
  EXPECT_EQ(c.get("html_pages_without_candidates"), 0);
}

// Finder skips URL resolution for values without an image extension: the cases where
// resolution itself makes one must still be found.
TEST(HtmlPrescan, ResolutionShortcutKeepsWhatResolutionCreates) {
  Counters c;
  PageRefs tab = find_references("http://ex.com/a.html", "<a href=\"x.jp&#9;g\">t</a>", {}, c);
  ASSERT_EQ(tab.refs.size(), 1u);  // resolution drops the tab
  EXPECT_EQ(tab.refs[0].url, "http://ex.com/x.jpg");
  PageRefs scheme = find_references("http://ex.com/p.png", "<a href=\"http:\">s</a>", {}, c);
  ASSERT_EQ(scheme.refs.size(), 1u);  // "http:" is the page itself
  EXPECT_EQ(scheme.refs[0].url, "http://ex.com/p.png");
  PageRefs split = find_references("http://ex.com/a.html", "<a href=\"x.j\tpg\">t</a>", {}, c);
  ASSERT_EQ(split.refs.size(), 1u);  // the tab inside the extension too
  EXPECT_EQ(split.refs[0].url, "http://ex.com/x.jpg");
  PageRefs plain = find_references("http://ex.com/a.html",
                                   "<a href=\"index.html\">i</a><a href=\"b/..\">d</a>", {}, c);
  EXPECT_TRUE(plain.refs.empty());
}

}  // namespace
}  // namespace strata::extract
