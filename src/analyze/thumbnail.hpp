#pragma once
// Thumbnails with libvips: any decodable format, fit inside max_side x max_side keeping the
// aspect ratio (never enlarged), mildly sharpened, encoded as WebP (animations kept). The
// thumbnail's frames also feed the NSFW classifier, as Arquivo classifies its thumbnails.
#include <string>
#include <string_view>
#include <vector>

#include "analyze/image.hpp"

namespace strata::analyze {

struct ThumbnailOptions {
  int max_side = 200;
  int quality = 75;               // WebP quality
  double sharpen_sigma = 0.5;     // 0 disables sharpening
  bool keep_animation = true;     // animated sources give animated WebP thumbnails
  int max_animation_frames = 64;  // longer animations keep their first frame only
  DecodeLimits limits;
};

struct Thumbnail {
  ImageHeader source;
  std::string webp;  // encoded thumbnail
  int width = 0;
  int height = 0;  // of one frame
  int frames = 1;
  // Up to limits.max_frames frames of the thumbnail, evenly spread, as 8-bit RGB.
  std::vector<RgbImage> sample_frames;
};

// Never throws; a non-ok status leaves `out.webp` empty.
DecodeStatus make_thumbnail(std::string_view bytes, const ThumbnailOptions& options,
                            Thumbnail& out);

}  // namespace strata::analyze
