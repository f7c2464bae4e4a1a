// Replay of the 2008 archive.org crawl (example.warc.gz) through the server: nearest-capture
// redirects for partial and distant timestamps, rewritten pages with the banner, Memento
// headers, the TimeGate, TimeMaps, the captures list and the CDX API.
#include <gtest/gtest.h>
#include <httplib.h>

#include "analyze/blocklist.hpp"
#include "archive_org_suite.hpp"
#include "core/json.hpp"
#include "index/moderation.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;

const char* kHome = "http://www.archive.org/";
const char* kHomeTs = "20080430204826";

class WaybackReal : public testing::ArchiveOrg2008Suite {
 protected:
  static void SetUpTestSuite() { start_server(); }

  static httplib::Result get(const std::string& path, const httplib::Headers& headers = {}) {
    httplib::Client c("127.0.0.1", server_->port());
    return c.Get(path, headers);
  }
  static void set_blocked(const std::string& url, bool blocked) {
    analyze::BlockList list;
    analyze::BlockPattern pattern{analyze::BlockPattern::Kind::url, url};
    blocked ? list.add(pattern) : list.remove(pattern);
    ASSERT_TRUE(list.save(index::blocklist_file(*index_)));
    index::refresh_index(*index_);
  }
};

TEST_F(WaybackReal, PartialAndDistantTimestampsRedirectToTheCaptureServed) {
  const std::string landing = std::string("/wayback/") + kHomeTs + "/" + kHome;
  for (const char* ts : {"2008", "200804", "2020", "20080430204800"}) {
    auto r = get(std::string("/wayback/") + ts + "/" + kHome);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 302) << ts;
    EXPECT_EQ(r->get_header_value("Location"), landing) << ts;
    EXPECT_EQ(r->get_header_value("Memento-Datetime"), "Wed, 30 Apr 2008 20:48:26 GMT");
  }
  auto scheme_less = get("/wayback/2008/www.archive.org/");
  ASSERT_TRUE(scheme_less);
  EXPECT_EQ(scheme_less->get_header_value("Location"), landing);
  for (const char* bad :
       {"/wayback/200/http://www.archive.org/", "/wayback/20081399/http://www.archive.org/",
        "/wayback/2008xx_/http://www.archive.org/"}) {
    auto r = get(bad);
    ASSERT_TRUE(r);
    EXPECT_GE(r->status, 400) << bad;
  }
}

TEST_F(WaybackReal, CacheBustingQueriesLandOnTheCapturedUrl) {
  auto r =
      get(std::string("/wayback/") + kHomeTs + "/http://www.archive.org/index.php?_=1209588506");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 302);
  EXPECT_EQ(r->get_header_value("Location"),
            std::string("/wayback/") + kHomeTs + "/http://www.archive.org/index.php");
}

TEST_F(WaybackReal, PageIsRewrittenWithBannerAndMementoHeaders) {
  auto r = get(std::string("/wayback/") + kHomeTs + "/" + kHome);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Memento-Datetime"), "Wed, 30 Apr 2008 20:48:26 GMT");
  std::string link = r->get_header_value("Link");
  EXPECT_NE(link.find("<http://www.archive.org/>; rel=\"original\""), std::string::npos) << link;
  EXPECT_NE(link.find("rel=\"timegate\""), std::string::npos);
  EXPECT_NE(link.find("/wayback/timemap/link/http://www.archive.org/>; rel=\"timemap\""),
            std::string::npos);
  EXPECT_EQ(r->get_header_value("Content-Security-Policy").rfind("sandbox;", 0), 0u);
  EXPECT_NE(r->body.find("datetime=\"2008-04-30T20:48:26Z\">30 Apr 2008 20:48:26 UTC"),
            std::string::npos);
  EXPECT_NE(r->body.find("src=\"/wayback/20080430204826im_/http://www.archive.org/images/"),
            std::string::npos);
  for (const char* live : {"src=\"http", "href=\"http", "src='http", "url(http"})
    EXPECT_EQ(r->body.find(live), std::string::npos) << live;
}

