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

// 16 lower-case hex digits.
std::string hex64(uint64_t value);

}  // namespace strata::merge
