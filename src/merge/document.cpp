#include "merge/document.hpp"

namespace strata::merge {

namespace {

Json fields_of(const ImageDocument& d) {
  return Json{{"type", "document"},
              {"id", d.id},
              {"imgDigest", d.imgDigest},
              {"imgUrl", d.imgUrl},
              {"imgSurt", d.imgSurt},
              {"imgUrlTokens", d.imgUrlTokens},
              {"imgMimeType", d.imgMimeType},
              {"imgMimeTypeReported", d.imgMimeTypeReported},
              {"imgWidth", d.imgWidth},
              {"imgHeight", d.imgHeight},
              {"imgSize", d.imgSize},
              {"imgCrawlTimestamp", d.imgCrawlTimestamp},
              {"imgCrawlTimestampLatest", d.imgCrawlTimestampLatest},
              {"imgCaptureTimes", d.imgCaptureTimes},
              {"imgFile", d.imgFile},
              {"imgOffset", d.imgOffset},
              {"imgLength", d.imgLength},
              {"isInline", d.isInline},
              {"imgTitle", d.imgTitle},
              {"imgAlt", d.imgAlt},
              {"imgCaption", d.imgCaption},
              {"pageUrl", d.pageUrl},
              {"pageTitle", d.pageTitle},
              {"pageUrlTokens", d.pageUrlTokens},
              {"pageHost", d.pageHost},
              {"pageCrawlTimestamp", d.pageCrawlTimestamp},
              {"pageFile", d.pageFile},
              {"pageOffset", d.pageOffset},
              {"pageLength", d.pageLength},
              {"tags", d.tags},
              {"imagesInOriginalPage", d.imagesInOriginalPage},
              {"imageMetadataChanges", d.imageMetadataChanges},
              {"pageMetadataChanges", d.pageMetadataChanges},
              {"matchingImages", d.matchingImages},
              {"matchingPages", d.matchingPages},
              {"refsInMain", d.refsInMain},
              {"refsInChrome", d.refsInChrome},
              {"refsAsLogo", d.refsAsLogo},
              {"collection", d.collection}};
}

}  // namespace

Json to_json(const ImageDocument& d) {
  Json j = fields_of(d);
  if (!d.book.empty()) j["book"] = d.book;
  if (d.distinctPages > 0 && d.distinctPages < d.matchingPages)
    j["distinctPages"] = d.distinctPages;
  return j;
}

bool from_json(const Json& j, ImageDocument& d) {
  if (!has_type(j, "document")) return false;
  read_field(j, "id", d.id);
  read_field(j, "imgDigest", d.imgDigest);
  read_field(j, "imgUrl", d.imgUrl);
  read_field(j, "imgSurt", d.imgSurt);
  read_field(j, "imgUrlTokens", d.imgUrlTokens);
  read_field(j, "imgMimeType", d.imgMimeType);
  read_field(j, "imgMimeTypeReported", d.imgMimeTypeReported);
  read_field(j, "imgWidth", d.imgWidth);
  read_field(j, "imgHeight", d.imgHeight);
  read_field(j, "imgSize", d.imgSize);
  read_field(j, "imgCrawlTimestamp", d.imgCrawlTimestamp);
  read_field(j, "imgCrawlTimestampLatest", d.imgCrawlTimestampLatest);
  read_field(j, "imgCaptureTimes", d.imgCaptureTimes);
  read_field(j, "imgFile", d.imgFile);
  read_field(j, "imgOffset", d.imgOffset);
  read_field(j, "imgLength", d.imgLength);
  read_field(j, "isInline", d.isInline);
  read_field(j, "imgTitle", d.imgTitle);
  read_field(j, "imgAlt", d.imgAlt);
  read_field(j, "imgCaption", d.imgCaption);
  read_field(j, "pageUrl", d.pageUrl);
  read_field(j, "pageTitle", d.pageTitle);
  read_field(j, "pageUrlTokens", d.pageUrlTokens);
  read_field(j, "pageHost", d.pageHost);
  read_field(j, "pageCrawlTimestamp", d.pageCrawlTimestamp);
  read_field(j, "pageFile", d.pageFile);
  read_field(j, "pageOffset", d.pageOffset);
  read_field(j, "pageLength", d.pageLength);
  read_field(j, "tags", d.tags);
  read_field(j, "imagesInOriginalPage", d.imagesInOriginalPage);
  read_field(j, "imageMetadataChanges", d.imageMetadataChanges);
  read_field(j, "pageMetadataChanges", d.pageMetadataChanges);
  read_field(j, "matchingImages", d.matchingImages);
  read_field(j, "matchingPages", d.matchingPages);
  read_field(j, "refsInMain", d.refsInMain);
  read_field(j, "refsInChrome", d.refsInChrome);
  read_field(j, "refsAsLogo", d.refsAsLogo);
  read_field(j, "collection", d.collection);
  read_field(j, "book", d.book);
  d.distinctPages = 0;
  read_field(j, "distinctPages", d.distinctPages);
  fill_distinct_pages(d);
  return true;
}

}  // namespace strata::merge
