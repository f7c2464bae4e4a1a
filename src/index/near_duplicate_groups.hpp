#pragma once
// Near-duplicate groups kept in the index (docs/near-duplicates.md, "In the index"): every
// image with a pHash is grouped with similar::group_near_duplicates over the WHOLE index, and
// each member of a group of two or more carries the leader's pHash as a value (slot::group,
// the collapse key of search) and a boolean term (prefix::near_duplicate_group, to find the
// members). The leader's pHash names the group: leaders are more than the radius apart, so no
// two groups share it. Grouping is a function of the set of documents, so the stored groups do
// not depend on the order or split of the batches that built the index.
//
// Failure contract: throws Xapian::Error (the caller's transaction is then cancelled, as for
// any other write); documents whose stored data cannot be read are left out of the grouping.
#include <xapian.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "index/document_builder.hpp"
#include "index/stored_data.hpp"
#include "similar/groups.hpp"

namespace strata::index {

struct RegroupReport {
  uint64_t hashed = 0;     // documents with a pHash, grouped
  uint64_t groups = 0;     // groups of two or more
  uint64_t grouped = 0;    // documents in such groups
  uint64_t changed = 0;    // documents whose group value and term were rewritten
  uint64_t regrouped = 0;  // images whose group was computed
  bool whole = false;      // the whole index was regrouped (no current grouping table)
};

// The documents written or deleted since the last regroup: docid -> grouping key (none:
// deleted, or without a pHash).
using GroupChanges = std::map<Xapian::docid, std::optional<similar::Image>>;

// A document's grouping key; none without a pHash.
std::optional<similar::Image> grouping_image(const merge::ImageDocument& doc, const Moderation& m);

// Regroups the documents of `db` (inside the caller's transaction, which sees its own
// changes) given every document `changes` since the last regroup, or the whole index when
// `whole` or when the grouping table is not current, and rewrites the group value and term
// of the documents whose group changed.
RegroupReport regroup_near_duplicates(Xapian::WritableDatabase& db, const StoredData& stored,
                                      const GroupChanges& changes, unsigned threads = 1,
                                      bool whole = false);

// Regroups the whole collection of a sharded index (docs/scale.md "Sharded index"): every
// shard's images grouped at once and each document's group rewritten in its own shard, inside
// the shards' open transactions if any. Each shard may have its own stored-data dictionary.
RegroupReport regroup_over_shards(const std::vector<Xapian::WritableDatabase>& shards,
                                  unsigned threads = 1);

// slot::group's value of a group whose leader has pHash `leader` (8 bytes, big-endian).
std::string group_value(uint64_t leader);
// The leader pHash a slot::group value holds; none for an empty or malformed value.
std::optional<uint64_t> group_leader(const std::string& value);
// The boolean term every member of the group carries.
std::string group_term(uint64_t leader);

}  // namespace strata::index
