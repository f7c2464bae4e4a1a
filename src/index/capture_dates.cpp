#include "index/capture_dates.hpp"

#include <algorithm>

#include "index/schema.hpp"
#include "index/timestamp_value.hpp"

namespace strata::index {
namespace {

constexpr size_t kPackedYearBytes = kYearDigits / 2;

bool is_timestamp(const std::string& t) {
  return t.size() >= kDayDigits && std::all_of(t.begin(), t.begin() + kDayDigits,
                                               [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::vector<std::string> capture_times(const merge::ImageDocument& d) {
  if (!d.imgCaptureTimes.empty()) return d.imgCaptureTimes;
  std::vector<std::string> out;
  if (!d.imgCrawlTimestamp.empty()) out.push_back(d.imgCrawlTimestamp);
  if (!d.imgCrawlTimestampLatest.empty() && d.imgCrawlTimestampLatest != d.imgCrawlTimestamp)
    out.push_back(d.imgCrawlTimestampLatest);
  return out;
}

std::string capture_term(std::string_view period) {
  std::string t(prefix::capture);
  t += period;
  return t;
}

void add_capture_dates(Xapian::Document& xd, const merge::ImageDocument& d) {
  std::vector<std::string> years;
  for (const std::string& t : capture_times(d)) {
    if (!is_timestamp(t)) continue;
    years.push_back(t.substr(0, kYearDigits));
    if (t == d.imgCrawlTimestamp) continue;  // the timestamp slot finds the first capture
    for (const size_t digits : {kYearDigits, kMonthDigits, kDayDigits})
      xd.add_boolean_term(capture_term(std::string_view(t).substr(0, digits)));
  }
  std::sort(years.begin(), years.end());
  years.erase(std::unique(years.begin(), years.end()), years.end());
  const size_t slots = std::min<size_t>(years.size(), kMaxCaptureYears);
  for (size_t k = 0; k < slots; ++k)
    xd.add_value(slot::capture_year + static_cast<Xapian::valueno>(k),
                 pack_timestamp(years[k]).substr(0, kPackedYearBytes));
}

Xapian::valueno capture_year_slots(const Xapian::Database& db) {
  Xapian::valueno k = 0;
  while (k < kMaxCaptureYears && db.get_value_freq(slot::capture_year + k) > 0) ++k;
  return k;
}

std::string capture_year(std::string_view slot_value) {
  return unpack_timestamp(slot_value.substr(0, kPackedYearBytes));
}

std::optional<std::string> latest_capture_year(const Xapian::Database& db) {
  std::optional<std::string> latest;
  for (Xapian::valueno k = 0, n = capture_year_slots(db); k < n; ++k) {
    std::string year = capture_year(db.get_value_upper_bound(slot::capture_year + k));
    if (!latest || year > *latest) latest = std::move(year);
  }
  return latest;
}

}  // namespace strata::index
