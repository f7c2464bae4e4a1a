#pragma once
// Per-format header readers behind read_image_info and sniff_image_mime (internal).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "extract/image_info.hpp"

namespace strata::extract::image_detail {

std::optional<ImageInfo> read_jpeg(std::string_view bytes);
std::optional<ImageInfo> read_png(std::string_view bytes);
std::optional<ImageInfo> read_gif(std::string_view bytes);
std::optional<ImageInfo> read_webp(std::string_view bytes);
std::optional<ImageInfo> read_bmp(std::string_view bytes);
std::optional<ImageInfo> read_ico(std::string_view bytes);
std::optional<ImageInfo> read_tiff(std::string_view bytes);
std::optional<ImageInfo> read_svg(std::string_view bytes);
std::optional<ImageInfo> read_isobmff(std::string_view bytes);

// Magic checks shared with sniff_image_mime.
bool is_jpeg(std::string_view bytes);
bool is_png(std::string_view bytes);
bool png_is_animated(std::string_view bytes);  // acTL before the first IDAT
bool is_gif(std::string_view bytes);
bool is_webp(std::string_view bytes);
bool is_bmp(std::string_view bytes);
bool is_ico(std::string_view bytes);
bool is_tiff(std::string_view bytes);
// Offset of the root element's '<' when the text is an SVG document, else npos.
size_t find_svg_root(std::string_view bytes);
// image/avif, image/heic, image/heif from an ISO-BMFF ftyp box, else "".
std::string isobmff_mime(std::string_view bytes);

// EXIF orientation (1-8) from a TIFF structure (JPEG APP1 payload after "Exif\0\0", or a
// TIFF file); 0 when absent.
int tiff_orientation(std::string_view tiff);

}  // namespace strata::extract::image_detail
