#include "replay/banner.hpp"

#include <algorithm>
#include <array>

#include "core/timestamp.hpp"

namespace strata::replay {
namespace {

constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

std::string replay_link(std::string_view prefix, const Capture& c, std::string_view text) {
  return "<a target=\"_top\" style=\"color:#bfe0ff\" href=\"" +
         html_escape(std::string(prefix) + c.timestamp + "/" + c.url) + "\">" + std::string(text) +
         "</a>";
}

std::string time_element(const Capture& c) {
  return "<time datetime=\"" + timestamp_to_iso8601(c.timestamp) + "\">" +
         display_date(c.timestamp) + "</time>";
}

}  // namespace

std::string display_date(std::string_view ts) {
  if (ts.size() != 14) return std::string(ts);
  int month = std::stoi(std::string(ts.substr(4, 2)));
  if (month < 1 || month > 12) return std::string(ts);
  return std::string(ts.substr(6, 2)) + " " + kMonths[month - 1] + " " +
         std::string(ts.substr(0, 4)) + " " + std::string(ts.substr(8, 2)) + ":" +
         std::string(ts.substr(10, 2)) + ":" + std::string(ts.substr(12, 2)) + " UTC";
}

std::string banner_html(std::string_view prefix, const Capture& served,
                        std::span<const Capture> captures) {
  // Neighbours and position by time: records of one second (a response and its revisit,
  // http: and https:) count once.
  const Capture* previous = nullptr;
  const Capture* next = nullptr;
  size_t position = 1, times = 0;
  std::string last;
  for (const Capture& c : captures) {
    if (c.timestamp == last) continue;
    last = c.timestamp;
    ++times;
    if (c.timestamp < served.timestamp) previous = &c, ++position;
    if (c.timestamp > served.timestamp && !next) next = &c;
  }
  std::string out =
      "<div id=\"strata-replay-banner\" style=\"all:initial;display:block;position:relative;"
      "z-index:2147483647;box-sizing:border-box;width:100%;padding:6px 10px;background:#1d3557;"
      "color:#fff;font:13px/1.5 system-ui,sans-serif\">Archived capture of " +
      html_escape(served.url) + " &middot; captured <strong id=\"strata-replay-date\">" +
      time_element(served) + "</strong> &middot; capture " + std::to_string(position) + " of " +
      std::to_string(std::max<size_t>(times, 1));
  if (previous) out += " &middot; " + replay_link(prefix, *previous, "&lsaquo; previous");
  if (next) out += " &middot; " + replay_link(prefix, *next, "next &rsaquo;");
  out += " &middot; <a target=\"_top\" style=\"color:#bfe0ff\" href=\"" +
         html_escape(std::string(prefix) + "*/" + served.url) + "\">all captures</a></div>";
  return out;
}

std::string captures_page(std::string_view prefix, std::string_view url,
                          std::span<const Capture> captures) {
  std::string out =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Captures of " +
      html_escape(url) +
      "</title><style>body{font:15px/1.5 system-ui,sans-serif;margin:2em;max-width:60em}"
      "h2{margin-top:1.2em}li{margin:.2em 0}</style></head><body><h1>" +
      std::to_string(captures.size()) + " capture" + (captures.size() == 1 ? "" : "s") + " of " +
      html_escape(url) + "</h1>";
  std::string year;
  for (size_t i = captures.size(); i-- > 0;) {
    const Capture& c = captures[i];
    if (c.timestamp.substr(0, 4) != year) {
      out += (year.empty() ? "" : "</ul>") + std::string("<h2>") + c.timestamp.substr(0, 4) +
             "</h2><ul>";
      year = c.timestamp.substr(0, 4);
    }
    out += "<li><a href=\"" + html_escape(std::string(prefix) + c.timestamp + "/" + c.url) + "\">" +
           time_element(c) + "</a> " + html_escape(c.url) + " &middot; " + html_escape(c.mime) +
           (c.status.empty() ? "" : " &middot; HTTP " + c.status) +
           (c.revisit ? " (unchanged, revisit)" : "") + "</li>";
  }
  if (!year.empty()) out += "</ul>";
  return out + "</body></html>";
}

}  // namespace strata::replay
