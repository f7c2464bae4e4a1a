// _meta.xml on the two real records in ../shared (abbyy-to-epub3's test items).
#include <gtest/gtest.h>

#include "books/meta.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::books {
namespace {

BookMeta shared_meta(const std::string& name) {
  return parse_meta(testing::read_file(
      testing::shared_data("books/deborahgu__abbyy-to-epub3/abbyy_to_epub3/tests/" + name)));
}

TEST(BookMeta, HomericHymns) {
  STRATA_REQUIRE_SHARED();
  const BookMeta m = shared_meta("finereader_10_meta.xml");
  EXPECT_EQ(m.title, "The Homeric hymns : a verse translation");
  EXPECT_EQ(m.year, 1973);
  EXPECT_EQ(m.language, "en");  // "English"
  EXPECT_EQ(m.subjects, (std::vector<std::string>{"Hymns, Greek (Classical)", "Greek poetry",
                                                  "English poetry"}));
  EXPECT_EQ(m.collections, (std::vector<std::string>{"aceportal", "toronto"}));
  EXPECT_EQ(m.creators, (std::vector<std::string>{"Sargent, Thelma"}));
  EXPECT_EQ(m.scandate, "20170821182149");
  EXPECT_EQ(m.ppi, 650);
  EXPECT_EQ(m.imagecount, 106);
  EXPECT_EQ(m.identifier, "homerichymnsvers00sarg_0");
}

TEST(BookMeta, HebrewBookWithAltScriptTitle) {
  STRATA_REQUIRE_SHARED();
  const BookMeta m = shared_meta("finereader_6_meta.xml");
  EXPECT_EQ(m.language, "he");  // "heb"
  EXPECT_EQ(m.year, 1895);
  EXPECT_EQ(m.title_alt_script.substr(0, 8), "\xD7\x9E\xD7\xA0\xD7\x95\xD7\x97");  // מנוח
  EXPECT_EQ(m.collections.size(), 2u);
}

TEST(BookMeta, FreeTextDatesAndBadXml) {
  EXPECT_EQ(parse_meta("<metadata><date>c1884-1885</date></metadata>").year, 1884);
  EXPECT_FALSE(parse_meta("<metadata><date>[n.d.]</date></metadata>").year);
  EXPECT_THROW(parse_meta("<metadata><date>"), MetaError);
}

}  // namespace
}  // namespace strata::books
