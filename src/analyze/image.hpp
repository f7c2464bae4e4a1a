#pragma once
// Image decoding with libvips: header probing (so decompression bombs are refused before any
// pixel is allocated), decoding to 8-bit sRGB, and the frames of animated images.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata::analyze {

struct DecodeLimits {
  // Arquivo drops images above 15000x15000 px (reference §1.5); the whole animation counts.
  uint64_t max_pixels = uint64_t{15000} * 15000;
  int max_frames = 8;  // frames sampled from an animation for classification
};

enum class DecodeStatus {
  ok,
  unsupported,  // no libvips loader recognises the bytes
  too_large,    // declared dimensions above DecodeLimits::max_pixels (decompression bomb)
  corrupt,      // recognised but failed to decode
};
std::string_view to_string(DecodeStatus status);

struct ImageHeader {
  std::string loader;  // libvips loader class, e.g. "VipsForeignLoadJpegBuffer"
  int width = 0;
  int height = 0;  // of one frame
  int frames = 1;
};

// An 8-bit sRGB frame, 3 interleaved channels (alpha dropped without compositing, as
// Arquivo's PIL convert('RGB') does).
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;
};

// Reads the header only. DecodeStatus::ok fills `header`.
DecodeStatus probe_image(std::string_view bytes, const DecodeLimits& limits, ImageHeader& header);

// Decodes the first frame at full size (for the perceptual hash).
DecodeStatus decode_rgb(std::string_view bytes, const DecodeLimits& limits, RgbImage& out);

// Starts libvips once (safe to call repeatedly, from any thread).
void ensure_vips();

}  // namespace strata::analyze
