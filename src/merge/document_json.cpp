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
