#include "merge/document_json.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string_view>
#include <vector>

#include "extract/json_string.hpp"

namespace strata::merge {
namespace {

constexpr size_t kMaxDigits = 20;  // of a 64-bit integer, or its sign and 19 digits
constexpr size_t kCopySlack = 16;  // the room extract::copy_if_no_json_escape may write past

// A document's JSON without its strings: `{"type":"document"`, 35 `,"name":` (525 bytes) and
// `}`, and 13 numbers or booleans. Kept close, since the room is zero-filled as it is grown
// (a field added later only makes the room grow once more).
constexpr size_t kFixedBytes = 18 + 525 + 1 + 13 * kMaxDigits;

// Writes through a pointer into `out`, grown ahead (one growth per document when the estimate
// holds): an append for each quote, string and name, each with its capacity check and memcpy
// call, showed in profiles. `out` holds the unwritten room until finish() cuts it off.
class Writer {
 public:
  Writer(std::string& out, size_t estimate) : out_(out) { grow(estimate); }

  void finish() { out_.resize(static_cast<size_t>(at_ - out_.data())); }

  // Where to write n more bytes.
  char* room(size_t n) {
    if (static_cast<size_t>(end_ - at_) < n) grow(std::max(n, kFixedBytes));
    return at_;
  }
  void advance_to(char* p) { at_ = p; }

  void text(std::string_view t) {
    std::memcpy(room(t.size()), t.data(), t.size());
    at_ += t.size();
  }
  void put(char c) { *room(1) = c, ++at_; }

  // s quoted and escaped as extract::append_json_string writes it; copied here when it
  // needs no escape (nearly always). Inlined: it runs for every string of every document.
  [[gnu::always_inline]] void string(std::string_view s) {
    char* p = room(s.size() + 2 + kCopySlack);
    *p = '"';
    char* end = extract::copy_if_no_json_escape(s, p + 1);
    if (!end) return escaped_string(s);
    *end = '"';
    at_ = end + 1;
  }

 private:
  void grow(size_t n) {
    size_t used = at_ ? static_cast<size_t>(at_ - out_.data()) : out_.size();
    out_.resize(used + n);
    at_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }

  void escaped_string(std::string_view s) {
    finish();
    extract::append_json_string(s, out_);
    at_ = end_ = out_.data() + out_.size();
  }

  std::string& out_;
  char* at_ = nullptr;
  char* end_ = nullptr;
};

// The wrappers below are inlined into append_document_json: as calls, their own costs
// (argument set-up, the room check's spills) showed in profiles.
[[gnu::always_inline]] inline void append_value(std::string_view s, Writer& out) {
  out.string(s);
}

template <typename S>
[[gnu::always_inline]] inline void append_value(const std::vector<S>& values, Writer& out) {
  out.put('[');
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out.put(',');
    out.string(values[i]);
  }
  out.put(']');
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
[[gnu::always_inline]] inline void field(const T& value, Writer& out) {
  out.text({name.text, sizeof name.text});
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
// with one check for room for them all.
template <FieldName... names, typename... T>
void plain_fields(Writer& out, const T&... values) {
  char* end = out.room((0 + ... + (sizeof names.text + kMaxDigits)));
  ((std::memcpy(end, names.text, sizeof names.text),
    end = write_plain(values, end + sizeof names.text)),
   ...);
  out.advance_to(end);
}

// A string's JSON size with its quotes and a comma, when it needs no escape.
size_t json_size(std::string_view s) {
  return s.size() + 3;
}

template <typename S>
size_t json_size(const std::vector<S>& values) {
  size_t size = 2;
  for (const auto& v : values) size += json_size(v);
  return size;
}

// The document's JSON size when no string needs escaping, or a little more.
template <typename S>
size_t estimated_size(const BasicImageDocument<S>& d) {
  auto sizes = [](const auto&... fields) { return (kFixedBytes + ... + json_size(fields)); };
  return sizes(d.id, d.imgDigest, d.imgUrl, d.imgSurt, d.imgUrlTokens, d.imgMimeType,
               d.imgMimeTypeReported, d.imgCrawlTimestamp, d.imgCrawlTimestampLatest,
               d.imgCaptureTimes, d.imgFile, d.imgTitle, d.imgAlt, d.imgCaption, d.pageUrl,
               d.pageTitle, d.pageUrlTokens, d.pageHost, d.pageCrawlTimestamp, d.pageFile, d.tags,
               d.collection, d.book);
}

}  // namespace

// The field order of to_json(ImageDocument).
template <typename S>
void append_document_json(const BasicImageDocument<S>& d, std::string& line) {
  Writer out(line, estimated_size(d));
  out.text(R"({"type":"document")");
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
  plain_fields<"refsInMain", "refsInChrome", "refsAsLogo">(out, d.refsInMain, d.refsInChrome,
                                                           d.refsAsLogo);
  field<"collection">(d.collection, out);
  if (!d.book.empty()) field<"book">(d.book, out);
  if (d.distinctPages > 0 && d.distinctPages < d.matchingPages)
    plain_fields<"distinctPages">(out, d.distinctPages);
  out.put('}');
  out.finish();
}

template void append_document_json(const ImageDocument&, std::string&);
template void append_document_json(const DocumentView&, std::string&);

}  // namespace strata::merge
