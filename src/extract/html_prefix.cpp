#include "extract/html_prefix.hpp"

#include <algorithm>
#include <cctype>

#include "extract/html_dom.hpp"
#include "extract/html_prescan.hpp"

namespace strata::extract {
namespace {

// How far past the last possible reference the prefix goes at least: the elements around
// the last image usually close within it, which `decides` needs (on aut's crawl 256 bytes
// decide 46 pages, 1 KiB 40).
constexpr size_t kMargin = 256;

// The tags of the adoption agency's formatting elements.
bool formatting(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_A:
    case GUMBO_TAG_B:
    case GUMBO_TAG_BIG:
    case GUMBO_TAG_CODE:
    case GUMBO_TAG_EM:
    case GUMBO_TAG_FONT:
    case GUMBO_TAG_I:
    case GUMBO_TAG_NOBR:
    case GUMBO_TAG_S:
    case GUMBO_TAG_SMALL:
    case GUMBO_TAG_STRIKE:
    case GUMBO_TAG_STRONG:
    case GUMBO_TAG_TT:
    case GUMBO_TAG_U:
      return true;
    default:
      return false;
  }
}

// Where the prefix ends: the first start tag at or after `from` that is not a formatting
// element's (after an element's content rather than inside a link, usually), else npos.
size_t prefix_end(std::string_view html, size_t from) {
  for (size_t lt = html.find('<', from); lt != std::string_view::npos;
       lt = html.find('<', lt + 1)) {
    size_t name_end = lt + 1;
    while (name_end < html.size() && std::isalnum(static_cast<unsigned char>(html[name_end])))
      ++name_end;
    if (name_end == lt + 1 || !std::isalpha(static_cast<unsigned char>(html[lt + 1]))) continue;
    std::string name(html.substr(lt + 1, name_end - lt - 1));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!formatting(gumbo_tag_enum(name.c_str()))) return lt;
  }
  return std::string_view::npos;
}

size_t child_nodes(const GumboNode* n) {
  size_t count = children(n).length;
  if (n->type == GUMBO_NODE_DOCUMENT && n->v.document.has_doctype) ++count;  // as caption.cpp
  return count;
}

// The caption's text test: the document and <html> have none (caption.cpp).
bool has_text(const GumboNode* n, TextCache& texts) {
  if (n->type == GUMBO_NODE_DOCUMENT || is_tag(n, GUMBO_TAG_HTML)) return false;
  return texts.has_text(n);
}

}  // namespace

PagePrefix::PagePrefix(std::string_view html) {
  size_t last = last_prefix_trigger(html);
  if (last == std::string_view::npos || last + kMargin >= html.size()) return;
  size_t end = prefix_end(html, last + kMargin);
  if (end == std::string_view::npos || end > html.size() / 4 * 3) return;
  std::string_view prefix = html.substr(0, end);
  if (prefix.find(kSentinel) != std::string_view::npos) return;
  text_.reserve(end + kSentinelSize);
  text_.append(prefix).append("<!--").append(kSentinel).append("-->");
  doc_ = std::make_unique<PageDocument>(text_);
  end_ = doc_->parsed().size();
  // Find the sentinel: a comment with its exact text exists only if "<!--" began one.
  std::vector<const GumboNode*> stack{doc_->root()};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_COMMENT && n->v.text.text == kSentinel) {
      sentinel_parent_ = n->parent;
      // The text before the sentinel may be a table's whitespace that the page's next
      // characters would have foster-parented instead.
      const GumboVector& kids = children(n->parent);
      bool text_before =
          n->index_within_parent > 0 &&
          static_cast<const GumboNode*>(kids.data[n->index_within_parent - 1])->type ==
              GUMBO_NODE_WHITESPACE;
      end_nodes_ = text_before ? 2 : 1;
      return;
    }
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    const GumboVector& kids = children(n);
    for (unsigned i = kids.length; i-- > 0;)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
}

bool PagePrefix::open(const GumboNode* n) const {
  if (!is_element(n)) return true;  // the document
  GumboTag tag = n->v.element.tag;
  // Content after </body> or </html> still goes into body, head elements into head.
  if (tag == GUMBO_TAG_HTML || tag == GUMBO_TAG_HEAD || tag == GUMBO_TAG_BODY) return true;
  return n->v.element.end_pos.offset >= end_;
}

size_t PagePrefix::final_child_nodes(const GumboNode* n) const {
  // Open nodes only gain nodes after the prefix, except the sentinel's parent: the sentinel
  // and perhaps the whitespace before it are not in the page.
  size_t count = child_nodes(n);
  return n == sentinel_parent_ ? count - std::min(count, end_nodes_) : count;
}

bool PagePrefix::caption_decided(const GumboNode* element, TextCache& texts) const {
  for (const GumboNode* a = element->parent; a && is_element(a); a = a->parent) {
    if (!is_tag(a, GUMBO_TAG_FIGURE)) continue;
    if (open(a)) return false;  // a <figcaption> may follow
    break;
  }
  size_t below = 0;  // most child nodes from the element up to its first ancestor with text
  const GumboNode* with_text = element;
  for (; with_text && !has_text(with_text, texts); with_text = with_text->parent)
    below = std::max(below, child_nodes(with_text));
  if (!with_text || open(with_text)) return false;
  below = std::max(below, child_nodes(with_text));
  for (const GumboNode* a = with_text->parent; a; a = a->parent)
    if (final_child_nodes(a) >= below) return true;
  return false;
}

bool PagePrefix::decides(const std::vector<const GumboNode*>& captioned) const {
  if (!sentinel_parent_) return false;
  std::vector<const GumboNode*> stack{root()};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    if (is_element(n) && formatting(n->v.element.tag) && open(n)) return false;
    const GumboVector& kids = children(n);
    for (unsigned i = 0; i < kids.length; ++i)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  TextCache texts;
  return std::all_of(captioned.begin(), captioned.end(),
                     [&](const GumboNode* e) { return caption_decided(e, texts); });
}

}  // namespace strata::extract
