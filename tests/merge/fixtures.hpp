#pragma once
// Builders for hand-made extraction records.
#include <string>

#include "merge/groups.hpp"

namespace strata::merge::testing {

inline ImageCapture capture(const std::string& surt, const std::string& url, const std::string& ts,
                            const std::string& digest, const std::string& collection = "C1") {
  ImageCapture c;
  c.imgSurt = surt;
  c.imgUrl = url;
  c.timestamp = ts;
  c.collection = collection;
  c.file = collection + ".warc.gz";
  c.offset = 100;
  c.length = 10;
  c.recordType = "response";
  c.status = 200;
  c.mimeReported = "image/jpeg";
  c.mimeDetected = "image/jpeg";
  c.width = 320;
  c.height = 200;
  c.digest = digest;
  c.size = 1234;
  c.warcDigest = "sha1:" + digest.substr(0, 8);
  return c;
}

inline PageReference ref(const std::string& surt, const std::string& img_url,
                         const std::string& page_url, const std::string& ts,
                         const std::string& alt = "", const std::string& collection = "C1") {
  PageReference r;
  r.imgSurt = surt;
  r.imgUrl = img_url;
  r.imgUrlTokens = "tokens of " + img_url;
  r.imgAlt = alt;
  r.tag = "img";
  r.pageUrl = page_url;
  r.pageTimestamp = ts;
  r.pageTitle = "Title of " + page_url;
  r.pageUrlTokens = "tokens of " + page_url;
  r.pageHost = "host";
  r.imagesInPage = 3;
  r.collection = collection;
  r.file = collection + "-pages.warc.gz";
  r.offset = 7;
  r.length = 70;
  return r;
}

inline ImageRevisit revisit(const std::string& surt, const std::string& ts,
                            const std::string& warc_digest,
                            const std::string& refers_to_surt = "") {
  ImageRevisit v;
  v.imgSurt = surt;
  v.imgUrl = "http://revisit/" + surt;
  v.timestamp = ts;
  v.collection = "C1";
  v.file = "rev.warc.gz";
  v.warcDigest = warc_digest;
  v.refersToSurt = refers_to_surt;
  return v;
}

}  // namespace strata::merge::testing
