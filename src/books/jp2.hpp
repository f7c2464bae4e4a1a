#pragma once
// JPEG 2000 pages (IA `_jp2.zip` members) decoded with OpenJPEG from memory. A crop is
// region-decoded (opj_set_decode_area), which is bit-identical to a full decode then crop,
// and a tall region is decoded in strips of `strip_rows` so OpenJPEG's int32-per-sample
// buffers stay bounded (a whole 56 Mpx page takes ~680 MB in one call).
//
// Failure contract: every function throws Jp2Error on a truncated or corrupt codestream,
// a region outside the image, or a layout it does not handle (subsampled components).
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "books/box.hpp"
#include "books/raster.hpp"

namespace strata::books {

class Jp2Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Jp2Info {
  int width = 0, height = 0, components = 0, precision = 0;
};

Jp2Info jp2_info(std::string_view codestream);

inline constexpr int kDefaultStripRows = 512;
inline constexpr int kStripMargin = 32;  // rows decoded above and below each strip

// `box` in image coordinates (0,0 = the image's top-left), clipped by the caller; 8-bit out
// (higher precisions shifted down, signed samples offset). Grey and RGB (extra components,
// such as alpha, are dropped).
Raster jp2_decode_region(std::string_view codestream, const Box& box,
                         int strip_rows = kDefaultStripRows);
// The same region handed over strip by strip (top to bottom), never whole in memory.
void jp2_decode_strips(std::string_view codestream, const Box& box, int strip_rows,
                       const std::function<void(const Raster& strip)>& sink);
Raster jp2_decode_full(std::string_view codestream);

// A lossless (5/3 wavelet) JP2 file of the raster, as the test-item generator writes pages.
std::string jp2_encode_lossless(const Raster& raster);

}  // namespace strata::books
