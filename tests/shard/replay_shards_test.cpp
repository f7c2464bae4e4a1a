// Replay, the CDX API, thumbnails and "more like this" over shards (`strata serve --shard`,
// docs/scale.md): the tiny sample indexed as one index and as three shards (`strata index
// --shards 3`, analysed: pHash and thumbnails), the shards served by three xapian-tcpsrv on
// loopback. Every image replays, every thumbnail and every CDX line is the one index's, from
// whichever shard holds its document; "more like this" lists the one index's near-duplicates.
// With a shard killed, what the others hold still answers, what it held is 503 (not served
// unchecked), and the CDX reply says a shard is missing. The shards served as local parts
// (`strata serve --index SHARDED`) answer the same.
#include <httplib.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "core/json.hpp"
#include "index/shard_layout.hpp"
#include "server/running_server.hpp"
#include "shard/partition.hpp"
#include "tcpsrv.hpp"
#include "testing/containers.hpp"
#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace strata::shard::testing {
namespace {

namespace fs = std::filesystem;
using server::testing::RunningServer;

constexpr size_t kShards = 3;

struct Document {
  std::string id, digest, img_url, img_ts, page_url, page_ts;
  bool has_phash = false;
};

// The one index's documents (image data: URLs left out: they have no capture of their own).
std::vector<Document> documents(const fs::path& index_dir) {
  std::vector<Document> out;
  Xapian::Database db(index_dir.string());
  index::StoredData stored(db);
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    const Xapian::Document xd = db.get_document(*it);
    merge::ImageDocument d;
    index::Moderation m;
    if (!index::parse_document_data(stored.unpack(xd.get_data()), d, m) || d.isInline) continue;
    out.push_back({d.id, d.imgDigest, d.imgUrl, d.imgCrawlTimestamp, d.pageUrl,
                   d.pageCrawlTimestamp, !xd.get_value(index::slot::phash).empty()});
  }
  return out;
}

std::string host_of(const std::string& url) {
  const size_t start = url.find("://");
  if (start == std::string::npos) return "";
  const size_t end = url.find('/', start + 3);
  return url.substr(start + 3, end == std::string::npos ? std::string::npos : end - start - 3);
}

struct Answer {
  int status = 0;
  std::string type, body, missing;
};

Answer get(int port, const std::string& target) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(10);
  const auto r = client.Get(target);
  if (!r) return {-1, "", "", ""};
  return {r->status, r->get_header_value("Content-Type"), r->body,
          r->get_header_value("Strata-Shards-Missing")};
}

// "more like this": (distance, imgDigest) of each listed image, the total and partialResults. Equal
// distances are sorted by id: the order of ties is the documents' order, which sharding
// changes (as for search, docs/scale.md).
struct Similar {
  int status = 0;
  uint64_t total = 0;
  std::vector<std::pair<int, std::string>> items;
  Json partial;
  std::string body;  // when not 200
  bool operator==(const Similar& o) const {
    return status == o.status && total == o.total && items == o.items;
  }
};

Similar similar(int port, const std::string& digest) {
  const Answer a = get(port,
                       "/imagesearch/similar?safeSearch=off&decorative=show&maxItems=200"
                       "&fields=imgDigest&digest=" +
                           httplib::detail::encode_query_param(digest));
  Similar s;
  s.status = a.status;
  if (a.status != 200) s.body = a.body;
  const Json j = Json::parse(a.body, nullptr, false);
  if (a.status != 200 || j.is_discarded()) return s;
  s.total = j["totalItems"];
  for (const auto& item : j["responseItems"])
    s.items.emplace_back(item["distance"], item["imgDigest"]);
  std::sort(s.items.begin(), s.items.end());
  s.partial = j.value("partialResults", Json());
  return s;
}

// The lines of an exported CSV, its header first and its rows sorted: results of equal score
// come in the documents' order, which sharding changes (docs/scale.md).
std::vector<std::string> sorted_rows(const std::string& csv) {
  std::vector<std::string> rows;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) rows.push_back(line);
  if (rows.size() > 1) std::sort(rows.begin() + 1, rows.end());
  return rows;
}

