#include "analyze/run.hpp"

#include <fstream>
#include <memory>
#include <stdexcept>

#include "analyze/analyzer.hpp"
#include "archive/reader.hpp"
#include "core/json.hpp"
#include "core/log.hpp"

namespace strata::analyze {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<NsfwClassifier> open_classifier(const RunOptions& o, std::string& variant,
                                                Counters& counters) {
  if (!o.classify) return nullptr;
  const auto root = o.models.empty() ? find_nsfw_models() : std::optional<fs::path>(o.models);
  variant = o.model_variant.empty() ? kDefaultNsfwModel : o.model_variant;
  if (!root || !fs::exists(*root / variant / "model.json")) {
    counters.add("model_missing");
    return nullptr;
  }
  return std::make_unique<NsfwClassifier>(*root / variant);
}

// The image's bytes from its archive record; empty when unavailable.
std::string fetch_bytes(const RunOptions& o, const Json& doc) {
  std::string file = doc.value("imgFile", "");
  if (file.empty()) return {};
  if (!o.archive_root.empty() && fs::path(file).is_relative())
    file = (o.archive_root / file).string();
  auto reader =
      archive::read_record_at(file, doc.value("imgOffset", uint64_t{0}), {}, [](const auto&...) {});
  std::string payload;
  if (!reader || reader->read_payload(payload) != archive::PayloadStatus::ok) return {};
  return payload;
}

}  // namespace

std::set<std::string> analysed_digests(const fs::path& analysis_jsonl) {
  std::set<std::string> digests;
  std::ifstream in(analysis_jsonl);
  std::string line;
  while (std::getline(in, line)) {
    const Json j = Json::parse(line, nullptr, false);  // a torn last line is skipped
    if (j.is_object() && j.contains("digest") && j["digest"].is_string())
      digests.insert(j["digest"].get<std::string>());
  }
  return digests;
}

Counters run_analysis(const RunOptions& o) {
  std::ifstream docs(o.documents);
  if (!docs) throw std::runtime_error("cannot read " + o.documents.string());
  fs::create_directories(o.out);
  const fs::path analysis = o.out / "analysis.jsonl";
  std::set<std::string> done = analysed_digests(analysis);
  std::ofstream out(analysis, std::ios::app);
  Counters counters;
  std::string variant;
  auto classifier = open_classifier(o, variant, counters);
  AnalyzerOptions options;
  options.model_variant = variant;
  if (o.max_pixels) options.thumbnails.limits.max_pixels = o.max_pixels;
  const ThumbnailStore store(o.out / "thumbs");
  Analyzer analyzer(options, store, classifier.get());
  std::string line;
  while (std::getline(docs, line)) {
    const Json doc = Json::parse(line, nullptr, false);
    const std::string digest = doc.is_object() ? doc.value("imgDigest", "") : "";
    if (!ThumbnailStore::valid_digest(digest)) {
      counters.add("documents_invalid");
      continue;
    }
    counters.add("documents");
    if (!done.insert(digest).second) {
      counters.add("already_analysed");
      continue;
    }
    const std::string bytes = fetch_bytes(o, doc);
    AnalysisRecord record;
    if (bytes.empty()) {
      record.digest = digest;
      record.missing_bytes = true;
      counters.add("bytes_missing");
    } else {
      record = analyzer.analyze(digest, bytes);
    }
    out << to_json(record).dump() << '\n';
    out.flush();
  }
  counters.merge(analyzer.counters());
  return counters;
}

}  // namespace strata::analyze
