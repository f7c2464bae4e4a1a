#pragma once
// Percent-encoding of query-string components (RFC 3986 unreserved characters kept).
#include <cctype>
#include <string>
#include <string_view>

namespace strata::server {

inline std::string url_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == ',' ||
        c == ':' || c == '*') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace strata::server
