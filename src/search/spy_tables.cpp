#include "search/spy_tables.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>

#include "index/capture_dates.hpp"
#include "index/schema.hpp"

namespace strata::search {
namespace {

// One table of type Table per index (uuid), for the latest revision read; `read` builds it.
template <class Table>
std::shared_ptr<const Table> per_revision(
    const Xapian::Database& db, bool remote,
    const std::function<std::unique_ptr<Table>(const Xapian::Database&)>& read) {
  if (remote || db.size() != 1) return nullptr;
  static std::mutex mutex;
  static std::map<std::string, std::pair<Xapian::rev, std::shared_ptr<const Table>>> tables;
  const std::string uuid = db.get_uuid();
  Xapian::rev revision = 0;
  try {
    revision = db.get_revision();
  } catch (const Xapian::InvalidOperationError&) {
    return nullptr;  // not a glass or chert folder (an in-memory index)
  }
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = tables.find(uuid);
    if (found != tables.end() && found->second.first == revision) return found->second.second;
  }
  // Read outside the lock: other indexes' searches go on meanwhile.
  std::shared_ptr<const Table> table = read(db);
  const std::lock_guard<std::mutex> lock(mutex);
  auto& entry = tables[uuid];
  if (entry.second == nullptr || entry.first <= revision) entry = {revision, table};
  return table;
}

// The first entry of `list` (sorted by docid) at `docid` or after, searched from `cursor`: the
// matcher visits a local index's documents in ascending docid order (from the start again if
// they did not come in order).
template <class Entry>
size_t seek(const std::vector<Entry>& list, size_t cursor, Xapian::docid docid) {
  if (cursor > 0 && list[cursor - 1].first >= docid) cursor = 0;
  return static_cast<size_t>(
      std::lower_bound(list.begin() + static_cast<std::ptrdiff_t>(cursor), list.end(), docid,
                       [](const Entry& entry, Xapian::docid d) { return entry.first < d; }) -
      list.begin());
}

}  // namespace

std::unique_ptr<CaptureYears> CaptureYears::read(const Xapian::Database& db) {
  auto out = std::make_unique<CaptureYears>();
  std::map<std::string, uint8_t> numbers;
  out->first_.assign(static_cast<size_t>(db.get_lastdocid()) + 1, 0);
  for (Xapian::valueno k = 0, n = index::capture_year_slots(db); k < n; ++k) {
    const Xapian::valueno slot = index::slot::capture_year + k;
    for (auto it = db.valuestream_begin(slot); it != db.valuestream_end(slot); ++it) {
      const std::string value = *it;
      auto found = numbers.find(value);
      if (found == numbers.end()) {
        if (numbers.size() == kMaxYears) return nullptr;
        found = numbers.emplace(value, static_cast<uint8_t>(numbers.size() + 1)).first;
        out->values_.push_back(value);
      }
      const Xapian::docid docid = it.get_docid();
      if (docid >= out->first_.size()) continue;  // not in the revision read
      if (k == 0)
        out->first_[docid] = found->second;
      else
        out->more_.emplace_back(docid, found->second);
    }
  }
  std::stable_sort(out->more_.begin(), out->more_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

std::unique_ptr<GroupMembers> GroupMembers::read(const Xapian::Database& db) {
  auto out = std::make_unique<GroupMembers>();
  std::map<std::string, uint32_t> numbers;
  const Xapian::valueno slot = index::slot::group;
  for (auto it = db.valuestream_begin(slot); it != db.valuestream_end(slot); ++it) {
    const std::string value = *it;
    if (value.empty()) continue;
    const auto [at, added] = numbers.emplace(value, static_cast<uint32_t>(numbers.size()));
    out->members_.emplace_back(it.get_docid(), at->second);
  }
  out->groups_ = numbers.size();
  return out;
}

std::shared_ptr<const CaptureYears> capture_years_of(const Xapian::Database& db, bool remote) {
  return per_revision<CaptureYears>(db, remote, &CaptureYears::read);
}

std::shared_ptr<const GroupMembers> group_members_of(const Xapian::Database& db, bool remote) {
  return per_revision<GroupMembers>(db, remote, &GroupMembers::read);
}

CaptureYearsSpy::CaptureYearsSpy(std::shared_ptr<const CaptureYears> years)
    : years_(std::move(years)), counts_(years_->values().size() + 1, 0) {}

void CaptureYearsSpy::operator()(const Xapian::Document& doc, double) {
  ++checked_;
  const Xapian::docid docid = doc.get_docid();
  ++counts_[years_->first(docid)];
  const auto& more = years_->more();
  if (more.empty()) return;
  for (more_ = seek(more, more_, docid); more_ < more.size() && more[more_].first == docid; ++more_)
    ++counts_[more[more_].second];
}

std::vector<std::pair<std::string, uint64_t>> CaptureYearsSpy::counts() const {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (size_t i = 1; i < counts_.size(); ++i)
    if (counts_[i] > 0) out.emplace_back(years_->values()[i - 1], counts_[i]);
  return out;
}

GroupCountSpy::GroupCountSpy(std::shared_ptr<const GroupMembers> groups)
    : groups_(std::move(groups)), seen_(groups_->groups(), false) {}

void GroupCountSpy::operator()(const Xapian::Document& doc, double) {
  ++checked_;
  const auto& members = groups_->members();
  if (members.empty()) return;
  const Xapian::docid docid = doc.get_docid();
  cursor_ = seek(members, cursor_, docid);
  if (cursor_ == members.size() || members[cursor_].first != docid) return;
  ++grouped_;
  if (!seen_[members[cursor_].second]) seen_[members[cursor_].second] = true, ++distinct_;
}

}  // namespace strata::search
