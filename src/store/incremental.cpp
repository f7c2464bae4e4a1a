#include "store/incremental.hpp"

#include <xapian.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "core/progress.hpp"
#include "index/moderation.hpp"
#include "index/schema.hpp"
#include "index/shard_layout.hpp"
#include "index/writer.hpp"
#include "merge/document.hpp"
#include "merge/folder.hpp"
#include "shard/partition.hpp"

namespace strata::store {
namespace {

namespace fs = std::filesystem;

// The batch the index last applied, and its document count; 0, 0 without an index.
// A sharded index holds the batches its every shard holds: a kill between the shards' commits
// leaves the later ones a batch behind, and that batch is applied again.
std::pair<int64_t, uint64_t> index_state(const fs::path& index_dir) {
  if (const auto shards = index::shard_folders(index_dir); !shards.empty()) {
    std::pair<int64_t, uint64_t> state{std::numeric_limits<int64_t>::max(), 0};
    for (const auto& shard : shards) {
      const auto [applied, documents] = index_state(shard);
      state.first = std::min(state.first, applied);
      state.second += documents;
    }
    return state;
  }
  if (!index::index_exists(index_dir)) return {0, 0};
  const Xapian::Database db(index_dir.string());
  const std::string text = db.get_metadata(std::string(index::kMetaStoreApplied));
  return {text.empty() ? 0 : std::stoll(text), db.get_doccount()};
}

// The merge writes each document as {"type":"document","id":"..." (merge/document_json.cpp):
// read there, without parsing the line, when the id needs no unescaping.
std::string id_of(const std::string& line) {
  constexpr std::string_view kStart = R"({"type":"document","id":")";
  if (line.compare(0, kStart.size(), kStart) == 0) {
    const size_t end = line.find_first_of("\\\"", kStart.size());
    if (end != std::string::npos && line[end] == '"')
      return line.substr(kStart.size(), end - kStart.size());
  }
  const Json j = Json::parse(line, nullptr, false);
  return j.is_object() && j.contains("id") && j["id"].is_string() ? j["id"].get<std::string>()
                                                                  : std::string();
}

// Keeps the merged documents whose digest is in D0 (the others were merged from part of
// their records) in `kept`, their digests in `kept_digests` (unless null); the D0 digests
// without a document go to `deleted`.
uint64_t select_documents(RecordStore& store, const fs::path& merged, const fs::path& kept,
                          std::unordered_set<std::string>* kept_digests,
                          std::vector<std::string>& deleted) {
  std::ifstream in(merged);
  std::ofstream out(kept);
  std::string line, id;
  auto next = [&] {
    while (std::getline(in, line))
      if (!(id = id_of(line)).empty()) return true;
    return false;
  };
  bool have = next();
  uint64_t count = 0;
  store.for_each_affected_digest([&](std::string_view digest) {
    while (have && id < digest) have = next();
    if (have && id == digest) {
      out << line << '\n';
      if (kept_digests) kept_digests->insert(id);
      ++count;
      have = next();
    } else {
      deleted.emplace_back(digest);
    }
  });
  if (!out.flush()) throw StoreError("cannot write " + kept.string());
  return count;
}

// The merge over the exported records: work/records/part-00000.jsonl -> work/docs.
fs::path merge_affected(RecordStore& store, const IncrementalOptions& options,
                        ApplyReport& report) {
  const fs::path records = options.work_dir / "records";
  fs::create_directories(records);
  {
    std::ofstream out(records / "part-00000.jsonl", std::ios::binary);
    report.records_merged = store.export_affected(out);
    if (!out.flush()) throw StoreError("cannot write " + records.string());
  }
  merge::MergeOptions merge_options;
  merge_options.jobs = options.jobs;
  merge_options.memory = options.memory;
  std::optional<Progress> progress;
  if (options.show_progress)
    progress.emplace("2/4 merge", merge::total_size(merge::extraction_files(records)));
  auto result = merge::merge_folder(records, options.work_dir / "docs", merge_options,
                                    progress ? &*progress : nullptr);
  if (progress) progress->finish();
  if (!result.error.empty()) throw StoreError("merge failed: " + result.error);
  report.merge = result.counters;
  return result.documents;
}

// Where each document of `documents` starts, with the docid it replaces (0 for a new one):
// those replacing a stored document first, in docid order, then the new ones in file order.
// Xapian writes a modified termlist or data block out when its cursor moves to another block,
// so replacements in random docid order write a block per document; in docid order each
// touched block is written once.
std::vector<std::pair<Xapian::docid, std::streamoff>> write_order(const fs::path& documents,
                                                                  index::IndexWriter& writer) {
  std::ifstream in(documents);
  std::vector<std::pair<Xapian::docid, std::streamoff>> order;
  std::vector<std::streamoff> adding;
  std::streamoff offset = 0;
  for (std::string line; std::getline(in, line); offset += std::streamoff(line.size()) + 1) {
    if (const auto docid = writer.docid_of(id_of(line)))
      order.emplace_back(*docid, offset);
    else
      adding.push_back(offset);
  }
  std::sort(order.begin(), order.end());
  for (const std::streamoff a : adding) order.emplace_back(0, a);
  return order;
}

// Writes the documents of `documents` with `writer`, inside its batch: the kept documents
// replace the stored ones (moderation kept and re-joined).
void write_documents(index::IndexWriter& writer, const fs::path& documents, ApplyReport& report,
                     Progress* progress) {
  // `replacing`: the docid of the stored version, else 0 (the index holds no document of the
  // id: the merge writes one document per id).
  auto write = [&](const std::string& line, Xapian::docid replacing) {
    merge::ImageDocument doc;
    if (!merge::from_json(Json::parse(line), doc)) throw StoreError("unreadable merged document");
    if (!replacing) writer.add_new(doc);
    const auto outcome = replacing ? writer.replace(replacing, doc) : index::AddOutcome::added;
    ++(outcome == index::AddOutcome::unchanged ? report.unchanged : report.written);
    if (progress) {
      progress->advance(line.size() + 1);
      progress->add_items(1);
    }
  };
  std::ifstream in(documents);
  std::string line;
  if (writer.size() == 0) {  // a first index: every document is new, in file order
    while (std::getline(in, line)) write(line, 0);
  } else {
    writer.set_compression(index::Compression::fast);
    for (const auto& [docid, offset] : write_order(documents, writer)) {
      if (!in.seekg(offset) || !std::getline(in, line))
        throw StoreError("cannot read " + documents.string());
      write(line, docid);
    }
  }
}

// The "4/4 index" progress line over `documents`, when the options want one.
void start_progress(std::optional<Progress>& progress, const IncrementalOptions& options,
                    const fs::path& documents) {
  if (!options.show_progress) return;
  std::error_code ec;
  progress.emplace("4/4 index", fs::file_size(documents, ec), "B", "documents");
}

// One Xapian transaction: the documents written, the deleted digests gone, the near-duplicate
// groups updated and the applied batch recorded. `digests`: those of the kept documents, whose
// analysis records alone are read (null: all, for a first index).
void write_index(const IncrementalOptions& options, const fs::path& documents,
                 const std::unordered_set<std::string>* digests,
                 const std::vector<std::string>& deleted, int64_t applied, ApplyReport& report) {
  index::IndexWriter writer(options.index_dir);
  writer.set_moderate(index::moderation_of(options.index_dir, digests));
  writer.begin();
  std::optional<Progress> progress;
  start_progress(progress, options, documents);
  write_documents(writer, documents, report, progress ? &*progress : nullptr);
  for (const auto& digest : deleted) report.deleted += writer.remove(digest);
  const auto groups = writer.regroup_near_duplicates(options.jobs);
  report.near_duplicate_groups = groups.groups;
  report.regrouped = groups.changed;
  writer.set_metadata(std::string(index::kMetaStoreApplied), std::to_string(applied));
  if (options.before_index_commit) options.before_index_commit();
  writer.commit();
  if (progress) progress->finish();
  report.documents = writer.size();
}

// `documents` split by shard (shard::shard_of the id, which is the digest): work/docs/shard-K.
std::vector<fs::path> split_by_shard(const fs::path& documents, size_t shards) {
  std::vector<fs::path> files;
  std::vector<std::ofstream> outs;
  for (size_t k = 0; k < shards; ++k) {
    files.push_back(documents.parent_path() / ("shard-" + std::to_string(k) + ".jsonl"));
    outs.emplace_back(files.back(), std::ios::binary);
  }
  std::ifstream in(documents);
  for (std::string line; std::getline(in, line);)
    outs[shard::shard_of(id_of(line), shards)] << line << '\n';
  for (auto& out : outs)
    if (!out.flush()) throw StoreError("cannot write " + documents.parent_path().string());
  return files;
}

// write_index over the shards of a sharded index (docs/scale.md "Sharded index"): each document
// written to the shard its digest names, in a batch per shard; the near-duplicate groups
// regrouped over all the shards at once; then the shards commit, the first first. Xapian has no
// transaction over several databases: a kill between two commits leaves the later shards a
// batch behind, the store keeps the batch pending (index_state) and the next run applies it
// again, which changes nothing in the shards that hold it.
void write_shards(const IncrementalOptions& options, size_t shards, const fs::path& documents,
                  const std::unordered_set<std::string>* digests,
                  const std::vector<std::string>& deleted, int64_t applied, ApplyReport& report) {
  const auto moderate = index::moderation_of(options.index_dir, digests);
  std::vector<std::unique_ptr<index::IndexWriter>> writers;
  for (size_t k = 0; k < shards; ++k) {
    writers.push_back(
        std::make_unique<index::IndexWriter>(index::shard_folder(options.index_dir, k)));
    writers[k]->set_moderate(moderate);
    writers[k]->begin();
  }
  std::optional<Progress> progress;
  start_progress(progress, options, documents);
  const auto files = split_by_shard(documents, shards);
  for (size_t k = 0; k < shards; ++k)
    write_documents(*writers[k], files[k], report, progress ? &*progress : nullptr);
  for (const auto& digest : deleted)
    report.deleted += writers[shard::shard_of(digest, shards)]->remove(digest);
  std::vector<Xapian::WritableDatabase> databases;
  for (auto& writer : writers) databases.push_back(writer->database());
  const auto groups = index::regroup_over_shards(databases, options.jobs);
  report.near_duplicate_groups = groups.groups;
  report.regrouped = groups.changed;
  for (auto& writer : writers)
    writer->set_metadata(std::string(index::kMetaStoreApplied), std::to_string(applied));
  if (options.before_index_commit) options.before_index_commit();
  report.documents = 0;
  for (auto& writer : writers) {
    writer->commit();
    report.documents += writer->size();
  }
  if (progress) progress->finish();
}

ApplyReport apply(RecordStore& store, const IncrementalOptions& options) {
  ApplyReport report;
  std::tie(report.applied, report.documents) = index_state(options.index_dir);
  store.finish(report.applied);  // a removal whose index commit a kill interrupted
  const auto batches = store.batches_after(report.applied);
  if (batches.empty()) return report;
  report.batches = batches.size();
  report.affected = store.select_affected(report.applied);
  const fs::path merged = merge_affected(store, options, report);
  const fs::path kept = options.work_dir / "docs" / "affected.jsonl";
  std::vector<std::string> deleted;
  std::unordered_set<std::string> digests;
  const bool first = report.affected.everything;  // every document: no digests to filter by
  select_documents(store, merged, kept, first ? nullptr : &digests, deleted);
  if (options.analyse && !options.analyse(kept)) throw StoreError("analysis failed");
  const auto* filter = first ? nullptr : &digests;
  if (const size_t shards = index::shard_count(options.index_dir))
    write_shards(options, shards, kept, filter, deleted, batches.back().id, report);
  else
    write_index(options, kept, filter, deleted, batches.back().id, report);
  report.applied = batches.back().id;
  store.finish(report.applied);
  return report;
}

// Runs `job` converting the index library's Xapian errors into StoreError.
template <typename Job>
auto converted(Job&& job) {
  try {
    return job();
  } catch (const Xapian::Error& e) {
    throw StoreError("index: " + e.get_description());
  }
}

}  // namespace

