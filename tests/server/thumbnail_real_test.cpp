// Analysis inside the pipeline on a real archive (books.toscrape.warc: 20 book covers), then
// the thumbnail endpoint, safe search and block-list edits through a running server.
#include <gtest/gtest.h>
#include <httplib.h>

#include <fstream>
#include <map>
#include <thread>

#include "analyze/record.hpp"
#include "analyze/run.hpp"
#include "analyze/thumbnail_store.hpp"
#include "core/json.hpp"
#include "real_index.hpp"
#include "server/server.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;

// Every document of `from` but the first, so one image stays unanalysed.
fs::path all_but_first(const fs::path& from, const fs::path& to) {
  std::ifstream in(from);
  std::ofstream out(to);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) out << line << '\n';
  return to;
}

Counters analyse(const fs::path& documents, const fs::path& index_dir) {
  analyze::RunOptions o;
  o.documents = documents;
  o.out = index_dir;
  o.jobs = 2;
  return analyze::run_analysis(o);
}

std::map<std::string, analyze::AnalysisRecord> records(const fs::path& index_dir) {
  std::map<std::string, analyze::AnalysisRecord> out;
  std::ifstream in(index::analysis_file(index_dir));
  std::string line;
  while (std::getline(in, line)) {
    analyze::AnalysisRecord r;
    if (analyze::from_json(Json::parse(line), r)) out[r.digest] = r;
  }
  return out;
}

class ThumbnailRealArchive : public ::testing::Test {
 protected:
  void SetUp() override {
    STRATA_REQUIRE_SHARED();
    if (!analyze::find_nsfw_models())
      GTEST_SKIP() << "NSFW models not installed (scripts/setup-npm)";
    const fs::path archive =
        strata::testing::shared_data("archives/N0taN3rd__node-warc/test/files/books.toscrape.warc");
    work_ = strata::testing::scratch_dir();
    const fs::path docs = testing::merged_documents(archive, work_);
    const fs::path partial = all_but_first(docs, work_ / "partial.jsonl");
    const Counters first = analyse(partial, work_ / "index");
    EXPECT_EQ(first.get("images"), 19);
    EXPECT_EQ(first.get("classified"), 19);
    const Counters second = analyse(partial, work_ / "index");  // the cache: nothing new
    EXPECT_EQ(second.get("images"), 0);
    EXPECT_EQ(second.get("already_analysed"), 19);
    ServerOptions options;
    options.index_dir = testing::index_documents(docs, work_);
    options.port = 0;
    server_ = std::make_unique<Server>(options);
    ASSERT_TRUE(server_->bind());
    thread_ = std::thread([this] { server_->run(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }
  void TearDown() override {
    if (!server_) return;
    server_->stop();
    thread_.join();
  }
  Json search(const std::string& query) {
    auto r = client_->Get(
        ("/imagesearch?maxItems=100&fields=imgDigest,imgSrc,imgTstamp&" + query).c_str());
    EXPECT_TRUE(r && r->status == 200);
    return r ? Json::parse(r->body)["responseItems"] : Json::array();
  }
  httplib::Result thumb(const std::string& mode, const Json& item) {
    const std::string path = "/thumbnail/" + mode + "/" + item["imgTstamp"].get<std::string>() +
                             "/" + item["imgSrc"].get<std::string>();
    return client_->Get(path.c_str());
  }

  fs::path work_;
  std::unique_ptr<Server> server_;
  std::thread thread_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ThumbnailRealArchive, SafeSearchAndThumbnailsFollowTheAnalysis) {
  const auto analysed = records(work_ / "index");
  ASSERT_EQ(analysed.size(), 19u);
  size_t visible = 0;
  for (const auto& [digest, r] : analysed) visible += analyze::visible_under_safe_search(r);
  const Json all = search("safeSearch=off");
  ASSERT_EQ(all.size(), 20u);
  EXPECT_EQ(search("").size(), visible);  // the unanalysed one is hidden
  const analyze::ThumbnailStore store(work_ / "index" / "thumbs");
  for (const Json& item : all) {
    const std::string digest = item["imgDigest"];
    const auto it = analysed.find(digest);
    auto safe = thumb("safe", item), any = thumb("all", item);
    ASSERT_TRUE(safe && any);
    EXPECT_EQ(any->status, 200);
    if (it == analysed.end()) {  // not analysed: placeholder, hidden under safe search
      EXPECT_EQ(safe->status, 403);
      EXPECT_EQ(any->get_header_value("Content-Type"), "image/svg+xml");
      EXPECT_EQ(any->get_header_value("Cache-Control"), "public, max-age=300");
      continue;
    }
    EXPECT_EQ(safe->status, analyze::visible_under_safe_search(it->second) ? 200 : 403);
    EXPECT_EQ(any->get_header_value("Content-Type"), "image/webp");
    EXPECT_EQ(any->get_header_value("Cache-Control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(any->body, store.get(digest).value_or(""));
  }
}

TEST_F(ThumbnailRealArchive, BlockAddAndRemoveReachARunningServer) {
  const Json all = search("safeSearch=off");
  ASSERT_FALSE(all.empty());
  const Json& item = all[0];
  const std::string url = item["imgSrc"],
                    replay = "/wayback/" + item["imgTstamp"].get<std::string>() + "im_/" + url;
  analyze::BlockList list;
  analyze::BlockPattern pattern{analyze::BlockPattern::Kind::url, url};
  list.add(pattern);
  ASSERT_TRUE(list.save(index::blocklist_file(work_ / "index")));
  EXPECT_EQ(index::refresh_index(work_ / "index"), 1u);
  EXPECT_EQ(search("safeSearch=off").size(), all.size() - 1);
  EXPECT_EQ(client_->Get(replay.c_str())->status, 404);
  EXPECT_EQ(thumb("all", item)->status, 404);

  list.remove(pattern);
  ASSERT_TRUE(list.save(index::blocklist_file(work_ / "index")));
  EXPECT_EQ(index::refresh_index(work_ / "index"), 1u);
  EXPECT_EQ(search("safeSearch=off").size(), all.size());
  EXPECT_EQ(client_->Get(replay.c_str())->status, 200);
}

}  // namespace
}  // namespace strata::server
