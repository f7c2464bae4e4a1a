#pragma once
// The incremental add of `strata index` and the removal of `strata collection remove`
// (docs/merge.md "Incremental merge"): records go into the record store, then every pending
// batch is applied to the Xapian index by re-merging exactly the documents it affects from
// the store's records, so the index is the same whatever the order and split of its batches.
//
// Failure contract: throws store::StoreError (SQLite, Xapian and merge failures converted)
// when the job cannot be done. The index is then as before the call; batches already in the
// store stay pending and the next call applies them first (also after a kill -9 anywhere).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "core/counters.hpp"
#include "core/json.hpp"
#include "store/record_store.hpp"

namespace strata::store {

struct IncrementalOptions {
  std::filesystem::path index_dir;
  std::filesystem::path work_dir;  // intermediate files; created, the caller removes it
  unsigned jobs = 1;
  uint64_t memory = uint64_t{1} << 30;  // the merge's record buffers
  // More than 1: a new index is made of this many shards (index/shard_layout.hpp); an
  // existing index keeps its own layout (check index::shard_count_problem first).
  size_t shards = 0;
  bool show_progress = false;  // "2/4 merge" and "4/4 index" progress lines (the CLI)
  // Analyses the new digests of the documents about to be written (JSONL); none when empty.
  // False stops the run before the index is touched.
  std::function<bool(const std::filesystem::path& documents)> analyse;
  // Test hook: runs inside the index transaction just before its commit (after the store's
  // commit); throwing from it simulates a crash between the two commits.
  std::function<void()> before_index_commit;
};

struct ApplyReport {
  int64_t applied = 0;   // last batch the index holds afterwards
  uint64_t batches = 0;  // batches applied by this call
  Affected affected;
  uint64_t records_merged = 0;
  Counters merge;
  uint64_t written = 0;                // documents added or changed
  uint64_t unchanged = 0;              // rebuilt, equal to the stored one
  uint64_t deleted = 0;                // digests left without a document
  uint64_t near_duplicate_groups = 0;  // groups of two or more in the index afterwards
  uint64_t regrouped = 0;              // documents whose group changed
  uint64_t documents = 0;              // documents in the index afterwards
};

struct AddReport {
  ApplyReport recovered;  // batches a killed run had left pending
  BatchInsert stored;
  ApplyReport applied;
};

Json to_json(const ApplyReport& report);
Json to_json(const AddReport& report);

// Stores the records of an extraction folder (`strata extract`'s part-*.jsonl) as a batch of
// `collection`, then applies it. Creates the index folder when missing.
AddReport add_batch(const IncrementalOptions& options, const std::string& collection,
                    const std::filesystem::path& extract_dir);

// Applies the batches the index does not hold yet (none: nothing happens).
ApplyReport apply_pending(const IncrementalOptions& options);

// Removes every record of `collection` and rebuilds the documents they touched; `found` is
// false (and nothing changes) when the store holds no record of it.
ApplyReport remove_collection(const IncrementalOptions& options, const std::string& collection,
                              bool& found);

// After a Streaming build (scripts/streaming-index, docs/scale.md): stores the extraction
// records `files` the build indexed as the first batch of `collection`, already applied, so the
// index has the record store `strata index` would have made and takes incremental adds and
// collection removals the same. Throws StoreError when the index already has a record store
// or holds no document. A kill between the store's commit and the shards' leaves the batch
// pending: the next `strata index` applies it again (the same documents).
BatchInsert adopt_streaming_build(const std::filesystem::path& index_dir,
                                  const std::string& collection,
                                  const std::vector<std::filesystem::path>& files);

// Collections of the store with their batches, records and indexed documents.
std::vector<Json> list_collections(const std::filesystem::path& index_dir);

// Empty when `index_dir` can take incremental adds; else why not (an index made without a
// record store: by an older strata, or by index-docs).
std::string incremental_problem(const std::filesystem::path& index_dir);

}  // namespace strata::store
