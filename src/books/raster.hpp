#pragma once
// 8-bit pixels of a page or a crop: 1 (grey) or 3 (RGB) channels, row-major, no padding.
#include <cstdint>
#include <vector>

#include "books/box.hpp"

namespace strata::books {

struct Raster {
  int width = 0, height = 0, channels = 0;
  std::vector<uint8_t> pixels;
  bool operator==(const Raster&) const = default;
};

// The pixels of `box` (inside the raster) copied out.
inline Raster crop(const Raster& from, const Box& box) {
  Raster out{box.width(), box.height(), from.channels, {}};
  out.pixels.reserve(static_cast<size_t>(out.width) * out.height * out.channels);
  const size_t row = static_cast<size_t>(from.width) * from.channels;
  for (int y = box.t; y < box.b; ++y) {
    const uint8_t* p = from.pixels.data() + y * row + static_cast<size_t>(box.l) * from.channels;
    out.pixels.insert(out.pixels.end(), p, p + static_cast<size_t>(out.width) * out.channels);
  }
  return out;
}

}  // namespace strata::books
