#include "extract/caption_blocks.hpp"

#include <array>
#include <cctype>
#include <string_view>
#include <utility>

#include "core/pictographs.hpp"
#include "extract/html_dom.hpp"
#include "extract/html_text.hpp"

namespace strata::extract {
namespace {

constexpr size_t kMinLinksInList = 3;

// Words of class and id values that name page furniture rather than content.
bool furniture_word(std::string_view word) {
  static constexpr std::array<std::string_view, 20> kWords = {
      "nav",           "navbar",  "navigation", "menu",        "mainmenu", "submenu", "topmenu",
      "menubar",       "footer",  "breadcrumb", "breadcrumbs", "ad",       "ads",     "advert",
      "advertisement", "sponsor", "sponsors",   "cookie",      "cookies",  "skiplink"};
  for (std::string_view w : kWords)
    if (w == word) return true;
  return false;
}

bool has_furniture_word(std::string_view value) {
  std::string word;
  for (size_t i = 0; i <= value.size(); ++i) {
    unsigned char c = i < value.size() ? static_cast<unsigned char>(value[i]) : ' ';
    if (std::isalnum(c)) {
      word += static_cast<char>(std::tolower(c));
      continue;
    }
    if (furniture_word(word)) return true;
    word.clear();
  }
  return false;
}

bool inside_article(const GumboNode* n) {
  for (const GumboNode* a = n->parent; a && is_element(a); a = a->parent)
    if (is_tag(a, GUMBO_TAG_ARTICLE) || is_tag(a, GUMBO_TAG_MAIN)) return true;
  return false;
}

// The element itself is navigation, a menu, a header/footer, an aside or an ad. Roles and
// class/id words count on blocks only: a link's class="js-nav" (twitter's hashtags) says how
// it is followed, not what surrounds it.
bool furniture(const GumboNode* n) {
  switch (n->v.element.tag) {
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_MENU:
      return true;
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
      return !inside_article(n);
    default:
      break;
  }
  if (!is_block_element(n)) return false;
  std::string_view role = attribute_or_empty(n, "role");
  for (std::string_view r :
       {"navigation", "banner", "contentinfo", "menu", "menubar", "complementary", "search"})
    if (role == r) return true;
  return has_furniture_word(attribute_or_empty(n, "class")) ||
         has_furniture_word(attribute_or_empty(n, "id"));
}

// An emoji set in a sentence (Twitter's <img class="Emoji" alt="📢">, WordPress's smileys,
// alt="*" bullets): part of the text's flow, neither a picture between two blocks nor the
// owner of the text after it (a tweet's photo keeps the tweet that starts with an emoji). It
// gets no caption: it is part of the sentence, not a picture the sentence describes.
bool inline_pictograph(const GumboNode* image) {
  return core::pictographs_only(attribute_or_empty(image, "alt"));
}

// Accumulates one block's text, collapsing whitespace (NBSP included, as jsoup's text()).
class BlockBuilder {
 public:
  void text(const GumboNode* node, bool in_link, bool& link_counted) {
    std::string_view t = node->v.text.text;
    for (size_t i = 0; i < t.size(); ++i) {
      auto c = static_cast<unsigned char>(t[i]);
      bool nbsp = c == 0xC2 && i + 1 < t.size() && static_cast<unsigned char>(t[i + 1]) == 0xA0;
      if (c <= 0x20 || nbsp) {
        space_ = !block_.text.empty();
        i += nbsp;
        continue;
      }
      if (space_) append(' ', in_link);
      space_ = false;
      if (!block_.element) block_.element = node->parent;
      if (in_link && !link_counted) {
        ++block_.links;
        link_counted = true;
      }
      append(static_cast<char>(c), in_link);
    }
  }
  // The block so far (moved out), or an empty one.
  TextBlock take() {
    TextBlock out = std::move(block_);
    block_ = TextBlock();
    space_ = false;
    return out;
  }
  bool empty() const { return block_.text.empty(); }
  void line_break() { space_ = !block_.text.empty(); }

 private:
  void append(char c, bool in_link) {
    block_.text += c;
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) return;  // continuation byte
    ++block_.chars;
    block_.link_chars += in_link;
  }
  TextBlock block_;
  bool space_ = false;
};

}  // namespace

const GumboNode* CaptionBlocks::furniture_of(const GumboNode* element) {
  std::vector<const GumboNode*> chain;
  const GumboNode* nearest = nullptr;
  for (const GumboNode* n = element; n && is_element(n); n = n->parent) {
    if (auto known = furniture_of_.find(n); known != furniture_of_.end()) {
      nearest = known->second;
      break;
    }
    chain.push_back(n);
  }
  for (size_t i = chain.size(); i-- > 0;) {
    if (furniture(chain[i])) nearest = chain[i];
    furniture_of_[chain[i]] = nearest;
  }
  return nearest;
}

