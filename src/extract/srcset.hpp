#pragma once
// srcset attribute parsing (WHATWG "parse a srcset attribute"): every image candidate's URL,
// in order. Descriptors are skipped, not validated: a candidate with a malformed descriptor
// still names an image the page refers to.
#include <string>
#include <string_view>
#include <vector>

namespace strata::extract {

std::vector<std::string> parse_srcset(std::string_view value);

}  // namespace strata::extract
