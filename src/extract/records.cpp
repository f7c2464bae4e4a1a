#include "extract/records.hpp"

#include <charconv>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "extract/json_string.hpp"

namespace strata::extract {

namespace {

// Each record's fields in JSON order are given to `field(key, value)` by fields(): the one
// list both the Json object and the JSON line are made from.

// The fields an image capture and a revisit share, in the same order.
template <typename Record, typename Field>
void where_captured(const Record& r, Field&& field) {
  field("imgSurt", r.imgSurt);
  field("imgUrl", r.imgUrl);
  field("timestamp", r.timestamp);
  field("collection", r.collection);
  field("file", r.file);
  field("offset", r.offset);
  field("length", r.length);
}

template <typename Field>
void fields(const ImageCapture& r, Field&& field) {
  field("type", "image");
  where_captured(r, field);
  field("recordType", r.recordType);
  field("status", r.status);
  field("mimeReported", r.mimeReported);
  field("mimeDetected", r.mimeDetected);
  field("width", r.width);
  field("height", r.height);
  field("digest", r.digest);
  field("size", r.size);
  field("warcDigest", r.warcDigest);
  field("inline", r.inline_);
}

template <typename Text, typename Field>
void fields(const BasicImageRevisit<Text>& r, Field&& field) {
  field("type", "revisit");
  where_captured(r, field);
  field("warcDigest", r.warcDigest);
  field("refersToUrl", r.refersToUrl);
  field("refersToSurt", r.refersToSurt);
  field("refersToDate", r.refersToDate);
  field("mimeReported", r.mimeReported);
}

template <typename Text, typename Field>
void fields(const BasicPageReference<Text>& r, Field&& field) {
  field("type", "ref");
  field("imgSurt", r.imgSurt);
  field("imgUrl", r.imgUrl);
  field("imgUrlTokens", r.imgUrlTokens);
  field("imgAlt", r.imgAlt);
  field("imgTitle", r.imgTitle);
  field("imgCaption", r.imgCaption);
  field("tag", r.tag);
  field("pageUrl", r.pageUrl);
  field("pageTimestamp", r.pageTimestamp);
  field("pageTitle", r.pageTitle);
  field("pageUrlTokens", r.pageUrlTokens);
  field("pageHost", r.pageHost);
  field("imagesInPage", r.imagesInPage);
  field("collection", r.collection);
  field("file", r.file);
  field("offset", r.offset);
  field("length", r.length);
  field("inline", r.inline_);
}

template <typename Record>
Json object_of(const Record& r) {
  Json j = Json::object();
  fields(r, [&j](const char* key, const auto& value) { j[key] = value; });
  return j;
}

// The dump of object_of(r) (invalid UTF-8 replaced) without building the object.
template <typename Record>
void append_line(const Record& r, std::string& out) {
  char separator = '{';
  fields(r, [&out, &separator](const auto& key, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    // `,"key":` in one append (the key is a literal: its length is known here).
    constexpr size_t kKeyLength = std::extent_v<std::remove_cvref_t<decltype(key)>> - 1;
    char head[kKeyLength + 4];
    head[0] = separator;
    head[1] = '"';
    std::memcpy(head + 2, key, kKeyLength);
    head[kKeyLength + 2] = '"';
    head[kKeyLength + 3] = ':';
    out.append(head, sizeof head);
    separator = ',';
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
  if (!has_type(j, "image")) return false;
  read_field(j, "imgSurt", r.imgSurt);
  read_field(j, "imgUrl", r.imgUrl);
  read_field(j, "timestamp", r.timestamp);
  read_field(j, "collection", r.collection);
  read_field(j, "file", r.file);
  read_field(j, "offset", r.offset);
  read_field(j, "length", r.length);
  read_field(j, "recordType", r.recordType);
  read_field(j, "status", r.status);
  read_field(j, "mimeReported", r.mimeReported);
  read_field(j, "mimeDetected", r.mimeDetected);
  read_field(j, "width", r.width);
  read_field(j, "height", r.height);
  read_field(j, "digest", r.digest);
  read_field(j, "size", r.size);
  read_field(j, "warcDigest", r.warcDigest);
  read_field(j, "inline", r.inline_);
  return true;
}

bool from_json(const Json& j, ImageRevisit& r) {
  if (!has_type(j, "revisit")) return false;
  read_field(j, "imgSurt", r.imgSurt);
  read_field(j, "imgUrl", r.imgUrl);
  read_field(j, "timestamp", r.timestamp);
  read_field(j, "collection", r.collection);
  read_field(j, "file", r.file);
  read_field(j, "offset", r.offset);
  read_field(j, "length", r.length);
  read_field(j, "warcDigest", r.warcDigest);
  read_field(j, "refersToUrl", r.refersToUrl);
  read_field(j, "refersToSurt", r.refersToSurt);
  read_field(j, "refersToDate", r.refersToDate);
  read_field(j, "mimeReported", r.mimeReported);
  return true;
}

bool from_json(const Json& j, PageReference& r) {
  if (!has_type(j, "ref")) return false;
  read_field(j, "imgSurt", r.imgSurt);
  read_field(j, "imgUrl", r.imgUrl);
  read_field(j, "imgUrlTokens", r.imgUrlTokens);
  read_field(j, "imgAlt", r.imgAlt);
  read_field(j, "imgTitle", r.imgTitle);
  read_field(j, "imgCaption", r.imgCaption);
  read_field(j, "tag", r.tag);
  read_field(j, "pageUrl", r.pageUrl);
  read_field(j, "pageTimestamp", r.pageTimestamp);
  read_field(j, "pageTitle", r.pageTitle);
  read_field(j, "pageUrlTokens", r.pageUrlTokens);
  read_field(j, "pageHost", r.pageHost);
  read_field(j, "imagesInPage", r.imagesInPage);
  read_field(j, "collection", r.collection);
  read_field(j, "file", r.file);
  read_field(j, "offset", r.offset);
  read_field(j, "length", r.length);
  read_field(j, "inline", r.inline_);
  return true;
}

}  // namespace strata::extract
