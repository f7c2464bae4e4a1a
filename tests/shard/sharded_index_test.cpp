// `strata index --shards N` (store::add_batch with IncrementalOptions::shards, docs/scale.md
// "Sharded index"): the tiny sample (analysed: pHash, so near-duplicate groups) and a real crawl
// indexed as three shards hold exactly the documents and groups of one index built from the
// same archives, each document in the shard its digest names; searches over the shards answer
// as over the one index (ranking, totals, years facet, collapse); a second collection added
// later gives what one run gives; a killed add leaves the shards as they were and the next run
// completes it; a shard a batch behind (a kill between two shards' commits) is caught up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "analyze/blocklist.hpp"
#include "index/compact.hpp"
#include "index/moderation.hpp"
#include "index/schema.hpp"
#include "index/shard_layout.hpp"
#include "same_results.hpp"
#include "shard/partition.hpp"
#include "shard/shard_set.hpp"
#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace strata::shard::testing {
namespace {

namespace fs = std::filesystem;
using search::SearchRequest;
using strata::testing::add_archives;
using strata::testing::make_tiny_sample;
using strata::testing::scratch_dir;
using strata::testing::shared_data;

constexpr size_t kShards = 3;

// digest -> (document JSON, group value) of an index, or of a sharded index's shards together;
// `shard_of_document` gets the shard each document was found in.
std::map<std::string, std::pair<Json, std::string>> contents(
    const fs::path& index_dir, std::map<std::string, size_t>* shard_of_document = nullptr) {
  std::map<std::string, std::pair<Json, std::string>> out;
  auto folders = index::shard_folders(index_dir);
  if (folders.empty()) folders.push_back(index_dir);
  for (size_t k = 0; k < folders.size(); ++k) {
    Xapian::Database db(folders[k].string());
    index::StoredData stored(db);
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      const Xapian::Document xd = db.get_document(*it);
      merge::ImageDocument doc;
      index::Moderation m;
      EXPECT_TRUE(index::parse_document_data(stored.unpack(xd.get_data()), doc, m));
      EXPECT_FALSE(out.count(doc.id)) << doc.id << " in two shards";
      out[doc.id] = {merge::to_json(doc), xd.get_value(index::slot::group)};
      if (shard_of_document) (*shard_of_document)[doc.id] = k;
    }
  }
  return out;
}

// Words of the documents' texts (alt, titles, captions: every string field but URLs, digests,
// files and dates), the first eight met: queries both forms of the index answer.
std::vector<std::string> queries(const std::map<std::string, std::pair<Json, std::string>>& docs) {
  std::set<std::string> words;
  auto add_words = [&](const std::string& text) {
    std::string word;
    for (const char c : text + " ") {
      if (std::isalpha(static_cast<unsigned char>(c))) {
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        continue;
      }
      if (word.size() >= 4 && words.size() < 8) words.insert(word);
      word.clear();
    }
  };
  for (const auto& [id, doc] : docs)
    for (const auto& [key, value] : doc.first.items()) {
      if (key.find("Url") != std::string::npos || key.find("Digest") != std::string::npos ||
          key.find("File") != std::string::npos || key.find("Timestamp") != std::string::npos ||
          key == "id")
        continue;
      if (value.is_string()) add_words(value.get<std::string>());
      if (value.is_array())
        for (const auto& v : value)
          if (v.is_string()) add_words(v.get<std::string>());
    }
  return {words.begin(), words.end()};
}

