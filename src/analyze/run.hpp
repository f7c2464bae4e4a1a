#pragma once
// `strata analyze`: reads merged documents (documents.jsonl, one strata::merge::ImageDocument
// per line; only imgDigest, imgFile and imgOffset are used), fetches each image's bytes from
// its archive record, and appends one AnalysisRecord per new digest to
// <out>/analysis.jsonl, thumbnails under <out>/thumbs. Digests already in analysis.jsonl
// (from earlier runs) are never analysed again.
#include <filesystem>
#include <set>
#include <string>

#include "core/counters.hpp"
#include "core/progress.hpp"

namespace strata::analyze {

struct RunOptions {
  std::filesystem::path documents;  // documents.jsonl
  std::filesystem::path out;        // index folder: analysis.jsonl, thumbs/
  // Relative imgFile paths are tried under this folder, else as written (from the working
  // folder), else beside the documents file and in its parent folder (a sample's truth/).
  std::filesystem::path archive_root;
  std::filesystem::path models;  // models/nsfwjs ("" = find_nsfw_models())
  std::string model_variant;     // "" = kDefaultNsfwModel
  bool classify = true;
  uint64_t max_pixels = 0;       // 0 = default DecodeLimits
  unsigned jobs = 1;             // worker threads, each with its own classifier
  Progress* progress = nullptr;  // total: the new digests; advanced per image analysed
};

// Digests already analysed (the cache), read from an analysis.jsonl.
std::set<std::string> analysed_digests(const std::filesystem::path& analysis_jsonl);

// Returns the run's counters; throws std::runtime_error when the inputs cannot be read.
Counters run_analysis(const RunOptions& options);

}  // namespace strata::analyze
