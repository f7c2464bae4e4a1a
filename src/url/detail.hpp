#pragma once
// Small byte-level helpers shared by the url/ sources (not part of the public API).
#include <optional>
#include <string>
#include <string_view>

namespace strata::url::detail {

constexpr bool is_ascii_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
constexpr char lower_ascii(char c) {
  return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

std::string to_lower_ascii(std::string_view s);
bool is_ascii(std::string_view s);
bool starts_with_ci(std::string_view s, std::string_view prefix);

// -1 unless c is a hex digit.
int hex_value(char c);

// Length of a leading "scheme:" ([a-zA-Z][a-zA-Z0-9+.-]*), excluding the ':'; 0 if none.
std::size_t scheme_length(std::string_view s);

// IDNA ToASCII of a whole (dotted) host through libidn2, lower-cased; nullopt on failure.
std::optional<std::string> idn_to_ascii(std::string_view host);

// Decodes every %XX escape to its byte (bad escapes stay as written).
std::string percent_decode(std::string_view s);

// Whether a '/'-separated segment of the path is "." or "..".
bool has_dot_segment(std::string_view path);

// RFC 3986 remove_dot_segments on an absolute path.
std::string remove_dot_segments(std::string_view path);

}  // namespace strata::url::detail
