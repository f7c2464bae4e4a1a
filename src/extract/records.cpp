#include "extract/records.hpp"

#include <charconv>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "extract/json_string.hpp"
#include "extract/record_fields.hpp"

namespace strata::extract {

namespace {

// The Json object of a record, in the order of RecordFields.
template <typename Record>
Json object_of(const Record& r) {
  Json j = Json::object();
  j["type"] = RecordFields<Record>::kType;
  RecordFields<Record>::visit([&](const char* key, auto member) {
    if (!omitted_when_written(key, r.*member)) j[key] = r.*member;
  });
  return j;
}

// Appends `,"key":` (or `{"key":` first) in one append: the key is a literal, its length
// known here.
template <size_t N>
void append_key(char& separator, const char (&key)[N], std::string& out) {
  constexpr size_t kKeyLength = N - 1;
  char head[kKeyLength + 4];
  head[0] = separator;
  head[1] = '"';
  std::memcpy(head + 2, key, kKeyLength);
  head[kKeyLength + 2] = '"';
  head[kKeyLength + 3] = ':';
  out.append(head, sizeof head);
  separator = ',';
}

// The dump of object_of(r) (invalid UTF-8 replaced) without building the object.
template <typename Record>
void append_line(const Record& r, std::string& out) {
  char separator = '{';
  append_key(separator, "type", out);
  append_json_string(RecordFields<Record>::kType, out);
  RecordFields<Record>::visit([&](const auto& key, auto member) {
    const auto& value = r.*member;
    if (omitted_when_written(key, value)) return;
    append_key(separator, key, out);
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, bool>) {
      out += value ? "true" : "false";
    } else if constexpr (std::is_integral_v<T>) {
      char digits[24];
      out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    } else {
      append_json_string(value, out);
    }
  });
  out += "}\n";
}

template <typename Record>
std::string line_of(const Record& r) {
  std::string out;
  append_line(r, out);
  return out;
}

// Every field present and not null read from j (read_field); false unless j's type is the
// record's.
template <typename Record>
bool read_record(const Json& j, Record& r) {
  if (!has_type(j, RecordFields<Record>::kType)) return false;
  RecordFields<Record>::visit([&](const char* key, auto member) { read_field(j, key, r.*member); });
  return true;
}

}  // namespace

Json to_json(const ImageCapture& r) {
  return object_of(r);
}
Json to_json(const ImageRevisit& r) {
  return object_of(r);
}
Json to_json(const PageReference& r) {
  return object_of(r);
}

std::string to_jsonl(const ImageCapture& r) {
  return line_of(r);
}
std::string to_jsonl(const ImageRevisit& r) {
  return line_of(r);
}
std::string to_jsonl(const PageReference& r) {
  return line_of(r);
}

void append_jsonl(const ImageCapture& r, std::string& out) {
  append_line(r, out);
}
void append_jsonl(const ImageRevisit& r, std::string& out) {
  append_line(r, out);
}
void append_jsonl(const ImageRevisitView& r, std::string& out) {
  append_line(r, out);
}
void append_jsonl(const PageReference& r, std::string& out) {
  append_line(r, out);
}
void append_jsonl(const PageReferenceView& r, std::string& out) {
  append_line(r, out);
}

bool from_json(const Json& j, ImageCapture& r) {
  return read_record(j, r);
}
bool from_json(const Json& j, ImageRevisit& r) {
  return read_record(j, r);
}
bool from_json(const Json& j, PageReference& r) {
  return read_record(j, r);
}

}  // namespace strata::extract
