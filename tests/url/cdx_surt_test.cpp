#include <gtest/gtest.h>

#include <fstream>

#include "testing/shared_data.hpp"
#include "url/url.hpp"

using strata::url::cdx_surt;

TEST(CdxSurt, PywbExamples) {
  EXPECT_EQ(cdx_surt("http://example.com?example=1"), "com,example)/?example=1");
  EXPECT_EQ(cdx_surt("http://www.iana.org/"), "org,iana)/");
  EXPECT_EQ(cdx_surt("http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf"),
            "org,iana)/_css/2013.1/fonts/inconsolata.otf");
  EXPECT_EQ(cdx_surt("https://www.iana.org/x/"), "org,iana)/x");
  EXPECT_EQ(cdx_surt("http://httpbin.org/post?foo=bar"), "org,httpbin)/post?foo=bar");
}

TEST(CdxSurt, Canonicalisation) {
  EXPECT_EQ(cdx_surt("http://example.com/?b=2&a=1&a"), "com,example)/?a&a=1&b=2");
  EXPECT_EQ(cdx_surt("http://example.com:8080/"), "com,example:8080)/");
  EXPECT_EQ(cdx_surt("http://example.com:80/"), "com,example)/");
  EXPECT_EQ(cdx_surt("http://user:pw@example.com/"), "com,example)/");
  EXPECT_EQ(cdx_surt("http://www2.example.com/"), "com,example)/");
  EXPECT_EQ(cdx_surt("http://192.168.1.254/info/"), "254,1,168,192)/info");
  EXPECT_EQ(cdx_surt("http://example.com/%7Efoo"), "com,example)/~foo");
  EXPECT_EQ(cdx_surt("http://example.com/a b"), "com,example)/a%20b");
  EXPECT_EQ(cdx_surt("http://example.com/A/B/"), "com,example)/a/b");
  EXPECT_EQ(cdx_surt("http://example.com/a#f"), "com,example)/a");
  EXPECT_EQ(cdx_surt("http://example.com/a?"), "com,example)/a");
  EXPECT_EQ(cdx_surt("http://example.com/a?jsessionid=0123456789abcdef0123456789abcdef&x=1"),
            "com,example)/a?x=1");
  EXPECT_EQ(cdx_surt("http://bücher.ch/"), "ch,xn--bcher-kva)/");
  EXPECT_EQ(cdx_surt("http://mineral.galleries.com:/minerals"), "com,galleries,mineral)/minerals");
}

TEST(CdxSurt, SpecialInputs) {
  EXPECT_EQ(cdx_surt(""), "-");
  EXPECT_EQ(cdx_surt("filedesc://x.arc"), "filedesc://x.arc");
  EXPECT_EQ(cdx_surt("dns:www.archive.org"), "org,archive,www)");
  EXPECT_EQ(cdx_surt("http://example.com:abc/"), "http://example.com:abc/");  // urlsplit error
}

// Every key of pywb's shipped CDXJ index must be reproduced from its "url" field.
TEST(CdxSurt, MatchesPywbSampleCdxj) {
  STRATA_REQUIRE_SHARED();
  for (const char* name : {"iana.cdxj", "example.cdxj"}) {
    std::ifstream in(strata::testing::shared_data(
        std::string("archives/webrecorder__pywb/sample_archive/cdxj/") + name));
    ASSERT_TRUE(in) << name;
    std::string line;
    int checked = 0;
    while (std::getline(in, line)) {
      std::size_t start = line.find("\"url\": \"") + 8;
      std::string url = line.substr(start, line.find('"', start) - start);
      EXPECT_EQ(cdx_surt(url), line.substr(0, line.find(' '))) << url;
      ++checked;
    }
    EXPECT_GT(checked, 2);
  }
}
