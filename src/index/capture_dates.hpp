#pragma once
// Every capture of a document is searchable by date (docs/search.md, "Capture dates"): the
// first capture is in the timestamp slot, each later capture time gives a year, a month and a
// day term (prefix::capture; a document captured once has none), and the document's distinct
// capture years fill one value slot each (slot::capture_year + k) for the years facet, which
// counts them with Xapian's stock ValueCountMatchSpy.
#include <xapian.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "merge/document.hpp"

namespace strata::index {

// Digits of a capture year, month and day: the periods of the capture terms.
inline constexpr size_t kYearDigits = 4, kMonthDigits = 6, kDayDigits = 8;

// Year slots at most (captures span far fewer years; later years are not counted).
inline constexpr Xapian::valueno kMaxCaptureYears = 64;

// The document's capture times: imgCaptureTimes, or its first and latest capture when the
// list is empty (documents built by hand).
std::vector<std::string> capture_times(const merge::ImageDocument& d);
// prefix::capture + a period: yyyy, yyyyMM or yyyyMMdd.
std::string capture_term(std::string_view period);
// The capture terms (of the captures after the first) and year slots of `d`.
void add_capture_dates(Xapian::Document& xd, const merge::ImageDocument& d);

// Year slots in use in `db` (those holding any value).
Xapian::valueno capture_year_slots(const Xapian::Database& db);
// "yyyy" of a year slot's value.
std::string capture_year(std::string_view slot_value);
// The latest capture year in `db`; nullopt when it holds no capture.
std::optional<std::string> latest_capture_year(const Xapian::Database& db);

}  // namespace strata::index
