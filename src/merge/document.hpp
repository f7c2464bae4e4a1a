#pragma once
// The merged image document: one per unique image (SHA-256 digest) in `compact` mode, the
// unit the index stores and the API returns. Written as JSONL by `strata merge`; schema and
// the exact definition of every counter in docs/RECORDS.md.
#include <cstdint>
#include <string>
#include <vector>

#include "core/json.hpp"

namespace strata::merge {

struct ImageDocument {
  std::string id;         // imgDigest; in full mode imgDigest/pageTimestamp/hash
  std::string imgDigest;  // SHA-256 hex of the image bytes
  // Image fields, from the oldest capture of this digest.
  std::string imgUrl;
  std::string imgSurt;
  std::string imgUrlTokens;
  std::string imgMimeType;  // detected from the bytes
  std::string imgMimeTypeReported;
  int imgWidth = 0;
  int imgHeight = 0;
  uint64_t imgSize = 0;
  std::string imgCrawlTimestamp;             // oldest capture, 14 digits
  std::string imgCrawlTimestampLatest;       // newest capture
  std::vector<std::string> imgCaptureTimes;  // distinct capture times, sorted (capped, see docs)
  std::string imgFile;                       // where the oldest capture's record is (for replay)
  uint64_t imgOffset = 0;
  uint64_t imgLength = 0;
  bool isInline = false;
  // Descriptions: every distinct non-empty value, oldest first, at most 50 each.
  std::vector<std::string> imgTitle;
  std::vector<std::string> imgAlt;
  std::vector<std::string> imgCaption;
  // Page fields, from the oldest referencing page.
  std::string pageUrl;
  std::string pageTitle;
  std::string pageUrlTokens;
  std::string pageHost;
  std::string pageCrawlTimestamp;
  std::string pageFile;
  uint64_t pageOffset = 0;
  uint64_t pageLength = 0;
  std::vector<std::string> tags;  // source tags the image was referenced from
  // Popularity and change features (paper §4.2; definitions in docs/RECORDS.md).
  int imagesInOriginalPage = 0;
  int64_t imageMetadataChanges = 0;
  int64_t pageMetadataChanges = 0;
  int64_t matchingImages = 0;
  int64_t matchingPages = 0;
  std::vector<std::string> collection;  // collections the image was found in, sorted
};

Json to_json(const ImageDocument& doc);
bool from_json(const Json& j, ImageDocument& out);

}  // namespace strata::merge
