#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/json.hpp"
#include "extract/json_string.hpp"

namespace strata::extract {
namespace {

// Strings of every kind (ASCII, controls, valid and broken UTF-8): the escaping must be the
// dump's, character for character.
TEST(JsonString, EscapingIsTheDumpsOnRandomText) {
  const std::string pieces[] = {"a",
                                " ",
                                "\"",
                                "\\",
                                "\x01",
                                "\x1f",
                                "\x7f",
                                "\t",
                                "\n",
                                "\b",
                                "\f",
                                "\r",
                                "é",
                                "日",
                                "😀",
                                "\xC3",
                                "\xFF",
                                "\xED\xA0\x80",
                                "\xF4\x90\x80\x80",
                                "\xC0\xAF",
                                "\xE2\x82",
                                "\x80",
                                "/"};
  std::mt19937 rng(5);
  for (int n = 0; n < 20000; ++n) {
    // Mostly short strings, some long enough for several 16-byte blocks at every offset.
    size_t count = n % 4 ? rng() % 10 : rng() % 60;
    std::string text;
    for (size_t k = count; k > 0; --k) text += pieces[rng() % std::size(pieces)];
    std::string out = "prefix";
    append_json_string(text, out);
    ASSERT_EQ(out, "prefix" + Json(text).dump(-1, ' ', false, Json::error_handler_t::replace))
        << text;
  }
}

// Plain text with one character to escape (or one UTF-8 character) at every position of
// strings around the 16-byte block size.
TEST(JsonString, OneSpecialCharacterAtEveryPosition) {
  for (std::string special : {"\"", "\\", "\x01", "\x7f", "é", "\xFF"})
    for (size_t size = 1; size <= 40; ++size)
      for (size_t at = 0; at < size; ++at) {
        std::string text(size, 'x');
        text.replace(at, 1, special);
        std::string out;
        append_json_string(text, out);
        ASSERT_EQ(out, Json(text).dump(-1, ' ', false, Json::error_handler_t::replace)) << text;
      }
}

// Every length around the 16-byte blocks, with a byte to escape (or a non-ASCII one) at every
// place: copied exactly when there is none, refused otherwise; a byte to escape just past the
// string is not looked at.
TEST(JsonString, CopyIfNoEscapeAtEveryLengthAndPlace) {
  for (size_t n = 0; n <= 40; ++n)
    for (size_t flagged = 0; flagged <= n; ++flagged)
      for (char c : {'"', '\\', '\x01', '\xc3'}) {
        std::string text(n + 1, 'a');
        text[flagged] = c;
        std::string_view s(text.data(), n);
        char to[64];
        char* end = copy_if_no_json_escape(s, to);
        if (flagged < n) {
          EXPECT_EQ(end, nullptr) << n << " " << flagged;
        } else {
          ASSERT_EQ(end, to + n) << n;
          EXPECT_EQ(std::string_view(to, n), s);
        }
      }
}

}  // namespace
}  // namespace strata::extract
