#include "cdx/cdxj.hpp"

#include <algorithm>
#include <cstdint>

#include "url/url.hpp"

namespace strata::cdx {
namespace {

using archive::Record;
using archive::RecordType;

void append_u_escape(std::string& out, uint32_t unit) {
  static const char* hex = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += hex[(unit >> shift) & 15];
}

// cdxj-indexer's RE_SPACE split: the value up to the first ';' or whitespace, trimmed.
std::string first_token(std::string_view value) {
  std::size_t b = 0;
  while (b < value.size() && (value[b] == ' ' || value[b] == '\t')) ++b;
  value.remove_prefix(b);
  std::size_t end = value.find_first_of("; \t\r\n\f\v");
  return std::string(value.substr(0, end));
}

void add_field(std::string& json, std::string_view name, std::string_view value) {
  if (value.empty()) return;
  json += json.size() > 1 ? ", " : "";
  json += python_json_string(name);
  json += ": ";
  json += python_json_string(value);
}

}  // namespace

bool indexed(const Record& record) {
  switch (record.type) {
    case RecordType::response:
    case RecordType::revisit:
      return true;
    case RecordType::resource:
    case RecordType::metadata:
      return record.content_type != "application/warc-fields";
    default:
      return false;
  }
}

std::string mime_field(const Record& record) {
  if (record.type == RecordType::revisit) return "warc/revisit";
  if (record.type == RecordType::response || record.type == RecordType::request) {
    // The header as written: cdxj-indexer keeps its case.
    return record.http.present ? first_token(record.http.header("Content-Type")) : "";
  }
  return first_token(record.content_type);
}

std::string python_json_string(std::string_view utf8) {
  std::string out = "\"";
  for (std::size_t i = 0; i < utf8.size();) {
    uint32_t cp = url::next_code_point(utf8, i);
    switch (cp) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    if (cp >= 0x20 && cp < 0x80) {  // printable ASCII and DEL stay as they are
      out += static_cast<char>(cp);
      continue;
    }
    if (cp >= 0x10000) {  // UTF-16 surrogate pair, as Python writes it
      uint32_t v = cp - 0x10000;
      append_u_escape(out, 0xD800 + (v >> 10));
      append_u_escape(out, 0xDC00 + (v & 0x3FF));
    } else {
      append_u_escape(out, cp);
    }
  }
  return out + "\"";
}

std::string cdxj_line(const Record& record, std::string_view filename) {
  std::string digest = record.payload_digest;
  if (digest.starts_with("sha1:")) digest.erase(0, 5);
  std::string status =
      record.http.present && record.http.status > 0 ? std::to_string(record.http.status) : "";
  std::string json = "{";
  add_field(json, "url", record.target_uri);
  add_field(json, "mime", mime_field(record));
  add_field(json, "status", status);
  add_field(json, "digest", digest);
  add_field(json, "length", std::to_string(record.length));
  add_field(json, "offset", std::to_string(record.offset));
  add_field(json, "filename", filename);
  json += "}";
  std::string key = url::cdx_surt(record.target_uri);
  std::string timestamp = record.date.empty() ? "-" : record.date;
  return key + " " + timestamp + " " + json;
}

void sort_lines(std::vector<std::string>& lines) {
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
}

}  // namespace strata::cdx
