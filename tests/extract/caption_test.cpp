#include "extract/caption.hpp"

#include <gtest/gtest.h>

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

// concat joins short whole texts directly and feeds longer ones through the summary: both
// must give what one summary of the joined text gives.
TEST(HtmlText, ConcatOfShortAndLongTexts) {
  for (size_t n : {1u, 3u, 120u, 200u, 300u, 5000u}) {
    std::string a(n, 'a'), b = "b \xC3\xA9 " + std::string(n, 'b');
    TextSummary joined = node_text(HtmlDocument("<pre>" + a + "\n" + b + "</pre>").root());
    TextSummary sum =
        concat(node_text(HtmlDocument(a).root()), "\n", node_text(HtmlDocument(b).root()));
    EXPECT_EQ(sum.head, joined.head) << n;
    EXPECT_EQ(sum.tail, joined.tail) << n;
    EXPECT_EQ(sum.chars, joined.chars) << n;
    EXPECT_EQ(sum.complete(), joined.complete()) << n;
  }
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

}  // namespace
}  // namespace strata::extract
