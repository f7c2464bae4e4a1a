#include "index/shard_layout.hpp"

#include <fstream>

#include "index/moderation.hpp"

namespace strata::index {

namespace fs = std::filesystem;

fs::path shard_folder(const fs::path& index_dir, size_t k) {
  return index_dir / ("shard-" + std::to_string(k));
}

std::vector<fs::path> shard_folders(const fs::path& index_dir) {
  std::vector<fs::path> folders;
  for (size_t k = 0, n = shard_count(index_dir); k < n; ++k)
    folders.push_back(shard_folder(index_dir, k));
  return folders;
}

size_t shard_count(const fs::path& index_dir) {
  std::ifstream in(index_dir / "shards");
  size_t n = 0;
  return in >> n ? n : 0;
}

bool write_shard_count(const fs::path& index_dir, size_t shards) {
  const fs::path file = index_dir / "shards", part = index_dir / "shards.tmp";
  {
    std::ofstream out(part);
    if (!(out << shards << '\n') || !out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(part, file, ec);
  return !ec;
}

std::string shard_count_problem(const fs::path& index_dir, size_t requested) {
  const size_t existing = shard_count(index_dir);
  if (existing && requested && requested != existing)
    return "index " + index_dir.string() + " has " + std::to_string(existing) + " shards, not " +
           std::to_string(requested) +
           " (the partition is by digest modulo the count: index into a new folder)";
  if (!existing && requested > 1 && index_exists(index_dir))
    return "index " + index_dir.string() +
           " is one index, not shards: index the archives into a new folder with --shards";
  return {};
}

}  // namespace strata::index
