#pragma once
// Hex digits of the perceptual hashes' text forms.

namespace strata::analyze {

inline constexpr char kHexDigits[] = "0123456789abcdef";

// 0-15, or -1 for a character that is no hex digit (either case).
constexpr int hex_value(char c) {
  return (c >= '0' && c <= '9')   ? c - '0'
         : (c >= 'a' && c <= 'f') ? c - 'a' + 10
         : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                  : -1;
}

}  // namespace strata::analyze
