#include "crawl/robots.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace strata::crawl {
namespace {

// Google's parser truncates longer lines (2083 × 8 octets); so do we, for the same results.
constexpr std::size_t kMaxLineBytes = 2083 * 8;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return lower(x) == lower(y); });
}

bool starts_with_ignore_case(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && equals_ignore_case(s.substr(0, prefix.size()), prefix);
}

bool starts_with_any(std::string_view key, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view p) { return starts_with_ignore_case(key, p); });
}

enum class Key { user_agent, allow, disallow, sitemap, crawl_delay, unknown };

Key key_kind(std::string_view key) {
  if (starts_with_any(key, {"user-agent", "useragent", "user agent"})) return Key::user_agent;
  if (starts_with_ignore_case(key, "allow")) return Key::allow;
  if (starts_with_any(key,
                      {"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}))
    return Key::disallow;
  if (starts_with_any(key, {"sitemap", "site-map"})) return Key::sitemap;
  if (starts_with_any(key, {"crawl-delay", "crawldelay", "crawl delay"})) return Key::crawl_delay;
  return Key::unknown;
}

// "key: value", or "key value" when the colon is missing and there are exactly two words.
bool split_key_value(std::string_view line, std::string_view& key, std::string_view& value) {
  line = trim(line.substr(0, line.find('#')));
  std::size_t sep = line.find(':');
  if (sep == std::string_view::npos) {
    sep = line.find_first_of(" \t");
    if (sep == std::string_view::npos) return false;
    std::string_view rest = trim(line.substr(sep));
    if (rest.find_first_of(" \t") != std::string_view::npos) return false;
  }
  key = trim(line.substr(0, sep));
  value = trim(line.substr(sep + 1));
  return !key.empty();
}

// Octets above 0x7F %-encoded, existing escapes upper-cased (RFC 9309 §2.2.2).
std::string escape_pattern(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto c = static_cast<unsigned char>(value[i]);
    if (c == '%' && i + 2 < value.size() &&
        std::isxdigit(static_cast<unsigned char>(value[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(value[i + 2]))) {
      out += '%';
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(value[i + 1])));
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(value[i + 2])));
      i += 2;
    } else if (c >= 0x80) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::optional<double> parse_delay(std::string_view value) {
  double seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec != std::errc() || end == value.data() || !std::isfinite(seconds) || seconds < 0)
    return std::nullopt;
  return seconds;
}

// Lines end at LF, CR or CRLF; a UTF-8 byte-order mark (or its leading part) is skipped.
std::vector<std::string_view> split_lines(std::string_view body) {
  static constexpr std::array<unsigned char, 3> kBom{0xEF, 0xBB, 0xBF};
  for (std::size_t i = 0; i < kBom.size() && !body.empty(); ++i) {
    if (static_cast<unsigned char>(body.front()) != kBom[i]) break;
    body.remove_prefix(1);
  }
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    if (i < body.size() && body[i] != '\n' && body[i] != '\r') continue;
    lines.push_back(body.substr(start, std::min(i - start, kMaxLineBytes)));
    if (i + 1 < body.size() && body[i] == '\r' && body[i + 1] == '\n') ++i;
    start = i + 1;
  }
  return lines;
}

// A "*" user-agent, alone or followed by whitespace, names every crawler.
bool is_global_agent(std::string_view value) {
  return !value.empty() && value[0] == '*' && (value.size() == 1 || is_space(value[1]));
}

// Length of the longest rule of `groups` matching `path` with this `allow` value; -1 when none.
int best_match(const std::vector<const RobotsGroup*>& groups, std::string_view path, bool allow) {
  int best = -1;
  for (const RobotsGroup* group : groups) {
    for (const RobotsRule& rule : group->rules) {
      if (rule.allow != allow) continue;
      if (robots_pattern_matches(path, rule.pattern)) {
        best = std::max(best, static_cast<int>(rule.pattern.size()));
      } else if (allow) {
        // ".../index.htm(l)" allows the folder itself ("/dir/$"), as Google's parser does.
        std::size_t slash = rule.pattern.rfind('/');
        if (slash == std::string::npos || rule.pattern.compare(slash, 10, "/index.htm") != 0)
          continue;
        std::string folder = rule.pattern.substr(0, slash + 1) + '$';
        if (robots_pattern_matches(path, folder))
          best = std::max(best, static_cast<int>(folder.size()));
      }
    }
  }
  return best;
}

}  // namespace

