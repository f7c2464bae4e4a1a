#pragma once
// Real images for the tests: every image payload (by libvips' sniffing) of an archive in
// ../shared/data, plus variants derived from the image-hashes cat photo with libvips for the
// cases the archives lack (CMYK and progressive JPEG, 16-bit PNG, animations).
#include <map>
#include <string>
#include <vector>

namespace strata::analyze::test {

struct ArchiveImage {
  std::string url;
  std::string mime;    // HTTP Content-Type (no parameters) or the resource record's
  std::string loader;  // libvips loader class, e.g. "VipsForeignLoadPngBuffer"
  std::string bytes;
  std::string file;  // where the record is, for read_record_at
  uint64_t offset = 0;
};

std::vector<ArchiveImage> archive_images(const std::string& shared_relative_path);

// name → encoded bytes: "cmyk.jpg", "progressive.jpg", "rgb16.png", "animated.gif",
// "animated.webp", "grey_alpha.png".
std::map<std::string, std::string> derived_cat_variants();

// A real PNG whose IHDR is rewritten to declare width x height (CRC fixed).
std::string png_declaring(int width, int height);

}  // namespace strata::analyze::test
