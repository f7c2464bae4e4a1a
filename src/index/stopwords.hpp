#pragma once
// The Portuguese (Snowball) stop list, matched on folded forms (so "são" and "sao" are both
// stop words).
#include <string_view>

namespace strata::index {

bool is_stop_word(std::string_view folded);

}  // namespace strata::index
