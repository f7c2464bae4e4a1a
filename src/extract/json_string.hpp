#pragma once
// JSON strings written straight into a line, without a Json value: extraction and merge write
// one per field of every record and document, and nlohmann's dump copied and re-checked each.
#include <string>
#include <string_view>

namespace strata::extract {

// Appends s quoted and escaped exactly as nlohmann's dump writes it (ensure_ascii off, invalid
// UTF-8 replaced by U+FFFD): '"', '\\' and control characters escaped, UTF-8 kept as it is.
void append_json_string(std::string_view s, std::string& out);

// Copies s to `to` and returns the end of the copy when s is printable ASCII without '"' or
// '\\' (what append_json_string writes as it is, between quotes); nullptr otherwise. `to` must
// have room for s.size() + 16 bytes. One pass over s, with no call to memcpy: writers that
// copy strings themselves call this for every string (nearly all need no escape).
char* copy_if_no_json_escape(std::string_view s, char* to);

}  // namespace strata::extract
