#include "cmd_analyze_options.hpp"

#include <iostream>

#include "analyze/run.hpp"
#include "core/exit_codes.hpp"
#include "index/archive_registry.hpp"
#include "index/moderation.hpp"

namespace strata {
namespace {

// Where the index in `dir` (if any) says archives are now, for documents it registered.
std::function<std::optional<archive::ArchiveEntry>(const std::string&)> registry_of(
    const std::filesystem::path& dir) {
  if (!index::index_exists(dir)) return {};
  try {
    auto db = std::make_shared<Xapian::Database>(dir.string());
    return [db](const std::string& key) { return index::registered_archive(*db, key); };
  } catch (const Xapian::Error&) {
    return {};  // unreadable now: archives are read at their keys' paths
  }
}

}  // namespace

void add_analysis_options(CLI::App& app, AnalysisOptions& o, bool skippable) {
  if (skippable)
    app.add_flag("--no-analysis", o.skip,
                 "skip image analysis (images stay hidden under safe search until analysed)");
  app.add_flag("--no-nsfw", o.no_nsfw, "skip NSFW classification (thumbnails and pHash only)");
  app.add_option("--model", o.model, "mobilenet_v2 (default), mobilenet_v2_mid or inception_v3");
  app.add_option("--models", o.models,
                 "models/nsfwjs folder (default: $STRATA_MODELS, else found from the working "
                 "folder)");
  app.add_option("--archive-root", o.archive_roots,
                 "folder to look for archives under when they are no longer where they were "
                 "extracted (repeatable)");
  app.add_option("--max-pixels", o.max_pixels,
                 "refuse images declaring more pixels (default 15000x15000)");
  // Before the command does any work: a run that cannot classify would leave every image
  // hidden under safe search.
  app.parse_complete_callback([&app, &o, skippable] {
    if (o.skip || o.no_nsfw || analyze::nsfw_model_dir(o.models, o.model)) return;
    std::cerr << "strata " << app.get_name() << ": "
              << analyze::missing_model_message(o.models, o.model)
              << (skippable ? " --no-analysis indexes without analysing at all.\n" : "\n");
    throw CLI::RuntimeError(exit_code::failure);
  });
}

bool run_analysis_step(const AnalysisOptions& o, const std::filesystem::path& documents,
                       const std::filesystem::path& index_dir, unsigned jobs, Progress* progress,
                       Json& report) {
  if (o.skip) {
    report["analysis"] = "skipped";
    return true;
  }
  analyze::RunOptions options;
  options.documents = documents;
  options.out = index_dir;
  options.archive_roots.assign(o.archive_roots.begin(), o.archive_roots.end());
  options.registered = registry_of(index_dir);
  options.models = o.models;
  options.model_variant = o.model;
  options.classify = !o.no_nsfw;
  options.max_pixels = o.max_pixels;
  options.jobs = jobs;
  options.progress = progress;
  try {
    const Counters counters = analyze::run_analysis(options);
    report["analysis"] = counters.to_json();
    if (counters.get("model_missing"))
      std::cerr << "NSFW model not found (run scripts/setup-npm or pass --models): images stay "
                   "hidden under safe search\n";
    return true;
  } catch (const std::exception& e) {
    std::cerr << "analysis failed: " << e.what() << '\n';
    return false;
  }
}

bool refresh_existing_index(const std::filesystem::path& dir) {
  if (!index::index_exists(dir)) return true;
  try {
    std::cerr << "index documents updated: " << index::refresh_index(dir) << '\n';
    return true;
  } catch (const std::exception& e) {
    std::cerr << "cannot update the index in " << dir << " (" << e.what()
              << "); the change is saved and reaches it at the next strata index\n";
    return false;
  }
}

}  // namespace strata
