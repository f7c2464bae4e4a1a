// Header readers for the bitmap formats: JPEG, PNG/APNG, GIF, WebP, BMP, ICO/CUR.
#include <algorithm>
#include <cstdint>

#include "extract/image_bytes.hpp"
#include "extract/image_formats.hpp"

namespace strata::extract::image_detail {
namespace {

constexpr std::string_view kPngSignature("\x89PNG\r\n\x1a\n", 8);
constexpr size_t kMaxChunks = 100000;  // bounds the chunk walks on hostile input

ImageInfo sized(std::string mime, uint32_t width, uint32_t height) {
  ImageInfo info;
  info.mime = std::move(mime);
  // Dimensions beyond int are nonsense; treat them as unknown rather than wrapping.
  if (width <= 0x7fffffffu && height <= 0x7fffffffu) {
    info.width = static_cast<int>(width);
    info.height = static_cast<int>(height);
    info.size_known = width > 0 && height > 0;
  }
  return info;
}

// ---- JPEG ----

bool is_sof(uint8_t marker) {
  return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}
bool is_progressive_sof(uint8_t marker) {
  return marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
}
bool has_no_length(uint8_t marker) {
  return marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8);
}

int exif_orientation(const Bytes& b, size_t segment, size_t length) {
  if (length < 8 || !b.starts_with(segment, std::string_view("Exif\0\0", 6))) return 0;
  return tiff_orientation(b.sub(segment + 6, length - 6));
}

}  // namespace

bool is_jpeg(std::string_view bytes) {
  return Bytes(bytes).starts_with(0, "\xFF\xD8\xFF");
}

std::optional<ImageInfo> read_jpeg(std::string_view bytes) {
  Bytes b(bytes);
  size_t pos = 2;
  int orientation = 0;
  while (true) {
    while (b.u8(pos) == 0xFF && b.u8(pos + 1) == 0xFF) ++pos;  // fill bytes
    if (b.u8(pos) != 0xFF) break;                              // lost sync
    auto marker = b.u8(pos + 1);
    if (!marker) break;
    pos += 2;
    if (has_no_length(*marker)) continue;
    if (*marker == 0xD9 || *marker == 0xDA) break;  // EOI or scan before any frame header
    auto length = b.be(pos, 2);
    if (!length || *length < 2) break;
    if (*marker == 0xE1 && orientation == 0)
      orientation = exif_orientation(b, pos + 2, *length - 2);
    if (is_sof(*marker)) {
      auto height = b.be(pos + 3, 2), width = b.be(pos + 5, 2);
      if (!height || !width) break;
      ImageInfo info = sized("image/jpeg", *width, *height);  // height 0: defined by DNL
      info.progressive = is_progressive_sof(*marker);
      info.orientation = orientation;
      return info;
    }
    pos += *length;
  }
  ImageInfo unknown = sized("image/jpeg", 0, 0);
  unknown.orientation = orientation;
  return unknown;
}

// ---- PNG / APNG ----

bool is_png(std::string_view bytes) {
  return Bytes(bytes).starts_with(0, kPngSignature);
}

namespace {
// Frame count from acTL when it precedes IDAT, else 0.
uint32_t png_actl_frames(const Bytes& b) {
  size_t pos = 8;
  for (size_t n = 0; n < kMaxChunks && b.has(pos, 8); ++n) {
    auto length = b.be(pos, 4);
    std::string_view type = b.sub(pos + 4, 4);
    if (type == "IDAT" || type == "IEND") return 0;
    if (type == "acTL") return b.be(pos + 8, 4).value_or(1);
    if (!length || *length > b.size()) return 0;
    pos += 12 + static_cast<size_t>(*length);
  }
  return 0;
}
}  // namespace

bool png_is_animated(std::string_view bytes) {
  return png_actl_frames(Bytes(bytes)) > 0;
}

std::optional<ImageInfo> read_png(std::string_view bytes) {
  Bytes b(bytes);
  uint32_t frames = png_actl_frames(b);
  std::string mime = frames > 0 ? "image/apng" : "image/png";
  if (!b.starts_with(12, "IHDR")) return sized(mime, 0, 0);
  auto width = b.be(16, 4), height = b.be(20, 4);
  ImageInfo info = sized(mime, width.value_or(0), height.value_or(0));
  info.progressive = b.u8(28) == 1;  // Adam7 interlace
  if (frames > 0) {
    info.frames = static_cast<int>(std::min<uint32_t>(frames, 0x7fffffff));
    info.animated = frames > 1;
  }
  return info;
}

// ---- GIF ----

bool is_gif(std::string_view bytes) {
  Bytes b(bytes);
  return b.starts_with(0, "GIF87a") || b.starts_with(0, "GIF89a");
}

namespace {
size_t color_table_size(uint8_t flags) {
  return (flags & 0x80) ? 3u << ((flags & 7) + 1) : 0;
}

// Skips a chain of data sub-blocks; returns the position after the terminator, or npos.
size_t skip_sub_blocks(const Bytes& b, size_t pos) {
  while (true) {
    auto size = b.u8(pos);
    if (!size) return std::string_view::npos;
    ++pos;
    if (*size == 0) return pos;
    pos += *size;
  }
}

struct GifScan {
  int frames = 0;
  bool first_interlaced = false;
};

GifScan scan_gif_frames(const Bytes& b, size_t pos) {
  GifScan scan;
  while (pos != std::string_view::npos) {
    auto introducer = b.u8(pos);
    if (!introducer || *introducer == 0x3B) break;  // end of data or trailer
    if (*introducer == 0x21) {
      pos = skip_sub_blocks(b, pos + 2);
    } else if (*introducer == 0x2C) {
      auto flags = b.u8(pos + 9);
      if (!flags) break;
      if (scan.frames++ == 0) scan.first_interlaced = (*flags & 0x40) != 0;
      pos = skip_sub_blocks(b, pos + 10 + color_table_size(*flags) + 1);  // +1: LZW code size
    } else {
      break;
    }
  }
  return scan;
}
}  // namespace

