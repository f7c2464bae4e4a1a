// Near-duplicate groups kept right as collections are added (docs/near-duplicates.md, "In the
// index"): the tiny sample, analysed (pHash, no NSFW model) and indexed in one batch, then
// collection by collection in reverse date order and in random batches of three files, stores
// the same group on every document, and its groups are the truth's near-duplicate groups; so
// does late analysis followed by a collection removal.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "index/moderation.hpp"
#include "index/near_duplicate_groups.hpp"
#include "index/schema.hpp"
#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

class IncrementalGroups : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sample_ = new fs::path(testing::make_tiny_sample("incremental-groups"));
  }
  static void TearDownTestSuite() {
    fs::remove_all(sample_->parent_path());
    delete sample_;
  }

  static std::vector<std::vector<fs::path>> collections() {
    return testing::sample_collections(*sample_);
  }

  // Analyses `documents` (pHash only) into the index folder, as `strata analyze` does.
  static void analyse(const fs::path& documents, const fs::path& index_dir) {
    testing::analyse_without_nsfw(documents, index_dir, *sample_);
  }

  // digest -> group leader's pHash value ("" alone) of the index in `index_dir`.
  static std::map<std::string, std::string> stored_groups(const fs::path& index_dir) {
    Xapian::Database db(index_dir.string());
    index::StoredData stored(db);
    std::map<std::string, std::string> groups;
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      const Xapian::Document xd = db.get_document(*it);
      merge::ImageDocument doc;
      index::Moderation m;
      EXPECT_TRUE(index::parse_document_data(stored.unpack(xd.get_data()), doc, m));
      groups[doc.imgDigest.empty() ? doc.id : doc.imgDigest] = xd.get_value(index::slot::group);
    }
    return groups;
  }

  // The groups after indexing `batches` in turn, each analysed as it comes.
  std::map<std::string, std::string> groups_after(
      const std::vector<std::vector<fs::path>>& batches) {
    const fs::path dir = testing::scratch_dir();
    const fs::path index_dir = dir / "index";
    for (const auto& batch : batches)
      testing::add_archives(index_dir, batch, dir / "work", {}, [&](const fs::path& documents) {
        analyse(documents, index_dir);
        return true;
      });
    return stored_groups(index_dir);
  }

  static fs::path* sample_;
};

fs::path* IncrementalGroups::sample_ = nullptr;

// Every pair of grouped documents is a pair of one truth group (the sample's near-duplicates).
void expect_truth_pairs(const std::map<std::string, std::string>& groups, const fs::path& truth) {
  std::map<std::string, size_t> truth_group;
  std::ifstream in(truth);
  size_t n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    const Json group = Json::parse(line);  // kept alive: the loop reads into it
    for (const auto& digest : group["digests"]) truth_group[digest.get<std::string>()] = n;
  }
  ASSERT_GT(truth_group.size(), 10u) << truth;
  size_t grouped = 0;
  for (const auto& [a, ga] : groups)
    for (const auto& [b, gb] : groups)
      if (a < b && !ga.empty() && ga == gb) {
        ++grouped;
        ASSERT_TRUE(truth_group.count(a) && truth_group.count(b)) << a << " " << b;
        EXPECT_EQ(truth_group[a], truth_group[b]) << a << " " << b;
      }
  EXPECT_GE(grouped, 5u);
}

TEST_F(IncrementalGroups, EveryBatchOrderGivesTheOneRunGroups) {
  const auto batches = collections();
  ASSERT_GE(batches.size(), 3u);
  std::vector<fs::path> all;
  for (const auto& files : batches) all.insert(all.end(), files.begin(), files.end());
  const auto one_run = groups_after({all});
  expect_truth_pairs(one_run, *sample_ / "truth" / "near-duplicates.jsonl");

  auto reversed = batches;
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(groups_after(reversed), one_run);
  std::mt19937 rng(21);
  std::shuffle(all.begin(), all.end(), rng);
  std::vector<std::vector<fs::path>> threes;
  for (size_t i = 0; i < all.size(); i += 3)
    threes.emplace_back(all.begin() + i, all.begin() + std::min(all.size(), i + 3));
  EXPECT_EQ(groups_after(threes), one_run);
}

// Late analysis (batches indexed first, then `strata analyze` and the index refresh) and a
// `collection remove` give the groups of an index of what remains built in one run.
TEST_F(IncrementalGroups, LateAnalysisAndACollectionRemovalGiveTheOneRunGroups) {
  const auto batches = collections();
  ASSERT_GE(batches.size(), 3u);
  std::vector<fs::path> all, rest;
  for (const auto& files : batches) all.insert(all.end(), files.begin(), files.end());
  for (size_t i = 1; i < batches.size(); ++i)
    rest.insert(rest.end(), batches[i].begin(), batches[i].end());
  const auto expected = groups_after({rest});
  EXPECT_GE(std::count_if(expected.begin(), expected.end(),
                          [](const auto& entry) { return !entry.second.empty(); }),
            4);

  const fs::path dir = testing::scratch_dir();
  const fs::path index_dir = dir / "index", documents = dir / "documents.jsonl";
  std::mt19937 rng(5);
  std::shuffle(all.begin(), all.end(), rng);
  for (size_t i = 0; i < all.size(); i += 4) {
    const std::vector<fs::path> batch(all.begin() + i, all.begin() + std::min(all.size(), i + 4));
    testing::add_archives(index_dir, batch, dir / "work", {}, [&](const fs::path& kept) {
      std::ofstream(documents, std::ios::app) << std::ifstream(kept).rdbuf();
      return true;  // analysed later
    });
  }
  analyse(documents, index_dir);
  index::refresh_index(index_dir);
  store::IncrementalOptions options;
  options.index_dir = index_dir;
  options.work_dir = dir / "remove";
  bool found = false;
  store::remove_collection(options, batches[0][0].parent_path().filename().string(), found);
  ASSERT_TRUE(found);
  EXPECT_EQ(stored_groups(index_dir), expected);
}

}  // namespace
}  // namespace strata