std::string_view product_token(std::string_view user_agent) {
  std::size_t end = 0;
  while (end < user_agent.size()) {
    char c = user_agent[end];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_')) break;
    ++end;
  }
  return user_agent.substr(0, end);
}

bool robots_pattern_matches(std::string_view path, std::string_view pattern) {
  // The set of path positions the pattern prefix read so far can end at, kept sorted.
  std::vector<std::size_t> positions{0};
  std::vector<std::size_t> next;
  for (std::size_t p = 0; p < pattern.size(); ++p) {
    char c = pattern[p];
    if (c == '$' && p + 1 == pattern.size()) return positions.back() == path.size();
    if (c == '*') {
      std::size_t first = positions.front();
      positions.clear();
      for (std::size_t i = first; i <= path.size(); ++i) positions.push_back(i);
      continue;
    }
    next.clear();
    for (std::size_t pos : positions)
      if (pos < path.size() && path[pos] == c) next.push_back(pos + 1);
    if (next.empty()) return false;
    positions.swap(next);
  }
  return true;
}

std::string robots_path(std::string_view url) {
  std::size_t search_start = url.substr(0, 2) == "//" ? 2 : 0;
  std::size_t early_path = url.find_first_of("/?;", search_start);
  std::size_t scheme_end = url.find("://", search_start);
  if (early_path < scheme_end) scheme_end = std::string_view::npos;
  std::size_t authority = scheme_end == std::string_view::npos ? search_start : scheme_end + 3;
  std::size_t path_start = url.find_first_of("/?;", authority);
  if (path_start == std::string_view::npos) return "/";
  std::size_t hash = url.find('#', search_start);
  if (hash < path_start) return "/";
  std::size_t path_end = hash == std::string_view::npos ? url.size() : hash;
  std::string path(url.substr(path_start, path_end - path_start));
  if (path.front() != '/') path.insert(path.begin(), '/');
  return path;
}

RobotsTxt RobotsTxt::disallow_all() {
  RobotsTxt robots;
  robots.disallow_everything_ = true;
  return robots;
}

RobotsTxt RobotsTxt::parse(std::string_view body) {
  RobotsTxt robots;
  bool group_has_records = true;  // a user-agent line after records starts a new group
  for (std::string_view line : split_lines(body.substr(0, kMaxRobotsBytes))) {
    std::string_view key, value;
    if (!split_key_value(line, key, value)) continue;
    Key kind = key_kind(key);
    if (kind == Key::sitemap) {
      if (!value.empty()) robots.sitemaps.emplace_back(value);
      continue;
    }
    if (kind == Key::unknown) continue;
    if (kind == Key::user_agent) {
      if (group_has_records) robots.groups_.emplace_back();
      group_has_records = false;
      RobotsGroup& group = robots.groups_.back();
      if (is_global_agent(value)) {
        group.global = true;
        group.agents.emplace_back("*");
      } else {
        group.agents.emplace_back(product_token(value));
      }
      continue;
    }
    if (robots.groups_.empty()) continue;  // records before the first user-agent line
    group_has_records = true;
    RobotsGroup& group = robots.groups_.back();
    if (kind == Key::crawl_delay) {
      if (auto delay = parse_delay(value)) group.crawl_delay_s = delay;
    } else {
      group.rules.push_back({kind == Key::allow, escape_pattern(value)});
    }
  }
  return robots;
}

std::vector<const RobotsGroup*> RobotsTxt::groups_for(std::string_view agent) const {
  std::vector<const RobotsGroup*> specific, global;
  for (const RobotsGroup& group : groups_) {
    bool named = std::any_of(group.agents.begin(), group.agents.end(), [&](const std::string& a) {
      return a != "*" && !a.empty() && equals_ignore_case(a, agent);
    });
    if (named) {
      specific.push_back(&group);
    } else if (group.global) {
      global.push_back(&group);
    }
  }
  return specific.empty() ? global : specific;
}

bool RobotsTxt::allowed(std::string_view agent, std::string_view url) const {
  if (disallow_everything_) return false;
  std::string path = robots_path(url);
  auto groups = groups_for(agent);
  int disallow = best_match(groups, path, false);
  // An empty Disallow matches everything with length 0 and disallows nothing.
  return disallow <= 0 || best_match(groups, path, true) >= disallow;
}

std::optional<double> RobotsTxt::crawl_delay(std::string_view agent) const {
  std::optional<double> delay;
  for (const RobotsGroup* group : groups_for(agent))
    if (group->crawl_delay_s) delay = std::max(delay.value_or(0), *group->crawl_delay_s);
  return delay;
}

}  // namespace strata::crawl
