// UrlKeys remembers join SURTs (url::join_surt) and tokens: it must give exactly what the url
// module computes, also for URLs met again after it forgot everything (it is bounded).
#include "extract/url_keys.hpp"

#include <gtest/gtest.h>

#include "url/url.hpp"

namespace strata::extract {
namespace {

TEST(UrlKeys, SameKeysAsTheUrlModule) {
  UrlKeys keys;
  for (std::string url : {"http://www.Example.com:80/a/../img/Logo.PNG?b=2&a=1",
                          "https://bp3.blogger.com/_x/s1600-h/photo.jpg", "hash:0123abcd",
                          "http://xn--bcher-kva.de/%7euser/pic.gif", "not a url"}) {
    for (int pass = 0; pass < 2; ++pass) {  // computed, then remembered
      EXPECT_EQ(keys.surt(url), url::join_surt(url)) << url;
      EXPECT_EQ(keys.surt_and_tokens(url).tokens, url::url_tokens(url)) << url;
      EXPECT_EQ(keys.surt_and_tokens(url).surt, url::join_surt(url)) << url;
    }
  }
}

TEST(UrlKeys, StaysRightWhenItForgets) {
  UrlKeys keys;
  const std::string first = "http://example.com/first.png";
  EXPECT_EQ(keys.surt(first), url::join_surt(first));
  for (int i = 0; i < 40000; ++i) {
    std::string url = "http://example.com/" + std::to_string(i) + ".jpg";
    ASSERT_EQ(keys.surt(url), url::join_surt(url));
  }
  EXPECT_EQ(keys.surt_and_tokens(first).tokens, url::url_tokens(first));
  EXPECT_EQ(keys.surt(first), url::join_surt(first));
}

}  // namespace
}  // namespace strata::extract
