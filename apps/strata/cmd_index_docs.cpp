// strata index-docs: builds or extends an index from merged-document JSONL.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"
#include "index/index_documents.hpp"

namespace {

int run_index_docs(const strata::index::IndexOptions& opts) {
  strata::index::IndexStats s;
  try {
    s = strata::index::index_documents(opts);
  } catch (const std::exception& e) {
    strata::log::error("index.failed", {{"message", e.what()}});
    return strata::exit_code::failure;
  }
  std::cout << strata::index::to_json(s).dump() << "\n";
  if (s.bad_inputs == opts.inputs.size() && !opts.inputs.empty())
    return strata::exit_code::no_input;
  if (s.bad_lines || s.bad_inputs) return strata::exit_code::input_problems;
  return strata::exit_code::ok;
}

const bool registered = strata::cli::register_command(
    "index-docs", "Index merged image documents (JSONL) into a search index",
    [](CLI::App& app) -> strata::cli::Runner {
      auto opts = std::make_shared<strata::index::IndexOptions>();
      app.add_option("--index", opts->index_dir, "Index folder (created if missing)")->required();
      app.add_option("--collection", opts->collection, "Collection name added to every document")
          ->required();
      app.add_option("docs", opts->inputs, "Merged documents (JSONL)")->required();
      return [opts] { return run_index_docs(*opts); };
    });

}  // namespace
