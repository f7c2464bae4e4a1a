#include "extract/json_string.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/json.hpp"
#include "extract/charset.hpp"

namespace strata::extract {
namespace {

// Whether any byte of the word is zero (exact: no false positives for the whole word).
constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
bool has_zero_byte(uint64_t word) {
  return ((word - kOnes) & ~word & kHighs) != 0;
}

// A byte >= 0x80, < 0x20 (borrows into its high bit), 0x7F, '"' or '\\' in the word.
bool word_needs_escape(uint64_t w) {
  return (w & kHighs) || ((w - kOnes * 0x20) & ~w & kHighs) || has_zero_byte(w ^ (kOnes * 0x7F)) ||
         has_zero_byte(w ^ (kOnes * '"')) || has_zero_byte(w ^ (kOnes * '\\'));
}

// Printable ASCII without '"' or '\\': what the dump writes unchanged. Eight bytes at a time:
// every string of every line is tested. The last bytes are tested as one word too (one that
// overlaps the previous word, or padded with letters), not one by one.
bool needs_no_escape(std::string_view s) {
  uint64_t w;
  if (s.size() < 8) {
    char padded[8];
    std::memset(padded, 'a', sizeof padded);
    if (!s.empty()) std::memcpy(padded, s.data(), s.size());
    std::memcpy(&w, padded, 8);
    return !word_needs_escape(w);
  }
  for (size_t i = 0; i + 8 <= s.size(); i += 8) {
    std::memcpy(&w, s.data() + i, 8);
    if (word_needs_escape(w)) return false;
  }
  std::memcpy(&w, s.data() + s.size() - 8, 8);
  return !word_needs_escape(w);
}

// What the dump writes for a character of a valid UTF-8 string, or nullptr for the character
// itself.
const char* escape_of(char c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\b':
      return "\\b";
    case '\t':
      return "\\t";
    case '\n':
      return "\\n";
    case '\f':
      return "\\f";
    case '\r':
      return "\\r";
    default:
      return nullptr;
  }
}

void append_escaped(std::string_view s, std::string& out) {
  // Runs of characters written as they are are appended whole (captions with accents took
  // a push_back per byte).
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char* escape = escape_of(s[i]);
    if (!escape && static_cast<unsigned char>(s[i]) >= 0x20) continue;
    out.append(s.substr(run, i - run));
    run = i + 1;
    if (escape) {
      out += escape;
    } else {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(s[i]));
      out += code;
    }
  }
  out.append(s.substr(run));
}

}  // namespace

void append_json_string(std::string_view s, std::string& out) {
  bool plain = needs_no_escape(s);
  if (!plain && !is_valid_utf8(s)) {
    // Only nlohmann's serializer is the reference for replacing invalid bytes.
    out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  out += '"';
  if (plain)
    out.append(s);
  else
    append_escaped(s, out);
  out += '"';
}

}  // namespace strata::extract
