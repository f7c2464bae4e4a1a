#pragma once
// Image references of one HTML page (reference §1.3, improved): <img> src, lowsrc, every
// attribute naming an image URL or a data:image URI, every srcset/data-srcset candidate;
// <picture><source srcset>; <a href> to image URLs (anchor text as caption); url(...) in
// style attributes and <style> blocks. URLs resolve against <base href>, then the page URL.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/counters.hpp"
#include "extract/caption.hpp"
#include "extract/page_position.hpp"

namespace strata::extract {

struct HtmlRef {
  std::string url;  // absolute URL; the data: URI itself when inline
  std::string tag;  // "img", "source", "a", "css", "inline"
  std::string alt;
  std::string title;
  std::string caption;
  bool inline_ = false;
  PagePosition position = PagePosition::page;  // where the element stands on the page
};

struct RefOptions {
  size_t max_images = 10000;  // <img> elements examined per page; the rest are counted
  // Parse only up to a little after the last possible reference when that provably gives
  // the same references (html_prefix.hpp); false parses every page whole (tests compare).
  bool parse_prefix = true;
  CaptionOptions caption;
  // The min-hash sketch of the page's main text on its references (pageSketch); false only
  // to measure what it costs (bench_extract).
  bool page_sketch = true;
};

struct PageRefs {
  std::vector<HtmlRef> refs;
  int images_in_page = 0;  // every <img> of the page, examined or not
  std::string title;       // <title>, whitespace-normalised
  std::string base_url;    // what relative URLs were resolved against
};

// Counters added (all prefixed "html_"): html_img_elements, html_img_not_parsed,
// html_refs_img/_source/_a/_css/_inline, html_refs_invalid (unparsable or empty),
// html_refs_too_long (> 10000 chars), html_refs_duplicate, html_captions_timed_out,
// html_pages_without_candidates (pages the prescan proved free of references: not parsed,
// so their title is left empty), html_pages_tail_unparsed (pages whose references came from
// a prefix, html_prefix.hpp) and html_prefix_reparsed (prefix parsed, then the whole page).
PageRefs find_references(std::string_view page_url, std::string_view html,
                         const RefOptions& options, Counters& counters);

}  // namespace strata::extract
