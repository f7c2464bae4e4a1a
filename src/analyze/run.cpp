#include "analyze/run.hpp"

#include <opencv2/core.hpp>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "analyze/analysis_lines.hpp"
#include "analyze/analyzer.hpp"
#include "core/json.hpp"

namespace strata::analyze {
namespace {

namespace fs = std::filesystem;

// Images analysed between two waits for the workers: bounds the memory of a run.
constexpr size_t kChunk = 512;

struct Job {
  std::string digest, file, url;  // file: where to read (resolved); url "" = not checked
  uint64_t offset = 0;
  std::string error;            // why the archive could not be located
  bool missing_before = false;  // analysis.jsonl says so already: not written again
};

std::unique_ptr<NsfwClassifier> open_classifier(const RunOptions& o, const std::string& variant) {
  if (!o.classify) return nullptr;
  const auto dir = nsfw_model_dir(o.models, variant);
  return dir ? std::make_unique<NsfwClassifier>(*dir) : nullptr;
}

// The job of one document: where its image record is now (see RunOptions::archive_roots).
Job locate_job(const RunOptions& o, const std::vector<fs::path>& roots, const Json& doc,
               const std::string& digest) {
  Job job;
  job.digest = digest;
  job.offset = doc.value("imgOffset", uint64_t{0});
  const std::string key = doc.value("imgFile", "");
  if (key.empty()) return job;
  // An inline (data:) image's location is its page's record, another URL.
  if (!doc.value("isInline", false)) job.url = doc.value("imgUrl", "");
  std::optional<archive::ArchiveEntry> entry = o.registered ? o.registered(key) : std::nullopt;
  if (!entry) {
    entry.emplace();
    entry->key = key;
    entry->path = archive::container_of(key);
  }
  const archive::Located located = archive::locate_archive(*entry, roots);
  job.file = located.file;
  job.error = located.error;
  return job;
}

// The image's bytes from its archive record; empty when unavailable (counted).
std::string fetch_bytes(const Job& job, Counters& counters) {
  if (job.file.empty()) {
    counters.add(job.error.rfind("archive changed", 0) == 0 ? "archives_changed"
                                                            : "archives_missing");
    return {};
  }
  archive::CheckedRecord checked = archive::read_checked_record(job.file, job.offset, job.url);
  std::string payload;
  if (!checked.reader) {
    counters.add(checked.error.rfind("archive changed", 0) == 0 ? "records_not_the_image"
                                                                : "records_unreadable");
    return {};
  }
  if (checked.reader->read_payload(payload) != archive::PayloadStatus::ok) return {};
  return payload;
}

// One Analyzer (and classifier: not thread-safe) per worker thread.
struct Worker {
  std::unique_ptr<NsfwClassifier> classifier;
  std::unique_ptr<Analyzer> analyzer;
  Counters counters;
};

class Pool {
 public:
  Pool(const RunOptions& o, const std::string& variant, const ThumbnailStore& store,
       std::ofstream& out)
      : out_(out), progress_(o.progress) {
    AnalyzerOptions options;
    options.model_variant = variant;
    if (o.max_pixels) options.thumbnails.limits.max_pixels = o.max_pixels;
    const unsigned jobs = std::max(1u, o.jobs);
    for (unsigned i = 0; i < jobs; ++i) {
      auto w = std::make_unique<Worker>();
      w->classifier = open_classifier(o, variant);
      w->analyzer = std::make_unique<Analyzer>(options, store, w->classifier.get());
      workers_.push_back(std::move(w));
    }
  }
  bool classifies() const { return workers_.front()->classifier != nullptr; }

  // Analyses the jobs on all workers; lines go to analysis.jsonl as they finish.
  void run(const std::vector<Job>& jobs) {
    std::atomic<size_t> next{0};
    std::vector<std::thread> threads;
    for (auto& w : workers_)
      threads.emplace_back([&, worker = w.get()] {
        for (size_t i = next++; i < jobs.size(); i = next++) analyze_one(*worker, jobs[i]);
      });
    for (auto& t : threads) t.join();
  }

  Counters counters() const {
    Counters all;
    for (const auto& w : workers_) {
      all.merge(w->counters);
      all.merge(w->analyzer->counters());
    }
    return all;
  }

 private:
  void analyze_one(Worker& w, const Job& job) {
    const std::string bytes = fetch_bytes(job, w.counters);
    AnalysisRecord record;
    if (bytes.empty()) {
      record.digest = job.digest;
      record.missing_bytes = true;
      w.counters.add("bytes_missing");
      if (job.missing_before) return;
    } else {
      record = w.analyzer->analyze(job.digest, bytes);
    }
    const std::string line = to_json(record).dump() + '\n';
    std::lock_guard lock(mutex_);
    out_ << line;
    out_.flush();  // the cache stays valid when a run is killed
    if (progress_) progress_->advance(1);
  }

