// `strata regroup --index DIR [--jobs N]`: groups the near-duplicate images of an index over
// its whole collection again (docs/near-duplicates.md); for a sharded index (docs/scale.md),
// over all its shards at once, each document's group written in its own shard. The last step
// of a sharded build made by Streaming reducers (`strata index-docs --streaming reduce`), which
// group within their own shard only. One transaction per shard.
#include <iostream>
#include <memory>
#include <thread>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "index/moderation.hpp"
#include "index/near_duplicate_groups.hpp"
#include "index/shard_layout.hpp"
#include "index/writer.hpp"

namespace strata {
namespace {

struct RegroupCommand {
  std::string index;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

int run(const RegroupCommand& cmd) {
  auto folders = index::shard_folders(cmd.index);
  if (folders.empty()) folders.push_back(cmd.index);
  try {
    std::vector<Xapian::WritableDatabase> shards;
    for (const auto& folder : folders) {
      // A shard no Streaming reducer got a document for: an empty index.
      if (!index::index_exists(folder)) index::IndexWriter create(folder);
      shards.emplace_back(folder.string(), Xapian::DB_OPEN);
      shards.back().begin_transaction(true);
    }
    const index::RegroupReport r = index::regroup_over_shards(shards, cmd.jobs);
    for (auto& shard : shards) shard.commit_transaction();
    cli::print_report({{"shards", folders.size()},
                       {"images with a pHash", r.hashed},
                       {"groups", r.groups},
                       {"images in groups", r.grouped},
                       {"documents regrouped", r.changed}});
    return exit_code::ok;
  } catch (const Xapian::Error& e) {
    std::cerr << "strata regroup: " << e.get_description() << '\n';
    return exit_code::failure;
  } catch (const std::exception& e) {
    std::cerr << "strata regroup: " << e.what() << '\n';
    return exit_code::failure;
  }
}

const bool registered = cli::register_command(
    "regroup", "Group near-duplicate images again over a whole (sharded) index",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<RegroupCommand>();
      app.add_option("--index", cmd->index, "Index folder, or a sharded index folder")->required();
      app.add_option("--jobs", cmd->jobs, "Worker threads (default: all cores)");
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
