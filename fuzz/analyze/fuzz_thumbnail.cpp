// libFuzzer: arbitrary bytes through the header probe, thumbnailer and pHash decode must
// never crash, hang on a declared-huge image, or leak (small pixel limit to stay fast).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyze/image.hpp"
#include "analyze/phash.hpp"
#include "analyze/thumbnail.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  strata::analyze::ThumbnailOptions options;
  options.limits.max_pixels = 4'000'000;
  options.max_animation_frames = 8;
  strata::analyze::Thumbnail thumb;
  strata::analyze::make_thumbnail(bytes, options, thumb);
  strata::analyze::RgbImage image;
  if (strata::analyze::decode_rgb(bytes, options.limits, image) == strata::analyze::DecodeStatus::ok)
    strata::analyze::phash_rgb(image.rgb.data(), image.width, image.height);
  return 0;
}
