#pragma once
// Subcommands register themselves from their own cmd_<name>.cpp, so adding a command never
// touches main.cpp:
//
//   static const bool registered = strata::cli::register_command(
//       "records", "Print one line per archive record",
//       [](CLI::App& app) -> strata::cli::Runner {
//         auto opts = std::make_shared<Options>();
//         app.add_option("files", opts->files)->required();
//         return [opts] { return run(*opts); };   // returns an exit code
//       });
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace strata::cli {

using Runner = std::function<int()>;
using Setup = std::function<Runner(CLI::App&)>;

bool register_command(std::string name, std::string description, Setup setup);

}  // namespace strata::cli
