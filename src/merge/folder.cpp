#include "merge/folder.hpp"

#include <algorithm>
#include <fstream>

namespace fs = std::filesystem;

namespace strata::merge {

std::vector<fs::path> extraction_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".jsonl")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

uint64_t total_size(const std::vector<fs::path>& files) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& f : files) total += fs::file_size(f, ec);
  return total;
}

bool FolderMergeResult::input_skipped() const {
  return counters.get("lines_malformed") + counters.get("lines_not_records") > 0;
}

FolderMergeResult merge_folder(const fs::path& extract_dir, const fs::path& docs_dir,
                               MergeOptions options, Progress* progress, ProblemSink problems) {
  FolderMergeResult result;
  JsonlReading reading;
  reading.problems = std::move(problems);
  if (progress)
    reading.on_progress = [progress](uint64_t bytes, uint64_t lines) {
      progress->advance(bytes);
      progress->add_items(lines);
    };
  std::vector<Source> sources;
  for (const auto& f : extraction_files(extract_dir))
    for (auto& source : jsonl_file_sources(f, std::max(1u, options.jobs), reading))
      sources.push_back(std::move(source));
  std::error_code ec;
  fs::create_directories(docs_dir, ec);
  if (options.work_dir.empty()) options.work_dir = docs_dir / ".merge-work";
  result.documents = docs_dir / "documents.jsonl";
  std::ofstream out(result.documents, std::ios::binary);
  try {
    result.counters = run_merge(sources, options, out);
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  fs::remove_all(options.work_dir, ec);
  out.flush();
  if (!out && result.error.empty()) result.error = "cannot write " + result.documents.string();
  std::ofstream(docs_dir / "counters.json") << result.counters.to_json().dump(2) << '\n';
  return result;
}

}  // namespace strata::merge
