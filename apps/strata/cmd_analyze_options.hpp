#pragma once
// The analysis options shared by `strata analyze`, `strata index` and `strata index-docs`,
// and the analysis step the last two run before indexing.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/progress.hpp"

namespace strata {

struct AnalysisOptions {
  bool skip = false;  // --no-analysis (index, index-docs)
  bool no_nsfw = false;
  std::string models, model;
  std::vector<std::string> archive_roots;
  uint64_t max_pixels = 0;
};

// --no-nsfw, --model, --models, --archive-root, --max-pixels; with `skippable` also
// --no-analysis.
void add_analysis_options(CLI::App& app, AnalysisOptions& options, bool skippable);

// Analyses the new digests of `documents` into `index_dir` (analysis.jsonl, thumbs/) unless
// skipped; report["analysis"] gets the counters. False when the documents are unreadable.
bool run_analysis_step(const AnalysisOptions& options, const std::filesystem::path& documents,
                       const std::filesystem::path& index_dir, unsigned jobs, Progress* progress,
                       Json& report);

// Applies analysis.jsonl and blocklist.txt to the index in `dir`, if there is one, without
// re-indexing; false (with a message) when it cannot be written now.
bool refresh_existing_index(const std::filesystem::path& dir);

}  // namespace strata
