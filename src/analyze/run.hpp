#pragma once
// `strata analyze`: reads merged documents (documents.jsonl, one strata::merge::ImageDocument
// per line; only imgDigest, imgFile and imgOffset are used), fetches each image's bytes from
// its archive record, and appends one AnalysisRecord per new digest to
// <out>/analysis.jsonl, thumbnails under <out>/thumbs. Digests already in analysis.jsonl
// (from earlier runs) are never analysed again.
#include <filesystem>
#include <optional>
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
  Progress* progress = nullptr;  // advanced by the bytes of documents read
};

// The folder of NSFW model `variant` ("" = kDefaultNsfwModel) under `models` ("" =
// find_nsfw_models()); nullopt when it has no model.json.
std::optional<std::filesystem::path> nsfw_model_dir(const std::filesystem::path& models,
                                                    const std::string& variant);
// Why a run that asks for NSFW classification cannot start without that model, and what to
// install or pass instead.
std::string missing_model_message(const std::filesystem::path& models, const std::string& variant);

// Digests already analysed (the cache), read from an analysis.jsonl.
std::set<std::string> analysed_digests(const std::filesystem::path& analysis_jsonl);

// Returns the run's counters; throws std::runtime_error when the inputs cannot be read.
Counters run_analysis(const RunOptions& options);

}  // namespace strata::analyze
