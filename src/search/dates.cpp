#include "search/dates.hpp"

#include <algorithm>
#include <cctype>

#include "core/timestamp.hpp"

namespace strata::search {
namespace {

bool valid_prefix(std::string_view t) {
  static constexpr size_t lengths[] = {4, 6, 8, 10, 12, 14};
  if (std::find(std::begin(lengths), std::end(lengths), t.size()) == std::end(lengths))
    return false;
  if (!std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); }))
    return false;
  // Pad to the first second of the period and let the calendar check decide.
  std::string first(t);
  first += std::string("0101000000").substr(first.size() - 4);
  return timestamp_to_epoch(first).has_value();
}

}  // namespace

int days_in_month(int year, int month) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

std::optional<std::string> parse_lower_bound(std::string_view text) {
  if (!valid_prefix(text)) return std::nullopt;
  std::string ts(text);
  return ts + std::string("0101000000").substr(ts.size() - 4);
}

std::optional<std::string> parse_upper_bound(std::string_view text) {
  if (!valid_prefix(text)) return std::nullopt;
  std::string ts(text);
  if (ts.size() == 4) ts += "12";
  if (ts.size() == 6) {
    int d = days_in_month(std::stoi(ts.substr(0, 4)), std::stoi(ts.substr(4, 2)));
    ts += std::to_string(d);
  }
  return ts + std::string("235959").substr(ts.size() - 8);
}

}  // namespace strata::search
