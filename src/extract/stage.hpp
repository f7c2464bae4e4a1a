#pragma once
// The extraction stage over many archives, as `strata extract` and `strata index` run it:
// one OUT/part-NNNNN.jsonl per archive (numbered in sorted input order, so runs are
// deterministic), parallel over files, plus OUT/counters.json and OUT/stats.json.
#include <cstddef>
#include <filesystem>
#include <vector>

#include "core/counters.hpp"
#include "core/problems.hpp"
#include "core/progress.hpp"
#include "extract/extractor.hpp"

namespace strata::extract {

struct StageResult {
  Counters counters;
  Json stats;  // description_stats(counters)
  size_t archives = 0;
  size_t unusable = 0;        // inputs that could not be read as archives at all
  size_t write_failures = 0;  // part files (or reports) that could not be written
};

// `progress` (may be null) advances by compressed input bytes, and its items by records.
StageResult run_extraction(const std::vector<std::filesystem::path>& archives,
                           const ExtractOptions& options, const std::filesystem::path& out_dir,
                           unsigned jobs, const ProblemSink& problems, Progress* progress);

}  // namespace strata::extract
