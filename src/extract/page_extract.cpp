#include "extract/page_extract.hpp"

#include "core/digest.hpp"
#include "url/url.hpp"

namespace strata::extract {

std::string inline_image_url(std::string_view data_uri) {
  return "hash:" + md5_hex(data_uri);
}

PageExtraction extract_page_full(const PageInput& in, Counters& counters, UrlKeys& keys,
                                 const RefOptions& options) {
  PageExtraction out;
  // Arquivo prepends http:// to page URLs without a scheme before resolving against them.
  std::string page_url = in.url;
  if (page_url.rfind("http", 0) != 0 && page_url.find("://") == std::string::npos)
    page_url = "http://" + page_url;
  PageRefs page = find_references(page_url, in.html, options, counters);
  out.images_in_page = page.images_in_page;
  counters.add("pages");
  if (page.images_in_page > 0) counters.add("pages_with_images");
  if (!page.refs.empty()) counters.add("pages_with_refs");

  std::string page_tokens = url::url_tokens(in.url);
  std::string page_host = url::page_host(page_url);
  for (HtmlRef& r : page.refs) {
    PageReference p;
    if (r.inline_) {
      p.imgUrl = inline_image_url(r.url);
      p.imgSurt = p.imgUrl;
      out.inline_uris.push_back(std::move(r.url));
    } else {
      p.imgSurt = keys.surt(r.url);
      p.imgUrlTokens = keys.tokens(r.url);
      p.imgUrl = std::move(r.url);
    }
    p.imgAlt = std::move(r.alt);
    p.imgTitle = std::move(r.title);
    p.imgCaption = std::move(r.caption);
    p.tag = std::move(r.tag);
    p.pageUrl = in.url;
    p.pageTimestamp = in.timestamp;
    p.pageTitle = page.title;
    p.pageUrlTokens = page_tokens;
    p.pageHost = page_host;
    p.imagesInPage = page.images_in_page;
    p.collection = in.collection;
    p.file = in.file;
    p.offset = in.offset;
    p.length = in.length;
    p.inline_ = r.inline_;
    out.refs.push_back(std::move(p));
  }
  return out;
}

std::vector<PageReference> extract_page(const PageInput& in, Counters& counters) {
  UrlKeys keys;
  return extract_page_full(in, counters, keys).refs;
}

}  // namespace strata::extract
