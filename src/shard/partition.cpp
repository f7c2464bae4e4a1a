#include "shard/partition.hpp"

#include <cstdint>

namespace strata::shard {

size_t shard_of(std::string_view digest, size_t shards) {
  uint64_t hash = 14695981039346656037ULL;
  for (const char c : digest) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return static_cast<size_t>(hash % shards);
}

}  // namespace strata::shard
