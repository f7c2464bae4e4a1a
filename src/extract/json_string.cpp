#include "extract/json_string.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/json.hpp"
#include "core/small_copy.hpp"
#include "extract/charset_utf8.hpp"

namespace strata::extract {
namespace {

// Sixteen bytes as a GCC/Clang vector of signed bytes: portable (SSE2 on x86-64, NEON on
// ARM) without intrinsics. Signed, so that one comparison with 0x20 also catches every byte
// >= 0x80.
using Bytes16 = signed char __attribute__((vector_size(16)));

// A byte 0xFF for every byte that is not printable ASCII or is '"' or '\\'; 0 elsewhere.
// Inlined: it runs over every byte of every string written. (0x7F is printable for the
// dump, so it is not flagged.)
[[gnu::always_inline]] inline Bytes16 escape_mask(Bytes16 v) {
  return (v < 0x20) | (v == '"') | (v == '\\');
}

[[gnu::always_inline]] inline Bytes16 load16(const char* p) {
  Bytes16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The position of the first flagged byte of a mask, or 16 when none is.
[[gnu::always_inline]] inline unsigned first_flagged(Bytes16 mask) {
  static_assert(std::endian::native == std::endian::little, "the first byte is the lowest");
  uint64_t halves[2];
  std::memcpy(halves, &mask, sizeof halves);
  if (halves[0]) return static_cast<unsigned>(std::countr_zero(halves[0])) / 8;
  if (halves[1]) return 8 + static_cast<unsigned>(std::countr_zero(halves[1])) / 8;
  return 16;
}

[[gnu::always_inline]] inline bool any_flagged(Bytes16 mask) {
  uint64_t halves[2];
  std::memcpy(halves, &mask, sizeof halves);
  return (halves[0] | halves[1]) != 0;
}

[[gnu::always_inline]] inline void store16(char* p, Bytes16 v) {
  std::memcpy(p, &v, sizeof v);
}

// Printable ASCII without '"' or '\\': what the dump writes unchanged. Sixteen bytes at a
// time; the last block overlaps the one before it, and a string shorter than a block is
// padded with letters.
bool needs_no_escape(std::string_view s) {
  if (s.size() < sizeof(Bytes16)) {
    char padded[sizeof(Bytes16)];
    std::memset(padded, 'a', sizeof padded);
    if (!s.empty()) std::memcpy(padded, s.data(), s.size());
    return !any_flagged(escape_mask(load16(padded)));
  }
  Bytes16 flagged{};
  for (size_t i = 0; i + sizeof(Bytes16) <= s.size(); i += sizeof(Bytes16))
    flagged |= escape_mask(load16(s.data() + i));
  flagged |= escape_mask(load16(s.data() + s.size() - sizeof(Bytes16)));
  return !any_flagged(flagged);
}

// The escape mask of the first n < 16 bytes at `at` (the bytes after them ignored).
Bytes16 escape_mask_of_first(const char* at, size_t n) {
  constexpr Bytes16 kPlaces = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  return escape_mask(load16(at)) & (kPlaces < static_cast<signed char>(n));
}

}  // namespace

char* copy_if_no_json_escape(std::string_view s, char* to) {
  const char* from = s.data();
  size_t n = s.size();
  Bytes16 flagged{};
  if (n < sizeof(Bytes16)) {
    copy_small(to, from, n);
    flagged = escape_mask_of_first(to, n);
  } else {
    for (size_t i = 0; i + sizeof(Bytes16) <= n; i += sizeof(Bytes16)) {
      Bytes16 block = load16(from + i);
      store16(to + i, block);
      flagged |= escape_mask(block);
    }
    Bytes16 last = load16(from + n - sizeof(Bytes16));
    store16(to + n - sizeof(Bytes16), last);
    flagged |= escape_mask(last);
  }
  return any_flagged(flagged) ? nullptr : to + n;
}

namespace {

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
// it is not. Runs that need no escape are appended whole, ASCII tested sixteen bytes at a time
// (captions with accents took a validation pass and a push_back per byte).
bool append_escaped_utf8(std::string_view s, std::string& out) {
  size_t size_before = out.size();
  size_t run = 0;  // first byte not yet appended
  for (size_t i = 0; i < s.size();) {
    if (i + sizeof(Bytes16) <= s.size()) {  // on to the first byte that is not plain ASCII
      unsigned plain = first_flagged(escape_mask(load16(s.data() + i)));
      i += plain;
      if (plain == sizeof(Bytes16)) continue;
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
