#pragma once
// Ground truth computed from what was written: the `compact` merge documents (one per image
// digest), the queries with their relevant digests, and near-duplicate groups.
#include <string>
#include <vector>

#include "merge/document.hpp"
#include "sample/writer.hpp"

namespace strata::sample {

// Extraction's size gates (shared with docs/sample.md).
inline bool too_large_for_extraction(int width, int height) {
  return static_cast<int64_t>(width) * height > int64_t{15000} * 15000;
}
inline bool kept_by_extraction(int width, int height) {
  return width >= 50 && height >= 50 && !too_large_for_extraction(width, height);
}

struct QueryTruth {
  std::string query;
  std::string lang;
  std::vector<std::string> relevant;  // digests, sorted
};

// Two page URLs whose main texts (html.hpp main_text) share at least half their 5-word
// shingles, by exact Jaccard; `near`: J ≥ 0.8 and at least 10 shingles each, the pages the
// merge should count once (docs/merge.md, "distinctPages").
struct PagePairTruth {
  std::string a, b;  // a < b
  double jaccard = 0;
  bool near = false;
};

struct Truth {
  size_t documents = 0;  // written to DIR/truth/documents.jsonl, sorted by id
  std::vector<QueryTruth> queries;
  std::vector<std::vector<std::string>> near_duplicates;  // each sorted; sorted by first
  size_t too_large = 0;  // image responses extraction must count as images_too_large
  std::vector<PagePairTruth> page_pairs;  // sorted by (a, b)
};

// Computes the truth and writes DIR/truth/documents.jsonl on the way, one document at a time
// (the documents of a million-image world need not fit in memory at once).
Truth compute_truth(const World& w, const WriteResult& written, const std::string& dir);

// Writes DIR/truth/{queries,near-duplicates,page-near-duplicates}.jsonl.
void write_truth(const Truth& truth, const std::string& dir);

}  // namespace strata::sample
