#include "merge/text.hpp"

namespace strata::merge {

std::string_view trim_spaces(std::string_view s) {
  constexpr std::string_view space = " \t\n\v\f\r";
  size_t first = s.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  size_t last = s.find_last_not_of(space);
  return s.substr(first, last - first + 1);
}

uint64_t fnv1a64(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string hex64(uint64_t value) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) out[i] = digits[value & 15];
  return out;
}

}  // namespace strata::merge