  std::vector<std::unique_ptr<Worker>> workers_;
  std::ofstream& out_;
  Progress* progress_;
  std::mutex mutex_;
};

// The document's image digest; "" when it has none that is valid.
std::string digest_of(const Json& doc) {
  const std::string digest = doc.is_object() ? doc.value("imgDigest", "") : "";
  return ThumbnailStore::valid_digest(digest) ? digest : "";
}

// The distinct valid image digests of `documents`.
std::set<std::string> document_digests(const fs::path& documents) {
  std::ifstream in(documents);
  std::set<std::string> digests;
  std::string line;
  while (std::getline(in, line))
    if (auto digest = digest_of(Json::parse(line, nullptr, false)); !digest.empty())
      digests.insert(std::move(digest));
  return digests;
}

}  // namespace

std::optional<fs::path> nsfw_model_dir(const fs::path& models, const std::string& variant) {
  const auto root = models.empty() ? find_nsfw_models() : std::optional<fs::path>(models);
  if (!root) return std::nullopt;
  const fs::path dir = *root / (variant.empty() ? kDefaultNsfwModel : variant);
  std::error_code ec;
  return fs::is_regular_file(dir / "model.json", ec) ? std::optional(dir) : std::nullopt;
}

std::string missing_model_message(const fs::path& models, const std::string& variant) {
  const std::string name = variant.empty() ? kDefaultNsfwModel : variant;
  const std::string where =
      models.empty() ? "models/nsfwjs (looked in $STRATA_MODELS and above the working and "
                       "program folders)"
                     : models.string();
  return "no NSFW model " + name + " in " + where +
         ": without it no image is classified and safe search (the default) hides every "
         "image. Install it with scripts/setup-npm (Node.js and npm: scripts/setup installs "
         "them), point --models at a models/nsfwjs folder, or pass --no-nsfw to analyse "
         "without classifying.";
}

AnalysedDigests analysed_digests(const fs::path& analysis_jsonl,
                                 const std::set<std::string>* only) {
  AnalysedDigests digests;
  auto take = [&](std::string_view line) {
    const Json j = Json::parse(line, nullptr, false);  // a torn last line is skipped
    if (!j.is_object() || !j.contains("digest") || !j["digest"].is_string()) return;
    const bool missing = j.value("status", "") == "missing";
    (missing ? digests.missing : digests.done).insert(j["digest"].get<std::string>());
  };
  if (only) {  // only the lines of these digests are read (analysis_lines.hpp)
    for_each_analysis_line(analysis_jsonl, {only->begin(), only->end()}, take);
  } else {
    std::ifstream in(analysis_jsonl);
    for (std::string line; std::getline(in, line);) take(line);
  }
  for (const auto& d : digests.done) digests.missing.erase(d);
  return digests;
}

Counters run_analysis(const RunOptions& o) {
  std::ifstream docs(o.documents);
  if (!docs) throw std::runtime_error("cannot read " + o.documents.string());
  fs::create_directories(o.out);
  const fs::path analysis = o.out / "analysis.jsonl";
  // Only the documents' digests are looked up: the cache of a big index is not read into
  // memory, nor its lines parsed, on every add.
  const std::set<std::string> wanted = document_digests(o.documents);
  AnalysedDigests cache = analysed_digests(analysis, &wanted);
  std::set<std::string>& done = cache.done;
  std::ofstream out(analysis, std::ios::app);
  Counters counters;
  const std::string variant = o.model_variant.empty() ? kDefaultNsfwModel : o.model_variant;
  // --jobs N means N cores: each worker runs its image on its own thread only (XNNPACK without
  // a threadpool, libvips with concurrency 1, OpenCV DNN, used for InceptionV3, with one thread).
  cv::setNumThreads(1);
  const ThumbnailStore store(o.out / "thumbs");
  Pool pool(o, variant, store, out);
  if (o.classify && !pool.classifies()) counters.add("model_missing");
  std::vector<fs::path> roots = o.archive_roots;
  roots.insert(roots.end(), {o.documents.parent_path(), o.documents.parent_path().parent_path()});
  std::vector<Job> jobs;
  std::string line;
  if (o.progress)
    o.progress->set_total(static_cast<uint64_t>(std::count_if(
        wanted.begin(), wanted.end(), [&](const std::string& d) { return !done.count(d); })));
  while (std::getline(docs, line)) {
    const Json doc = Json::parse(line, nullptr, false);
    const std::string digest = digest_of(doc);
    if (digest.empty()) {
      counters.add("documents_invalid");
      continue;
    }
    counters.add("documents");
    if (!done.insert(digest).second) {
      counters.add("already_analysed");
      continue;
    }
    jobs.push_back(locate_job(o, roots, doc, digest));
    jobs.back().missing_before = cache.missing.count(digest) > 0;
    if (jobs.size() < kChunk) continue;
    pool.run(jobs);
    jobs.clear();
  }
  pool.run(jobs);
  counters.merge(pool.counters());
  return counters;
}

}  // namespace strata::analyze
