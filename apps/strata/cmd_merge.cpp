// `strata merge`: extraction records -> image documents (docs/merge.md).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"
#include "core/problems.hpp"
#include "core/progress.hpp"
#include "merge/folder.hpp"
#include "merge/streaming.hpp"

namespace strata {
namespace {

struct MergeCommand {
  std::string input, output, mode = "compact", streaming;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  uint64_t memory = uint64_t{1} << 30;
};

namespace fs = std::filesystem;

int run_streaming_stage(const MergeCommand& cmd, merge::Mode mode) {
  merge::Stage stage;
  if (!merge::parse_stage(cmd.streaming, stage)) {
    std::cerr << "--streaming must be map, reduce, map2 or reduce2\n";
    return exit_code::usage;
  }
  std::ios::sync_with_stdio(false);
  merge::write_hadoop_counters(merge::run_streaming(stage, mode, std::cin, std::cout), std::cerr);
  return exit_code::ok;
}

int run_files(const MergeCommand& cmd, merge::Mode mode) {
  if (cmd.input.empty() || cmd.output.empty()) {
    std::cerr << "strata merge needs -i EXTRACT_DIR and -o DOCS_DIR (or --streaming)\n";
    return exit_code::usage;
  }
  std::error_code ec;
  if (!fs::is_directory(cmd.input, ec)) {
    std::cerr << "not a folder: " << cmd.input << '\n';
    return exit_code::no_input;
  }
  auto files = merge::extraction_files(cmd.input);
  if (files.empty()) {
    std::cerr << "no *.jsonl files in " << cmd.input << '\n';
    return exit_code::no_input;
  }
  Progress progress("merge", merge::total_size(files));
  merge::MergeOptions options;
  options.mode = mode;
  options.jobs = std::max(1u, cmd.jobs);
  options.memory = cmd.memory;
  ProblemLog problems;
  auto result = merge::merge_folder(cmd.input, cmd.output, options, &progress, problems.sink());
  progress.finish();
  if (!result.error.empty()) {
    log::error("merge_failed", {{"error", result.error}});
    return exit_code::failure;
  }
  cli::print_report({{"table2", merge::table2_rows(result.counters)},
                     {"counters", result.counters.to_json()},
                     {"problems", problems_json(problems)}});
  return result.input_skipped() ? exit_code::input_problems : exit_code::ok;
}

int run(const MergeCommand& cmd) {
  merge::Mode mode;
  if (!merge::parse_mode(cmd.mode, mode)) {
    std::cerr << "--mode must be compact, legacy or full\n";
    return exit_code::usage;
  }
  return cmd.streaming.empty() ? run_files(cmd, mode) : run_streaming_stage(cmd, mode);
}

const bool registered = cli::register_command(
    "merge", "Merge extraction records into one document per image (dedup by SURT, digest)",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<MergeCommand>();
      app.add_option("-i,--input", cmd->input, "Folder of extraction part-*.jsonl files");
      app.add_option("-o,--output", cmd->output, "Folder for documents.jsonl and counters.json");
      app.add_option("--mode", cmd->mode, "compact (default), legacy or full");
      app.add_option("--jobs", cmd->jobs, "Worker threads (default: all cores)");
      cli::add_size_option(app, "--memory", cmd->memory,
                           "Records held in memory before spilling (default 1G)");
      app.add_option("--streaming", cmd->streaming,
                     "Hadoop Streaming stage on stdin/stdout: map, reduce, map2 or reduce2");
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
