#pragma once
// build_sharded(): builds a new index on several cores. `jobs` IndexWriters fill a shard each
// (a contiguous range of the documents) in parallel threads, committing every `commit_every`
// documents (Xapian's inverter holds a whole transaction in memory: small ones are cheaper),
// then Xapian's compaction merges the shards into one compacted index, docids renumbered.
// The shards share one stored-data dictionary, trained on the first documents before the
// others start. Ids are not merged across shards: the documents must have distinct ids.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "index/writer.hpp"

namespace strata::index {

using DocumentAt = std::function<merge::ImageDocument(uint64_t)>;

struct ShardedBuild {
  unsigned jobs = 1;
  uint64_t commit_every = 10'000;
  ModerateFn moderate;  // none if empty; called from every thread, so it must be thread-safe
  // A stored-data dictionary to use instead of training one (kMetaDictionary of another index):
  // indexes built with the same one can be merged into one later (compact_index of several).
  std::string dictionary;
};

// Writes documents [0, count) into a new index `to` (throws when it exists). The shards live
// beside it (`to`.shard-N) until merged.
void build_sharded(const std::filesystem::path& to, uint64_t count, const DocumentAt& document,
                   const ShardedBuild& options);

}  // namespace strata::index
