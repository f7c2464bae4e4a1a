#pragma once
// robots.txt per RFC 9309, with the leniencies of Google's reference parser
// (github.com/google/robotstxt) that its conformance suite expects: a missing colon, common
// key typos, "*" followed by text, "/index.htm(l)" allow rules also allowing the folder.
// Parsing never fails: every line that parses is used, the rest are ignored; input past
// kMaxRobotsBytes is not read. docs/crawl.md "robots.txt" lists every rule.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::crawl {

// RFC 9309 §2.5: the parsing limit must be at least 500 KiB.
inline constexpr std::size_t kMaxRobotsBytes = 500 * 1024;

struct RobotsRule {
  bool allow = false;
  std::string pattern;  // %-escapes upper-cased, non-ASCII octets %-encoded
};

struct RobotsGroup {
  std::vector<std::string> agents;  // product tokens as written ("*" for the global group)
  bool global = false;
  std::vector<RobotsRule> rules;
  std::optional<double> crawl_delay_s;  // Crawl-delay (not in the RFC), seconds
};

class RobotsTxt {
 public:
  RobotsTxt() = default;  // no rules: everything allowed
  static RobotsTxt parse(std::string_view body);
  // Availability outcomes of RFC 9309 §2.3.1: 4xx "unavailable" allows everything,
  // 5xx or no answer "unreachable" disallows everything.
  static RobotsTxt allow_all() { return RobotsTxt(); }
  static RobotsTxt disallow_all();

  // Whether `agent` (a product token, compared case-insensitively) may fetch `url` (an
  // absolute URL or a path; only path, parameters and query count). /robots.txt itself is
  // judged like any path, as the conformance suite expects; the crawler fetches it unasked.
  bool allowed(std::string_view agent, std::string_view url) const;
  // The Crawl-delay of the group that applies to `agent`, if it gives one.
  std::optional<double> crawl_delay(std::string_view agent) const;
  const std::vector<RobotsGroup>& groups() const { return groups_; }
  std::vector<std::string> sitemaps;

 private:
  // The groups that apply to `agent`: those naming it, else the global ones.
  std::vector<const RobotsGroup*> groups_for(std::string_view agent) const;

  std::vector<RobotsGroup> groups_;
  bool disallow_everything_ = false;
};

// The path, parameters and query of a URL ("/" when it has none), fragment dropped.
std::string robots_path(std::string_view url);
// The product token at the start of a User-Agent value: [A-Za-z_-]*.
std::string_view product_token(std::string_view user_agent);
// Whether `path` matches `pattern` ('*' any sequence, '$' at the end anchors).
bool robots_pattern_matches(std::string_view path, std::string_view pattern);

}  // namespace strata::crawl
