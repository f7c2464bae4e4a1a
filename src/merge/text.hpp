#pragma once
// Small string helpers of the merge stage.
#include <cstdint>
#include <string>
#include <string_view>

namespace strata::merge {

// Strips ASCII whitespace (space, \t, \n, \v, \f, \r) from both ends.
std::string_view trim(std::string_view s);

// FNV-1a 64-bit: a stable hash (same on every platform and run), for partitions and ids.
uint64_t fnv1a64(std::string_view s);

// A quick hash of the bytes, 8 at a time: for grouping equal values in memory (callers compare
// the values whose hashes are equal), not stable across platforms like fnv1a64.
uint64_t quick_hash(std::string_view s);

// 16 lower-case hex digits.
std::string hex64(uint64_t value);

}  // namespace strata::merge
