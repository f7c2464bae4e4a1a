#include "index/near_duplicate_groups.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "analyze/phash.hpp"
#include "index/group_table.hpp"
#include "index/hash_values.hpp"
#include "index/schema.hpp"
#include "similar/regroup.hpp"

namespace strata::index {
namespace {

// The grouping's capture order: yyyyMMddHHmmss as a number orders as the times do; 0 (sorted
// last) when unknown.
int64_t capture_order(const std::string& timestamp) {
  int64_t value = 0;
  const auto [end, ec] =
      std::from_chars(timestamp.data(), timestamp.data() + timestamp.size(), value);
  return ec == std::errc() && end == timestamp.data() + timestamp.size() ? value : 0;
}

// What a whole regroup reads of every document, in docid order: the grouping keys of those
// with a pHash, and the docids with a stored group.
struct Scanned {
  GroupTable table;
  std::vector<Xapian::docid> grouped;
};

// Reads every document's values one by one, not through the value streams: inside a
// transaction, Xapian 1.4's value stream of a WritableDatabase merges the pending value
// changes only while its count of changes since the last flush of the write buffer is
// non-zero, and a flush (every XAPIAN_FLUSH_THRESHOLD changes, 10,000 by default) resets the
// count; a stream opened right after one misses every value written since the last commit
// (and lists the deleted documents). Document::get_value reads the pending changes first.
// docs/near-duplicates.md, "A whole regroup inside a long transaction".
// `stored` holds one dictionary per part of a combined database (document d lives in part
// (d - 1) % parts).
Scanned scan_documents(const Xapian::Database& db, const std::vector<const StoredData*>& stored) {
  Scanned out;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    const Xapian::Document xd = db.get_document(*it, Xapian::DOC_ASSUME_VALID);
    if (!xd.get_value(slot::group).empty()) out.grouped.push_back(*it);
    if (xd.get_value(slot::phash).empty()) continue;
    merge::ImageDocument doc;
    Moderation m;
    const StoredData& part = *stored[(*it - 1) % stored.size()];
    if (!read_indexed_document(part, xd, doc, m)) continue;
    if (auto image = grouping_image(doc, m)) {
      out.table.docids.push_back(*it);
      out.table.images.push_back(std::move(*image));
    }
  }
  return out;
}

// Writes a document's new group (none when `new_value` is empty) over its stored one; value
// and term are written together, so a stored value means a stored term. False when the
// stored group is already the new one.
bool set_group(Xapian::WritableDatabase& db, Xapian::docid docid, const std::string& new_value) {
  Xapian::Document doc = db.get_document(docid);
  const std::string old_value = doc.get_value(slot::group);
  if (old_value == new_value) return false;
  if (const auto old_leader = group_leader(old_value)) {
    doc.remove_term(group_term(*old_leader));
    doc.remove_value(slot::group);
  }
  if (const auto leader = group_leader(new_value)) {
    doc.add_boolean_term(group_term(*leader));
    doc.add_value(slot::group, new_value);
  }
  db.replace_document(docid, doc);
  return true;
}

// The group value of table row i under `grouping` ("" alone).
std::string wanted_value(const GroupTable& table, const similar::Grouping& grouping, size_t i) {
  return grouping.size[i] >= 2 ? group_value(table.images[grouping.leader[i]].phash) : "";
}

RegroupReport regroup_whole(Xapian::WritableDatabase& db,
                            const std::vector<const StoredData*>& stored, unsigned threads) {
  Scanned scanned = scan_documents(db, stored);
  GroupTable& table = scanned.table;
  const auto grouping =
      similar::group_near_duplicates(table.images, similar::kNearDuplicateRadius, threads);
  RegroupReport report{table.size(), grouping.groups, grouping.grouped, 0, table.size(), true};
  // docid -> wanted value, for every document with a stored or a wanted group.
  std::map<Xapian::docid, std::string> wanted;
  for (const Xapian::docid docid : scanned.grouped) wanted[docid];
  table.leaders.resize(table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    table.leaders[i] = table.docids[grouping.leader[i]];
    if (grouping.size[i] >= 2) wanted[table.docids[i]] = wanted_value(table, grouping, i);
  }
  for (const auto& [docid, value] : wanted) report.changed += set_group(db, docid, value);
  save_group_table(db, table, std::nullopt);
  return report;
}

bool same_key(const similar::Image& a, const similar::Image& b) {
  return a.phash == b.phash && a.width == b.width && a.height == b.height &&
         a.first_capture == b.first_capture && a.digest == b.digest && a.pdq == b.pdq;
}

// The table after `changes`; `marked`: per row, new or changed (to regroup);
// `changed_docids`: the docids whose previous row departed or changed.
struct Applied {
  GroupTable table;
  std::vector<uint8_t> marked;
  std::vector<Xapian::docid> old_leaders;  // per row, its leader in the old table (0: none)
  std::vector<uint8_t> had_row;            // per row, its docid had a row in the old table
  std::vector<Xapian::docid> changed_docids;
};

Applied apply_changes(GroupTable&& old, const GroupChanges& changes) {
  Applied out;
  auto& t = out.table;
  const size_t rows = old.size() + changes.size();
  t.docids.reserve(rows), t.images.reserve(rows), t.leaders.reserve(rows);
  out.marked.reserve(rows), out.old_leaders.reserve(rows), out.had_row.reserve(rows);
  auto keep = [&](size_t i) {
    t.docids.push_back(old.docids[i]);
    t.images.push_back(std::move(old.images[i]));
    t.leaders.push_back(old.leaders[i]);
    out.old_leaders.push_back(old.leaders[i]);
    out.marked.push_back(0);
    out.had_row.push_back(1);
  };
  size_t i = 0;
  for (const auto& [docid, image] : changes) {
    for (; i < old.size() && old.docids[i] < docid; ++i) keep(i);
    const bool had = i < old.size() && old.docids[i] == docid;
    if (had && image && same_key(old.images[i], *image)) {
      keep(i++);
      continue;
    }
    if (had) ++i;
    out.changed_docids.push_back(docid);
    if (!image) continue;
    t.docids.push_back(docid);
    t.images.push_back(*image);
    t.leaders.push_back(docid);
    out.old_leaders.push_back(0);
    out.marked.push_back(1);
    out.had_row.push_back(had);
  }
  for (; i < old.size(); ++i) keep(i);
  return out;
}

RegroupReport regroup_changed(Xapian::WritableDatabase& db, GroupTable&& old,
                              const GroupChanges& changes) {
  // Old group sizes by leader docid: a row whose group crossed two changes value.
  std::vector<uint32_t> old_size(db.get_lastdocid() + 1, 0);
  for (const Xapian::docid leader : old.leaders)
    if (leader < old_size.size()) ++old_size[leader];
  Applied a = apply_changes(std::move(old), changes);
  GroupTable& table = a.table;
  const size_t n = table.size();
  auto departed = [&](Xapian::docid docid) {
    return std::binary_search(a.changed_docids.begin(), a.changed_docids.end(), docid);
  };
  std::vector<uint32_t> previous(n, similar::kRegroup);
  for (size_t i = 0; i < n; ++i) {
    if (a.marked[i]) continue;
    if (table.leaders[i] == table.docids[i]) {
      previous[i] = static_cast<uint32_t>(i);
    } else if (!departed(table.leaders[i])) {
      const size_t leader = table.find(table.leaders[i]);
      if (leader < n) previous[i] = static_cast<uint32_t>(leader);
    }
  }
  const auto regrouping = similar::regroup_near_duplicates(table.images, previous);
  const auto& grouping = regrouping.grouping;
  RegroupReport report{n, grouping.groups, grouping.grouped, 0, regrouping.regrouped, false};
  std::vector<uint32_t> chunks;
  auto dirty = [&](Xapian::docid docid) { chunks.push_back(docid >> kGroupChunkBits); };
  for (const Xapian::docid docid : a.changed_docids) dirty(docid);
  for (size_t i = 0; i < n; ++i) {
    table.leaders[i] = table.docids[grouping.leader[i]];
    if (table.leaders[i] != a.old_leaders[i]) dirty(table.docids[i]);
    const bool was_grouped =
        a.old_leaders[i] && a.old_leaders[i] < old_size.size() && old_size[a.old_leaders[i]] >= 2;
    // Otherwise the row keeps its leader, unchanged, and a group of two or more, or none.
    const bool may_differ =
        previous[i] != grouping.leader[i] || was_grouped != (grouping.size[i] >= 2);
    // A document without a row before had no pHash, so no group: alone, it has none to clear
    // (a changed row may still carry its old group).
    const bool stays_alone = !a.had_row[i] && grouping.size[i] < 2;
    if (may_differ && !stays_alone)
      report.changed += set_group(db, table.docids[i], wanted_value(table, grouping, i));
  }
  std::sort(chunks.begin(), chunks.end());
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  save_group_table(db, table, chunks);
  return report;
}

}  // namespace

