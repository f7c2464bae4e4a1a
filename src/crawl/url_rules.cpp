#include "crawl/url_rules.hpp"

#include <algorithm>
#include <array>

#include "url/url.hpp"

namespace strata::crawl {
namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), lower);
  return out;
}

bool is_session_param(std::string_view name) {
  static constexpr std::array<std::string_view, 7> kNames{
      "jsessionid", "phpsessid", "sid", "sessionid", "cfid", "cftoken", "sessid"};
  std::string lowered = to_lower(name);
  return std::find(kNames.begin(), kNames.end(), lowered) != kNames.end() ||
         lowered.rfind("aspsessionid", 0) == 0;
}

// Drops session-id parameters from the query and ";jsessionid=..." path parameters.
std::string strip_session_ids(std::string url) {
  std::size_t semi = url.find(";jsessionid=");
  if (semi == std::string::npos) semi = url.find(";JSESSIONID=");
  if (semi != std::string::npos) {
    std::size_t end = url.find_first_of("?#", semi);
    url.erase(semi, end == std::string::npos ? std::string::npos : end - semi);
  }
  std::size_t q = url.find('?');
  if (q == std::string::npos) return url;
  std::string_view query = std::string_view(url).substr(q + 1);
  std::string kept;
  while (!query.empty()) {
    std::size_t amp = query.find('&');
    std::string_view param = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (param.empty() || is_session_param(param.substr(0, param.find('=')))) continue;
    if (!kept.empty()) kept += '&';
    kept += param;
  }
  url.resize(kept.empty() ? q : q + 1);
  return url + kept;
}

std::string_view path_of(std::string_view url) {
  std::size_t authority = url.find("://");
  std::size_t start = url.find('/', authority == std::string_view::npos ? 0 : authority + 3);
  if (start == std::string_view::npos) return {};
  return url.substr(start, url.find('?', start) - start);
}

std::string_view query_of(std::string_view url) {
  std::size_t q = url.find('?');
  return q == std::string_view::npos ? std::string_view() : url.substr(q + 1);
}

bool ends_with_domain(std::string_view host, std::string_view domain) {
  if (host == domain) return true;
  return host.size() > domain.size() && host.ends_with(domain) &&
         host[host.size() - domain.size() - 1] == '.';
}

}  // namespace

std::optional<std::string> normalize_url(std::string_view base, std::string_view reference) {
  auto resolved = url::resolve(base, reference);
  if (!resolved) return std::nullopt;
  std::string u = std::move(*resolved);
  if (!(u.rfind("http://", 0) == 0 || u.rfind("https://", 0) == 0)) return std::nullopt;
  if (std::size_t hash = u.find('#'); hash != std::string::npos) u.resize(hash);
  if (url::host(u).empty()) return std::nullopt;
  return url::canonical_escapes(strip_session_ids(std::move(u)));
}

std::string seen_key(std::string_view normalized_url) {
  return url::join_surt(normalized_url);
}

std::string_view trap_of(std::string_view url, const TrapLimits& limits) {
  if (url.size() > limits.max_url_length) return "url_length";
  std::string_view path = path_of(url);
  std::vector<std::string_view> segments;
  for (std::size_t i = 0; i < path.size();) {
    std::size_t next = path.find('/', i + 1);
    std::string_view segment =
        path.substr(i + 1, next == std::string_view::npos ? path.size() : next - i - 1);
    if (!segment.empty()) segments.push_back(segment);
    i = next == std::string_view::npos ? path.size() : next;
  }
  if (segments.size() > limits.max_path_depth) return "path_depth";
  for (std::string_view segment : segments)
    if (static_cast<std::size_t>(std::count(segments.begin(), segments.end(), segment)) >
        limits.max_segment_repeats)
      return "repeated_segment";
  std::string_view query = query_of(url);
  if (query.size() > limits.max_query_length) return "query_length";
  if (!query.empty() && static_cast<std::size_t>(std::count(query.begin(), query.end(), '&')) + 1 >
                            limits.max_query_params)
    return "query_params";
  return "";
}

std::string politeness_host(std::string_view u) {
  std::size_t authority = u.find("://");
  if (authority == std::string_view::npos) return url::host(u);
  authority += 3;
  std::size_t end = u.find_first_of("/?#", authority);
  std::string_view hostport =
      u.substr(authority, end == std::string_view::npos ? u.size() - authority : end - authority);
  if (std::size_t at = hostport.rfind('@'); at != std::string_view::npos)
    hostport.remove_prefix(at + 1);
  return to_lower(hostport);
}

bool in_scope(const Scope& scope, std::string_view u, bool embed) {
  if (embed && scope.embeds_anywhere) return true;
  std::string host = url::host(u);
  bool host_ok = std::find(scope.hosts.begin(), scope.hosts.end(), host) != scope.hosts.end() ||
                 std::any_of(scope.domains.begin(), scope.domains.end(),
                             [&](const std::string& d) { return ends_with_domain(host, d); });
  if (!host_ok && !scope.surt_prefixes.empty()) {
    std::string surt = url::surt(u);
    host_ok = std::any_of(scope.surt_prefixes.begin(), scope.surt_prefixes.end(),
                          [&](const std::string& p) { return surt.rfind(p, 0) == 0; });
  }
  if (!host_ok) return false;
  if (scope.path_prefixes.empty() || embed) return true;
  std::string_view path = path_of(u);
  if (path.empty()) path = "/";
  return std::any_of(scope.path_prefixes.begin(), scope.path_prefixes.end(),
                     [&](const std::string& p) { return path.rfind(p, 0) == 0; });
}

}  // namespace strata::crawl
