// The key captures and references join on: Arquivo's SURT of the URL with its
// percent-encoding canonicalised (docs/url.md, "join_surt").
#include <algorithm>

#include "url/detail.hpp"
#include "url/url.hpp"

namespace strata::url {
namespace {

bool unreserved(char c) {
  return detail::is_ascii_alpha(c) || detail::is_ascii_digit(c) || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// RFC 3986 pchar: what a path segment may hold literally. '/' and '?' (which would split or
// end the segment) and '#' and '%' are not in it, so their escapes stay.
bool path_literal(char c) {
  return unreserved(c) || std::string_view("!$&'()*+,;=:@").find(c) != std::string_view::npos;
}

// In a query '&', '=', '+' and ';' separate or encode form values, so their escapes stay too.
bool query_literal(char c) {
  return unreserved(c) || std::string_view("!$'()*,:@/?").find(c) != std::string_view::npos;
}

char upper_hex(char c) {
  return c >= 'a' && c <= 'f' ? static_cast<char>(c - 'a' + 'A') : c;
}

// Where the path starts: after "scheme://host" or "//host", else at the first '/', '?' or
// '#' (scheme-less "host/path").
std::size_t path_start(std::string_view u) {
  std::size_t from = 0;
  const std::size_t first_delimiter = u.find_first_of("/?#");
  if (std::size_t s = u.find("://"); s != std::string_view::npos && s < first_delimiter)
    from = s + 3;
  else if (u.starts_with("//"))
    from = 2;
  return std::min(u.find_first_of("/?#", from), u.size());
}

}  // namespace

std::string canonical_escapes(std::string_view url) {
  if (url.find('%') == std::string_view::npos || url.starts_with("data:") ||
      url.starts_with("hash:"))
    return std::string(url);
  const std::size_t path = path_start(url);
  const std::size_t fragment = std::min(url.find('#', path), url.size());
  const std::size_t query = std::min(url.substr(0, fragment).find('?', path), fragment);
  std::string out(url.substr(0, path));
  out.reserve(url.size());
  for (std::size_t i = path; i < fragment; ++i) {
    const char c = url[i];
    if (c != '%') {
      out += c;
      continue;
    }
    // A stray '%' becomes %25 (as IA's canonicaliser writes it), so that no escape can form
    // from what is decoded around it: canonicalising twice changes nothing more.
    if (i + 2 >= fragment || detail::hex_value(url[i + 1]) < 0 ||
        detail::hex_value(url[i + 2]) < 0) {
      out += "%25";
      continue;
    }
    const auto decoded =
        static_cast<char>(detail::hex_value(url[i + 1]) * 16 + detail::hex_value(url[i + 2]));
    if (i < query ? path_literal(decoded) : query_literal(decoded)) {
      out += decoded;
    } else {
      out += '%';
      out += upper_hex(url[i + 1]);
      out += upper_hex(url[i + 2]);
    }
    i += 2;
  }
  out += url.substr(fragment);
  return out;
}

std::string join_surt(std::string_view url) {
  if (url.find('%') == std::string_view::npos) return surt(url);
  return surt(canonical_escapes(url));
}

}  // namespace strata::url
