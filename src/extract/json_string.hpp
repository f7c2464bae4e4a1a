#pragma once
// JSON strings written straight into a line, without a Json value: extraction and merge write
// one per field of every record and document, and nlohmann's dump copied and re-checked each.
#include <string>
#include <string_view>

namespace strata::extract {

// Appends s quoted and escaped exactly as nlohmann's dump writes it (ensure_ascii off, invalid
// UTF-8 replaced by U+FFFD): '"', '\\' and control characters escaped, UTF-8 kept as it is.
void append_json_string(std::string_view s, std::string& out);

// Whether s is printable ASCII without '"' or '\\', which append_json_string writes as it is
// between quotes: writers that copy such strings themselves ask this first.
bool needs_no_json_escape(std::string_view s);

}  // namespace strata::extract
