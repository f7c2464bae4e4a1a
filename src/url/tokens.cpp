// Search tokens of URLs. Improves on Arquivo's cleanPunctuation (which kept "http", "www",
// and undecoded escapes such as "20Humanos"): see docs/url.md, "Tokens".
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <string>
#include <vector>

#include "url/detail.hpp"
#include "url/url.hpp"

namespace strata::url {
namespace {

using namespace detail;

// Drops "scheme:" (and the slashes after it), a protocol-relative "//" and one "www.".
std::string_view strip_scheme_and_www(std::string_view url) {
  if (std::size_t n = scheme_length(url)) url.remove_prefix(n + 1);
  while (url.starts_with('/')) url.remove_prefix(1);
  if (starts_with_ci(url, "www.")) url.remove_prefix(4);
  return url;
}

// Decodes %XX escapes where the decoded bytes form valid UTF-8; escapes that would make
// invalid UTF-8 stay as written (so "%E9" from a Latin-1 page survives, visibly).
std::string decode_valid_utf8(std::string_view s) {
  std::string bytes;
  std::vector<bool> escaped;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      bytes += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      escaped.push_back(true);
      i += 2;
    } else {
      bytes += s[i];
      escaped.push_back(false);
    }
  }
  std::string out;
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  int32_t length = static_cast<int32_t>(bytes.size());
  for (int32_t i = 0; i < length;) {
    int32_t start = i;
    UChar32 cp;
    U8_NEXT(data, i, length, cp);
    if (cp >= 0) {
      out.append(bytes, start, i - start);
      continue;
    }
    for (int32_t k = start; k < i; ++k) {
      if (!escaped[k]) {
        out += bytes[k];
        continue;
      }
      static const char* hex = "0123456789ABCDEF";
      auto b = static_cast<unsigned char>(bytes[k]);
      out.append("%").append(1, hex[b >> 4]).append(1, hex[b & 15]);
    }
  }
  return out;
}

// Separators: all ASCII but letters and digits; Unicode punctuation, separators, controls,
// and math/currency/modifier symbols. Letters, digits, marks and other symbols (emoji) stay.
bool separator(UChar32 cp) {
  if (cp < 0) return true;
  if (cp < 0x80) return !(is_ascii_alpha(char(cp)) || is_ascii_digit(char(cp)));
  switch (u_charType(cp)) {
    case U_DASH_PUNCTUATION:
    case U_START_PUNCTUATION:
    case U_END_PUNCTUATION:
    case U_CONNECTOR_PUNCTUATION:
    case U_OTHER_PUNCTUATION:
    case U_INITIAL_PUNCTUATION:
    case U_FINAL_PUNCTUATION:
    case U_SPACE_SEPARATOR:
    case U_LINE_SEPARATOR:
    case U_PARAGRAPH_SEPARATOR:
    case U_CONTROL_CHAR:
    case U_FORMAT_CHAR:
    case U_MATH_SYMBOL:
    case U_CURRENCY_SYMBOL:
    case U_MODIFIER_SYMBOL:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string url_tokens(std::string_view url) {
  if (url.starts_with("data:") || url.starts_with("hash:")) return "";
  std::string_view stripped = strip_scheme_and_www(url);
  // Without an escape the decoding gives the text back as it is.
  std::string decoded;
  if (stripped.find('%') != std::string_view::npos) decoded = decode_valid_utf8(stripped);
  std::string_view text = decoded.empty() ? stripped : decoded;
  std::string out;
  bool pending_space = false;
  const auto* data = reinterpret_cast<const uint8_t*>(text.data());
  int32_t length = static_cast<int32_t>(text.size());
  out.reserve(text.size());
  for (int32_t i = 0; i < length;) {
    int32_t start = i;
    UChar32 cp;
    U8_NEXT(data, i, length, cp);
    if (separator(cp)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    // Most URLs are ASCII: one byte kept without a call per character.
    if (cp < 0x80)
      out += static_cast<char>(cp);
    else
      out.append(text.substr(start, i - start));
  }
  return out;
}

}  // namespace strata::url
