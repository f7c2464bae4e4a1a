// Search over shards (src/shard, docs/scale.md): three xapian-tcpsrv processes on loopback
// serve three shards of a collection; the same searches over them and over one index built
// from the same documents give the same results (ranking, scores, totals, years facet,
// near-duplicate collapse). A shard killed or hung mid-test leaves the others answering,
// flagged, within the timeout; a shard that comes back is used again.
#include <unistd.h>

#include <atomic>
#include <set>
#include <thread>

#include "same_results.hpp"
#include "search/spy_tables.hpp"
#include "sharded_collection.hpp"

namespace strata::shard::testing {
namespace {

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

TEST_F(RemoteSearchTest, ShardsAnswerAsOneIndex) {
  for (const SearchRequest& r : requests()) {
    const std::string what = "q=" + r.q + (r.collapse ? "" : " collapse=off");
    const SearchResult one = over_one(r);
    Coverage coverage;
    const SearchResult sharded = over_shards(r, &coverage);
    EXPECT_EQ(coverage.shards, kShards);
    EXPECT_TRUE(coverage.missing.empty()) << what;
    ASSERT_FALSE(one.hits.empty() && r.q != "mar -torre") << what;
    expect_same(one, sharded, r.collapse, r.max_items, what);
  }
}

// Processes in the process group `pgid` other than its leader: a xapian-tcpsrv's connections.
size_t connection_processes(pid_t pgid) {
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(name));
    n += pid != pgid && ::getpgid(pid) == pgid;
  }
  return n;
}

// ShardOptions::max_connections: six threads querying at once share two connections a
// shard (two server processes each, not eight) and get the answers of one index.
TEST_F(RemoteSearchTest, PooledConnectionsServeManyThreadsAsOneIndex) {
  std::vector<ShardAddress> addresses;
  for (const auto& server : servers_) addresses.push_back(parse_remote(server->address()));
  ShardOptions options;
  options.timeout = kTimeout;
  options.max_connections = 2;
  ShardSet pooled(addresses, options);
  const std::vector<SearchRequest> all = requests();
  std::vector<SearchResult> expected;
  for (const SearchRequest& r : all) expected.push_back(over_one(r));
  constexpr size_t kThreads = 6;
  std::vector<std::vector<SearchResult>> got(kThreads, std::vector<SearchResult>(all.size()));
  std::atomic<size_t> missing{0};
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (size_t i = 0; i < all.size(); ++i)
        missing += !pooled
                        .run([&](Xapian::Database& db, const search::IndexParts& parts) {
                          got[t][i] = search::search(db, parts, all[i]);
                        })
                        .missing.empty();
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(missing, 0u);
  for (size_t t = 0; t < kThreads; ++t)
    for (size_t i = 0; i < all.size(); ++i)
      expect_same(expected[i], got[t][i], all[i].collapse, all[i].max_items,
                  "thread " + std::to_string(t) + " q=" + all[i].q);
  for (const auto& server : servers_) EXPECT_LE(connection_processes(server->pid()), 2u);
}

// Several local parts (`strata serve --index` of a sharded folder): the years facet and the
// collapsed total cannot come from the in-memory tables (search/spy_tables.hpp), since a match
// spy over a combined database gets each document numbered within its own part, the parts
// one after the other, so it cannot tell whose table to read. The searcher falls back to
// Xapian's stock spies, which read the value slots: the same facets and totals as one index.
TEST(LocalParts, MatchSpyGetsEachPartsOwnDocidsSoTheTablesDoNotApply) {
  const fs::path root = strata::testing::scratch_dir();
  Xapian::Database combined;
  for (const char* name : {"a", "b"}) {
    Xapian::WritableDatabase part((root / name).string(), Xapian::DB_CREATE);
    for (int i = 0; i < 3; ++i) {
      Xapian::Document d;
      d.add_term("word");
      part.add_document(d);
    }
    part.commit();
    combined.add_database(Xapian::Database((root / name).string()));
  }
  struct Docids : Xapian::MatchSpy {
    std::vector<Xapian::docid> seen;
    void operator()(const Xapian::Document& doc, double) override {
      seen.push_back(doc.get_docid());
    }
  } spy;
  Xapian::Enquire enquire(combined);
  enquire.set_query(Xapian::Query("word"));
  enquire.add_matchspy(&spy);
  enquire.get_mset(0, 10);
  EXPECT_EQ(spy.seen, (std::vector<Xapian::docid>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(search::capture_years_of(combined, false), nullptr);
  EXPECT_EQ(search::group_members_of(combined, false), nullptr);
}

TEST_F(RemoteSearchTest, LocalPartsCountFacetsAndTotalsAsOneIndex) {
  std::vector<ShardAddress> folders;
  for (size_t k = 0; k < kShards; ++k)
    folders.push_back(ShardAddress{"", 0, *root_ / ("shard-" + std::to_string(k))});
  ShardSet local(folders);
  for (const SearchRequest& r : requests()) {
    SearchResult got;
    const Coverage c = local.run([&](Xapian::Database& db, const search::IndexParts& parts) {
      EXPECT_FALSE(parts.remote());
      got = search::search(db, parts, r);
    });
    EXPECT_TRUE(c.missing.empty());
    const SearchResult one = over_one(r);
    if (!one.hits.empty()) {
      EXPECT_FALSE(one.years.empty()) << r.q;
    }
    expect_same(one, got, r.collapse, r.max_items, "local parts q=" + r.q);
  }
}

TEST_F(RemoteSearchTest, GroupsSpanShards) {
  SearchRequest r;
  r.q = "";
  r.max_items = search::kMaxMaxItems;  // every group: all of them tie
  const SearchResult one = over_one(r);
  size_t spanning = 0, large = 0;
  for (const search::Hit& hit : one.hits) {
    spanning += hit.group_size > 1;
    large += hit.group_size == kLargeFamily;
  }
  EXPECT_GT(spanning, 0u);
  EXPECT_EQ(large, 1u);
  ASSERT_LT(one.total, r.max_items);
  expect_same(one, over_shards(r), true, r.max_items, "all documents");
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
  EXPECT_LT(std::chrono::steady_clock::now() - start, kTimeout);  // refused: no wait
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
  EXPECT_LT(took, 2 * kTimeout);  // one timeout and the retry
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
