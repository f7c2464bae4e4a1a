// `strata safe-search-eval`: false positives and recall of safe search on a labelled image
// set (analyze/safe_set.hpp; the team's set is bench/analyze/safe_search_set.tsv), for the
// shipped policy, Arquivo's rule, and the policy with one threshold moved at a time
// (docs/analysis.md, "Safe search calibration").
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <unistd.h>

#include "analyze/run.hpp"
#include "analyze/safe_eval.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/table.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;
using namespace analyze;

struct EvalCommand {
  std::vector<std::string> sets;
  std::string data = "../shared";
  std::string models, model;
  std::string thumbs, scores;
  std::vector<std::string> samples;
  SafePolicy policy = kSafePolicy;
};

std::string percent(int64_t part, int64_t whole) {
  return whole ? format_number(100.0 * double(part) / double(whole)) + " %" : "-";
}

Json rule_row(const std::string& name, const SafeSetResult& r) {
  return Json{{"rule", name},
              {"falsePositives", r.must_show.hidden},
              {"fpRate", percent(r.must_show.hidden, r.must_show.images)},
              {"hiddenUnsafe", r.should_hide.hidden},
              {"recall", percent(r.should_hide.hidden, r.should_hide.images)}};
}

std::string policy_name(const SafePolicy& p) {
  return "p+h>=" + format_number(p.explicit_min) + " or p+h+s>=" + format_number(p.with_sexy_min) +
         "; detail>=" + format_number(p.min_detail) + ", side>=" + std::to_string(p.min_side);
}

// The policy with one setting moved at a time.
Json sweep(const std::vector<ScoredImage>& images, const SafePolicy& base) {
  Json rows = Json::array();
  const auto add = [&](const SafePolicy& p) {
    rows.push_back(rule_row(policy_name(p), evaluate_safe_set(images, [p](const auto& in) {
                              return hidden_by_safe_search(in, p);
                            })));
  };
  SafePolicy p = base;
  for (float t : {0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 0.95f, 0.99f}) {
    p.explicit_min = t;
    add(p);
  }
  p = base;
  for (float t : {0.6f, 0.7f, 0.8f, 0.95f, 1.01f}) {
    p.with_sexy_min = t;
    add(p);
  }
  p = base;
  for (float d : {0.0f, 0.01f, 0.05f}) {
    p.min_detail = d;
    add(p);
  }
  p = base;
  for (int side : {0, 32, 64}) {
    p.min_side = side;
    add(p);
  }
  return rows;
}

Json label_rows(const std::vector<ScoredImage>& images, const SafePolicy& policy) {
  const SafeSetResult now = evaluate_safe_set(
      images, [policy](const auto& in) { return hidden_by_safe_search(in, policy); });
  const SafeSetResult arquivo = evaluate_safe_set(images, arquivo_hides);
  Json rows = Json::array();
  for (const auto& [label, tally] : now.labels)
    rows.push_back(Json{{"label", label},
                        {"images", tally.images},
                        {"hidden", tally.hidden},
                        {"hiddenByArquivoRule", arquivo.labels.at(label).hidden}});
  return rows;
}

void write_scores(const fs::path& file, const std::vector<ScoredImage>& images,
                  const SafePolicy& policy) {
  std::ofstream out(file);
  out << "source\titem\tlabel\tdigest\tthumbnail\tdrawing\thentai\tneutral\tporn\tsexy\tdetail"
         "\tarquivo_nsfw\tsafe_search_score\thidden\tnote\n";
  for (const ScoredImage& s : images) {
    out << s.row.source << '\t' << s.row.item << '\t' << s.row.label << '\t' << s.record.digest
        << '\t' << s.record.thumbnail;
    if (s.record.nsfw) {
      const SafeSearchInput in = safe_search_input(s.record);
      for (float p : in.scores.p) out << '\t' << p;
      out << '\t' << in.detail.value_or(-1) << '\t' << in.scores.nsfw() << '\t'
          << safe_search_score(in, policy) << '\t' << hidden_by_safe_search(in, policy);
    } else {
      out << std::string(9, '\t') << "unclassified: " << to_string(s.record.status);
    }
    out << '\t' << s.row.note << '\n';
  }
}

