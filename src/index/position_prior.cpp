#include "index/position_prior.hpp"

#include <array>
#include <vector>

#include "index/analysis.hpp"

namespace strata::index {
namespace {

constexpr size_t kMaxSiteNameBytes = 80;

// What titles put between a page's own name and its site's.
constexpr std::array<std::string_view, 9> kTitleSeparators{
    " | ", " - ", " \u2013 ", " \u2014 ", ": ", " :: ", " \u00bb ", " \u00b7 ", " \u2022 "};

std::string_view trim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20) s.remove_suffix(1);
  return s;
}

// The title's parts between separators, trimmed, empty ones left out.
std::vector<std::string_view> title_parts(std::string_view title) {
  std::vector<std::string_view> parts;
  size_t from = 0;
  while (from <= title.size()) {
    size_t cut = title.npos, length = 0;
    for (std::string_view sep : kTitleSeparators) {
      size_t at = title.find(sep, from);
      if (at < cut) cut = at, length = sep.size();
    }
    std::string_view part = trim(title.substr(from, cut == title.npos ? cut : cut - from));
    if (!part.empty()) parts.push_back(part);
    if (cut == title.npos) break;
    from = cut + length;
  }
  return parts;
}

// The host of an absolute URL ("" when there is none).
std::string_view url_host(std::string_view url) {
  size_t scheme = url.find("://");
  if (scheme == url.npos) return {};
  std::string_view rest = url.substr(scheme + 3);
  return rest.substr(0, rest.find_first_of("/?#"));
}

// "/", "", "/index.php", "/default.aspx", "/home": the site's home page.
bool is_home_page(std::string_view url) {
  size_t scheme = url.find("://");
  if (scheme == url.npos) return false;
  std::string_view rest = url.substr(scheme + 3);
  size_t slash = rest.find_first_of("/?#");
  if (slash == rest.npos) return true;
  if (rest[slash] != '/') return rest[slash] == '#';
  std::string_view path = rest.substr(slash + 1);
  if (path.find_first_of("?") != path.npos) return false;
  path = path.substr(0, path.find('#'));
  if (path.find('/') != path.npos) return false;
  std::string_view stem = path.substr(0, path.find('.'));
  return stem.empty() || stem == "index" || stem == "default" || stem == "home";
}

// How many of the part's words the page's host holds ("Internet Archive" on www.archive.org:
// 1; "Solidarité Numérique" on www.solidarite-numerique.fr: 2; "Page Not Found": 0).
size_t words_in_host(std::string_view part, std::string_view page_url) {
  const std::string host = fold(url_host(page_url));
  size_t found = 0;
  for (const Token& t : analyze(part)) found += !t.stop && host.find(t.exact) != host.npos;
  return found;
}

}  // namespace

Place place_of(const merge::ImageDocument& doc) {
  if (doc.refsAsLogo > 0 && 2 * doc.refsAsLogo >= doc.matchingPages) return Place::logo;
  const int64_t chrome = doc.refsInChrome + doc.refsAsLogo;
  if (chrome > doc.refsInMain && 2 * chrome >= doc.matchingPages) return Place::chrome;
  return Place::content;
}

std::string site_logo_name(const merge::ImageDocument& doc) {
  return place_of(doc) == Place::logo ? site_name(doc.pageTitle, doc.pageUrl) : std::string();
}

std::string site_name(std::string_view page_title, std::string_view page_url) {
  const std::vector<std::string_view> parts = title_parts(page_title);
  std::string_view name;
  if (parts.size() == 1 && is_home_page(page_url)) name = parts.front();
  if (parts.size() > 1) {
    // The part that names the host, else the shorter (a site's name is shorter than a page's).
    const size_t first = words_in_host(parts.front(), page_url);
    const size_t last = words_in_host(parts.back(), page_url);
    const bool shorter = parts.back().size() < parts.front().size();
    name = last > first || (last == first && shorter) ? parts.back() : parts.front();
  }
  return name.size() <= kMaxSiteNameBytes ? std::string(name) : std::string();
}

}  // namespace strata::index
