#pragma once
// Creates the encoded images of a world. In fast mode (bench) pictures come from a small pool
// of encoded bases made unique by a comment (same pixels, distinct digest) that is kept
// apart from the shared base bytes, so a million images cost a few thousand encodings and
// no more memory than the pool.
#include <map>
#include <memory>
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
  const Asset& base(const Key& key);

  std::vector<Asset>& assets_;
  bool fast_;
  int families_ = 0;
  uint64_t variants_ = 0;
  std::map<Key, Asset> bases_;
};

// The comment that makes a pooled variant unique (JPEG COM, PNG tEXt, GIF comment
// extension) and where it goes; empty for other formats.
Marker marker_for(const std::string& bytes, ImageFormat format, const std::string& text);

// `bytes` with the marker inserted.
std::string add_marker(const std::string& bytes, ImageFormat format, const std::string& text);

// Fills Asset::sha256 and Asset::sha1 for every asset, and Asset::deflated once per distinct
// file, on `threads` threads.
void prepare_assets(std::vector<Asset>& assets, int threads);

}  // namespace strata::sample
