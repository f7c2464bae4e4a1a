#include "core/pictographs.hpp"

#include <gtest/gtest.h>

namespace strata::core {
namespace {

TEST(Pictographs, EmojiSymbolsAndSmileysButNoWords) {
  EXPECT_TRUE(pictographs_only("\U0001F4E2"));                      // 📢, Twitter's alt
  EXPECT_TRUE(pictographs_only("\U0001F536 \U0001F537"));           // two diamonds
  EXPECT_TRUE(pictographs_only(":)"));                              // a WordPress smiley
  EXPECT_TRUE(pictographs_only("*"));                               // a bullet's alt
  EXPECT_FALSE(pictographs_only("\U0001F382 Birthday"));            // a word: a described picture
  EXPECT_FALSE(pictographs_only("1"));                              // a digit
  EXPECT_FALSE(pictographs_only("é"));                              // a letter outside ASCII
  EXPECT_FALSE(pictographs_only(""));                               // no alt
  EXPECT_FALSE(pictographs_only("  "));                             // blank
  EXPECT_FALSE(pictographs_only(std::string_view("\xF0\x9F", 2)));  // cut UTF-8
}

}  // namespace
}  // namespace strata::core
