#include "extract/css_urls.hpp"

#include <cctype>

namespace strata::extract {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

bool starts_with_url(std::string_view s, size_t pos) {
  if (pos + 4 > s.size()) return false;
  auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); };
  bool word_start = pos == 0 || !(std::isalnum(static_cast<unsigned char>(s[pos - 1])) ||
                                  s[pos - 1] == '-' || s[pos - 1] == '_');
  return word_start && lower(s[pos]) == 'u' && lower(s[pos + 1]) == 'r' &&
         lower(s[pos + 2]) == 'l' && s[pos + 3] == '(';
}

// Reads the argument of url( starting at pos (just after the paren); advances pos past ')'.
std::string read_argument(std::string_view s, size_t& pos) {
  while (pos < s.size() && is_space(s[pos])) ++pos;
  char quote = 0;
  if (pos < s.size() && (s[pos] == '"' || s[pos] == '\'')) quote = s[pos++];
  std::string value;
  for (; pos < s.size(); ++pos) {
    char c = s[pos];
    if (c == '\\' && pos + 1 < s.size()) {
      value.push_back(s[++pos]);
      continue;
    }
    if (quote ? c == quote : (c == ')' || c == '\n')) break;
    if (quote && c == '\n') break;  // unterminated string: bad-string token
    value.push_back(c);
  }
  while (pos < s.size() && s[pos] != ')') ++pos;
  if (pos < s.size()) ++pos;
  size_t b = 0, e = value.size();
  while (b < e && is_space(value[b])) ++b;
  while (e > b && is_space(value[e - 1])) --e;
  return value.substr(b, e - b);
}

}  // namespace

std::vector<std::string> css_urls(std::string_view css) {
  std::vector<std::string> urls;
  size_t pos = 0;
  while (pos < css.size()) {
    if (css.compare(pos, 2, "/*") == 0) {
      size_t end = css.find("*/", pos + 2);
      pos = end == std::string_view::npos ? css.size() : end + 2;
      continue;
    }
    if (starts_with_url(css, pos)) {
      pos += 4;
      std::string value = read_argument(css, pos);
      if (!value.empty()) urls.push_back(std::move(value));
      continue;
    }
    ++pos;
  }
  return urls;
}

}  // namespace strata::extract
