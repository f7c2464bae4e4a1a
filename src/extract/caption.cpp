#include "extract/caption.hpp"

#include <cctype>
#include <vector>

#include "extract/html_dom.hpp"

namespace strata::extract {
namespace {

// Java String.trim(): drops chars <= 0x20 at both ends.
std::string_view java_trim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20) s.remove_suffix(1);
  return s;
}

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Byte offset just after the first n code points of s (s.size() if shorter).
size_t prefix_bytes(std::string_view s, size_t n) {
  size_t pos = 0;
  for (size_t count = 0; pos < s.size(); ++pos) {
    if (!is_continuation(s[pos]) && count++ == n) break;
  }
  return pos;
}

// The last n code points of s.
std::string_view last_chars(std::string_view s, size_t n) {
  size_t pos = s.size();
  for (size_t count = 0; pos > 0 && count < n;) {
    --pos;
    if (!is_continuation(s[pos])) ++count;
  }
  return s.substr(pos);
}

// `value` (a class attribute) holds the class `name`.
bool has_class(std::string_view value, std::string_view name) {
  for (size_t pos = 0; pos < value.size();) {
    size_t end = value.find_first_of(" \t\n\f\r", pos);
    if (end == std::string_view::npos) end = value.size();
    if (value.substr(pos, end - pos) == name) return true;
    pos = end + 1;
  }
  return false;
}

// A pixel length of 4 or less ("1", "0px"); false for other units ("50%", "1em") and text.
bool tiny_length(std::string_view v) {
  constexpr long kMaxTinySide = 4;
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  size_t digits = 0;
  while (digits < v.size() && v[digits] >= '0' && v[digits] <= '9') ++digits;
  if (digits == 0 || digits > 6) return false;
  std::string_view unit = v.substr(digits);
  while (!unit.empty() && (unit.back() == ' ' || unit.back() == ';')) unit.remove_suffix(1);
  if (!unit.empty() && unit != "px") return false;
  return std::stol(std::string(v.substr(0, digits))) <= kMaxTinySide;
}

// The value of `property` in an inline style ("height:0px;width:0px"), or "".
std::string_view style_value(std::string_view style, std::string_view property) {
  for (size_t pos = 0; pos < style.size();) {
    size_t end = style.find(';', pos);
    if (end == std::string_view::npos) end = style.size();
    std::string_view decl = style.substr(pos, end - pos);
    pos = end + 1;
    size_t colon = decl.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view name = decl.substr(0, colon);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name == property) return decl.substr(colon + 1);
  }
  return {};
}

// The usual file names of spacer GIFs ("graphics/spacer.gif", "/common/images/1x1.gif").
bool spacer_name(std::string_view src) {
  src = src.substr(0, src.find_first_of("?#"));
  std::string_view file = src.substr(src.rfind('/') + 1);
  std::string stem(file.substr(0, file.rfind('.')));
  for (char& c : stem) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view name : {"spacer", "1x1", "pixel", "blank", "clear", "clearpixel",
                                "transparent", "trans", "shim", "empty", "spc"})
    if (stem == name) return true;
  return false;
}

// A spacer, a rule or a tracking pixel, whose "caption" could only be someone else's text:
// declared 4 px or less on a side, or named as spacers are.
bool decorative(const GumboNode* image) {
  std::string_view style = attribute_or_empty(image, "style");
  for (const char* side : {"width", "height"})
    if (tiny_length(attribute_or_empty(image, side)) || tiny_length(style_value(style, side)))
      return true;
  return spacer_name(attribute_or_empty(image, "src"));
}

size_t child_node_count(const GumboNode* n) {
  size_t count = children(n).length;
  // jsoup keeps the doctype as a child node of the document; gumbo does not.
  if (n->type == GUMBO_NODE_DOCUMENT && n->v.document.has_doctype) ++count;
  return count;
}

}  // namespace

std::string truncate_chars(std::string_view s, size_t max_chars) {
  return std::string(s.substr(0, prefix_bytes(s, max_chars)));
}

std::string trim250(const TextSummary& text) {
  constexpr size_t kMax = 250, kHalf = kMax / 2;
  if (text.chars <= kMax) return text.head;
  std::string_view head(text.head);
  head = head.substr(0, prefix_bytes(head, kHalf));
  size_t space = head.rfind(' ');
  std::string_view head_part =
      java_trim(head.substr(0, space == std::string_view::npos ? head.size() : space));
  std::string_view ends =
      text.complete() ? std::string_view(text.head) : std::string_view(text.tail);
  std::string_view tail = last_chars(ends, kHalf);
  size_t first_space = tail.find(' ');
  // Java: no space -> index -1 -> the tail starts one character earlier (126 chars).
  std::string_view tail_part = first_space != std::string_view::npos ? tail.substr(first_space)
                                                                     : last_chars(ends, kHalf + 1);
  std::string joined = std::string(head_part) + "\n" + std::string(java_trim(tail_part));
  return std::string(java_trim(joined));
}

CaptionExtractor::CaptionExtractor(CaptionOptions options)
    : options_(options), start_(std::chrono::steady_clock::now()) {}

bool CaptionExtractor::budget_spent() {
  if (!spent_)
    spent_ = std::chrono::steady_clock::now() - start_ > options_.budget || blocks_.exhausted();
  return spent_;
}

// Arquivo's text(e) is "" for <html> and the document, so a page whose body has no text
// never takes the <head>'s title as a caption.
bool CaptionExtractor::has_text(const GumboNode* n) {
  if (n->type == GUMBO_NODE_DOCUMENT || is_tag(n, GUMBO_TAG_HTML)) return false;
  return cache_.has_text(n);
}

