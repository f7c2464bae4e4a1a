// `strata compact --index DIR --out NEWDIR`: writes a compacted copy of an index (after a bulk
// load the tables shrink by about 30 %); --serving also drops the termlist table (a read-only
// copy to serve). Swap the folders while no server uses them.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "index/compact.hpp"

namespace strata {
namespace {

struct CompactCommand {
  std::string index, out;
  bool serving = false;
};

int run(const CompactCommand& cmd) {
  try {
    const index::CompactReport r = index::compact_index(
        cmd.index, cmd.out, cmd.serving ? index::CompactMode::serving : index::CompactMode::full);
    cli::print_report({{"documents", r.documents},
                       {"out", cmd.out},
                       {"table bytes before", r.bytes_before},
                       {"table bytes after", r.bytes_after}});
    return exit_code::ok;
  } catch (const std::exception& e) {
    std::cerr << "strata compact: " << e.what() << '\n';
    return exit_code::failure;
  }
}

const bool registered = cli::register_command(
    "compact", "Write a compacted copy of an index (smaller, same content)",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<CompactCommand>();
      app.add_option("-i,--index", cmd->index, "index folder")->required();
      app.add_option("-o,--out", cmd->out, "new folder for the compacted copy (must not exist)")
          ->required();
      app.add_flag("--serving", cmd->serving,
                   "read-only serving copy without the termlist table (writers refuse it)");
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
