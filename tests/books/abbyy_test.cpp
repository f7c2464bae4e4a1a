// The Abbyy reader on the real FineReader 6, 8 and 10 files in ../shared/data/books: the
// pages and Picture blocks exactly as the files state them, and each edge case of the
// research note (BOM, FR8 namespace, space charParams, line-level text, isHidden, RTL text).
#include <gtest/gtest.h>

#include <algorithm>

#include "books/abbyy.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::books {
namespace {

struct Parsed {
  AbbyyDocument document;
  std::vector<AbbyyPage> pages;
};

Parsed parse(std::string_view xml, size_t chunk = 4096) {
  Parsed out;
  AbbyyReader reader([&](AbbyyPage&& p) { out.pages.push_back(std::move(p)); });
  for (size_t at = 0; at < xml.size(); at += chunk) reader.feed(xml.substr(at, chunk));
  reader.finish();
  out.document = reader.document();
  return out;
}

Parsed parse_shared(const std::string& relative) {
  return parse(testing::read_file(testing::shared_data("books/" + relative)));
}

std::vector<Box> pictures(const AbbyyPage& page) {
  std::vector<Box> out;
  for (const auto& b : page.blocks)
    if (b.type == BlockType::picture) out.push_back(b.box);
  return out;
}

int count(const Parsed& p, BlockType type) {
  int n = 0;
  for (const auto& page : p.pages)
    for (const auto& b : page.blocks) n += b.type == type;
  return n;
}

TEST(Abbyy, FineReader6SampleHasSixPicturesOnFourPages) {
  STRATA_REQUIRE_SHARED();
  const Parsed p =
      parse_shared("deborahgu__abbyy-to-epub3/abbyy_to_epub3/tests/finereader_6_sample.xml");
  EXPECT_EQ(p.document.version, 6);
  EXPECT_EQ(p.document.declared_pages, 126);  // the sample keeps 4 of the book's 126 leaves
  ASSERT_EQ(p.pages.size(), 4u);
  EXPECT_EQ(pictures(p.pages[0]), (std::vector<Box>{{0, 0, 1000, 1500}}));  // whole page
  EXPECT_EQ(pictures(p.pages[1]), (std::vector<Box>{{0, 0, 2594, 3693}}));
  // 2218x1842, 1316x615 at (906,2926) and the 460x467 corner artifact at (0,3074).
  EXPECT_EQ(pictures(p.pages[2]),
            (std::vector<Box>{{0, 0, 2218, 1842}, {906, 2926, 2222, 3541}, {0, 3074, 460, 3541}}));
  EXPECT_EQ(pictures(p.pages[3]), (std::vector<Box>{{262, 532, 1766, 1044}}));
  EXPECT_EQ(p.pages[2].width, 2222);
  EXPECT_EQ(p.pages[2].height, 3541);
  // Hebrew (right to left) stays in file order: vav then yod.
  ASSERT_EQ(p.pages[3].blocks[0].type, BlockType::text);
  EXPECT_EQ(p.pages[3].blocks[0].text, "\xD7\x95\xD7\x99");
  EXPECT_EQ(p.pages[2].blocks[0].rects, (std::vector<Box>{{0, 0, 2218, 1842}}));
}

TEST(Abbyy, FineReader10SampleWithBomAndSpaceCharParams) {
  STRATA_REQUIRE_SHARED();
  const Parsed p =
      parse_shared("deborahgu__abbyy-to-epub3/abbyy_to_epub3/tests/finereader_10_sample.xml");
  EXPECT_EQ(p.document.version, 10);
  ASSERT_EQ(p.pages.size(), 6u);
  EXPECT_EQ(count(p, BlockType::picture), 5);
  EXPECT_EQ(count(p, BlockType::separator), 6);
  EXPECT_EQ(count(p, BlockType::text), 2);
  EXPECT_EQ(pictures(p.pages[3]), (std::vector<Box>{{150, 40, 2180, 3584}}));  // 2030 x 3544
  EXPECT_TRUE(pictures(p.pages[5]).empty());
  EXPECT_EQ(p.pages[5].blocks[0].text, "The Homeric Hymns");  // spaces are their own charParams
}

TEST(Abbyy, MastheadPictureIsAUnionOfStrips) {
  STRATA_REQUIRE_SHARED();
  const Parsed p = parse_shared("Mewel__abbyy-to-alto/src/test/resources/abbyy.xml");
  ASSERT_EQ(p.pages.size(), 1u);
  std::vector<std::pair<int, int>> sizes;
  for (const Box& b : pictures(p.pages[0])) sizes.push_back({b.width(), b.height()});
  EXPECT_EQ(sizes, (std::vector<std::pair<int, int>>{
                       {3991, 867}, {243, 119}, {1015, 37}, {118, 32}, {740, 36}}));
  EXPECT_EQ(count(p, BlockType::text), 22);
  EXPECT_EQ(count(p, BlockType::separator), 42);
  const auto masthead = std::find_if(p.pages[0].blocks.begin(), p.pages[0].blocks.end(),
                                     [](const Block& b) { return b.box.width() == 3991; });
  ASSERT_NE(masthead, p.pages[0].blocks.end());
  EXPECT_EQ(masthead->rects.size(), 25u);  // the masthead: 25 horizontal strips
}

TEST(Abbyy, OldGermanHasTheThreeHundredPixelPicture) {
  STRATA_REQUIRE_SHARED();
  const Parsed p = parse_shared("Mewel__abbyy-to-alto/src/test/resources/oldGerman.xml");
  ASSERT_EQ(p.pages.size(), 1u);
  EXPECT_EQ(pictures(p.pages[0]), (std::vector<Box>{{238, 167, 538, 508},
                                                    {794, 1891, 1226, 2326},
                                                    {180, 115, 1860, 927},
                                                    {175, 973, 1856, 1783}}));
  EXPECT_EQ(count(p, BlockType::text), 10);
  EXPECT_EQ(count(p, BlockType::separators_box), 3);
  EXPECT_EQ(count(p, BlockType::separator), 8);
}

TEST(Abbyy, LineLevelTextInFormatting) {
  STRATA_REQUIRE_SHARED();
  const Parsed p =
      parse_shared("kba__ocr-fileformat-samples/samples/abbyy/10v1/417589220_0018.abbyy.xml");
  ASSERT_EQ(p.pages.size(), 1u);
  EXPECT_EQ(count(p, BlockType::picture), 0);
  EXPECT_EQ(count(p, BlockType::separator), 7);
  ASSERT_EQ(count(p, BlockType::text), 1);
  const std::string& text = p.pages[0].blocks[0].type == BlockType::text
                                ? p.pages[0].blocks[0].text
                                : p.pages[0].blocks.back().text;
  EXPECT_NE(text.find("les eccl\xC3\xA9siastiques"), std::string::npos);
  EXPECT_NE(text.find("jugement devant eux: & Inno"), std::string::npos);  // entities decoded
}

TEST(Abbyy, FineReader8NamespaceAndHiddenBlocks) {
  STRATA_REQUIRE_SHARED();
  const Parsed p = parse_shared("kba__ocr-fileformat-samples/samples/abbyy/8v2/184853.xml");
  EXPECT_EQ(p.document.version, 8);
  ASSERT_EQ(p.pages.size(), 1u);
  ASSERT_EQ(count(p, BlockType::text), 2);
  for (const auto& b : p.pages[0].blocks) EXPECT_TRUE(b.hidden);
  EXPECT_GT(p.pages[0].blocks[0].text.size() + p.pages[0].blocks[1].text.size(), 1000u);
}

TEST(Abbyy, ChunkingDoesNotChangeTheResult) {
  STRATA_REQUIRE_SHARED();
  const std::string xml = testing::read_file(testing::shared_data(
      "books/deborahgu__abbyy-to-epub3/abbyy_to_epub3/tests/finereader_10_sample.xml"));
  const Parsed whole = parse(xml, xml.size()), bytes = parse(xml, 1);
  ASSERT_EQ(whole.pages.size(), bytes.pages.size());
  for (size_t i = 0; i < whole.pages.size(); ++i) {
    ASSERT_EQ(whole.pages[i].blocks.size(), bytes.pages[i].blocks.size());
    for (size_t k = 0; k < whole.pages[i].blocks.size(); ++k)
      EXPECT_EQ(whole.pages[i].blocks[k].text, bytes.pages[i].blocks[k].text);
  }
}

TEST(Abbyy, TruncatedFileKeepsThePagesBeforeAndSaysWhere) {
  STRATA_REQUIRE_SHARED();
  const std::string xml = testing::read_file(testing::shared_data(
      "books/deborahgu__abbyy-to-epub3/abbyy_to_epub3/tests/finereader_6_sample.xml"));
  std::vector<AbbyyPage> pages;
  AbbyyReader reader([&](AbbyyPage&& p) { pages.push_back(std::move(p)); });
  const size_t cut = xml.find("<page", xml.find("<page", xml.find("<page") + 1) + 1) + 20;
  reader.feed(std::string_view(xml).substr(0, cut));
  try {
    reader.finish();
    FAIL() << "a truncated file must not parse";
  } catch (const AbbyyError& e) {
    EXPECT_GE(e.offset(), xml.find("<page"));
  }
  EXPECT_EQ(pages.size(), 2u);
}

TEST(Abbyy, RejectsOtherXmlAndGarbage) {
  EXPECT_THROW(parse("<html><body/></html>"), AbbyyError);
  EXPECT_THROW(parse("not xml at all"), AbbyyError);
  EXPECT_THROW(parse(""), AbbyyError);
}

TEST(Abbyy, PictureCaptionRoleAndSoftHyphen) {
  const Parsed p = parse(
      "<document xmlns='http://www.abbyy.com/FineReader_xml/FineReader10-schema-v1.xml'>"
      "<documentData><paragraphStyles><paragraphStyle id='cap' role='pictureCaption'/>"
      "</paragraphStyles></documentData><page width='100' height='100'>"
      "<block blockType='Text' l='0' t='0' r='9' b='9'><text><par style='cap'>"
      "<line><formatting>Fig. 3. A wood\xC2\xAC</formatting></line>"
      "<line><formatting>cut</formatting></line></par></text></block></page></document>");
  ASSERT_EQ(p.pages.size(), 1u);
  EXPECT_TRUE(p.pages[0].blocks[0].picture_caption);
  EXPECT_EQ(p.pages[0].blocks[0].text, "Fig. 3. A woodcut");
}

}  // namespace
}  // namespace strata::books
