#pragma once
// One value computed from an index and kept while the index's version (UUID and revision)
// stays the same: the "more like this" snapshot (similar_index.hpp) and the index summary
// (index_summary.hpp). When the index changes, the first request to notice computes the new
// value while the others go on answering from the previous one; the very first one waits.
#include <xapian.h>

#include <memory>
#include <mutex>
#include <string>

#include "search/index_parts.hpp"

namespace strata::server {

// Which state of which database a value was computed from: an index rebuilt beside its folder
// and renamed into place is another database (UUID) whose revisions start again. Over several
// parts (shards), `layout` names the parts in their order: the combined database numbers
// their documents by it, so a value of another layout is never answered from.
struct IndexVersion {
  std::string uuid;
  Xapian::rev revision = 0;
  std::string layout;
  bool operator==(const IndexVersion&) const = default;
};
inline IndexVersion version_of(const Xapian::Database& db) {
  return {db.get_uuid(), db.get_revision(), ""};
}

// A part's UUID and revision; a remote part (Xapian 1.4 gives no revision over the remote
// protocol) by its UUID and what a commit that adds, replaces or deletes documents changes
// (kept by the connection: no round trip).
inline std::string part_version(const Xapian::Database& part) {
  std::string version = part.get_uuid();
  try {
    return version + "@" + std::to_string(part.get_revision());
  } catch (const Xapian::UnimplementedError&) {
  } catch (const Xapian::InvalidOperationError&) {
  }
  return version + "#" + std::to_string(part.get_doccount()) + "/" +
         std::to_string(part.get_lastdocid()) + "/" + std::to_string(part.get_total_length());
}

inline IndexVersion version_of(const search::IndexParts& parts) {
  IndexVersion v;
  for (size_t k = 0; k < parts.size(); ++k) {
    v.uuid += part_version(parts.part(k)) + " ";
    v.layout += parts.part(k).get_uuid() + " ";
  }
  return v;
}

// T has a member `IndexVersion version`; compute(db) returns a std::shared_ptr<const T> (or
// one convertible to it) for db's current version.
template <typename T>
class VersionedCache {
 public:
  template <typename Compute>
  std::shared_ptr<const T> get(Xapian::Database& db, Compute compute) {
    return get(db, version_of(db), compute);
  }
  // `version`: db's, as version_of() gives it.
  template <typename Compute>
  std::shared_ptr<const T> get(Xapian::Database& db, const IndexVersion& version, Compute compute) {
    std::shared_ptr<const T> current;
    {
      std::lock_guard lock(current_);
      current = value_;
    }
    if (current && current->version == version) return current;
    if (current && current->version.layout != version.layout) current.reset();  // wait for it
    std::unique_lock building(build_, std::defer_lock);
    if (!current)
      building.lock();  // the first: wait for it
    else if (!building.try_lock())
      return current;  // another request is computing it
    {
      std::lock_guard lock(current_);  // computed while this one waited?
      if (value_ && value_->version == version) return value_;
    }
    std::shared_ptr<const T> fresh = compute(db);
    std::lock_guard lock(current_);
    value_ = fresh;
    return fresh;
  }

 private:
  std::mutex build_;    // held while computing
  std::mutex current_;  // guards value_
  std::shared_ptr<const T> value_;
};

}  // namespace strata::server
