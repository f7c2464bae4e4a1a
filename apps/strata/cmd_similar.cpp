// `strata similar groups ANALYSIS.jsonl`: near-duplicate image groups (src/similar) of the
// images an analysis.jsonl gives a pHash, as JSONL on stdout: {"digest", "group" (the leader's
// digest), "size"}. The report (counts, problems) goes to stderr.
#include <fstream>
#include <memory>
#include <thread>

#include "analyze/record.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/problems.hpp"
#include "similar/groups.hpp"

namespace strata {
namespace {

struct SimilarCommand {
  std::string analysis;
  int radius = similar::kNearDuplicateRadius;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

// Images with a pHash; lines that are not analysis records are reported and skipped.
std::vector<similar::Image> read_images(std::istream& in, const std::string& file,
                                        ProblemLog& problems, size_t& unhashed) {
  std::vector<similar::Image> images;
  uint64_t offset = 0;
  for (std::string line; std::getline(in, line); offset += line.size() + 1) {
    analyze::AnalysisRecord record;
    Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded() || !analyze::from_json(j, record)) {
      problems.report({file, offset, "bad_analysis_record", "not an analysis record"});
      continue;
    }
    if (auto image = analyze::grouping_image(record))
      images.push_back(std::move(*image));
    else
      ++unhashed;
  }
  return images;
}

int run(const SimilarCommand& cmd) {
  std::ifstream in(cmd.analysis);
  if (!in) {
    std::cerr << "strata similar: cannot read " << cmd.analysis << "\n";
    return exit_code::no_input;
  }
  ProblemLog problems;
  size_t unhashed = 0;
  const auto images = read_images(in, cmd.analysis, problems, unhashed);
  const auto groups = similar::group_near_duplicates(images, cmd.radius, cmd.jobs);
  for (size_t i = 0; i < images.size(); ++i)
    std::cout << Json{{"digest", images[i].digest},
                      {"group", images[groups.leader[i]].digest},
                      {"size", groups.size[i]}}
                     .dump()
              << "\n";
  cli::print_report({{"images",
                      {{"hashed", images.size()},
                       {"without_phash", unhashed},
                       {"gated_flat", groups.degenerate},
                       {"gated_small", groups.too_small},
                       {"in_groups", groups.grouped}}},
                     {"groups", groups.groups},
                     {"problems", problems_json(problems)}},
                    {}, std::cerr);
  return problems.total() > 0 ? exit_code::input_problems : exit_code::ok;
}

const bool registered = cli::register_command(
    "similar", "Near-duplicate image groups from the pHashes of an analysis.jsonl",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<SimilarCommand>();
      app.require_subcommand(1);
      auto* groups = app.add_subcommand("groups", "JSONL of digest, group (leader digest), size");
      groups->add_option("analysis", cmd->analysis, "analysis.jsonl of an index folder")
          ->required();
      groups->add_option("--radius", cmd->radius, "largest pHash distance within a group")
          ->check(CLI::Range(0, 63));
      groups->add_option("--jobs", cmd->jobs, "search threads (default: all cores)");
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
