// The direct SURT of plain URLs must be what Heritrix's full fix-up gives, on every URL it
// accepts; random URLs built from the pieces that make the fix-up differ check it.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "url/heritrix.hpp"
#include "url/url.hpp"

using strata::url::detail::heritrix_surt;
using strata::url::detail::plain_surt;

TEST(PlainSurt, TakesPlainUrls) {
  const std::pair<const char*, const char*> keys[] = {
      {"example.com/a/B.jpg?x=1&Y=2", "(com,example,)/a/b.jpg?x=1&y=2"},
      {"Img.Example.com", "(com,example,img,"},
      {"example.com/", "(com,example,"},
      {"example.com/?", "(com,example,"},
      {"example.com?q", "(com,example,)/?q"},
      {"example.com/a.png#x\\y", "(com,example,)/a.png"},
      {"my_host.example.com/%7E/", "(com,example,my_host,)/%7e/"},
      {"example.com/a?x=1,)/", "(com,example,)/a?x=1"}};  // Java trims any ",)/" end
  for (const auto& [url, key] : keys) EXPECT_EQ(plain_surt(url), key) << url;
}

TEST(PlainSurt, LeavesTheRestToHeritrix) {
  for (const char* url : {"example.com:80/", "192.168.1.1/x", "example.com./x", ".example.com/x",
                          "a..b/x", "localhost/x", "example.com/a/../b", "example.com/./b",
                          "example.com/{x}", "example.com/a b", "example.com\\a", "bücher.ch/x",
                          "user@example.com/x", "example.com%20/x", "(com,example,)/"})
    EXPECT_FALSE(plain_surt(url)) << url;
  EXPECT_FALSE(plain_surt("example.com/" + std::string(2100, 'a')));
  EXPECT_FALSE(plain_surt(std::string(64, 'a') + ".com/x"));
}

TEST(PlainSurt, SameAsHeritrixOnRandomUrls) {
  const std::vector<std::string> pieces = {
      "a",    "B",    "z9",   "0",   "1.",  ".", "..",  "-", "_",  "/", "//", "/./",
      "/../", "?",    "#",    "%",   "%7E", ":", ":80", "@", "{",  "}", "[",  "^",
      "\\",   " ",    "\t",   "é",   "|",   "'", "\"",  "<", "&",  "=", "+",  ";",
      "~",    "www.", ".com", "%20", "*",   "!", ",",   ")", ",)/"};
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1), length(1, 14);
  int taken = 0;
  for (int n = 0; n < 200000; ++n) {
    std::string url = n % 2 ? "ex.com" : "";
    for (std::size_t k = length(rng); k > 0; --k) url += pieces[pick(rng)];
    if (auto plain = plain_surt(url)) {
      ++taken;
      ASSERT_EQ(*plain, heritrix_surt(url)) << url;
    }
  }
  EXPECT_GT(taken, 5000);  // the comparison covered many plain URLs
}
