#pragma once
// Image facts read from headers only (no pixel decoding): type, dimensions, animation,
// EXIF orientation, progressive/interlaced. All parsers are bounds-checked; malformed or
// truncated input yields nullopt or partial facts, never a crash.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata::extract {

struct ImageInfo {
  std::string mime;  // canonical, as sniff_image_mime
  int width = 0;     // stored (coded) dimensions; 0 when unknown
  int height = 0;
  int display_width = 0;  // after EXIF orientation: swapped for orientations 5-8
  int display_height = 0;
  bool size_known = false;  // false e.g. for SVG with percentage or no size
  bool animated = false;
  int frames = 1;            // 0 when counting would be expensive (unknown)
  int orientation = 0;       // EXIF 1-8, 0 when absent
  bool progressive = false;  // progressive JPEG, interlaced PNG/GIF
};

std::optional<ImageInfo> read_image_info(std::string_view bytes);

struct SizeGates {
  int min_side = 50;                     // either side < min_side: too small
  int64_t max_area = 15000LL * 15000LL;  // width * height > max_area: too large
  bool allow_unknown_size = true;        // e.g. SVG width="100%"
};

enum class SizeVerdict { kOk, kTooSmall, kTooLarge, kUnknownSize };

SizeVerdict check_size_gates(const ImageInfo& info, const SizeGates& gates = {});
bool passes_size_gates(const ImageInfo& info, const SizeGates& gates = {});

}  // namespace strata::extract
