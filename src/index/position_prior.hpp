#pragma once
// The page-position prior's index side (docs/search.md, "Image priors"): which documents are
// page chrome or a site's logo, and the name a site logo is known by. Decided from the merged
// document's reference counts by place (refsInMain, refsInChrome, refsAsLogo:
// extract/page_position.hpp) and its page fields. Never throws.
#include <string>
#include <string_view>

#include "merge/document.hpp"

namespace strata::index {

// Where the image mostly stands on the pages that show it.
enum class Place {
  content,  // main content, or where the markup does not tell
  chrome,   // header, navigation, footer, sidebar: most references there, more than in content
  logo,     // the site's logo: most references link to the site's home page
};
Place place_of(const merge::ImageDocument& doc);

// The site's name for a logo (Place::logo): indexed with the alt text's weight and positions,
// as the logo's alt would say it when it says "(logo)" or nothing. "" otherwise.
std::string site_logo_name(const merge::ImageDocument& doc);

// The site name a page title gives: the whole title on the site's home page, else, of its
// first and last parts between separators, the one with more words in the page's host, or on
// a tie the shorter ("Internet Archive: Details: X", "Comprendre les cookies – Solidarité
// Numérique"); "" when the title has no parts or the name is longer than a name.
std::string site_name(std::string_view page_title, std::string_view page_url);

}  // namespace strata::index
