#pragma once
// The merged image document: one per unique image (SHA-256 digest) in `compact` mode, the
// unit the index stores and the API returns. Written as JSONL by `strata merge`; schema and
// the exact definition of every counter in docs/RECORDS.md.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"

namespace strata::merge {

// S: std::string (ImageDocument), or std::string_view (DocumentView: the in-process merge
// writes each document's JSON straight from views into its records, without copies).
template <typename S>
struct BasicImageDocument {
  std::string id;  // imgDigest; in full mode imgDigest/pageTimestamp/hash
  S imgDigest;     // SHA-256 hex of the image bytes
  // Image fields, from the oldest capture of this digest.
  S imgUrl;
  S imgSurt;
  S imgUrlTokens;
  S imgMimeType;  // detected from the bytes
  S imgMimeTypeReported;
  int imgWidth = 0;
  int imgHeight = 0;
  uint64_t imgSize = 0;
  S imgCrawlTimestamp;             // oldest capture, 14 digits
  S imgCrawlTimestampLatest;       // newest capture
  std::vector<S> imgCaptureTimes;  // distinct capture times, sorted (capped, see docs)
  S imgFile;                       // where the oldest capture's record is (for replay)
  uint64_t imgOffset = 0;
  uint64_t imgLength = 0;
  bool isInline = false;
  // Descriptions: every distinct non-empty value, oldest first, at most 50 each.
  std::vector<S> imgTitle;
  std::vector<S> imgAlt;
  std::vector<S> imgCaption;
  // Page fields, from the oldest referencing page.
  S pageUrl;
  S pageTitle;
  S pageUrlTokens;
  S pageHost;
  S pageCrawlTimestamp;
  S pageFile;
  uint64_t pageOffset = 0;
  uint64_t pageLength = 0;
  std::vector<S> tags;  // source tags the image was referenced from
  // Popularity and change features (paper §4.2; definitions in docs/RECORDS.md).
  int imagesInOriginalPage = 0;
  int64_t imageMetadataChanges = 0;
  int64_t pageMetadataChanges = 0;
  int64_t matchingImages = 0;
  int64_t matchingPages = 0;
  // The references by their place on the page (extract/page_position.hpp; the rest of the
  // matchingPages stood where the markup does not tell, or were not kept).
  int64_t refsInMain = 0;
  int64_t refsInChrome = 0;
  int64_t refsAsLogo = 0;
  // Distinct pages among the references: references of one page URL, or of pages whose main
  // texts are near-duplicates (similar/page_sketch.hpp: mirrors, reprints, the same page over
  // many crawls), count once; references dropped by the per-key cap count one each. Written
  // only when below matchingPages (absent: equal), so documents without repeats stay as
  // they were; fill_distinct_pages restores it on reading.
  int64_t distinctPages = 0;
  std::vector<S> collection;  // collections the image was found in, sorted
  // A page field: the book page's catalogue facts (JSON object text, docs/books.md
  // "Indexing") of the oldest reference; empty for web images, and then not written.
  S book;
};

using ImageDocument = BasicImageDocument<std::string>;
using DocumentView = BasicImageDocument<std::string_view>;

// distinctPages = matchingPages where a reader found none (0).
template <typename Doc>
void fill_distinct_pages(Doc& doc) {
  if (doc.distinctPages <= 0 || doc.distinctPages > doc.matchingPages)
    doc.distinctPages = doc.matchingPages;
}

Json to_json(const ImageDocument& doc);
bool from_json(const Json& j, ImageDocument& out);

}  // namespace strata::merge
