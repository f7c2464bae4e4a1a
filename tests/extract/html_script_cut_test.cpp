#include "extract/html_script_cut.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace strata::extract {
namespace {

// The tree as text (kind, tag, namespace, text, attributes), less the children of scripts:
// what extraction may see of a page.
void dump(const GumboNode* n, std::string& out) {
  if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE ||
      n->type == GUMBO_NODE_CDATA || n->type == GUMBO_NODE_COMMENT) {
    out += "[" + std::to_string(n->type) + ":" + n->v.text.text + "]";
    return;
  }
  if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) return;
  if (is_element(n)) {
    out += "<" + tag_name(n) + " ns" + std::to_string(n->v.element.tag_namespace);
    const GumboVector& attrs = n->v.element.attributes;
    for (unsigned i = 0; i < attrs.length; ++i) {
      auto* a = static_cast<const GumboAttribute*>(attrs.data[i]);
      out += std::string(" ") + a->name + "=" + a->value;
    }
    out += ">";
    if (is_tag(n, GUMBO_TAG_SCRIPT)) return;
  }
  const GumboVector& kids = children(n);
  for (unsigned i = 0; i < kids.length; ++i) dump(static_cast<const GumboNode*>(kids.data[i]), out);
  out += "</>";
}

std::string tree(const GumboNode* root) {
  std::string out;
  dump(root, out);
  return out;
}

// Parsing without scripts gives the page's own tree less the script texts.
void expect_same_tree(const std::string& html) {
  SCOPED_TRACE(html);
  PageDocument page(html);
  HtmlDocument whole(html);
  EXPECT_EQ(tree(page.root()), tree(whole.root()));
}

TEST(ScriptCut, RemovesScriptContents) {
  std::string html =
      "<p>a</p><SCRIPT type=x>var s = \"<img src=a.jpg>\";</SCRIPT ><p>b</p>"
      "<script src=s.js></script><script>\n<!-- old(); //-->\n</script>";
  ScriptCut cut = cut_script_contents(html);
  EXPECT_EQ(cut.html,
            "<p>a</p><SCRIPT type=x></SCRIPT ><p>b</p><script src=s.js></script>"
            "<script></script>");
  EXPECT_EQ(cut.cuts, (std::vector<size_t>{23, 75}));
  PageDocument page(html);
  EXPECT_TRUE(page.scripts_cut());
  EXPECT_FALSE(page.reparsed());
  expect_same_tree(html);
}

TEST(ScriptCut, LeavesScriptsTheTokeniserCouldEndElsewhere) {
  // "<!--" then "<script": the double-escaped state, where "</script>" does not end it.
  std::string html = "<script><!-- document.write('<script>x()</script>'); --></script><p>a";
  EXPECT_TRUE(cut_script_contents(html).cuts.empty());
  // Unclosed, and inside a comment: nothing to cut.
  EXPECT_TRUE(cut_script_contents("<p><script>var x = 1;").cuts.empty());
  EXPECT_TRUE(cut_script_contents("<!-- <script>x()</script> --><p>a").cuts.empty());
  expect_same_tree(html);
}

TEST(ScriptCut, ParsesThePageAsItIsWhenGumboDisagrees) {
  // Each "<script" here opens no HTML script: the cut is not confirmed and the page is parsed
  // again as it is, with the "script" text kept.
  for (std::string html : {
           "<textarea><script>x<img src=a.jpg></script></textarea>",
           "<svg><script>a<b>c</b></script></svg><img src=x.png>",
           "<img alt='<script>' src=a.jpg><p>x</p><img alt='</script>'>",
           "<script data-x='a>b'>var v = 1;</script><img src=b.jpg>",
       }) {
    PageDocument page(html);
    EXPECT_FALSE(page.scripts_cut()) << html;
    EXPECT_TRUE(page.reparsed()) << html;
    expect_same_tree(html);
  }
}

TEST(ScriptCut, TreesMatchOnTagSoup) {
  for (std::string html : {
           "<table><tr><script>t()</script><td>a<img src=a.gif></td></tr></table>",
           "<select><script>s()</script><option>o</select><img src=b.gif>",
           "<head><noscript><script>n()</script></noscript></head><body>x",
           "</html><script>late()</script><img src=c.gif>",
           "<template><script>in()</script><img src=d.gif></template>",
           "<frameset><script>f()</script></frameset>",
           "<script>a()</script><script/>b()</script><p>p</p>",
           "<script>if (a < b && c </scrip) {}</script><i>i</i>",
       })
    expect_same_tree(html);
}

}  // namespace
}  // namespace strata::extract
