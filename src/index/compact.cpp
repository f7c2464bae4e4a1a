#include "index/compact.hpp"

#include <xapian.h>

#include <set>
#include <stdexcept>

#include "index/group_table.hpp"
#include "index/schema.hpp"
#include "index/shard_layout.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTermlistTable = "termlist.glass";

bool is_table_file(const fs::path& p) {
  const std::string name = p.filename().string();
  return p.extension() == ".glass" || name == "iamglass" || name == "flintlock" ||
         name.rfind("changes", 0) == 0;
}

uint64_t table_bytes(const fs::path& dir) {
  uint64_t sum = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && is_table_file(e.path())) sum += e.file_size();
  return sum;
}

// Hard links (no copy of the thumbnails) where the file system allows, copies otherwise.
void link_or_copy(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::create_hard_links, ec);
  if (ec) fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

// The stored-data dictionary the sources share (none: all plain JSON); throws when two differ,
// as one index reads all its documents with one dictionary.
void check_one_dictionary(const std::vector<fs::path>& from) {
  std::set<std::string> dictionaries;
  for (const fs::path& source : from) {
    const std::string d =
        Xapian::Database(source.string()).get_metadata(std::string(kMetaDictionary));
    if (!d.empty()) dictionaries.insert(d);
  }
  if (dictionaries.size() > 1)
    throw std::runtime_error(
        "the indexes to merge compress their documents with different dictionaries (shards built "
        "apart); build them with one (index::ShardedBuild::dictionary) to merge them");
}

// Compacts the tables of `from` (several: merged, docids renumbered in order) into `to`, with
// the files beside the tables of `beside` (a sharded index's own files: record store, analysis
// cache, thumbnails, block list; not its shard folders).
CompactReport merge_tables(const std::vector<fs::path>& from, const fs::path& beside,
                           const fs::path& to) {
  if (fs::exists(to)) throw std::runtime_error(to.string() + " already exists");
  fs::path partial = to;
  partial += ".partial";
  fs::remove_all(partial);
  CompactReport report;
  for (const fs::path& source : from)
    if (!fs::exists(source / "iamglass"))
      throw std::runtime_error(source.string() + " is not an index");
  if (from.size() > 1) check_one_dictionary(from);
  {
    Xapian::Database db;
    for (const fs::path& source : from) {
      db.add_database(Xapian::Database(source.string()));
      report.bytes_before += table_bytes(source);
    }
    report.documents = db.get_doccount();
    db.compact(partial.string());
  }
  if (from.size() > 1) {
    // A shard's grouping table names its own docids, renumbered now: the next regroup
    // rebuilds it over the whole index.
    Xapian::WritableDatabase db(partial.string());
    invalidate_group_table(db);
    db.commit();
  }
  const std::set<fs::path> shards(from.begin(), from.end());
  for (const auto& e : fs::directory_iterator(beside)) {
    const std::string name = e.path().filename().string();
    if (is_table_file(e.path()) || shards.count(e.path()) ||
        (beside != from.front() && name == "shards"))
      continue;
    // The record store (src/store) is written in place: each index needs its own copy.
    if (name.rfind("records.sqlite", 0) == 0)
      fs::copy_file(e.path(), partial / e.path().filename());
    else
      link_or_copy(e.path(), partial / e.path().filename());
  }
  report.bytes_after = table_bytes(partial);
  fs::rename(partial, to);
  return report;
}

}  // namespace

CompactReport compact_index(const fs::path& from, const fs::path& to, CompactMode mode) {
  const std::vector<fs::path> shards = shard_folders(from);
  CompactReport report = shards.empty() ? compact_index(std::vector<fs::path>{from}, to)
                                        : merge_tables(shards, from, to);
  if (mode == CompactMode::serving) {
    report.bytes_after -= fs::file_size(to / kTermlistTable);
    fs::remove(to / kTermlistTable);  // as constants.h says: the copy then has no termlist
  }
  return report;
}

bool is_serving_copy(const fs::path& dir) {
  return fs::exists(dir / "iamglass") && !fs::exists(dir / kTermlistTable);
}

CompactReport compact_index(const std::vector<fs::path>& from, const fs::path& to) {
  if (from.empty()) throw std::runtime_error("nothing to compact into " + to.string());
  return merge_tables(from, from.front(), to);
}

}  // namespace strata::index
