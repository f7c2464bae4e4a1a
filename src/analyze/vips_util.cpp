#include "analyze/vips_util.hpp"

#include "analyze/image.hpp"

namespace strata::analyze::detail {

std::string vips_error() {
  std::string message = vips_error_buffer();
  vips_error_clear();
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return message;
}

ImagePtr load_buffer(const void* data, size_t size, const char* options) {
  ensure_vips();
  VipsImage* image =
      vips_image_new_from_buffer(data, size, options, "access", VIPS_ACCESS_SEQUENTIAL, nullptr);
  return ImagePtr(image);
}

ImagePtr to_srgb8(VipsImage* in) {
  g_object_ref(in);
  ImagePtr image(in);
  VipsImage* next = nullptr;
  // CMYK goes through the embedded (or libvips' fallback) ICC profile; 16-bit and grey
  // images are scaled and widened by the same call.
  if (vips_image_guess_interpretation(image.get()) != VIPS_INTERPRETATION_sRGB ||
      image->BandFmt != VIPS_FORMAT_UCHAR) {
    if (vips_colourspace(image.get(), &next, VIPS_INTERPRETATION_sRGB, nullptr) != 0)
      return nullptr;
    image.reset(next);
  }
  if (image->BandFmt != VIPS_FORMAT_UCHAR) {
    if (vips_cast_uchar(image.get(), &next, nullptr) != 0) return nullptr;
    image.reset(next);
  }
  if (image->Bands > 3) {
    if (vips_extract_band(image.get(), &next, 0, "n", 3, nullptr) != 0) return nullptr;
    image.reset(next);
  }
  if (image->Bands != 3) return nullptr;
  return image;
}

}  // namespace strata::analyze::detail
