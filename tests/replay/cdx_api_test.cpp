// The CDX server API on pywb's sample crawl (iana.warc.gz) against the CDXJ index pywb
// ships for it: each query's answer is, line by line, the lines of that index that pywb's
// documented rules select (exact, prefix, host and domain match; from/to; filter; collapse;
// limit; sort).
#include "replay/cdx_api.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "core/json.hpp"
#include "testing/shared_data.hpp"

namespace strata::replay {
namespace {

const std::string kPywb = "archives/webrecorder__pywb/sample_archive/";

class CdxApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!strata::testing::shared_dir()) return;
    const std::string warc = strata::testing::shared_data(kPywb + "warcs/iana.warc.gz").string();
    index_ = new CaptureIndex(CaptureIndex::build({{warc, warc}}, nullptr));
    std::ifstream in(strata::testing::shared_data(kPywb + "cdxj/iana.cdxj"));
    oracle_ = new std::vector<std::string>;
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) oracle_->push_back(line);
  }
  static void TearDownTestSuite() {
    delete index_;
    delete oracle_;
  }
  void SetUp() override { STRATA_REQUIRE_SHARED(); }

  // Our answer's lines; pywb's older indexer dropped the status of revisits, which
  // cdxj-indexer (our format) keeps (tests/cdx/pywb_sample_test.cpp).
  static std::vector<std::string> query(std::multimap<std::string, std::string> params) {
    CdxAnswer a = cdx_api(*index_, params);
    EXPECT_EQ(a.status, 200) << a.body;
    std::vector<std::string> lines;
    for (size_t start = 0; start < a.body.size();) {
      size_t end = a.body.find('\n', start);
      std::string line = a.body.substr(start, end - start);
      const std::string_view revisit_status = ", \"status\": \"200\"";
      size_t status = line.find(revisit_status);
      if (line.find("\"warc/revisit\"") != std::string::npos && status != std::string::npos)
        line.erase(status, revisit_status.size());
      lines.push_back(line);
      start = end + 1;
    }
    return lines;
  }
  static std::vector<std::string> oracle(const std::function<bool(const std::string&)>& keep) {
    std::vector<std::string> out;
    for (const auto& l : *oracle_)
      if (keep(l)) out.push_back(l);
    return out;
  }
  static bool key_starts(const std::string& line, const std::string& prefix) {
    return line.compare(0, prefix.size(), prefix) == 0;
  }
  static std::string ts(const std::string& line) { return line.substr(line.find(' ') + 1, 14); }

  static CaptureIndex* index_;
  static std::vector<std::string>* oracle_;
};
CaptureIndex* CdxApi::index_ = nullptr;
std::vector<std::string>* CdxApi::oracle_ = nullptr;

TEST_F(CdxApi, IndexesEveryRecordOfTheCrawl) {
  EXPECT_EQ(index_->all().size(), oracle_->size());
}

TEST_F(CdxApi, ExactMatch) {
  auto expected = oracle([](const std::string& l) { return key_starts(l, "org,iana)/ "); });
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_EQ(query({{"url", "http://www.iana.org/"}}), expected);
  EXPECT_EQ(query({{"url", "iana.org"}, {"matchType", "exact"}}), expected);
}

TEST_F(CdxApi, PrefixMatchAndItsWildcard) {
  auto expected = oracle([](const std::string& l) { return key_starts(l, "org,iana)/_css/"); });
  ASSERT_GT(expected.size(), 50u);
  EXPECT_EQ(query({{"url", "http://www.iana.org/_css/"}, {"matchType", "prefix"}}), expected);
  EXPECT_EQ(query({{"url", "http://www.iana.org/_css/*"}}), expected);
}

TEST_F(CdxApi, HostAndDomainMatch) {
  auto host = oracle([](const std::string& l) { return key_starts(l, "org,iana)/"); });
  EXPECT_EQ(host.size(), oracle_->size());
  EXPECT_EQ(query({{"url", "http://www.iana.org/about/"}, {"matchType", "host"}}), host);
  EXPECT_EQ(query({{"url", "iana.org"}, {"matchType", "domain"}}), host);
  EXPECT_EQ(query({{"url", "*.iana.org"}}), host);
  EXPECT_TRUE(query({{"url", "example.org"}, {"matchType", "domain"}}).empty());
}

