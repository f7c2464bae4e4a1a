// `strata records FILE...`: one line per archive record (type, date, URI, mime, status,
// offset, length, payload digest), counters per file on stderr, problems with file:offset.
#include <iostream>
#include <memory>

#include "archive/reader.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/inputs.hpp"

namespace {

struct Options {
  std::vector<std::string> files;
  bool problems = false;
};

std::string_view or_dash(std::string_view s) {
  return s.empty() ? "-" : s;
}

void print_record(const strata::archive::Record& r) {
  std::string_view mime = r.http.present && !r.http.mime.empty() ? r.http.mime : r.content_type;
  std::cout << strata::archive::to_string(r.type) << ' ' << or_dash(r.date) << ' '
            << or_dash(r.target_uri) << ' ' << or_dash(mime) << ' '
            << (r.http.status ? std::to_string(r.http.status) : "-") << ' ' << r.location() << ' '
            << r.length << ' ' << or_dash(r.payload_digest) << '\n';
}

int run(const Options& opts) {
  strata::ProblemLog log;
  auto paths = strata::expand_inputs(opts.files, log.sink());
  size_t unusable = 0;
  strata::Json files = strata::Json::object();
  for (const auto& path : paths) {
    auto reader = strata::archive::ArchiveReader::open(path, {}, log.sink());
    while (reader->next()) {
      reader->finish_record();  // settles Record::length for big records
      print_record(reader->record());
    }
    if (!reader->usable()) ++unusable;
    files[path.string()] = reader->counters().to_json();
  }
  std::cout.flush();
  const size_t problem_lines = opts.problems ? SIZE_MAX : 0;
  // stdout carries the records: the report goes to stderr.
  strata::cli::print_report(
      {{"files", files}, {"problems", strata::problems_json(log, problem_lines)}}, {}, std::cerr);
  if (paths.empty() || unusable == paths.size()) return strata::exit_code::no_input;
  return log.total() > 0 ? strata::exit_code::input_problems : strata::exit_code::ok;
}

const bool registered = strata::cli::register_command(
    "records", "Print one line per archive record", [](CLI::App& app) -> strata::cli::Runner {
      auto opts = std::make_shared<Options>();
      app.add_option("files", opts->files, "archive files, folders or @lists")->required();
      app.add_flag("--problems", opts->problems, "print every problem found");
      return [opts] { return run(*opts); };
    });

}  // namespace
