// `strata index --index DIR --collection NAME [--jobs N] ARCHIVE...`: the whole pipeline,
// extraction -> merge -> analysis -> index, with intermediate files in a work folder removed
// at the end. Analysis runs once per digest ever (<index>/analysis.jsonl is the cache). The
// index step is one transaction, so a killed run leaves the index as it was and re-running
// completes it; re-indexing the same collection changes nothing.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "cmd_analyze_options.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/inputs.hpp"
#include "core/log.hpp"
#include "extract/stage.hpp"
#include "index/index_documents.hpp"
#include "index/moderation.hpp"
#include "merge/folder.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

struct IndexCommand {
  std::vector<std::string> inputs;
  std::string index_dir, collection, work_dir;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  uint64_t memory = uint64_t{1} << 30;
  int min_side = 50;
  bool keep_work = false;
  AnalysisOptions analysis;
};

fs::path work_folder(const IndexCommand& cmd) {
  if (!cmd.work_dir.empty()) return cmd.work_dir;
  fs::path index(cmd.index_dir);
  return index.parent_path() / (index.filename().string() + ".work-" + std::to_string(getpid()));
}

// Step 1: archives -> work/extract/part-*.jsonl.
bool extract_step(const IndexCommand& cmd, const std::vector<fs::path>& archives,
                  const fs::path& out, ProblemLog& problems, Json& report) {
  extract::ExtractOptions options;
  options.collection = cmd.collection;
  options.gates.min_side = cmd.min_side;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& a : archives) total += fs::file_size(a, ec);
  Progress progress("1/4 extract", total);
  auto result =
      extract::run_extraction(archives, options, out, cmd.jobs, problems.sink(), &progress);
  progress.finish();
  report["extract"] = result.counters.to_json();
  report["descriptions"] = result.stats;
  if (result.write_failures) std::cerr << "index: cannot write extraction files in " << out << '\n';
  return result.write_failures == 0 && result.unusable < archives.size();
}

// Step 2: work/extract -> work/docs/documents.jsonl.
bool merge_step(const IndexCommand& cmd, const fs::path& extract_dir, const fs::path& docs_dir,
                Json& report) {
  Progress progress("2/4 merge", merge::total_size(merge::extraction_files(extract_dir)));
  merge::MergeOptions options;
  options.jobs = cmd.jobs;
  options.memory = cmd.memory;
  auto result = merge::merge_folder(extract_dir, docs_dir, options, &progress);
  progress.finish();
  report["merge"] = result.counters.to_json();
  if (!result.error.empty()) std::cerr << "index: merge failed: " << result.error << '\n';
  return result.error.empty();
}

// Step 3: thumbnails, pHash and NSFW scores of the new digests -> <index>/analysis.jsonl.
bool analysis_step(const IndexCommand& cmd, const fs::path& documents, Json& report) {
  std::optional<Progress> progress;
  if (!cmd.analysis.skip) progress.emplace("3/4 analyse", 0, "images", "");
  return run_analysis_step(cmd.analysis, documents, cmd.index_dir, cmd.jobs,
                           progress ? &*progress : nullptr, report);
}

// Step 4: documents -> the Xapian index, merged by digest with what is already there, joined
// with the analysis results and the block list.
bool index_step(const IndexCommand& cmd, const fs::path& documents, Json& report) {
  index::IndexOptions options;
  options.index_dir = cmd.index_dir;
  options.collection = cmd.collection;
  options.inputs = {documents};
  options.moderate = index::moderation_of(cmd.index_dir);
  std::error_code ec;
  Progress progress("4/4 index", fs::file_size(documents, ec), "B", "documents");
  options.progress = &progress;
  try {
    report["index"] = index::to_json(index::index_documents(options));
    if (index::blocklist_changed(cmd.index_dir)) refresh_existing_index(cmd.index_dir);
  } catch (const std::exception& e) {
    progress.finish();
    std::cerr << "index: indexing failed, index left unchanged: " << e.what() << '\n';
    return false;
  }
  progress.finish();
  return true;
}

// The figures an operator checks after a run (the full counters are in --json).
Json summary(const Json& report) {
  auto figure = [&report](const char* step, const char* name) -> Json {
    const auto it = report.find(step);
    if (it == report.end() || !it->is_object() || !it->contains(name)) return nullptr;
    return (*it)[name];
  };
  return {{"records read", figure("extract", "records")},
          {"images found", figure("extract", "images_found")},
          {"image documents", figure("merge", "documents")},
          {"images analysed", figure("analysis", "images")},
          {"documents added", figure("index", "added")},
          {"documents merged", figure("index", "merged")},
          {"documents unchanged", figure("index", "unchanged")},
          {"documents in the index", figure("index", "documents")}};
}

int run(const IndexCommand& cmd) {
  ProblemLog problems;
  auto archives = expand_inputs(cmd.inputs, problems.sink());
  if (archives.empty()) {
    std::cerr << "index: no input archives\n" << problem_report(problems);
    return exit_code::no_input;
  }
  fs::path work = work_folder(cmd);
  std::error_code ec;
  fs::create_directories(work / "extract", ec);
  if (ec) {
    std::cerr << "index: cannot create work folder " << work << ": " << ec.message() << '\n';
    return exit_code::failure;
  }
  Json report = {{"archives", archives.size()}, {"collection", cmd.collection}};
  bool ok = extract_step(cmd, archives, work / "extract", problems, report) &&
            merge_step(cmd, work / "extract", work / "docs", report) &&
            analysis_step(cmd, work / "docs" / "documents.jsonl", report) &&
            index_step(cmd, work / "docs" / "documents.jsonl", report);
  if (!cmd.keep_work) fs::remove_all(work, ec);
  report["summary"] = summary(report);
  report["problems"] = problems_json(problems);
  cli::print_report(report, {"collection", "archives", "summary", "problems"});
  if (!ok) return exit_code::failure;
  return problems.total() ? exit_code::input_problems : exit_code::ok;
}

const bool registered = cli::register_command(
    "index", "Extract, merge and index archives into a search index (adds a collection)",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<IndexCommand>();
      app.add_option("archives", cmd->inputs, "Archive files, folders or @lists")->required();
      app.add_option("--index", cmd->index_dir, "Index folder (created if missing)")->required();
      app.add_option("--collection", cmd->collection, "Collection name")->required();
      app.add_option("--jobs", cmd->jobs, "Worker threads (default: all cores)");
      cli::add_size_option(app, "--memory", cmd->memory,
                           "Records the merge holds in memory (default 1G)");
      app.add_option("--min-side", cmd->min_side, "Drop images with a side below this (px)");
      app.add_option("--work", cmd->work_dir,
                     "Folder for intermediate files (default: beside the index)");
      app.add_flag("--keep-work", cmd->keep_work, "Keep the intermediate JSONL files");
      add_analysis_options(app, cmd->analysis, true);
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
