#include "store/record_store.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "merge/groups.hpp"

namespace strata::store {
namespace {

namespace fs = std::filesystem;

// Batches: kind 'add' or 'remove'; state 'pending' until the index holds them, then
// 'applied' (a removal's records are deleted when it becomes applied). An add's records are
// the rowids from its first_row on (one writer, one transaction per batch: rowids grow), so
// records need no index on batch; nor on collection (removals and lists scan, rarely).
// Keys and digests are looked up by their 64-bit hashes (XXH3, whose output is fixed by its
// specification): an index entry of ~20 bytes instead of the text's 40-75, so a batch's
// random inserts dirty (and write to the WAL) 2-4x fewer index pages. A hash collision only
// widens a closure (more records merged, the same documents: docs/merge.md).
constexpr std::string_view kSettings = R"(
PRAGMA journal_mode = WAL;
PRAGMA synchronous = FULL;
PRAGMA cache_size = -65536;
PRAGMA temp_store = MEMORY;
)";
constexpr std::string_view kSchema = R"(
CREATE TABLE IF NOT EXISTS batches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  collection TEXT NOT NULL,
  time TEXT NOT NULL,
  records INTEGER NOT NULL DEFAULT 0,
  ignored INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'pending',
  first_row INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS records (
  file TEXT NOT NULL,
  offset INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  ordinal INTEGER NOT NULL,
  key_hash INTEGER NOT NULL,
  digest TEXT,
  digest_hash INTEGER,
  collection TEXT NOT NULL,
  batch INTEGER NOT NULL,
  line TEXT NOT NULL,
  UNIQUE (file, offset, kind, ordinal));
CREATE INDEX IF NOT EXISTS records_key ON records (key_hash);
CREATE INDEX IF NOT EXISTS records_digest ON records (digest_hash) WHERE digest_hash IS NOT NULL;
)";

// PRAGMA user_version of the layout above; 0 is the layout with text key indexes.
constexpr int64_t kLayout = 1;

// A record is live unless a pending removal of its collection came after it.
constexpr std::string_view kLive =
    "NOT EXISTS (SELECT 1 FROM batches b WHERE b.kind = 'remove' AND b.state = 'pending' AND "
    "b.collection = r.collection AND r.batch < b.id)";

enum class Kind : int64_t { image = 0, revisit = 1, ref = 2 };

// The columns of one extraction record.
struct Row {
  Kind kind;
  std::string_view key, digest, collection, file;
  uint64_t offset = 0;
};

bool row_of(const merge::Record& record, Row& row) {
  row.key = merge::surt_key(record);
  if (const auto* c = std::get_if<extract::ImageCapture>(&record)) {
    row = {Kind::image, row.key, c->digest, c->collection, c->file, c->offset};
  } else if (const auto* v = std::get_if<extract::ImageRevisit>(&record)) {
    row = {Kind::revisit, row.key, {}, v->collection, v->file, v->offset};
  } else if (const auto* r = std::get_if<extract::PageReference>(&record)) {
    row = {Kind::ref, row.key, {}, r->collection, r->file, r->offset};
  } else {
    return false;
  }
  return true;
}

// Stored in the file: never change it (XXH3's output is fixed by its specification).
int64_t stored_hash(std::string_view text) {
  return static_cast<int64_t>(XXH3_64bits(text.data(), text.size()));
}

std::string now_utc() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[32];
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// A record read from an extraction file, waiting for its insert.
struct PendingRow {
  std::string file, digest, collection, line;
  int64_t offset = 0, kind = 0, ordinal = 0, key_hash = 0, digest_hash = 0;
  uint64_t sequence = 0;  // arrival order
};

