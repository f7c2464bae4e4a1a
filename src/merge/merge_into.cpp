#include "merge/merge_into.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "merge/descriptions.hpp"
#include "merge/digest_merge.hpp"

namespace strata::merge {
namespace {

// Same tie-breaks as within a collection: earlier time, then shorter URL, then smaller URL.
bool older(const std::string& ts_a, const std::string& url_a, const std::string& ts_b,
           const std::string& url_b) {
  return std::make_tuple(std::string_view(ts_a), url_a.size(), std::string_view(url_a)) <
         std::make_tuple(std::string_view(ts_b), url_b.size(), std::string_view(url_b));
}

void take_page_fields(ImageDocument& to, const ImageDocument& from) {
  to.pageUrl = from.pageUrl;
  to.pageTitle = from.pageTitle;
  to.pageUrlTokens = from.pageUrlTokens;
  to.pageHost = from.pageHost;
  to.book = from.book;
  to.pageCrawlTimestamp = from.pageCrawlTimestamp;
  to.pageFile = from.pageFile;
  to.pageOffset = from.pageOffset;
  to.pageLength = from.pageLength;
  to.imagesInOriginalPage = from.imagesInOriginalPage;
}

void take_image_fields(ImageDocument& to, const ImageDocument& from) {
  to.imgUrl = from.imgUrl;
  to.imgSurt = from.imgSurt;
  to.imgUrlTokens = from.imgUrlTokens;
  to.imgMimeType = from.imgMimeType;
  to.imgMimeTypeReported = from.imgMimeTypeReported;
  to.imgWidth = from.imgWidth;
  to.imgHeight = from.imgHeight;
  to.imgSize = from.imgSize;
  to.imgCrawlTimestamp = from.imgCrawlTimestamp;
  to.imgFile = from.imgFile;
  to.imgOffset = from.imgOffset;
  to.imgLength = from.imgLength;
  to.isInline = from.isInline;
}

// Sorted, distinct union of two sorted lists, cut to `cap` (0 = no cap).
std::vector<std::string> sorted_union(const std::vector<std::string>& a,
                                      const std::vector<std::string>& b, size_t cap = 0) {
  std::vector<std::string> out(a);
  out.insert(out.end(), b.begin(), b.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (cap && out.size() > cap) out.resize(cap);
  return out;
}

bool all_known(const std::vector<std::string>& known, const std::vector<std::string>& values) {
  return std::all_of(values.begin(), values.end(), [&](const std::string& v) {
    return std::find(known.begin(), known.end(), v) != known.end();
  });
}

}  // namespace

void merge_into(ImageDocument& existing, const ImageDocument& incoming) {
  if (all_known(existing.collection, incoming.collection)) return;
  if (older(incoming.pageCrawlTimestamp, incoming.pageUrl, existing.pageCrawlTimestamp,
            existing.pageUrl))
    take_page_fields(existing, incoming);
  if (older(incoming.imgCrawlTimestamp, incoming.imgUrl, existing.imgCrawlTimestamp,
            existing.imgUrl))
    take_image_fields(existing, incoming);
  existing.imgCrawlTimestampLatest =
      std::max(existing.imgCrawlTimestampLatest, incoming.imgCrawlTimestampLatest);
  existing.imgCaptureTimes =
      sorted_union(existing.imgCaptureTimes, incoming.imgCaptureTimes, kMaxCaptureTimes);
  union_descriptions(existing.imgTitle, incoming.imgTitle, kMaxDescriptions);
  union_descriptions(existing.imgAlt, incoming.imgAlt, kMaxDescriptions);
  union_descriptions(existing.imgCaption, incoming.imgCaption, kMaxDescriptions);
  existing.tags = sorted_union(existing.tags, incoming.tags);
  existing.collection = sorted_union(existing.collection, incoming.collection);
  existing.imageMetadataChanges += incoming.imageMetadataChanges;
  existing.pageMetadataChanges += incoming.pageMetadataChanges;
  existing.matchingImages += incoming.matchingImages;
  existing.matchingPages += incoming.matchingPages;
  // An upper bound: near-duplicates across the two are not seen here (strata index re-merges
  // from the records and counts them exactly).
  existing.distinctPages += incoming.distinctPages;
  existing.refsInMain += incoming.refsInMain;
  existing.refsInChrome += incoming.refsInChrome;
  existing.refsAsLogo += incoming.refsAsLogo;
}

}  // namespace strata::merge
