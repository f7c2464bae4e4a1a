#include "extract/srcset.hpp"

namespace strata::extract {
namespace {
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
}  // namespace

std::vector<std::string> parse_srcset(std::string_view s) {
  std::vector<std::string> urls;
  size_t pos = 0;
  while (pos < s.size()) {
    while (pos < s.size() && (is_space(s[pos]) || s[pos] == ',')) ++pos;
    if (pos >= s.size()) break;
    size_t start = pos;
    while (pos < s.size() && !is_space(s[pos])) ++pos;
    std::string_view url = s.substr(start, pos - start);
    if (!url.empty() && url.back() == ',') {
      // "a.jpg," : the URL ends the candidate, it has no descriptors.
      while (!url.empty() && url.back() == ',') url.remove_suffix(1);
    } else {
      // Descriptors run to the next comma outside parentheses.
      int depth = 0;
      for (; pos < s.size(); ++pos) {
        char c = s[pos];
        if (c == '(')
          ++depth;
        else if (c == ')' && depth > 0)
          --depth;
        else if (c == ',' && depth == 0)
          break;
      }
    }
    if (!url.empty()) urls.emplace_back(url);
  }
  return urls;
}

}  // namespace strata::extract
