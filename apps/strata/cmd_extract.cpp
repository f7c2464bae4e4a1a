// `strata extract --collection NAME [--jobs N] [--min-side 50] [--max-area N] -o DIR ARCHIVE...`
// One DIR/part-NNNNN.jsonl per input archive (in sorted input order, so runs are
// deterministic), DIR/counters.json, DIR/stats.json, a progress bar over input bytes.
#include <filesystem>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/inputs.hpp"
#include "core/progress.hpp"
#include "extract/stage.hpp"

namespace {

namespace fs = std::filesystem;

struct Options {
  std::vector<std::string> inputs;
  std::string collection;
  std::string out_dir;
  unsigned jobs = 0;
  int min_side = 50;
  int64_t max_area = 15000LL * 15000LL;
  double caption_budget_s = 60;
};

int run(const Options& opts) {
  strata::ProblemLog log;
  std::vector<fs::path> paths = strata::expand_inputs(opts.inputs, log.sink());
  if (paths.empty()) {
    std::cerr << "extract: no input archives\n";
    return strata::exit_code::no_input;
  }
  std::error_code ec;
  fs::create_directories(opts.out_dir, ec);
  if (ec) {
    std::cerr << "extract: cannot create " << opts.out_dir << ": " << ec.message() << '\n';
    return strata::exit_code::failure;
  }
  strata::extract::ExtractOptions xopts;
  xopts.collection = opts.collection;
  xopts.gates.min_side = opts.min_side;
  xopts.gates.max_area = opts.max_area;
  xopts.refs.caption.budget =
      std::chrono::milliseconds(static_cast<int64_t>(opts.caption_budget_s * 1000));

  uint64_t total_bytes = 0;
  for (const auto& p : paths) total_bytes += fs::file_size(p, ec);
  strata::Progress progress("extract", total_bytes);
  auto result =
      strata::extract::run_extraction(paths, xopts, opts.out_dir, opts.jobs, log.sink(), &progress);
  progress.finish();
  strata::cli::print_report({{"archives", paths.size()},
                             {"counters", result.counters.to_json()},
                             {"descriptions", result.stats},
                             {"problems", strata::problems_json(log)}});
  if (result.write_failures > 0) return strata::exit_code::failure;
  if (result.unusable == paths.size()) return strata::exit_code::no_input;
  return log.total() > 0 || result.unusable > 0 ? strata::exit_code::input_problems
                                                : strata::exit_code::ok;
}

const bool registered = strata::cli::register_command(
    "extract", "Find archived images, image revisits and page references (JSONL)",
    [](CLI::App& app) -> strata::cli::Runner {
      auto opts = std::make_shared<Options>();
      app.add_option("archives", opts->inputs, "archive files, folders or @lists")->required();
      app.add_option("--collection", opts->collection, "collection name")->required();
      app.add_option("-o,--output", opts->out_dir, "output folder")->required();
      app.add_option("--jobs", opts->jobs, "parallel files (default: all cores)");
      app.add_option("--min-side", opts->min_side, "drop images with a side below this (px)");
      app.add_option("--max-area", opts->max_area, "drop images with more pixels than this");
      app.add_option("--caption-budget", opts->caption_budget_s,
                     "seconds of caption extraction per page");
      return [opts] { return run(*opts); };
    });

}  // namespace
