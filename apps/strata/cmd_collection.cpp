// `strata collection list|remove --index DIR [NAME]`: the collections of an index's record
// store (src/store/), and removing one: the documents only it held disappear, the others lose
// its captures and references and are merged again (docs/merge.md "Incremental merge"). Both
// first apply what a killed `strata index` or `collection remove` left pending.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include "cmd_analyze_options.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "index/new_index.hpp"
#include "store/incremental.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

struct CollectionCommand {
  std::string index_dir, name;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  AnalysisOptions analysis;
};

store::IncrementalOptions incremental_options(const CollectionCommand& cmd, Json& report) {
  store::IncrementalOptions options;
  options.index_dir = cmd.index_dir;
  const fs::path index(cmd.index_dir);
  options.work_dir =
      index.parent_path() / (index.filename().string() + ".work-" + std::to_string(getpid()));
  options.jobs = cmd.jobs;
  options.analyse = [&cmd, &report](const fs::path& documents) {
    return run_analysis_step(cmd.analysis, documents, cmd.index_dir, cmd.jobs, nullptr, report);
  };
  return options;
}

// Why the command cannot run on this folder ("" when it can).
std::string problem_of(const CollectionCommand& cmd) {
  if (std::string problem = index::index_problem(cmd.index_dir); !problem.empty()) return problem;
  if (!fs::exists(store::store_file(cmd.index_dir)))
    return "index " + cmd.index_dir +
           " has no record store (made by an older strata, or by index-docs): index the "
           "archives into a new index folder with strata index";
  return {};
}

int run(const CollectionCommand& cmd, bool remove) {
  if (const std::string problem = problem_of(cmd); !problem.empty()) {
    std::cerr << "collection: " << problem << '\n';
    return exit_code::failure;
  }
  Json report;
  const store::IncrementalOptions options = incremental_options(cmd, report);
  std::error_code ec;
  try {
    report["recovered"] = store::to_json(store::apply_pending(options));
    if (remove) {
      bool found = false;
      report["removed"] = store::to_json(store::remove_collection(options, cmd.name, found));
      if (!found) {
        fs::remove_all(options.work_dir, ec);
        std::cerr << "collection: no collection " << cmd.name << " in " << cmd.index_dir << '\n';
        return exit_code::failure;
      }
      std::cout << report.dump(2) << '\n';
    } else {
      for (const auto& c : store::list_collections(cmd.index_dir)) std::cout << c.dump() << '\n';
    }
  } catch (const std::exception& e) {
    fs::remove_all(options.work_dir, ec);
    std::cerr << "collection: failed, index left as it was (the next run completes it): "
              << e.what() << '\n';
    return exit_code::failure;
  }
  fs::remove_all(options.work_dir, ec);
  return exit_code::ok;
}

const bool registered = cli::register_command(
    "collection", "List the collections of an index, or remove one",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<CollectionCommand>();
      auto remove = std::make_shared<bool>(false);
      app.require_subcommand(1);
      auto* list =
          app.add_subcommand("list", "One JSON line per collection: batches, records, documents");
      auto* rm = app.add_subcommand("remove",
                                    "Remove a collection's records and re-merge what they touched");
      for (auto* sub : {list, rm}) {
        sub->add_option("-i,--index", cmd->index_dir, "index folder")->required();
        sub->add_option("--jobs", cmd->jobs, "Worker threads (default: all cores)");
        add_analysis_options(*sub, cmd->analysis, true);
      }
      rm->add_option("name", cmd->name, "collection name")->required();
      rm->callback([remove] { *remove = true; });
      return [cmd, remove] { return run(*cmd, *remove); };
    });

}  // namespace
}  // namespace strata
