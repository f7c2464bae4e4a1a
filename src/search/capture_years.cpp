#include "search/capture_years.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include "index/capture_dates.hpp"
#include "index/schema.hpp"

namespace strata::search {

std::unique_ptr<CaptureYears> CaptureYears::read(const Xapian::Database& db) {
  auto out = std::make_unique<CaptureYears>();
  std::map<std::string, uint8_t> numbers;
  auto number = [&](const std::string& value) -> int {
    const auto [at, added] = numbers.emplace(value, static_cast<uint8_t>(numbers.size() + 1));
    if (added) {
      if (numbers.size() > kMaxYears) return -1;
      out->values_.push_back(value);
    }
    return at->second;
  };
  out->first_.assign(static_cast<size_t>(db.get_lastdocid()) + 1, 0);
  for (Xapian::valueno k = 0, n = index::capture_year_slots(db); k < n; ++k) {
    const Xapian::valueno slot = index::slot::capture_year + k;
    for (auto it = db.valuestream_begin(slot); it != db.valuestream_end(slot); ++it) {
      const int year = number(*it);
      if (year < 0) return nullptr;
      const Xapian::docid docid = it.get_docid();
      if (docid >= out->first_.size())
        continue;  // added after get_lastdocid(): not in this revision
      if (k == 0)
        out->first_[docid] = static_cast<uint8_t>(year);
      else
        out->more_.emplace_back(docid, static_cast<uint8_t>(year));
    }
  }
  std::stable_sort(out->more_.begin(), out->more_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

std::shared_ptr<const CaptureYears> capture_years_of(const Xapian::Database& db, bool remote) {
  if (remote || db.size() != 1) return nullptr;
  // One table per index (uuid), for its latest revision read.
  static std::mutex mutex;
  static std::map<std::string, std::pair<Xapian::rev, std::shared_ptr<const CaptureYears>>> tables;
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
  std::shared_ptr<const CaptureYears> table = CaptureYears::read(db);
  const std::lock_guard<std::mutex> lock(mutex);
  auto& entry = tables[uuid];
  if (entry.second == nullptr || entry.first <= revision) entry = {revision, table};
  return table;
}

CaptureYearsSpy::CaptureYearsSpy(std::shared_ptr<const CaptureYears> years)
    : years_(std::move(years)), counts_(years_->values().size() + 1, 0) {}

void CaptureYearsSpy::operator()(const Xapian::Document& doc, double) {
  ++checked_;
  const Xapian::docid docid = doc.get_docid();
  ++counts_[years_->first(docid)];
  const auto& more = years_->more();
  if (more.empty()) return;
  // Docids come in ascending order: search on from the cursor (from the start if they did not).
  if (more_ > 0 && more[more_ - 1].first >= docid) more_ = 0;
  more_ = static_cast<size_t>(
      std::lower_bound(more.begin() + static_cast<std::ptrdiff_t>(more_), more.end(), docid,
                       [](const auto& entry, Xapian::docid d) { return entry.first < d; }) -
      more.begin());
  for (; more_ < more.size() && more[more_].first == docid; ++more_) ++counts_[more[more_].second];
}

std::vector<std::pair<std::string, uint64_t>> CaptureYearsSpy::counts() const {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (size_t i = 1; i < counts_.size(); ++i)
    if (counts_[i] > 0) out.emplace_back(years_->values()[i - 1], counts_[i]);
  return out;
}

}  // namespace strata::search
