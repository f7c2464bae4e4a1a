#pragma once
// Image captions from the surrounding DOM, starting from Arquivo.pt's (paper Algorithms 2-4;
// reference §1.7): the text of the first ancestor with text, or, when that ancestor is at or
// above the level with the most child nodes (a "flat" page), the nearest non-empty previous
// and next element siblings joined by "\n"; cut to ~250 chars (trim250). Kept to the image's
// own neighbourhood (docs/extraction.md, "Captions"):
//  * an enclosing <figure>'s <figcaption>, or a MediaWiki thumb's caption, wins;
//  * images declared 4 px or less on a side (attributes or inline style) and spacer GIFs by
//    their usual names (spacer.gif, 1x1.gif, ...) get none: spacers, rules, tracking pixels;
//  * the ancestor's whole text only when it is short (<= 250 chars), holds no other image
//    and no boilerplate; otherwise, and on flat pages, the nearest text block before and
//    after the image (caption_blocks.hpp), boilerplate left out.
// Text given to 4 or more different pictures of a page is dropped by the page's reference
// finder.
#include <gumbo.h>

#include <chrono>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_map>

#include "extract/caption_blocks.hpp"
#include "extract/html_text.hpp"

namespace strata::extract {

inline constexpr size_t kMaxFieldChars = 10000;  // alt, title, anchor text, URLs

// Arquivo's trimCaption: texts over 250 chars become ~125 head + "\n" + ~125 tail, both cut
// at a space. Lengths are in code points (Java counts UTF-16 units: differs only for
// characters outside the BMP).
std::string trim250(const TextSummary& text);

// First `max_chars` code points of s.
std::string truncate_chars(std::string_view s, size_t max_chars = kMaxFieldChars);

struct CaptionOptions {
  // Per-page budget: after it, remaining images get no caption (Arquivo: 120 s in code,
  // 60 s in the paper; we use the paper's).
  std::chrono::milliseconds budget{60000};
};

class CaptionExtractor {
 public:
  explicit CaptionExtractor(CaptionOptions options = {});

  // Caption of an image element (see above). nullopt once the page's budget is spent: its
  // time, or the text read around images (CaptionBlocks::exhausted).
  std::optional<std::string> caption(const GumboNode* image);

  // <a> captions: the anchor's text, cut to 10000 chars (not to 250).
  std::string anchor_text(const GumboNode* anchor);

  bool budget_spent();
  size_t timed_out() const { return timed_out_; }

 private:
  struct Level {
    const GumboNode* best;  // ancestor-or-self with the most child nodes (ties: higher)
    size_t depth;           // of the node itself
  };
  bool has_text(const GumboNode* n);
  const TextSummary& text(const GumboNode* n);
  const Level& level(const GumboNode* n);
  std::optional<std::string> figcaption(const GumboNode* image);
  std::optional<std::string> thumbcaption(const GumboNode* image);
  std::string neighbourhood_caption(const GumboNode* image);

  CaptionOptions options_;
  std::chrono::steady_clock::time_point start_;
  bool spent_ = false;
  size_t timed_out_ = 0;
  TextCache cache_;
  CaptionBlocks blocks_;
  std::pmr::monotonic_buffer_resource arena_;  // the memos' entries, freed with the page
  std::pmr::unordered_map<const GumboNode*, Level> levels_{&arena_};
  TextSummary empty_;
};

}  // namespace strata::extract
