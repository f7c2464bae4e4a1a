// Archived bytes never run as active content on the service's origin (replay_safety.hpp):
// hostile captures (tests/testing/hostile_archive.hpp) are indexed with the pipeline and
// replayed; every reply carries the sandbox policy and a type the bytes justify. The
// browser half (scripts really do not run) is web/tests/hostile.test.mjs.
#include <gtest/gtest.h>
#include <httplib.h>

#include "core/json.hpp"
#include "real_index.hpp"
#include "running_server.hpp"
#include "server/replay_safety.hpp"
#include "testing/hostile_archive.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;
using strata::testing::kHostileTimestamp;

class Isolation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const fs::path work = strata::testing::scratch_dir();
    strata::testing::write_hostile_archive(work / "hostile.warc.gz");
    index_ = new fs::path(
        testing::index_documents(testing::merged_documents(work / "hostile.warc.gz", work), work));
  }
  static void TearDownTestSuite() { delete index_; }

  static httplib::Result get(testing::RunningServer& s, const std::string& path) {
    httplib::Client c("127.0.0.1", s.port());
    return c.Get(path);
  }
  static ServerOptions options(bool locked) {
    ServerOptions o;
    o.index_dir = *index_;
    o.api.safe_search = locked;  // the hostile images are unclassified: safe search hides them
    o.api.safe_search_locked = locked;
    return o;
  }
  static std::string image(const char* url) {
    return std::string("/wayback/") + kHostileTimestamp + "im_/" + url;
  }
  static void expect_isolated(const httplib::Result& r) {
    ASSERT_TRUE(r);
    EXPECT_EQ(r->get_header_value("Content-Security-Policy"), kArchivedContentPolicy);
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
  }
  static fs::path* index_;
};
fs::path* Isolation::index_ = nullptr;

TEST_F(Isolation, BothHostileImagesAreIndexed) {
  testing::RunningServer s(options(false));
  auto r = get(s, "/imagesearch?q=hostile&safeSearch=off");
  ASSERT_TRUE(r);
  EXPECT_EQ(Json::parse(r->body)["totalItems"], 2) << r->body;
}

TEST_F(Isolation, SvgIsAnImageUnderTheSandbox) {
  testing::RunningServer s(options(false));
  auto r = get(s, image(strata::testing::kHostileSvg));
  expect_isolated(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "image/svg+xml");
  EXPECT_NE(r->body.find("<script>"), std::string::npos);  // the bytes, unchanged
}

TEST_F(Isolation, ScriptDeclaredPayloadIsServedAsTheImageItIs) {
  testing::RunningServer s(options(false));
  auto r = get(s, image(strata::testing::kHostileScript));
  expect_isolated(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "image/gif");  // declared text/javascript
}

TEST_F(Isolation, PageIsSandboxedHtml) {
  testing::RunningServer s(options(false));
  auto r =
      get(s, std::string("/wayback/") + kHostileTimestamp + "/" + strata::testing::kHostilePage);
  expect_isolated(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
}

TEST_F(Isolation, ErrorsAndThumbnailsCarryThePolicyToo) {
  testing::RunningServer s(options(false));
  auto missing = get(s, image("http://hostile.example/none.png"));
  expect_isolated(missing);
  EXPECT_EQ(missing->status, 404);
  auto thumb = get(
      s, std::string("/thumbnail/all/") + kHostileTimestamp + "/" + strata::testing::kHostileSvg);
  expect_isolated(thumb);
  EXPECT_EQ(thumb->status, 200);  // the placeholder: not analysed
}

TEST_F(Isolation, LockedSafeSearchHidesImagesFromReplayAndThumbnails) {
  testing::RunningServer s(options(true));
  EXPECT_EQ(get(s, image(strata::testing::kHostileSvg))->status, 403);
  EXPECT_EQ(get(s, std::string("/thumbnail/all/") + kHostileTimestamp + "/" +
                       strata::testing::kHostileSvg)
                ->status,
            403);
  auto r = get(s, "/imagesearch?q=hostile&safeSearch=off");
  EXPECT_EQ(Json::parse(r->body)["totalItems"], 0);
  // Pages are not images: still replayed.
  EXPECT_EQ(
      get(s, std::string("/wayback/") + kHostileTimestamp + "/" + strata::testing::kHostilePage)
          ->status,
      200);
}

TEST(ServedTypes, BytesDecideImagesAndOnlyHtmlIsAPage) {
  EXPECT_EQ(served_image_type("<html><script>x</script></html>").content_type,
            "application/octet-stream");
  EXPECT_EQ(served_image_type("alert(1)").headers.back(),
            (std::pair<std::string, std::string>{"Content-Disposition", "attachment"}));
  EXPECT_EQ(
      served_image_type(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(40, '\0')).content_type,
      "image/png");
  EXPECT_EQ(served_page_type("text/javascript").content_type, "application/octet-stream");
  EXPECT_EQ(served_page_type("Text/HTML; charset=x").content_type, "Text/HTML; charset=x");
  EXPECT_EQ(served_page_type("application/xhtml+xml").content_type, "application/xhtml+xml");
}

}  // namespace
}  // namespace strata::server
