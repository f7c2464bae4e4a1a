// `strata extract --collection NAME [--jobs N] [--min-side 50] [--max-area N] -o DIR ARCHIVE...`
// One DIR/part-NNNNN.jsonl per input archive (in sorted input order, so runs are
// deterministic), DIR/counters.json, DIR/stats.json, a progress bar over input bytes.
// `strata extract --streaming --collection NAME`: a Hadoop Streaming map task (docs/scale.md):
// archive paths on stdin, one a line ("OFFSET<TAB>PATH" as NLineInputFormat gives them, or
// the path alone), the records of each in turn on stdout, counters on stderr.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/inputs.hpp"
#include "core/progress.hpp"
#include "extract/stage.hpp"
#include "merge/streaming.hpp"

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
  bool streaming = false;
};

strata::extract::ExtractOptions extract_options(const Options& opts) {
  strata::extract::ExtractOptions xopts;
  xopts.collection = opts.collection;
  xopts.gates.min_side = opts.min_side;
  xopts.gates.max_area = opts.max_area;
  xopts.refs.caption.budget =
      std::chrono::milliseconds(static_cast<int64_t>(opts.caption_budget_s * 1000));
  return xopts;
}

// The archive path of a map input line: NLineInputFormat hands the mapper "OFFSET<TAB>PATH"
// (TextInputFormat, or stream.map.input.ignoreKey, the path alone).
std::string input_path(const std::string& line) {
  const size_t tab = line.find('\t');
  if (tab != std::string::npos && tab > 0 && line.find_first_not_of("0123456789") == tab)
    return line.substr(tab + 1);
  return line;
}

// Each archive is extracted into a scratch folder (the task's working folder under Hadoop)
// and its part file copied to stdout: the lines `strata extract` writes for it, byte for byte.
int run_streaming(const Options& opts) {
  std::vector<fs::path> paths;
  for (std::string line; std::getline(std::cin, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (const std::string path = input_path(line); !path.empty()) paths.push_back(path);
  }
  const fs::path scratch =
      fs::temp_directory_path() / ("strata-extract-" + std::to_string(getpid()));
  strata::ProblemLog log;
  strata::Counters counters;
  int code = strata::exit_code::ok;
  for (const auto& path : paths) {
    std::error_code ec;
    fs::remove_all(scratch, ec);
    fs::create_directories(scratch, ec);
    const auto result = strata::extract::run_extraction({path}, extract_options(opts), scratch, 1,
                                                        log.sink(), nullptr);
    counters.merge(result.counters);  // its "archives" counts this one
    if (result.unusable) counters.add("archives_unusable");
    if (result.write_failures)
      code = strata::exit_code::failure;  // the task fails, Hadoop retries it
    for (const auto& entry : fs::directory_iterator(scratch, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("part-", 0) != 0) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::cout << in.rdbuf();
    }
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  std::cout.flush();
  if (!std::cout) code = strata::exit_code::failure;
  counters.add("problems", static_cast<int64_t>(log.total()));
  strata::merge::write_hadoop_counters(counters, std::cerr, "strata-extract");
  return code;
}

int run(const Options& opts) {
  if (opts.streaming) return run_streaming(opts);
  if (opts.inputs.empty() || opts.out_dir.empty()) {
    std::cerr << "extract: give -o DIR and archives (or --streaming)\n";
    return strata::exit_code::usage;
  }
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
  const auto xopts = extract_options(opts);
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
      app.add_option("archives", opts->inputs, "archive files, folders or @lists");
      app.add_option("--collection", opts->collection, "collection name")->required();
      app.add_option("-o,--output", opts->out_dir, "output folder");
      app.add_flag("--streaming", opts->streaming,
                   "Hadoop Streaming map task: archive paths on stdin, records on stdout");
      app.add_option("--jobs", opts->jobs, "parallel files (default: all cores)");
      app.add_option("--min-side", opts->min_side, "drop images with a side below this (px)");
      app.add_option("--max-area", opts->max_area, "drop images with more pixels than this");
      app.add_option("--caption-budget", opts->caption_budget_s,
                     "seconds of caption extraction per page");
      return [opts] { return run(*opts); };
    });

}  // namespace
