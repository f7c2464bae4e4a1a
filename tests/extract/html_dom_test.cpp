#include "extract/html_dom.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::extract {
namespace {

TEST(ParseArena, GrowsPastItsFirstBlockAndAligns) {
  ParseArena arena(64);
  size_t first = arena.reserved();
  void* small = arena.allocate(3);
  void* big = arena.allocate(first * 3);  // larger than any block so far: its own block
  void* after = arena.allocate(1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % alignof(std::max_align_t), 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(after) % alignof(std::max_align_t), 0u);
  EXPECT_NE(big, after);
  EXPECT_GE(arena.reserved(), first * 4);
}

TEST(HtmlDocument, DenseTagsOutgrowTheFirstBlock) {
  // ~8 bytes of HTML per element: the tree needs far more than the first block (4x).
  std::string html = "<body>";
  for (int i = 0; i < 20000; ++i) html += "<i>x</i>";
  HtmlDocument doc(html);
  const GumboNode* html_el = static_cast<const GumboNode*>(children(doc.root()).data[0]);
  const GumboNode* body = static_cast<const GumboNode*>(children(html_el).data[1]);
  ASSERT_TRUE(is_tag(body, GUMBO_TAG_BODY));
  EXPECT_EQ(children(body).length, 20000u);
  EXPECT_GT(doc.arena_bytes(), html.size() * 4);
}

// Found by fuzz_script_cut: Debian's libgumbo aborts on this (a failed assertion in
// handle_in_table); the page is parsed without its CDATA section instead.
TEST(HtmlDocument, CdataInForeignContentOfATableIsParsedWithoutAborting) {
  const std::string html = "<table><math><mi><![CDATA[>]]>><img src=a.png alt=after>";
  HtmlDocument doc(html);
  EXPECT_EQ(doc.source().size(), html.size());
  EXPECT_EQ(doc.source().find("<![CDATA["), std::string_view::npos);
  // Everything else is as gumbo parses it: the image after the table is there.
  std::vector<const GumboNode*> stack{doc.root()};
  int images = 0;
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (is_tag(n, GUMBO_TAG_IMG)) ++images;
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    for (unsigned i = 0; i < children(n).length; ++i)
      stack.push_back(static_cast<const GumboNode*>(children(n).data[i]));
  }
  EXPECT_EQ(images, 1);
  // A page without CDATA is parsed as it is, not copied.
  const std::string plain = "<p>no cdata</p>";
  EXPECT_EQ(HtmlDocument(plain).source().data(), plain.data());
}

}  // namespace
}  // namespace strata::extract
