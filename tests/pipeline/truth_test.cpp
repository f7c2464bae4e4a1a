// The whole pipeline against the sample generator's ground truth (docs/sample.md): extraction
// + merge of a generated archive must reproduce truth/documents.jsonl exactly, and indexing it
// must find the relevant images of truth/queries.jsonl. A mismatch is a bug in the generator
// or in a stage.
#include <gtest/gtest.h>

#include <xapian.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/json.hpp"
#include "extract/stage.hpp"
#include "index/index_documents.hpp"
#include "merge/folder.hpp"
#include "sample/sample.hpp"
#include "search/searcher.hpp"
#include "similar/page_sketch.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::map<std::string, Json> load_documents(const fs::path& file) {
  std::map<std::string, Json> docs;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    Json j = Json::parse(line);
    docs[j["id"].get<std::string>()] = j;
  }
  return docs;
}

// Truth names archives relative to the sample folder; the pipeline as given on input.
std::string relative_to(const std::string& path, const fs::path& dir) {
  std::string prefix = dir.string() + "/";
  return path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
}

// The tiny sample (with `Mirrors` articles copied, sample::Options::mirrors) extracted and
// merged once per test suite.
template <int Mirrors>
class SamplePipeline : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    work_ = new fs::path(fs::temp_directory_path() / ("strata-truth-" + std::to_string(Mirrors) +
                                                      "-" + std::to_string(getpid())));
    fs::remove_all(*work_);
    sample::Options options;
    ASSERT_TRUE(sample::apply_scale("tiny", options));
    options.mirrors = Mirrors;
    sample::generate(options, (*work_ / "sample").string(), 2);
    // Each top-level folder of the sample is one collection, extracted under its own name.
    for (const auto& entry : fs::directory_iterator(*work_ / "sample")) {
      if (!entry.is_directory() || entry.path().filename() == "truth") continue;
      std::string collection = entry.path().filename().string();
      std::vector<fs::path> archives;
      for (const auto& file : fs::directory_iterator(entry.path())) archives.push_back(file.path());
      std::sort(archives.begin(), archives.end());
      extract::ExtractOptions xopts;
      xopts.collection = collection;
      fs::path out = *work_ / "extract" / collection;
      fs::create_directories(out);
      auto result = extract::run_extraction(archives, xopts, out, 2, {}, nullptr);
      ASSERT_EQ(result.unusable, 0u);
      too_large_ += result.counters.get("images_too_large");
    }
    std::vector<merge::Source> sources;
    for (const auto& dir : fs::directory_iterator(*work_ / "extract"))
      for (const auto& file : merge::extraction_files(dir.path()))
        sources.push_back(merge::jsonl_file_source(file));
    std::ofstream out(*work_ / "documents.jsonl");
    merge::MergeOptions mopts;
    mopts.work_dir = *work_ / "merge-work";
    merge::run_merge(sources, mopts, out);
  }
  static void TearDownTestSuite() {
    fs::remove_all(*work_);
    delete work_;
  }
  static fs::path* work_;
  static int64_t too_large_;

  // Every field of every truth document equals the merged document's.
  static void expect_documents_equal_truth() {
    auto truth = load_documents(*work_ / "sample" / "truth" / "documents.jsonl");
    auto merged = load_documents(*work_ / "documents.jsonl");
    ASSERT_GT(truth.size(), 20u);
    EXPECT_EQ(merged.size(), truth.size());
    fs::path sample_dir = *work_ / "sample";
    for (const auto& [id, expected] : truth) {
      auto it = merged.find(id);
      ASSERT_NE(it, merged.end()) << "missing document " << id << " " << expected["imgUrl"];
      Json got = it->second;
      for (const char* field : {"imgFile", "pageFile"})
        got[field] = relative_to(got[field].get<std::string>(), sample_dir);
      for (const auto& [field, value] : expected.items())
        EXPECT_EQ(got[field], value)
            << "document " << id << " (" << expected["imgUrl"] << ") field " << field;
      // distinctPages is left out where it equals matchingPages, on both sides.
      EXPECT_EQ(got.contains("distinctPages"), expected.contains("distinctPages")) << id;
    }
  }
};

