#pragma once
// The text blocks around an image, for captions bound to the image's own neighbourhood.
//
// A container's content is read in document order as a series of text blocks and images: a
// block is the text between block boundaries (block elements, <br>) and images, whitespace
// collapsed. Images with no text between them form a group (a row of stars, a layout slice
// of several pictures); an emoji inside a sentence (alt of pictographs only) is part of the
// text, not an image there, and gets no caption. The neighbours of an image are the nearest
// block before its group and the nearest block after it, nothing further: a whole column's
// text is never a caption.
//
// Boilerplate blocks are left out: link lists (>= 3 links making up 70 % of the text or more)
// and text inside navigation, menus, headers and footers, asides and ads (by element, ARIA
// role, or class/id words; a <header> or <footer> inside an <article> is the article's own),
// unless an aside holds the container too (a sidebar box's or card's own text); a
// drop-down's options are never read.
// Never throws; each container is read once per page (memoised), so many images sharing one
// container stay linear.
#include <gumbo.h>

#include <cstddef>
#include <memory_resource>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::extract {

struct TextBlock {
  std::string text;                    // whitespace collapsed, trimmed
  const GumboNode* element = nullptr;  // element holding the block's first text
  size_t chars = 0, link_chars = 0, links = 0;
};

struct Neighbours {
  const TextBlock* before = nullptr;  // nullptr when none or boilerplate
  const TextBlock* after = nullptr;
  size_t images = 0;              // images in the container
  bool boilerplate_seen = false;  // some block of the container is boilerplate
};

class CaptionBlocks {
 public:
  // The blocks next to `image` (an <img> inside `container`). A block right after another
  // image is that image's (logo, name, logo, name): it is not taken as this one's.
  Neighbours neighbours(const GumboNode* container, const GumboNode* image);

  // True once the page's containers hold kMaxIndexedChars of text or kMaxIndexedItems blocks
  // and images: nested containers are each read whole, so a page nested thousands deep would
  // be read thousands of times.
  bool exhausted() const {
    return indexed_chars_ > kMaxIndexedChars || indexed_items_ > kMaxIndexedItems;
  }

  // The nearest of `element` and its ancestors that is navigation, a menu, a header or
  // footer, an aside or an ad (tag, ARIA role, class/id words), or nullptr.
  const GumboNode* furniture_of(const GumboNode* element);

 private:
  struct Item {
    const GumboNode* image = nullptr;  // an image, or else the block
    TextBlock block;
    size_t group_first = 0, group_last = 0;  // images: their group's item range
  };
  struct Index {
    std::vector<Item> items;
    std::unordered_map<const GumboNode*, size_t> image_at;
    size_t images = 0;
    bool boilerplate_seen = false;
    const GumboNode* furniture = nullptr;  // furniture_of(container)
  };
  const Index& index(const GumboNode* container);
  // A link list, or text inside furniture other than the aside holding the container
  // (`own_furniture`): a sidebar box's or card's (<aside class="item">) text is its pictures'.
  bool boilerplate(const TextBlock& block, const GumboNode* own_furniture);

  static constexpr size_t kMaxIndexedChars = 16 << 20, kMaxIndexedItems = 500000;
  size_t indexed_chars_ = 0, indexed_items_ = 0;
  std::pmr::monotonic_buffer_resource arena_;
  std::pmr::unordered_map<const GumboNode*, Index> indexes_{&arena_};
  std::pmr::unordered_map<const GumboNode*, const GumboNode*> furniture_of_{&arena_};
};

}  // namespace strata::extract
