#include "extract/charset_utf8.hpp"

#include <array>
#include <cstring>

namespace strata::extract::charset_detail {
namespace {

constexpr std::array<uint16_t, 32> kWindows1252High{
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

uint8_t byte_at(std::string_view s, size_t pos) {
  return static_cast<uint8_t>(s[pos]);
}
bool is_continuation(uint8_t b) {
  return (b & 0xC0) == 0x80;
}

}  // namespace

size_t skip_ascii(std::string_view s, size_t pos) {
  constexpr uint64_t kHighBits = 0x8080808080808080ull;
  for (uint64_t word = 0; pos + sizeof word <= s.size(); pos += sizeof word) {
    std::memcpy(&word, s.data() + pos, sizeof word);
    if (word & kHighBits) break;
  }
  while (pos < s.size() && byte_at(s, pos) < 0x80) ++pos;
  return pos;
}

int utf8_sequence_length(std::string_view s, size_t pos) {
  if (pos >= s.size()) return 0;
  uint8_t b0 = byte_at(s, pos);
  if (b0 < 0x80) return 1;
  int len = b0 >= 0xC2 && b0 <= 0xDF   ? 2
            : b0 >= 0xE0 && b0 <= 0xEF ? 3
            : b0 >= 0xF0 && b0 <= 0xF4 ? 4
                                       : 0;
  if (len == 0 || s.size() - pos < static_cast<size_t>(len)) return 0;
  uint8_t b1 = byte_at(s, pos + 1);
  if (!is_continuation(b1)) return 0;
  if ((b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F) || (b0 == 0xF0 && b1 < 0x90) ||
      (b0 == 0xF4 && b1 > 0x8F))
    return 0;  // overlong, surrogate or beyond U+10FFFF
  for (int i = 2; i < len; ++i)
    if (!is_continuation(byte_at(s, pos + i))) return 0;
  return len;
}

uint32_t utf8_code_point(std::string_view s, size_t pos, int len) {
  static constexpr std::array<uint8_t, 5> kLeadMask{0, 0x7F, 0x1F, 0x0F, 0x07};
  uint32_t cp = byte_at(s, pos) & kLeadMask[static_cast<size_t>(len)];
  for (int i = 1; i < len; ++i) cp = (cp << 6) | (byte_at(s, pos + i) & 0x3F);
  return cp;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

uint32_t windows1252_to_unicode(uint8_t byte) {
  return byte >= 0x80 && byte <= 0x9F ? kWindows1252High[byte - 0x80] : byte;
}

int unicode_to_windows1252(uint32_t cp) {
  if (cp <= 0xFF) return static_cast<int>(cp);  // ASCII, Latin-1, C1 (ISO-8859-1 reading)
  for (size_t i = 0; i < kWindows1252High.size(); ++i)
    if (kWindows1252High[i] == cp) return static_cast<int>(0x80 + i);
  return -1;
}

std::string sanitize_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t pos = 0; pos < bytes.size();) {
    size_t ascii_end = skip_ascii(bytes, pos);
    out.append(bytes.substr(pos, ascii_end - pos));
    pos = ascii_end;
    if (pos == bytes.size()) break;
    int len = utf8_sequence_length(bytes, pos);
    if (len == 0) {
      out += "\xEF\xBF\xBD";
      ++pos;
    } else {
      out.append(bytes.substr(pos, static_cast<size_t>(len)));
      pos += static_cast<size_t>(len);
    }
  }
  return out;
}

}  // namespace strata::extract::charset_detail
