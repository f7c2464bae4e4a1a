// scandata.xml: page types, addToAccessFormats and the leaf -> viewer page mapping.
#include <gtest/gtest.h>

#include "books/scandata.hpp"

namespace strata::books {
namespace {

constexpr const char* kScandata =
    R"(<book><bookData><bookId>x</bookId><leafCount>6</leafCount></bookData>
<pageData>
<page leafNum="0"><pageType>Color Card</pageType><addToAccessFormats>false</addToAccessFormats></page>
<page leafNum="1"><pageType>Cover</pageType><addToAccessFormats>true</addToAccessFormats></page>
<page leafNum="2"><pageType>Title Page</pageType></page>
<page leafNum="3"><pageType>Normal</pageType><addToAccessFormats> FALSE </addToAccessFormats></page>
<page leafNum="4"><pageType>normal</pageType><pageNumber>1</pageNumber></page>
<page leafNum="5"><pageType>White Card</pageType><addToAccessFormats>true</addToAccessFormats></page>
</pageData></book>)";

TEST(Scandata, PageTypesAccessAndViewerIndexes) {
  const Scandata s = parse_scandata(kScandata);
  EXPECT_EQ(s.book_id, "x");
  EXPECT_EQ(s.declared_leaves, 6);
  ASSERT_EQ(s.leaves.size(), 6u);
  EXPECT_EQ(s.leaves[0].type, PageType::color_card);
  EXPECT_FALSE(s.leaves[0].access);
  EXPECT_FALSE(s.leaves[0].viewer_index);
  EXPECT_EQ(s.leaves[1].type, PageType::cover);
  EXPECT_EQ(s.leaves[1].viewer_index, 0);
  EXPECT_EQ(s.leaves[2].type, PageType::title);
  EXPECT_TRUE(s.leaves[2].access);  // missing means shown
  EXPECT_EQ(s.leaves[2].viewer_index, 1);
  EXPECT_FALSE(s.leaves[3].access);  // trimmed, any case
  EXPECT_EQ(s.leaves[4].type, PageType::normal);
  EXPECT_EQ(s.leaves[4].viewer_index, 2);
  EXPECT_EQ(s.leaves[4].printed_page, "1");
  EXPECT_EQ(s.leaves[5].type, PageType::white_card);
  EXPECT_EQ(s.leaves[5].viewer_index, 3);
}

TEST(Scandata, TheSeedsExampleThreeSkipsAndARescan) {
  // The seed: three leading leaves and one bad rescan not shown, so leaf 103 is image n99.
  std::string xml = "<book><pageData>";
  for (int leaf = 0; leaf < 110; ++leaf)
    xml += "<page leafNum=\"" + std::to_string(leaf) + "\"><addToAccessFormats>" +
           (leaf < 3 || leaf == 50 ? "false" : "true") + "</addToAccessFormats></page>";
  const Scandata s = parse_scandata(xml + "</pageData></book>");
  EXPECT_EQ(s.leaves[103].viewer_index, 99);
}

TEST(Scandata, BadFilesThrowWithAnOffset) {
  EXPECT_THROW(parse_scandata("<book><pageData><page leafNum=\"1\">"), ScandataError);
  EXPECT_THROW(parse_scandata("<book></book>"), ScandataError);
  try {
    parse_scandata("<book>\n<pageData>\n<page leafNum='1'></pag>");
  } catch (const ScandataError& e) {
    EXPECT_GT(e.offset(), 10u);
  }
}

}  // namespace
}  // namespace strata::books
