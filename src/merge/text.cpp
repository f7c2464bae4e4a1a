#include "merge/text.hpp"

#include <cstring>

namespace strata::merge {
namespace {

template <typename T>
uint64_t load(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

}  // namespace

std::string_view trim(std::string_view s) {
  // Most values have no space at either end: two compares instead of two searches of a set.
  if (s.empty() || (!is_space(s.front()) && !is_space(s.back()))) return s;
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

uint64_t quick_hash(std::string_view s) {
  constexpr uint64_t kOdd = 0x9e3779b97f4a7c15ULL;
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = n * kOdd;
  auto mix = [&h](uint64_t word) {
    h = (h ^ word) * kOdd;
    h ^= h >> 32;
  };
  // Words that overlap at the end cover the last bytes without a byte loop.
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) mix(load<uint64_t>(p + i));
    mix(load<uint64_t>(p + n - 8));
  } else if (n >= 4) {
    mix(load<uint32_t>(p) << 32 | load<uint32_t>(p + n - 4));
  } else if (n > 0) {
    auto byte = [p](size_t i) { return static_cast<uint64_t>(static_cast<unsigned char>(p[i])); };
    mix(byte(0) << 16 | byte(n / 2) << 8 | byte(n - 1));
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
