#pragma once
// Thumbnails on disk, keyed by the image's SHA-256 hex digest and sharded by its first two
// pairs of hex digits: <root>/ab/cd/abcd...ef.webp. Writes are atomic (temporary file in the
// same folder, then rename), so readers (strata serve) never see a partial thumbnail. The
// high-density thumbnails (twice the size, analyze/thumbnail.hpp) are a store of their own in
// the folder "2x" of the root: <root>/2x/ab/cd/abcd...ef.webp.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace strata::analyze {

class ThumbnailStore {
 public:
  explicit ThumbnailStore(std::filesystem::path root) : root_(std::move(root)) {}

  // False for anything but 64 hex digits (digests become file names).
  static bool valid_digest(std::string_view digest);

  // Empty path for an invalid digest.
  std::filesystem::path path_for(std::string_view digest) const;
  bool contains(std::string_view digest) const;
  bool put(std::string_view digest, std::string_view bytes) const;
  std::optional<std::string> get(std::string_view digest) const;

  const std::filesystem::path& root() const { return root_; }
  // The store of the high-density thumbnails beside this one.
  ThumbnailStore retina() const { return ThumbnailStore(root_ / "2x"); }

 private:
  std::filesystem::path root_;
};

}  // namespace strata::analyze