std::string group_value(uint64_t leader) {
  return phash_value(leader);
}

std::optional<uint64_t> group_leader(const std::string& value) {
  return phash_from_value(value);
}

std::string group_term(uint64_t leader) {
  return std::string(prefix::near_duplicate_group) + analyze::phash_hex(leader);
}

std::optional<similar::Image> grouping_image(const merge::ImageDocument& doc, const Moderation& m) {
  if (!m.phash) return std::nullopt;
  return similar::Image{
      doc.id, *m.phash, doc.imgWidth, doc.imgHeight, capture_order(doc.imgCrawlTimestamp), m.pdq};
}

RegroupReport regroup_near_duplicates(Xapian::WritableDatabase& db, const StoredData& stored,
                                      const GroupChanges& changes, unsigned threads, bool whole) {
  if (!whole)
    if (auto table = load_group_table(db)) return regroup_changed(db, std::move(*table), changes);
  return regroup_whole(db, {&stored}, threads);
}

RegroupReport regroup_over_shards(const std::vector<Xapian::WritableDatabase>& shards,
                                  unsigned threads) {
  Xapian::WritableDatabase combined;
  std::vector<StoredData> stored;
  std::vector<const StoredData*> parts;
  stored.reserve(shards.size());
  for (const auto& shard : shards) {
    combined.add_database(shard);
    stored.emplace_back(shard);
  }
  for (const auto& s : stored) parts.push_back(&s);
  return regroup_whole(combined, parts, threads);
}

}  // namespace strata::index
