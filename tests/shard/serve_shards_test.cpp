// `strata serve --shard` (server/server.hpp over src/shard): /imagesearch answers over three
// xapian-tcpsrv shards as over one index, says how many shards answered, and with one killed
// answers from the others with "partialResults": true; the healthcheck says so too.
#include <httplib.h>

#include "core/json.hpp"
#include "server/running_server.hpp"
#include "server/similar_visual.hpp"
#include "sharded_collection.hpp"

namespace strata::shard::testing {
namespace {

class ServeShardsTest : public RemoteSearchTest {
 protected:
  void SetUp() override {
    RemoteSearchTest::SetUp();
    if (IsSkipped()) return;
    server::ServerOptions options;
    for (const auto& s : servers_) options.shards.push_back(parse_remote(s->address()));
    options.shard_options.timeout = kTimeout;
    options.shard_options.retry_after = std::chrono::milliseconds(300);
    server_ = std::make_unique<server::testing::RunningServer>(options);
  }
  Json get(const std::string& target) {
    httplib::Client client("127.0.0.1", server_->port());
    const auto r = client.Get(target);
    if (!r) return nullptr;
    EXPECT_EQ(r->status, 200) << target << ": " << r->body;
    return Json::parse(r->body, nullptr, false);
  }
  std::unique_ptr<server::testing::RunningServer> server_;
};

TEST_F(ServeShardsTest, SearchesEveryShardThenAnswersFromTheOthersFlagged) {
  SearchRequest one_request;
  one_request.q = "lisboa";
  const SearchResult one = over_one(one_request);
  Json j = get("/imagesearch?q=lisboa");
  EXPECT_EQ(j["totalItems"], one.total);
  EXPECT_EQ(j["partialResults"], false);
  EXPECT_EQ(j["shards"]["total"], kShards);
  EXPECT_EQ(j["shards"]["missing"], 0);
  ASSERT_EQ(j["responseItems"].size(), one.hits.size());
  EXPECT_EQ(j["years"].size(), one.years.size());

  servers_[0]->kill();
  j = get("/imagesearch?q=lisboa");
  EXPECT_EQ(j["partialResults"], true);
  EXPECT_EQ(j["shards"]["missing"], 1);
  EXPECT_GT(j["totalItems"].get<uint64_t>(), 0u);
  EXPECT_LT(j["totalItems"].get<uint64_t>(), one.total);
  const Json health = get("/imagesearch/healthcheck");
  EXPECT_EQ(health["index"], "partial");
  EXPECT_EQ(health["shardsMissing"], 1);
}

// "More like this" over shards, near-duplicates and visual neighbours (mode=visual), lists
// what one index built from the same documents lists (images at equal pHash distance sorted by
// digest: their order is the documents', which sharding changes).
TEST_F(ServeShardsTest, SimilarAndVisuallySimilarImagesAreTheOneIndexs) {
  server::ServerOptions options;
  options.index_dir = *root_ / "one";
  server::testing::RunningServer one(options);
  auto listed = [](int port, const std::string& digest, const char* mode) {
    httplib::Client client("127.0.0.1", port);
    const auto r = client.Get(
        "/imagesearch/similar?safeSearch=off&fields=imgDigest&maxItems=200"
        "&mode=" +
        std::string(mode) + "&digest=" + digest);
    std::vector<std::tuple<int, double, std::string>> items;
    if (!r || r->status != 200) return items;
    const Json j = Json::parse(r->body);
    for (const auto& item : j["responseItems"])
      items.emplace_back(item.value("distance", -1), -item.value("similarity", 0.0),
                         item["imgDigest"].get<std::string>());
    std::sort(items.begin(), items.end());
    return items;
  };
  size_t visual = 0;
  for (const char* digest : {"sha1:D0", "sha1:D45", "sha1:D123", "sha1:D377", "sha1:D599"}) {
    for (const char* mode : {"near", "visual"}) {
      const auto expected = listed(one.port(), digest, mode);
      EXPECT_FALSE(expected.empty()) << digest << " " << mode;
      EXPECT_EQ(listed(server_->port(), digest, mode), expected) << digest << " " << mode;
      if (std::string(mode) == "visual") visual += expected.size();
    }
  }
  EXPECT_GE(visual, 5 * server::kMaxVisualNeighbours);
}

TEST_F(ServeShardsTest, ThumbnailsAreFoundInTheirShard) {
  httplib::Client client("127.0.0.1", server_->port());
  // Not analysed: the placeholder, found through the shard that holds the image.
  auto r = client.Get("/thumbnail/all/20100101000000/http://ex.pt/i/7.jpg");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "image/svg+xml");
  r = client.Get("/thumbnail/all/20100101000000/http://ex.pt/i/none.jpg");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  // Replay finds the document in its shard; these documents name no archive
  // (replay_shards_test.cpp replays real ones).
  r = client.Get("/wayback/20100101000000im_/http://ex.pt/i/7.jpg");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_NE(r->body.find("not registered"), std::string::npos) << r->body;
}

}  // namespace
}  // namespace strata::shard::testing
