// Browser-like URL resolution and the small URL queries the extractor needs.
#include <algorithm>
#include <array>
#include <string>

#include "url/detail.hpp"
#include "url/url.hpp"

namespace strata::url {
namespace {

using namespace detail;

struct Parsed {
  std::string scheme;  // lower-case
  std::optional<std::string> authority;
  std::string path;
  std::optional<std::string> query, fragment;
};

bool special(std::string_view scheme) {
  return scheme == "http" || scheme == "https" || scheme == "ftp" || scheme == "ws" ||
         scheme == "wss" || scheme == "file";
}

// WHATWG pre-processing: strip C0 controls and spaces at both ends, drop TAB/CR/LF inside.
std::string clean(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  std::string_view kept = s.substr(b, e - b);
  // One pass (find_first_of("\t\n\r") called memchr per character of the URL).
  std::string out(kept);
  std::erase_if(out, [](char c) { return c == '\t' || c == '\n' || c == '\r'; });
  return out;
}

// Backslashes act as slashes before the query of special URLs, as in browsers.
void fix_backslashes(std::string& s) {
  std::size_t stop = std::min(s.find('?'), s.find('#'));
  for (std::size_t i = 0; i < s.size() && i < stop; ++i)
    if (s[i] == '\\') s[i] = '/';
}

// Splits a reference (scheme already removed when `scheme` is set) into its parts.
Parsed split(std::string_view rest, std::string scheme) {
  Parsed p;
  p.scheme = std::move(scheme);
  if (std::size_t h = rest.find('#'); h != std::string_view::npos) {
    p.fragment = std::string(rest.substr(h + 1));
    rest = rest.substr(0, h);
  }
  if (std::size_t q = rest.find('?'); q != std::string_view::npos) {
    p.query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  if (rest.starts_with("//")) {
    std::size_t end = std::min(rest.find('/', 2), rest.size());
    p.authority = std::string(rest.substr(2, end - 2));
    rest.remove_prefix(end);
  }
  p.path = std::string(rest);
  return p;
}

// Lower-cases the host of an authority, keeping userinfo and dropping a default port.
// Appended to `out`, where resolution builds its result.
void append_authority(const std::string& scheme, std::string_view auth, std::string& out) {
  std::size_t at = auth.rfind('@');
  if (at != std::string_view::npos) out.append(auth.substr(0, at + 1));  // userinfo
  std::string_view hostport = auth.substr(at == std::string_view::npos ? 0 : at + 1);
  std::size_t colon = hostport.rfind(':');
  if (colon != std::string_view::npos && hostport.find(']', colon) != std::string_view::npos)
    colon = std::string_view::npos;  // inside an IPv6 literal
  for (char c : hostport.substr(0, colon)) out += lower_ascii(c);
  std::string_view port =
      colon == std::string_view::npos ? std::string_view() : hostport.substr(colon + 1);
  if ((scheme == "http" && port == "80") || (scheme == "https" && port == "443")) port = {};
  if (!port.empty()) out.append(":").append(port);
}

std::string normalize_authority(const std::string& scheme, std::string_view auth) {
  std::string out;
  append_authority(scheme, auth, out);
  return out;
}

// "scheme:" and, with an authority, "//" + the normalised authority.
void append_origin(const Parsed& p, std::string& out) {
  out.append(p.scheme).append(":");
  if (p.authority) append_authority(p.scheme, *p.authority, out.append("//"));
}

// What follows the origin: the path (dot segments removed), query and fragment.
void append_path_on(const Parsed& origin, std::string_view path,
                    const std::optional<std::string>& query,
                    const std::optional<std::string>& fragment, std::string& out) {
  if (origin.authority && path.empty() && special(origin.scheme)) path = "/";
  if ((origin.authority || path.starts_with('/')) && has_dot_segment(path))
    out += remove_dot_segments(path);
  else
    out += path;
  if (query) out.append("?").append(*query);
  if (fragment) out.append("#").append(*fragment);
}

std::string serialize(const Parsed& p) {
  std::string out;
  out.reserve(p.scheme.size() + p.path.size() + 64);
  append_origin(p, out);
  append_path_on(p, p.path, p.query, p.fragment, out);
  return out;
}

std::optional<Parsed> parse_absolute(const std::string& s) {
  std::size_t n = scheme_length(s);
  if (n == 0) return std::nullopt;
  std::string scheme = to_lower_ascii(s.substr(0, n));
  std::string rest = s.substr(n + 1);
  if (special(scheme)) {
    fix_backslashes(rest);
    // "http:/x" and "http:///x" still name host x, as browsers read them.
    std::size_t slashes = 0;
    while (slashes < rest.size() && rest[slashes] == '/') ++slashes;
    if (scheme != "file" && slashes != 2) rest = "//" + rest.substr(slashes);
  }
  return split(rest, scheme);
}

std::string merge_paths(const Parsed& base, std::string_view rel_path) {
  if (base.authority && base.path.empty()) return "/" + std::string(rel_path);
  std::size_t slash = base.path.rfind('/');
  return (slash == std::string::npos ? "" : base.path.substr(0, slash + 1)) + std::string(rel_path);
}

// The parse of the last base URL and its serialised origin: a page resolves all its
// references against one base.
struct Base {
  std::optional<Parsed> parsed;
  std::string origin;
};

const Base& parsed_base(std::string_view base_in) {
  thread_local std::string last_text;
  thread_local Base last;
  thread_local bool cached = false;
  if (!cached || base_in != last_text) {
    last_text = base_in;
    last.parsed = parse_absolute(clean(base_in));
    last.origin.clear();
    if (last.parsed) append_origin(*last.parsed, last.origin);
    cached = true;
  }
  return last;
}

}  // namespace

std::optional<std::string> resolve(std::string_view base_in, std::string_view relative_in) {
  std::string rel = clean(relative_in);
  const Base& base_cache = parsed_base(base_in);
  const std::optional<Parsed>& base = base_cache.parsed;
  bool base_ok = base && base->authority && !base->authority->empty();
  if (std::size_t n = scheme_length(rel)) {
    std::string scheme = to_lower_ascii(rel.substr(0, n));
    // "http:foo" against an http base is relative in browsers.
    bool relative_same_scheme = base_ok && special(scheme) && scheme == base->scheme &&
                                !rel.substr(n + 1).starts_with("/") &&
                                !rel.substr(n + 1).starts_with("\\");
    if (!relative_same_scheme) {
      auto abs = parse_absolute(rel);
      if (abs && special(abs->scheme) && abs->scheme != "file" &&
          (!abs->authority || abs->authority->empty()))
        return std::nullopt;
      return serialize(*abs);
    }
    rel = rel.substr(n + 1);
  }
  if (!base_ok) return std::nullopt;
  if (special(base->scheme)) fix_backslashes(rel);
  Parsed r = split(rel, base->scheme);
  if (r.authority) return serialize(r);
  // On the base's origin, serialised once per base.
  std::string out = base_cache.origin;
  if (r.path.empty())
    append_path_on(*base, base->path, r.query ? r.query : base->query, r.fragment, out);
  else if (r.path.starts_with('/'))
    append_path_on(*base, r.path, r.query, r.fragment, out);
  else
    append_path_on(*base, merge_paths(*base, r.path), r.query, r.fragment, out);
  return out;
}

std::string host(std::string_view url_in) {
  std::string url = clean(url_in);
  if (url.starts_with("//")) url = "http:" + url;
  std::size_t n = scheme_length(url);
  // "host:8080/x" has no scheme; a dot before the colon means a host, as Heritrix reads it.
  if (n == 0 || url.substr(0, n).find('.') != std::string::npos) url = "http://" + url;
  auto p = parse_absolute(url);
  if (!p || !p->authority) return "";
  std::string auth = normalize_authority(p->scheme, *p->authority);
  std::size_t at = auth.rfind('@');
  std::string h = auth.substr(at == std::string::npos ? 0 : at + 1);
  if (!h.starts_with('[')) h = h.substr(0, h.find(':'));
  while (h.ends_with('.')) h.pop_back();
  return h;
}

std::string page_host(std::string_view url) {
  return host(url);
}

bool has_image_extension(std::string_view url) {
  std::string_view path = url.substr(0, std::min(url.find('?'), url.find('#')));
  std::size_t slash = path.rfind('/');
  std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
  std::size_t dot = last.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view written = last.substr(dot + 1);
  if (written.size() > 4) return false;  // no image extension is longer
  char lowered[4];
  for (std::size_t i = 0; i < written.size(); ++i) lowered[i] = lower_ascii(written[i]);
  std::string_view ext(lowered, written.size());
  static constexpr std::array<std::string_view, 11> kImageExtensions = {
      "jpg", "jpeg", "png", "tif", "tiff", "gif", "svg", "webp", "bmp", "ico", "avif"};
  return std::find(kImageExtensions.begin(), kImageExtensions.end(), ext) != kImageExtensions.end();
}

}  // namespace strata::url
