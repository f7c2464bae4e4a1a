#include "core/timestamp.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>

namespace strata {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

int field(std::string_view ts, size_t pos, size_t len) {
  int value = 0;
  for (size_t i = pos; i < pos + len; ++i) value = value * 10 + (ts[i] - '0');
  return value;
}

bool valid_calendar(std::string_view ts) {
  using namespace std::chrono;
  int y = field(ts, 0, 4), mo = field(ts, 4, 2), d = field(ts, 6, 2);
  int h = field(ts, 8, 2), mi = field(ts, 10, 2), s = field(ts, 12, 2);
  if (y < 1900 || h > 23 || mi > 59 || s > 60) return false;
  return year_month_day{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}}
      .ok();
}

}  // namespace

std::optional<std::string> timestamp_from_digits(std::string_view text) {
  if (!all_digits(text) || text.size() < 4 || text.size() > 18) return std::nullopt;
  std::string ts(text.substr(0, 14));
  // Missing month/day default to 01, missing time fields to 00 (wayback convention).
  static constexpr std::string_view kDefaults = "00000101000000";
  while (ts.size() < 14) ts.push_back(kDefaults[ts.size()]);
  // Compared in place (substr of a string copies): readers convert a date per record.
  if (ts.compare(4, 2, "00") == 0) ts.replace(4, 2, "01");
  if (ts.compare(6, 2, "00") == 0) ts.replace(6, 2, "01");
  if (!valid_calendar(ts)) return std::nullopt;
  return ts;
}

std::optional<std::string> timestamp_from_iso8601(std::string_view text) {
  std::string digits;
  size_t i = 0;
  // Keep the digits of date and time, stop at fractions or a zone designator.
  for (; i < text.size() && digits.size() < 14; ++i) {
    char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c)))
      digits.push_back(c);
    else if (c == '.' || c == ',' || c == 'Z' || c == '+' || (c == '-' && digits.size() >= 12))
      break;
    else if (c != '-' && c != ':' && c != 'T' && c != ' ')
      return std::nullopt;
  }
  if (digits.size() != 4 && digits.size() != 6 && digits.size() != 8 && digits.size() != 12 &&
      digits.size() != 14)
    return std::nullopt;
  return timestamp_from_digits(digits);
}

std::optional<int64_t> timestamp_to_epoch(std::string_view ts) {
  using namespace std::chrono;
  if (ts.size() != 14 || !all_digits(ts) || !valid_calendar(ts)) return std::nullopt;
  year_month_day ymd{year{field(ts, 0, 4)}, month{static_cast<unsigned>(field(ts, 4, 2))},
                     day{static_cast<unsigned>(field(ts, 6, 2))}};
  int64_t days = sys_days(ymd).time_since_epoch().count();
  return days * 86400 + field(ts, 8, 2) * 3600 + field(ts, 10, 2) * 60 + field(ts, 12, 2);
}

std::string timestamp_from_epoch(int64_t seconds) {
  using namespace std::chrono;
  int64_t days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
  int64_t rest = seconds - days * 86400;
  year_month_day ymd{sys_days{std::chrono::days{days}}};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d%02u%02u%02d%02d%02d", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(rest / 3600), static_cast<int>(rest / 60 % 60),
                static_cast<int>(rest % 60));
  return buf;
}

std::string timestamp_to_iso8601(std::string_view ts) {
  if (ts.size() != 14) return std::string(ts);
  std::string out;
  out.reserve(20);
  out.append(ts.substr(0, 4))
      .append("-")
      .append(ts.substr(4, 2))
      .append("-")
      .append(ts.substr(6, 2));
  out.append("T").append(ts.substr(8, 2)).append(":").append(ts.substr(10, 2)).append(":");
  out.append(ts.substr(12, 2)).append("Z");
  return out;
}

}  // namespace strata
