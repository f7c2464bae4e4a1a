#pragma once
// Helpers of the incremental-indexing tests: a batch of archives through extraction and
// store::add_batch (the steps of `strata index`), and the documents an index stores.
#include <unistd.h>
#include <xapian.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyze/run.hpp"
#include "core/json.hpp"
#include "extract/stage.hpp"
#include "index/document_builder.hpp"
#include "index/stored_data.hpp"
#include "merge/folder.hpp"
#include "sample/sample.hpp"
#include "store/incremental.hpp"

namespace strata::testing {

// The "tiny" generated sample (seed 2) in a new folder DIR/sample, DIR a temporary folder named
// after `tag` and this process; the caller removes DIR.
inline std::filesystem::path make_tiny_sample(const std::string& tag) {
  namespace fs = std::filesystem;
  const fs::path sample =
      fs::temp_directory_path() / ("strata-" + tag + "-" + std::to_string(getpid())) / "sample";
  fs::remove_all(sample);
  sample::Options options;
  if (!sample::apply_scale("tiny", options)) throw std::logic_error("no tiny scale");
  sample::generate(options, sample.string(), 2);
  return sample;
}

// The archives of a generated sample (make_tiny_sample), one list per collection: the
// collections' folders in date order (they sort by crawl date), their files sorted.
inline std::vector<std::vector<std::filesystem::path>> sample_collections(
    const std::filesystem::path& sample) {
  namespace fs = std::filesystem;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(sample))
    if (entry.is_directory() && entry.path().filename() != "truth") folders.push_back(entry);
  std::sort(folders.begin(), folders.end());
  std::vector<std::vector<fs::path>> result;
  for (const auto& folder : folders) {
    std::vector<fs::path> files;
    for (const auto& file : fs::directory_iterator(folder)) files.push_back(file.path());
    std::sort(files.begin(), files.end());
    result.push_back(files);
  }
  return result;
}

// Analyses `documents` (pHash and thumbnails, no NSFW model) into the index folder, as
// `strata analyze` does, finding the archives under `archive_root`.
inline void analyse_without_nsfw(const std::filesystem::path& documents,
                                 const std::filesystem::path& index_dir,
                                 const std::filesystem::path& archive_root) {
  analyze::RunOptions options;
  options.documents = documents;
  options.out = index_dir;
  options.archive_roots = {archive_root};
  options.classify = false;
  options.jobs = 2;
  analyze::run_analysis(options);
}

// Extracts each archive under the collection its folder is named after (as
// `strata index --collection <folder>` does) and adds them all as one batch; `analyse` and
// `shards` as in store::IncrementalOptions.
inline store::AddReport add_archives(const std::filesystem::path& index_dir,
                                     const std::vector<std::filesystem::path>& archives,
                                     const std::filesystem::path& work,
                                     std::function<void()> before_index_commit = {},
                                     std::function<bool(const std::filesystem::path&)> analyse = {},
                                     size_t shards = 0) {
  namespace fs = std::filesystem;
  fs::remove_all(work);
  const fs::path batch = work / "batch";
  fs::create_directories(batch);
  for (size_t i = 0; i < archives.size(); ++i) {
    extract::ExtractOptions options;
    options.collection = archives[i].parent_path().filename().string();
    const fs::path out = work / ("extract-" + std::to_string(i));
    fs::create_directories(out);
    extract::run_extraction({archives[i]}, options, out, 1, {}, nullptr);
    fs::rename(out / "part-00000.jsonl", batch / ("part-" + std::to_string(i) + ".jsonl"));
  }
  store::IncrementalOptions options;
  options.index_dir = index_dir;
  options.work_dir = work / "apply";
  options.before_index_commit = std::move(before_index_commit);
  options.analyse = std::move(analyse);
  options.shards = shards;
  return store::add_batch(options, "test", batch);
}

// id -> merge::to_json(document) of every document in the index (moderation left out).
inline std::map<std::string, Json> indexed_documents(const std::filesystem::path& index_dir) {
  std::map<std::string, Json> docs;
  Xapian::Database db(index_dir.string());
  index::StoredData stored(db);
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    merge::ImageDocument doc;
    index::Moderation m;
    if (index::parse_document_data(stored.unpack(db.get_document(*it).get_data()), doc, m))
      docs[doc.id] = merge::to_json(doc);
  }
  return docs;
}

// Every record in the index's store merged at once: its counters, with
// "revisits_without_original" = revisits whose original (a capture under the revisit's key
// with its warcDigest) is nowhere in the store.
inline Counters merge_of_whole_store(const std::filesystem::path& index_dir,
                                     const std::filesystem::path& work) {
  namespace fs = std::filesystem;
  store::RecordStore records(index_dir);
  records.select_affected(0);
  const fs::path file = work / "records" / "part-00000.jsonl";
  fs::create_directories(file.parent_path());
  {
    std::ofstream out(file);
    records.export_affected(out);
  }
  std::set<std::pair<std::string, std::string>> originals, revisits;
  std::ifstream in(file);
  merge::Record record;
  for (std::string line; std::getline(in, line);) {
    if (!merge::record_from_json(Json::parse(line), record)) continue;
    if (const auto* c = std::get_if<extract::ImageCapture>(&record))
      originals.emplace(c->imgSurt, c->warcDigest);
    if (const auto* r = std::get_if<extract::ImageRevisit>(&record))
      revisits.emplace(merge::surt_key(record),
                       r->warcDigest + "\n" + r->file + std::to_string(r->offset));
  }
  Counters counters = merge::merge_folder(work / "records", work / "docs", {}, nullptr).counters;
  for (const auto& [key, id] : revisits)
    if (!originals.count({key, id.substr(0, id.find('\n'))}))
      counters.add("revisits_without_original");
  return counters;
}

}  // namespace strata::testing
