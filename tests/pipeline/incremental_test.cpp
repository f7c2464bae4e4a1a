// Order independence of `strata index` (docs/merge.md "Incremental merge"): the tiny sample,
// indexed in one batch, collection by collection in both date orders, and in random batches
// of three files, stores exactly the generator's truth every time; re-adding changes nothing;
// removing a collection equals never having added it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::add_archives;
using testing::indexed_documents;

std::string relative_to(const std::string& path, const fs::path& dir) {
  const std::string prefix = dir.string() + "/";
  return path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
}

class IncrementalTruth : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { sample_ = new fs::path(testing::make_tiny_sample("incremental")); }
  static void TearDownTestSuite() {
    fs::remove_all(sample_->parent_path());
    delete sample_;
  }

  // The collections (crawls) in date order, as truth/manifest.json lists them, each with its
  // archives.
  static std::vector<std::vector<fs::path>> collections() {
    std::ifstream in(*sample_ / "truth" / "manifest.json");
    const Json manifest = Json::parse(in);
    std::vector<std::vector<fs::path>> result;
    for (const auto& crawl : manifest["crawls"]) {
      std::vector<fs::path> files;
      for (const auto& file :
           fs::directory_iterator(*sample_ / crawl["collection"].get<std::string>()))
        files.push_back(file.path());
      std::sort(files.begin(), files.end());
      result.push_back(files);
    }
    return result;
  }

  void index_in_batches(const std::vector<std::vector<fs::path>>& batches) {
    for (const auto& batch : batches) add_archives(index_, batch, work_);
  }

  void expect_truth() {
    std::map<std::string, Json> truth;
    std::ifstream in(*sample_ / "truth" / "documents.jsonl");
    for (std::string line; std::getline(in, line);) {
      Json j = Json::parse(line);
      truth[j["id"].get<std::string>()] = j;
    }
    auto docs = indexed_documents(index_);
    ASSERT_GT(truth.size(), 20u);
    EXPECT_EQ(docs.size(), truth.size());
    for (const auto& [id, expected] : truth) {
      auto it = docs.find(id);
      ASSERT_NE(it, docs.end()) << "missing document " << id << " " << expected["imgUrl"];
      Json got = it->second;
      for (const char* field : {"imgFile", "pageFile"})
        got[field] = relative_to(got[field].get<std::string>(), *sample_);
      for (const auto& [field, value] : expected.items())
        EXPECT_EQ(got[field], value) << "document " << id << " field " << field;
    }
    const Counters whole = testing::merge_of_whole_store(index_, work_ / "whole");
    EXPECT_EQ(whole.get("revisits_unresolved") + whole.get("revisits_without_captures"),
              whole.get("revisits_without_original"));
    EXPECT_GT(whole.get("revisits_resolved"), 0);
  }

  void SetUp() override {
    work_ = testing::scratch_dir();
    index_ = work_ / "index";
    work_ /= "work";
  }

  static fs::path* sample_;
  fs::path index_, work_;
};

fs::path* IncrementalTruth::sample_ = nullptr;

TEST_F(IncrementalTruth, OneRunGivesTheTruth) {
  std::vector<fs::path> all;
  for (const auto& files : collections()) all.insert(all.end(), files.begin(), files.end());
  index_in_batches({all});
  expect_truth();
}

TEST_F(IncrementalTruth, CollectionByCollectionInDateOrderGivesTheTruth) {
  auto batches = collections();
  ASSERT_GE(batches.size(), 3u);
  index_in_batches(batches);
  expect_truth();
}

TEST_F(IncrementalTruth, CollectionByCollectionInReverseOrderGivesTheTruth) {
  auto batches = collections();
  std::reverse(batches.begin(), batches.end());
  index_in_batches(batches);
  expect_truth();
}

TEST_F(IncrementalTruth, RandomBatchesOfThreeFilesGiveTheTruth) {
  std::vector<fs::path> all;
  for (const auto& files : collections()) all.insert(all.end(), files.begin(), files.end());
  std::mt19937 rng(18);
  std::shuffle(all.begin(), all.end(), rng);
  std::vector<std::vector<fs::path>> batches;
  for (size_t i = 0; i < all.size(); i += 3)
    batches.emplace_back(all.begin() + i, all.begin() + std::min(all.size(), i + 3));
  index_in_batches(batches);
  expect_truth();
}

TEST_F(IncrementalTruth, ReAddingABatchChangesNothing) {
  auto batches = collections();
  index_in_batches(batches);
  const auto before = indexed_documents(index_);
  const auto report = add_archives(index_, batches[1], work_);
  EXPECT_EQ(report.stored.inserted, 0u);
  EXPECT_GT(report.stored.already_stored, 0u);
  EXPECT_EQ(report.applied.batches, 0u);
  EXPECT_EQ(indexed_documents(index_), before);
}

TEST_F(IncrementalTruth, RemovingACollectionEqualsNeverAddingIt) {
  auto batches = collections();
  index_in_batches({batches[0], batches[2]});
  const auto without_middle = indexed_documents(index_);
  fs::remove_all(index_);
  index_in_batches(batches);
  ASSERT_NE(indexed_documents(index_), without_middle);
  store::IncrementalOptions options;
  options.index_dir = index_;
  options.work_dir = work_ / "remove";
  bool found = false;
  const auto report =
      store::remove_collection(options, batches[1][0].parent_path().filename().string(), found);
  EXPECT_TRUE(found);
  EXPECT_GT(report.deleted + report.written, 0u);
  EXPECT_EQ(indexed_documents(index_), without_middle);
  store::remove_collection(options, "no-such-collection", found);
  EXPECT_FALSE(found);
}

// A kill between the store's commit and the index's (simulated by a throwing hook) leaves the
// index as it was; the next run applies the stored batch: the same documents as without it.
TEST_F(IncrementalTruth, CrashBetweenStoreAndIndexCommitsLosesNothing) {
  auto batches = collections();
  index_in_batches({batches[0]});
  const auto before = indexed_documents(index_);
  EXPECT_THROW(add_archives(index_, batches[2], work_, [] { throw store::StoreError("kill"); }),
               store::StoreError);
  EXPECT_EQ(indexed_documents(index_), before);
  const auto report = add_archives(index_, batches[1], work_);
  EXPECT_EQ(report.recovered.batches, 1u);
  EXPECT_EQ(report.applied.batches, 1u);
  expect_truth();
}

TEST_F(IncrementalTruth, CrashDuringARemovalIsFinishedByTheNextCommand) {
  auto batches = collections();
  index_in_batches({batches[0], batches[2]});
  const auto without_middle = indexed_documents(index_);
  index_in_batches({batches[1]});
  store::IncrementalOptions options;
  options.index_dir = index_;
  options.work_dir = work_ / "remove";
  options.before_index_commit = [] { throw store::StoreError("kill"); };
  bool found = false;
  const std::string middle = batches[1][0].parent_path().filename().string();
  EXPECT_THROW(store::remove_collection(options, middle, found), store::StoreError);
  options.before_index_commit = {};
  const auto report = store::apply_pending(options);
  EXPECT_EQ(report.batches, 1u);
  EXPECT_EQ(indexed_documents(index_), without_middle);
  for (const auto& c : store::list_collections(index_)) EXPECT_NE(c["collection"], middle);
}

}  // namespace
}  // namespace strata
