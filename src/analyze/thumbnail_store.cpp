#include "analyze/thumbnail_store.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

namespace strata::analyze {

namespace fs = std::filesystem;

bool ThumbnailStore::valid_digest(std::string_view digest) {
  if (digest.size() != 64) return false;
  for (char c : digest)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

fs::path ThumbnailStore::path_for(std::string_view digest) const {
  if (!valid_digest(digest)) return {};
  const std::string d(digest);
  return root_ / d.substr(0, 2) / d.substr(2, 2) / (d + ".webp");
}

bool ThumbnailStore::contains(std::string_view digest) const {
  std::error_code ec;
  const fs::path path = path_for(digest);
  return !path.empty() && fs::is_regular_file(path, ec);
}

bool ThumbnailStore::put(std::string_view digest, std::string_view bytes) const {
  const fs::path path = path_for(digest);
  if (path.empty()) return false;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return false;
  static std::atomic<unsigned> counter{0};
  fs::path temp = path;
  temp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      fs::remove(temp, ec);
      return false;
    }
  }
  fs::rename(temp, path, ec);
  if (ec) fs::remove(temp, ec);
  return !ec;
}

std::optional<std::string> ThumbnailStore::get(std::string_view digest) const {
  const fs::path path = path_for(digest);
  if (path.empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace strata::analyze
