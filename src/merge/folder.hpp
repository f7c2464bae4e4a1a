#pragma once
// The merge stage over folders, as `strata merge` and `strata index` run it: every *.jsonl of
// an extraction folder in, DOCS_DIR/documents.jsonl and DOCS_DIR/counters.json out.
#include <filesystem>
#include <string>
#include <vector>

#include "core/counters.hpp"
#include "core/problems.hpp"
#include "core/progress.hpp"
#include "merge/pipeline.hpp"

namespace strata::merge {

// The *.jsonl files of `dir`, sorted so runs are deterministic.
std::vector<std::filesystem::path> extraction_files(const std::filesystem::path& dir);

struct FolderMergeResult {
  Counters counters;
  std::filesystem::path documents;  // DOCS_DIR/documents.jsonl
  std::string error;                // empty on success
  bool input_skipped() const;       // some lines were not records
};

// `progress` (may be null) advances by input bytes, its items by lines read. Lines that are
// not records go to `problems` (may be empty) with their file and byte offset.
// options.work_dir defaults to DOCS_DIR/.merge-work and is removed afterwards.
FolderMergeResult merge_folder(const std::filesystem::path& extract_dir,
                               const std::filesystem::path& docs_dir, MergeOptions options,
                               Progress* progress, ProblemSink problems = {});

// Total size of `files`, for progress bars.
uint64_t total_size(const std::vector<std::filesystem::path>& files);

}  // namespace strata::merge
