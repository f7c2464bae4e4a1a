#pragma once
// A collection indexed twice, as one index and as three shards partitioned by digest (groups
// computed over all of them at once), each shard served by xapian-tcpsrv on loopback.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <random>

#include "index/writer.hpp"
#include "search/searcher.hpp"
#include "shard/partition.hpp"
#include "shard/shard_set.hpp"
#include "similar/embedding_index.hpp"
#include "tcpsrv.hpp"
#include "testing/shared_data.hpp"

namespace strata::shard::testing {

namespace fs = std::filesystem;
using search::SearchRequest;
using search::SearchResult;

inline constexpr size_t kShards = 3;
inline constexpr size_t kDocuments = 600;
// More images of the same size than the best-member search keeps per group over remote
// shards (search/collapse.cpp), so that the search then compares them all.
inline constexpr size_t kLargeFamily = 40;
// Per exchange with a shard; generous, for a loaded test machine.
inline constexpr std::chrono::milliseconds kTimeout{1000};

// Documents with overlapping words, repeated capture times and near-duplicate families whose
// members fall in different shards.
inline std::vector<std::pair<merge::ImageDocument, index::Moderation>> collection() {
  const std::vector<std::string> words{"lisboa", "porto", "praia",   "farol", "rio",
                                       "ponte",  "mar",   "castelo", "torre", "jardim"};
  std::mt19937 random(26);
  auto pick = [&](size_t n) { return static_cast<size_t>(random() % n); };
  std::vector<std::pair<merge::ImageDocument, index::Moderation>> out;
  for (size_t i = 0; i < kDocuments; ++i) {
    merge::ImageDocument d;
    d.id = d.imgDigest = "sha1:D" + std::to_string(i);
    d.imgUrl = "http://ex.pt/i/" + std::to_string(i) + ".jpg";
    d.imgMimeType = i % 4 ? "image/jpeg" : "image/png";
    const int side = 100 + static_cast<int>(pick(3)) * 100;
    d.imgWidth = d.imgHeight = i < kLargeFamily ? 300 : side;
    d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = std::to_string(2008 + pick(8)) + "0101000000";
    d.imgTitle = {words[pick(10)] + " " + words[pick(10)]};
    if (pick(2)) d.imgAlt = {words[pick(10)] + " " + words[pick(10)] + " " + words[pick(10)]};
    d.pageUrl = "http://ex.pt/p/" + std::to_string(i % 50);
    d.pageHost = i % 3 ? "ex.pt" : "www.ex.pt";
    d.pageTitle = words[pick(10)];
    d.pageCrawlTimestamp = d.imgCrawlTimestamp;
    d.collection = {i % 5 ? "web" : "news"};
    index::Moderation m;
    m.safe = 0.0;
    // Families of ten (the first of kLargeFamily images of one size): pHashes one bit apart
    // from the family's base.
    const size_t family = i < kLargeFamily ? 0 : i / 10, bit = i < kLargeFamily ? i : i % 10;
    m.phash = (0x9e3779b97f4a7c15ULL * (family + 1)) ^ (uint64_t{1} << bit);
    // A visual embedding (mode=visual of "more like this"): random, so cosines rarely tie (its
    // own generator: the documents stay as they were).
    std::mt19937 embedding_random(static_cast<unsigned>(i));
    similar::EmbeddingCode code;
    for (auto& c : code) c = static_cast<int8_t>(static_cast<int>(embedding_random() % 255) - 127);
    m.embedding = code;
    out.emplace_back(std::move(d), std::move(m));
  }
  return out;
}

inline void write(Xapian::WritableDatabase& db, const fs::path& folder,
                  const std::vector<std::pair<merge::ImageDocument, index::Moderation>>& docs) {
  {
    index::IndexWriter writer(folder);
    writer.begin();
    for (const auto& [doc, m] : docs) {
      writer.add(doc);
      writer.set_moderation(doc.id, m);
    }
    writer.commit();
  }
  db.add_database(Xapian::WritableDatabase(folder.string()));
}

// Near-duplicate groups over the whole collection: one regroup over every shard at once.
inline void regroup(Xapian::WritableDatabase& db) {
  db.begin_transaction();
  index::regroup_near_duplicates(db, index::StoredData(db), {}, 1, /*whole=*/true);
  db.commit_transaction();
}

class RemoteSearchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!have_tcpsrv()) return;
    root_ = new fs::path(strata::testing::scratch_dir());
    const auto docs = collection();
    std::vector<std::vector<std::pair<merge::ImageDocument, index::Moderation>>> parts(kShards);
    for (const auto& d : docs) parts[shard_of(d.first.imgDigest, kShards)].push_back(d);
    Xapian::WritableDatabase one, sharded;
    write(one, *root_ / "one", docs);
    for (size_t k = 0; k < kShards; ++k)
      write(sharded, *root_ / ("shard-" + std::to_string(k)), parts[k]);
    regroup(one);
    regroup(sharded);
  }
  static void TearDownTestSuite() {
    delete root_;
    root_ = nullptr;
  }
  void SetUp() override {
    if (!have_tcpsrv()) GTEST_SKIP() << kTcpsrv << " not found: apt-get install xapian-tools";
    std::vector<ShardAddress> addresses;
    for (size_t k = 0; k < kShards; ++k) {
      servers_.push_back(std::make_unique<Tcpsrv>(*root_ / ("shard-" + std::to_string(k))));
      addresses.push_back(parse_remote(servers_.back()->address()));
    }
    ShardOptions options;
    options.timeout = kTimeout;
    options.retry_after = std::chrono::milliseconds(300);
    shards_ = std::make_unique<ShardSet>(addresses, options);
  }

  SearchResult over_one(const SearchRequest& r) {
    Xapian::Database db((*root_ / "one").string());
    return search::search(db, r);
  }
  SearchResult over_shards(const SearchRequest& r, Coverage* coverage = nullptr) {
    SearchResult result;
    const Coverage c = shards_->run([&](Xapian::Database& db, const search::IndexParts& parts) {
      result = search::search(db, parts, r);
    });
    if (coverage) *coverage = c;
    return result;
  }

  static inline fs::path* root_ = nullptr;
  std::vector<std::unique_ptr<Tcpsrv>> servers_;
  std::unique_ptr<ShardSet> shards_;
};

}  // namespace strata::shard::testing
