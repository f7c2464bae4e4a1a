#include "search/capture_range.hpp"

#include <compare>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "index/capture_dates.hpp"
#include "index/document_builder.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "index/timestamp_value.hpp"
#include "search/dates.hpp"

namespace strata::search {
namespace {

using Q = Xapian::Query;

using index::kDayDigits, index::kMonthDigits, index::kYearDigits;

constexpr std::string_view kDayStart = "000000", kDayEnd = "235959";

struct Day {
  int y = 0, m = 0, d = 0;
  auto operator<=>(const Day&) const = default;
};

Day day_of(const std::string& ts) {
  return {std::stoi(ts.substr(0, 4)), std::stoi(ts.substr(4, 2)), std::stoi(ts.substr(6, 2))};
}

std::string digits(const Day& day) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d%02d%02d", day.y, day.m, day.d);
  return buf;
}

Day next_month(const Day& day) {
  return day.m < 12 ? Day{day.y, day.m + 1, 1} : Day{day.y + 1, 1, 1};
}

Day next_day(const Day& day) {
  return day.d < days_in_month(day.y, day.m) ? Day{day.y, day.m, day.d + 1} : next_month(day);
}

Q period_term(const Day& day, size_t period_digits) {
  return Q(index::capture_term(digits(day).substr(0, period_digits)));
}

// Whether any document was captured again in the period (year or month) that holds `day`;
// the answer for the last period asked is remembered.
class PeriodExists {
 public:
  PeriodExists(const Xapian::Database& db, size_t period_digits)
      : db_(db), digits_(period_digits) {}
  bool operator()(const Day& day) {
    std::string period = digits(day).substr(0, digits_);
    if (period != last_) exists_ = db_.term_exists(index::capture_term(period));
    last_ = std::move(period);
    return exists_;
  }

 private:
  const Xapian::Database& db_;
  size_t digits_;
  std::string last_;
  bool exists_ = false;
};

// The fewest year, month and day terms covering the days [first, end): the largest period
// that starts at each day and ends before `end`. Years and months in which no document was
// captured again are left out (and so is their every month or day): each term costs a look-up
// when the query runs, ~40 of them doubled the median query time of a date-filtered search.
void cover_days(const Xapian::Database& db, Day first, const Day& end, std::vector<Q>& out) {
  PeriodExists year_exists(db, kYearDigits), month_exists(db, kMonthDigits);
  for (Day cur = first; cur < end;) {
    const Day next_year{cur.y + 1, 1, 1};
    if (!year_exists(cur)) {
      cur = next_year;
    } else if (cur.m == 1 && cur.d == 1 && next_year <= end) {
      out.push_back(period_term(cur, kYearDigits));
      cur = next_year;
    } else if (!month_exists(cur)) {
      cur = next_month(cur);
    } else if (cur.d == 1 && next_month(cur) <= end) {
      out.push_back(period_term(cur, kMonthDigits));
      cur = next_month(cur);
    } else {
      out.push_back(period_term(cur, kDayDigits));
      cur = next_day(cur);
    }
  }
}

// The documents captured again on one day that have a capture in [lo, hi] (both within that
// day): the day term's documents, checked against their first capture (the timestamp slot)
// and, only when that is earlier than lo, against their stored capture times.
class CapturedWithinDay : public Xapian::PostingSource {
 public:
  CapturedWithinDay(std::string day_term, std::string lo, std::string hi)
      : term_(std::move(day_term)), lo_(std::move(lo)), hi_(std::move(hi)) {}

