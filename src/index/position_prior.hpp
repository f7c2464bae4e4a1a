#pragma once
// The page-position prior's index side (docs/search.md, "Image priors"): which documents are
// page chrome, and the name a site logo is known by. Decided from the merged document's
// reference counts by place (refsInMain, refsInChrome, refsAsLogo: extract/page_position.hpp)
// and its page fields. Never throws.
#include <string>
#include <string_view>

#include "merge/document.hpp"

namespace strata::index {

// Most of the image's references stand in page chrome (header, navigation, footer, sidebar)
// or link to the site's home page, and more of them than stand in main content: the index
// marks it with the boolean term prefix::chrome and Strata's ranking gives it no place prior.
bool in_page_chrome(const merge::ImageDocument& doc);

// The site's name when the image is mostly its logo (an image linking to the home page):
// indexed with the alt text's weight and positions, as the logo's alt would say it when it
// says "(logo)" or nothing. "" otherwise.
std::string site_logo_name(const merge::ImageDocument& doc);

// The site name a page title gives: the whole title on the site's home page, else the
// shorter of its first and last parts between separators ("Internet Archive: Details: X",
// "Comprendre les cookies – Solidarité Numérique"); "" when the title has no parts or the
// name is longer than a name.
std::string site_name(std::string_view page_title, std::string_view page_url);

}  // namespace strata::index
