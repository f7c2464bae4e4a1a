#include "extract/page_extract.hpp"

#include "core/digest.hpp"
#include "similar/page_sketch.hpp"
#include "url/url.hpp"

namespace strata::extract {

std::string inline_image_url(std::string_view data_uri) {
  return "hash:" + md5_hex(data_uri);
}

void visit_page_references(const PageInput& in, Counters& counters, UrlKeys& keys,
                           const RefOptions& options, const ReferenceVisitor& visit) {
  // Arquivo prepends http:// to page URLs without a scheme before resolving against them.
  std::string page_url = in.url;
  if (page_url.rfind("http", 0) != 0 && page_url.find("://") == std::string::npos)
    page_url = "http://" + page_url;
  PageRefs page = find_references(page_url, in.html, options, counters);
  counters.add("pages");
  if (page.images_in_page > 0) counters.add("pages_with_images");
  if (!page.refs.empty()) counters.add("pages_with_refs");

  std::string page_tokens = url::url_tokens(in.url);
  std::string page_host = url::page_host(page_url);
  PageReferenceView p;
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
  // Only pages with references: the sketch travels on their references alone.
  std::string sketch;
  if (options.page_sketch && !page.refs.empty())
    if (auto s = similar::sketch_html(in.html)) {
      sketch = similar::encode_page_sketch(*s);
      counters.add("pages_sketched");
    }
  p.pageSketch = sketch;
  std::string hash_url;
  for (const HtmlRef& r : page.refs) {
    if (r.inline_) {
      hash_url = inline_image_url(r.url);
      p.imgUrl = p.imgSurt = hash_url;
      p.imgUrlTokens = {};
    } else {
      const UrlKeys::Keys& url_keys = keys.surt_and_tokens(r.url);
      p.imgSurt = url_keys.surt;
      p.imgUrlTokens = url_keys.tokens;
      p.imgUrl = r.url;
    }
    p.imgAlt = r.alt;
    p.imgTitle = r.title;
    p.imgCaption = r.caption;
    p.tag = r.tag;
    p.inline_ = r.inline_;
    p.position = position_name(r.position);
    visit(p, r.inline_ ? std::string_view(r.url) : std::string_view());
  }
}

std::vector<PageReference> extract_page(const PageInput& in, Counters& counters) {
  UrlKeys keys;
  std::vector<PageReference> refs;
  visit_page_references(in, counters, keys, {}, [&refs](const PageReferenceView& v, auto) {
    refs.push_back({std::string(v.imgSurt),
                    std::string(v.imgUrl),
                    std::string(v.imgUrlTokens),
                    std::string(v.imgAlt),
                    std::string(v.imgTitle),
                    std::string(v.imgCaption),
                    std::string(v.tag),
                    std::string(v.pageUrl),
                    std::string(v.pageTimestamp),
                    std::string(v.pageTitle),
                    std::string(v.pageUrlTokens),
                    std::string(v.pageHost),
                    v.imagesInPage,
                    std::string(v.collection),
                    std::string(v.file),
                    v.offset,
                    v.length,
                    v.inline_,
                    std::string(v.position),
                    std::string(v.book),
                    std::string(v.pageSketch)});
  });
  return refs;
}

}  // namespace strata::extract