bool CaptionBlocks::boilerplate(const TextBlock& block, const GumboNode* own_furniture) {
  // Navigation is nearly all link text ("Web | Moving Images | Texts": 76 %); prose with
  // links (a tweet's mentions and tags, a wiki paragraph) is about half or less.
  bool link_list = block.links >= kMinLinksInList && 10 * block.link_chars >= 7 * block.chars;
  if (link_list || !block.element) return link_list;
  // A box (<aside>) holding the container holds its pictures' own text: a sidebar box, a
  // card. A menu or header holding both a logo and links is still the page's.
  const GumboNode* furniture = furniture_of(block.element);
  return furniture && !(furniture == own_furniture && is_tag(furniture, GUMBO_TAG_ASIDE));
}

const CaptionBlocks::Index& CaptionBlocks::index(const GumboNode* container) {
  if (auto known = indexes_.find(container); known != indexes_.end()) return known->second;
  Index idx;
  BlockBuilder builder;
  auto flush = [&] {
    if (builder.empty()) return;
    Item item;
    item.block = builder.take();
    indexed_chars_ += item.block.chars;
    idx.items.push_back(std::move(item));
  };
  size_t link_depth = 0;
  bool link_counted = false;
  // (node, leaving): leaving an element ends its block and its link.
  std::vector<std::pair<const GumboNode*, bool>> stack{{container, false}};
  while (!stack.empty()) {
    auto [n, leaving] = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE ||
        n->type == GUMBO_NODE_CDATA) {
      builder.text(n, link_depth > 0, link_counted);
      continue;
    }
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    bool element = is_element(n);
    if (leaving) {
      if (is_block_element(n)) flush();
      if (is_tag(n, GUMBO_TAG_A)) --link_depth;
      continue;
    }
    if (element &&
        (is_tag(n, GUMBO_TAG_SCRIPT) || is_tag(n, GUMBO_TAG_STYLE) || is_tag(n, GUMBO_TAG_HEAD)))
      continue;
    // A drop-down's options (archive.org's "Search: All Media Types | Wayback Machine | ...")
    // are a form's, never a picture's words.
    if (element && is_tag(n, GUMBO_TAG_SELECT)) {
      flush();
      idx.boilerplate_seen = true;
      continue;
    }
    if (element && is_tag(n, GUMBO_TAG_IMG) && inline_pictograph(n)) continue;
    if (element && is_tag(n, GUMBO_TAG_IMG)) {
      flush();
      Item item;
      item.image = n;
      idx.image_at.emplace(n, idx.items.size());
      idx.items.push_back(std::move(item));
      ++idx.images;
      continue;
    }
    if (element && is_block_element(n)) flush();
    // A <br> breaks a line, not a block: a name set on two lines stays one block.
    if (element && is_tag(n, GUMBO_TAG_BR)) builder.line_break();
    if (element && is_tag(n, GUMBO_TAG_A)) {
      ++link_depth;
      link_counted = false;
    }
    if (element) stack.push_back({n, true});
    const GumboVector& kids = children(n);
    for (unsigned i = kids.length; i-- > 0;)
      stack.push_back({static_cast<const GumboNode*>(kids.data[i]), false});
  }
  flush();
  indexed_items_ += idx.items.size();
  // Groups of images with no text between them, in one pass.
  idx.furniture = furniture_of(container);
  for (size_t i = 0; i < idx.items.size();) {
    if (!idx.items[i].image) {
      if (boilerplate(idx.items[i].block, idx.furniture)) idx.boilerplate_seen = true;
      ++i;
      continue;
    }
    size_t last = i;
    while (last + 1 < idx.items.size() && idx.items[last + 1].image) ++last;
    for (size_t k = i; k <= last; ++k) {
      idx.items[k].group_first = i;
      idx.items[k].group_last = last;
    }
    i = last + 1;
  }
  return indexes_.emplace(container, std::move(idx)).first->second;
}

Neighbours CaptionBlocks::neighbours(const GumboNode* container, const GumboNode* image) {
  const Index& idx = index(container);
  Neighbours out;
  out.images = idx.images;
  out.boilerplate_seen = idx.boilerplate_seen;
  auto at = idx.image_at.find(image);
  if (at == idx.image_at.end()) return out;
  const Item& item = idx.items[at->second];
  size_t first = item.group_first, last = item.group_last, n = idx.items.size();
  if (first > 0) out.before = &idx.items[first - 1].block;
  if (last + 1 < n) out.after = &idx.items[last + 1].block;
  // A label ("Average rating:") introduces what follows it: it is this group's even right
  // after another image, and the text after the group is the next item's.
  bool label = out.before && out.before->text.back() == ':';
  if (label) out.after = nullptr;
  // Otherwise a text right after another image is that image's (a logo and its name, a cover
  // and its title), not this one's.
  if (out.before && !label && first >= 2 && idx.items[first - 2].image) out.before = nullptr;
  if (out.before && boilerplate(*out.before, idx.furniture)) out.before = nullptr;
  if (out.after && boilerplate(*out.after, idx.furniture)) out.after = nullptr;
  return out;
}

}  // namespace strata::extract