const TextSummary& CaptionExtractor::text(const GumboNode* n) {
  return has_text(n) ? cache_.text(n) : empty_;
}

const CaptionExtractor::Level& CaptionExtractor::level(const GumboNode* n) {
  auto found = levels_.find(n);
  if (found != levels_.end()) return found->second;
  // Collect the chain up to the first memoised ancestor, then fill it top-down.
  std::vector<const GumboNode*> chain;
  const Level* above = nullptr;
  for (const GumboNode* cur = n; cur; cur = cur->parent) {
    auto it = levels_.find(cur);
    if (it != levels_.end()) {
      above = &it->second;
      break;
    }
    chain.push_back(cur);
  }
  for (size_t i = chain.size(); i-- > 0;) {
    const GumboNode* cur = chain[i];
    Level l{cur, above ? above->depth + 1 : 0};
    // "<=" in Arquivo's bottom-up scan means the highest of equal counts wins.
    if (above && child_node_count(above->best) >= child_node_count(cur)) l.best = above->best;
    above = &levels_.emplace(cur, l).first->second;
  }
  return *above;
}

namespace {
// A caption made of the blocks around the image (`joiner` between them), cut by trim250.
std::string joined_caption(const Neighbours& around, std::string_view joiner) {
  TextSummary joined;
  if (around.before) {
    joined.head = around.before->text;
    joined.chars = around.before->chars;
  }
  if (around.before && around.after) {
    joined.head += joiner;
    joined.chars += 1;
  }
  if (around.after) {
    joined.head += around.after->text;
    joined.chars += around.after->chars;
  }
  joined.head_chars = joined.chars;
  return trim250(joined);
}
}  // namespace

// Arquivo's walk (Algorithms 2-4) finds where the caption comes from: the first ancestor with
// text, or, on flat pages, the siblings of the last ancestor without. That place is kept;
// what is taken from it is bounded to the image's neighbourhood.
std::string CaptionExtractor::neighbourhood_caption(const GumboNode* image) {
  const Level& image_level = level(image);
  size_t max_level = image_level.depth - level(image_level.best).depth;
  const GumboNode* prev = image;
  const GumboNode* cur = image;
  size_t i = 0;
  while (cur && !has_text(cur)) {
    prev = cur;
    cur = cur->parent;
    ++i;
  }
  if (i >= max_level) {
    const GumboNode* container = prev->parent ? prev->parent : prev;
    return joined_caption(blocks_.neighbours(container, image), "\n");
  }
  if (!cur) return {};
  Neighbours around = blocks_.neighbours(cur, image);
  // A short text around this image alone is taken whole, as Arquivo does.
  constexpr size_t kWholeTextChars = 250;
  if (around.images == 1 && !around.boilerplate_seen && text(cur).chars <= kWholeTextChars)
    return trim250(text(cur));
  return joined_caption(around, " ");
}

std::optional<std::string> CaptionExtractor::figcaption(const GumboNode* image) {
  for (const GumboNode* a = image->parent; a && is_element(a); a = a->parent) {
    if (!is_tag(a, GUMBO_TAG_FIGURE)) continue;
    const GumboVector& kids = children(a);
    for (unsigned i = 0; i < kids.length; ++i) {
      auto* c = static_cast<const GumboNode*>(kids.data[i]);
      if (is_tag(c, GUMBO_TAG_FIGCAPTION) && has_text(c)) return trim250(text(c));
    }
    return std::nullopt;  // only the nearest figure counts
  }
  return std::nullopt;
}

// MediaWiki's thumbnails: <div class="thumb"><div class="thumbinner"><a><img></a>
// <div class="thumbcaption">...</div></div></div> (galleries: gallerybox / gallerytext).
std::optional<std::string> CaptionExtractor::thumbcaption(const GumboNode* image) {
  constexpr int kMaxLevels = 4;
  const GumboNode* a = image->parent;
  for (int level = 0; level < kMaxLevels && a && is_element(a); ++level, a = a->parent) {
    std::string_view cls = attribute_or_empty(a, "class");
    if (!has_class(cls, "thumbinner") && !has_class(cls, "thumb") && !has_class(cls, "gallerybox"))
      continue;
    std::vector<const GumboNode*> stack{a};
    while (!stack.empty()) {
      const GumboNode* n = stack.back();
      stack.pop_back();
      std::string_view c = attribute_or_empty(n, "class");
      if ((has_class(c, "thumbcaption") || has_class(c, "gallerytext")) && has_text(n))
        return trim250(text(n));
      const GumboVector& kids = children(n);
      for (unsigned k = kids.length; k-- > 0;) {
        auto* kid = static_cast<const GumboNode*>(kids.data[k]);
        if (is_element(kid)) stack.push_back(kid);
      }
    }
    return std::nullopt;  // only the nearest thumb counts
  }
  return std::nullopt;
}

std::optional<std::string> CaptionExtractor::caption(const GumboNode* image) {
  if (budget_spent()) {
    ++timed_out_;
    return std::nullopt;
  }
  if (decorative(image)) return std::string();
  if (auto fig = figcaption(image)) return fig;
  if (auto thumb = thumbcaption(image)) return thumb;
  return neighbourhood_caption(image);
}

std::string CaptionExtractor::anchor_text(const GumboNode* anchor) {
  TextSummary t = node_text(anchor, kMaxFieldChars);
  return t.head;
}

}  // namespace strata::extract