  void init(const Xapian::Database& db) override {
    db_ = db;
    stored_.reset();
    it_ = db.postlist_begin(term_);
    end_ = db.postlist_end(term_);
    termfreq_ = db.get_termfreq(term_);
    started_ = false;
  }
  Xapian::doccount get_termfreq_min() const override { return 0; }
  Xapian::doccount get_termfreq_est() const override { return termfreq_; }
  Xapian::doccount get_termfreq_max() const override { return termfreq_; }
  void next(double) override {
    if (started_) ++it_;
    started_ = true;
    settle();
  }
  void skip_to(Xapian::docid did, double) override {
    started_ = true;
    it_.skip_to(did);
    settle();
  }
  bool at_end() const override { return it_ == end_; }
  Xapian::docid get_docid() const override { return *it_; }
  Xapian::PostingSource* clone() const override { return new CapturedWithinDay(term_, lo_, hi_); }
  std::string name() const override { return "strata.CapturedWithinDay"; }

 private:
  void settle() {
    while (it_ != end_ && !captured_within(*it_)) ++it_;
  }
  bool captured_within(Xapian::docid did) {
    const Xapian::Document doc = db_.get_document(did, Xapian::DOC_ASSUME_VALID);
    const std::string first = index::unpack_timestamp(doc.get_value(index::slot::timestamp));
    if (first > hi_) return false;  // every capture is at or after the first
    if (first >= lo_) return true;
    if (!stored_) stored_ = std::make_shared<index::StoredData>(db_);  // first time needed
    merge::ImageDocument d;
    index::Moderation m;
    if (!index::parse_document_data(stored_->unpack(doc.get_data()), d, m)) return false;
    for (const std::string& t : index::capture_times(d))
      if (t >= lo_ && t <= hi_) return true;
    return false;
  }

  std::string term_, lo_, hi_;
  Xapian::Database db_;
  std::shared_ptr<const index::StoredData> stored_;  // read only when a check needs it
  Xapian::PostingIterator it_, end_;
  Xapian::doccount termfreq_ = 0;
  bool started_ = false;
};

// MatchNothing when no document was captured again that day: a posting source costs ~0.1 ms
// per query even when it has nothing to check (docs/BENCHMARKS.md at commit 276d1c6, "Capture
// dates").
Q captured_within_day(const Xapian::Database& db, const Day& day, const std::string& lo,
                      const std::string& hi) {
  std::string term = index::capture_term(digits(day));
  if (!db.term_exists(term)) return Q::MatchNothing;
  return Q((new CapturedWithinDay(std::move(term), lo, hi))->release());
}

}  // namespace

Q capture_range_query(const Xapian::Database& db, const std::optional<std::string>& from,
                      const std::optional<std::string>& to) {
  using index::pack_timestamp, index::slot::timestamp;
  // Some capture is at or before `to` exactly when the first one is.
  if (!from) return Q(Q::OP_VALUE_LE, timestamp, pack_timestamp(*to));
  std::string hi;
  if (to) {
    hi = *to;
  } else if (auto latest = index::latest_capture_year(db)) {
    hi = *latest + "1231" + std::string(kDayEnd);
  }
  const std::string& lo = *from;
  if (hi.empty() || lo > hi) return Q::MatchNothing;

  const Day first = day_of(lo), last = day_of(hi);
  const bool lo_inside_day = lo.substr(kDayDigits) != kDayStart;
  const bool hi_inside_day = hi.substr(kDayDigits) != kDayEnd;
  // The first capture, to the second; the later ones through their terms.
  std::vector<Q> clauses{Q(Q::OP_VALUE_RANGE, timestamp, pack_timestamp(lo), pack_timestamp(hi))};
  if (first == last && (lo_inside_day || hi_inside_day)) {
    clauses.push_back(captured_within_day(db, first, lo, hi));
  } else {
    if (lo_inside_day)
      clauses.push_back(captured_within_day(db, first, lo, digits(first) + std::string(kDayEnd)));
    if (hi_inside_day)
      clauses.push_back(captured_within_day(db, last, digits(last) + std::string(kDayStart), hi));
    cover_days(db, lo_inside_day ? next_day(first) : first, hi_inside_day ? last : next_day(last),
               clauses);
  }
  return Q(Q::OP_OR, clauses.begin(), clauses.end());
}

}  // namespace strata::search
