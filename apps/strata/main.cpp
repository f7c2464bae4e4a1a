// strata: image search for web archives. See README.md for the command reference.
#include <map>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"

namespace strata::cli {
namespace {

struct Entry {
  std::string description;
  Setup setup;
};

std::map<std::string, Entry>& registry() {
  static std::map<std::string, Entry> commands;
  return commands;
}

}  // namespace

bool register_command(std::string name, std::string description, Setup setup) {
  registry().emplace(std::move(name), Entry{std::move(description), std::move(setup)});
  return true;
}

}  // namespace strata::cli

int main(int argc, char** argv) {
  using namespace strata;
  CLI::App app{"strata: an image search engine for web archives (WARC, ARC, WACZ)", "strata"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "strata 0.1.0");
  int verbosity = 0;
  app.add_flag("-v,--verbose", verbosity,
               "More log output (repeat for debug); logs are JSON lines on stderr");

  std::map<CLI::App*, cli::Runner> runners;
  for (auto& [name, entry] : cli::registry()) {
    CLI::App* sub = app.add_subcommand(name, entry.description);
    runners[sub] = entry.setup(*sub);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // an option check that has said why (e.g. no NSFW model)
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? exit_code::ok : exit_code::usage;
  }
  if (verbosity == 1) log::set_level(log::Level::info);
  if (verbosity >= 2) log::set_level(log::Level::debug);
  for (auto& [sub, runner] : runners)
    if (sub->parsed()) return runner();
  return exit_code::usage;
}
