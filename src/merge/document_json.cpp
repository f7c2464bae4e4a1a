#include "merge/document_json.hpp"

#include <charconv>
#include <cstring>
#include <string_view>
#include <vector>

#include "extract/json_string.hpp"

namespace strata::merge {
namespace {

constexpr size_t kMaxDigits = 20;  // of a 64-bit integer, or its sign and 19 digits

void append_value(std::string_view s, std::string& out) {
  extract::append_json_string(s, out);
}

template <typename S>
void append_value(const std::vector<S>& values, std::string& out) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    extract::append_json_string(values[i], out);
  }
  out += ']';
}

// `,"name":` as one compile-time text: a document has 36 fields, and writing the comma, the
// quotes and the name one append at a time showed in profiles.
template <size_t N>
struct FieldName {
  char text[N + 3] = {',', '"'};
  consteval FieldName(const char (&name)[N]) {
    for (size_t i = 0; i + 1 < N; ++i) text[2 + i] = name[i];
    text[N + 1] = '"';
    text[N + 2] = ':';
  }
};

// Appends `,"name":value`.
template <FieldName name, typename T>
void field(const T& value, std::string& out) {
  out.append(name.text, sizeof name.text);
  append_value(value, out);
}

char* write_plain(bool b, char* at) {
  std::string_view text = b ? "true" : "false";
  std::memcpy(at, text.data(), text.size());
  return at + text.size();
}

template <typename T>
char* write_plain(T n, char* at) {
  return std::to_chars(at, at + kMaxDigits, n).ptr;
}

// Appends `,"name":value` for each name and number or boolean (values that need no escaping),
// written into a buffer on the stack and appended at once: an append for each name and each
// value showed in profiles.
template <FieldName... names, typename... T>
void plain_fields(std::string& out, const T&... values) {
  char buffer[(0 + ... + (sizeof names.text + kMaxDigits))];
  char* end = buffer;
  ((std::memcpy(end, names.text, sizeof names.text),
    end = write_plain(values, end + sizeof names.text)),
   ...);
  out.append(buffer, end);
}

}  // namespace

// The field order of to_json(ImageDocument).
template <typename S>
void append_document_json(const BasicImageDocument<S>& d, std::string& out) {
  out += R"({"type":"document")";
  field<"id">(d.id, out), field<"imgDigest">(d.imgDigest, out), field<"imgUrl">(d.imgUrl, out);
  field<"imgSurt">(d.imgSurt, out), field<"imgUrlTokens">(d.imgUrlTokens, out);
  field<"imgMimeType">(d.imgMimeType, out);
  field<"imgMimeTypeReported">(d.imgMimeTypeReported, out);
  plain_fields<"imgWidth", "imgHeight", "imgSize">(out, d.imgWidth, d.imgHeight, d.imgSize);
  field<"imgCrawlTimestamp">(d.imgCrawlTimestamp, out);
  field<"imgCrawlTimestampLatest">(d.imgCrawlTimestampLatest, out);
  field<"imgCaptureTimes">(d.imgCaptureTimes, out), field<"imgFile">(d.imgFile, out);
  plain_fields<"imgOffset", "imgLength", "isInline">(out, d.imgOffset, d.imgLength, d.isInline);
  field<"imgTitle">(d.imgTitle, out);
  field<"imgAlt">(d.imgAlt, out), field<"imgCaption">(d.imgCaption, out);
  field<"pageUrl">(d.pageUrl, out), field<"pageTitle">(d.pageTitle, out);
  field<"pageUrlTokens">(d.pageUrlTokens, out), field<"pageHost">(d.pageHost, out);
  field<"pageCrawlTimestamp">(d.pageCrawlTimestamp, out), field<"pageFile">(d.pageFile, out);
  plain_fields<"pageOffset", "pageLength">(out, d.pageOffset, d.pageLength);
  field<"tags">(d.tags, out);
  plain_fields<"imagesInOriginalPage", "imageMetadataChanges", "pageMetadataChanges",
               "matchingImages", "matchingPages">(out, d.imagesInOriginalPage,
                                                  d.imageMetadataChanges, d.pageMetadataChanges,
                                                  d.matchingImages, d.matchingPages);
  field<"collection">(d.collection, out);
  out += '}';
}

template void append_document_json(const ImageDocument&, std::string&);
template void append_document_json(const DocumentView&, std::string&);

}  // namespace strata::merge
