// `strata index --index DIR --collection NAME [--jobs N] ARCHIVE...`: the whole pipeline,
// extraction -> record store -> merge of the affected documents -> analysis -> index, with
// intermediate files in a work folder removed at the end (src/store/incremental.hpp). Analysis
// runs once per digest ever (<index>/analysis.jsonl is the cache). Batches may come in any
// order and split: the documents are the same. A killed run leaves the index as it was and
// the next run completes it; re-adding the same archives changes nothing. With --shards N the
// index is N shards partitioned by digest (docs/scale.md "Sharded index").
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
#include "index/moderation.hpp"
#include "index/new_index.hpp"
#include "index/shard_layout.hpp"
#include "store/incremental.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

struct IndexCommand {
  std::vector<std::string> inputs;
  std::string index_dir, collection, work_dir;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  uint64_t memory = uint64_t{1} << 30;
  int min_side = 50;
  size_t shards = 0;
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

// Step 3 (inside step 2): thumbnails, pHash and NSFW scores of the new digests ->
// <index>/analysis.jsonl.
bool analysis_step(const IndexCommand& cmd, const fs::path& index_dir, const fs::path& documents,
                   Json& report) {
  std::optional<Progress> progress;
  if (!cmd.analysis.skip) progress.emplace("3/4 analyse", 0, "images", "");
  return run_analysis_step(cmd.analysis, documents, index_dir, cmd.jobs,
                           progress ? &*progress : nullptr, report);
}

// Step 2: the batch's records into the record store, then the documents they affect merged
// again from the store's records and written to the index (docs/merge.md "Incremental
// merge"). A batch a killed run left in the store is applied first.
bool store_step(const IndexCommand& cmd, const fs::path& index_dir, const fs::path& work,
                Json& report) {
  store::IncrementalOptions options;
  options.index_dir = index_dir;
  options.work_dir = work / "apply";
  options.jobs = cmd.jobs;
  options.memory = cmd.memory;
  options.shards = cmd.shards;
  options.show_progress = true;
  options.analyse = [&](const fs::path& documents) {
    return analysis_step(cmd, index_dir, documents, report);
  };
  try {
    report["store"] = store::to_json(store::add_batch(options, cmd.collection, work / "extract"));
    if (index::blocklist_changed(index_dir)) refresh_existing_index(index_dir);
  } catch (const std::exception& e) {
    std::cerr << "index: indexing failed, index left as it was (the next run completes what "
                 "was stored): "
              << e.what() << '\n';
    return false;
  }
  return true;
}

// The figures an operator checks after a run (the full counters are in --json).
Json summary(const Json& report) {
  auto figure = [&report](std::initializer_list<const char*> path) -> Json {
    const Json* at = &report;
    for (const char* name : path) {
      if (!at->is_object() || !at->contains(name)) return nullptr;
      at = &(*at)[name];
    }
    return *at;
  };
  return {{"records read", figure({"extract", "records"})},
          {"images found", figure({"extract", "images_found"})},
          {"records stored", figure({"store", "stored", "inserted"})},
          {"records already stored", figure({"store", "stored", "already_stored"})},
          {"documents merged again", figure({"store", "applied", "digests_affected"})},
          {"images analysed", figure({"analysis", "images"})},
          {"documents written", figure({"store", "applied", "written"})},
          {"documents unchanged", figure({"store", "applied", "unchanged"})},
          {"documents removed", figure({"store", "applied", "deleted"})},
          {"unresolved revisits", figure({"store", "applied", "merge", "revisits_unresolved"})},
          {"revisits of unindexed images",
           figure({"store", "applied", "merge", "revisits_without_captures"})},
          {"documents in the index", figure({"store", "applied", "documents"})}};
}

int run(const IndexCommand& cmd) {
  ProblemLog problems;
  auto archives = expand_inputs(cmd.inputs, problems.sink());
  if (archives.empty()) {
    std::cerr << "index: no input archives\n" << problem_report(problems);
    return exit_code::no_input;
  }
  if (const std::string problem = store::incremental_problem(cmd.index_dir); !problem.empty()) {
    std::cerr << "index: " << problem << '\n';
    return exit_code::failure;
  }
  if (const std::string problem = index::shard_count_problem(cmd.index_dir, cmd.shards);
      !problem.empty()) {
    std::cerr << "index: " << problem << '\n';
    return exit_code::failure;
  }
  const index::NewIndex target(cmd.index_dir);
  if (!target.problem().empty()) {
    std::cerr << "index: " << target.problem() << '\n';
    return exit_code::failure;
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
            store_step(cmd, target.folder(), work, report) && target.put_in_place();
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
      app.add_option("--shards", cmd->shards,
                     "A new index as this many shards, partitioned by image digest "
                     "(docs/scale.md); an existing one keeps its count")
          ->check(CLI::Range(1, 4096));
      app.add_option("--min-side", cmd->min_side, "Drop images with a side below this (px)");
      app.add_option("--work", cmd->work_dir,
                     "Folder for intermediate files (default: beside the index)");
      app.add_flag("--keep-work", cmd->keep_work, "Keep the intermediate JSONL files");
      add_analysis_options(app, cmd->analysis, true);
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
