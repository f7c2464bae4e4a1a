// Arquivo's toSURT on top of webarchive-commons' SURT.fromURI / SURTTokenizer.prefixKey.
#include <string>

#include "url/detail.hpp"
#include "url/heritrix.hpp"
#include "url/url.hpp"

namespace strata::url {
namespace detail {
namespace {

// Characters of SURT.URI_SPLITTER's userinfo class [-\w.!~*'()%;:&=+$,].
bool userinfo_char(char c) {
  return is_ascii_alpha(c) || is_ascii_digit(c) ||
         std::string_view("-_.!~*'()%;:&=+$,").find(c) != std::string_view::npos;
}

bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// Whether s matches (:\d+)?(/\S*)?$ — the tail the lazy host group must leave.
bool port_path_tail(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == ':') {
    std::size_t d = i + 1;
    while (d < s.size() && is_ascii_digit(s[d])) ++d;
    if (d > i + 1) i = d;
  }
  if (i == s.size()) return true;
  if (s[i] != '/') return false;
  for (std::size_t k = i; k < s.size(); ++k)
    if (is_space(s[k])) return false;
  return true;
}

// (?:\d{1,3}\.){3}\d{1,3} as a prefix of s: its length, or 0.
std::size_t dotted_quad(std::string_view s) {
  std::size_t i = 0;
  for (int part = 0; part < 4; ++part) {
    std::size_t d = i;
    while (d < s.size() && d - i < 3 && is_ascii_digit(s[d])) ++d;
    if (d == i) return 0;
    i = d;
    if (part < 3) {
      if (i >= s.size() || s[i] != '.') return 0;
      ++i;
    }
  }
  return i;
}

}  // namespace

std::string reverse_host(std::string_view host) {
  std::string out;
  std::size_t seg_end = host.size();
  for (std::size_t i = host.size(); i-- > 0;) {
    if (i > 0 && host[i - 1] != '.') continue;
    out.append(host.substr(i, seg_end - i)).append(",");
    seg_end = i - 1;
  }
  return out;
}

std::string surt_from_uri(std::string_view s) {
  std::size_t scheme_end = 0;
  while (scheme_end < s.size() &&
         (is_ascii_alpha(s[scheme_end]) || is_ascii_digit(s[scheme_end]) || s[scheme_end] == '_'))
    ++scheme_end;
  if (scheme_end == 0 || s.compare(scheme_end, 3, "://") != 0) return std::string(s);
  std::string_view rest = s.substr(scheme_end + 3);
  std::string_view userinfo;
  bool has_at = false;
  std::size_t at = rest.find('@');
  if (at != std::string_view::npos && at > 0 && at + 1 < rest.size()) {
    bool ok = true;
    for (std::size_t i = 0; i < at; ++i) ok = ok && userinfo_char(rest[i]);
    if (ok) {
      userinfo = rest.substr(0, at);
      has_at = true;
      rest.remove_prefix(at + 1);
    }
  }
  std::string_view host;
  bool quad = false;
  if (std::size_t q = dotted_quad(rest); q && port_path_tail(rest.substr(q))) {
    host = rest.substr(0, q);
    quad = true;
  } else {
    for (std::size_t i = 1; i <= rest.size(); ++i) {
      if (is_space(rest[i - 1])) return std::string(s);  // \S+? cannot grow past a space
      if (port_path_tail(rest.substr(i))) {
        host = rest.substr(0, i);
        break;
      }
    }
    if (host.empty()) return std::string(s);
  }
  std::string_view tail = rest.substr(host.size());
  std::size_t slash = tail.find('/');
  std::string_view port = tail.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : tail.substr(slash);
  std::string out(s.substr(0, scheme_end + 3));
  out += '(';
  out += quad ? std::string(host) : reverse_host(host);
  out += port;
  if (has_at) out.append("@").append(userinfo);
  out += ')';
  out += path;
  return to_lower_ascii(out);
}

}  // namespace detail

namespace {

// SURTTokenizer.addImpliedHttpIfNecessary.
std::string add_implied_http(std::string_view u) {
  std::size_t colon = u.find(':');
  std::size_t period = u.find('.');
  if (colon == std::string_view::npos || (period != std::string_view::npos && period < colon))
    return "http://" + std::string(u);
  return std::string(u);
}

// SURTTokenizer.getKey(url, prefix=true); nullopt where Java throws URIException.
std::optional<std::string> prefix_key(std::string_view url) {
  auto source = detail::heritrix_key_source(add_implied_http(url));
  if (!source) return std::nullopt;
  std::string key = detail::surt_from_uri(*source);
  if (std::size_t hash = key.find('#'); hash != std::string::npos) key.resize(hash);
  if (key.rfind("http://", 0) == 0) key.erase(0, 7);
  if (key.size() >= 3 && key.compare(key.size() - 3, 3, ",)/") == 0) key.resize(key.size() - 3);
  return key;
}

bool java_blank(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) > ' ') return false;
  return true;
}

}  // namespace

std::string detail::heritrix_surt(std::string_view url) {
  auto key = prefix_key(url);
  if (!key) return std::string(url);
  // SURT.toSURT: a bare host prefix "(pt,iol" gets its closing comma back.
  return key->find('/') != std::string::npos ? *key : *key + ",";
}

std::string surt(std::string_view input) {
  if (input.starts_with("data:") || input.starts_with("hash:")) return std::string(input);
  std::string_view url = input;
  for (std::string_view prefix : {"//", "https://", "http://"}) {
    if (url.starts_with(prefix)) {
      url.remove_prefix(prefix.size());
      break;
    }
  }
  for (std::string_view prefix : {"www.", "ww2.", "ww3."}) {
    if (url.starts_with(prefix)) {
      url.remove_prefix(prefix.size());
      break;
    }
  }
  if (java_blank(url) || url.starts_with("(")) return std::string(url);
  if (auto plain = detail::plain_surt(url)) return *plain;
  return detail::heritrix_surt(url);
}

uint32_t next_code_point(std::string_view s, std::size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (len <= 1 || i + len > s.size()) {
    ++i;
    return b;
  }
  uint32_t cp = b & (0xFF >> (len + 1));
  for (int k = 1; k < len; ++k) {
    auto c = static_cast<unsigned char>(s[i + k]);
    if ((c >> 6) != 2) {
      ++i;
      return b;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  i += len;
  return cp;
}

}  // namespace strata::url
