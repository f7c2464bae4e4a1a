// `strata compact --index DIR --out NEWDIR`: writes a compacted copy of an index (after a bulk
// load the tables shrink by about 30 %); --serving also drops the termlist table (a read-only
// copy to serve). Swap the folders while no server uses them.
#include <cstdio>
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
    std::fprintf(stderr, "compacted %llu documents into %s: %.1f MB -> %.1f MB of tables\n",
                 static_cast<unsigned long long>(r.documents), cmd.out.c_str(),
                 static_cast<double>(r.bytes_before) / 1e6,
                 static_cast<double>(r.bytes_after) / 1e6);
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
