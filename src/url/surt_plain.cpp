// Arquivo's SURT of a plain URL, computed directly. Most image URLs are an ASCII host and a
// path of URL-safe characters: every Heritrix fix-up (trimming, escaping, IDNA, ports, dot
// segments) leaves them as they are, so the key is the reversed host and the lower-cased
// path, without the fix-up's allocations and re-parsing.
#include <string>

#include "url/detail.hpp"
#include "url/heritrix.hpp"

namespace strata::url::detail {
namespace {

bool host_char(char c) {
  return is_ascii_alpha(c) || is_ascii_digit(c) || c == '-' || c == '_' || c == '.';
}

// A host Heritrix keeps but for its case: labels of 1 to 63 characters (IDNA's limit), a dot
// (so SURTTokenizer adds "http://" whatever follows), not digits and dots only (SURT.fromURI
// does not reverse dotted quads).
bool plain_host(std::string_view host) {
  std::size_t label = 0;
  bool digits_only = true;
  for (char c : host) {
    if (c == '.') {
      if (label == 0) return false;
      label = 0;
      continue;
    }
    if (++label > 63) return false;
    digits_only = digits_only && is_ascii_digit(c);
  }
  return label > 0 && !digits_only && host.find('.') != std::string_view::npos;
}

// Characters LaxURLCodec leaves unescaped (see heritrix.cpp), printable ASCII only.
bool all_safe(std::string_view s, bool query) {
  for (char c : s)
    if (!lax_safe(static_cast<unsigned char>(c), query)) return false;
  return true;
}

bool printable_ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7F)
      return false;
  return true;
}

}  // namespace

std::optional<std::string> plain_surt(std::string_view url) {
  // "http://" is added before the length check of the fix-up.
  if (url.size() + 7 > kHeritrixMaxLength || !printable_ascii(url)) return std::nullopt;
  url = url.substr(0, url.find('#'));  // the fragment is dropped whatever it holds
  std::size_t host_end = 0;
  while (host_end < url.size() && host_char(url[host_end])) ++host_end;
  std::string_view host = url.substr(0, host_end);
  std::string_view rest = url.substr(host_end);
  if (!plain_host(host) || !(rest.empty() || rest[0] == '/' || rest[0] == '?')) return std::nullopt;
  std::size_t q = rest.find('?');
  std::string_view path = rest.substr(0, q);
  std::string_view query = q == std::string_view::npos ? "" : rest.substr(q + 1);
  if (!all_safe(path, false) || !all_safe(query, true) || has_dot_segment(path))
    return std::nullopt;
  std::string key = "(" + reverse_host(host) + ")";
  key += path.empty() ? std::string_view("/") : path;  // an empty path is "/"
  if (!query.empty()) key.append("?").append(query);
  for (char& c : key) c = lower_ascii(c);
  // SURTTokenizer's key trimming, as in heritrix_surt: a key ending in ",)/" (the host root,
  // or a path or query that ends so) loses it, and a key left without '/' gets a ','.
  if (key.ends_with(",)/")) key.resize(key.size() - 3);
  if (key.find('/') == std::string::npos) key += ',';
  return key;
}

}  // namespace strata::url::detail
