#pragma once
// IA `_scandata.xml`: one <page leafNum> per scanned leaf with its pageType, whether it goes
// into the access formats (the viewer, the OCR-derived files) and the printed page number.
// The viewer shows leaves in order, skipping those with addToAccessFormats=false; its page
// index n (archive.org/details/ID/page/nN) is the leaf's ordinal among the shown ones.
//
// Failure contract: parse_scandata throws ScandataError (with the byte offset) on malformed
// XML or a file without any <page leafNum>.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace strata::books {

enum class PageType { normal, cover, title, color_card, white_card, foldout, delete_, other };
PageType page_type_of(std::string_view name);  // case-insensitive; "Cover Page" is a cover
const char* name_of(PageType type);

struct Leaf {
  int leaf = 0;
  PageType type = PageType::normal;
  bool access = true;               // addToAccessFormats (missing = true)
  std::string printed_page;         // pageNumber, empty when absent
  std::optional<int> viewer_index;  // n, when shown
};

struct Scandata {
  std::string book_id;
  int declared_leaves = -1;  // bookData/leafCount
  std::vector<Leaf> leaves;  // in file order, viewer indexes filled in
};

class ScandataError : public std::runtime_error {
 public:
  ScandataError(const std::string& what, uint64_t offset)
      : std::runtime_error(what), offset_(offset) {}
  uint64_t offset() const { return offset_; }

 private:
  uint64_t offset_;
};

Scandata parse_scandata(std::string_view xml);

}  // namespace strata::books