// The same searches over one index and over a sharded index's shards (as `strata serve --index`
// opens a sharded folder: one local shard per folder; one index when `shards` is 1) give the
// same answers.
void expect_same_searches(const fs::path& one_index, const fs::path& sharded,
                          size_t shards = kShards, size_t min_answered = 4) {
  const auto docs = contents(one_index);
  std::vector<ShardAddress> addresses;
  for (const auto& folder : index::shard_folders(sharded))
    addresses.push_back(ShardAddress{"", 0, folder});
  if (addresses.empty()) addresses.push_back(ShardAddress{"", 0, sharded});
  ASSERT_EQ(addresses.size(), shards);
  ShardSet set(addresses);
  Xapian::Database one(one_index.string());
  size_t answered = 0;
  for (const std::string& q : queries(docs)) {
    for (const bool collapse : {true, false}) {
      SearchRequest r;
      r.q = q;
      r.collapse = collapse;
      r.max_items = search::kMaxMaxItems;
      r.safe = false;  // no NSFW model ran: safe search would show no image
      const SearchResult expected = search::search(one, r);
      SearchResult got;
      const Coverage coverage = set.run([&](Xapian::Database& db, const search::IndexParts& parts) {
        got = search::search(db, parts, r);
      });
      EXPECT_TRUE(coverage.missing.empty());
      expect_same(expected, got, collapse, r.max_items, "q=" + q);
      answered += !expected.hits.empty();
    }
  }
  EXPECT_GE(answered, min_answered);
}

class ShardedIndexTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { sample_ = new fs::path(make_tiny_sample("sharded-index")); }
  static void TearDownTestSuite() {
    fs::remove_all(sample_->parent_path());
    delete sample_;
  }

  static std::vector<std::vector<fs::path>> collections() {
    return strata::testing::sample_collections(*sample_);
  }
  static std::vector<fs::path> all_archives() {
    std::vector<fs::path> all;
    for (const auto& c : collections()) all.insert(all.end(), c.begin(), c.end());
    return all;
  }

  // Adds `archives` as one batch, analysed (pHash only) into the index folder as
  // `strata index` does.
  store::AddReport add(const fs::path& index_dir, const std::vector<fs::path>& archives,
                       size_t shards, std::function<void()> before_index_commit = {}) {
    return add_archives(
        index_dir, archives, dir_ / "work", std::move(before_index_commit),
        [&](const fs::path& documents) {
          strata::testing::analyse_without_nsfw(documents, index_dir, *sample_);
          return true;
        },
        shards);
  }

  fs::path dir_ = scratch_dir();
  static inline fs::path* sample_ = nullptr;
};

TEST_F(ShardedIndexTest, ShardsHoldTheDocumentsAndGroupsOfOneIndexAndSearchAsIt) {
  add(dir_ / "one", all_archives(), 0);
  const auto report = add(dir_ / "sharded", all_archives(), kShards);
  EXPECT_EQ(index::shard_count(dir_ / "sharded"), kShards);
  const auto one = contents(dir_ / "one");
  std::map<std::string, size_t> placed;
  const auto sharded = contents(dir_ / "sharded", &placed);
  ASSERT_GT(one.size(), 30u);
  EXPECT_EQ(report.applied.documents, one.size());
  EXPECT_EQ(sharded, one);
  std::vector<size_t> per_shard(kShards);
  for (const auto& [id, k] : placed) {
    EXPECT_EQ(k, shard_of(id, kShards)) << id;
    ++per_shard[k];
  }
  for (size_t n : per_shard) EXPECT_GT(n, one.size() / (2 * kShards));
  size_t grouped = 0;
  for (const auto& [id, doc] : one) grouped += !doc.second.empty();
  EXPECT_GT(grouped, 0u) << "the sample has near-duplicates";
  expect_same_searches(dir_ / "one", dir_ / "sharded");
}

