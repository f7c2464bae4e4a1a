#pragma once
// Creates the encoded images of a world. In fast mode (bench) pictures come from a small pool
// of pre-encoded bases made unique by a comment/text chunk (same pixels, distinct digest), so
// a million images cost a few thousand encodings.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sample/world.hpp"

namespace strata::sample {

class AssetStore {
 public:
  AssetStore(std::vector<Asset>& assets, bool fast) : assets_(assets), fast_(fast) {}
  // A new picture of `look` (a seed) at the size, in the format.
  int add(uint64_t look, int width, int height, ImageFormat format, int quality, int family,
          int topic);
  // A given encoded file (spacers, huge images).
  int add_encoded(EncodedImage image, int family = -1, int topic = -1);
  int new_family() { return families_++; }

 private:
  using Key = std::tuple<uint64_t, int, int, int, int>;
  const EncodedImage& base(const Key& key);

  std::vector<Asset>& assets_;
  bool fast_;
  int families_ = 0;
  uint64_t variants_ = 0;
  std::map<Key, EncodedImage> bases_;
};

// Inserts a comment (JPEG COM, PNG tEXt, GIF comment extension) so the bytes differ while
// the pixels do not; other formats are returned unchanged.
std::string add_marker(const std::string& bytes, ImageFormat format, const std::string& text);

std::string sha256_hex(std::string_view data);

}  // namespace strata::sample
