// A faithful re-implementation of the parts of Heritrix's UsableURIFactory that decide the
// SURT Arquivo computes. Each step names the Java code it mirrors, because compatibility,
// not elegance, is the point: a different key would split one image into two documents.
#include <array>
#include <cstdint>
#include <string>

#include "url/detail.hpp"
#include "url/heritrix.hpp"
#include "url/url.hpp"

namespace strata::url::detail {
namespace {

struct Parts {
  std::optional<std::string> scheme, ssp, authority, path, query;
};

// Java String.trim(): strips every char <= ' ' at both ends.
std::string java_trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  return std::string(s.substr(b, e - b));
}

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    std::size_t hit = s.find(from, pos);
    if (hit == std::string_view::npos) break;
    out.append(s.substr(pos, hit - pos)).append(to);
    pos = hit + from.size();
  }
  out.append(s.substr(pos));
  return out;
}

// IE turns backslashes before the query into slashes.
void backslashes_to_slashes(std::string& uri) {
  std::size_t query = uri.find('?');
  for (std::size_t i = 0; i < uri.size() && i < query; ++i)
    if (uri[i] == '\\') uri[i] = '/';
}

// "^(https?://)/+(.*)" -> "$1$2" (case-sensitive, as in Java).
void collapse_scheme_slashes(std::string& uri) {
  for (std::string_view prefix : {"http://", "https://"}) {
    if (uri.rfind(prefix, 0) != 0) continue;
    std::size_t n = prefix.size();
    std::size_t end = n;
    while (end < uri.size() && uri[end] == '/') ++end;
    if (end > n) uri.erase(n, end - n);
    return;
  }
}

// java.lang.Character.isWhitespace for the code points that survive trimming.
bool java_whitespace(uint32_t cp) {
  if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F)) return true;
  if (cp == 0x1680 || cp == 0x2028 || cp == 0x2029 || cp == 0x205F || cp == 0x3000) return true;
  return cp >= 0x2000 && cp <= 0x200A && cp != 0x2007;
}

// UsableURIFactory.escapeWhitespace: "%" + Integer.toHexString(c), padded to even length.
std::string escape_whitespace(std::string_view uri) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < uri.size();) {
    std::size_t start = i;
    uint32_t cp = next_code_point(uri, i);
    if (!java_whitespace(cp)) {
      out.append(uri.substr(start, i - start));
      continue;
    }
    std::string digits;
    for (uint32_t v = cp; v; v >>= 4) digits.insert(digits.begin(), hex[v & 15]);
    if (digits.size() % 2) digits.insert(digits.begin(), '0');
    out += '%';
    out += digits;
  }
  return out;
}

// checkUriElement: an empty group is treated like an absent one.
std::optional<std::string> element(std::string_view s, bool present) {
  if (!present || s.empty()) return std::nullopt;
  return std::string(s);
}

// RFC2396REGEX ^(([a-zA-Z][a-zA-Z0-9+-.]*):)?((//([^/?#]*))?([^?#]*)(\?([^#]*))?)?(#(.*))?
Parts split_rfc2396(std::string_view uri) {
  Parts p;
  std::size_t n = scheme_length(uri);
  if (n > 0) {
    p.scheme = to_lower_ascii(uri.substr(0, n));
    uri.remove_prefix(n + 1);
  }
  std::string_view rest = uri.substr(0, uri.find('#'));
  p.ssp = element(rest, true);  // group 3: //authority, path and ?query
  std::size_t q = rest.find('?');
  std::string_view hier = rest.substr(0, q);
  if (q != std::string_view::npos) p.query = element(rest.substr(q + 1), true);
  if (hier.rfind("//", 0) == 0) {
    std::size_t end = hier.find('/', 2);
    if (end == std::string_view::npos) end = hier.size();
    p.authority = element(hier.substr(2, end - 2), true);
    hier.remove_prefix(end);
  }
  p.path = element(hier, true);
  return p;
}

}  // namespace

bool lax_safe(unsigned char c, bool query) {
  // One table look-up per character: every URL's path and query go through this.
  enum : uint8_t { kQuerySafe = 1, kSafe = 3 };
  static constexpr std::array<uint8_t, 256> kTable = [] {
    std::array<uint8_t, 256> t{};
    for (int b = 0; b < 256; ++b)
      if (is_ascii_alpha(char(b)) || is_ascii_digit(char(b))) t[b] = kSafe;
    for (char b : std::string_view("-~_.*/=&+,:;@$!)(%|'"))
      t[static_cast<unsigned char>(b)] = kSafe;
    for (char b : std::string_view("{}[]^?")) t[static_cast<unsigned char>(b)] = kQuerySafe;
    return t;
  }();
  return kTable[c] == kSafe || (query && kTable[c] == kQuerySafe);
}

