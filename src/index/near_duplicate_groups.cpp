#include "index/near_duplicate_groups.hpp"

#include <charconv>
#include <map>
#include <vector>

#include "analyze/phash.hpp"
#include "index/document_builder.hpp"
#include "index/schema.hpp"
#include "similar/groups.hpp"

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

struct Hashed {
  std::vector<similar::Image> images;
  std::vector<Xapian::docid> docids;
};

// Every document with a pHash (those with a slot::phash value).
Hashed hashed_documents(const Xapian::Database& db, const StoredData& stored) {
  Hashed out;
  for (auto it = db.valuestream_begin(slot::phash); it != db.valuestream_end(slot::phash); ++it) {
    merge::ImageDocument doc;
    Moderation m;
    if (!parse_document_data(stored.unpack(db.get_document(it.get_docid()).get_data()), doc, m) ||
        !m.phash)
      continue;
    out.images.push_back(
        {doc.id, *m.phash, doc.imgWidth, doc.imgHeight, capture_order(doc.imgCrawlTimestamp)});
    out.docids.push_back(it.get_docid());
  }
  return out;
}

// Writes a document's new group (none when `new_value` is empty); its value and term are
// written together, so a stored value means a stored term.
void set_group(Xapian::WritableDatabase& db, Xapian::docid docid, const std::string& old_value,
               const std::string& new_value) {
  Xapian::Document doc = db.get_document(docid);
  if (const auto old_leader = group_leader(old_value)) {
    doc.remove_term(group_term(*old_leader));
    doc.remove_value(slot::group);
  }
  if (const auto leader = group_leader(new_value)) {
    doc.add_boolean_term(group_term(*leader));
    doc.add_value(slot::group, new_value);
  }
  db.replace_document(docid, doc);
}

}  // namespace

std::string group_value(uint64_t leader) {
  std::string value(8, '\0');
  for (int i = 7; i >= 0; --i, leader >>= 8) value[static_cast<size_t>(i)] = char(leader & 0xff);
  return value;
}

std::optional<uint64_t> group_leader(const std::string& value) {
  if (value.size() != 8) return std::nullopt;
  uint64_t leader = 0;
  for (const char c : value) leader = leader << 8 | static_cast<unsigned char>(c);
  return leader;
}

std::string group_term(uint64_t leader) {
  return std::string(prefix::near_duplicate_group) + analyze::phash_hex(leader);
}

RegroupReport regroup_near_duplicates(Xapian::WritableDatabase& db, const StoredData& stored,
                                      unsigned threads) {
  const Hashed hashed = hashed_documents(db, stored);
  const auto grouping =
      similar::group_near_duplicates(hashed.images, similar::kNearDuplicateRadius, threads);
  RegroupReport report{hashed.images.size(), grouping.groups, grouping.grouped, 0};
  // docid -> (stored value, wanted value); only documents with either.
  std::map<Xapian::docid, std::pair<std::string, std::string>> values;
  for (auto it = db.valuestream_begin(slot::group); it != db.valuestream_end(slot::group); ++it)
    values[it.get_docid()].first = *it;
  for (size_t i = 0; i < hashed.images.size(); ++i)
    if (grouping.size[i] >= 2)
      values[hashed.docids[i]].second = group_value(hashed.images[grouping.leader[i]].phash);
  for (const auto& [docid, stored_and_wanted] : values) {
    const auto& [old_value, new_value] = stored_and_wanted;
    if (old_value == new_value) continue;
    set_group(db, docid, old_value, new_value);
    ++report.changed;
  }
  return report;
}

}  // namespace strata::index
