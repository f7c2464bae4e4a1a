#include "server/static_files.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

class StaticFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = strata::testing::scratch_dir() / "public";
    std::filesystem::create_directories(root_ / "sub");
    std::ofstream(root_ / "index.html") << "<!doctype html><p>hi";
    std::ofstream(root_ / "app.js") << "export {};";
    std::ofstream(root_ / "favicon.svg") << "<svg/>";
    std::ofstream(root_ / ".secret") << "no";
    std::ofstream(root_.parent_path() / "outside.txt") << "no";
  }
  std::filesystem::path root_;
};

TEST_F(StaticFiles, ServesIndexAndAssetsWithCachingHeaders) {
  StaticReply r = serve_static(root_, "/", "");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=UTF-8");
  EXPECT_EQ(r.cache_control, "no-cache");
  EXPECT_FALSE(r.etag.empty());
  StaticReply js = serve_static(root_, "/app.js", "");
  EXPECT_EQ(js.content_type, "text/javascript; charset=UTF-8");
  EXPECT_EQ(js.cache_control, "no-cache");
  StaticReply svg = serve_static(root_, "/favicon.svg", "");
  EXPECT_EQ(svg.content_type, "image/svg+xml");
  EXPECT_EQ(svg.cache_control, "public, max-age=86400");
}

TEST_F(StaticFiles, RevalidatesWithEtag) {
  StaticReply r = serve_static(root_, "/app.js", "");
  StaticReply again = serve_static(root_, "/app.js", r.etag);
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
  EXPECT_EQ(serve_static(root_, "/app.js", "\"other\"").status, 200);
}

TEST_F(StaticFiles, OnlyExistingFiles) {
  EXPECT_EQ(serve_static(root_, "/search", "").status, 404);
  EXPECT_EQ(serve_static(root_, "/missing.js", "").status, 404);
}

TEST_F(StaticFiles, RefusesTraversalAndHiddenFiles) {
  EXPECT_EQ(serve_static(root_, "/../outside.txt", "").status, 400);
  EXPECT_EQ(serve_static(root_, "/sub/../../outside.txt", "").status, 400);
  EXPECT_EQ(serve_static(root_, "/.secret", "").status, 400);
  EXPECT_EQ(serve_static(root_, "relative", "").status, 404);
  EXPECT_EQ(serve_static({}, "/", "").status, 404);
}

}  // namespace
}  // namespace strata::server
