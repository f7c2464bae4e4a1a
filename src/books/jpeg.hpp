#pragma once
// JPEG page scans (IA `_jpg.zip`) read row by row, keeping only the rows of a crop, and crops
// written as JPEG, both with libjpeg-turbo.
//
// Failure contract: throw JpegError on corrupt or truncated input, a region outside the
// image or an unsupported colour space (CMYK).
#include <memory>
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

// The same, fed rows in strips as they are decoded, so a big picture is never whole in
// memory.
class JpegWriter {
 public:
  JpegWriter(int width, int height, int channels, int quality);
  ~JpegWriter();
  JpegWriter(const JpegWriter&) = delete;
  JpegWriter& operator=(const JpegWriter&) = delete;
  void write(const Raster& rows);  // the next rows, `width` wide
  std::string finish();            // the JPEG file, once every row was written

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace strata::books
