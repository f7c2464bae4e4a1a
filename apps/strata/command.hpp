#pragma once
// Subcommands register themselves from their own cmd_<name>.cpp, so adding a command never
// touches main.cpp:
//
//   static const bool registered = strata::cli::register_command(
//       "records", "Print one line per archive record",
//       [](CLI::App& app) -> strata::cli::Runner {
//         auto opts = std::make_shared<Options>();
//         app.add_option("files", opts->files)->required();
//         cli::add_size_option(app, "--memory", opts->memory, "Bytes held in memory");
//         return [opts] { return run(*opts); };   // returns an exit code
//       });
//
// Output, the same for every command:
//   - Global flags are parsed by main.cpp, before or after the subcommand: -v / -vv (logs),
//     --json, --quiet. Commands read them from global_flags() and add no flags of these names.
//   - Long steps show a strata::Progress (core/progress.hpp) on stderr; --quiet and -v
//     choose where it goes, the command does nothing for that.
//   - The final report is one Json object, built as the run goes (counters as objects,
//     problems as problems_json(), row lists as arrays of objects) and printed once at the
//     end with print_report(): aligned tables for people (core/report.hpp), or the whole
//     object as JSON with --json. A report long for a terminal names the members its tables
//     show; --json still gives them all.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "core/json.hpp"

namespace strata::cli {

using Runner = std::function<int()>;
using Setup = std::function<Runner(CLI::App&)>;

bool register_command(std::string name, std::string description, Setup setup);

struct GlobalFlags {
  int verbosity = 0;   // -v: 1, -vv: 2
  bool json = false;   // --json: the final report as one JSON object
  bool quiet = false;  // --quiet: no progress, no report tables, error logs only
};
// Set by main.cpp from the command line before the command runs.
GlobalFlags& global_flags();

// Prints the final report: with --json as one JSON object, else (unless --quiet) as tables of
// the members named in `text_members` (all when empty). On stdout, or stderr for commands
// whose stdout carries data (records, cdx).
void print_report(const Json& report, const std::vector<std::string>& text_members = {},
                  std::ostream& out = std::cout);

// An option holding a byte size: plain bytes or with a unit (1G, 512M, 64K, 1.5G, 1GiB;
// core/size.hpp); anything else is a usage error naming the option and the accepted forms.
CLI::Option* add_size_option(CLI::App& app, const std::string& name, uint64_t& bytes,
                             const std::string& description);

}  // namespace strata::cli
