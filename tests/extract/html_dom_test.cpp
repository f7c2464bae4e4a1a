#include "extract/html_dom.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

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

}  // namespace
}  // namespace strata::extract
