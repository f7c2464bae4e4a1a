#pragma once
// Small string helpers of the merge stage.
#include <cstdint>
#include <string>
#include <string_view>

namespace strata::merge {

// Whether `c` is ASCII whitespace: space, \t, \n, \v, \f or \r.
constexpr bool is_ascii_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// trim for a value with whitespace at an end.
std::string_view trim_spaces(std::string_view s);

// Strips ASCII whitespace from both ends. Inline: it is called for three fields of every
// reference twice, and most values have no space at either end (two compares).
inline std::string_view trim(std::string_view s) {
  if (s.empty() || (!is_ascii_space(s.front()) && !is_ascii_space(s.back()))) return s;
  return trim_spaces(s);
}

// FNV-1a 64-bit: a stable hash (same on every platform and run), for partitions and ids.
uint64_t fnv1a64(std::string_view s);

// 16 lower-case hex digits.
std::string hex64(uint64_t value);

}  // namespace strata::merge