Json to_json(const ApplyReport& r) {
  return Json{{"applied_batch", r.applied},
              {"batches", r.batches},
              {"everything", r.affected.everything},
              {"keys_changed", r.affected.keys_changed},
              {"digests_affected", r.affected.digests},
              {"keys_merged", r.affected.keys_merged},
              {"records_merged", r.records_merged},
              {"written", r.written},
              {"unchanged", r.unchanged},
              {"deleted", r.deleted},
              {"near_duplicate_groups", r.near_duplicate_groups},
              {"regrouped", r.regrouped},
              {"merge", r.merge.to_json()},
              {"documents", r.documents}};  // last: scripts/demo reads the last "documents"
}

Json to_json(const AddReport& r) {
  return Json{{"stored",
               {{"batch", r.stored.batch},
                {"inserted", r.stored.inserted},
                {"already_stored", r.stored.already_stored},
                {"not_records", r.stored.not_records},
                {"without_key", r.stored.without_key}}},
              {"recovered", to_json(r.recovered)},
              {"applied", to_json(r.applied)}};
}

std::string incremental_problem(const fs::path& index_dir) {
  if (fs::exists(store_file(index_dir))) {
    try {
      RecordStore store(index_dir);  // refuses a store of an older layout
    } catch (const StoreError& e) {
      return e.what();
    }
    return {};
  }
  auto folders = index::shard_folders(index_dir);
  if (folders.empty()) folders.push_back(index_dir);
  for (const auto& folder : folders)
    if (index::index_exists(folder) && Xapian::Database(folder.string()).get_doccount() != 0)
      return "index " + index_dir.string() +
             " holds documents but no record store (made by an older strata, by index-docs or "
             "by a Streaming build): index the archives into a new index folder";
  return {};
}

