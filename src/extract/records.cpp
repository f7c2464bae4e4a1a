#include "extract/records.hpp"

namespace strata::extract {

Json to_json(const ImageCapture& r) {
  return Json{{"type", "image"},          {"imgSurt", r.imgSurt},       {"imgUrl", r.imgUrl},
              {"timestamp", r.timestamp}, {"collection", r.collection}, {"file", r.file},
              {"offset", r.offset},       {"length", r.length},         {"recordType", r.recordType},
              {"status", r.status},       {"mimeReported", r.mimeReported},
              {"mimeDetected", r.mimeDetected}, {"width", r.width},     {"height", r.height},
              {"digest", r.digest},       {"size", r.size},             {"warcDigest", r.warcDigest},
              {"inline", r.inline_}};
}

Json to_json(const ImageRevisit& r) {
  return Json{{"type", "revisit"},         {"imgSurt", r.imgSurt},         {"imgUrl", r.imgUrl},
              {"timestamp", r.timestamp},  {"collection", r.collection},   {"file", r.file},
              {"offset", r.offset},        {"length", r.length},           {"warcDigest", r.warcDigest},
              {"refersToUrl", r.refersToUrl}, {"refersToSurt", r.refersToSurt},
              {"refersToDate", r.refersToDate}, {"mimeReported", r.mimeReported}};
}

Json to_json(const PageReference& r) {
  return Json{{"type", "ref"},
              {"imgSurt", r.imgSurt},
              {"imgUrl", r.imgUrl},
              {"imgUrlTokens", r.imgUrlTokens},
              {"imgAlt", r.imgAlt},
              {"imgTitle", r.imgTitle},
              {"imgCaption", r.imgCaption},
              {"tag", r.tag},
              {"pageUrl", r.pageUrl},
              {"pageTimestamp", r.pageTimestamp},
              {"pageTitle", r.pageTitle},
              {"pageUrlTokens", r.pageUrlTokens},
              {"pageHost", r.pageHost},
              {"imagesInPage", r.imagesInPage},
              {"collection", r.collection},
              {"file", r.file},
              {"offset", r.offset},
              {"length", r.length},
              {"inline", r.inline_}};
}

bool from_json(const Json& j, ImageCapture& r) {
  if (!has_type(j, "image")) return false;
  read_field(j, "imgSurt", r.imgSurt);
  read_field(j, "imgUrl", r.imgUrl);
  read_field(j, "timestamp", r.timestamp);
  read_field(j, "collection", r.collection);
  read_field(j, "file", r.file);
  read_field(j, "offset", r.offset);
  read_field(j, "length", r.length);
  read_field(j, "recordType", r.recordType);
  read_field(j, "status", r.status);
  read_field(j, "mimeReported", r.mimeReported);
  read_field(j, "mimeDetected", r.mimeDetected);
  read_field(j, "width", r.width);
  read_field(j, "height", r.height);
  read_field(j, "digest", r.digest);
  read_field(j, "size", r.size);
  read_field(j, "warcDigest", r.warcDigest);
  read_field(j, "inline", r.inline_);
  return true;
}

bool from_json(const Json& j, ImageRevisit& r) {
  if (!has_type(j, "revisit")) return false;
  read_field(j, "imgSurt", r.imgSurt);
  read_field(j, "imgUrl", r.imgUrl);
  read_field(j, "timestamp", r.timestamp);
  read_field(j, "collection", r.collection);
  read_field(j, "file", r.file);
  read_field(j, "offset", r.offset);
  read_field(j, "length", r.length);
  read_field(j, "warcDigest", r.warcDigest);
  read_field(j, "refersToUrl", r.refersToUrl);
  read_field(j, "refersToSurt", r.refersToSurt);
  read_field(j, "refersToDate", r.refersToDate);
  read_field(j, "mimeReported", r.mimeReported);
  return true;
}

bool from_json(const Json& j, PageReference& r) {
  if (!has_type(j, "ref")) return false;
  read_field(j, "imgSurt", r.imgSurt);
  read_field(j, "imgUrl", r.imgUrl);
  read_field(j, "imgUrlTokens", r.imgUrlTokens);
  read_field(j, "imgAlt", r.imgAlt);
  read_field(j, "imgTitle", r.imgTitle);
  read_field(j, "imgCaption", r.imgCaption);
  read_field(j, "tag", r.tag);
  read_field(j, "pageUrl", r.pageUrl);
  read_field(j, "pageTimestamp", r.pageTimestamp);
  read_field(j, "pageTitle", r.pageTitle);
  read_field(j, "pageUrlTokens", r.pageUrlTokens);
  read_field(j, "pageHost", r.pageHost);
  read_field(j, "imagesInPage", r.imagesInPage);
  read_field(j, "collection", r.collection);
  read_field(j, "file", r.file);
  read_field(j, "offset", r.offset);
  read_field(j, "length", r.length);
  read_field(j, "inline", r.inline_);
  return true;
}

}  // namespace strata::extract