// Inserts a batch's records sorted by key hash, some megabytes at a time: the key index is
// the table's largest and its entries of a batch land all over it, so random inserts into a
// big store read and dirty its pages again and again once it outgrows SQLite's cache; in key
// order each page is read once. What is stored does not change: of two records with the same
// archive file, offset, kind and ordinal the first in file order is kept, as inserting them
// in that order kept it.
class SortedInserts {
 public:
  static constexpr size_t kBytes = size_t{64} << 20;

  SortedInserts(Statement& insert, Database& db, int64_t batch, BatchInsert& counts)
      : insert_(insert), db_(db), batch_(batch), counts_(counts) {}

  void add(PendingRow row) {
    bytes_ +=
        sizeof row + row.file.size() + row.digest.size() + row.collection.size() + row.line.size();
    row.sequence = sequence_++;
    rows_.push_back(std::move(row));
    if (bytes_ >= kBytes) flush();
  }

  void flush() {
    auto slot = [](const PendingRow& r) {
      return std::tie(r.file, r.offset, r.kind, r.ordinal, r.sequence);
    };
    std::sort(rows_.begin(), rows_.end(),
              [&](const PendingRow& a, const PendingRow& b) { return slot(a) < slot(b); });
    for (size_t i = 1; i < rows_.size(); ++i)
      if (std::tie(rows_[i].file, rows_[i].offset, rows_[i].kind, rows_[i].ordinal) ==
          std::tie(rows_[i - 1].file, rows_[i - 1].offset, rows_[i - 1].kind, rows_[i - 1].ordinal))
        rows_[i].kind = -1;  // a later copy: dropped below
    std::sort(rows_.begin(), rows_.end(), [](const PendingRow& a, const PendingRow& b) {
      return std::tie(a.key_hash, a.sequence) < std::tie(b.key_hash, b.sequence);
    });
    for (const PendingRow& row : rows_) {
      if (row.kind < 0) {
        ++counts_.already_stored;
        continue;
      }
      insert_.bind(1, row.file).bind(2, row.offset).bind(3, row.kind).bind(4, row.ordinal);
      insert_.bind(5, row.key_hash);
      if (row.digest.empty())
        insert_.bind_null(6).bind_null(7);
      else
        insert_.bind(6, row.digest).bind(7, row.digest_hash);
      insert_.bind(8, row.collection).bind(9, batch_).bind(10, row.line);
      insert_.step();
      insert_.reset();
      ++(db_.changes() ? counts_.inserted : counts_.already_stored);
    }
    rows_.clear();
    bytes_ = 0;
  }

 private:
  Statement& insert_;
  Database& db_;
  int64_t batch_;
  BatchInsert& counts_;
  std::vector<PendingRow> rows_;
  size_t bytes_ = 0;
  uint64_t sequence_ = 0;
};

// Reads the lines of one extraction file into `inserts`; the ordinal of a record is its rank
// among the records of the same kind from the same archive record (the n-th reference of a
// page).
void read_file(const fs::path& file, SortedInserts& inserts, BatchInsert& counts) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw StoreError("record store: cannot read " + file.string());
  std::unordered_map<std::string, int64_t> ordinals;
  merge::Record record;
  Row row{};
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded() || !merge::record_from_json(j, record) || !row_of(record, row)) {
      ++counts.not_records;
      continue;
    }
    if (row.key.empty()) {
      ++counts.without_key;
      continue;
    }
    std::string slot(row.file);
    slot += '\0' + std::to_string(row.offset) + '\0' + std::to_string(int(row.kind));
    PendingRow pending;
    pending.file = row.file;
    pending.offset = static_cast<int64_t>(row.offset);
    pending.kind = static_cast<int64_t>(row.kind);
    pending.ordinal = ordinals[slot]++;
    pending.key_hash = stored_hash(row.key);
    if (!row.digest.empty()) {
      pending.digest = row.digest;
      pending.digest_hash = stored_hash(row.digest);
    }
    pending.collection = row.collection;
    pending.line = std::move(line);
    inserts.add(std::move(pending));
  }
}

