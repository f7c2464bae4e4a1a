// `strata extract --collection NAME [--jobs N] [--min-side 50] [--max-area N] -o DIR ARCHIVE...`
// One DIR/part-NNNNN.jsonl per input archive (in sorted input order, so runs are
// deterministic), DIR/counters.json, DIR/stats.json, a progress bar over input bytes.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/inputs.hpp"
#include "core/progress.hpp"
#include "extract/extractor.hpp"

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

std::string part_name(size_t i) {
  std::ostringstream name;
  name << "part-" << std::setw(5) << std::setfill('0') << i << ".jsonl";
  return name.str();
}

bool write_json(const fs::path& path, const strata::Json& j) {
  std::ofstream out(path);
  out << j.dump(2) << '\n';
  return static_cast<bool>(out);
}

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

  unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, static_cast<unsigned>(paths.size()));
  std::atomic<size_t> next{0};
  std::atomic<size_t> unusable{0}, write_failures{0};
  std::vector<strata::Counters> per_thread(jobs);
  auto worker = [&](unsigned t) {
    for (size_t i = next++; i < paths.size(); i = next++) {
      fs::path out_path = fs::path(opts.out_dir) / part_name(i);
      std::ofstream out(out_path, std::ios::binary);
      if (!out) {
        ++write_failures;
        continue;
      }
      bool ok =
          strata::extract::extract_archive(paths[i], paths[i].string(), xopts, out, per_thread[t],
                                           log.sink(), [&](uint64_t n) { progress.advance(n); });
      if (!ok) ++unusable;
      progress.add_items(1);
      out.flush();
      if (!out) ++write_failures;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker, t);
  for (auto& th : threads) th.join();
  progress.finish();

  strata::Counters counters;
  for (const auto& c : per_thread) counters.merge(c);
  strata::Json stats = strata::extract::description_stats(counters);
  bool wrote = write_json(fs::path(opts.out_dir) / "counters.json", counters.to_json()) &&
               write_json(fs::path(opts.out_dir) / "stats.json", stats);
  std::cerr << "counters:\n"
            << counters.to_text() << "descriptions (share of references):\n"
            << "  with alt or title  " << stats["withAltOrTitle"].get<double>() << "\n"
            << "  with caption       " << stats["withCaption"].get<double>() << "\n"
            << "  with any           " << stats["withAny"].get<double>() << "\n";
  if (log.total() > 0) std::cerr << "problems: " << log.total() << "\n" << log.by_kind().to_text();
  if (!wrote || write_failures > 0) return strata::exit_code::failure;
  if (unusable == paths.size()) return strata::exit_code::no_input;
  return log.total() > 0 || unusable > 0 ? strata::exit_code::input_problems
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
