#pragma once
// HTML of a page as served in one crawl, in the markup of its era, with every image slot
// written in a structure whose extracted caption is known (see docs/sample.md).
#include <string>

#include "sample/world.hpp"

namespace strata::sample {

struct RenderedPage {
  std::string body;          // bytes as served (in the page's charset)
  std::string content_type;  // HTTP Content-Type
};

RenderedPage render_page(const World& w, const Page& page, int crawl);

// The HTTP/1.1 form a page uses for an image URL: relative when on the page's host.
std::string reference_form(const std::string& page_url, const std::string& image_url);

// The page's main text as render_page writes it (UTF-8, before any charset): the text of the
// body's elements in order, pieces joined by spaces. The same in every crawl.
std::string main_text(const Page& page);

std::string utf8_to_latin1(const std::string& text);
std::string latin1_to_utf8(const std::string& bytes);
std::string base64(const std::string& bytes);

}  // namespace strata::sample
