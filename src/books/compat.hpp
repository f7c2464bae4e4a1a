#pragma once
// The seed's output, exactly: the rules of the Imagery of Books script
// (fullresolutionimageextractor.pl) as its code runs, not as its prose says. It reads the
// Abbyy file line by line as the script does (a `<page` on a line starts a page, the first
// Picture <block> of a line is an image, tags are stripped by regex), so files laid out
// otherwise give what the script would give them. See docs/books.md for the rules.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "books/box.hpp"

namespace strata::books {

// scandata.xml as the script reads it (a regex over `<page leafNum="N">...</page>`).
struct CompatScandata {
  bool read = false;     // the file is over 1,000 bytes
  std::string min_leaf;  // the first leafNum ('' when none: page numbers start at 0)
  int max_leaf = 0;
  std::map<int, bool> dropped;  // addToAccessFormats false
  std::map<int, bool> covers;   // pageType Cover
};
CompatScandata compat_scandata(std::string_view xml);

struct CompatImage {
  int leaf = 0;      // the script's PAGENUM: the page's scan leaf
  int viewer = 0;    // IAPAGENUM, the TSV's PageNumber
  int image_id = 0;  // ImageID
  Box box;           // l t r b of the Picture block
  std::string file;  // ID.img.ImageID.NNNN.jpg
  std::string row;   // the TSV line, '\n' included
};

// Feed the decoded Abbyy file in chunks of any size, then finish().
class CompatBook {
 public:
  CompatBook(std::string identifier, std::string image_prefix, CompatScandata scandata);
  void feed(std::string_view bytes);
  void finish();

  // After finish(): the count pass's verdict (>= 4 images over 300x300 on >= 3 pages).
  int good_images() const { return good_images_; }
  int pages_with_images() const { return static_cast<int>(pages_with_images_.size()); }
  bool enough_images() const { return good_images_ >= 4 && pages_with_images() >= 3; }
  const std::vector<CompatImage>& images() const { return images_; }
  std::string tsv() const;  // header + rows

 private:
  void line(std::string line);
  void emit();

  std::string identifier_, image_prefix_;
  CompatScandata scandata_;
  int page_ = 0, viewer_ = -1;
  int good_images_ = 0;
  std::map<int, bool> pages_with_images_;
  std::string pending_, buffer_;
  std::vector<CompatImage> images_;
};

inline constexpr const char* kCompatHeader =
    "Identifier\tPageNumber\tImageID\tWidth\tHeight\tImageFileName\tAccessURL\tPreText\tPostText\n";

}  // namespace strata::books
