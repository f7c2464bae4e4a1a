#pragma once
// JPEG page scans (IA `_jpg.zip`) read row by row, keeping only the rows of a crop, and crops
// written as JPEG, both with libjpeg-turbo.
//
// Failure contract: throw JpegError on corrupt or truncated input, a region outside the
// image or an unsupported colour space (CMYK).
#include <stdexcept>
#include <string>
#include <string_view>

#include "books/box.hpp"
#include "books/raster.hpp"

namespace strata::books {

class JpegError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Raster jpeg_decode_region(std::string_view data, const Box& box);
Raster jpeg_decode_full(std::string_view data);
// Image size without decoding.
Box jpeg_bounds(std::string_view data);

// cjpeg's defaults at `quality` (4:2:0 for colour); greyscale stays one channel.
std::string jpeg_encode(const Raster& raster, int quality);

}  // namespace strata::books
