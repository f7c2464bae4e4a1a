#pragma once
// Compact binary form of extraction records for spill files and in-memory runs: a type byte,
// then every field (strings as u32 length + bytes, integers little-endian as in memory).
// Several times faster to write and read than JSON; never leaves one merge run.
#include <string>
#include <string_view>

#include "merge/groups.hpp"

namespace strata::merge {

void encode(const Record& record, std::string& out);
// Throws std::runtime_error on truncated or unknown input.
void decode(std::string_view bytes, Record& out);

}  // namespace strata::merge
