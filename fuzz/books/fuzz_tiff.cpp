// The TIFF page reader (books/tiff.hpp) on arbitrary bytes: bounds, then a region of the page
// it claims; a region always has the box's size.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "books/tiff.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata::books;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const Box page = tiff_bounds(bytes);
    // Bounded work: a corner of at most 64 x 64 pixels.
    const Box box{0, 0, page.r < 64 ? page.r : 64, page.b < 64 ? page.b : 64};
    const Raster r = tiff_decode_region(bytes, box);
    if (r.width != box.width() || r.height != box.height() ||
        r.pixels.size() != static_cast<size_t>(r.width) * r.height * r.channels)
      __builtin_trap();
  } catch (const TiffError&) {
  }
  return 0;
}
