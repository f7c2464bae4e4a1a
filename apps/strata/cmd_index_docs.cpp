// strata index-docs: builds or extends an index from merged-document JSONL, analysing the
// new image digests first (as `strata index` does) unless --no-analysis.
#include <memory>
#include <optional>
#include <thread>

#include "cmd_analyze_options.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"
#include "index/index_documents.hpp"
#include "index/moderation.hpp"
#include "merge/folder.hpp"

namespace strata {
namespace {

struct IndexDocsCommand {
  index::IndexOptions index;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  AnalysisOptions analysis;
};

int run(IndexDocsCommand& cmd) {
  Json report;
  // An unreadable input is reported here and counted by the index step.
  for (const auto& docs : cmd.index.inputs) {
    std::optional<Progress> progress;
    if (!cmd.analysis.skip) progress.emplace("analyse " + docs.string(), 0, "images", "");
    run_analysis_step(cmd.analysis, docs, cmd.index.index_dir, cmd.jobs,
                      progress ? &*progress : nullptr, report);
  }
  cmd.index.moderate = index::moderation_of(cmd.index.index_dir);
  index::IndexStats s;
  try {
    Progress progress("index", merge::total_size(cmd.index.inputs), "B", "documents");
    cmd.index.progress = &progress;
    s = index::index_documents(cmd.index);
    cmd.index.progress = nullptr;
    if (index::blocklist_changed(cmd.index.index_dir)) refresh_existing_index(cmd.index.index_dir);
  } catch (const std::exception& e) {
    log::error("index.failed", {{"message", e.what()}});
    return exit_code::failure;
  }
  report["index"] = index::to_json(s);
  cli::print_report(report);
  if (s.bad_inputs == cmd.index.inputs.size() && !cmd.index.inputs.empty())
    return exit_code::no_input;
  if (s.bad_lines || s.bad_inputs) return exit_code::input_problems;
  return exit_code::ok;
}

const bool registered = cli::register_command(
    "index-docs", "Index merged image documents (JSONL) into a search index",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<IndexDocsCommand>();
      auto& opts = cmd->index;
      app.add_option("--index", opts.index_dir, "Index folder (created if missing)")->required();
      app.add_option("--collection", opts.collection, "Collection name added to every document")
          ->required();
      app.add_option("docs", opts.inputs, "Merged documents (JSONL)")->required();
      app.add_option("--jobs", cmd->jobs, "Analysis worker threads (default: all cores)");
      add_analysis_options(app, cmd->analysis, true);
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