// The target URI and length of every record of an exported WARC (warcinfo has neither),
// sorted.
std::vector<std::string> warc_records(const std::string& gz) {
  std::vector<std::string> records;
  std::istringstream in(strata::testing::gunzip_all(gz));
  std::string target;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("WARC-Target-URI: ", 0) == 0) target = line;
    if (line.rfind("Content-Length: ", 0) == 0 && !target.empty())
      records.push_back(target + " " + line), target.clear();
  }
  std::sort(records.begin(), records.end());
  return records;
}

// The summary without what only a summary of shards says.
Json summary_of(int port) {
  Json j = Json::parse(get(port, "/imagesearch/summary").body, nullptr, false);
  if (j.is_object()) j.erase("partialResults"), j.erase("shards");
  return j;
}

class ReplayShardsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!have_tcpsrv()) return;
    sample_ = new fs::path(strata::testing::make_tiny_sample("replay-shards"));
    const fs::path root = sample_->parent_path();
    std::vector<fs::path> archives;
    for (const auto& c : strata::testing::sample_collections(*sample_))
      archives.insert(archives.end(), c.begin(), c.end());
    for (const auto& [name, shards] : {std::pair{"one", size_t{0}}, {"sharded", kShards}})
      strata::testing::add_archives(
          root / name, archives, root / "work", {},
          [&, index_dir = root / name](const fs::path& docs) {
            strata::testing::analyse_without_nsfw(docs, index_dir, *sample_);
            return true;
          },
          shards);
  }
  static void TearDownTestSuite() {
    if (sample_) fs::remove_all(sample_->parent_path());
    delete sample_;
    sample_ = nullptr;
  }

  void SetUp() override {
    if (!have_tcpsrv()) GTEST_SKIP() << kTcpsrv << " not found: apt-get install xapian-tools";
    const fs::path root = sample_->parent_path();
    server::ServerOptions one;
    one.index_dir = root / "one";
    one.archive_roots = {*sample_};
    one_ = std::make_unique<RunningServer>(one);
    server::ServerOptions sharded;
    sharded.archive_roots = {*sample_};
    sharded.thumb_roots = {root / "sharded" / "thumbs"};
    for (const auto& folder : index::shard_folders(root / "sharded")) {
      tcpsrv_.push_back(std::make_unique<Tcpsrv>(folder));
      sharded.shards.push_back(parse_remote(tcpsrv_.back()->address()));
    }
    ASSERT_EQ(tcpsrv_.size(), kShards);
    sharded.shard_options.timeout = std::chrono::milliseconds(2000);
    sharded.shard_options.retry_after = std::chrono::milliseconds(60000);
    sharded_ = std::make_unique<RunningServer>(sharded);
    docs_ = documents(root / "one");
  }

  // The one index's answer with the sharded server's base written as the one's (Memento
  // links are absolute).
  static Answer rebased(Answer a, int from, int to) {
    const std::string was = "127.0.0.1:" + std::to_string(from),
                      now = "127.0.0.1:" + std::to_string(to);
    for (size_t at = 0; (at = a.body.find(was, at)) != std::string::npos; at += now.size())
      a.body.replace(at, was.size(), now);
    return a;
  }
  void expect_same(const std::string& target) { expect_same(*sharded_, target); }
  void expect_same(RunningServer& server, const std::string& target) {
    const Answer one = get(one_->port(), target);
    const Answer sharded = rebased(get(server.port(), target), server.port(), one_->port());
    EXPECT_EQ(sharded.status, one.status) << target;
    EXPECT_EQ(sharded.type, one.type) << target;
    EXPECT_TRUE(sharded.body == one.body) << target;
  }
  // Documents whose image lives in shard k.
  std::vector<Document> in_shard(size_t k) const {
    std::vector<Document> out;
    for (const Document& d : docs_)
      if (shard_of(d.id, kShards) == k) out.push_back(d);
    return out;
  }

  static inline fs::path* sample_ = nullptr;
  std::vector<std::unique_ptr<Tcpsrv>> tcpsrv_;
  std::unique_ptr<RunningServer> one_, sharded_;
  std::vector<Document> docs_;
};

