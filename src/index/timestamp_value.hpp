#pragma once
// The capture-time value slot (schema.hpp, slot::timestamp): a 14-digit timestamp packed two
// digits per byte (BCD), so values still sort and compare as the timestamps do, in 7 bytes
// instead of 14 (a value is stored for every document).
#include <string>
#include <string_view>

namespace strata::index {

inline constexpr size_t kTimestampDigits = 14;

// "20100101123000" -> 7 bytes. Missing digits count as 0; non-digits too.
std::string pack_timestamp(std::string_view timestamp);
// The inverse: 7 bytes -> 14 digits (fewer bytes give fewer digits).
std::string unpack_timestamp(std::string_view packed);

}  // namespace strata::index
