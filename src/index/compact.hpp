#pragma once
// A compacted copy of an index: Xapian's compaction rewrites the tables with full blocks
// (~30 % smaller after a bulk load; docs/search.md, "Index size"), and the files beside the
// tables (analysis.jsonl, blocklist.txt, thumbs/) come along, hard-linked where possible.
// The near-duplicate groups (document values and terms) come along; the grouping table
// (index/group_table.hpp, the writer's cache) does not: a copy's first write rebuilds it
// from the documents.
// The copy appears under its final name only once complete; the source is never changed.
#include <cstdint>
#include <filesystem>
#include <vector>

namespace strata::index {

struct CompactReport {
  uint64_t documents = 0;
  uint64_t bytes_before = 0;  // Xapian tables only
  uint64_t bytes_after = 0;
};

// A serving copy has no termlist table (Xapian's DB_NO_TERMLIST, about a quarter smaller):
// searches, replay and facets work on it, but no document can be replaced, so writers refuse
// it. Keep the full index to add collections to, and make a new serving copy after each.
enum class CompactMode { full, serving };

// A sharded index (index/shard_layout.hpp) becomes one index: its shards merged, its own files
// (record store, analysis cache, thumbnails, block list) beside the tables.
// Throws std::runtime_error when `to` exists or `from` is not an index.
CompactReport compact_index(const std::filesystem::path& from, const std::filesystem::path& to,
                            CompactMode mode = CompactMode::full);
// Merges several indexes (shards with distinct document ids) into one compacted index `to`,
// their docids renumbered; the files beside the tables come from the first. The grouping
// table is left out, as above; the near-duplicate groups themselves (document values) stay.
// Documents compressed with another dictionary than the first source's are rewritten with it
// (shards of `strata index --shards` train one each; shards built with
// index::ShardedBuild::dictionary share one and are merged as they are).
CompactReport compact_index(const std::vector<std::filesystem::path>& from,
                            const std::filesystem::path& to);

bool is_serving_copy(const std::filesystem::path& dir);

}  // namespace strata::index
