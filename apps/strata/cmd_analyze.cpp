// `strata analyze`: thumbnails, perceptual hashes and NSFW scores for every new image digest
// of a documents.jsonl (docs/analysis.md). When the output folder holds an index, its
// documents get the new results at once (no re-indexing).
#include <memory>
#include <thread>

#include "cmd_analyze_options.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"

namespace strata {
namespace {

struct AnalyzeCommand {
  std::string documents, out;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  AnalysisOptions analysis;
};

bool has_problems(const Json& counters) {
  for (const char* name : {"bytes_missing", "documents_invalid", "decode_corrupt",
                           "decode_unsupported", "decode_too_large"})
    if (counters.value(name, 0) > 0) return true;
  return false;
}

int run(const AnalyzeCommand& cmd) {
  Json report;
  Progress progress("analyse", 0, "images", "");
  const bool ok =
      run_analysis_step(cmd.analysis, cmd.documents, cmd.out, cmd.jobs, &progress, report);
  progress.finish();
  if (!ok) return exit_code::failure;
  cli::print_report(report);
  if (!refresh_existing_index(cmd.out)) return exit_code::failure;
  return has_problems(report["analysis"]) ? exit_code::input_problems : exit_code::ok;
}

const bool registered = cli::register_command(
    "analyze", "Thumbnails, pHash and NSFW scores for each new image digest",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<AnalyzeCommand>();
      app.add_option("-d,--documents", cmd->documents, "documents.jsonl from strata merge")
          ->required();
      app.add_option("-o,--out", cmd->out, "index folder: analysis.jsonl and thumbs/ go here")
          ->required();
      app.add_option("--jobs", cmd->jobs, "worker threads (default: all cores)");
      add_analysis_options(app, cmd->analysis, false);
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
