#pragma once
// pHash and PDQ as their value slots hold them (schema.hpp: slot::phash, slot::pdq): raw
// big-endian bytes, 8 and 32. Hex digits in the stored data cost 2.4 times as much
// (docs/near-duplicates.md, "Index growth"). Reading never throws: a value of another length
// gives nothing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analyze/pdq.hpp"

namespace strata::index {

std::string phash_value(uint64_t hash);
std::optional<uint64_t> phash_from_value(std::string_view value);
std::string pdq_value(const analyze::PdqHash& hash);
std::optional<analyze::PdqHash> pdq_from_value(std::string_view value);

}  // namespace strata::index
