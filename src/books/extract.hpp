#pragma once
// `strata books extract`: every picture of a book item cropped from its page images.
//   - default mode: Strata's reading (books/pictures.hpp), switchable filters, JPEG crops and
//     OUT/ID/images.jsonl (one line per crop: page, box, caption, pre/post text, URLs);
//   - compat mode: the seed script's output, exactly (books/compat.hpp): OUT/ID_imgs.zip, a
//     stored ZIP of `ID_imgs/ID.img.K.NNNN.jpg` and `ID_imgs/ID.imageslist.txt`;
//   - an `.epub` file: its images as they are, OUT/NAME/images.jsonl and book.json.
//
// Failure contract: extract_item never throws for bad input: a missing file, corrupt XML,
// a truncated ZIP, a missing or corrupt page, mismatched page counts are problems (item,
// file, byte offset or page) in the ProblemLog, and the batch goes on. It throws
// std::runtime_error only when the output cannot be written.
#include <filesystem>
#include <string>

#include "books/jp2.hpp"
#include "core/counters.hpp"
#include "core/problems.hpp"

namespace strata::books {

struct Filters {
  bool page_type =
      true;  // leaves not shown (addToAccessFormats=false), covers, colour/white cards, Delete
  bool size = true;         // a side under min_side
  bool aspect = true;       // w/h <= 0.3 or h/w <= 0.21 (the seed's advice)
  bool edge = true;         // a small box in a page corner (touches two borders, < 5 % of the page)
  bool first_last = false;  // the first 4 and last 5 leaves (the seed's advice)
  bool book_minimum = false;  // books with < 4 pictures or < 3 pages with pictures
  int min_side = 300;
};

// Applies `name` (page-type, size, aspect, edge, first-last, book-minimum) = on; false when
// no filter has that name.
bool set_filter(Filters& filters, const std::string& name, bool on);

struct ExtractOptions {
  std::filesystem::path out;
  bool compat = false;
  Filters filters;
  int quality = 85;  // JPEG quality of crops (compat mode: 75, cjpeg's default)
  int strip_rows = kDefaultStripRows;
};

struct ItemResult {
  Counters counters;  // pictures, crops, dropped_<filter>, bytes...
  bool skipped = false;
};

ItemResult extract_item(const std::filesystem::path& item, const ExtractOptions& options,
                        ProblemLog& problems);

}  // namespace strata::books