int64_t layout(Database& db) {
  Statement version = db.prepare("PRAGMA user_version");
  version.step();
  return version.integer(0);
}

bool has_records(Database& db) {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'records'").step();
}

}  // namespace

fs::path store_file(const fs::path& index_dir) {
  return index_dir / "records.sqlite";
}

RecordStore::RecordStore(const fs::path& index_dir) : db_(store_file(index_dir)) {
  const bool current = layout(db_) == kLayout;
  if (!current && has_records(db_))
    throw StoreError("record store " + store_file(index_dir).string() +
                     " has an older layout (made by an older strata): index the archives into "
                     "a new index folder");
  db_.exec(kSettings);
  if (current) return;
  Transaction transaction(db_);  // the tables and their layout number, or neither
  db_.exec(kSchema);
  db_.exec("PRAGMA user_version = " + std::to_string(kLayout));
  transaction.commit();
}

BatchInsert RecordStore::add_batch(const std::string& collection,
                                   const std::vector<fs::path>& files) {
  BatchInsert counts;
  Transaction transaction(db_);
  db_.prepare(
         "INSERT INTO batches (kind, collection, time, first_row) VALUES ('add', ?, ?, "
         "(SELECT COALESCE(MAX(rowid), 0) + 1 FROM records))")
      .bind(1, collection)
      .bind(2, now_utc())
      .run();
  const int64_t batch = last_batch();
  Statement insert = db_.prepare(
      "INSERT OR IGNORE INTO records (file, offset, kind, ordinal, key_hash, digest, "
      "digest_hash, collection, batch, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  SortedInserts inserts(insert, db_, batch, counts);
  for (const auto& file : files) read_file(file, inserts, counts);
  inserts.flush();
  if (counts.inserted == 0) return counts;  // rolled back: nothing new, no batch
  db_.prepare("UPDATE batches SET records = ?, ignored = ? WHERE id = ?")
      .bind(1, static_cast<int64_t>(counts.inserted))
      .bind(2, static_cast<int64_t>(counts.already_stored))
      .bind(3, batch)
      .run();
  transaction.commit();
  counts.batch = batch;
  return counts;
}

int64_t RecordStore::mark_removal(const std::string& collection) {
  Transaction transaction(db_);
  Statement any = db_.prepare("SELECT 1 FROM records WHERE collection = ? LIMIT 1");
  if (!any.bind(1, collection).step()) return 0;
  db_.prepare("INSERT INTO batches (kind, collection, time) VALUES ('remove', ?, ?)")
      .bind(1, collection)
      .bind(2, now_utc())
      .run();
  const int64_t batch = last_batch();
  transaction.commit();
  return batch;
}

int64_t RecordStore::last_batch() {
  Statement last = db_.prepare("SELECT COALESCE(MAX(id), 0) FROM batches");
  last.step();
  return last.integer(0);
}

std::vector<Batch> RecordStore::batches_after(int64_t applied) {
  std::vector<Batch> batches;
  Statement select =
      db_.prepare("SELECT id, kind, collection FROM batches WHERE id > ? ORDER BY id");
  select.bind(1, applied);
  while (select.step())
    batches.push_back({select.integer(0), select.text(1) == "remove", std::string(select.text(2))});
  return batches;
}

Affected RecordStore::select_affected(int64_t applied) {
  Affected affected;
  affected.everything = everything_ = applied == 0;
  // s0, s1: key hashes; d0: digests with their hashes, in digest order.
  db_.exec(
      "DROP TABLE IF EXISTS temp.s0; DROP TABLE IF EXISTS temp.d0; DROP TABLE IF EXISTS temp.s1;"
      "CREATE TEMP TABLE s0 (h INTEGER PRIMARY KEY);"
      "CREATE TEMP TABLE d0 (digest TEXT, h INTEGER, PRIMARY KEY (digest, h)) WITHOUT ROWID;"
      "CREATE TEMP TABLE s1 (h INTEGER PRIMARY KEY);");
  auto count = [this](const char* sql) {
    Statement s = db_.prepare(sql);
    s.step();
    return static_cast<uint64_t>(s.integer(0));
  };
  if (affected.everything) {
    db_.exec(
        "INSERT OR IGNORE INTO d0 SELECT digest, digest_hash FROM records WHERE digest_hash IS "
        "NOT NULL");
    affected.digests = count("SELECT COUNT(DISTINCT digest) FROM temp.d0");
    return affected;
  }
  db_.prepare(
         "INSERT OR IGNORE INTO s0 SELECT key_hash FROM records WHERE rowid >= (SELECT "
         "MIN(first_row) FROM batches WHERE kind = 'add' AND id > ?)")
      .bind(1, applied)
      .run();
  db_.prepare(
         "INSERT OR IGNORE INTO s0 SELECT r.key_hash FROM batches b JOIN records r ON "
         "r.collection = b.collection AND r.batch < b.id WHERE b.kind = 'remove' AND b.id > ?")
      .bind(1, applied)
      .run();
  // CROSS JOIN: loop over the small temp table (it has no statistics; SQLite would scan the
  // whole index of records instead).
  db_.exec(
      "INSERT OR IGNORE INTO d0 SELECT r.digest, r.digest_hash FROM s0 CROSS JOIN records r ON "
      "r.key_hash = s0.h WHERE r.digest_hash IS NOT NULL;"
      "INSERT OR IGNORE INTO s1 SELECT h FROM s0;"
      "INSERT OR IGNORE INTO s1 SELECT r.key_hash FROM d0 CROSS JOIN records r ON "
      "r.digest_hash = d0.h;");
  affected.keys_changed = count("SELECT COUNT(*) FROM temp.s0");
  affected.digests = count("SELECT COUNT(DISTINCT digest) FROM temp.d0");
  affected.keys_merged = count("SELECT COUNT(*) FROM temp.s1");
  return affected;
}

uint64_t RecordStore::export_affected(std::ostream& out) {
  const std::string sql = everything_
                              ? "SELECT r.line FROM records r WHERE " + std::string(kLive)
                              : "SELECT r.line FROM s1 CROSS JOIN records r ON r.key_hash = s1.h "
                                "WHERE " +
                                    std::string(kLive);
  Statement select = db_.prepare(sql);
  uint64_t lines = 0;
  while (select.step()) {
    out << select.text(0) << '\n';
    ++lines;
  }
  return lines;
}

void RecordStore::for_each_affected_digest(const std::function<void(std::string_view)>& fn) {
  Statement select = db_.prepare("SELECT DISTINCT digest FROM temp.d0 ORDER BY digest");
  while (select.step()) fn(select.text(0));
}

void RecordStore::finish(int64_t applied) {
  Transaction transaction(db_);
  db_.prepare(
         "DELETE FROM records WHERE rowid IN (SELECT r.rowid FROM batches b JOIN records r ON "
         "r.collection = b.collection AND r.batch < b.id WHERE b.kind = 'remove' AND "
         "b.state = 'pending' AND b.id <= ?)")
      .bind(1, applied)
      .run();
  db_.prepare("UPDATE batches SET state = 'applied' WHERE state = 'pending' AND id <= ?")
      .bind(1, applied)
      .run();
  transaction.commit();
}

std::vector<CollectionInfo> RecordStore::collections() {
  std::vector<CollectionInfo> list;
  Statement select = db_.prepare(
      "SELECT c.collection, (SELECT COUNT(*) FROM batches b WHERE b.kind = 'add' AND "
      "b.collection = c.collection), COUNT(*) FROM records c GROUP BY c.collection ORDER BY "
      "c.collection");
  while (select.step())
    list.push_back({std::string(select.text(0)), select.integer(1), select.integer(2)});
  return list;
}

}  // namespace strata::store
