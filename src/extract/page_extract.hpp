#pragma once
// One HTML page -> its PageReference records (the "ref" lines of the extraction output).
#include <cstdint>
#include <functional>
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

// One reference of the page with all its fields, valid until the visitor returns. Inline
// data: images have their hash: URL in it; `inline_uri` is then the data: URI itself (for
// the caller's ImageCapture record), else empty.
using ReferenceVisitor =
    std::function<void(const PageReferenceView& ref, std::string_view inline_uri)>;
// Gives every reference of the page to `visit`, in order, as views: the page's fields are
// not copied into each (extraction writes each as a line at once).
void visit_page_references(const PageInput& in, Counters& counters, UrlKeys& keys,
                           const RefOptions& options, const ReferenceVisitor& visit);

// The same references as records of their own.
std::vector<PageReference> extract_page(const PageInput& in, Counters& counters);

}  // namespace strata::extract
