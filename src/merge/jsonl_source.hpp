#pragma once
// Sources reading extraction JSONL files (extract/records.hpp), the merge's input. A file is
// split at line starts into pieces, so that several workers parse one file in parallel; lines
// are parsed by RecordReader (simdjson).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "core/problems.hpp"
#include "merge/source.hpp"

namespace strata::merge {

struct JsonlReading {
  // Told the bytes and the lines read, about a MiB at a time (progress bars); may be empty.
  std::function<void(uint64_t bytes, uint64_t lines)> on_progress;
  // Told each line that is not a record (file, the line's byte offset, kind "malformed_json"
  // with the parser's message, or "not_a_record") and each unreadable file
  // ("unreadable_file"); may be empty. Such lines are also counted: `lines_malformed`,
  // `lines_not_records`, `input_files_unreadable`.
  ProblemSink problems;
};

// The sources reading `file`: one per piece, pieces of at least 16 MiB, at most 4 per worker
// (several pieces per worker even the load when some parse slower).
std::vector<Source> jsonl_file_sources(const std::filesystem::path& file, unsigned workers,
                                       const JsonlReading& reading = {});
// All of `file` as one source.
Source jsonl_file_source(std::filesystem::path file, const JsonlReading& reading = {});

}  // namespace strata::merge
