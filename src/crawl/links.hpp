#pragma once
// The URLs a fetched HTML page leads to: its images (every reference src/extract finds:
// img, srcset, picture, CSS, links to image files) as embeds, and its hyperlinks and frames
// (a, area, frame, iframe) as links. Never throws; tag soup gives what gumbo makes of it.
#include <string>
#include <string_view>
#include <vector>

#include "core/counters.hpp"
#include "crawl/url_store.hpp"

namespace strata::crawl {

struct Outlink {
  std::string url;      // as resolved, not yet normalised
  Lane lane;            // embed or link
  std::string context;  // Heritrix style: "img/@src", "a/@href"
};

std::vector<Outlink> page_outlinks(std::string_view page_url, std::string_view html,
                                   Counters& counters);

}  // namespace strata::crawl
