#include "analyze/image.hpp"

#include <mutex>

#include "analyze/vips_util.hpp"

namespace strata::analyze {

std::string_view to_string(DecodeStatus status) {
  switch (status) {
    case DecodeStatus::ok:
      return "ok";
    case DecodeStatus::unsupported:
      return "unsupported";
    case DecodeStatus::too_large:
      return "too_large";
    case DecodeStatus::corrupt:
      return "corrupt";
  }
  return "corrupt";
}

namespace {

// ImageMagick (libvips' fallback loader) reads dozens of formats, some risky and many not
// images (RSS, text): only the web image formats libvips lacks natively go through it.
bool magick_allowed(std::string_view b) {
  const bool ico_or_cur =
      b.size() > 4 && b[0] == 0 && b[1] == 0 && (b[2] == 1 || b[2] == 2) && b[3] == 0;
  const bool bmp = b.size() > 2 && b[0] == 'B' && b[1] == 'M';
  return ico_or_cur || bmp;
}

}  // namespace

void ensure_vips() {
  static std::once_flag once;
  std::call_once(once, [] {
    VIPS_INIT("strata");
    // Damaged images are counted by the caller; libvips' per-tile warnings are noise.
    g_log_set_handler(
        "VIPS", G_LOG_LEVEL_WARNING, [](const gchar*, GLogLevelFlags, const gchar*, gpointer) {},
        nullptr);
    vips_cache_set_max(0);    // every image is seen once: caching only costs memory
    vips_concurrency_set(1);  // parallelism comes from the caller's threads
  });
}

DecodeStatus probe_image(std::string_view bytes, const DecodeLimits& limits, ImageHeader& header) {
  ensure_vips();
  const char* loader = vips_foreign_find_load_buffer(bytes.data(), bytes.size());
  if (loader == nullptr) {
    vips_error_clear();
    return DecodeStatus::unsupported;
  }
  header.loader = loader;
  if (header.loader.find("Magick") != std::string::npos && !magick_allowed(bytes))
    return DecodeStatus::unsupported;
  // Header only: libvips loaders are lazy, no pixel is decoded here.
  detail::ImagePtr image = detail::load_buffer(bytes.data(), bytes.size());
  if (!image) {
    vips_error_clear();
    return DecodeStatus::corrupt;
  }
  header.width = vips_image_get_width(image.get());
  int n_pages = 1;
  if (vips_image_get_typeof(image.get(), "n-pages") != 0)
    vips_image_get_int(image.get(), "n-pages", &n_pages);
  header.frames = std::max(1, n_pages);
  header.height = vips_image_get_page_height(image.get());
  const uint64_t pixels =
      uint64_t(header.width) * uint64_t(header.height) * uint64_t(header.frames);
  if (header.width <= 0 || header.height <= 0) return DecodeStatus::corrupt;
  if (uint64_t(header.width) * uint64_t(header.height) > limits.max_pixels ||
      pixels > limits.max_pixels * 4)
    return DecodeStatus::too_large;
  return DecodeStatus::ok;
}

DecodeStatus decode_rgb(std::string_view bytes, const DecodeLimits& limits, RgbImage& out) {
  ImageHeader header;
  if (const DecodeStatus s = probe_image(bytes, limits, header); s != DecodeStatus::ok) return s;
  detail::ImagePtr image = detail::load_buffer(bytes.data(), bytes.size());
  if (!image) return DecodeStatus::corrupt;
  detail::ImagePtr rgb = detail::to_srgb8(image.get());
  if (!rgb) {
    vips_error_clear();
    return DecodeStatus::corrupt;
  }
  size_t size = 0;
  void* pixels = vips_image_write_to_memory(rgb.get(), &size);
  if (pixels == nullptr) {
    vips_error_clear();
    return DecodeStatus::corrupt;
  }
  out.width = rgb->Xsize;
  out.height = rgb->Ysize;
  const auto* p = static_cast<const uint8_t*>(pixels);
  out.rgb.assign(p, p + size);
  g_free(pixels);
  return DecodeStatus::ok;
}

}  // namespace strata::analyze
