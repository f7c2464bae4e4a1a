#pragma once
// jsoup 1.11.3 Element.text() over a gumbo tree: whitespace collapsed to single spaces, a
// space before block elements and <br> and after a block followed by text, script/style
// content skipped, <pre>/<textarea>/<title> text kept as is, result trimmed (Java trim).
//
// Texts are kept as a bounded summary (first and last kSummaryChars code points plus the
// length) instead of the whole string: captions only ever need the head and tail (trim250)
// and storing the full text of every ancestor of every image is quadratic in memory on
// deeply nested pages.
#include <gumbo.h>

#include <cstddef>
#include <memory_resource>
#include <string>
#include <string_view>
#include <unordered_map>

namespace strata::extract {

struct TextSummary {
  std::string head;  // first code points (the whole text when complete())
  std::string tail;  // last code points (empty when complete())
  size_t chars = 0;  // length in code points
  size_t head_chars = 0;
  bool complete() const { return head_chars == chars; }
  bool empty() const { return chars == 0; }
};

inline constexpr size_t kSummaryChars = 256;

// Text of `node` (element, document or text node) keeping at most `keep_chars` code points
// at each end.
TextSummary node_text(const GumboNode* node, size_t keep_chars = kSummaryChars);

// The text a summary stands for when complete, else head + tail (for display).
std::string to_string(const TextSummary& s);

// Memoised node_text and "has any text" per node, for one page. has_text() is computed
// bottom-up once per subtree, so walking up from thousands of images stays linear.
class TextCache {
 public:
  const TextSummary& text(const GumboNode* node);
  bool has_text(const GumboNode* node);

 private:
  // The maps' entries (one per node of a subtree with an image) come from a page-long
  // arena, freed at once: no malloc/free per node.
  std::pmr::monotonic_buffer_resource arena_;
  std::pmr::unordered_map<const GumboNode*, TextSummary> text_{&arena_};
  std::pmr::unordered_map<const GumboNode*, bool> has_text_{&arena_};
};

// jsoup Tag.isBlock() for a known tag name (unknown tags are inline).
bool is_block_tag(std::string_view name);

// is_block_tag of an element's name (false for other nodes), looked up by tag.
bool is_block_element(const GumboNode* n);

}  // namespace strata::extract
