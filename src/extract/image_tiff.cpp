// TIFF header reader (classic TIFF, II and MM): IFD0 ImageWidth/ImageLength/Orientation.
// Also parses the TIFF structure inside JPEG EXIF segments.
#include <cstdint>

#include "extract/image_bytes.hpp"
#include "extract/image_formats.hpp"

namespace strata::extract::image_detail {
namespace {

constexpr uint16_t kImageWidth = 256;
constexpr uint16_t kImageLength = 257;
constexpr uint16_t kOrientation = 274;
constexpr uint16_t kTypeShort = 3;
constexpr uint16_t kTypeLong = 4;
constexpr uint32_t kMaxEntries = 4096;

struct Ifd0 {
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t orientation = 0;
  bool ok = false;
};

std::optional<bool> byte_order(const Bytes& b) {
  if (b.starts_with(0, std::string_view("II*\0", 4))) return false;
  if (b.starts_with(0, std::string_view("MM\0*", 4))) return true;
  return std::nullopt;
}

// A SHORT or LONG value stored inline in an entry (count 1).
std::optional<uint32_t> entry_value(const Bytes& b, size_t entry, bool big) {
  auto type = b.get(entry + 2, 2, big);
  if (type == kTypeShort) return b.get(entry + 8, 2, big);
  if (type == kTypeLong) return b.get(entry + 8, 4, big);
  return std::nullopt;
}

Ifd0 read_ifd0(std::string_view tiff) {
  Bytes b(tiff);
  Ifd0 ifd;
  auto big = byte_order(b);
  if (!big) return ifd;
  auto offset = b.get(4, 4, *big);
  auto count = offset ? b.get(*offset, 2, *big) : std::nullopt;
  if (!count) return ifd;
  ifd.ok = true;
  for (uint32_t i = 0; i < *count && i < kMaxEntries; ++i) {
    size_t entry = static_cast<size_t>(*offset) + 2 + 12 * static_cast<size_t>(i);
    auto tag = b.get(entry, 2, *big);
    if (!tag) break;
    auto value = entry_value(b, entry, *big);
    if (!value) continue;
    if (*tag == kImageWidth) ifd.width = *value;
    if (*tag == kImageLength) ifd.height = *value;
    if (*tag == kOrientation) ifd.orientation = *value;
  }
  return ifd;
}

int valid_orientation(uint32_t value) {
  return value >= 1 && value <= 8 ? static_cast<int>(value) : 0;
}

}  // namespace

bool is_tiff(std::string_view bytes) {
  return byte_order(Bytes(bytes)).has_value();
}

int tiff_orientation(std::string_view tiff) {
  return valid_orientation(read_ifd0(tiff).orientation);
}

std::optional<ImageInfo> read_tiff(std::string_view bytes) {
  Ifd0 ifd = read_ifd0(bytes);
  ImageInfo info;
  info.mime = "image/tiff";
  if (ifd.width <= 0x7fffffffu && ifd.height <= 0x7fffffffu) {
    info.width = static_cast<int>(ifd.width);
    info.height = static_cast<int>(ifd.height);
    info.size_known = ifd.width > 0 && ifd.height > 0;
  }
  info.orientation = valid_orientation(ifd.orientation);
  return info;
}

}  // namespace strata::extract::image_detail
