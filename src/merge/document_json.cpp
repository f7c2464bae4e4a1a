#include "merge/document_json.hpp"

#include <charconv>
#include <string_view>
#include <type_traits>
#include <vector>

#include "extract/json_string.hpp"

namespace strata::merge {
namespace {

void append_value(std::string_view s, std::string& out) {
  extract::append_json_string(s, out);
}

void append_value(bool b, std::string& out) {
  out += b ? "true" : "false";
}

template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
void append_value(T n, std::string& out) {
  char buf[24];
  auto end = std::to_chars(buf, buf + sizeof buf, n).ptr;
  out.append(buf, end);
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

}  // namespace

// The field order of to_json(ImageDocument).
template <typename S>
void append_document_json(const BasicImageDocument<S>& d, std::string& out) {
  out += R"({"type":"document")";
  field<"id">(d.id, out), field<"imgDigest">(d.imgDigest, out), field<"imgUrl">(d.imgUrl, out);
  field<"imgSurt">(d.imgSurt, out), field<"imgUrlTokens">(d.imgUrlTokens, out);
  field<"imgMimeType">(d.imgMimeType, out);
  field<"imgMimeTypeReported">(d.imgMimeTypeReported, out), field<"imgWidth">(d.imgWidth, out);
  field<"imgHeight">(d.imgHeight, out), field<"imgSize">(d.imgSize, out);
  field<"imgCrawlTimestamp">(d.imgCrawlTimestamp, out);
  field<"imgCrawlTimestampLatest">(d.imgCrawlTimestampLatest, out);
  field<"imgCaptureTimes">(d.imgCaptureTimes, out), field<"imgFile">(d.imgFile, out);
  field<"imgOffset">(d.imgOffset, out), field<"imgLength">(d.imgLength, out);
  field<"isInline">(d.isInline, out), field<"imgTitle">(d.imgTitle, out);
  field<"imgAlt">(d.imgAlt, out), field<"imgCaption">(d.imgCaption, out);
  field<"pageUrl">(d.pageUrl, out), field<"pageTitle">(d.pageTitle, out);
  field<"pageUrlTokens">(d.pageUrlTokens, out), field<"pageHost">(d.pageHost, out);
  field<"pageCrawlTimestamp">(d.pageCrawlTimestamp, out), field<"pageFile">(d.pageFile, out);
  field<"pageOffset">(d.pageOffset, out), field<"pageLength">(d.pageLength, out);
  field<"tags">(d.tags, out), field<"imagesInOriginalPage">(d.imagesInOriginalPage, out);
  field<"imageMetadataChanges">(d.imageMetadataChanges, out);
  field<"pageMetadataChanges">(d.pageMetadataChanges, out);
  field<"matchingImages">(d.matchingImages, out), field<"matchingPages">(d.matchingPages, out);
  field<"collection">(d.collection, out);
  out += '}';
}

template void append_document_json(const ImageDocument&, std::string&);
template void append_document_json(const DocumentView&, std::string&);

}  // namespace strata::merge