std::optional<ImageInfo> read_gif(std::string_view bytes) {
  Bytes b(bytes);
  ImageInfo info = sized("image/gif", b.le(6, 2).value_or(0), b.le(8, 2).value_or(0));
  auto flags = b.u8(10);
  if (!flags) return info;
  GifScan scan = scan_gif_frames(b, 13 + color_table_size(*flags));
  info.frames = scan.frames;
  info.animated = scan.frames > 1;
  info.progressive = scan.first_interlaced;
  return info;
}

// ---- WebP ----

bool is_webp(std::string_view bytes) {
  Bytes b(bytes);
  return b.starts_with(0, "RIFF") && b.starts_with(8, "WEBP");
}

namespace {
int count_anmf(const Bytes& b) {
  int frames = 0;
  size_t pos = 12;
  for (size_t n = 0; n < kMaxChunks && b.has(pos, 8); ++n) {
    auto length = b.le(pos + 4, 4);
    if (!length) break;
    if (b.starts_with(pos, "ANMF")) ++frames;
    pos += 8 + static_cast<size_t>(*length) + (*length & 1);
  }
  return frames;
}

std::optional<ImageInfo> read_vp8x(const Bytes& b) {
  auto flags = b.u8(20);
  auto width = b.le(24, 3), height = b.le(27, 3);
  if (!flags || !width || !height) return sized("image/webp", 0, 0);
  ImageInfo info = sized("image/webp", *width + 1, *height + 1);
  info.animated = (*flags & 0x02) != 0;
  if (info.animated) {
    info.frames = count_anmf(b);
    info.animated = info.frames != 1;
  }
  return info;
}
}  // namespace

std::optional<ImageInfo> read_webp(std::string_view bytes) {
  Bytes b(bytes);
  if (b.starts_with(12, "VP8X")) return read_vp8x(b);
  if (b.starts_with(12, "VP8L")) {
    auto bits = b.le(21, 4);
    if (b.u8(20) != 0x2F || !bits) return sized("image/webp", 0, 0);
    return sized("image/webp", (*bits & 0x3FFF) + 1, ((*bits >> 14) & 0x3FFF) + 1);
  }
  if (b.starts_with(12, "VP8 ")) {
    auto width = b.le(26, 2), height = b.le(28, 2);
    if (!b.starts_with(23, "\x9D\x01\x2A") || !width || !height) return sized("image/webp", 0, 0);
    return sized("image/webp", *width & 0x3FFF, *height & 0x3FFF);
  }
  return sized("image/webp", 0, 0);
}

// ---- BMP ----

bool is_bmp(std::string_view bytes) {
  Bytes b(bytes);
  if (!b.starts_with(0, "BM")) return false;
  auto header = b.le(14, 4);
  if (!header) return false;
  switch (*header) {
    case 12:
    case 16:
    case 40:
    case 52:
    case 56:
    case 64:
    case 108:
    case 124:
      return true;
    default:
      return false;
  }
}

std::optional<ImageInfo> read_bmp(std::string_view bytes) {
  Bytes b(bytes);
  auto header = b.le(14, 4);
  if (header == 12u) return sized("image/bmp", b.le(18, 2).value_or(0), b.le(20, 2).value_or(0));
  auto width = b.le(18, 4), height = b.le(22, 4);
  if (!width || !height) return sized("image/bmp", 0, 0);
  int32_t w = static_cast<int32_t>(*width), h = static_cast<int32_t>(*height);
  if (w <= 0 || h == INT32_MIN) return sized("image/bmp", 0, 0);
  return sized("image/bmp", static_cast<uint32_t>(w), static_cast<uint32_t>(h < 0 ? -h : h));
}

// ---- ICO / CUR ----

bool is_ico(std::string_view bytes) {
  Bytes b(bytes);
  auto type = b.le(2, 2), count = b.le(4, 2);
  return b.le(0, 2) == 0u && (type == 1u || type == 2u) && count && *count > 0 && b.has(6, 16);
}

namespace {
// An entry's size: the directory bytes (0 = 256), or the embedded PNG's IHDR when present.
std::pair<uint32_t, uint32_t> ico_entry_size(const Bytes& b, size_t entry) {
  uint32_t width = b.u8(entry).value_or(0), height = b.u8(entry + 1).value_or(0);
  if (width == 0) width = 256;
  if (height == 0) height = 256;
  auto offset = b.le(entry + 12, 4);
  if (offset && b.starts_with(*offset, kPngSignature) && b.starts_with(*offset + 12, "IHDR")) {
    width = b.be(*offset + 16, 4).value_or(width);
    height = b.be(*offset + 20, 4).value_or(height);
  }
  return {width, height};
}
}  // namespace

std::optional<ImageInfo> read_ico(std::string_view bytes) {
  Bytes b(bytes);
  uint32_t count = b.le(4, 2).value_or(0);
  uint32_t best_w = 0, best_h = 0;
  for (uint32_t i = 0; i < count && b.has(6 + 16 * i, 16); ++i) {
    auto [w, h] = ico_entry_size(b, 6 + 16 * static_cast<size_t>(i));
    if (static_cast<uint64_t>(w) * h > static_cast<uint64_t>(best_w) * best_h) {
      best_w = w;
      best_h = h;
    }
  }
  return sized("image/x-icon", best_w, best_h);
}

}  // namespace strata::extract::image_detail
