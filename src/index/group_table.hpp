#pragma once
// The grouping table of an index (docs/near-duplicates.md, "Regrouping only what a batch
// changes"): per document with a pHash, its grouping key (similar::Image) and its group
// leader's docid, so that a write regroups only what it changed instead of reading every
// hashed document. Kept in the index's metadata in chunks of kGroupChunkDocids docids, written
// in the transaction of the documents it describes; it holds the revision its commit makes,
// so any commit that did not rewrite it (an older strata, a write without a regroup) makes it
// stale and the next regroup rebuilds it from the whole index.
//
// Failure contract: load_group_table returns none for an absent, stale or malformed table;
// Xapian errors propagate (the caller's transaction is cancelled).
#include <xapian.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "similar/groups.hpp"

namespace strata::index {

inline constexpr unsigned kGroupChunkBits = 10;  // 1,024 docids a chunk

struct GroupTable {
  std::vector<Xapian::docid> docids;  // ascending
  std::vector<similar::Image> images;
  std::vector<Xapian::docid> leaders;
  size_t size() const { return docids.size(); }
  // The position of `docid`, or size().
  size_t find(Xapian::docid docid) const;
};

std::optional<GroupTable> load_group_table(const Xapian::Database& db);
// Rewrites the chunks numbered `chunks` (docid >> kGroupChunkBits; ascending) from `table`,
// or every chunk when `chunks` is none, and marks the table current for the next commit.
void save_group_table(Xapian::WritableDatabase& db, const GroupTable& table,
                      const std::optional<std::vector<uint32_t>>& chunks);

// Makes the table stale (the next regroup rebuilds it).
void invalidate_group_table(Xapian::WritableDatabase& db);

// The table's metadata keys in `db` (its header and chunks), and whether a metadata key is
// one. Compaction leaves them out of every copy (index/compact.hpp): a copy is never the
// index its table describes.
std::vector<std::string> group_table_keys(const Xapian::Database& db);
bool is_group_table_key(std::string_view key);
// Removes the table (header and chunks) in the caller's transaction.
void drop_group_table(Xapian::WritableDatabase& db);

}  // namespace strata::index
