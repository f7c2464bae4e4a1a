#pragma once
// Decoding HTML bytes to UTF-8, in this order (docs/images-and-charsets.md):
//   1. byte order mark (UTF-8, UTF-16LE, UTF-16BE)       source "bom"
//   2. the HTTP Content-Type charset                      source "http"
//   3. HTML5 meta prescan of the first 1024 bytes, then   source "meta"
//      the same scan over the whole page (a <meta> the tree builder would act on later)
//   4. uchardet, when nothing usable is declared or the   source "detected"
//      declaration is impossible (declared UTF-8 but the bytes are not UTF-8)
//   5. windows-1252                                       source "default"
// followed by mojibake repair (UTF-8 that was read as windows-1252, once or twice).
// Encoding names are the WHATWG Encoding Standard's ("windows-1252", "UTF-8", "Shift_JIS").
#include <cstddef>
#include <string>
#include <string_view>

namespace strata::extract {

struct DecodedText {
  std::string utf8;
  std::string encoding;  // WHATWG name of the encoding used
  std::string source;    // "bom", "http", "meta", "detected" or "default"
  bool repaired_mojibake = false;
  int mojibake_rounds = 0;  // 2 = double-encoded text repaired twice
  bool has_replacement_chars = false;
};

// http_charset: a bare label ("ISO-8859-1") or a whole Content-Type value.
DecodedText decode_html(std::string_view bytes, std::string_view http_charset = {});

// WHATWG "get an encoding": label -> canonical name, "" when the label is unknown.
std::string encoding_for_label(std::string_view label);

// The charset parameter of a Content-Type value ("" when none); labels pass through.
std::string charset_from_content_type(std::string_view content_type);

// WHATWG "prescan a byte stream to determine its encoding" over bytes[0, limit):
// the canonical encoding name, or "" when no usable <meta> is found.
std::string prescan_meta_charset(std::string_view bytes, size_t limit = 1024);

// uchardet's guess as a WHATWG name; "" when it has none or the text is plain ASCII.
std::string detect_encoding(std::string_view bytes);

// Bytes in the named encoding -> UTF-8; undecodable bytes become U+FFFD.
std::string convert_to_utf8(std::string_view bytes, std::string_view encoding);

bool is_valid_utf8(std::string_view bytes);

// Mojibake: UTF-8 sequences whose bytes were decoded one by one as windows-1252
// ("Ã©" for "é", "â€™" for "’").
int count_mojibake(std::string_view utf8);
// Arquivo's UTF8_MISMATCH expression (Ã©|Ã¡|Ã£|...|Â£), for comparable statistics.
bool has_arquivo_mojibake_pattern(std::string_view utf8);
// Reverses mis-decoding while it lowers count_mojibake (at most 3 rounds); returns the
// number of rounds applied (0 = unchanged).
int repair_mojibake(std::string& utf8);
// U+FFFD present or mojibake sequences present.
bool looks_mis_encoded(std::string_view utf8);

}  // namespace strata::extract
