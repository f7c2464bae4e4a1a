// `strata block add|remove|list`: the moderation block list beside the index
// (<index>/blocklist.txt, format in src/analyze/blocklist.hpp and docs/analysis.md). Changes
// reach the index's documents at once (no re-indexing; a running server sees them at its
// next request).
#include <iostream>
#include <memory>

#include "analyze/blocklist.hpp"
#include "cmd_analyze_options.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "index/moderation.hpp"

namespace strata {
namespace {

struct BlockCommand {
  std::string index = ".";
  std::vector<std::string> patterns;
};

int change(const BlockCommand& cmd, bool add) {
  const auto file = index::blocklist_file(cmd.index);
  analyze::BlockList list = analyze::BlockList::load(file);
  int changed = 0;
  for (const auto& text : cmd.patterns) {
    analyze::BlockPattern p;
    if (!analyze::BlockList::parse(text, p)) {
      std::cerr << "not a pattern: " << text << " (host:H, url:PREFIX or page:PREFIX)\n";
      return exit_code::usage;
    }
    const bool done = add ? list.add(p) : list.remove(p);
    changed += done;
    std::cerr << (done ? (add ? "added " : "removed ")
                       : (add ? "already present " : "not present "))
              << p.to_string() << '\n';
  }
  if (changed && !list.save(file)) {
    std::cerr << "cannot write " << file << '\n';
    return exit_code::failure;
  }
  if (changed && !refresh_existing_index(cmd.index)) return exit_code::failure;
  return exit_code::ok;
}

const bool registered = cli::register_command(
    "block", "Manage the block list (host:, url:, page: patterns) beside an index",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<BlockCommand>();
      auto action = std::make_shared<int>(0);
      app.require_subcommand(1);
      auto* add = app.add_subcommand("add", "Add patterns");
      auto* remove = app.add_subcommand("remove", "Remove patterns");
      auto* list = app.add_subcommand("list", "Print the patterns");
      for (auto* sub : {add, remove, list})
        sub->add_option("-i,--index", cmd->index, "index folder (default .)");
      add->add_option("patterns", cmd->patterns, "host:H | url:PREFIX | page:PREFIX")->required();
      remove->add_option("patterns", cmd->patterns, "patterns to remove")->required();
      add->callback([action] { *action = 1; });
      remove->callback([action] { *action = 2; });
      list->callback([action] { *action = 3; });
      return [cmd, action] {
        if (*action == 1 || *action == 2) return change(*cmd, *action == 1);
        const auto list_file = analyze::BlockList::load(index::blocklist_file(cmd->index));
        for (const auto& p : list_file.patterns()) std::cout << p.to_string() << '\n';
        return exit_code::ok;
      };
    });

}  // namespace
}  // namespace strata