TEST_F(ReplayShardsTest, EveryImageAndPageReplaysAsFromOneIndex) {
  ASSERT_GT(docs_.size(), 30u);
  for (size_t k = 1; k < kShards; ++k) ASSERT_FALSE(in_shard(k).empty()) << k;
  size_t served = 0;
  for (const Document& d : docs_) {
    expect_same("/wayback/" + d.img_ts + "im_/" + d.img_url);
    expect_same("/thumbnail/all/" + d.img_ts + "/" + d.img_url);
    served += get(sharded_->port(), "/wayback/" + d.img_ts + "im_/" + d.img_url).status == 200;
  }
  EXPECT_GT(served, docs_.size() / 2);
  std::set<std::string> pages;
  for (const Document& d : docs_)
    if (pages.insert(d.page_url).second && pages.size() <= 12) {
      expect_same("/wayback/" + d.page_ts + "/" + d.page_url);
      expect_same("/wayback/timemap/json/" + d.page_url);
      expect_same("/wayback/*/" + d.img_url);
    }
  expect_same("/wayback/20990101000000im_/http://nowhere.example/none.png");
}

TEST_F(ReplayShardsTest, CdxLinesOfEveryShardAreTheOneIndexCdx) {
  std::set<std::string> hosts;
  for (const Document& d : docs_)
    for (const std::string& url : {d.img_url, d.page_url}) hosts.insert(host_of(url));
  hosts.erase("");
  ASSERT_FALSE(hosts.empty());
  size_t lines = 0;
  for (const std::string& host : hosts) {
    const std::string target = "/cdx?matchType=domain&url=" + host;
    expect_same(target);
    const Answer a = get(sharded_->port(), target);
    lines += static_cast<size_t>(std::count(a.body.begin(), a.body.end(), '\n'));
    EXPECT_EQ(a.missing, "");
  }
  EXPECT_GT(lines, docs_.size());
}

// `strata serve --index SHARDED` (the shards as local parts, cmd_serve.cpp): the same replay
// and CDX.
TEST_F(ReplayShardsTest, LocalPartsReplayAsOneIndex) {
  const fs::path root = sample_->parent_path();
  const auto folders = index::shard_folders(root / "sharded");
  server::ServerOptions options;
  options.index_dir = folders[0];
  for (size_t k = 1; k < folders.size(); ++k) options.shards.push_back({"", 0, folders[k]});
  options.archive_roots = {*sample_};
  options.thumb_roots = {root / "sharded" / "thumbs"};
  RunningServer local(options);
  for (const Document& d : in_shard(2)) {
    expect_same(local, "/wayback/" + d.img_ts + "im_/" + d.img_url);
    expect_same(local, "/thumbnail/all/" + d.img_ts + "/" + d.img_url);
    expect_same(local, "/cdx?matchType=domain&url=" + host_of(d.page_url));
  }
}

TEST_F(ReplayShardsTest, ExportsAndTheSummaryAreTheOneIndexs) {
  const std::string query = "/imagesearch/export?q=&safeSearch=off&collapse=off&decorative=show";
  const Answer one_csv = get(one_->port(), query + "&fields=imgDigest,imgSrc,imgTstamp,pageURL");
  const Answer csv = get(sharded_->port(), query + "&fields=imgDigest,imgSrc,imgTstamp,pageURL");
  ASSERT_EQ(one_csv.status, 200) << one_csv.body;
  EXPECT_EQ(csv.status, 200) << csv.body;
  EXPECT_EQ(csv.missing, "");
  EXPECT_GT(sorted_rows(one_csv.body).size(), docs_.size() / 2);
  EXPECT_EQ(sorted_rows(csv.body), sorted_rows(one_csv.body));
  // A WARC export reads each image's record from the archive its shard registers.
  const auto one_warc = warc_records(get(one_->port(), query + "&format=warc").body);
  EXPECT_GT(one_warc.size(), docs_.size() / 2);
  EXPECT_EQ(warc_records(get(sharded_->port(), query + "&format=warc").body), one_warc);
  const Json one = summary_of(one_->port());
  ASSERT_TRUE(one.is_object());
  EXPECT_GT(one["totalImages"].get<uint64_t>(), 0u);
  EXPECT_FALSE(one["collections"].empty());  // (no examples: these images are not classified)
  EXPECT_EQ(summary_of(sharded_->port()), one);
  const Json said = Json::parse(get(sharded_->port(), "/imagesearch/summary").body);
  EXPECT_EQ(said["partialResults"], false);
  EXPECT_EQ(said["shards"]["total"], kShards);
}

