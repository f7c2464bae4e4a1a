// The pywb / cdxj-indexer key: a port of the Python `surt` package defaults
// (handyurl.parse + GoogleURLCanonicalizer + IAURLCanonicalizer + SURT format without scheme).
#include <arpa/inet.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "url/detail.hpp"
#include "url/url.hpp"

namespace strata::url {
namespace {

using namespace detail;

struct Handy {
  std::string scheme;
  std::optional<std::string> host, path, query;
  int port = 0;  // 0: none
};

std::string py_strip(std::string_view s) {
  auto ws = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); };
  std::size_t b = 0, e = s.size();
  while (b < e && ws(s[b])) ++b;
  while (e > b && ws(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

std::optional<std::string> nonempty(std::string_view s) {
  if (s.empty()) return std::nullopt;
  return std::string(s);
}

// handyurl.parse; nullopt where urlsplit raises (a port that is not a number).
std::optional<Handy> parse(std::string_view input) {
  std::string url;
  for (char c : py_strip(input))
    if (c != '\n' && c != '\r' && c != '\t') url += c;
  if (scheme_length(url) == 0) url = "http://" + url;
  // "^(https?://)+" -> "\1": "http://https://x" becomes "https://x".
  auto scheme_prefix = [](std::string_view s) -> std::size_t {
    return s.starts_with("http://") ? 7 : s.starts_with("https://") ? 8 : 0;
  };
  while (std::size_t n = scheme_prefix(url)) {
    if (!scheme_prefix(std::string_view(url).substr(n))) break;
    url.erase(0, n);
  }
  Handy h;
  std::size_t n = scheme_length(url);
  h.scheme = to_lower_ascii(url.substr(0, n));
  std::string_view rest = std::string_view(url).substr(n + 1);
  rest = rest.substr(0, rest.find('#'));
  if (std::size_t q = rest.find('?'); q != std::string_view::npos) {
    h.query = nonempty(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  std::string_view netloc;
  if (rest.starts_with("//")) {
    std::size_t end = rest.find('/', 2);
    if (end == std::string_view::npos) end = rest.size();
    netloc = rest.substr(2, end - 2);
    rest.remove_prefix(end);
  }
  while (netloc.ends_with(':')) netloc.remove_suffix(1);
  std::string_view hostport =
      netloc.substr(netloc.rfind('@') == std::string_view::npos ? 0 : netloc.rfind('@') + 1);
  std::string_view hostname = hostport;
  std::size_t bracket = hostport.find(']');
  std::size_t colon = hostport.find(':', bracket == std::string_view::npos ? 0 : bracket);
  if (colon != std::string_view::npos) {
    std::string_view digits = hostport.substr(colon + 1);
    hostname = hostport.substr(0, colon);
    if (!digits.empty()) {
      if (digits.size() > 5 || !std::all_of(digits.begin(), digits.end(), is_ascii_digit))
        return std::nullopt;
      h.port = std::stoi(std::string(digits));
      if (h.port > 65535) return std::nullopt;
    }
  }
  if (hostname.starts_with('[') && hostname.ends_with(']'))
    hostname = hostname.substr(1, hostname.size() - 2);
  h.host = nonempty(to_lower_ascii(hostname));
  h.path = nonempty(rest);
  if (h.scheme == "dns") {
    h.host = h.path;
    h.path.reset();
  } else if (h.scheme.starts_with("http") && !h.host && h.path) {
    std::string_view p = *h.path;
    while (p.starts_with('/')) p.remove_prefix(1);
    std::size_t slash = p.find('/');
    h.host = std::string(p.substr(0, slash));
    h.path = "/" + std::string(slash == std::string_view::npos ? "" : p.substr(slash + 1));
  }
  return h;
}

std::string unescape_repeatedly(std::string s) {
  while (true) {
    std::string un = percent_decode(s);
    if (un == s) return s;
    s = std::move(un);
  }
}

// GoogleURLCanonicalizer.escapeOnce: urllib quote with every printable ASCII but '#' and '%'.
std::string escape_once(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c > 0x20 && c < 0x7f && c != '#' && c != '%') {
      out += ch;
    } else {
      out.append("%").append(1, hex[c >> 4]).append(1, hex[c & 15]);
    }
  }
  return out;
}

// normalizePath: drops "." and empty segments, resolves ".." (kept when nothing to pop).
std::string normalize_path(std::string_view path) {
  if (path.empty()) return "/";
  std::vector<std::string_view> kept;
  std::size_t pos = path.find('/');
  if (pos == std::string_view::npos) return "/";
  for (pos = pos + 1; pos <= path.size();) {
    std::size_t end = std::min(path.find('/', pos), path.size());
    std::string_view p = path.substr(pos, end - pos);
    if (p == "..") {
      if (!kept.empty())
        kept.pop_back();
      else
        kept.push_back(p);
    } else if (p != ".") {
      kept.push_back(p);
    }
    pos = end + 1;
  }
  std::string out = "/";
  for (std::size_t i = 0; i + 1 < kept.size(); ++i)
    if (!kept[i].empty()) out.append(kept[i]).append("/");
  if (!kept.empty()) out.append(kept.back());
  return out;
}

// attemptIPFormats: all digits -> low 32 bits; dotted decimal/octal -> inet_aton form.
std::optional<std::string> ip_format(const std::string& host) {
  if (host.empty()) return std::nullopt;
  if (std::all_of(host.begin(), host.end(), is_ascii_digit)) {
    unsigned long long v = 0;
    for (char c : host) v = (v * 10 + unsigned(c - '0')) & 0xFFFFFFFFFFULL;
    v &= 0xFFFFFFFFULL;
    return std::to_string(v >> 24) + "." + std::to_string((v >> 16) & 255) + "." +
           std::to_string((v >> 8) & 255) + "." + std::to_string(v & 255);
  }
  static const std::regex decimal(R"(^([1-9][0-9]*)(\.[0-9]+)?(\.[0-9]+)?(\.[0-9]+)?$)");
  static const std::regex octal(R"(^(0[0-7]*)(\.[0-7]+)?(\.[0-7]+)?(\.[0-7]+)?$)");
  if (!std::regex_match(host, decimal) && !std::regex_match(host, octal)) return std::nullopt;
  in_addr addr{};
  if (inet_aton(host.c_str(), &addr) == 0) return std::nullopt;
  char buf[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &addr, buf, sizeof buf);
  return std::string(buf);
}

std::string canonical_host(const std::string& raw) {
  std::string host = unescape_repeatedly(raw);
  if (!is_ascii(host))
    if (auto idn = idn_to_ascii(host)) host = *idn;
  if (std::size_t dd = host.find(".."); dd != std::string::npos) {
    std::string out;  // str.replace("..", "."): one left-to-right pass
    for (std::size_t i = 0; i < host.size(); ++i) {
      if (host.compare(i, 2, "..") == 0) {
        out += '.';
        ++i;
      } else {
        out += host[i];
      }
    }
    host = out;
  }
  std::size_t b = host.find_first_not_of('.');
  host = b == std::string::npos ? "" : host.substr(b, host.find_last_not_of('.') - b + 1);
  if (auto ip = ip_format(host)) return *ip;
  return escape_once(to_lower_ascii(host));
}

std::string strip_query_session_ids(std::string query) {
  static const std::vector<std::regex> patterns = [] {
    std::vector<std::regex> v;
    auto icase = std::regex::ECMAScript | std::regex::icase;
    for (const char* p : {R"(^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$)",
                          R"(^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$)",
                          R"(^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$)",
                          R"(^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$)",
                          R"(^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$)"})
      v.emplace_back(p, icase);
    return v;
  }();
  std::string lower = to_lower_ascii(query);
  if (lower.find("sid") == std::string::npos && lower.find("sessionid") == std::string::npos &&
      lower.find("cfid") == std::string::npos)
    return query;  // cheap pre-check: none of the patterns can match
  for (const auto& re : patterns) {
    std::smatch m;
    if (std::regex_match(query, m, re)) query = m[1].str() + (m[2].matched ? m[2].str() : "");
  }
  return query;
}

// alphaReorderQuery: sort the (name, value) tuples bytewise; "a" sorts before "a=".
std::string alpha_reorder(const std::string& query) {
  if (query.size() <= 1) return query;
  std::vector<std::pair<std::string, std::optional<std::string>>> args;
  std::size_t pos = 0;
  while (pos <= query.size()) {
    std::size_t end = std::min(query.find('&', pos), query.size());
    std::string arg = query.substr(pos, end - pos);
    std::size_t eq = arg.find('=');
    if (eq == std::string::npos)
      args.emplace_back(arg, std::nullopt);
    else
      args.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
    pos = end + 1;
  }
  std::stable_sort(args.begin(), args.end());
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i) out += '&';
    out += args[i].first;
    if (args[i].second) out.append("=").append(*args[i].second);
  }
  return out;
}

void ia_canonicalize(Handy& h) {
  if (h.host) {
    static const std::regex www(R"(^www\d*\.)");
    if (h.scheme != "dns") *h.host = std::regex_replace(*h.host, www, "");
  }
  if ((h.scheme == "http" && h.port == 80) || (h.scheme == "https" && h.port == 443)) h.port = 0;
  if (h.path) {
    std::string path = to_lower_ascii(*h.path);
    if (path.size() > 1 && path.back() == '/') path.pop_back();
    h.path = path;
  }
  if (h.query) {
    std::string q = alpha_reorder(to_lower_ascii(strip_query_session_ids(*h.query)));
    h.query = nonempty(q);
  }
}

std::string reverse_labels(const std::string& host) {
  std::vector<std::string_view> labels;
  std::string_view rest = host;
  while (true) {
    std::size_t dot = rest.find('.');
    labels.push_back(rest.substr(0, dot));
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  std::string out;
  for (std::size_t i = labels.size(); i-- > 0;) {
    out += labels[i];
    if (i) out += ',';
  }
  return out;
}

}  // namespace

std::string cdx_surt(std::string_view url) {
  if (url.empty()) return "-";
  if (url.starts_with("filedesc")) return std::string(url);
  auto h = parse(url);
  if (!h) return std::string(url);  // cdxj-indexer falls back to the URL itself
  if (h->query) *h->query = escape_once(unescape_repeatedly(*h->query));
  if (h->host) *h->host = canonical_host(*h->host);
  if (h->scheme != "dns")
    h->path = escape_once(normalize_path(unescape_repeatedly(h->path.value_or(""))));
  ia_canonicalize(*h);
  if (!h->host || h->host->empty()) return std::string(url);
  std::string key = reverse_labels(*h->host);
  if (h->port) key += ":" + std::to_string(h->port);
  key += ')';
  if (h->path && !h->path->empty())
    key += *h->path;
  else if (h->query)
    key += '/';
  if (h->query) key += "?" + *h->query;
  return key;
}

}  // namespace strata::url
