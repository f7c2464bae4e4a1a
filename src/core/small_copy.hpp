#pragma once
// Copies of short byte strings (most record fields and JSON strings are under 16 bytes):
// two overlapping fixed-size copies that the compiler inlines, instead of a memcpy call per
// field, which showed in the merge's and the JSON writers' profiles.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace strata {

namespace small_copy_detail {
// Copies n bytes, sizeof(Word) <= n <= 2 * sizeof(Word), with two overlapping Words.
template <typename Word>
inline void copy_overlapping(char* to, const char* from, size_t n) {
  Word first, last;
  std::memcpy(&first, from, sizeof first);
  std::memcpy(&last, from + n - sizeof last, sizeof last);
  std::memcpy(to, &first, sizeof first);
  std::memcpy(to + n - sizeof last, &last, sizeof last);
}
}  // namespace small_copy_detail

// memcpy(to, from, n), inlined for n <= 16.
inline void copy_small(char* to, const char* from, size_t n) {
  using small_copy_detail::copy_overlapping;
  if (n > 16)
    std::memcpy(to, from, n);
  else if (n >= 8)
    copy_overlapping<uint64_t>(to, from, n);
  else if (n >= 4)
    copy_overlapping<uint32_t>(to, from, n);
  else if (n >= 2)
    copy_overlapping<uint16_t>(to, from, n);
  else if (n == 1)
    *to = *from;
}

}  // namespace strata