// `strata compact` of a sharded index: one index with the shards' documents and groups, the
// sharded index's own files (record store, analysis cache) beside, searching as one index
// built whole (bench_shards --one-from-shards makes its one index so).
TEST_F(ShardedIndexTest, ShardsMergedIntoOneIndexHoldAndSearchAsOneIndexBuiltWhole) {
  add(dir_ / "one", all_archives(), 0);
  add(dir_ / "sharded", all_archives(), kShards);
  const auto report = index::compact_index(dir_ / "sharded", dir_ / "merged");
  const auto one = contents(dir_ / "one");
  EXPECT_EQ(report.documents, one.size());
  EXPECT_EQ(index::shard_count(dir_ / "merged"), 0u);
  EXPECT_EQ(contents(dir_ / "merged"), one);
  for (const auto& e : fs::directory_iterator(dir_ / "sharded")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("shard", 0) != 0) {
      EXPECT_TRUE(fs::exists(dir_ / "merged" / name)) << name;
    }
  }
  EXPECT_TRUE(fs::exists(dir_ / "merged" / "records.sqlite"));
  EXPECT_FALSE(fs::exists(dir_ / "merged" / "shard-0"));
  expect_same_searches(dir_ / "one", dir_ / "merged", 1);
}

// Blocked documents of every shard: digest -> blocked.
std::map<std::string, bool> blocked(const fs::path& index_dir) {
  std::map<std::string, bool> out;
  auto folders = index::shard_folders(index_dir);
  if (folders.empty()) folders.push_back(index_dir);
  for (const auto& folder : folders) {
    Xapian::Database db(folder.string());
    index::StoredData stored(db);
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      merge::ImageDocument doc;
      index::Moderation m;
      EXPECT_TRUE(
          index::parse_document_data(stored.unpack(db.get_document(*it).get_data()), doc, m));
      out[doc.id] = m.blocked;
    }
  }
  return out;
}

// `strata block add|remove` on a sharded index: the block list (the sharded index's own
// blocklist.txt) reaches every shard at once, as on one index; a shard left behind (a kill
// between two shards' commits) is seen and caught up.
TEST_F(ShardedIndexTest, BlockListEditsReachEveryShardAsOneIndex) {
  add(dir_ / "one", all_archives(), 0);
  add(dir_ / "sharded", all_archives(), kShards);
  const auto docs = contents(dir_ / "one");
  std::map<std::string, size_t> hosts;
  for (const auto& [id, doc] : docs) ++hosts[doc.first.value("pageHost", "")];
  const auto host = std::max_element(hosts.begin(), hosts.end(), [](auto& a, auto& b) {
                      return a.second < b.second;
                    })->first;
  ASSERT_FALSE(host.empty());
  analyze::BlockList list;
  analyze::BlockPattern pattern;
  ASSERT_TRUE(analyze::BlockList::parse("host:" + host, pattern));
  list.add(pattern);
  for (const char* index : {"one", "sharded"}) {
    EXPECT_FALSE(index::blocklist_changed(dir_ / index));
    ASSERT_TRUE(list.save(index::blocklist_file(dir_ / index)));
    EXPECT_TRUE(index::blocklist_changed(dir_ / index));
  }
  const uint64_t changed = index::refresh_index(dir_ / "one");
  EXPECT_GT(changed, 0u);
  EXPECT_LT(changed, docs.size());
  EXPECT_EQ(index::refresh_index(dir_ / "sharded"), changed);
  EXPECT_FALSE(index::blocklist_changed(dir_ / "sharded"));
  EXPECT_EQ(blocked(dir_ / "sharded"), blocked(dir_ / "one"));
  std::set<size_t> shards_blocked;
  std::map<std::string, size_t> placed;
  contents(dir_ / "sharded", &placed);
  for (const auto& [id, is_blocked] : blocked(dir_ / "sharded"))
    if (is_blocked) shards_blocked.insert(placed[id]);
  EXPECT_EQ(shards_blocked.size(), kShards) << "the host's images are in every shard";
  expect_same_searches(dir_ / "one", dir_ / "sharded", kShards, 1);  // most hits are blocked

  {  // the last shard's commit lost: still the list before the edit
    Xapian::WritableDatabase last(index::shard_folder(dir_ / "sharded", kShards - 1).string());
    last.set_metadata("strata:blocklist", "");
    last.commit();
  }
  EXPECT_TRUE(index::blocklist_changed(dir_ / "sharded"));
  list.remove(pattern);
  for (const char* index : {"one", "sharded"}) {
    ASSERT_TRUE(list.save(index::blocklist_file(dir_ / index)));
    EXPECT_EQ(index::refresh_index(dir_ / index), changed);
  }
  EXPECT_FALSE(index::blocklist_changed(dir_ / "sharded"));
  for (const auto& [id, is_blocked] : blocked(dir_ / "sharded")) EXPECT_FALSE(is_blocked) << id;
}

