// Near-duplicate groups against the sample generator's truth (docs/sample.md,
// truth/near-duplicates.jsonl): the tiny sample through extraction, merge and analysis (no
// NSFW model), then pair precision and recall of the groups, and of "more like this" (the
// range search the server runs). Prints the pHash distance
// distributions of truth pairs and other pairs that docs/near-duplicates.md reports.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "analyze/record.hpp"
#include "analyze/run.hpp"
#include "core/json.hpp"
#include "extract/stage.hpp"
#include "merge/folder.hpp"
#include "sample/sample.hpp"
#include "similar/groups.hpp"
#include "similar/hamming_index.hpp"

namespace strata::similar {
namespace {

namespace fs = std::filesystem;
using Pair = std::pair<std::string, std::string>;

Pair ordered(const std::string& a, const std::string& b) {
  return a < b ? Pair{a, b} : Pair{b, a};
}

class SampleTruth : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    work_ = fs::temp_directory_path() / ("strata-similar-" + std::to_string(getpid()));
    fs::remove_all(work_);
    sample::Options options;
    ASSERT_TRUE(sample::apply_scale("tiny", options));
    sample::generate(options, (work_ / "sample").string(), 2);
    std::vector<merge::Source> sources;
    for (const auto& entry : fs::directory_iterator(work_ / "sample")) {
      if (!entry.is_directory() || entry.path().filename() == "truth") continue;
      std::vector<fs::path> archives;
      for (const auto& file : fs::directory_iterator(entry.path())) archives.push_back(file.path());
      std::sort(archives.begin(), archives.end());
      extract::ExtractOptions xopts;
      xopts.collection = entry.path().filename().string();
      fs::path out = work_ / "extract" / xopts.collection;
      fs::create_directories(out);
      extract::run_extraction(archives, xopts, out, 2, {}, nullptr);
      for (const auto& file : merge::extraction_files(out))
        sources.push_back(merge::jsonl_file_source(file));
    }
    {
      std::ofstream docs(work_ / "documents.jsonl");
      merge::MergeOptions mopts;
      mopts.work_dir = work_ / "merge-work";
      merge::run_merge(sources, mopts, docs);
    }
    analyze::RunOptions aopts;
    aopts.documents = work_ / "documents.jsonl";
    aopts.out = work_ / "index";
    aopts.classify = false;
    aopts.jobs = 2;
    analyze::run_analysis(aopts);
  }
  static void TearDownTestSuite() { fs::remove_all(work_); }

  static std::vector<Image> analysed_images() {
    std::vector<Image> images;
    std::ifstream in(work_ / "index" / "analysis.jsonl");
    for (std::string line; std::getline(in, line);) {
      analyze::AnalysisRecord r;
      if (!analyze::from_json(Json::parse(line), r)) continue;
      if (auto image = analyze::grouping_image(r)) images.push_back(std::move(*image));
    }
    return images;
  }

  // Pairs of the truth's groups whose two images both have a pHash.
  static std::set<Pair> truth_pairs(const std::vector<Image>& images) {
    std::set<std::string> hashed;
    for (const auto& image : images) hashed.insert(image.digest);
    std::set<Pair> pairs;
    std::ifstream in(work_ / "sample" / "truth" / "near-duplicates.jsonl");
    for (std::string line; std::getline(in, line);) {
      auto digests = Json::parse(line)["digests"].get<std::vector<std::string>>();
      for (size_t i = 0; i < digests.size(); ++i)
        for (size_t j = i + 1; j < digests.size(); ++j)
          if (hashed.count(digests[i]) && hashed.count(digests[j]))
            pairs.insert(ordered(digests[i], digests[j]));
    }
    return pairs;
  }

  static fs::path work_;
};

fs::path SampleTruth::work_;

TEST_F(SampleTruth, PairPrecisionAndRecallOfGroups) {
  auto images = analysed_images();
  auto truth = truth_pairs(images);
  ASSERT_GT(images.size(), 20u);
  ASSERT_GE(truth.size(), 5u);

  // Distance histograms: truth pairs vs all other pairs of analysed images.
  std::map<int, size_t> positive, negative;
  for (size_t i = 0; i < images.size(); ++i)
    for (size_t j = i + 1; j < images.size(); ++j) {
      int d = std::popcount(images[i].phash ^ images[j].phash);
      ++(truth.count(ordered(images[i].digest, images[j].digest)) ? positive : negative)[d];
    }
  std::printf("distance  truth-pairs  other-pairs\n");
  for (int d = 0; d <= 20; ++d) std::printf("%8d  %11zu  %11zu\n", d, positive[d], negative[d]);

  Grouping g = group_near_duplicates(images);
  std::set<Pair> found;
  for (size_t i = 0; i < images.size(); ++i)
    for (size_t j = i + 1; j < images.size(); ++j)
      if (g.leader[i] == g.leader[j]) found.insert(ordered(images[i].digest, images[j].digest));
  size_t true_positives = 0;
  for (const auto& p : found) true_positives += truth.count(p);
  double precision = found.empty() ? 1.0 : double(true_positives) / found.size();
  double recall = double(true_positives) / truth.size();
  std::printf(
      "images %zu, truth pairs %zu, grouped pairs %zu, precision %.3f, recall %.3f, "
      "groups %zu, gated %zu flat + %zu small\n",
      images.size(), truth.size(), found.size(), precision, recall, g.groups, g.degenerate,
      g.too_small);
  EXPECT_GE(precision, 0.98);
  EXPECT_GE(recall, 0.95);
}

// "More like this" from every image with a truth partner: what the range search returns
// beside the image itself, against its truth partners.
TEST_F(SampleTruth, MoreLikeThisFindsTheTruthPartners) {
  std::vector<Image> images;  // as the server indexes them: flat hashes left out
  for (const auto& image : analysed_images())
    if (gate(image.phash) == Gate::ok) images.push_back(image);
  auto truth = truth_pairs(images);
  std::vector<uint64_t> hashes;
  for (const auto& image : images) hashes.push_back(image.phash);
  const HammingIndex index(kNearDuplicateRadius, hashes);
  size_t returned = 0, right = 0, partners = 0;
  for (uint32_t i = 0; i < images.size(); ++i) {
    for (uint32_t j = 0; j < images.size(); ++j)
      partners += i != j && truth.count(ordered(images[i].digest, images[j].digest));
    for (const auto& m : index.all_within(images[i].phash, kNearDuplicateRadius)) {
      if (m.entry == i) continue;
      ++returned;
      right += truth.count(ordered(images[i].digest, images[m.entry].digest));
    }
  }
  const double precision = returned ? double(right) / returned : 1.0;
  const double recall = double(right) / partners;
  std::printf(
      "more like this: %zu returned, %zu right, %zu truth partners: precision %.3f, "
      "recall %.3f\n",
      returned, right, partners, precision, recall);
  EXPECT_GE(precision, 0.98);
  EXPECT_GE(recall, 0.95);
}

}  // namespace
}  // namespace strata::similar
