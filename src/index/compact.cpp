#include "index/compact.hpp"

#include <xapian.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string_view>

#include "index/group_table.hpp"
#include "index/schema.hpp"
#include "index/shard_layout.hpp"
#include "index/stored_data.hpp"

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

// The stored-data dictionary of each source ("": none, its documents are plain JSON).
std::vector<std::string> dictionaries(const std::vector<fs::path>& from) {
  std::vector<std::string> out;
  for (const fs::path& source : from)
    out.push_back(Xapian::Database(source.string()).get_metadata(std::string(kMetaDictionary)));
  return out;
}

// One index reads all its documents with one dictionary, the first source's that has one: the
// documents of the sources compressed with another are rewritten with it. Compaction keeps
// the sources' order and each source's docid order, so the merged index's documents are the
// sources' one after the other; each is checked to be the one expected.
void one_dictionary(const std::vector<fs::path>& from, const std::vector<std::string>& dicts,
                    const fs::path& merged) {
  const auto chosen = std::find_if(dicts.begin(), dicts.end(), [](auto& d) { return !d.empty(); });
  if (chosen == dicts.end()) return;
  Xapian::WritableDatabase db(merged.string());
  db.set_metadata(std::string(kMetaDictionary), *chosen);
  const StoredData target(db);
  Xapian::PostingIterator at = db.postlist_begin("");
  uint64_t rewritten = 0;
  for (size_t k = 0; k < from.size(); ++k) {
    const Xapian::Database source(from[k].string());
    const bool other = !dicts[k].empty() && dicts[k] != *chosen;
    const StoredData stored(source);
    for (auto it = source.postlist_begin(""); it != source.postlist_end(""); ++it, ++at) {
      if (at == db.postlist_end("")) throw std::runtime_error("merged index lacks documents");
      if (!other) continue;
      const std::string data = source.get_document(*it).get_data();
      Xapian::Document doc = db.get_document(*at);
      if (doc.get_data() != data)
        throw std::runtime_error("merged index's documents are not in the sources' order");
      if (StoredData::is_plain(data)) continue;
      const std::string json = stored.unpack(data);
      if (json.empty()) throw std::runtime_error("corrupt document data in " + from[k].string());
      doc.set_data(target.pack(json));
      db.replace_document(*at, doc);  // the data only: Xapian leaves terms and values as they are
      if (++rewritten % 10'000 == 0) db.commit();
    }
  }
  db.commit();
}

// Compaction leaves the grouping table (index/group_table.hpp) out of every copy: it is the
// writer's cache (~90 bytes a hashed image), a serving copy is never written to, and in any
// copy it would be stale anyway (compaction restarts the revision at 1 and renumbers the
// docids past deleted ones), so a copy's first write rebuilds it from the documents. Xapian
// copies metadata as it is, but asks a Compactor to resolve a key that several sources hold:
// a document-less source holding the table's keys makes each one such a duplicate, resolved
// to "", which the compaction does not write. The key it is handed carries the metadata
// table's own two-byte prefix in Xapian 1.4.
class LeaveOutGroupTable : public Xapian::Compactor {
 public:
  std::string resolve_duplicate_metadata(const std::string& key, size_t count,
                                         const std::string tags[]) override {
    std::string_view name = key;
    if (name.starts_with(std::string_view("\0\xc0", 2))) name.remove_prefix(2);
    if (is_group_table_key(name)) return {};
    return Xapian::Compactor::resolve_duplicate_metadata(key, count, tags);
  }
};

// The document-less source that holds the grouping tables' keys of `from`, at `dir`; false
// (nothing made) when none has a table.
bool make_group_table_mask(const std::vector<fs::path>& from, const fs::path& dir) {
  std::set<std::string> keys;
  for (const fs::path& source : from)
    for (std::string& key : group_table_keys(Xapian::Database(source.string())))
      keys.insert(std::move(key));
  if (keys.empty()) return false;
  Xapian::WritableDatabase mask(dir.string(), Xapian::DB_CREATE_OR_OVERWRITE);
  for (const std::string& key : keys) mask.set_metadata(key, "-");
  mask.commit();
  return true;
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
  const std::vector<std::string> dicts = dictionaries(from);
  fs::path mask = to;
  mask += ".group-table-mask";
  fs::remove_all(mask);
  {
    Xapian::Database db;
    for (const fs::path& source : from) {
      db.add_database(Xapian::Database(source.string()));
      report.bytes_before += table_bytes(source);
    }
    report.documents = db.get_doccount();
    if (make_group_table_mask(from, mask)) db.add_database(Xapian::Database(mask.string()));
    LeaveOutGroupTable leave_out;
    db.compact(partial.string(), 0, 0, leave_out);
  }
  fs::remove_all(mask);
  if (from.size() > 1) one_dictionary(from, dicts, partial);
  if (!group_table_keys(Xapian::Database(partial.string())).empty()) {
    // A Xapian that wrote the resolved keys after all: the table must not survive, stale or not.
    Xapian::WritableDatabase db(partial.string());
    drop_group_table(db);
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
