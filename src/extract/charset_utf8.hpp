#pragma once
// UTF-8 and windows-1252 primitives shared by decoding and mojibake repair (internal).
#include <cstdint>
#include <string>
#include <string_view>

namespace strata::extract::charset_detail {

// First position at or after pos holding a non-ASCII byte (s.size() if none). Most HTML is
// ASCII, so the UTF-8 and mojibake scans skip such runs a word at a time.
size_t skip_ascii(std::string_view s, size_t pos);
// Length of the valid UTF-8 sequence at pos (1-4), or 0 when it is invalid or truncated.
int utf8_sequence_length(std::string_view s, size_t pos);
// Code point of the valid sequence of length len at pos.
uint32_t utf8_code_point(std::string_view s, size_t pos, int len);
void append_utf8(std::string& out, uint32_t code_point);

// windows-1252 as the WHATWG decoder reads it (0x81, 0x8D, 0x8F, 0x90, 0x9D -> C1 controls).
uint32_t windows1252_to_unicode(uint8_t byte);
// The byte a windows-1252 or ISO-8859-1 decoder would have read as this code point; -1 if none.
int unicode_to_windows1252(uint32_t code_point);

// UTF-8 with every invalid byte replaced by U+FFFD.
std::string sanitize_utf8(std::string_view bytes);

}  // namespace strata::extract::charset_detail
