#include "extract/image_info.hpp"

#include <utility>

#include "extract/image_formats.hpp"

namespace strata::extract {

using namespace image_detail;

namespace {

std::optional<ImageInfo> dispatch(std::string_view bytes) {
  if (is_jpeg(bytes)) return read_jpeg(bytes);
  if (is_png(bytes)) return read_png(bytes);
  if (is_gif(bytes)) return read_gif(bytes);
  if (is_webp(bytes)) return read_webp(bytes);
  if (is_bmp(bytes)) return read_bmp(bytes);
  if (is_ico(bytes)) return read_ico(bytes);
  if (is_tiff(bytes)) return read_tiff(bytes);
  if (!isobmff_mime(bytes).empty()) return read_isobmff(bytes);
  if (find_svg_root(bytes) != std::string_view::npos) return read_svg(bytes);
  return std::nullopt;
}

void finish(ImageInfo& info) {
  if (info.width < 0 || info.height < 0) info.width = info.height = 0;
  if (info.width == 0 || info.height == 0) info.size_known = false;
  bool swapped = info.orientation >= 5 && info.orientation <= 8;
  info.display_width = swapped ? info.height : info.width;
  info.display_height = swapped ? info.width : info.height;
}

}  // namespace

std::optional<ImageInfo> read_image_info(std::string_view bytes) {
  std::optional<ImageInfo> info = dispatch(bytes);
  if (info) finish(*info);
  return info;
}

SizeVerdict check_size_gates(const ImageInfo& info, const SizeGates& gates) {
  if (!info.size_known) return SizeVerdict::kUnknownSize;
  if (info.width < gates.min_side || info.height < gates.min_side) return SizeVerdict::kTooSmall;
  if (static_cast<int64_t>(info.width) * info.height > gates.max_area)
    return SizeVerdict::kTooLarge;
  return SizeVerdict::kOk;
}

bool passes_size_gates(const ImageInfo& info, const SizeGates& gates) {
  SizeVerdict verdict = check_size_gates(info, gates);
  return verdict == SizeVerdict::kOk ||
         (verdict == SizeVerdict::kUnknownSize && gates.allow_unknown_size);
}

}  // namespace strata::extract
