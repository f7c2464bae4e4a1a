#pragma once
// Abbyy FineReader 6, 8 and 10 XML (IA's `_abbyy.gz`), read as a stream: the reader holds one
// page at a time (blocks, their rectangles and text) and hands each page to a callback, so a
// 600-page book is never a DOM. Elements are matched by local name under any
// `FineReader*-schema-v*.xml` namespace (or none); a UTF-8 BOM is fine.
//
// Failure contract: feed() and finish() throw AbbyyError (with the byte offset) on malformed
// or truncated XML or a root that is not <document>; the pages handed out before stand.
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "books/box.hpp"

namespace strata::books {

enum class BlockType { text, table, picture, barcode, separator, separators_box, checkmark, other };
BlockType block_type_of(std::string_view name);

struct Block {
  BlockType type = BlockType::other;
  Box box;                       // the block's l t r b
  std::vector<Box> rects;        // region/rect: the true shape, a union of strips
  std::string text;              // paragraphs joined by '\n', lines by ' ' (hyphens ¬ joined)
  bool hidden = false;           // isHidden="true|1"
  bool picture_caption = false;  // FR10: a paragraph whose role is pictureCaption
  uint64_t offset = 0;           // byte offset of <block> in the decoded XML
};

struct AbbyyPage {
  int index = 0;  // 0-based position in the file (= scan leaf order)
  int width = 0, height = 0, resolution = 0, rotation = 0;
  std::vector<Block> blocks;
  uint64_t offset = 0;  // byte offset of <page>
};

struct AbbyyDocument {
  int version = 0;          // 6, 8, 10 from the namespace; 0 when none names it
  int declared_pages = -1;  // document/@pagesCount, -1 when absent
  std::string producer;
};

class AbbyyError : public std::runtime_error {
 public:
  AbbyyError(const std::string& what, uint64_t offset)
      : std::runtime_error(what), offset_(offset) {}
  uint64_t offset() const { return offset_; }

 private:
  uint64_t offset_;
};

class AbbyyReader {
 public:
  using PageSink = std::function<void(AbbyyPage&&)>;
  explicit AbbyyReader(PageSink sink);
  ~AbbyyReader();
  AbbyyReader(const AbbyyReader&) = delete;
  AbbyyReader& operator=(const AbbyyReader&) = delete;

  void feed(std::string_view bytes);
  void finish();
  const AbbyyDocument& document() const;
  int pages() const;  // pages handed out so far

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The cap on one block's text: OCR noise in a hostile file must not grow without bound.
inline constexpr size_t kMaxBlockText = 1 << 20;
inline constexpr size_t kMaxBlockRects = 4096;  // real pictures have tens

}  // namespace strata::books
