#pragma once
// One HTML page -> its PageReference records (the "ref" lines of the extraction output).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/counters.hpp"
#include "extract/html_refs.hpp"
#include "extract/records.hpp"
#include "extract/url_keys.hpp"

namespace strata::extract {

struct PageInput {
  std::string url;
  std::string timestamp;  // 14 digits
  std::string collection;
  std::string file;  // archive path as given on the command line
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string_view html;  // decoded, UTF-8
};

// The URL inline images are known by (records' imgUrl and imgSurt): "hash:" + md5 of the
// data: URI, as Arquivo.
std::string inline_image_url(std::string_view data_uri);

// Every reference of the page with all PageReference fields filled. Inline data: images get
// their hash: URL here; the data: URI itself is in `inline_uris` (same order as the inline
// references) when the caller wants to turn them into ImageCapture records.
struct PageExtraction {
  std::vector<PageReference> refs;
  std::vector<std::string> inline_uris;
  int images_in_page = 0;
};
PageExtraction extract_page_full(const PageInput& in, Counters& counters, UrlKeys& keys,
                                 const RefOptions& options = {});

std::vector<PageReference> extract_page(const PageInput& in, Counters& counters);

}  // namespace strata::extract