// `strata sample` pictures are synthetic shapes on gradients: all must stay visible.
void append_sample_rows(const fs::path& folder, std::vector<SafeSetRow>& rows) {
  for (const auto& entry :
       fs::recursive_directory_iterator(folder, fs::directory_options::follow_directory_symlink))
    if (entry.is_regular_file() && entry.path().string().ends_with(".warc.gz"))
      rows.push_back({entry.path().string(), "*", "graphic", "strata sample", 0});
}

int run(const EvalCommand& cmd) {
  const auto model_dir = nsfw_model_dir(cmd.models, cmd.model);
  if (!model_dir) {
    std::cerr << missing_model_message(cmd.models, cmd.model) << '\n';
    return exit_code::failure;
  }
  std::vector<std::string> errors;
  std::vector<SafeSetRow> rows;
  for (const auto& set : cmd.sets)
    for (SafeSetRow& row : read_safe_set(set, errors)) rows.push_back(std::move(row));
  for (const auto& sample : cmd.samples) append_sample_rows(sample, rows);
  const fs::path thumbs = cmd.thumbs.empty() ? fs::temp_directory_path() /
                                                   ("strata-safe-eval-" + std::to_string(getpid()))
                                             : fs::path(cmd.thumbs);
  NsfwClassifier classifier(*model_dir);
  const ThumbnailStore store(thumbs);
  AnalyzerOptions options;
  options.phash = false;
  if (!cmd.model.empty()) options.model_variant = cmd.model;
  Analyzer analyzer(options, store, &classifier);
  ScoredSet scored = score_safe_set(rows, cmd.data, analyzer);
  if (cmd.thumbs.empty()) fs::remove_all(thumbs);
  for (auto& e : scored.errors) errors.push_back(std::move(e));
  if (!cmd.scores.empty()) write_scores(cmd.scores, scored.images, cmd.policy);

  const SafeSetResult now = evaluate_safe_set(
      scored.images, [p = cmd.policy](const auto& in) { return hidden_by_safe_search(in, p); });
  Json report;
  report["images"] = int64_t(scored.images.size());
  report["duplicatesCountedOnce"] = scored.duplicates;
  report["unclassified"] = now.unclassified;
  report["labels"] = label_rows(scored.images, cmd.policy);
  Json rules = Json::array();
  rules.push_back(rule_row("policy: " + policy_name(cmd.policy), now));
  rules.push_back(rule_row("Arquivo: p+h>0.49 (0.51 when above neutral, drawing)",
                           evaluate_safe_set(scored.images, arquivo_hides)));
  report["rules"] = rules;
  report["sweep"] = sweep(scored.images, cmd.policy);
  if (!errors.empty()) report["problems"] = errors;
  cli::print_report(report);
  if (scored.images.empty()) return exit_code::no_input;
  return errors.empty() ? exit_code::ok : exit_code::input_problems;
}

const bool registered = cli::register_command(
    "safe-search-eval", "False positives and recall of safe search on a labelled image set",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<EvalCommand>();
      app.add_option("--set", cmd->sets, "labelled set (TSV: source, item, label, note)")
          ->required();
      app.add_option("--data", cmd->data, "folder the sources are relative to")
          ->capture_default_str();
      app.add_option("--models", cmd->models, "models/nsfwjs folder (default: found)");
      app.add_option("--model", cmd->model, "model variant (default mobilenet_v2)");
      app.add_option("--sample", cmd->samples,
                     "a `strata sample` folder: all its images count as graphics");
      app.add_option("--thumbs", cmd->thumbs, "keep the thumbnails in this folder");
      app.add_option("--scores", cmd->scores, "write every image's scores here (TSV)");
      app.add_option("--explicit-min", cmd->policy.explicit_min, "porn+hentai that hides")
          ->capture_default_str();
      app.add_option("--with-sexy-min", cmd->policy.with_sexy_min, "porn+hentai+sexy that hides")
          ->capture_default_str();
      app.add_option("--min-detail", cmd->policy.min_detail, "detail below which nothing hides")
          ->capture_default_str();
      app.add_option("--min-side", cmd->policy.min_side, "longer side below which nothing hides")
          ->capture_default_str();
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
