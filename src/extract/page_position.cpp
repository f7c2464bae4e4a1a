#include "extract/page_position.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "extract/html_dom.hpp"
#include "url/url.hpp"

namespace strata::extract {
namespace {

// What one element says about the region it opens. `section` is a header or footer: site
// chrome, unless it is the header or footer of an article or main region above it (HTML's
// rule for when <header> is the page's banner).
// `main_word`: main content by class or id words only ("inner_content"), which pages also give
// to wrappers around their header and footer; it does not make those main content.
enum class Landmark { none, main, main_word, chrome, section };

// Class and id words. Short ones must be a whole word ("ad" is not in "head"); long ones may
// be part of one ("siteheader", "mainmenu", "postcontent").
constexpr std::array<std::string_view, 9> kChromeWords = {
    "nav", "ad", "ads", "share", "sharing", "social", "widget", "widgets", "cookie"};
constexpr std::array<std::string_view, 9> kChromeParts = {"menu",    "navbar",     "navigation",
                                                          "sidebar", "breadcrumb", "toolbar",
                                                          "advert",  "sponsor",    "cookiebanner"};
constexpr std::array<std::string_view, 3> kSectionWords = {"logo", "banner", "topbar"};
constexpr std::array<std::string_view, 4> kSectionParts = {"header", "footer", "masthead",
                                                           "branding"};
constexpr std::array<std::string_view, 4> kMainWords = {"main", "post", "entry", "story"};
constexpr std::array<std::string_view, 2> kMainParts = {"content", "article"};

template <size_t N>
bool is_one_of(std::string_view word, const std::array<std::string_view, N>& words) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

template <size_t N>
bool holds_one_of(std::string_view word, const std::array<std::string_view, N>& parts) {
  return std::any_of(parts.begin(), parts.end(),
                     [word](std::string_view p) { return word.find(p) != word.npos; });
}

Landmark of_word(std::string_view w) {
  if (is_one_of(w, kChromeWords) || holds_one_of(w, kChromeParts)) return Landmark::chrome;
  if (is_one_of(w, kSectionWords) || holds_one_of(w, kSectionParts)) return Landmark::section;
  if (is_one_of(w, kMainWords) || holds_one_of(w, kMainParts)) return Landmark::main_word;
  return Landmark::none;
}

// The strongest landmark among the words of an attribute (letters and digits, lower-cased):
// chrome over section over main, so "content-sidebar" is chrome and "entry-header" a section.
Landmark of_words(std::string_view text) {
  Landmark best = Landmark::none;
  auto rank = [](Landmark l) {
    return l == Landmark::chrome      ? 3
           : l == Landmark::section   ? 2
           : l == Landmark::main_word ? 1
                                      : 0;
  };
  std::string word;
  for (size_t i = 0; i <= text.size(); ++i) {
    unsigned char c = i < text.size() ? static_cast<unsigned char>(text[i]) : ' ';
    if (std::isalnum(c)) {
      word += static_cast<char>(std::tolower(c));
      continue;
    }
    if (word.empty() || word.size() > 64) {
      word.clear();
      continue;
    }
    Landmark l = of_word(word);
    if (rank(l) > rank(best)) best = l;
    word.clear();
  }
  return best;
}

Landmark of_role(std::string_view role) {
  for (std::string_view r : {"main", "article"})
    if (role == r) return Landmark::main;
  for (std::string_view r : {"banner", "contentinfo"})
    if (role == r) return Landmark::section;
  for (std::string_view r : {"navigation", "complementary", "menu", "menubar", "search", "toolbar"})
    if (role == r) return Landmark::chrome;
  return Landmark::none;
}

Landmark of_tag(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_FIGURE:
      return Landmark::main;
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_MENU:
      return Landmark::chrome;
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
      return Landmark::section;
    default:
      return Landmark::none;
  }
}

// The element's own landmark: its tag, else its role, else its class and id words. <html> and
// <body> carry the page's classes ("home", "has-sidebar"), not a region's.
Landmark landmark(const GumboNode* n) {
  GumboTag tag = n->v.element.tag;
  if (tag == GUMBO_TAG_HTML || tag == GUMBO_TAG_BODY) return Landmark::none;
  if (Landmark l = of_tag(tag); l != Landmark::none) return l;
  if (Landmark l = of_role(attribute_or_empty(n, "role")); l != Landmark::none) return l;
  Landmark by_class = of_words(attribute_or_empty(n, "class"));
  Landmark by_id = of_words(attribute_or_empty(n, "id"));
  if (by_class == Landmark::chrome || by_id == Landmark::chrome) return Landmark::chrome;
  if (by_class == Landmark::section || by_id == Landmark::section) return Landmark::section;
  return by_class != Landmark::none ? by_class : by_id;
}

// The nearest main or chrome region around the element decides; a header or footer decides
// only when no <main>, <article> or <figure> (or role) encloses it.
PagePosition region(const GumboNode* element) {
  bool in_section = false;
  for (const GumboNode* n = element; n && is_element(n); n = n->parent) {
    switch (landmark(n)) {
      case Landmark::main:
        return PagePosition::main;
      case Landmark::main_word:
        if (!in_section) return PagePosition::main;
        break;
      case Landmark::chrome:
        return PagePosition::chrome;
      case Landmark::section:
        in_section = true;
        break;
      case Landmark::none:
        break;
    }
  }
  return in_section ? PagePosition::chrome : PagePosition::page;
}

// The <a> the element is the content of: its nearest <a> ancestor, a few levels up at most
// (<a><span><img>, <a><picture><img>).
const GumboNode* enclosing_link(const GumboNode* element) {
  constexpr int kLevels = 3;
  const GumboNode* n = element->parent;
  for (int i = 0; i < kLevels && n && is_element(n); ++i, n = n->parent)
    if (n->v.element.tag == GUMBO_TAG_A) return n;
  return nullptr;
}

std::string_view without_www(std::string_view host) {
  if (host.substr(0, 4) == "www.") host.remove_prefix(4);
  return host;
}

// "/", "", "/index.html", "/default.aspx", "/home", "/home.php": a site's home page.
bool is_home_path(std::string_view path) {
  if (path.empty() || path == "/") return true;
  std::string_view name = path.substr(1);
  if (name.find('/') != name.npos) return false;
  std::string_view stem = name.substr(0, name.find('.'));
  return stem == "index" || stem == "default" || stem == "home";
}

// The path of an absolute URL (query and fragment cut off).
std::string_view path_of(std::string_view url) {
  size_t scheme = url.find("://");
  if (scheme == url.npos) return {};
  std::string_view rest = url.substr(scheme + 3);
  size_t slash = rest.find_first_of("/?#");
  if (slash == rest.npos || rest[slash] != '/') return {};
  rest.remove_prefix(slash);
  return rest.substr(0, rest.find_first_of("?#"));
}

bool has_query(std::string_view url) {
  size_t q = url.find('?');
  return q != url.npos && q + 1 < url.size() && url[q + 1] != '#';
}

}  // namespace

std::string_view position_name(PagePosition p) {
  switch (p) {
    case PagePosition::main:
      return "main";
    case PagePosition::chrome:
      return "chrome";
    case PagePosition::logo:
      return "logo";
    case PagePosition::page:
      break;
  }
  return "page";
}

PositionClassifier::PositionClassifier(std::string_view base_url)
    : base_url_(base_url), site_host_(without_www(url::host(base_url))) {}

bool PositionClassifier::links_home(const GumboNode* anchor) const {
  std::string_view href = attribute_or_empty(anchor, "href");
  if (href.empty() || site_host_.empty()) return false;
  std::optional<std::string> target = url::resolve(base_url_, href);
  if (!target || has_query(*target)) return false;
  return without_www(url::host(*target)) == site_host_ && is_home_path(path_of(*target));
}

PagePosition PositionClassifier::of(const GumboNode* element) const {
  PagePosition place = region(element);
  if (place == PagePosition::main || element->v.element.tag == GUMBO_TAG_A) return place;
  const GumboNode* link = enclosing_link(element);
  return link && links_home(link) ? PagePosition::logo : place;
}

}  // namespace strata::extract
