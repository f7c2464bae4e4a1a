// End to end on a real archive: index books.toscrape.warc (one page and its 20 book covers)
// with the pipeline, search it over HTTP, and fetch a result's image and page through replay.
#include <gtest/gtest.h>
#include <httplib.h>

#include <xapian.h>

#include <thread>

#include "core/digest.hpp"
#include "core/json.hpp"
#include "real_index.hpp"
#include "server/server.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;

// "http://host:port/wayback/..." -> "/wayback/...".
std::string local_path(const std::string& link) {
  return link.substr(link.find("/wayback/"));
}

TEST(ReplayRealArchive, SearchThenFetchImageAndPage) {
  STRATA_REQUIRE_SHARED();
  fs::path archive =
      strata::testing::shared_data("archives/N0taN3rd__node-warc/test/files/books.toscrape.warc");
  ServerOptions options;
  const fs::path work = strata::testing::scratch_dir();
  options.index_dir = testing::index_documents(testing::merged_documents(archive, work), work);
  EXPECT_EQ(Xapian::Database(options.index_dir.string()).get_doccount(), 20u);
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
