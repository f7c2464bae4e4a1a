// `strata cdx [-o OUT] FILE...`: a CDXJ index for pywb of the given archives, the same lines
// `cdxj-indexer --sort` writes (sorted bytewise over all inputs, duplicates dropped).
#include <fstream>
#include <iostream>
#include <memory>

#include "cdx/cdxj.hpp"
#include "cdx/index_file.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/inputs.hpp"

namespace {

struct Options {
  std::vector<std::string> files;
  std::string output;
};

int write_lines(const std::vector<std::string>& lines, const std::string& output) {
  std::ofstream file;
  if (!output.empty()) {
    file.open(output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "cannot write " << output << '\n';
      return strata::exit_code::failure;
    }
  }
  std::ostream& out = output.empty() ? std::cout : file;
  for (const auto& line : lines) out << line << '\n';
  out.flush();
  return out ? strata::exit_code::ok : strata::exit_code::failure;
}

int run(const Options& opts) {
  strata::ProblemLog log;
  auto paths = strata::expand_inputs(opts.files, log.sink());
  std::vector<std::string> lines;
  for (const auto& path : paths) {
    auto file_lines = strata::cdx::index_file(path, log.sink());
    lines.insert(lines.end(), file_lines.begin(), file_lines.end());
  }
  strata::cdx::sort_lines(lines);
  if (int rc = write_lines(lines, opts.output); rc != strata::exit_code::ok) return rc;
  // stdout may carry the index: the report goes to stderr.
  strata::cli::print_report({{"lines", lines.size()}, {"problems", strata::problems_json(log, 0)}},
                            {}, std::cerr);
  if (paths.empty()) return strata::exit_code::no_input;
  return log.total() > 0 ? strata::exit_code::input_problems : strata::exit_code::ok;
}

const bool registered = strata::cli::register_command(
    "cdx", "Write a sorted CDXJ index (pywb / cdxj-indexer format)",
    [](CLI::App& app) -> strata::cli::Runner {
      auto opts = std::make_shared<Options>();
      app.add_option("files", opts->files, "archive files, folders or @lists")->required();
      app.add_option("-o,--output", opts->output, "output file (default: stdout)");
      return [opts] { return run(*opts); };
    });

}  // namespace
