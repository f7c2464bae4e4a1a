#pragma once
// Parsing a page only up to a little after its last possible reference. On HTML-dense pages
// (2000s forums, listings) the images are in the header and most of the markup comes after
// them: it holds no reference (html_prescan.hpp finds none in it), yet gumbo would spend most
// of the page's time on it.
//
// The part parsed ends just before a '<', followed by a sentinel comment. The comment shows
// in the tree only when the tokeniser was in the data state there, so the part's tokens are
// the whole page's. What the rest of the page can still do to the tree is limited to the
// elements open at that point (end_pos at the end of the parsed text; html, head and body
// always): it appends to them (or foster-parents into them), and, through the adoption
// agency, moves nodes under an open formatting element. `decides` checks that the
// references do not depend on either; otherwise the whole page is parsed.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extract/html_script_cut.hpp"
#include "extract/html_text.hpp"

namespace strata::extract {

class PagePrefix {
 public:
  static constexpr std::string_view kSentinel = "strata:prefix-end";
  static constexpr size_t kSentinelSize = kSentinel.size() + 7;  // in "<!--" and "-->"

  // Parses the prefix when the page has one worth parsing (it ends in the first three
  // quarters of the page).
  explicit PagePrefix(std::string_view html);
  bool parsed() const { return doc_ != nullptr; }
  const GumboNode* root() const { return doc_->root(); }
  bool script_cut_reparsed() const { return doc_->reparsed(); }
  size_t prefix_size() const { return text_.size() - kSentinelSize; }  // page bytes parsed

  // True when the tokeniser was in the data state at the prefix's end and the whole page
  // gives the same references as this prefix, for captions of the `captioned` elements
  // computed as caption.hpp does: no formatting element is open (the adoption agency could
  // move any node); the nearest <figure> and the first ancestor with text are closed (their
  // text is final); an ancestor above that one has at least as many child nodes as any
  // node from the element up to it, counting an open node's as they are (they only grow)
  // less the sentinel's (so Arquivo's level rule picks that ancestor's text in both). This
  // follows caption.cpp's rules: a change of them must change caption_decided with them.
  bool decides(const std::vector<const GumboNode*>& captioned) const;

 private:
  bool open(const GumboNode* n) const;
  // Child nodes of n in the whole page are at least this many.
  size_t final_child_nodes(const GumboNode* n) const;
  bool caption_decided(const GumboNode* element, TextCache& texts) const;

  std::string text_;  // the prefix and the sentinel: the tree points into it
  std::unique_ptr<PageDocument> doc_;
  size_t end_ = 0;  // the parsed text's size: end_pos of elements still open at the end
  const GumboNode* sentinel_parent_ = nullptr;  // null when the sentinel is no comment
  size_t end_nodes_ = 0;  // nodes of sentinel_parent_ the page may not have at this point
};

}  // namespace strata::extract
