#pragma once
// IA-style book items made up for tests and benchmarks, with known truth: rendered pages
// (text-like rows and pictures whose every pixel depends on its position, so a misplaced
// crop shows), JP2 pages written with OpenJPEG (lossless, so crops can be compared pixel by
// pixel) in ID_jp2.zip, and the Abbyy FR6 XML (one line per text line, as IA's exporter
// writes) and scandata.xml describing them.
//
// The leaves follow the research note's plan: a colour card and a cover (not shown), plain
// pages, picture pages (with a caption under some pictures, a picture Abbyy split in two, a
// small one, a thin rule), a rescan flagged addToAccessFormats=false, then a back cover and a
// colour card.
//
// Failure contract: throws std::runtime_error when the files cannot be written.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "books/box.hpp"
#include "books/raster.hpp"
#include "books/scandata.hpp"

namespace strata::books {

struct SyntheticOptions {
  std::string identifier = "strataTestBook";
  int leaves = 16;  // at least 12
  int page_width = 640, page_height = 880;
  int channels = 3;
  uint64_t seed = 1;
  bool jpeg_pages = false;  // ID_jpg.zip of JPEG pages instead of JP2
  bool tiff_pages = false;  // ID_tif.zip of Deflate TIFF pages instead of JP2
};

struct SyntheticBlock {
  int leaf = 0;
  Box box;
  std::string caption;  // the text block written under it, empty when none
  bool split = false;   // written as two touching Picture blocks (top and bottom halves)
};

struct SyntheticLeaf {
  int leaf = 0;
  PageType type = PageType::normal;
  bool access = true;
};

struct SyntheticItem {
  std::filesystem::path folder;
  std::vector<SyntheticLeaf> leaves;
  std::vector<SyntheticBlock> pictures;             // every picture as drawn (a split one once)
  std::vector<std::vector<std::string>> page_text;  // per leaf, its text blocks in order
};

// Writes parent/ID/ (ID_abbyy.gz, ID_scandata.xml, ID_jp2.zip, ID_jpg.zip or ID_tif.zip,
// ID_meta.xml).
SyntheticItem write_synthetic_item(const std::filesystem::path& parent,
                                   const SyntheticOptions& options);

// The page as rendered into the item (the lossless JP2 decodes to exactly this).
Raster render_page(const SyntheticItem& item, const SyntheticOptions& options, int leaf);

}  // namespace strata::books
