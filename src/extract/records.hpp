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
struct ImageRevisit {
  std::string imgSurt;
  std::string imgUrl;
  std::string timestamp;
  std::string collection;
  std::string file;
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string warcDigest;
  std::string refersToUrl;
  std::string refersToSurt;
  std::string refersToDate;
  std::string mimeReported;
};

// An ImageRevisit whose fields are views (into the record being read): extraction writes a
// line per image revisit, and copying its eleven strings first cost as much as the line.
struct ImageRevisitView {
  std::string_view imgSurt;
  std::string_view imgUrl;
  std::string_view timestamp;
  std::string_view collection;
  std::string_view file;
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string_view warcDigest;
  std::string_view refersToUrl;
  std::string_view refersToSurt;
  std::string_view refersToDate;
  std::string_view mimeReported;
};

// One reference from an HTML page to an image, with the words that describe it.
struct PageReference {
  std::string imgSurt;
  std::string imgUrl;
  std::string imgUrlTokens;
  std::string imgAlt;
  std::string imgTitle;
  std::string imgCaption;
  std::string tag;  // "img", "source" (picture/srcset), "a", "css", "inline"
  std::string pageUrl;
  std::string pageTimestamp;  // 14 digits
  std::string pageTitle;
  std::string pageUrlTokens;
  std::string pageHost;
  int imagesInPage = 0;  // <img> elements in the page
  std::string collection;
  std::string file;  // the page's archive file and record offset
  uint64_t offset = 0;
  uint64_t length = 0;
  bool inline_ = false;  // the image is a data: URI (JSON key "inline")
};

// A PageReference whose fields are views (into the page and its references): extraction
// writes a line per reference, and copying the page's fields into each cost more than the line.
struct PageReferenceView {
  std::string_view imgSurt;
  std::string_view imgUrl;
  std::string_view imgUrlTokens;
  std::string_view imgAlt;
  std::string_view imgTitle;
  std::string_view imgCaption;
  std::string_view tag;
  std::string_view pageUrl;
  std::string_view pageTimestamp;
  std::string_view pageTitle;
  std::string_view pageUrlTokens;
  std::string_view pageHost;
  int imagesInPage = 0;
  std::string_view collection;
  std::string_view file;
  uint64_t offset = 0;
  uint64_t length = 0;
  bool inline_ = false;
};

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
