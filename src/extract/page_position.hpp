#pragma once
// Where on its page an image reference stands (the "position" field of a "ref" record,
// docs/extraction.md "Position on the page"): in the page's main content, in its chrome
// (header, navigation, footer, sidebars, menus, banners, ads), as the site's logo (an image
// linking to the site's home page outside the main content), or somewhere the markup does not
// tell. Read from the element's ancestors only (tag, ARIA role, class and id words), so a
// page parsed up to a prefix classifies its references as the whole page does. Never throws.
#include <gumbo.h>

#include <string>
#include <string_view>

namespace strata::extract {

enum class PagePosition { page, main, chrome, logo };

// "page", "main", "chrome", "logo": the record's value.
std::string_view position_name(PagePosition p);

class PositionClassifier {
 public:
  // `base_url`: what the page's links resolve against; its host is the site's.
  explicit PositionClassifier(std::string_view base_url);

  // The place of an <img>, <source>'s picture, <a> or styled element.
  PagePosition of(const GumboNode* element) const;

 private:
  bool links_home(const GumboNode* anchor) const;

  std::string base_url_;
  std::string site_host_;  // the base's host without a leading "www."
};

}  // namespace strata::extract
