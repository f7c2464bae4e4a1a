#include "replay/memento.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <ctime>

#include "core/json.hpp"
#include "core/timestamp.hpp"

namespace strata::replay {
namespace {

constexpr std::array<const char*, 7> kDays = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

bool all_digits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int days_in_month(int year, int month) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

std::string link_entry(std::string_view uri, std::string_view rel, std::string_view datetime) {
  std::string out = "<" + std::string(uri) + ">; rel=\"" + std::string(rel) + "\"";
  if (!datetime.empty()) out += "; datetime=\"" + std::string(datetime) + "\"";
  return out;
}

std::string memento_rel(size_t i, size_t n) {
  if (n == 1) return "first last memento";
  if (i == 0) return "first memento";
  if (i + 1 == n) return "last memento";
  return "memento";
}

}  // namespace

std::optional<std::string> pad_timestamp(std::string_view digits, Pad pad) {
  if (digits.size() < 4 || digits.size() > 14 || !all_digits(digits)) return std::nullopt;
  std::string ts(digits);
  if (pad == Pad::down) {
    static constexpr std::string_view low = "00000101000000";
    ts += low.substr(ts.size());
  } else {
    static constexpr std::string_view high = "99991231235959";
    ts += high.substr(ts.size());
    // The last day of the month the digits name (a padded day of 31 would not exist).
    if (digits.size() < 8) {
      int year = std::stoi(ts.substr(0, 4)), month = std::stoi(ts.substr(4, 2));
      if (month >= 1 && month <= 12) {
        char day[3];
        std::snprintf(day, sizeof day, "%02d", days_in_month(year, month));
        ts.replace(6, 2, day);
      }
    }
  }
  if (!timestamp_to_epoch(ts)) return std::nullopt;
  return ts;
}

std::string http_date(std::string_view ts14) {
  auto epoch = timestamp_to_epoch(ts14);
  if (!epoch) return {};
  std::time_t t = static_cast<std::time_t>(*epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char out[40];
  std::snprintf(out, sizeof out, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return out;
}

std::optional<std::string> parse_http_date(std::string_view text) {
  // "Tue, 11 Sep 2001 20:35:00 GMT"
  char day[4] = {}, month[4] = {}, zone[4] = {};
  int d = 0, y = 0, hh = 0, mm = 0, ss = 0, used = 0;
  std::string s(text);
  if (std::sscanf(s.c_str(), "%3s, %d %3s %d %d:%d:%d %3s%n", day, &d, month, &y, &hh, &mm, &ss,
                  zone, &used) != 8 ||
      static_cast<size_t>(used) != s.size() || std::string_view(zone) != "GMT")
    return std::nullopt;
  auto m = std::find_if(kMonths.begin(), kMonths.end(),
                        [&](const char* name) { return std::string_view(name) == month; });
  if (m == kMonths.end()) return std::nullopt;
  char ts[32];
  std::snprintf(ts, sizeof ts, "%04d%02d%02d%02d%02d%02d", y, int(m - kMonths.begin()) + 1, d, hh,
                mm, ss);
  if (std::string_view(ts).size() != 14 || !timestamp_to_epoch(ts)) return std::nullopt;
  return std::string(ts);
}

std::string Routes::memento(std::string_view ts, std::string_view url) const {
  return replay + std::string(ts) + "/" + std::string(url);
}
std::string Routes::timegate(std::string_view url) const {
  return replay + std::string(url);
}
std::string Routes::timemap(std::string_view format, std::string_view url) const {
  return replay + "timemap/" + std::string(format) + "/" + std::string(url);
}

std::string memento_link_header(const Routes& routes, std::string_view original) {
  return link_entry(original, "original", {}) + ", " +
         link_entry(routes.timegate(original), "timegate", {}) + ", " +
         link_entry(routes.timemap("link", original), "timemap", {}) +
         "; type=\"application/link-format\"";
}

std::string timegate_link_header(const Routes& routes, std::string_view original,
                                 std::span<const Capture> captures) {
  return link_entry(original, "original", {}) + ", " +
         link_entry(routes.timemap("link", original), "timemap", {}) +
         "; type=\"application/link-format\"; from=\"" + http_date(captures.front().timestamp) +
         "\"; until=\"" + http_date(captures.back().timestamp) + "\"";
}

std::string timemap_link(const Routes& routes, std::string_view original,
                         std::span<const Capture> captures) {
  std::string out = link_entry(original, "original", {}) + ",\n";
  out += link_entry(routes.timemap("link", original), "self", {}) +
         "; type=\"application/link-format\"; from=\"" + http_date(captures.front().timestamp) +
         "\"; until=\"" + http_date(captures.back().timestamp) + "\",\n";
  out += link_entry(routes.timegate(original), "timegate", {});
  for (size_t i = 0; i < captures.size(); ++i)
    out += ",\n" + link_entry(routes.memento(captures[i].timestamp, captures[i].url),
                              memento_rel(i, captures.size()), http_date(captures[i].timestamp));
  return out + "\n";
}

std::string timemap_json(const Routes& routes, std::string_view original,
                         std::span<const Capture> captures) {
  auto memento = [&](const Capture& c) {
    return Json{{"datetime", timestamp_to_iso8601(c.timestamp)},
                {"uri", routes.memento(c.timestamp, c.url)}};
  };
  Json list = Json::array();
  for (const Capture& c : captures) list.push_back(memento(c));
  Json out = {{"original_uri", original},
              {"timegate_uri", routes.timegate(original)},
              {"timemap_uri",
               {{"link_format", routes.timemap("link", original)},
                {"json_format", routes.timemap("json", original)}}},
              {"mementos",
               {{"first", memento(captures.front())},
                {"last", memento(captures.back())},
                {"list", std::move(list)}}}};
  return out.dump(1) + "\n";
}

}  // namespace strata::replay
