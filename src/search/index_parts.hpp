#pragma once
// What a search runs over: one index, or several combined into one Xapian::Database
// (Database::add_database: local folders or remote shards served by xapian-tcpsrv,
// docs/scale.md). Xapian merges the term statistics of the parts, so ranking is the same as on
// one index, but the combined database reads metadata from its first part only: each part's
// stored-data dictionary is read from the part itself. A remote part cannot sort by a
// Xapian::KeyMaker (Xapian 1.4), so `remote` makes the searcher order those keys itself.
//
// Failure contract: the constructors throw Xapian::Error when a part cannot be read.
#include <xapian.h>

#include <optional>
#include <string>
#include <vector>

#include "archive/locate.hpp"
#include "index/stored_data.hpp"

namespace strata::search {

class IndexParts {
 public:
  // One index (local or remote).
  explicit IndexParts(const Xapian::Database& db, bool remote = false);
  // `parts` in the order they were added to the combined database.
  IndexParts(const std::vector<Xapian::Database>& parts, bool remote);

  // The dictionary of the part that holds the combined database's document `docid`
  // (Xapian numbers them round robin: part (docid - 1) % parts).
  const index::StoredData& stored(Xapian::docid docid) const;
  bool remote() const { return remote_; }

  size_t size() const { return parts_.size(); }
  // Part k as opened (its metadata: the archive registry, replay's captures).
  const Xapian::Database& part(size_t k) const { return parts_[k]; }
  // The registry entry of archive `key` (index/archive_registry.hpp) in whichever part
  // registers it: each shard registers the archives its own documents name.
  std::optional<archive::ArchiveEntry> registered_archive(const std::string& key) const;

 private:
  std::vector<Xapian::Database> parts_;
  std::vector<index::StoredData> stored_;
  bool remote_ = false;
};

}  // namespace strata::search
