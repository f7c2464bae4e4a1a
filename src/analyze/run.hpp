#pragma once
// `strata analyze`: reads merged documents (documents.jsonl, one strata::merge::ImageDocument
// per line; only imgDigest, imgFile and imgOffset are used), fetches each image's bytes from
// its archive record, and appends one AnalysisRecord per new digest to
// <out>/analysis.jsonl, thumbnails under <out>/thumbs. Digests already in analysis.jsonl
// (from earlier runs) are never analysed again, unless their bytes were missing then.
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "archive/locate.hpp"

#include "core/counters.hpp"
#include "core/progress.hpp"

namespace strata::analyze {

struct RunOptions {
  std::filesystem::path documents;  // documents.jsonl
  std::filesystem::path out;        // index folder: analysis.jsonl, thumbs/
  // imgFile is an archive key (archive/locate.hpp): read where `registered` says the archive
  // is (default: at the key's own path), else looked for under these folders, then beside
  // the documents file and in its parent folder (a sample's truth/). The record read must be
  // the document's imgUrl.
  std::vector<std::filesystem::path> archive_roots;
  std::function<std::optional<archive::ArchiveEntry>(const std::string& key)> registered;
  std::filesystem::path models;  // models/nsfwjs ("" = find_nsfw_models())
  std::string model_variant;     // "" = kDefaultNsfwModel
  bool classify = true;
  uint64_t max_pixels = 0;       // 0 = default DecodeLimits
  unsigned jobs = 1;             // worker threads, each with its own classifier
  Progress* progress = nullptr;  // total: the new digests; advanced per image analysed
};

// The folder of NSFW model `variant` ("" = kDefaultNsfwModel) under `models` ("" =
// find_nsfw_models()); nullopt when it has no model.json.
std::optional<std::filesystem::path> nsfw_model_dir(const std::filesystem::path& models,
                                                    const std::string& variant);
// Why a run that asks for NSFW classification cannot start without that model, and what to
// install or pass instead.
std::string missing_model_message(const std::filesystem::path& models, const std::string& variant);

// The cache, read from an analysis.jsonl: digests analysed, and digests whose bytes were
// missing (tried again by a later run, which may find the archive; recorded once only).
struct AnalysedDigests {
  std::set<std::string> done, missing;
};
// `only`: the digests to look up (only their lines are read, through the offsets table of
// analyze/analysis_lines.hpp); all when null.
AnalysedDigests analysed_digests(const std::filesystem::path& analysis_jsonl,
                                 const std::set<std::string>* only = nullptr);

// Returns the run's counters; throws std::runtime_error when the inputs cannot be read.
Counters run_analysis(const RunOptions& options);

}  // namespace strata::analyze
