#include "url/detail.hpp"

#include <idn2.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace strata::url::detail {

std::string to_lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower_ascii(c);
  return out;
}

bool is_ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (lower_ascii(s[i]) != lower_ascii(prefix[i])) return false;
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::size_t scheme_length(std::string_view s) {
  if (s.empty() || !is_ascii_alpha(s[0])) return 0;
  for (std::size_t i = 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == ':') return i;
    if (!is_ascii_alpha(c) && !is_ascii_digit(c) && c != '+' && c != '-' && c != '.') return 0;
  }
  return 0;
}

std::optional<std::string> idn_to_ascii(std::string_view host) {
  // Transitional UTS#46 processing is the closest libidn2 mode to the IDNA2003 nameprep that
  // gnu-inet (Heritrix) and Python's "idna" codec apply (e.g. "ß" becomes "ss").
  std::string input(host);
  char* out = nullptr;
  int rc = idn2_to_ascii_8z(input.c_str(), &out, IDN2_NFC_INPUT | IDN2_TRANSITIONAL);
  if (rc != IDN2_OK) {
    rc = idn2_to_ascii_8z(input.c_str(), &out, IDN2_NFC_INPUT | IDN2_NO_TR46);
    if (rc != IDN2_OK) return std::nullopt;
  }
  std::string result = to_lower_ascii(out);
  idn2_free(out);
  return result;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

bool has_dot_segment(std::string_view path) {
  for (std::size_t start = 0;;) {
    std::size_t end = std::min(path.find('/', start), path.size());
    std::string_view segment = path.substr(start, end - start);
    if (segment == "." || segment == "..") return true;
    if (end == path.size()) return false;
    start = end + 1;
  }
}

std::string remove_dot_segments(std::string_view path) {
  if (!has_dot_segment(path)) return std::string(path);  // most paths: nothing to remove
  std::vector<std::string_view> kept;
  bool leading_slash = !path.empty() && path[0] == '/';
  std::size_t pos = leading_slash ? 1 : 0;
  bool trailing_slash = false;
  while (pos <= path.size()) {
    std::size_t end = path.find('/', pos);
    if (end == std::string_view::npos) end = path.size();
    std::string_view seg = path.substr(pos, end - pos);
    bool last = end == path.size();
    if (seg == ".") {
      trailing_slash = last;
    } else if (seg == "..") {
      if (!kept.empty()) kept.pop_back();
      trailing_slash = last;
    } else {
      kept.push_back(seg);
      trailing_slash = false;
    }
    pos = end + 1;
  }
  std::string out = leading_slash ? "/" : "";
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (i) out += '/';
    out += kept[i];
  }
  if (trailing_slash && !kept.empty()) out += '/';
  return out;
}

}  // namespace strata::url::detail
