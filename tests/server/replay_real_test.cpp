// End to end on a real archive: index books.toscrape.warc (one page and its 20 book covers)
// with the pipeline, search it over HTTP, and fetch a result's image and page through replay.
#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "core/digest.hpp"
#include "core/json.hpp"
#include "extract/stage.hpp"
#include "index/index_documents.hpp"
#include "merge/folder.hpp"
#include "server/server.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;

// Builds an index of `archive` the way `strata index` does.
fs::path build_index(const fs::path& archive, const fs::path& work) {
  extract::ExtractOptions xopts;
  xopts.collection = "books";
  fs::create_directories(work / "extract");
  auto extracted = extract::run_extraction({archive}, xopts, work / "extract", 1, {}, nullptr);
  EXPECT_EQ(extracted.unusable, 0u);
  auto merged = merge::merge_folder(work / "extract", work / "docs", {}, nullptr);
  EXPECT_EQ(merged.error, "");
  index::IndexOptions iopts;
  iopts.index_dir = work / "index";
  iopts.collection = "books";
  iopts.inputs = {merged.documents};
  EXPECT_EQ(index::index_documents(iopts).documents, 20u);
  return iopts.index_dir;
}

// "http://host:port/wayback/..." -> "/wayback/...".
std::string local_path(const std::string& link) {
  return link.substr(link.find("/wayback/"));
}

TEST(ReplayRealArchive, SearchThenFetchImageAndPage) {
  STRATA_REQUIRE_SHARED();
  fs::path archive =
      testing::shared_data("archives/N0taN3rd__node-warc/test/files/books.toscrape.warc");
  ServerOptions options;
  options.index_dir = build_index(archive, testing::scratch_dir());
  options.port = 0;
  Server server(options);
  ASSERT_TRUE(server.bind());
  std::thread thread([&server] { server.run(); });
  httplib::Client client("127.0.0.1", server.port());

  auto found = client.Get("/imagesearch?q=%22A+Light+in+the+Attic%22&safeSearch=off");
  ASSERT_TRUE(found);
  ASSERT_EQ(found->status, 200) << found->body;
  Json reply = Json::parse(found->body);
  ASSERT_GE(reply["totalItems"].get<int>(), 1);
  const Json& item = reply["responseItems"][0];
  EXPECT_EQ(item["imgAlt"][0], "A Light in the Attic");
  EXPECT_EQ(item["pageURL"], "http://books.toscrape.com/");

  auto image = client.Get(local_path(item["imgLinkToArchive"]).c_str());
  ASSERT_TRUE(image);
  EXPECT_EQ(image->status, 200);
  EXPECT_EQ(image->get_header_value("Content-Type"), "image/jpeg");
  EXPECT_EQ(sha256_hex(image->body), item["imgDigest"].get<std::string>());

  auto page = client.Get(local_path(item["pageLinkToArchive"]).c_str());
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->get_header_value("Content-Security-Policy").find("sandbox"), std::string::npos);
  EXPECT_NE(page->body.find("A Light in the"), std::string::npos);

  server.stop();
  thread.join();
}

}  // namespace
}  // namespace strata::server