TEST_F(ReplayShardsTest, MoreLikeThisListsTheOneIndexNearDuplicates) {
  size_t asked = 0, listed = 0;
  for (const Document& d : docs_) {
    if (!d.has_phash) continue;
    const Similar one = similar(one_->port(), d.digest),
                  sharded = similar(sharded_->port(), d.digest);
    EXPECT_TRUE(sharded == one) << d.digest << ": " << sharded.total << " against " << one.total
                                << " " << sharded.body;
    EXPECT_EQ(one.status, 200) << one.body;
    EXPECT_EQ(sharded.status, 200) << sharded.body;
    EXPECT_EQ(sharded.partial, false);
    ++asked;
    listed += one.items.size();
  }
  EXPECT_GT(asked, 10u);
  EXPECT_GT(listed, 0u) << "the sample has near-duplicates";
  // An uploaded image: the bytes of an indexed one.
  for (const Document& d : docs_) {
    if (!d.has_phash) continue;
    const Answer bytes = get(one_->port(), "/wayback/" + d.img_ts + "id_/" + d.img_url);
    if (bytes.status != 200) continue;
    auto upload = [&](int port) {
      httplib::Client client("127.0.0.1", port);
      const auto r =
          client.Post("/imagesearch/similar?safeSearch=off&fields=imgDigest&maxItems=200",
                      bytes.body, "application/octet-stream");
      return r ? Json::parse(r->body, nullptr, false)["totalItems"] : Json();
    };
    EXPECT_EQ(upload(sharded_->port()), upload(one_->port())) << d.img_url;
    break;
  }
}

TEST_F(ReplayShardsTest, ShardDownLeavesTheOthersAnsweringAndRefusesWhatItHeld) {
  const std::vector<Document> gone = in_shard(1), kept = in_shard(2);
  ASSERT_FALSE(gone.empty());
  ASSERT_FALSE(kept.empty());
  // Opened before the kill: the capture index and the similarity snapshot.
  get(sharded_->port(), "/cdx?url=" + host_of(kept.front().img_url) + "&matchType=domain");
  tcpsrv_[1]->kill();
  for (const Document& d : kept) {
    const std::string target = "/wayback/" + d.img_ts + "im_/" + d.img_url;
    const Answer one = get(one_->port(), target), sharded = get(sharded_->port(), target);
    EXPECT_EQ(sharded.status, one.status) << target;
    EXPECT_TRUE(sharded.body == one.body) << target;
  }
  const Document& lost = gone.front();
  EXPECT_EQ(get(sharded_->port(), "/wayback/" + lost.img_ts + "im_/" + lost.img_url).status, 503);
  EXPECT_EQ(get(sharded_->port(), "/thumbnail/all/" + lost.img_ts + "/" + lost.img_url).status,
            503);
  const Answer cdx =
      get(sharded_->port(), "/cdx?url=" + host_of(lost.img_url) + "&matchType=domain");
  EXPECT_EQ(cdx.status, 200);
  EXPECT_EQ(cdx.missing, "1");
  EXPECT_EQ(cdx.body.find(lost.img_url + "\""), std::string::npos) << "left out, not unchecked";
  EXPECT_EQ(similar(sharded_->port(), lost.digest).status, 503);
  // An export of what the others hold, and a summary of them, each saying a shard is missing.
  const Answer csv = get(sharded_->port(), "/imagesearch/export?q=&safeSearch=off&collapse=off"
                                           "&decorative=show&fields=imgDigest");
  EXPECT_EQ(csv.status, 200) << csv.body;
  EXPECT_EQ(csv.missing, "1");
  EXPECT_EQ(csv.body.find(lost.digest), std::string::npos);
  EXPECT_NE(csv.body.find(kept.front().digest), std::string::npos);
  const Json summary = Json::parse(get(sharded_->port(), "/imagesearch/summary").body);
  EXPECT_EQ(summary["partialResults"], true);
  EXPECT_EQ(summary["shards"]["missing"], 1);
  EXPECT_LT(summary["totalImages"].get<uint64_t>(), summary_of(one_->port())["totalImages"]);
  for (const Document& d : kept)
    if (d.has_phash) {
      const Similar s = similar(sharded_->port(), d.digest);
      EXPECT_EQ(s.status, 200);
      EXPECT_EQ(s.partial, true);
      for (const auto& [distance, digest] : s.items)
        for (const Document& g : gone) EXPECT_NE(digest, g.digest);
      break;
    }
}

}  // namespace
}  // namespace strata::shard::testing