BatchInsert adopt_streaming_build(const fs::path& index_dir, const std::string& collection,
                                  const std::vector<fs::path>& files) {
  if (fs::exists(store_file(index_dir)))
    throw StoreError(index_dir.string() + " already has a record store");
  if (index_state(index_dir).second == 0)
    throw StoreError(index_dir.string() + " holds no document to adopt records for");
  return converted([&] {
    RecordStore store(index_dir);
    const BatchInsert batch = store.add_batch(collection, files);
    if (batch.batch == 0) throw StoreError("no extraction record to adopt");
    auto folders = index::shard_folders(index_dir);
    if (folders.empty()) folders.push_back(index_dir);
    for (const auto& folder : folders) {
      Xapian::WritableDatabase db(folder.string());
      db.set_metadata(std::string(index::kMetaStoreApplied), std::to_string(batch.batch));
      db.commit();
    }
    store.finish(batch.batch);
    return batch;
  });
}

ApplyReport apply_pending(const IncrementalOptions& options) {
  return converted([&] {
    RecordStore store(options.index_dir);
    return apply(store, options);
  });
}

AddReport add_batch(const IncrementalOptions& options, const std::string& collection,
                    const fs::path& extract_dir) {
  return converted([&] {
    fs::create_directories(options.index_dir);
    if (options.shards > 1 && !index::shard_count(options.index_dir) &&
        !index::index_exists(options.index_dir) &&
        !index::write_shard_count(options.index_dir, options.shards))
      throw StoreError("cannot write " + (options.index_dir / "shards").string());
    RecordStore store(options.index_dir);
    AddReport report;
    report.recovered = apply(store, options);
    report.stored = store.add_batch(collection, merge::extraction_files(extract_dir));
    report.applied = apply(store, options);
    return report;
  });
}

ApplyReport remove_collection(const IncrementalOptions& options, const std::string& collection,
                              bool& found) {
  return converted([&] {
    RecordStore store(options.index_dir);
    apply(store, options);
    found = store.mark_removal(collection) != 0;
    return apply(store, options);
  });
}

std::vector<Json> list_collections(const fs::path& index_dir) {
  return converted([&] {
    RecordStore store(index_dir);
    const auto shards = index::shard_folders(index_dir);
    const bool indexed = index::index_exists(shards.empty() ? index_dir : shards.front());
    std::vector<Json> list;
    for (const auto& c : store.collections()) {
      uint64_t documents = 0;
      for (const auto& folder : shards.empty() ? std::vector<fs::path>{index_dir} : shards)
        if (indexed)
          documents += Xapian::Database(folder.string())
                           .get_termfreq(std::string(index::prefix::collection) + c.name);
      list.push_back(Json{{"collection", c.name},
                          {"batches", c.batches},
                          {"records", c.records},
                          {"documents", documents}});
    }
    return list;
  });
}

}  // namespace strata::store
