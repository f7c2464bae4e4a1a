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

// Loader options: all frames of a kept animation, and shrink-on-load (JPEG's DCT scaling,
// WebP's and SVG's scaled decode) by the largest factor that keeps both sides at least
// kDecodeScale times the thumbnail's: the thumbnail, the pHash (32 x 32) and the classifier
// (through the thumbnail) all come from that one decode.
constexpr int kDecodeScale = 2;

std::string load_options(const ImageHeader& source, const ThumbnailOptions& options,
                         bool animated) {
  const int keep = kDecodeScale * options.max_side;
  int shrink = 1;
  while (shrink < 8 && std::min(source.width, source.height) / (shrink * 2) >= keep) shrink *= 2;
  std::string out = animated ? "n=-1" : "";
  if (shrink > 1) {
    const bool jpeg = source.loader.find("Jpeg") != std::string::npos;
    const bool scalable = source.loader.find("Webp") != std::string::npos ||
                          source.loader.find("Svg") != std::string::npos;
    if (jpeg || scalable) {
      if (!out.empty()) out += ",";
      out += jpeg ? "shrink=" + std::to_string(shrink) : "scale=" + std::to_string(1.0 / shrink);
    }
  }
  return "[" + out + "]";
}

// The decoded image's first frame as 8-bit sRGB (the pHash's input).
bool first_frame_rgb(VipsImage* decoded, int page_height, RgbImage& out) {
  ImagePtr rgb = detail::to_srgb8(decoded);
  if (!rgb) return false;
  VipsImage* frame = nullptr;
  if (vips_crop(rgb.get(), &frame, 0, 0, rgb->Xsize, std::min(page_height, rgb->Ysize), nullptr) !=
      0)
    return false;
  ImagePtr first(frame);
  size_t size = 0;
  void* pixels = vips_image_write_to_memory(first.get(), &size);
  if (pixels == nullptr) return false;
  out.width = first->Xsize;
  out.height = first->Ysize;
  const auto* p = static_cast<const uint8_t*>(pixels);
  out.rgb.assign(p, p + size);
  g_free(pixels);
  return true;
}

// The decoded image fitted inside side x side (never enlarged), as display sRGB, sharpened,
// in memory (the WebP encoder and the classifier's frames both read it); null on failure.
ImagePtr fitted(VipsImage* decoded, int side, double sharpen_sigma) {
  VipsImage* raw = nullptr;
  // vips_thumbnail imports CMYK/ICC to sRGB, keeps the pages of an animation apart, and
  // "size=down" never enlarges small images.
  if (vips_thumbnail_image(decoded, &raw, side, "height", side, "size", VIPS_SIZE_DOWN, nullptr) !=
      0)
    return nullptr;
  ImagePtr small(raw);
  // Into memory: sharpening reads out of order.
  VipsImage* thumb = vips_image_copy_memory(small.get());
  if (thumb == nullptr) return nullptr;
  ImagePtr image = to_display(ImagePtr(thumb));
  if (!image) return nullptr;
  image = sharpen(std::move(image), sharpen_sigma);
  if (!image) return nullptr;
  VipsImage* sharpened = vips_image_copy_memory(image.get());
  if (sharpened == nullptr) return nullptr;
  return ImagePtr(sharpened);
}
}  // namespace

DecodeStatus make_thumbnail(std::string_view bytes, const ThumbnailOptions& options,
                            Thumbnail& out) {
  out = Thumbnail{};
  if (const DecodeStatus s = probe_image(bytes, options.limits, out.source); s != DecodeStatus::ok)
    return s;
  // The whole decode is held in memory: an animation is kept only while all its frames
  // together stay within the limit of one image.
  const bool animated = options.keep_animation && out.source.frames > 1 &&
                        out.source.frames <= options.max_animation_frames &&
                        uint64_t(out.source.width) * out.source.height * out.source.frames <=
                            options.limits.max_pixels;
  // Decode once, into memory: the pHash reads it, the thumbnail is made from it.
  ImagePtr loaded = detail::load_buffer(bytes.data(), bytes.size(),
                                        load_options(out.source, options, animated).c_str());
  if (!loaded) return fail(DecodeStatus::corrupt);
  VipsImage* copy = vips_image_copy_memory(loaded.get());
  if (copy == nullptr) return fail(DecodeStatus::corrupt);
  ImagePtr decoded(copy);
  if (!first_frame_rgb(decoded.get(), vips_image_get_page_height(decoded.get()), out.decoded))
    return fail(DecodeStatus::corrupt);
  ImagePtr image = fitted(decoded.get(), options.max_side, options.sharpen_sigma);
  if (!image) return fail(DecodeStatus::corrupt);
  const int page_height = animated ? vips_image_get_page_height(image.get()) : image->Ysize;
  out.frames = animated ? std::max(1, image->Ysize / page_height) : 1;
  out.width = image->Xsize;
  out.height = page_height;
  if (!encode_webp(image.get(), options.quality, out.webp)) return fail(DecodeStatus::corrupt);
  if (options.retina_side > options.max_side &&
      std::max(out.source.width, out.source.height) > options.max_side) {
    // Not essential: without it the page shows the thumbnail.
    ImagePtr retina = fitted(decoded.get(), options.retina_side, options.sharpen_sigma);
    if (retina && encode_webp(retina.get(), options.quality, out.webp_retina)) {
      out.retina_width = retina->Xsize;
      out.retina_height = animated ? vips_image_get_page_height(retina.get()) : retina->Ysize;
    } else {
      out.webp_retina.clear();
      fail(DecodeStatus::corrupt);  // clears the error
    }
  }
  if (!sample_frames(image.get(), out.frames, page_height, options.limits.max_frames,
                     out.sample_frames)) {
    out.webp.clear();
    return fail(DecodeStatus::corrupt);
  }
  return DecodeStatus::ok;
}

}  // namespace strata::analyze
