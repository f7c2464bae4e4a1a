#include "extract/mime_sniff.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "extract/image_formats.hpp"

namespace strata::extract {

using namespace image_detail;

std::string sniff_image_mime(std::string_view bytes) {
  if (is_jpeg(bytes)) return "image/jpeg";
  if (is_png(bytes)) return png_is_animated(bytes) ? "image/apng" : "image/png";
  if (is_gif(bytes)) return "image/gif";
  if (is_webp(bytes)) return "image/webp";
  if (is_bmp(bytes)) return "image/bmp";
  if (is_ico(bytes)) return "image/x-icon";
  if (is_tiff(bytes)) return "image/tiff";
  if (std::string iso = isobmff_mime(bytes); !iso.empty()) return iso;
  if (find_svg_root(bytes) != std::string_view::npos) return "image/svg+xml";
  return "";
}

std::string canonical_image_mime(std::string_view reported) {
  std::string mime(reported.substr(0, reported.find(';')));
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  mime.erase(mime.begin(), std::find_if(mime.begin(), mime.end(), not_space));
  mime.erase(std::find_if(mime.rbegin(), mime.rend(), not_space).base(), mime.end());
  std::transform(mime.begin(), mime.end(), mime.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static const std::array<std::pair<std::string_view, std::string_view>, 12> kAliases{{
      {"image/jpg", "image/jpeg"},
      {"image/pjpeg", "image/jpeg"},
      {"image/x-png", "image/png"},
      {"image/vnd.mozilla.apng", "image/apng"},
      {"image/vnd.microsoft.icon", "image/x-icon"},
      {"image/ico", "image/x-icon"},
      {"image/icon", "image/x-icon"},
      {"image/x-ms-bmp", "image/bmp"},
      {"image/x-bmp", "image/bmp"},
      {"image/svg", "image/svg+xml"},
      {"image/tif", "image/tiff"},
      {"image/heic-sequence", "image/heic"},
  }};
  for (const auto& [alias, canonical] : kAliases)
    if (mime == alias) return std::string(canonical);
  return mime;
}

}  // namespace strata::extract
