#pragma once
// index_documents(): builds or extends an index from merged-document JSONL files. The whole
// run is one Xapian transaction: an interrupted run leaves the index as it was before it.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/progress.hpp"
#include "index/writer.hpp"

namespace strata::index {

struct IndexOptions {
  std::filesystem::path index_dir;
  std::string collection;                     // added to every document's collection list
  std::vector<std::filesystem::path> inputs;  // JSONL of merge::ImageDocument
  MergeFn merge = default_merge();
  ModerateFn moderate;           // analysis join + block list (index/moderation.hpp); none if empty
  Progress* progress = nullptr;  // advanced by input bytes, its items by documents read
};

struct IndexStats {
  uint64_t lines = 0;
  uint64_t added = 0;
  uint64_t merged = 0;
  uint64_t unchanged = 0;
  uint64_t bad_lines = 0;              // not JSON, not a document, or without id
  uint64_t bad_inputs = 0;             // files that could not be opened
  uint64_t near_duplicate_groups = 0;  // groups of two or more after the run
  uint64_t documents = 0;              // documents in the index after the run
};

Json to_json(const IndexStats& stats);

// Throws on index errors (nothing committed); bad lines/files are counted and skipped.
IndexStats index_documents(const IndexOptions& options);

}  // namespace strata::index
