#pragma once
// The records the extraction stage writes (JSONL, one object per line; schema in
// docs/RECORDS.md) and the merge stage reads. Field names are the JSON keys, so the structs
// mirror the files exactly.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/json.hpp"

namespace strata::extract {

// One archived image: a response/resource record whose payload is an image, or an inline
// data: URI found in a page (inline = true, file/offset are the page's).
struct ImageCapture {
  std::string imgSurt;
  std::string imgUrl;
  std::string timestamp;  // 14 digits
  std::string collection;
  std::string file;          // archive path as given on the command line
  uint64_t offset = 0;       // record offset in that file
  uint64_t length = 0;       // record length on disk
  std::string recordType;    // "response", "resource" or "inline"
  int status = 0;            // HTTP status, 0 if none
  std::string mimeReported;  // HTTP Content-Type without parameters ("" if none)
  std::string mimeDetected;  // sniffed from the bytes ("" if unknown)
  int width = 0;
  int height = 0;
  std::string digest;      // SHA-256 of the payload, lower-case hex
  uint64_t size = 0;       // payload bytes
  std::string warcDigest;  // WARC-Payload-Digest as written (revisit resolution)
  bool inline_ = false;    // JSON key "inline"
};

// A revisit record that may repeat an image: merge resolves it to the capture with the same
// warcDigest (under refersToUrl's SURT, or imgSurt), adding a capture time to that image.
// Text: std::string, or std::string_view for the view extraction writes its lines from
// (copying the record's fields first cost as much as the line).
template <typename Text>
struct BasicImageRevisit {
  Text imgSurt;
  Text imgUrl;
  Text timestamp;
  Text collection;
  Text file;
  uint64_t offset = 0;
  uint64_t length = 0;
  Text warcDigest;
  Text refersToUrl;
  Text refersToSurt;
  Text refersToDate;
  Text mimeReported;
};

using ImageRevisit = BasicImageRevisit<std::string>;
using ImageRevisitView = BasicImageRevisit<std::string_view>;

// One reference from an HTML page to an image, with the words that describe it.
// Text as for BasicImageRevisit: extraction writes a line per reference from views of the
// page's fields, where copying them into each reference cost more than the line.
template <typename Text>
struct BasicPageReference {
  Text imgSurt;
  Text imgUrl;
  Text imgUrlTokens;
  Text imgAlt;
  Text imgTitle;
  Text imgCaption;
  Text tag;  // "img", "source" (picture/srcset), "a", "css", "inline"
  Text pageUrl;
  Text pageTimestamp;  // 14 digits
  Text pageTitle;
  Text pageUrlTokens;
  Text pageHost;
  int imagesInPage = 0;  // <img> elements in the page
  Text collection;
  Text file;  // the page's archive file and record offset
  uint64_t offset = 0;
  uint64_t length = 0;
  bool inline_ = false;  // the image is a data: URI (JSON key "inline")
  Text position;         // "main", "chrome", "logo" or "page" (extract/page_position.hpp)
  // A book page's catalogue facts as a JSON object (docs/books.md "Indexing"); empty on the web.
  Text book;
  // The min-hash sketch of the page's main text, in similar/page_sketch.hpp's text form
  // (decode_page_sketch reads it); empty when the page has fewer than 5 words of main text.
  Text pageSketch;
};

using PageReference = BasicPageReference<std::string>;
using PageReferenceView = BasicPageReference<std::string_view>;

// JSON: {"type":"image"|"revisit"|"ref", ...fields}.
Json to_json(const ImageCapture& r);
Json to_json(const ImageRevisit& r);
Json to_json(const PageReference& r);
// The same as one line: to_json(r).dump() with invalid UTF-8 replaced, then '\n'; built
// without the Json object (extraction writes one per image, revisit and reference).
std::string to_jsonl(const ImageCapture& r);
std::string to_jsonl(const ImageRevisit& r);
std::string to_jsonl(const PageReference& r);
// The same line appended to `out` (extraction gathers its lines in blocks).
void append_jsonl(const ImageCapture& r, std::string& out);
void append_jsonl(const ImageRevisit& r, std::string& out);
void append_jsonl(const ImageRevisitView& r, std::string& out);
void append_jsonl(const PageReference& r, std::string& out);
void append_jsonl(const PageReferenceView& r, std::string& out);
bool from_json(const Json& j, ImageCapture& out);
bool from_json(const Json& j, ImageRevisit& out);
bool from_json(const Json& j, PageReference& out);

}  // namespace strata::extract