TEST_F(CdxApi, FromToArePaddedAndInclusive) {
  auto expected = oracle(
      [](const std::string& l) { return ts(l) >= "20140126200700" && ts(l) <= "20140126200759"; });
  ASSERT_FALSE(expected.empty());
  auto got = query({{"url", "iana.org"},
                    {"matchType", "host"},
                    {"from", "201401262007"},
                    {"to", "201401262007"}});
  EXPECT_EQ(got, expected);
}

TEST_F(CdxApi, Filters) {
  auto html = oracle(
      [](const std::string& l) { return l.find("\"mime\": \"text/html\"") != std::string::npos; });
  EXPECT_EQ(query({{"url", "iana.org"}, {"matchType", "host"}, {"filter", "=mime:text/html"}}),
            html);
  auto not_revisit =
      oracle([](const std::string& l) { return l.find("warc/revisit") == std::string::npos; });
  EXPECT_EQ(query({{"url", "iana.org"}, {"matchType", "host"}, {"filter", "!mime:revisit"}}),
            not_revisit);
  auto svg = oracle([](const std::string& l) { return l.find(".svg ") != std::string::npos; });
  EXPECT_EQ(query({{"url", "iana.org"}, {"matchType", "host"}, {"filter", "~urlkey:.*\\.svg$"}}),
            svg);
  auto both = oracle([](const std::string& l) {
    return l.find(".svg ") != std::string::npos && l.find("warc/revisit") == std::string::npos;
  });
  EXPECT_EQ(query({{"url", "iana.org"},
                   {"matchType", "host"},
                   {"filter", "~urlkey:.*\\.svg$"},
                   {"filter", "!=mime:warc/revisit"}}),
            both);
}

TEST_F(CdxApi, CollapseLimitSortAndJson) {
  std::vector<std::string> firsts;
  std::string last_key;
  for (const auto& l : *oracle_) {
    std::string key = l.substr(0, l.find(' '));
    if (key != last_key) firsts.push_back(l);
    last_key = key;
  }
  EXPECT_EQ(query({{"url", "iana.org"}, {"matchType", "host"}, {"collapse", "urlkey"}}), firsts);
  auto five = query({{"url", "iana.org"}, {"matchType", "host"}, {"limit", "5"}});
  EXPECT_EQ(five, std::vector<std::string>(oracle_->begin(), oracle_->begin() + 5));
  auto css = oracle(
      [](const std::string& l) { return key_starts(l, "org,iana)/_css/2013.1/screen.css "); });
  auto reversed =
      query({{"url", "http://www.iana.org/_css/2013.1/screen.css"}, {"sort", "reverse"}});
  EXPECT_EQ(reversed, std::vector<std::string>(css.rbegin(), css.rend()));
  CdxAnswer json = cdx_api(
      *index_,
      {{"url", "http://www.iana.org/"}, {"output", "json"}, {"fl", "urlkey,timestamp,url,status"}});
  EXPECT_EQ(Json::parse(json.body), Json({{"urlkey", "org,iana)/"},
                                          {"timestamp", "20140126200624"},
                                          {"url", "http://www.iana.org/"},
                                          {"status", "200"}}));
}

TEST_F(CdxApi, EveryParameterIsValidated) {
  for (auto [name, value] : std::vector<std::pair<std::string, std::string>>{{"matchType", "wide"},
                                                                             {"from", "20x4"},
                                                                             {"to", "123"},
                                                                             {"limit", "0"},
                                                                             {"limit", "-3"},
                                                                             {"output", "xml"},
                                                                             {"filter", "nofield"},
                                                                             {"filter", "size:3"},
                                                                             {"filter", "~url:("},
                                                                             {"collapse", "url:0"},
                                                                             {"sort", "random"},
                                                                             {"fl", "url,x"}}) {
    CdxAnswer a = cdx_api(*index_, {{"url", "iana.org"}, {name, value}});
    EXPECT_EQ(a.status, 400) << name << "=" << value;
    EXPECT_EQ(Json::parse(a.body)["error"]["parameter"], name) << a.body;
  }
  EXPECT_EQ(cdx_api(*index_, {}).status, 400);
  EXPECT_EQ(cdx_api(*index_, {{"url", "iana.org"}, {"from", "2015"}, {"to", "2014"}}).status, 400);
}

}  // namespace
}  // namespace strata::replay
