// The labelled set safe search is calibrated on, and the false-positive bound on a small
// committed subset of it (safe_search_subset.tsv: the images Arquivo's rule hid, paintings,
// drawings, flat and tiny graphics; sources in ../shared).
#include <gtest/gtest.h>

#include <fstream>

#include "analyze/safe_eval.hpp"
#include "test_util.hpp"

namespace strata::analyze {
namespace {

namespace fs = std::filesystem;

const fs::path kTestDir = STRATA_ANALYZE_TEST_DIR;

std::optional<fs::path> default_model() {
  const auto root = find_nsfw_models();
  if (!root || !fs::exists(*root / kDefaultNsfwModel / "model.json")) return std::nullopt;
  return *root / kDefaultNsfwModel;
}

TEST(SafeSearchSet, RowsAreCheckedAndSkippedWithTheirLine) {
  const fs::path file = strata::testing::scratch_dir() / "set.tsv";
  std::ofstream(file) << "# comment\n"
                         "a.warc\t12\tphoto\tok\n"
                         "a.warc\t12\n"
                         "a.warc\t12\tnude\tx\n"
                         "b.epub\t*\texplicit\n";
  std::vector<std::string> errors;
  const auto rows = read_safe_set(file, errors);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].note, "ok");
  EXPECT_EQ(rows[1].line, 5);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find(":3: expected source"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find(":4: unknown label nude"), std::string::npos) << errors[1];
  EXPECT_TRUE(label_must_show("painting"));
  EXPECT_FALSE(label_must_show("explicit"));
}

TEST(SafeSearchSet, TeamSetIsWellFormedAndLargeEnough) {
  std::vector<std::string> errors;
  const auto rows = read_safe_set(kTestDir / "../../bench/analyze/safe_search_set.tsv", errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_GE(rows.size(), 150u);
  std::map<std::string, int> labels;
  for (const auto& row : rows) ++labels[row.label];
  for (const char* label : {"photo", "graphic", "painting", "drawing", "page"})
    EXPECT_GT(labels[label], 0) << label;
}

TEST(SafeSearchSet, LoadsArchiveRecordsZipMembersAndWholeContainers) {
  STRATA_REQUIRE_SHARED();
  const fs::path root = *strata::testing::shared_dir();
  std::vector<std::string> errors;
  const std::string alice = "data/books/futurepress__epub.js/test/fixtures/alice.epub";
  EXPECT_EQ(
      load_set_images({alice, "OPS/images/i001_th.jpg", "drawing", "", 1}, root, errors).size(),
      1u);
  EXPECT_EQ(load_set_images({alice, "*", "drawing", "", 1}, root, errors).size(), 28u);
  const std::string warc = "data/archives/N0taN3rd__node-warc/test/files/books.toscrape.warc";
  const auto covers = load_set_images({warc, "*", "graphic", "", 1}, root, errors);
  EXPECT_EQ(covers.size(), 20u);
  ASSERT_FALSE(covers.empty());
  const auto one = load_set_images({warc, covers[3].row.item, "graphic", "", 1}, root, errors);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].bytes, covers[3].bytes);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_TRUE(load_set_images({warc, "1", "graphic", "", 1}, root, errors).empty());
  EXPECT_TRUE(load_set_images({"nothing.warc", "*", "graphic", "", 1}, root, errors).empty());
  EXPECT_EQ(errors.size(), 2u);
}

TEST(SafeSearchSet, FalsePositivesOnTheCommittedSubsetAtMostTwoPercent) {
  STRATA_REQUIRE_SHARED();
  const auto model = default_model();
  if (!model) GTEST_SKIP() << "nsfwjs model not installed (run scripts/setup-npm)";
  std::vector<std::string> errors;
  const auto rows = read_safe_set(kTestDir / "safe_search_subset.tsv", errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  NsfwClassifier classifier(*model);
  const ThumbnailStore store(strata::testing::scratch_dir() / "thumbs");
  Analyzer analyzer({}, store, &classifier);
  const ScoredSet scored = score_safe_set(rows, *strata::testing::shared_dir(), analyzer);
  EXPECT_TRUE(scored.errors.empty()) << scored.errors.front();
  ASSERT_EQ(scored.images.size(), rows.size());

  const SafeSetResult now =
      evaluate_safe_set(scored.images, [](const auto& in) { return hidden_by_safe_search(in); });
  const SafeSetResult arquivo = evaluate_safe_set(scored.images, arquivo_hides);
  EXPECT_EQ(now.unclassified, 0);
  EXPECT_EQ(now.must_show.images, int64_t(rows.size()));
  EXPECT_LE(now.must_show.hidden_share(), 0.02)
      << now.must_show.hidden << " of " << now.must_show.images << " hidden";
  // The subset holds the images Arquivo's rule hides: they are shown now.
  EXPECT_GE(arquivo.must_show.hidden, 5);
}

}  // namespace
}  // namespace strata::analyze
