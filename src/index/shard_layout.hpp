#pragma once
// The folder of a sharded index (`strata index --shards N`, docs/scale.md "Sharded index"):
// the record store, the analysis cache, thumbnails and the block list as in one index, a file
// `shards` holding N, and one ordinary index folder per shard, shard-0 ... shard-(N-1), each
// servable alone (`strata serve --index`, `xapian-tcpsrv`).
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace strata::index {

// `index_dir`/shard-`k`.
std::filesystem::path shard_folder(const std::filesystem::path& index_dir, size_t k);
// The shard folders of a sharded index; empty for one index or none.
std::vector<std::filesystem::path> shard_folders(const std::filesystem::path& index_dir);
// N from `index_dir`/shards; 0 when the folder is no sharded index (absent or unreadable file).
size_t shard_count(const std::filesystem::path& index_dir);
// Writes `index_dir`/shards (the folder must exist); false when it cannot.
bool write_shard_count(const std::filesystem::path& index_dir, size_t shards);
// Empty when `index_dir` may be indexed with `requested` shards (0: as it is, one index when
// new); else why not: a sharded index asked for another count, or one index asked for shards.
std::string shard_count_problem(const std::filesystem::path& index_dir, size_t requested);

}  // namespace strata::index
