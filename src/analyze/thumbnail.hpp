#pragma once
// Thumbnails with libvips: any decodable format, decoded once (shrink-on-load for large
// JPEG/WebP/SVG), fit inside max_side x max_side keeping the aspect ratio (never enlarged),
// mildly sharpened, encoded as WebP (animations kept). The thumbnail's frames also feed the
// NSFW classifier, as Arquivo classifies its thumbnails; the decoded first frame feeds the pHash.
#include <string>
#include <string_view>
#include <vector>

#include "analyze/image.hpp"

namespace strata::analyze {

struct ThumbnailOptions {
  int max_side = 200;
  // A second thumbnail for high-density screens (devicePixelRatio 2: the search page's rows
  // are up to 190 CSS pixels high), made only from images larger than max_side; 0: none.
  int retina_side = 400;
  int quality = 75;            // WebP quality
  double sharpen_sigma = 0.5;  // 0 disables sharpening
  bool keep_animation = true;  // animated sources give animated WebP thumbnails
  // Longer animations keep their first frame only, and so do those whose frames together
  // exceed limits.max_pixels (the decode is held in memory).
  int max_animation_frames = 64;
  DecodeLimits limits;
};

struct Thumbnail {
  ImageHeader source;
  std::string webp;  // encoded thumbnail
  int width = 0;
  int height = 0;  // of one frame
  // The high-density thumbnail (retina_side), empty when the image is not larger than
  // max_side (the thumbnail then has all its pixels) or retina_side is 0.
  std::string webp_retina;
  int retina_width = 0;
  int retina_height = 0;
  int frames = 1;
  // Up to limits.max_frames frames of the thumbnail, evenly spread, as 8-bit RGB.
  std::vector<RgbImage> sample_frames;
  // The first frame as decoded, 8-bit sRGB: full size, except that JPEG, WebP and SVG images
  // whose both sides exceed 4 x max_side are decoded smaller (shrink-on-load by 2, 4 or 8,
  // keeping both sides >= 2 x max_side). The perceptual hash's input.
  RgbImage decoded;
};

// Never throws; a non-ok status leaves `out.webp` empty.
DecodeStatus make_thumbnail(std::string_view bytes, const ThumbnailOptions& options,
                            Thumbnail& out);

}  // namespace strata::analyze
