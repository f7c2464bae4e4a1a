#pragma once
// Text made safe inside HTML text and double-quoted attribute values: & < > " escaped.
// Never fails.
#include <string>
#include <string_view>

namespace strata {

std::string html_escape(std::string_view text);

}  // namespace strata
