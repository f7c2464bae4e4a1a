// `strata analyze`: thumbnails, perceptual hashes and NSFW scores for every new image digest
// of a documents.jsonl (docs/analysis.md).
#include <exception>
#include <iostream>
#include <memory>

#include "analyze/run.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"

namespace strata {
namespace {

struct AnalyzeCommand {
  std::string documents, out, archive_root, models, model;
  bool no_nsfw = false;
  uint64_t max_pixels = 0;
};

int run(const AnalyzeCommand& cmd) {
  analyze::RunOptions options;
  options.documents = cmd.documents;
  options.out = cmd.out;
  options.archive_root = cmd.archive_root;
  options.models = cmd.models;
  options.model_variant = cmd.model;
  options.classify = !cmd.no_nsfw;
  options.max_pixels = cmd.max_pixels;
  try {
    const Counters counters = analyze::run_analysis(options);
    std::cerr << "analyze:\n" << counters.to_text();
    if (counters.get("model_missing"))
      std::cerr << "NSFW model not found (run scripts/setup-npm or pass --models): images stay "
                   "hidden under safe search\n";
    const bool problems = counters.get("bytes_missing") || counters.get("documents_invalid") ||
                          counters.get("decode_corrupt") || counters.get("decode_unsupported") ||
                          counters.get("decode_too_large");
    return problems ? exit_code::input_problems : exit_code::ok;
  } catch (const std::exception& e) {
    std::cerr << "strata analyze: " << e.what() << '\n';
    return exit_code::failure;
  }
}

const bool registered = cli::register_command(
    "analyze", "Thumbnails, pHash and NSFW scores for each new image digest",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<AnalyzeCommand>();
      app.add_option("-d,--documents", cmd->documents, "documents.jsonl from strata merge")
          ->required();
      app.add_option("-o,--out", cmd->out, "index folder: analysis.jsonl and thumbs/ go here")
          ->required();
      app.add_option("--archive-root", cmd->archive_root,
                     "folder that relative imgFile paths are under");
      app.add_option("--models", cmd->models,
                     "models/nsfwjs folder (default: found from the working folder)");
      app.add_option("--model", cmd->model,
                     "mobilenet_v2 (default), mobilenet_v2_mid or inception_v3");
      app.add_flag("--no-nsfw", cmd->no_nsfw, "skip NSFW classification");
      app.add_option("--max-pixels", cmd->max_pixels,
                     "refuse images declaring more pixels (default 15000x15000)");
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