namespace {

// ensureMinimalEscaping: unsafe bytes of the UTF-8 form become %XX (upper-case hex).
std::string minimal_escape(std::string_view s, bool query) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (lax_safe(c, query)) {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// ACCEPTABLE_ASCII_DOMAIN "^(?:[a-zA-Z0-9_-]++(?:\.)?)++$".
bool acceptable_ascii_domain(std::string_view label) {
  if (label.empty()) return false;
  bool need_char = true;
  for (char c : label) {
    if (c == '.') {
      if (need_char) return false;
      need_char = true;
    } else if (is_ascii_alpha(c) || is_ascii_digit(c) || c == '_' || c == '-') {
      need_char = false;
    } else {
      return false;
    }
  }
  return true;
}

// fixupDomainlabel: IDNA.toASCII (gnu-inet: labels of 1..63 after conversion) then
// lower-case; on failure tolerated only when it is a plain LDH(+underscore) name.
std::optional<std::string> fixup_domain(std::string_view label) {
  bool ok = true;
  std::string converted;
  if (is_ascii(label)) {
    converted = std::string(label);
    std::size_t pos = 0;
    while (pos <= converted.size()) {
      std::size_t end = converted.find('.', pos);
      if (end == std::string::npos) end = converted.size();
      if (end - pos > 63) ok = false;
      pos = end + 1;
    }
  } else if (auto idn = idn_to_ascii(label)) {
    converted = *idn;
  } else {
    ok = false;
  }
  if (!ok) {
    if (!acceptable_ascii_domain(label)) return std::nullopt;
    converted = std::string(label);
  }
  return to_lower_ascii(converted);
}

std::optional<std::string> fixup_authority(std::string auth) {
  while (auth.size() >= 3 && auth.compare(auth.size() - 3, 3, "%20") == 0)
    auth.resize(auth.size() - 3);
  std::size_t at = auth.find('@');
  std::size_t colon = auth.find(':', at == std::string::npos ? 0 : at);
  std::string userinfo =
      at == std::string::npos ? "" : minimal_escape(auth.substr(0, at + 1), false);
  std::size_t host_start = at == std::string::npos ? 0 : at + 1;
  std::size_t host_end = colon == std::string::npos ? auth.size() : colon;
  auto domain = fixup_domain(std::string_view(auth).substr(host_start, host_end - host_start));
  if (!domain) return std::nullopt;
  std::string port = colon == std::string::npos ? "" : auth.substr(colon);
  return userinfo + *domain + port;
}

// checkPort: "(.*:)([0-9]+)$" loses leading zeros and must be 1..65535.
std::optional<std::string> check_port(const std::string& auth) {
  std::size_t i = auth.size();
  while (i > 0 && is_ascii_digit(auth[i - 1])) --i;
  if (i == auth.size() || i == 0 || auth[i - 1] != ':') return auth;
  std::string digits = auth.substr(i);
  while (digits.size() > 1 && digits[0] == '0') digits.erase(0, 1);
  if (digits.size() > 5 || std::stoi(digits) <= 0 || std::stoi(digits) > 65535) return std::nullopt;
  return auth.substr(0, i) + digits;
}

void strip_tail(std::string& s, std::string_view tail) {
  if (s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0)
    s.resize(s.size() - tail.size());
}

// The authority rules of fixup(): default ports, then one leading and one trailing dot.
std::optional<std::string> finish_authority(const std::string& scheme, std::string auth) {
  if (scheme == "http" || scheme == "https") {
    auto checked = check_port(auth);
    if (!checked) return std::nullopt;
    auth = *checked;
    strip_tail(auth, scheme == "http" ? ":80" : ":443");
  }
  strip_tail(auth, ".");
  if (!auth.empty() && auth[0] == '.') auth.erase(0, 1);
  return auth;
}

std::optional<Parts> fixup(std::string_view input) {
  if (input.empty() || input.size() > kHeritrixMaxLength) return std::nullopt;
  std::string uri = replace_all(input, "\xC2\xA0", " ");
  uri = java_trim(uri);
  backslashes_to_slashes(uri);
  uri = replace_all(replace_all(replace_all(uri, "\t", ""), "\r", ""), "\n", "");
  collapse_scheme_slashes(uri);
  uri = escape_whitespace(uri);
  Parts p = split_rfc2396(uri);
  if (!p.scheme) return std::nullopt;  // relative and no base
  if (*p.scheme == "http" || *p.scheme == "https") {
    if (!p.ssp || p.ssp->rfind("//", 0) != 0 || p.ssp->size() <= 2) return std::nullopt;
  }
  if (p.authority) {
    auto fixed = fixup_authority(*p.authority);
    if (!fixed) return std::nullopt;
    p.authority = finish_authority(*p.scheme, *fixed);
    if (!p.authority) return std::nullopt;
  }
  if (p.ssp && p.ssp->rfind('/', 0) == 0) {
    if (p.path) {
      std::size_t n = 0;  // "^(/\.\./)+" -> "/"
      while (p.path->compare(n, 4, "/../") == 0) n += 3;
      if (n) p.path = p.path->substr(n);
    }
    if (!p.path) p.path = "/";
  }
  if (p.path) p.path = minimal_escape(*p.path, false);
  if (p.query) p.query = minimal_escape(*p.query, true);
  return p;
}

}  // namespace

std::optional<std::string> heritrix_key_source(std::string_view uri) {
  auto p = fixup(uri);
  if (!p) return std::nullopt;
  std::string path = p->path.value_or("");
  // UsableURI normalises "." and ".." segments of hierarchical paths.
  if (!path.empty() && path[0] == '/') path = remove_dot_segments(path);
  std::string raw = *p->scheme + ":";
  if (p->authority) raw += "//" + *p->authority;
  raw += path;
  if (p->query) raw += "?" + *p->query;
  if (raw.size() > kHeritrixMaxLength) return std::nullopt;
  // SURTTokenizer concatenates getAuthority(), which Java prints as "null" when absent.
  std::string key = *p->scheme + "://" + p->authority.value_or("null") + path;
  if (p->query) key += "?" + *p->query;
  return key;
}

}  // namespace strata::url::detail
