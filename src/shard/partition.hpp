#pragma once
// Which shard a document lives in (docs/scale.md, "Sharded index"): a function of its image
// digest alone, so every later add of the same image (a new capture, another collection) lands
// in the shard that holds it and merges there by digest, as in one index.
#include <cstddef>
#include <string_view>

namespace strata::shard {

// FNV-1a 64 of the digest modulo `shards` (> 0): stable across runs, machines and versions.
size_t shard_of(std::string_view digest, size_t shards);

}  // namespace strata::shard
