#include "extract/json_string.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/json.hpp"
#include "extract/charset_utf8.hpp"

namespace strata::extract {
namespace {

constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
static_assert(std::endian::native == std::endian::little, "the first byte is the lowest");

// Bit 7 of every byte >= 0x80, < 0x20 (it borrows into its high bit), 0x7F, '"' or '\\' of
// the word. The lowest bit set is exact; flags above it may be false (borrows run upwards).
// Inlined: it is called for every word of every string written.
[[gnu::always_inline]] inline uint64_t escape_flags(uint64_t w) {
  auto zero_bytes = [](uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  return (w & kHighs) | ((w - kOnes * 0x20) & ~w & kHighs) | zero_bytes(w ^ (kOnes * 0x7F)) |
         zero_bytes(w ^ (kOnes * '"')) | zero_bytes(w ^ (kOnes * '\\'));
}

[[gnu::always_inline]] inline bool word_needs_escape(uint64_t w) {
  return escape_flags(w) != 0;
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

// s escaped onto `out` in one pass when it is valid UTF-8; false, with `out` as it was, when
// it is not. Runs that need no escape are appended whole, ASCII tested a word at a time
// (captions with accents took a validation pass and a push_back per byte).
bool append_escaped_utf8(std::string_view s, std::string& out) {
  size_t size_before = out.size();
  size_t run = 0;  // first byte not yet appended
  for (size_t i = 0; i < s.size();) {
    uint64_t w;
    if (i + 8 <= s.size()) {  // on to the first byte of the word that is not plain ASCII
      std::memcpy(&w, s.data() + i, 8);
      uint64_t flags = escape_flags(w);
      if (flags == 0) {
        i += 8;
        continue;
      }
      i += static_cast<size_t>(std::countr_zero(flags)) / 8;
    }
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      int length = charset_detail::utf8_sequence_length(s, i);
      if (length == 0) {
        out.resize(size_before);
        return false;
      }
      i += static_cast<size_t>(length);
      continue;
    }
    const char* escape = escape_of(s[i]);
    if (!escape && c >= 0x20) {
      ++i;
      continue;
    }
    out.append(s.substr(run, i - run));
    if (escape) {
      out += escape;
    } else {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(c));
      out += code;
    }
    run = ++i;
  }
  out.append(s.substr(run));
  return true;
}

}  // namespace

void append_json_string(std::string_view s, std::string& out) {
  out += '"';
  if (needs_no_escape(s)) {
    out.append(s);
  } else if (!append_escaped_utf8(s, out)) {
    // Only nlohmann's serializer is the reference for replacing invalid bytes.
    out.pop_back();
    out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  out += '"';
}

}  // namespace strata::extract
