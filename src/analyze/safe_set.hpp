#pragma once
// The labelled image set safe search is calibrated on (bench/analyze/safe_search_set.tsv,
// docs/analysis.md "Safe search calibration"): where each image is and what it shows.
// One row per line, tab-separated, '#' comments:
//   source   a file under the data folder (shared/data): a W/ARC, an EPUB/zip, an image
//   item     W/ARC: the record's offset; zip: the member's name; image file: "-";
//            "*": every image of the source, all with this row's label
//   label    photo | graphic | painting | drawing | page   (must stay visible)
//            explicit | suggestive                          (should be hidden)
//   note     free text (what the image shows)
#include <filesystem>
#include <string>
#include <vector>

namespace strata::analyze {

struct SafeSetRow {
  std::string source, item, label, note;
  int line = 0;
};

// Labels whose images safe search must show; the others it should hide.
bool label_must_show(const std::string& label);
bool known_label(const std::string& label);

// Rows of a set file; a malformed line (fewer than three fields, unknown label) is appended
// to `errors` as "file:line: why" and skipped.
std::vector<SafeSetRow> read_safe_set(const std::filesystem::path& file,
                                      std::vector<std::string>& errors);

struct SetImage {
  SafeSetRow row;     // item resolved to the image's own locator when the row said "*"
  std::string bytes;  // the encoded image
};

// The images a row names, read from `data_root`/row.source (bytes that no image loader
// recognises are left out of "*" rows). An unreadable source or an item not found is
// appended to `errors` and gives nothing.
std::vector<SetImage> load_set_images(const SafeSetRow& row, const std::filesystem::path& data_root,
                                      std::vector<std::string>& errors);

}  // namespace strata::analyze
