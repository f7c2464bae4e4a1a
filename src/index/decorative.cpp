#include "index/decorative.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <vector>

#include "core/pictographs.hpp"

namespace strata::index {
namespace {

// File names (without extension and trailing digits) that web pages give to layout pieces.
constexpr std::array<std::string_view, 21> kLayoutNames{
    "spacer", "blank", "pixel",  "clear",    "clearpixel", "transparent", "trans",
    "shim",   "1x1",   "dot",    "pix",      "bullet",     "divider",     "separator",
    "rule",   "hr",    "corner", "gradient", "shadow",     "sprite",      "sprites"};
// Alt texts by which authors say an image is a pictogram or an icon, not a picture (the wine
// guide's badges and pictograms: alt="picto"), in the languages of our archives.
constexpr std::array<std::string_view, 19> kIconAlts{
    "picto",  "pictogram", "pictogramme", "pictograma", "pictogramma", "icon", "icone",
    "icône",  "ícone",     "icono",       "icona",      "bullet",      "puce", "arrow",
    "flèche", "seta",      "spacer",      "separator",  "divider"};
// Path folders of emoji sets (Twitter's twemoji, WordPress's, smiley packs).
constexpr std::array<std::string_view, 5> kEmojiFolders{"emoji", "emojis", "twemoji", "smilies",
                                                        "smileys"};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The URL's path, lower-cased, without scheme, host, query and fragment.
std::string url_path(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return "";  // data: URIs
  const size_t from = url.find('/', scheme + 3);
  if (from == std::string::npos) return "";
  const size_t end = url.find_first_of("?#", from);
  return lower(std::string_view(url).substr(from, end == std::string::npos ? end : end - from));
}

// "/img/Clear_Pixel.gif" -> "clearpixel".
std::string file_stem(const std::string& path) {
  std::string name = path.substr(path.rfind('/') + 1);
  name = name.substr(0, name.find('.'));
  std::erase_if(name, [](char c) { return c == '_' || c == '-'; });
  return name;
}

// "spacer2" and "1x1" are layout names, "spacerphoto" is not.
bool layout_name(std::string stem) {
  auto known = [](const std::string& s) {
    return std::find(kLayoutNames.begin(), kLayoutNames.end(), s) != kLayoutNames.end();
  };
  if (known(stem)) return true;
  while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back()))) stem.pop_back();
  return known(stem);
}

bool in_emoji_folder(const std::string& path) {
  for (size_t start = 0; start < path.size();) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    const std::string_view folder = std::string_view(path).substr(start, slash - start);
    if (slash < path.size() &&
        std::find(kEmojiFolders.begin(), kEmojiFolders.end(), folder) != kEmojiFolders.end())
      return true;
    start = slash + 1;
  }
  return false;
}

// Every alt of the image names it a pictogram or an icon ("picto", "Icon").
bool icon_alts(const std::vector<std::string>& alts) {
  auto icon = [](const std::string& alt) {
    const std::string word = lower(alt);
    return std::find(kIconAlts.begin(), kIconAlts.end(), word) != kIconAlts.end();
  };
  return !alts.empty() && std::all_of(alts.begin(), alts.end(), icon);
}

std::string size_reason(int w, int h) {
  if (w <= 0 || h <= 0) return "";  // unknown size (SVG without one)
  const int shorter = std::min(w, h), longer = std::max(w, h);
  if (shorter <= kThinSide) return "spacer";
  if (longer <= kIconSide) return "icon";
  if (h <= kBarThickness && w >= kBarAspect * h) return "bar";
  if (w <= kBarThickness && h >= kStripAspect * w) return "bar";
  return "";
}

}  // namespace

std::string decorative_reason(const merge::ImageDocument& d) {
  if (std::string r = size_reason(d.imgWidth, d.imgHeight); !r.empty()) return r;
  const std::string path = url_path(d.imgUrl);
  if (in_emoji_folder(path)) return "emoji";
  if (layout_name(file_stem(path))) return "layout-name";
  const int longer_side = std::max(d.imgWidth, d.imgHeight);
  if (longer_side <= kPictographSide && !d.imgAlt.empty() &&
      std::all_of(d.imgAlt.begin(), d.imgAlt.end(), core::pictographs_only))
    return "emoji";
  if (longer_side <= kBadgeSide && icon_alts(d.imgAlt)) return "icon-alt";
  return "";
}

}  // namespace strata::index
