#include "extract/charset.hpp"

#include <uchardet/uchardet.h>
#include <unicode/ucnv.h>

#include <climits>
#include <memory>
#include <optional>
#include <type_traits>

#include "extract/charset_utf8.hpp"

namespace strata::extract {

using namespace charset_detail;

namespace {

constexpr size_t kDetectBytes = 256 * 1024;     // uchardet sees at most this much
constexpr size_t kLateMetaBytes = 1024 * 1024;  // <meta> after the first 1024 bytes
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

struct Bom {
  std::string_view encoding;
  size_t length = 0;
};

Bom sniff_bom(std::string_view bytes) {
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") return {"UTF-8", 3};
  if (bytes.substr(0, 2) == "\xFF\xFE") return {"UTF-16LE", 2};
  if (bytes.substr(0, 2) == "\xFE\xFF") return {"UTF-16BE", 2};
  return {};
}

// A lead byte followed by fewer continuation bytes than it needs, then the end.
bool is_truncated_sequence(std::string_view tail) {
  auto lead = static_cast<uint8_t>(tail[0]);
  size_t needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  if (lead < 0xC2 || lead > 0xF4 || tail.size() >= needed) return false;
  for (size_t i = 1; i < tail.size(); ++i)
    if ((static_cast<uint8_t>(tail[i]) & 0xC0) != 0x80) return false;
  return true;
}

// UTF-8 validity, forgiving one sequence cut off at the end (truncated captures).
bool valid_utf8_allowing_truncation(std::string_view bytes) {
  for (size_t pos = skip_ascii(bytes, 0); pos < bytes.size(); pos = skip_ascii(bytes, pos)) {
    int len = utf8_sequence_length(bytes, pos);
    if (len == 0) return is_truncated_sequence(bytes.substr(pos));
    pos += static_cast<size_t>(len);
  }
  return true;
}

// A declared encoding the bytes cannot be in: unknown, "replacement", UTF-8 over invalid
// UTF-8, UTF-16 over text without a single NUL byte.
bool usable_declaration(std::string_view encoding, std::string_view bytes) {
  if (encoding.empty() || encoding == "replacement") return false;
  if (encoding == "UTF-8") return valid_utf8_allowing_truncation(bytes);
  if (encoding == "UTF-16LE" || encoding == "UTF-16BE")
    return bytes.substr(0, 1024).find('\0') != std::string_view::npos;
  return true;
}

std::string_view icu_name(std::string_view encoding) {
  if (encoding == "GBK") return "gb18030";
  if (encoding == "Big5") return "Big5-HKSCS";
  if (encoding == "Shift_JIS") return "windows-31j";
  if (encoding == "EUC-KR") return "windows-949";
  if (encoding == "ISO-8859-8-I") return "ISO-8859-8";
  return encoding;
}

std::string decode_windows1252(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 4);
  // ASCII reads as itself: copied a run at a time, not a call per byte.
  for (size_t pos = 0; pos < bytes.size(); ++pos) {
    size_t ascii_end = skip_ascii(bytes, pos);
    out.append(bytes.substr(pos, ascii_end - pos));
    pos = ascii_end;
    if (pos < bytes.size())
      append_utf8(out, windows1252_to_unicode(static_cast<uint8_t>(bytes[pos])));
  }
  return out;
}

std::string decode_x_user_defined(std::string_view bytes) {
  std::string out;
  for (char c : bytes) {
    auto b = static_cast<uint8_t>(c);
    append_utf8(out, b < 0x80 ? b : 0xF780u + b - 0x80);
  }
  return out;
}

// ICU conversion; nullopt when ICU has no converter of that name.
std::optional<std::string> decode_icu(std::string_view bytes, std::string_view encoding) {
  if (bytes.size() > static_cast<size_t>(INT_MAX / 4)) bytes = bytes.substr(0, INT_MAX / 4);
  std::string from(icu_name(encoding));
  UErrorCode status = U_ZERO_ERROR;
  int32_t needed = ucnv_convert("UTF-8", from.c_str(), nullptr, 0, bytes.data(),
                                static_cast<int32_t>(bytes.size()), &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) return std::nullopt;
  std::string out(static_cast<size_t>(needed), '\0');
  if (needed == 0) return out;
  status = U_ZERO_ERROR;
  ucnv_convert("UTF-8", from.c_str(), out.data(), needed, bytes.data(),
               static_cast<int32_t>(bytes.size()), &status);
  if (U_FAILURE(status)) return std::nullopt;
  return out;
}

struct UchardetDeleter {
  void operator()(uchardet_t detector) const { uchardet_delete(detector); }
};

}  // namespace

bool is_valid_utf8(std::string_view bytes) {
  for (size_t pos = skip_ascii(bytes, 0); pos < bytes.size(); pos = skip_ascii(bytes, pos)) {
    int len = utf8_sequence_length(bytes, pos);
    if (len == 0) return false;
    pos += static_cast<size_t>(len);
  }
  return true;
}

std::string convert_to_utf8(std::string_view bytes, std::string_view encoding) {
  if (encoding == "UTF-8") return sanitize_utf8(bytes);
  if (encoding == "windows-1252") return decode_windows1252(bytes);
  if (encoding == "x-user-defined") return decode_x_user_defined(bytes);
  if (encoding == "replacement") return bytes.empty() ? "" : std::string(kReplacement);
  if (auto decoded = decode_icu(bytes, encoding)) return std::move(*decoded);
  return decode_windows1252(bytes);
}

std::string detect_encoding(std::string_view bytes) {
  std::unique_ptr<std::remove_pointer_t<uchardet_t>, UchardetDeleter> detector(uchardet_new());
  if (!detector) return "";
  std::string_view sample = bytes.substr(0, kDetectBytes);
  if (uchardet_handle_data(detector.get(), sample.data(), sample.size()) != 0) return "";
  uchardet_data_end(detector.get());
  std::string_view name = uchardet_get_charset(detector.get());
  if (name.empty() || name == "ASCII") return "";
  if (name == "MAC-CYRILLIC") return "x-mac-cyrillic";
  return encoding_for_label(name);
}

namespace {

struct Choice {
  std::string encoding;
  std::string source;
};

Choice choose_encoding(std::string_view bytes, std::string_view http_charset) {
  std::string http = encoding_for_label(charset_from_content_type(http_charset));
  if (usable_declaration(http, bytes)) return {http, "http"};
  std::string meta = prescan_meta_charset(bytes, 1024);
  if (meta.empty() && bytes.size() > 1024) meta = prescan_meta_charset(bytes, kLateMetaBytes);
  if (usable_declaration(meta, bytes)) return {meta, "meta"};
  if (std::string detected = detect_encoding(bytes); !detected.empty())
    return {detected, "detected"};
  return {"windows-1252", "default"};
}

}  // namespace

DecodedText decode_html(std::string_view bytes, std::string_view http_charset) {
  DecodedText out;
  Bom bom = sniff_bom(bytes);
  if (bom.length > 0) {
    out.encoding = bom.encoding;
    out.source = "bom";
    bytes.remove_prefix(bom.length);
  } else {
    Choice choice = choose_encoding(bytes, http_charset);
    out.encoding = std::move(choice.encoding);
    out.source = std::move(choice.source);
  }
  out.utf8 = convert_to_utf8(bytes, out.encoding);
  out.mojibake_rounds = repair_mojibake(out.utf8);
  out.repaired_mojibake = out.mojibake_rounds > 0;
  out.has_replacement_chars = out.utf8.find(kReplacement) != std::string::npos;
  return out;
}

}  // namespace strata::extract
