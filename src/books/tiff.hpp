#pragma once
// TIFF page scans (IA `_tif.zip`) read row by row from memory with libtiff, keeping only the
// rows of a crop: 8-bit grey or RGB (contiguous samples) and 1-bit bilevel pages, in strips
// (any compression libtiff reads: none, LZW, Deflate, PackBits, CCITT G3/G4, JPEG).
//
// Failure contract: throw TiffError on corrupt or truncated input, a region outside the
// image, or a layout not read here (tiles, planar samples, 16-bit, palettes, CMYK), with
// libtiff's own message.
#include <stdexcept>
#include <string>
#include <string_view>

#include "books/box.hpp"
#include "books/raster.hpp"

namespace strata::books {

class TiffError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The first page's size, as a box at the origin.
Box tiff_bounds(std::string_view data);
// The pixels of `box`: grey (bilevel pages too, 0 or 255) or RGB.
Raster tiff_decode_region(std::string_view data, const Box& box);
// An uncompressed (`deflate` false) or Deflate TIFF of `raster`, for test items.
std::string tiff_encode(const Raster& raster, bool deflate);

}  // namespace strata::books
