#pragma once
// Real encoded image files, written with the Debian libraries (libpng, libjpeg, giflib,
// libwebp) plus SVG text and PNG-in-ICO containers.
#include <cstdint>
#include <string>
#include <vector>

#include "sample/canvas.hpp"

namespace strata::sample {

enum class ImageFormat { jpeg, png, gif, gif_animated, webp, svg, ico };

// An encoded file and what a decoder will report about it.
struct EncodedImage {
  std::string bytes;
  std::string mime;  // the type a sniffer detects (image/jpeg, ..., image/x-icon)
  std::string ext;   // file extension without the dot
  int width = 0;
  int height = 0;
  std::string served_mime;  // HTTP Content-Type when servers use another name; empty = mime
};

// PNG row filters: libpng's default tries all five on every row and keeps the best (most
// of its time on these pictures); `up` alone takes about half the time for files ~3 % larger
// (bench mode's pooled bases).
enum class PngFilters { adaptive, up };

std::string encode_png(const Canvas& c, PngFilters filters = PngFilters::adaptive);
std::string encode_jpeg(const Canvas& c, int quality);
// One frame per canvas (all the same size); more than one frame adds a looping animation.
std::string encode_gif(const std::vector<Canvas>& frames);
// A GIF whose logical screen is width x height with `frame` in its top-left corner: a real
// file that declares huge dimensions in a few hundred bytes.
std::string encode_gif_on_screen(const Canvas& frame, int width, int height);
std::string encode_webp(const Canvas& c, float quality);
std::string encode_ico(const Canvas& c);  // width, height <= 256
std::string encode_svg(const Concept& look, int width, int height);

// A width x height PNG of one colour, streamed row by row (for huge pictures).
std::string encode_png_solid(int width, int height, Rgb color);

// Renders `look` at the size and encodes it in `format` (quality for JPEG/WebP, filters
// for PNG).
EncodedImage make_image(const Concept& look, int width, int height, ImageFormat format,
                        int quality = 85, PngFilters filters = PngFilters::adaptive);

const char* mime_of(ImageFormat f);
// The Content-Type servers send: image/vnd.microsoft.icon (IANA) for ICO, else mime_of.
const char* served_mime_of(ImageFormat f);
const char* ext_of(ImageFormat f);

}  // namespace strata::sample