template <int Mirrors>
fs::path* SamplePipeline<Mirrors>::work_ = nullptr;
template <int Mirrors>
int64_t SamplePipeline<Mirrors>::too_large_ = 0;

class PipelineTruth : public SamplePipeline<0> {};
class PageNearDuplicateTruth : public SamplePipeline<16> {};

TEST_F(PipelineTruth, ExtractionDropsTheImagesTheTruthExpectsTooLarge) {
  std::ifstream in(*work_ / "sample" / "truth" / "manifest.json");
  Json manifest = Json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  EXPECT_GE(manifest["imagesTooLarge"].get<int64_t>(), 1);
  EXPECT_EQ(too_large_, manifest["imagesTooLarge"].get<int64_t>());
}

TEST_F(PipelineTruth, MergedDocumentsEqualGroundTruth) {
  expect_documents_equal_truth();
}

// With mirrored, reprinted, print and rewritten articles: popularity counts each family of
// near-duplicate pages once (distinctPages), and every other field stays exact.
TEST_F(PageNearDuplicateTruth, MergedDocumentsEqualGroundTruth) {
  expect_documents_equal_truth();
  size_t collapsed = 0;
  for (const auto& [id, doc] : load_documents(*work_ / "sample" / "truth" / "documents.jsonl"))
    collapsed += doc.contains("distinctPages");
  EXPECT_GT(collapsed, 5u);
}

// The page sketches extraction stored against the truth's exact Jaccard: every pair of pages
// with a sketch is judged (near-duplicates at an estimated J ≥ 0.8, 10 shingles or more).
TEST_F(PageNearDuplicateTruth, PagePairsPrecisionAndRecall) {
  std::map<std::string, similar::PageSketch> sketches;
  size_t refs = 0, refs_with_sketch = 0;
  for (const auto& dir : fs::directory_iterator(*work_ / "extract"))
    for (const auto& file : merge::extraction_files(dir.path())) {
      std::ifstream in(file);
      for (std::string line; std::getline(in, line);) {
        Json j = Json::parse(line);
        if (j["type"] != "ref") continue;
        ++refs;
        if (!j.contains("pageSketch")) continue;
        ++refs_with_sketch;
        auto s = similar::decode_page_sketch(j["pageSketch"].get<std::string>());
        ASSERT_TRUE(s) << line;
        auto [at, added] = sketches.emplace(j["pageUrl"].get<std::string>(), *s);
        EXPECT_EQ(at->second, *s) << "a page's sketch changed between captures";
      }
    }
  ASSERT_GT(sketches.size(), 20u);
  EXPECT_GT(refs_with_sketch * 10, refs * 9);
  std::set<std::pair<std::string, std::string>> truth, found;
  std::ifstream in(*work_ / "sample" / "truth" / "page-near-duplicates.jsonl");
  for (std::string line; std::getline(in, line);) {
    Json j = Json::parse(line);
    auto a = j["pages"][0].get<std::string>(), b = j["pages"][1].get<std::string>();
    if (j["near"].get<bool>() && sketches.count(a) && sketches.count(b)) truth.emplace(a, b);
  }
  for (auto x = sketches.begin(); x != sketches.end(); ++x)
    for (auto y = std::next(x); y != sketches.end(); ++y)
      if (x->second.shingles >= similar::kMinShinglesToGroup &&
          y->second.shingles >= similar::kMinShinglesToGroup &&
          similar::near_duplicate_pages(x->second, y->second))
        found.emplace(x->first, y->first);
  size_t both = 0;
  for (const auto& pair : found) both += truth.count(pair);
  ASSERT_GE(truth.size(), 8u);
  double precision = found.empty() ? 0 : static_cast<double>(both) / found.size();
  double recall = static_cast<double>(both) / truth.size();
  std::printf(
      "page pairs: %zu pages, %zu near-duplicate pairs in truth, %zu found, "
      "precision %.3f recall %.3f\n",
      sketches.size(), truth.size(), found.size(), precision, recall);
  EXPECT_GE(precision, 0.95);
  EXPECT_GE(recall, 0.95);
}