TEST_F(WaybackReal, SubresourcesComeFromTheArchive) {
  auto css = get("/wayback/20080430204826cs_/http://www.archive.org/stylesheets/archive.css");
  ASSERT_TRUE(css);
  EXPECT_EQ(css->status, 302);  // captured 40 seconds later
  auto landed = get(css->get_header_value("Location"));
  ASSERT_TRUE(landed);
  EXPECT_EQ(landed->status, 200);
  EXPECT_EQ(landed->get_header_value("Content-Type"), "text/css");
  EXPECT_EQ(landed->body.find("url(/images"), std::string::npos);
}

TEST_F(WaybackReal, TimeGateTimeMapsAndCaptureList) {
  auto gate =
      get(std::string("/wayback/") + kHome, {{"Accept-Datetime", "Thu, 01 May 2008 00:00:00 GMT"}});
  ASSERT_TRUE(gate);
  EXPECT_EQ(gate->status, 302);
  EXPECT_EQ(gate->get_header_value("Vary"), "accept-datetime");
  EXPECT_EQ(gate->get_header_value("Link").rfind(
                std::string("<") + kHome + ">; rel=\"original\", <http://127.0.0.1:", 0),
            0u)
      << gate->get_header_value("Link");
  EXPECT_NE(gate->get_header_value("Link").find(
                "; rel=\"timemap\"; type=\"application/link-format\"; from=\""),
            std::string::npos);
  EXPECT_NE(
      gate->get_header_value("Location").find(std::string("/wayback/") + kHomeTs + "/" + kHome),
      std::string::npos);
  auto bad_gate = get(std::string("/wayback/") + kHome, {{"Accept-Datetime", "yesterday"}});
  ASSERT_TRUE(bad_gate);
  EXPECT_EQ(bad_gate->status, 400);

  auto link = get(std::string("/wayback/timemap/link/") + kHome);
  ASSERT_TRUE(link);
  EXPECT_EQ(link->status, 200);
  EXPECT_EQ(link->get_header_value("Content-Type"), "application/link-format");
  EXPECT_EQ(link->body.rfind("<http://www.archive.org/>; rel=\"original\",\n", 0), 0u)
      << link->body;
  EXPECT_NE(link->body.find("datetime=\"Wed, 30 Apr 2008 20:48:26 GMT\""), std::string::npos);
  auto json = get(std::string("/wayback/timemap/json/") + kHome);
  ASSERT_TRUE(json);
  EXPECT_GE(Json::parse(json->body)["mementos"]["list"].size(), 1u);

  auto list = get(std::string("/wayback/*/") + kHome);
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 200);
  EXPECT_NE(list->body.find(std::string("href=\"/wayback/") + kHomeTs + "/" + kHome + "\""),
            std::string::npos);
  auto none = get("/wayback/timemap/link/http://not.archived.example/");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 404);
}

TEST_F(WaybackReal, CdxApi) {
  auto r = get("/cdx?url=archive.org&matchType=host&filter==mime:text/css&output=json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  size_t lines = 0;
  for (size_t at = 0; (at = r->body.find('\n', at)) != std::string::npos; ++at, ++lines) {
  }
  EXPECT_GE(lines, 3u);
  EXPECT_NE(r->body.find("\"url\": \"http://www.archive.org/stylesheets/archive.css\""),
            std::string::npos);
  auto bad = get("/cdx?url=archive.org&limit=many");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
}

TEST_F(WaybackReal, BlockedImagesLeaveReplayAndTheCdxApi) {
  const std::string logo = "http://www.archive.org/images/logo.jpg";
  auto listed = [&] {
    auto r = get("/cdx?url=" + logo);
    return r && r->status == 200 && !r->body.empty();
  };
  ASSERT_TRUE(listed());
  set_blocked(logo, true);
  EXPECT_FALSE(listed());
  auto r = get("/wayback/2008im_/" + logo);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  set_blocked(logo, false);
  EXPECT_TRUE(listed());
}

}  // namespace
}  // namespace strata::server
