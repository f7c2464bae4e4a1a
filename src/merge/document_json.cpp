#include "merge/document_json.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <type_traits>
#include <vector>

namespace strata::merge {
namespace {

// Bytes copied as they are: printable ASCII but '"' and '\\'. One table look-up per byte
// finds the common case (nothing to escape, all ASCII) in a single pass.
constexpr auto kPlain = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}();

bool is_plain(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return kPlain[static_cast<unsigned char>(c)]; });
}

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

void append_escaped(std::string_view s, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += c;
        }
    }
  }
}

// ASCII is escaped here exactly as nlohmann does; any other string goes through nlohmann, so
// its UTF-8 checks and replacement of invalid bytes stay the reference.
void append_string(std::string_view s, std::string& out) {
  if (is_plain(s)) {  // most values: copied whole
    out += '"';
    out.append(s);
    out += '"';
  } else if (!is_ascii(s)) {
    out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
  } else {
    out += '"';
    append_escaped(s, out);
    out += '"';
  }
}

void append_value(std::string_view s, std::string& out) {
  append_string(s, out);
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
    append_string(values[i], out);
  }
  out += ']';
}

// Writes `"name":value` pairs, with the commas between them.
class ObjectWriter {
 public:
  explicit ObjectWriter(std::string& out) : out_(out) { out_ += '{'; }
  ~ObjectWriter() { out_ += '}'; }
  ObjectWriter(const ObjectWriter&) = delete;
  ObjectWriter& operator=(const ObjectWriter&) = delete;
  template <typename T>
  ObjectWriter& operator()(std::string_view name, const T& value) {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += '"';
    out_ += name;
    out_ += "\":";
    append_value(value, out_);
    return *this;
  }

 private:
  std::string& out_;
  bool first_ = true;
};

}  // namespace

// The field order of to_json(ImageDocument).
template <typename S>
void append_document_json(const BasicImageDocument<S>& d, std::string& out) {
  ObjectWriter w(out);
  w("type", std::string_view("document"))("id", d.id)("imgDigest", d.imgDigest)("imgUrl", d.imgUrl);
  w("imgSurt", d.imgSurt)("imgUrlTokens", d.imgUrlTokens)("imgMimeType", d.imgMimeType);
  w("imgMimeTypeReported", d.imgMimeTypeReported)("imgWidth", d.imgWidth);
  w("imgHeight", d.imgHeight)("imgSize", d.imgSize)("imgCrawlTimestamp", d.imgCrawlTimestamp);
  w("imgCrawlTimestampLatest", d.imgCrawlTimestampLatest)("imgCaptureTimes", d.imgCaptureTimes);
  w("imgFile", d.imgFile)("imgOffset", d.imgOffset)("imgLength", d.imgLength);
  w("isInline", d.isInline)("imgTitle", d.imgTitle)("imgAlt", d.imgAlt);
  w("imgCaption", d.imgCaption)("pageUrl", d.pageUrl)("pageTitle", d.pageTitle);
  w("pageUrlTokens", d.pageUrlTokens)("pageHost", d.pageHost);
  w("pageCrawlTimestamp", d.pageCrawlTimestamp)("pageFile", d.pageFile);
  w("pageOffset", d.pageOffset)("pageLength", d.pageLength)("tags", d.tags);
  w("imagesInOriginalPage", d.imagesInOriginalPage);
  w("imageMetadataChanges", d.imageMetadataChanges);
  w("pageMetadataChanges", d.pageMetadataChanges)("matchingImages", d.matchingImages);
  w("matchingPages", d.matchingPages)("collection", d.collection);
}

template void append_document_json(const ImageDocument&, std::string&);
template void append_document_json(const DocumentView&, std::string&);

}  // namespace strata::merge
