// Mojibake: UTF-8 text that was decoded byte by byte as windows-1252/ISO-8859-1
// ("Ã©" for "é"). Detection and reversal work on runs of characters whose windows-1252
// bytes form one valid multi-byte UTF-8 sequence; everything else is left untouched.
#include <array>
#include <string>

#include "extract/charset.hpp"
#include "extract/charset_utf8.hpp"

namespace strata::extract {

using namespace charset_detail;

namespace {

constexpr int kMaxRounds = 3;

struct CodePoint {
  uint32_t value = 0;
  size_t length = 0;  // bytes in the text; 0 at an invalid byte
};

CodePoint code_point_at(std::string_view s, size_t pos) {
  int len = utf8_sequence_length(s, pos);
  if (len == 0) return {0xFFFD, 0};
  return {utf8_code_point(s, pos, len), static_cast<size_t>(len)};
}

// A UTF-8 sequence recovered from mojibake; empty() when there is none.
struct Recovered {
  char bytes[4];
  size_t size = 0;
  size_t consumed = 0;  // text bytes the mojibake spans
  bool empty() const { return size == 0; }
  std::string_view view() const { return {bytes, size}; }
};

// When the characters at pos spell, in windows-1252, one valid UTF-8 multi-byte sequence,
// returns that sequence and the text bytes it spans. Allocation-free: it runs at every
// non-ASCII character of every page.
Recovered mojibake_at(std::string_view s, size_t pos) {
  Recovered r;
  size_t cursor = pos;
  for (int i = 0; i < 4 && cursor < s.size(); ++i) {
    CodePoint cp = code_point_at(s, cursor);
    int byte = cp.length ? unicode_to_windows1252(cp.value) : -1;
    if (byte < 0x80 || (i == 0 && byte < 0xC2) || (i > 0 && byte > 0xBF)) return {};
    r.bytes[r.size++] = static_cast<char>(byte);
    cursor += cp.length;
    if (utf8_sequence_length(r.view(), 0) == static_cast<int>(r.size)) {
      r.consumed = cursor - pos;
      return r;
    }
    if (i == 0 && static_cast<uint8_t>(r.bytes[0]) > 0xF4) return {};
  }
  return {};
}

size_t next_position(std::string_view s, size_t pos) {
  size_t len = code_point_at(s, pos).length;
  return pos + (len ? len : 1);
}

std::string repair_once(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t pos = 0; pos < s.size();) {
    size_t ascii_end = skip_ascii(s, pos);
    out.append(s.substr(pos, ascii_end - pos));
    pos = ascii_end;
    if (pos == s.size()) break;
    Recovered fixed = mojibake_at(s, pos);
    if (!fixed.empty()) {
      out.append(fixed.view());
      pos += fixed.consumed;
    } else {
      size_t next = next_position(s, pos);
      out.append(s.substr(pos, next - pos));
      pos = next;
    }
  }
  return out;
}

}  // namespace

int count_mojibake(std::string_view utf8) {
  int count = 0;
  for (size_t pos = skip_ascii(utf8, 0); pos < utf8.size(); pos = skip_ascii(utf8, pos)) {
    Recovered fixed = mojibake_at(utf8, pos);
    if (!fixed.empty()) {
      ++count;
      pos += fixed.consumed;
    } else {
      pos = next_position(utf8, pos);
    }
  }
  return count;
}

bool has_arquivo_mojibake_pattern(std::string_view utf8) {
  static const std::array<std::string_view, 20> kPatterns{"Ã©", "Ã¡", "Ã£", "Ã§", "Ã°", "Ãµ", "Ã´",
                                                          "Ã³", "Â®", "Ã‡", "ÃŠ", "Ã•", "Ã¨", "Ãª",
                                                          "Ã«", "Ã±", "Ã¹", "Ãº", "Ã»", "Â£"};
  // Every pattern starts with "Ã" or "Â": most texts hold neither.
  if (utf8.find("\xC3\x83") == std::string_view::npos &&
      utf8.find("\xC3\x82") == std::string_view::npos)
    return false;
  for (std::string_view pattern : kPatterns)
    if (utf8.find(pattern) != std::string_view::npos) return true;
  return false;
}

int repair_mojibake(std::string& utf8) {
  int rounds = 0;
  for (int count = count_mojibake(utf8); count > 0 && rounds < kMaxRounds; ++rounds) {
    std::string repaired = repair_once(utf8);
    int repaired_count = count_mojibake(repaired);
    if (repaired_count >= count) break;
    utf8 = std::move(repaired);
    count = repaired_count;
  }
  return rounds;
}

bool looks_mis_encoded(std::string_view utf8) {
  return utf8.find("\xEF\xBF\xBD") != std::string_view::npos || count_mojibake(utf8) > 0;
}

}  // namespace strata::extract