TEST_F(PipelineTruth, JudgedQueriesFindRelevantImages) {
  fs::path index_dir = *work_ / "index";
  index::IndexOptions options;
  options.index_dir = index_dir;
  options.collection = "sample";
  options.inputs = {*work_ / "documents.jsonl"};
  auto stats = index::index_documents(options);
  ASSERT_GT(stats.documents, 20u);
  Xapian::Database db(index_dir.string());
  std::ifstream queries(*work_ / "sample" / "truth" / "queries.jsonl");
  size_t judged = 0, top_hit_relevant = 0;
  for (std::string line; std::getline(queries, line);) {
    Json q = Json::parse(line);
    std::set<std::string> relevant;
    for (const auto& d : q["relevant"]) relevant.insert(d.get<std::string>());
    search::SearchRequest request;
    request.q = q["query"].get<std::string>();
    request.safe = false;
    auto result = search::search(db, request);
    ++judged;
    if (!result.hits.empty() && relevant.count(result.hits.front().doc.id)) ++top_hit_relevant;
  }
  ASSERT_GE(judged, 5u);
  // Topic words appear only in the descriptions of their own images: the first hit of every
  // judged query must be relevant.
  EXPECT_EQ(top_hit_relevant, judged);
}

// Every capture of the generated crawls is searchable by date: per year, the years facet and
// a from/to search count exactly the truth's images captured that year (inline images are
// never shown), and each image captured again is found at the second of its latest capture.
TEST_F(PipelineTruth, EveryCaptureDateIsSearchable) {
  fs::path index_dir = *work_ / "index-dates";
  index::IndexOptions options;
  options.index_dir = index_dir;
  options.collection = "sample";
  options.inputs = {*work_ / "documents.jsonl"};
  index::index_documents(options);
  Xapian::Database db(index_dir.string());
  std::map<std::string, uint64_t> per_year;
  std::vector<std::pair<std::string, std::string>> captured_again;  // id, latest capture
  for (const auto& [id, doc] : load_documents(*work_ / "sample" / "truth" / "documents.jsonl")) {
    if (doc.value("isInline", false)) continue;
    std::set<std::string> years;
    for (const auto& t : doc["imgCaptureTimes"]) years.insert(t.get<std::string>().substr(0, 4));
    for (const auto& y : years) ++per_year[y];
    if (doc["imgCaptureTimes"].size() > 1)
      captured_again.emplace_back(id, doc["imgCaptureTimes"].back().get<std::string>());
  }
  ASSERT_GE(per_year.size(), 2u);
  ASSERT_FALSE(captured_again.empty());
  search::SearchRequest all;
  all.safe = false;
  const auto facet = search::search(db, all).years;
  const std::map<std::string, uint64_t> facet_years(facet.begin(), facet.end());
  EXPECT_EQ(facet_years, per_year);
  for (const auto& [year, count] : per_year) {
    search::SearchRequest r = all;
    r.from = year + "0101000000";
    r.to = year + "1231235959";
    EXPECT_EQ(search::search(db, r).total, count) << year;
  }
  for (const auto& [id, latest] : captured_again) {
    search::SearchRequest r = all;
    r.from = r.to = latest;
    r.max_items = search::kMaxMaxItems;
    std::set<std::string> ids;
    for (const auto& hit : search::search(db, r).hits) ids.insert(hit.doc.id);
    EXPECT_TRUE(ids.count(id)) << id << " at " << latest;
  }
}

}  // namespace
}  // namespace strata