TEST_F(ShardedIndexTest, SecondCollectionLaterGivesWhatOneRunGives) {
  const auto batches = collections();
  ASSERT_GE(batches.size(), 2u);
  std::vector<fs::path> first, rest;
  for (size_t c = 0; c < batches.size(); ++c)
    (c % 2 ? rest : first)
        .insert((c % 2 ? rest : first).end(), batches[c].begin(), batches[c].end());
  add(dir_ / "later", rest, kShards);
  add(dir_ / "later", first, 0);  // an existing sharded index keeps its shards
  add(dir_ / "one-run", all_archives(), kShards);
  add(dir_ / "one", all_archives(), 0);
  EXPECT_EQ(contents(dir_ / "later"), contents(dir_ / "one-run"));
  EXPECT_EQ(contents(dir_ / "later"), contents(dir_ / "one"));
  expect_same_searches(dir_ / "one", dir_ / "later");
  EXPECT_NE(index::shard_count_problem(dir_ / "later", kShards + 1), "");
  EXPECT_NE(index::shard_count_problem(dir_ / "one", kShards), "");
  EXPECT_EQ(index::shard_count_problem(dir_ / "later", kShards), "");
}

TEST_F(ShardedIndexTest, KilledAddLeavesTheShardsAsTheyWereAndTheNextRunCompletesIt) {
  const auto batches = collections();
  add(dir_ / "index", batches[0], kShards);
  const auto before = contents(dir_ / "index");
  std::vector<fs::path> others;
  for (size_t c = 1; c < batches.size(); ++c)
    others.insert(others.end(), batches[c].begin(), batches[c].end());
  EXPECT_THROW(add(dir_ / "index", others, 0, [] { throw store::StoreError("kill"); }),
               store::StoreError);
  EXPECT_EQ(contents(dir_ / "index"), before);
  add(dir_ / "index", others, 0);
  add(dir_ / "one", all_archives(), 0);
  const auto complete = contents(dir_ / "index");
  EXPECT_EQ(complete, contents(dir_ / "one"));

  // A kill between two shards' commits: the last shard a batch behind. The next run applies
  // that batch again, which changes nothing where it was applied.
  {
    Xapian::WritableDatabase last(index::shard_folder(dir_ / "index", kShards - 1).string());
    last.set_metadata(std::string(index::kMetaStoreApplied), "1");
    last.commit();
  }
  const auto again = add(dir_ / "index", batches[0], 0);
  EXPECT_EQ(again.recovered.batches, 1u);
  EXPECT_EQ(again.recovered.written, 0u);
  EXPECT_EQ(contents(dir_ / "index"), complete);
}

TEST(ShardedIndexRealCrawl, ShardsHoldTheDocumentsOfOneIndexAndSearchAsIt) {
  STRATA_REQUIRE_SHARED();
  const fs::path dir = scratch_dir();
  std::vector<fs::path> archives;
  for (const char* path :
       {"archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz",
        "archives/webrecorder__pywb/sample_archive/warcs/iana.warc.gz"})
    archives.push_back(shared_data(path));
  add_archives(dir / "one", archives, dir / "work");
  add_archives(dir / "sharded", {archives[1]}, dir / "work", {}, {}, kShards);
  add_archives(dir / "sharded", {archives[0]}, dir / "work");
  const auto one = contents(dir / "one");
  ASSERT_GT(one.size(), 20u);
  EXPECT_EQ(contents(dir / "sharded"), one);
  expect_same_searches(dir / "one", dir / "sharded");
}

}  // namespace
}  // namespace strata::shard::testing
