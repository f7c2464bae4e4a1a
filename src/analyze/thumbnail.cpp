#include "analyze/thumbnail.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "analyze/vips_util.hpp"

namespace strata::analyze {
namespace {

using detail::ImagePtr;

// Sharpens the colour bands only (alpha kept as is).
ImagePtr sharpen(ImagePtr image, double sigma) {
  if (sigma <= 0) return image;
  VipsImage* out = nullptr;
  if (vips_image_hasalpha(image.get())) {
    VipsImage* colour = nullptr;
    VipsImage* alpha = nullptr;
    const int bands = image->Bands;
    if (vips_extract_band(image.get(), &colour, 0, "n", bands - 1, nullptr) != 0) return nullptr;
    ImagePtr colour_hold(colour);
    if (vips_extract_band(image.get(), &alpha, bands - 1, nullptr) != 0) return nullptr;
    ImagePtr alpha_hold(alpha);
    VipsImage* sharp = nullptr;
    if (vips_sharpen(colour, &sharp, "sigma", sigma, nullptr) != 0) return nullptr;
    ImagePtr sharp_hold(sharp);
    VipsImage* sharp8 = nullptr;
    if (vips_cast_uchar(sharp, &sharp8, nullptr) != 0) return nullptr;
    ImagePtr sharp8_hold(sharp8);
    if (vips_bandjoin2(sharp8, alpha, &out, nullptr) != 0) return nullptr;
    return ImagePtr(out);
  }
  if (vips_sharpen(image.get(), &out, "sigma", sigma, nullptr) != 0) return nullptr;
  ImagePtr sharp(out);
  if (vips_cast_uchar(sharp.get(), &out, nullptr) != 0) return nullptr;
  return ImagePtr(out);
}

// sRGB, 8 bits, colour bands plus alpha when there is one.
ImagePtr to_display(ImagePtr image) {
  VipsImage* out = nullptr;
  if (vips_image_guess_interpretation(image.get()) != VIPS_INTERPRETATION_sRGB ||
      image->BandFmt != VIPS_FORMAT_UCHAR) {
    if (vips_colourspace(image.get(), &out, VIPS_INTERPRETATION_sRGB, nullptr) != 0) return nullptr;
    image.reset(out);
  }
  if (image->BandFmt != VIPS_FORMAT_UCHAR) {
    if (vips_cast_uchar(image.get(), &out, nullptr) != 0) return nullptr;
    image.reset(out);
  }
  return image;
}

bool encode_webp(VipsImage* image, int quality, std::string& out) {
  void* buffer = nullptr;
  size_t size = 0;
  if (vips_webpsave_buffer(image, &buffer, &size, "Q", quality, "strip", TRUE, nullptr) != 0)
    return false;
  out.assign(static_cast<const char*>(buffer), size);
  g_free(buffer);
  return true;
}

bool sample_frames(VipsImage* display, int frames, int page_height, int wanted,
                   std::vector<RgbImage>& out) {
  ImagePtr rgb = detail::to_srgb8(display);
  if (!rgb) return false;
  size_t size = 0;
  void* memory = vips_image_write_to_memory(rgb.get(), &size);
  if (memory == nullptr) return false;
  const auto* pixels = static_cast<const uint8_t*>(memory);
  const size_t frame_bytes = size_t(rgb->Xsize) * page_height * 3;
  const int count = std::clamp(wanted, 1, frames);
  for (int i = 0; i < count; ++i) {
    const int index = count == 1 ? 0 : int(int64_t(i) * (frames - 1) / (count - 1));
    if (frame_bytes * (index + 1) > size) break;
    RgbImage& frame = out.emplace_back();
    frame.width = rgb->Xsize;
    frame.height = page_height;
    frame.rgb.assign(pixels + frame_bytes * index, pixels + frame_bytes * (index + 1));
  }
  g_free(memory);
  return !out.empty();
}

DecodeStatus fail(DecodeStatus status) {
  if (getenv("STRATA_VIPS_DEBUG")) fprintf(stderr, "vips: %s\n", vips_error_buffer());
  vips_error_clear();
  return status;
}

}  // namespace

DecodeStatus make_thumbnail(std::string_view bytes, const ThumbnailOptions& options,
                            Thumbnail& out) {
  out = Thumbnail{};
  if (const DecodeStatus s = probe_image(bytes, options.limits, out.source); s != DecodeStatus::ok)
    return s;
  const bool animated = options.keep_animation && out.source.frames > 1 &&
                        out.source.frames <= options.max_animation_frames;
  VipsImage* raw = nullptr;
  // vips_thumbnail shrinks on load where it can (JPEG, WebP, SVG render at target size) and
  // imports CMYK/ICC to sRGB; "size=down" never enlarges small images.
  if (vips_thumbnail_buffer(const_cast<char*>(bytes.data()), bytes.size(), &raw, options.max_side,
                            "height", options.max_side, "size", VIPS_SIZE_DOWN, "option_string",
                            animated ? "n=-1" : "", nullptr) != 0)
    return fail(DecodeStatus::corrupt);
  ImagePtr small(raw);
  // Decode once into memory: the thumbnail is small, and sharpening reads out of order.
  VipsImage* decoded = vips_image_copy_memory(small.get());
  if (decoded == nullptr) return fail(DecodeStatus::corrupt);
  ImagePtr image = to_display(ImagePtr(decoded));
  if (!image) return fail(DecodeStatus::corrupt);
  image = sharpen(std::move(image), options.sharpen_sigma);
  if (!image) return fail(DecodeStatus::corrupt);
  const int page_height = animated ? vips_image_get_page_height(image.get()) : image->Ysize;
  out.frames = animated ? std::max(1, image->Ysize / page_height) : 1;
  out.width = image->Xsize;
  out.height = page_height;
  if (!encode_webp(image.get(), options.quality, out.webp)) return fail(DecodeStatus::corrupt);
  if (!sample_frames(image.get(), out.frames, page_height, options.limits.max_frames,
                     out.sample_frames)) {
    out.webp.clear();
    return fail(DecodeStatus::corrupt);
  }
  return DecodeStatus::ok;
}

}  // namespace strata::analyze
