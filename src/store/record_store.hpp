#pragma once
// The record store beside an index (<index>/records.sqlite, docs/merge.md "Incremental
// merge"): every extraction record ever indexed, as its JSONL line, with the merge key (the
// merge's own rule, merge::surt_key), the capture digest, collection and batch, so that a new
// batch re-merges exactly the documents it affects and the index stays a function of the
// records, whatever the order they came in.
//
// Failure contract: every SQLite failure (unwritable folder, corrupt file, busy beyond 10 s)
// is thrown as store::StoreError; a failed call leaves the store as it was (each writing call
// is one SQLite transaction). Lines that are not records are counted, never stored.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "store/sqlite.hpp"

namespace strata::store {

std::filesystem::path store_file(const std::filesystem::path& index_dir);

struct BatchInsert {
  int64_t batch = 0;  // 0 when nothing was new (no batch made)
  uint64_t inserted = 0;
  uint64_t already_stored = 0;  // same archive file, offset, kind and ordinal as a stored one
  uint64_t not_records = 0;     // unparsable lines, or not image/revisit/ref
  uint64_t without_key = 0;     // no SURT: the merge drops them anyway
};

struct Batch {
  int64_t id = 0;
  bool removal = false;  // a `collection remove`, else an add
  std::string collection;
};

struct CollectionInfo {
  std::string name;
  int64_t batches = 0;  // add batches
  int64_t records = 0;
};

// What a set of pending batches touches (docs/merge.md): S0 the merge keys of their records,
// D0 the capture digests under S0, S1 = S0 + the keys of every capture of a digest in D0.
struct Affected {
  bool everything = false;    // first application: every record, every digest
  uint64_t keys_changed = 0;  // |S0|
  uint64_t digests = 0;       // |D0|
  uint64_t keys_merged = 0;   // |S1|
};

class RecordStore {
 public:
  // Opens or creates <index_dir>/records.sqlite (the folder must exist).
  explicit RecordStore(const std::filesystem::path& index_dir);

  // Stores every record line of `files` (extraction JSONL) as one batch of `collection`, in
  // one transaction; records already stored are ignored.
  BatchInsert add_batch(const std::string& collection,
                        const std::vector<std::filesystem::path>& files);
  // Marks the removal of `collection` as a pending batch; 0 when no record has it.
  int64_t mark_removal(const std::string& collection);

  // Batches with id > `applied`, in id order.
  std::vector<Batch> batches_after(int64_t applied);
  int64_t last_batch();

  // Computes the sets of `Affected` for the batches after `applied` (kept for the calls
  // below, until the next select).
  Affected select_affected(int64_t applied);
  // Writes the live records (not under a pending removal) of S1 as JSONL; returns how many.
  uint64_t export_affected(std::ostream& out);
  // D0 in byte order.
  void for_each_affected_digest(const std::function<void(std::string_view)>& fn);

  // Once the index holds every batch up to `applied`: deletes the records of applied
  // removals and marks the batches applied (one transaction).
  void finish(int64_t applied);

  std::vector<CollectionInfo> collections();

 private:
  Database db_;
  bool everything_ = false;  // of the last select_affected
};

}  // namespace strata::store
