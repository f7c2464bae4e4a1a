// strata: image search for web archives. See README.md for the command reference.
#include <map>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"
#include "core/progress.hpp"

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

void apply_global_flags(const GlobalFlags& flags) {
  if (flags.verbosity == 1) log::set_level(log::Level::info);
  if (flags.verbosity >= 2) log::set_level(log::Level::debug);
  if (flags.verbosity >= 1) set_progress_display(ProgressDisplay::terminal_or_log);
  if (flags.quiet) {
    log::set_level(log::Level::error);
    set_progress_display(ProgressDisplay::off);
  }
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
  // Global flags: fallthrough lets every subcommand pass them up, so they work anywhere.
  app.fallthrough();
  auto& flags = cli::global_flags();
  app.add_flag("-v,--verbose", flags.verbosity,
               "More log output (-vv for debug; JSON lines on stderr) and progress lines when "
               "stderr is not a terminal");
  app.add_flag("--json", flags.json, "Print the final report as one JSON object on stdout");
  app.add_flag("-q,--quiet", flags.quiet, "No progress, no report tables, error logs only");

  std::map<CLI::App*, cli::Runner> runners;
  for (auto& [name, entry] : cli::registry()) {
    CLI::App* sub = app.add_subcommand(name, entry.description);
    sub->footer("Global flags, before or after the subcommand: -v/-vv, --json, -q/--quiet");
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
  cli::apply_global_flags(flags);
  for (auto& [sub, runner] : runners)
    if (sub->parsed()) return runner();
  return exit_code::usage;
}
