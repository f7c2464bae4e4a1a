// Search over shards (src/shard, docs/scale.md): three xapian-tcpsrv processes on loopback
// serve three shards of a collection; the same searches over them and over one index built
// from the same documents give the same results (ranking, scores, totals, years facet,
// near-duplicate collapse). A shard killed or hung mid-test leaves the others answering,
// flagged, within the timeout; a shard that comes back is used again.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <set>

#include "index/writer.hpp"
#include "search/searcher.hpp"
#include "shard/partition.hpp"
#include "shard/shard_set.hpp"
#include "tcpsrv.hpp"
#include "testing/shared_data.hpp"

namespace strata::shard::testing {
namespace {

namespace fs = std::filesystem;
using search::SearchRequest;
using search::SearchResult;

constexpr size_t kShards = 3;
constexpr size_t kDocuments = 600;

// Documents with overlapping words, repeated capture times and near-duplicate families whose
// members fall in different shards.
std::vector<std::pair<merge::ImageDocument, index::Moderation>> collection() {
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
    d.imgWidth = d.imgHeight = 100 + static_cast<int>(pick(3)) * 100;
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
    // Families of ten: pHashes one bit apart from the family's base.
    m.phash = (0x9e3779b97f4a7c15ULL * (i / 10 + 1)) ^ (uint64_t{1} << (i % 10));
    out.emplace_back(std::move(d), std::move(m));
  }
  return out;
}

void write(Xapian::WritableDatabase& db, const fs::path& folder,
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
void regroup(Xapian::WritableDatabase& db) {
  db.begin_transaction();
  index::regroup_near_duplicates(db, index::StoredData(db));
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
    options.timeout = std::chrono::milliseconds(500);
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

std::vector<SearchRequest> requests() {
  std::vector<SearchRequest> out;
  for (const char* q : {"lisboa", "praia farol", "\"ponte rio\"", "mar -torre", "castelo jardim",
                        "", "site:www.ex.pt lisboa", "type:png praia"}) {
    // Collapsed, every result of "" ties: GroupsSpanShards compares them.
    for (const bool collapse : {std::string(q).empty() ? false : true, false}) {
      SearchRequest r;
      r.q = q;
      r.collapse = collapse;
      out.push_back(r);
    }
  }
  SearchRequest paged;
  paged.q = "lisboa porto";
  paged.offset = 20;
  paged.max_items = 30;
  out.push_back(paged);
  SearchRequest dated;
  dated.q = "rio";
  dated.from = "20100101000000";
  dated.to = "20121231235959";
  out.push_back(dated);
  return out;
}

std::string describe(const search::Hit& h) {
  return h.doc.id + " group size " + std::to_string(h.group_size) + " matches " +
         std::to_string(h.group_matches);
}

// Same totals, facet and scores rank by rank, and the same hits. Near-duplicate groups of
// equal score may come in another order: Xapian keeps the first member of a group it meets
// (docid order, which sharding changes) and that member's capture orders the tie
// (docs/scale.md); so with collapse, each run of equal scores is compared as a set.
void expect_same(const SearchResult& one, const SearchResult& sharded, bool collapse,
                 const std::string& what) {
  EXPECT_EQ(sharded.total, one.total) << what;
  EXPECT_EQ(sharded.years, one.years) << what;
  ASSERT_EQ(sharded.hits.size(), one.hits.size()) << what;
  for (size_t from = 0, to = 0; from < one.hits.size(); from = to) {
    to = from + 1;
    while (collapse && to < one.hits.size() && one.hits[to].score == one.hits[from].score) ++to;
    std::multiset<std::string> a, b;
    for (size_t i = from; i < to; ++i) {
      EXPECT_NEAR(sharded.hits[i].score, one.hits[i].score, 1e-9 * std::max(1.0, one.hits[i].score))
          << what << " rank " << i;
      a.insert(describe(one.hits[i]));
      b.insert(describe(sharded.hits[i]));
    }
    EXPECT_EQ(b, a) << what << " ranks " << from << "-" << to;
  }
}

TEST_F(RemoteSearchTest, ShardsAnswerAsOneIndex) {
  for (const SearchRequest& r : requests()) {
    const std::string what = "q=" + r.q + (r.collapse ? "" : " collapse=off");
    const SearchResult one = over_one(r);
    Coverage coverage;
    const SearchResult sharded = over_shards(r, &coverage);
    EXPECT_EQ(coverage.shards, kShards);
    EXPECT_TRUE(coverage.missing.empty()) << what;
    ASSERT_FALSE(one.hits.empty() && r.q != "mar -torre") << what;
    expect_same(one, sharded, r.collapse, what);
  }
}

TEST_F(RemoteSearchTest, GroupsSpanShards) {
  SearchRequest r;
  r.q = "";
  r.max_items = search::kMaxMaxItems;  // every group: all of them tie
  const SearchResult one = over_one(r);
  size_t spanning = 0;
  for (const search::Hit& hit : one.hits) spanning += hit.group_size > 1;
  EXPECT_GT(spanning, 0u);
  ASSERT_LT(one.total, r.max_items);
  expect_same(one, over_shards(r), true, "all documents");
}

TEST_F(RemoteSearchTest, KilledShardLeavesTheOthersAnsweringFlagged) {
  SearchRequest r;
  r.q = "lisboa";
  r.collapse = false;
  const SearchResult whole = over_shards(r);
  servers_[1]->kill();
  const auto start = std::chrono::steady_clock::now();
  Coverage coverage;
  const SearchResult partial = over_shards(r, &coverage);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
  ASSERT_EQ(coverage.missing, std::vector<std::string>{servers_[1]->address()});
  EXPECT_GT(partial.total, 0u);
  EXPECT_LT(partial.total, whole.total);
  for (const search::Hit& hit : partial.hits)
    EXPECT_NE(shard_of(hit.doc.imgDigest, kShards), 1u) << hit.doc.id;
  // While it is down, it is not tried again: the next answers come as fast.
  over_shards(r, &coverage);
  EXPECT_EQ(coverage.missing.size(), 1u);
  // Back after retry_after: used again.
  ASSERT_TRUE(servers_[1]->start());
  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  const SearchResult again = over_shards(r, &coverage);
  EXPECT_TRUE(coverage.missing.empty());
  EXPECT_EQ(again.total, whole.total);
}

TEST_F(RemoteSearchTest, HungShardIsLeftOutAfterItsTimeout) {
  SearchRequest r;
  r.q = "praia";
  over_shards(r);  // connections open
  servers_[2]->pause();
  const auto start = std::chrono::steady_clock::now();
  Coverage coverage;
  const SearchResult partial = over_shards(r, &coverage);
  const auto took = std::chrono::steady_clock::now() - start;
  servers_[2]->resume();
  EXPECT_LT(took, std::chrono::milliseconds(1500));  // one timeout (500 ms) and the retry
  EXPECT_EQ(coverage.missing, std::vector<std::string>{servers_[2]->address()});
  EXPECT_GT(partial.total, 0u);
}

TEST_F(RemoteSearchTest, NoShardAnsweringIsAnEmptyAnswerWithEveryShardMissing) {
  for (auto& server : servers_) server->kill();
  bool ran = false;
  const Coverage coverage =
      shards_->run([&](Xapian::Database&, const search::IndexParts&) { ran = true; });
  EXPECT_FALSE(ran);
  EXPECT_EQ(coverage.missing.size(), kShards);
}

TEST(ShardAddress, ParsesHostAndPort) {
  EXPECT_EQ(parse_remote("10.0.0.7:33333").name(), "10.0.0.7:33333");
  EXPECT_EQ(parse_remote("[::1]:8100").host, "::1");
  for (const char* bad : {"host", "host:", ":80", "host:0", "host:70000", "host:8x"})
    EXPECT_THROW(parse_remote(bad), std::invalid_argument) << bad;
}

TEST(ShardOf, IsStableAndSpreadsDigests) {
  EXPECT_EQ(shard_of("sha1:ABCDEF", 4), shard_of("sha1:ABCDEF", 4));
  std::vector<size_t> per(4);
  for (int i = 0; i < 4000; ++i) ++per[shard_of("sha1:" + std::to_string(i), 4)];
  for (size_t n : per) EXPECT_NEAR(static_cast<double>(n), 1000, 150);
}

}  // namespace
}  // namespace strata::shard::testing
